"""Shared fixtures: a real bot on a real SQLite file, inside SimCord's simulated Discord."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass

import discord
import pytest
from simcord import Env
from simcord.builders import UserHandle

from bot import create_bot


@pytest.fixture
def database_path(tmp_path):
    return tmp_path / "wari.sqlite3"


#: Every bot a test built; their databases and worker pools are closed after the test.
_BOTS: list = []


def make_bot(database_path, **options):
    """The bot as production builds it; a seeded RNG settles 'random' first players."""
    options.setdefault("rng", random.Random(2026))
    bot = create_bot(database_path, **options)
    _BOTS.append(bot)
    return bot


@pytest.fixture(autouse=True)
async def close_bots():
    """SimCord detaches a bot without closing it: close what it opened, as a shutdown would."""
    yield
    while _BOTS:
        await close_bot(_BOTS[-1])


async def close_bot(bot) -> None:
    """Close what a bot opened (its search workers, its database), once."""
    if bot in _BOTS:
        _BOTS.remove(bot)
    cog = bot.get_cog("Wari")
    if cog is not None:
        cog.computer.close()
    if hasattr(bot, "store"):
        await bot.store.close()


@pytest.fixture
def simcord_bot(database_path):
    return make_bot(database_path)


@dataclass
class World:
    env: object
    guild: object
    channel: object
    alice: object
    bob: object
    carol: object
    mod: object
    database_path: object

    @property
    def me(self) -> UserHandle:
        """The bot's own user, to pick as an option."""
        return UserHandle(self.env, self.env.backend.bot_user)

    async def restart(self) -> None:
        """A fresh bot process on the same database file, as after a deploy or a crash."""
        await self.env.restart_bot(make_bot(self.database_path))


def populate(env, database_path) -> World:
    """The Wari Club server: a #games channel, three members and a moderator."""
    guild = env.create_guild("Wari Club")
    channel = guild.create_text_channel("games")
    moderators = guild.create_role("Moderators", permissions=discord.Permissions(manage_messages=True))
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    mod = guild.add_member(env.create_user("mod"), roles=[moderators])
    return World(env, guild, channel, alice, bob, carol, mod, database_path)


@pytest.fixture
async def world(simcord_env, database_path) -> World:
    return populate(simcord_env, database_path)


@contextlib.asynccontextmanager
async def fresh_world(database_path, **options) -> AsyncIterator[World]:
    """A world of its own, for a test that needs many (as the ``world`` fixture builds one):
    SimCord's errors in the bot fail the test here too. ``options`` go to SimCord's ``Env``."""
    env = Env(make_bot(database_path), **options)
    await env.start()
    try:
        yield populate(env, database_path)
    finally:
        await env.shutdown()
        await close_bot(env.bot)
    env.raise_errors()  # what the bot raised fails the test, as with the fixture
