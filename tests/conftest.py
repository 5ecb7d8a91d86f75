"""Shared fixtures: a real bot on a real database, inside SimCord's simulated Discord.

The story tests (those of the ``world`` fixture) run twice: on a SQLite file and on a PostgreSQL
database of a real server that :mod:`tests.postgres` starts for the session.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

import discord
import pytest
from simcord import ChannelHandle, Env, GuildHandle, MemberActor
from simcord.builders import UserHandle

from bot import create_bot
from bot.engine import core

pytest_plugins = ["tests.postgres"]


#: Debian's Chromium, for the real-browser tests.
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@dataclass(frozen=True)
class Need:
    """What a marked test needs: whether this machine has it, what says so where it is missing, and
    the settings under which it must be there (CI provides every need: ``.ci/run``)."""

    description: str
    present: Callable[[], bool]
    missing_where_required: str
    missing_here: str
    required_by: tuple[str, ...] = ("CI",)


#: The markers of tests that need something beyond the Python packages: skipped where it is
#: missing, saying why, but failed where it is required (CI; ``make screenshots`` for Chromium).
NEEDS = {
    "compiled_core": Need(
        "the test needs the compiled core (bot/engine/_core.c)",
        lambda: core._core is not None,
        "the compiled core was not built (CI builds it: pip install -e .)",
        "the compiled core was not built on this machine (pip install -e . with a C compiler builds it)",
    ),
    "chromium": Need(
        "the test drives a real browser",
        lambda: CHROMIUM is not None,
        "this test needs Chromium (Debian: apt-get install chromium; .ci/run installs it)",
        "needs Chromium (Debian: apt-get install chromium)",
        ("CI", "WARI_SANDBOX_SCREENSHOT"),
    ),
}


def pytest_configure(config):
    for name, need in NEEDS.items():
        config.addinivalue_line("markers", f"{name}: {need.description}; skipped where missing, failed in CI")


def pytest_runtest_setup(item):
    """A marked test whose need is missing is skipped on a developer's machine, saying why; where
    the need is required (CI), a missing one fails the test instead of hiding it."""
    for name, need in NEEDS.items():
        if item.get_closest_marker(name) is None or need.present():
            continue
        if any(os.environ.get(setting) for setting in need.required_by):
            pytest.fail(need.missing_where_required, pytrace=False)
        pytest.skip(need.missing_here)


#: The back ends the story tests run on.
BACKENDS = ("sqlite", "postgresql")


@pytest.fixture
def database_path(tmp_path):
    """A SQLite file, for the tests of what only SQLite has (its file, its backups)."""
    return tmp_path / "wari.sqlite3"


@pytest.fixture(params=BACKENDS)
def database(request, database_path):
    """Each back end in turn: a SQLite file, then a fresh database of the test PostgreSQL server."""
    return database_path if request.param == "sqlite" else request.getfixturevalue("postgres_url")


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
def bot_options() -> dict:
    """The options of the bots a test's world runs (a test module may override it): none, so the
    cups show as text (``cup_emojis`` off, the bot's own default)."""
    return {}


@pytest.fixture
def simcord_bot(database, bot_options):
    return make_bot(database, **bot_options)


@dataclass
class World:
    env: Env
    guild: GuildHandle
    channel: ChannelHandle
    alice: MemberActor
    bob: MemberActor
    carol: MemberActor
    mod: MemberActor
    #: The database: a SQLite file or a PostgreSQL URL.
    database: Path | str
    #: The options its bots are made with (see the ``bot_options`` fixture).
    bot_options: dict = field(default_factory=dict)

    @property
    def me(self) -> UserHandle:
        """The bot's own user, to pick as an option."""
        return UserHandle(self.env, self.env.backend.bot_user)

    async def restart(self) -> None:
        """A fresh bot process on the same database file, as after a deploy or a crash."""
        await self.env.restart_bot(make_bot(self.database, **self.bot_options))


def populate(env, database, bot_options: dict | None = None) -> World:
    """The Wari Club server: a #games channel, three members and a moderator."""
    guild = env.create_guild("Wari Club")
    channel = guild.create_text_channel("games")
    moderators = guild.create_role("Moderators", permissions=discord.Permissions(manage_messages=True))
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    mod = guild.add_member(env.create_user("mod"), roles=[moderators])
    return World(env, guild, channel, alice, bob, carol, mod, database, dict(bot_options or {}))


@pytest.fixture
async def world(simcord_env, database, bot_options) -> World:
    return populate(simcord_env, database, bot_options)


@contextlib.asynccontextmanager
async def fresh_world(database, **options) -> AsyncIterator[World]:
    """A world of its own, for a test that needs many (as the ``world`` fixture builds one):
    SimCord's errors in the bot fail the test here too. ``options`` go to SimCord's ``Env``."""
    env = Env(make_bot(database), **options)
    await env.start()
    try:
        yield populate(env, database)
    finally:
        await env.shutdown()
        await close_bot(env.bot)
    env.raise_errors()  # what the bot raised fails the test, as with the fixture


@pytest.fixture(autouse=True)
def generous_cooldowns(request, monkeypatch):
    """SimCord's clock stands still unless a story moves it, so a story that starts twelve games
    in a row does so in one instant: the cooldowns (:mod:`bot.limits`) would refuse it.
    Every story but those of the cooldowns themselves runs with limits no story reaches."""
    import dataclasses

    from bot import limits

    if request.module.__name__.endswith("test_cooldowns"):
        return
    for name, budget in list(limits.LIMITS.items()):
        generous = dataclasses.replace(
            budget, user=limits.Limit(1000, budget.user.per), server=limits.Limit(1000, budget.server.per)
        )
        monkeypatch.setitem(limits.LIMITS, name, generous)
