"""How long the bot's moves in live games wait while games are being analysed.

``python -m benchmarks.analysis_priority [--moves 12] [--analyses 2]`` starts the bot's
:class:`bot.service.Computer` (its real worker pool, sized to the machine) and times the expert's
moves (0.25 s of thinking each, one after another as a game against the bot asks for them, in a
position past its opening book: searched, every run) three times in the same run: on an idle
pool (the baseline); while ``--analyses`` analyses of a 120-ply game run as the bot runs them
(:meth:`Computer.in_background`, which leaves a worker to the moves); and while they run as
ordinary work, for comparison. It prints each move's time to answer at the median and the
worst, and the median's ratio to the idle pool's.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from bot.ai import make_player
from bot.ai.analysis.judge import sowing_count
from bot.ai.book import Book
from bot.ai.tables import best_move
from bot.ai.worker import analyse_position, choose_move
from bot.engine import Game
from bot.engine.notation import from_record, record
from bot.service import Computer

THINKING = 0.25
#: The moves that lead to the position the timed moves are played in: one ply past the opening
#: book (its first 3 plies), every seed still on the board.
OPENING = (1, 7, 2, 8)


def long_game(plies: int = 120) -> str:
    """The record of a game of ``plies`` moves (or to its end) between two quick experts."""
    game = Game("wari")
    players = [make_player("greedy", seed=1), make_player("mcts", seed=2)]
    while not game.is_over and game.ply < plies:
        mover = game.to_move
        assert mover is not None
        game.play(players[int(mover)].choose(game, 0.01).house)
    return record(game, "A", "B")


def searched_position() -> str:
    """The record of the position the timed moves are played in, the same every run: one where
    the expert searches for its whole time. A book move, an endgame table's, a forced move or a
    finished game would answer at once, and the times would say nothing of the pool."""
    game = Game("wari")
    for house in OPENING:
        game.play(house)
    book = Book.for_variant("wari")
    if (book is not None and book.move(game) is not None) or len(game.legal_moves) < 2 or best_move(game):
        raise ValueError(f"the expert would not search after {OPENING}: choose moves past its book")
    return record(game, "A", "B")


async def timed_moves(computer: Computer, text: str, count: int) -> list[float]:
    """The time to answer of ``count`` expert moves, one after another (their thinking included)."""
    times = []
    for index in range(count):
        began = time.perf_counter()
        await computer.in_worker(choose_move, "expert", text, THINKING, index)
        times.append(time.perf_counter() - began)
    return times


async def analyse(computer: Computer, text: str, depth: str, *, background: bool = True) -> None:
    """One analysis as the service runs it: every position, one background call each (or, for
    the comparison, one ordinary call each, as if analyses had no lower priority)."""
    game, _tags = from_record(text)
    run = computer.in_background if background else computer.in_worker
    for ply in range(sowing_count(game) + 1):
        await run(analyse_position, text, ply, depth)


async def during(
    computer: Computer, text: str, searched: str, analyses: int, moves: int, background: bool
) -> list[float]:
    """The moves' times to answer while ``analyses`` analyses run."""
    running = [
        asyncio.ensure_future(analyse(computer, text, "default", background=background)) for _ in range(analyses)
    ]
    await asyncio.sleep(0.5)  # the analyses are under way
    try:
        return await timed_moves(computer, searched, moves)
    finally:
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)


async def main(moves: int, analyses: int) -> None:
    text = long_game()
    searched = searched_position()
    computer = Computer(service=None)  # type: ignore[arg-type]  # only its pool is used here
    try:
        await timed_moves(computer, searched, computer.workers)  # start every worker before timing
        idle = await timed_moves(computer, searched, moves)
        shipped = await during(computer, text, searched, analyses, moves, background=True)
        unranked = await during(computer, text, searched, analyses, moves, background=False)
    finally:
        computer.close()
    print(f"workers: {computer.workers}; {moves} expert moves of {THINKING} s; {analyses} analyses of a 120-ply game")
    baseline = statistics.median(idle)
    for name, times in (("idle pool", idle), ("analyses as shipped", shipped), ("analyses not held back", unranked)):
        p50, worst = statistics.median(times), max(times)
        print(
            f"{name:24} answer p50 {1000 * p50:5.0f} ms, worst {1000 * worst:5.0f} ms ({p50 / baseline:.2f}x idle p50)"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--analyses", type=int, default=2)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.moves, arguments.analyses))
