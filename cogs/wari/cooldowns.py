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
``game``    challenge, seek, play, exhibition, the Rematch   each posts a board in the
            button                                           channel, and the computer's
                                                             games keep a search busy
``post``    every command above that posts in the channel,   no member, and no crowd, can
            and board, draw, takeback                        fill a channel with the bot's
                                                             messages (counted per channel)
==========  ===============================================  =================================

Every budget has a bucket per member and one per server (``post``: per member in a channel,
and per channel); a command runs only if all its buckets have a token left, and takes one from
each (a refused command takes none, so hammering a command never eats the server's budget for
the others). The numbers are below, in one place, and tests may replace them
(``monkeypatch.setitem(bot.limits.LIMITS, ...)``): they are read at each command. They live in
:mod:`bot.limits`, outside this package, because unloading the extension (a restart of the
cog) drops this package's modules, and a new load imports them afresh.

The time is Discord's (``discord.utils.utcnow``), not this machine's: a simulated Discord's
virtual clock in tests. The buckets are
kept per bot, so two bots in one process (tests, a restart) do not share them.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import TypeVar

import discord
from discord import app_commands

from bot.limits import LIMITS, Limit

T = TypeVar("T")


class ServerOnCooldown(app_commands.CommandOnCooldown):
    """The server's (or the channel's) bucket is empty (the member's own may not be): the answer says so."""


#: A bucket's key: the budget, the scope ("user" or "server") and whose it is (a member, a
#: server; for a per-channel budget, a member in a channel, or the channel).
Key = tuple[str, str, Hashable]
#: Each bot's buckets.
_BUCKETS: weakref.WeakKeyDictionary[discord.Client, dict[Key, app_commands.Cooldown]] = weakref.WeakKeyDictionary()


def buckets(client: discord.Client) -> dict[Key, app_commands.Cooldown]:
    """The buckets of one bot (a fresh bot starts with full buckets)."""
    return _BUCKETS.setdefault(client, {})


def spend(
    client: discord.Client,
    budgets: Iterable[str],
    *,
    user_id: int,
    guild_id: int | None,
    channel_id: int | None,
    now: float,
) -> None:
    """Take a token of each of ``budgets`` from the member's bucket and the server's (for a
    per-channel budget, the member's in that channel and the channel's), at ``now`` (seconds
    since the epoch); raise :class:`~discord.app_commands.CommandOnCooldown` (a member's bucket
    is empty) or :class:`ServerOnCooldown` (a shared one is), taking nothing, if any is empty."""
    held = buckets(client)
    for key in [key for key, bucket in held.items() if bucket.get_tokens(now) == bucket.rate]:
        del held[key]  # windows that ended: a full bucket is the same as none
    wanted: list[tuple[Key, Limit]] = []
    for budget in budgets:
        limits = LIMITS[budget]
        if limits.per_channel:
            if channel_id is not None:
                wanted += [((budget, "user", (user_id, channel_id)), limits.user)]
                wanted += [((budget, "server", channel_id), limits.server)]
        else:
            wanted.append(((budget, "user", user_id), limits.user))
            if guild_id is not None:
                wanted.append(((budget, "server", guild_id), limits.server))
    chosen: list[app_commands.Cooldown] = []
    for key, limit in wanted:
        bucket = held.get(key)
        if bucket is None or (bucket.rate, bucket.per) != (limit.rate, limit.per):
            bucket = held[key] = app_commands.Cooldown(limit.rate, limit.per)
        retry_after = bucket.get_retry_after(now)
        if retry_after > 0:
            error = app_commands.CommandOnCooldown if key[1] == "user" else ServerOnCooldown
            raise error(bucket, retry_after)
        chosen.append(bucket)
    for bucket in chosen:
        bucket.update_rate_limit(now)


def charge(interaction: discord.Interaction, *budgets: str) -> None:
    """Spend ``budgets`` for ``interaction``'s member, server and channel now (Discord's time: a
    simulated Discord runs its own); for a button, whose press is not a command."""
    spend(
        interaction.client,
        budgets,
        user_id=interaction.user.id,
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        now=discord.utils.utcnow().timestamp(),
    )


def posts_publicly(interaction: discord.Interaction) -> bool:
    """Whether a command posts in the channel: always, unless it has a ``public`` option and it
    is off (as given, else its default)."""
    command = interaction.command
    parameter = command.get_parameter("public") if isinstance(command, app_commands.Command) else None
    if parameter is None:
        return True
    return bool(getattr(interaction.namespace, "public", parameter.default))


@dataclass(frozen=True)
class Spending:
    """The check of a limited command (:func:`limited`): it spends ``budgets`` for the member, the
    server and the channel, or raises if one is empty. A class, so that a command's limits can be
    found among its checks (a test walks the command tree for them)."""

    budgets: tuple[str, ...]

    def __call__(self, interaction: discord.Interaction) -> bool:
        charge(interaction, *[b for b in self.budgets if b != "post" or posts_publicly(interaction)])
        return True


def limited(*budgets: str) -> Callable[[T], T]:
    """A command that spends each of ``budgets`` (names of :data:`LIMITS`) each time it runs;
    ``"post"`` only when it posts (:func:`posts_publicly`). A check, so a refusal is answered
    (by the command tree's error handler, the presenter's report) before the command does anything."""
    for budget in budgets:
        if budget not in LIMITS:
            raise ValueError(f"no cooldown budget named {budget!r}")
    return app_commands.check(Spending(budgets))
