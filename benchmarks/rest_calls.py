"""``python -m benchmarks.rest_calls``: how many REST calls a move costs, counted from the simulated
Discord's request log, with the ping rules the bot ships and without them (the baseline).

Discord allows a bot about 50 REST requests a second outside interaction answers: what a move
costs beyond its answer decides how many live games the bot can carry. The real bot
(:func:`bot.client.create_bot`, a real SQLite file) plays each case through SimCord; between two
presses the simulated clock moves on (the sweeps run meanwhile), as fast as the case's players:

- ``5+3, present``: a real-time game, a move every 5 seconds;
- ``1d/move, present``: a correspondence game whose two players happen to be at the board,
  a move every 20 seconds;
- ``1d/move, away``: a correspondence game, a move every 3 minutes (each player has left);
- ``computer``: a person against the ``greedy`` level, pressing 5 seconds after the computer's
  answer; a "move" is the person's press and the computer's answer. (A person who presses
  later is still at the board when the answer comes a moment after their press: only a
  computer that thinks longer than :data:`~bot.service.turns.PRESENT` pings them.)

Every request the bot makes from the first press to the last is counted: the answers, the ping
messages, their deletions, the computer's board edits. The baseline is the same play with the
bot's presence rules switched off (:data:`bot.service.turns.PRESENT` and
:data:`~bot.service.turns.PING_DELAY` zero): a ping after every move and the last one deleted,
as the bot did before them::

    .venv/bin/python -m benchmarks.rest_calls --moves 30
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import simcord

from benchmarks.bench import legal_cups
from bot.client import create_bot
from bot.service import turns


@dataclass(frozen=True)
class Case:
    name: str
    #: ``None``: two people; else the computer's level.
    level: str | None
    clock: str
    #: Simulated seconds between a move and the next press.
    gap: float


CASES = (
    Case("5+3, present", None, "5+3", 5),
    Case("1d/move, present", None, "1d/move", 20),
    Case("1d/move, away", None, "1d/move", 180),
    Case("computer", "greedy", "1d/move", 5),
)


async def play(env: simcord.Env, case: Case, moves: int, rng: random.Random) -> tuple[int, int]:
    """Play ``moves`` moves (fewer if the game ends) of ``case``; the REST calls made and the moves."""
    guild = env.create_guild("Wari REST")
    channel = guild.create_text_channel("games")
    alice, bob = (guild.add_member(env.create_user(name)) for name in ("alice", "bob"))
    if case.level is None:
        sent = await alice.slash(channel, "wari challenge", opponent=bob, first="me", clock=case.clock)
    else:
        sent = await alice.slash(channel, "wari play", level=case.level, first="me", clock=case.clock)
    board = sent.response
    if board is None or sent.ephemeral:
        raise RuntimeError(f"the game of {case.name!r} did not start: {board and board.content!r}")
    if case.level is None:
        await bob.click(board, label="Accept")
    players = (alice, bob)
    before, played = len(env.backend.http_requests), 0
    while played < moves and (cups := legal_cups(board)):
        await env.advance_time(case.gap)
        player = players[played % 2] if case.level is None else alice
        await player.click(board, custom_id=rng.choice(cups))
        played += 1
    await env.advance_time(case.gap)  # what the last move still calls for
    return len(env.backend.http_requests) - before, played


async def measure(case: Case, moves: int, seed: int, *, presence: bool) -> float:
    """REST calls per move of ``case``, with the presence rules on or off."""
    saved = turns.PRESENT, turns.PING_DELAY
    if not presence:
        turns.PRESENT = turns.PING_DELAY = timedelta(0)
    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(Path(folder) / "wari.sqlite3", rng=random.Random(seed))
        try:
            async with simcord.run(bot, settle_timeout=60) as env:
                calls, played = await play(env, case, moves, random.Random(seed))
        finally:
            turns.PRESENT, turns.PING_DELAY = saved
            if hasattr(bot, "store"):
                await bot.store.close()
    return calls / played


async def run(moves: int, seed: int) -> list[tuple[Case, float, float]]:
    return [
        (case, await measure(case, moves, seed, presence=False), await measure(case, moves, seed, presence=True))
        for case in CASES
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=30, help="moves played in each case (default 30)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rows = asyncio.run(run(args.moves, args.seed))
    print(f"REST calls per move ({args.moves} moves a case; a move against the computer is both sides')")
    print(f"{'case':<20} {'no presence rules':>18} {'as shipped':>11} {'ratio':>6}")
    for case, before, after in rows:
        print(f"{case.name:<20} {before:>18.2f} {after:>11.2f} {after / before:>6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
