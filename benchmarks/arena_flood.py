"""``python -m benchmarks.arena_flood``: what an arena does to its channel. A moderator makes a
``--players`` (20) player, ``--minutes`` (30) minute arena in #arena, everyone presses Join, and
simulated time runs (SimCord's ``advance_time``) in steps of ``--step`` (5) seconds: at each
step the player to move in every game under way presses a random legal cup (a real click on the
board), until the arena is over. Every message Discord stored is counted as it was posted (a
ping deleted later still notified), and printed::

    .venv/bin/python -m benchmarks.arena_flood
    .venv/bin/python -m benchmarks.arena_flood --players 6 --minutes 10

- messages in the channel (the bot's and Discord's "started a thread" notes), and in threads;
- threads opened;
- notifications: for each player, the messages that pinged them, against the games they played
  (a player is to be notified at most once per game).

Ephemeral answers (seen by one member, notifying nobody) are left out.

Measured (seed 1, SimCord; 20 players, 30 minutes), before and after the event's games moved into
one thread of the event (issue 35)::

                               a press every 5 s        a press every 10 s (time-outs)
                               before     after         before     after
    games played               40         40            30         30
    messages in the channel    59 (40)    4 (1)         44 (30)    4 (1)     (Discord's thread notes)
    messages in threads        40         56            49         60
    threads opened             40         1             30         1
    notifications              80         80            98         60
    most beyond one per game   0          0             2          0
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import discord
import simcord

from benchmarks.bench import legal_cups
from benchmarks.cooldowns import cooldowns_lifted
from bot.client import create_bot
from bot.service import Table
from bot.service.tournaments import TournamentService

EPHEMERAL = 1 << 6


@dataclass
class Flood:
    """What the arena posted, as counted by :func:`counting`."""

    channel_id: int
    #: Messages posted straight into the event's channel, and into threads.
    in_channel: int = 0
    in_threads: int = 0
    #: Of the channel's: Discord's own notes ("started a thread"), not the bot's messages.
    system_notes: int = 0
    threads: set[int] = field(default_factory=set)
    #: Messages that pinged each user.
    pings: Counter[int] = field(default_factory=Counter)
    #: What pinged: the first words of each message that notified someone, and how many it notified.
    pinging: Counter[str] = field(default_factory=Counter)
    #: Games each player played (filled in at the end).
    games: Counter[int] = field(default_factory=Counter)
    presses: int = 0

    def report(self) -> list[str]:
        players = sorted(self.games)
        per_game = [self.pings[p] / self.games[p] for p in players if self.games[p]]
        most = max((self.pings[p] - self.games[p] for p in players), default=0)
        counts = [self.pings[p] for p in players]
        return [
            f"games played: {sum(self.games.values()) // 2} ({self.presses} presses)",
            f"messages in the channel: {self.in_channel} ({self.system_notes} of them Discord's thread notes)",
            f"messages in threads: {self.in_threads}",
            f"threads opened: {len(self.threads)}",
            f"notifications: {sum(counts)} to {len(players)} players, "
            f"per player {min(counts, default=0)}-{max(counts, default=0)}, "
            f"per game played {min(per_game, default=0):.2f}-{max(per_game, default=0):.2f}",
            f"most notifications beyond one per game: {most}",
            "what notified (first words: notifications):",
            *(f"  {words!r}: {count}" for words, count in self.pinging.most_common()),
        ]


def counting(env: simcord.Env, flood: Flood) -> None:
    """Count every message the backend stores from now on (see :class:`Flood`)."""
    backend = env.backend
    commit = backend.commit_message

    def counted(message, *args, **kwargs):
        stored = commit(message, *args, **kwargs)
        if stored.flags & EPHEMERAL:
            return stored
        channel = backend.channels.get(stored.channel_id)
        if stored.channel_id == flood.channel_id:
            flood.in_channel += 1
            flood.system_notes += stored.type not in (0, 19, 20)  # default, reply, a command's answer
        elif channel is not None and channel.parent_id == flood.channel_id:
            flood.in_threads += 1
        flood.pings.update(set(stored.ping_user_ids))
        if stored.ping_user_ids:
            words = " ".join(re.sub(r"<@[0-9]+>", "@", stored.content).split()[:4])
            flood.pinging[words] += len(set(stored.ping_user_ids))
        return stored

    setattr(backend, "commit_message", counted)  # noqa: B010 (mypy refuses assigning to a method)


async def arena(env: simcord.Env, players: int, minutes: int, step: int, rng: random.Random) -> Flood:
    guild = env.create_guild("Wari arena")
    channel = guild.create_text_channel("arena")
    moderators = guild.create_role("Moderators", permissions=discord.Permissions(manage_messages=True))
    mod = guild.add_member(env.create_user("arbiter"), roles=[moderators])
    flood = Flood(channel.id)
    counting(env, flood)
    with cooldowns_lifted():
        made = await mod.slash(
            channel,
            "wari-mod tournament create",
            name="Blitz",
            format="arena",
            starts="in 1 minute",
            duration=minutes,
            clock="5+3",
        )
        if made.response is None or made.ephemeral:
            raise RuntimeError(f"the arena was not made: {made.response and made.response.content!r}")
        members = {}
        for number in range(1, players + 1):
            member = guild.add_member(env.create_user(f"player{number}"))
            members[member.id] = member
            await member.click(made.response, label="Join")
        tournaments = TournamentService(env.bot.store)  # type: ignore[attr-defined]
        for _tick in range((minutes + 30) * 60 // step):
            await env.advance_time(step)
            event = await tournaments.event(1)
            if event.row.over:
                break
            for pairing in event.open_pairings:
                await press_once(env, members, pairing.game_id, rng, flood)
        event = await tournaments.event(1)
    for pairing in event.pairings:
        if pairing.second_id is not None and pairing.game_id is not None:
            flood.games.update((pairing.first_id, pairing.second_id))
    for user in members:
        flood.games.setdefault(user, 0)
    flood.threads = {c.id for c in env.backend.channels.values() if c.parent_id == channel.id}
    return flood


async def press_once(env: simcord.Env, members: dict, game_id: int | None, rng: random.Random, flood: Flood) -> None:
    """The player to move in game ``game_id`` presses a random legal cup, if its board is shown."""
    row = await env.bot.store.games.get_game(game_id) if game_id else None  # type: ignore[attr-defined]
    if row is None or not row.live or row.message_id is None:
        return
    board = simcord.ResponseMessage(env, env.backend.get_message(row.channel_id, row.message_id))
    cups = legal_cups(board)
    mover = members.get(Table.of(row).user_to_move)
    if cups and mover is not None:
        await mover.click(board, custom_id=rng.choice(cups))
        flood.presses += 1


async def run(players: int, minutes: int, step: int, seed: int) -> Flood:
    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(Path(folder) / "wari.sqlite3", rng=random.Random(seed))
        try:
            async with simcord.run(bot, settle_timeout=300) as env:
                return await arena(env, players, minutes, step, random.Random(seed))
        finally:
            if hasattr(bot, "store"):
                await bot.store.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--minutes", type=int, default=30, help="the arena's length")
    parser.add_argument("--step", type=int, default=5, help="simulated seconds between two presses of a game")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    flood = asyncio.run(run(args.players, args.minutes, args.step, args.seed))
    print(f"arena of {args.players} players, {args.minutes} minutes, a press every {args.step} s per game:")
    for line in flood.report():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
