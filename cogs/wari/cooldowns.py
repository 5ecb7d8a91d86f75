"""Cooldowns: how often one member, and one whole server, may run the commands that cost the bot
work (a search, a chart, a record drawn) or post a message in a channel.

Each limited command draws on a *budget* shared by the commands of its kind, so that a member
cannot get round a limit by switching commands:

==========  ===============================================  =================================
budget      commands                                         why
==========  ===============================================  =================================
``look``    stats, leaderboard, history, record, replay      a chart, a ranking or a record is
                                                             drawn each time, and ``public``
                                                             posts it in the channel
``game``    challenge, seek, play, exhibition                each posts a board in the
                                                             channel, and the computer's
                                                             games keep a search busy
==========  ===============================================  =================================

Every budget has a bucket per member and one per server; a command runs only if both have a
token left, and takes one from each (a refused command takes none, so hammering a command
never eats the server's budget for the others). The numbers are below, in one place, and
tests may replace them (``monkeypatch.setitem(bot.limits.LIMITS, ...)``): they are read at each
command. They live in :mod:`bot.limits`, outside this package, because unloading the extension
(a restart of the cog) drops this package's modules, and a new load imports them afresh.

The time is Discord's (``discord.utils.utcnow``), not this machine's: a simulated Discord's
virtual clock in tests. The buckets are
kept per bot, so two bots in one process (tests, a restart) do not share them.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TypeVar

import discord
from discord import app_commands

from bot.limits import LIMITS

T = TypeVar("T")


class ServerOnCooldown(app_commands.CommandOnCooldown):
    """The server's bucket is empty (the member's own may not be): the answer says so."""


#: Each bot's buckets, by (budget, "user" or "server", id).
_BUCKETS: weakref.WeakKeyDictionary[discord.Client, dict[tuple[str, str, int], app_commands.Cooldown]] = (
    weakref.WeakKeyDictionary()
)


def buckets(client: discord.Client) -> dict[tuple[str, str, int], app_commands.Cooldown]:
    """The buckets of one bot (a fresh bot starts with full buckets)."""
    return _BUCKETS.setdefault(client, {})


def spend(client: discord.Client, budget: str, user_id: int, guild_id: int | None, now: float) -> None:
    """Take a token of ``budget`` from the member's bucket and the server's, at ``now`` (seconds
    since the epoch); raise :class:`~discord.app_commands.CommandOnCooldown` (the member's
    bucket is empty) or :class:`ServerOnCooldown` (the server's is), taking nothing, if either
    is empty."""
    limits = LIMITS[budget]
    held = buckets(client)
    for key in [key for key, bucket in held.items() if bucket.get_tokens(now) == bucket.rate]:
        del held[key]  # windows that ended: a full bucket is the same as none
    wanted = [(("user", user_id), limits.user)]
    if guild_id is not None:
        wanted.append((("server", guild_id), limits.server))
    chosen: list[app_commands.Cooldown] = []
    for (scope, owner), limit in wanted:
        bucket = held.get((budget, scope, owner))
        if bucket is None or (bucket.rate, bucket.per) != (limit.rate, limit.per):
            bucket = held[(budget, scope, owner)] = app_commands.Cooldown(limit.rate, limit.per)
        retry_after = bucket.get_retry_after(now)
        if retry_after > 0:
            error = app_commands.CommandOnCooldown if scope == "user" else ServerOnCooldown
            raise error(bucket, retry_after)
        chosen.append(bucket)
    for bucket in chosen:
        bucket.update_rate_limit(now)


def limited(budget: str) -> Callable[[T], T]:
    """A command that spends ``budget`` (one of :data:`LIMITS`) each time it runs: a check, so
    a refusal reaches the cog's error handler before the command does anything."""
    if budget not in LIMITS:
        raise ValueError(f"no cooldown budget named {budget!r}")

    def predicate(interaction: discord.Interaction) -> bool:
        now = discord.utils.utcnow().timestamp()  # Discord's time (a simulated Discord runs its own)
        spend(interaction.client, budget, interaction.user.id, interaction.guild_id, now)
        return True

    return app_commands.check(predicate)
