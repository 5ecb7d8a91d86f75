"""``python -m benchmarks.tournament_press``: the press path during a round of a 100-player
tournament, against as many games outside any tournament, in the same run.

Both sides run the real bot (:func:`bot.client.create_bot`, a real SQLite file) in SimCord:

- *outside*: ``N`` games started by ``/wari challenge`` and Accept, one channel each
  (:func:`benchmarks.bench.open_games`);
- *tournament*: a moderator makes a Swiss, ``2N`` members press Join, the moderator starts it:
  round 1 is ``N`` games, each in a thread of the event's channel.

Then, on each side, ``--presses`` presses per game, round-robin over the games (the player to
move presses a random legal cup), each timed as :mod:`benchmarks.bench` times its presses. No
game is played to its end (an end also moves the event on: that is not the press path).
The table prints p50 and p99 per press on each side and the ratio tournament / outside::

    .venv/bin/python -m benchmarks.tournament_press --games 50 --presses 10
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import discord
import simcord

from benchmarks.bench import LiveGame, Spread, legal_cups, mover, open_games
from benchmarks.cooldowns import cooldowns_lifted
from benchmarks.press_timing import Press, timed
from bot.client import create_bot
from bot.service.tournaments import TournamentService


async def tournament_games(env: simcord.Env, count: int) -> list[LiveGame]:
    """A Swiss of ``2 * count`` players, started: its round-1 games."""
    with cooldowns_lifted():
        return await _tournament_games(env, count)


async def _tournament_games(env: simcord.Env, count: int) -> list[LiveGame]:
    guild = env.create_guild("Wari tournament")
    channel = guild.create_text_channel("event")
    moderators = guild.create_role("Moderators", permissions=discord.Permissions(manage_messages=True))
    mod = guild.add_member(env.create_user("arbiter"), roles=[moderators])
    made = await mod.slash(
        channel, "wari-mod tournament create", name="Bench", format="swiss", starts="in 1 hour", clock="1d/move"
    )
    if made.response is None or made.ephemeral:
        raise RuntimeError(f"the tournament was not made: {made.response and made.response.content!r}")
    members = {}
    for number in range(1, 2 * count + 1):
        member = guild.add_member(env.create_user(f"entrant{number}"))
        members[member.id] = member
        await member.click(made.response, label="Join")
    await mod.slash(channel, "wari-mod tournament start")
    event = await TournamentService(env.bot.store).event(1)  # type: ignore[attr-defined]
    games = []
    for pairing in event.round_pairings(1):
        if pairing.game_id is None or pairing.second_id is None:
            continue
        row = await env.bot.store.games.get_game(pairing.game_id)  # type: ignore[attr-defined]
        board = simcord.ResponseMessage(env, env.backend.get_message(row.channel_id, row.message_id))
        players = {m.name: m for m in (members[pairing.first_id], members[pairing.second_id])}
        games.append(LiveGame(channel, board, players, row.id))
    return games


async def press_each(games: Sequence[LiveGame], presses: int, rng: random.Random) -> list[Press]:
    timings = []
    for _ in range(presses):
        for game in games:
            cups = legal_cups(game.board)
            if not cups:
                continue
            result, press = await timed(mover(game).click(game.board, custom_id=rng.choice(cups)))
            if not result.acknowledged or result.ephemeral:
                raise RuntimeError(f"game #{game.game_id}: a press was refused")
            timings.append(press)
    return timings


async def run(count: int, presses: int, seed: int) -> dict[str, list[Press]]:
    figures = {}
    for side in ("outside", "tournament"):
        with tempfile.TemporaryDirectory() as folder:
            bot = create_bot(Path(folder) / "wari.sqlite3", rng=random.Random(seed))
            try:
                async with simcord.run(bot) as env:
                    games = await (
                        open_games(env, count, "wari") if side == "outside" else tournament_games(env, count)
                    )
                    figures[side] = await press_each(games, presses, random.Random(seed))
            finally:
                if hasattr(bot, "store"):
                    await bot.store.close()
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", type=int, default=50, help="games on each side (a tournament of twice as many players)"
    )
    parser.add_argument("--presses", type=int, default=10, help="presses per game (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    figures = asyncio.run(run(args.games, args.presses, args.seed))
    spreads = {side: Spread.of(p.done for p in presses) for side, presses in figures.items()}
    for side, spread in spreads.items():
        print(f"{side:<11} {len(figures[side])} presses: {spread}")
    outside, inside = spreads["outside"], spreads["tournament"]
    print(f"tournament / outside: p50 {inside.p50 / outside.p50:.2f}x, p99 {inside.p99 / outside.p99:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
