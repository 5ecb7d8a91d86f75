"""How long the tournament logic takes at size: Swiss pairing (FIDE Dutch, through
``caissify-pairings``), standings, crosstable and TRF report::

    .venv/bin/python -m benchmarks.tournament
    .venv/bin/python -m benchmarks.tournament --players 1000 --limit 600 --sizes 50 100 200

Timed, each once, on one core:

* round 1 of a Swiss of ``--players`` (1,000): the Dutch system's first round is a plain split of
  the rating list;
* a later round, round ``--round`` (4) of ``--rounds`` (7), after rounds played with random results:
  for ``--players`` and for each of ``--sizes``, each in a child process stopped after ``--limit``
  seconds (the engine's weighted matchings are pure Python; past the limit the figure reads
  ``> limit``). The earlier rounds are paired by caissify's fast ``casual`` engine, so that only
  the timed round pays the Dutch system's price;
* the standings (Buchholz cut-1, Sonneborn-Berger, wins, direct encounter), the crosstable and
  the TRF16 report of ``--standings`` (200) players after ``--rounds`` rounds;
* an arena wave: :func:`bot.tournament.arena_pairs` for all ``--players`` free at once.

With the defaults it takes about a quarter of an hour, nearly all of it in the later rounds of 200
players (about 3 minutes) and of 1,000 (stopped at the limit).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from caissify_pairings import generate_pairings  # noqa: E402

from bot.tournament import (  # noqa: E402
    SWISS_TIEBREAKS,
    Entrant,
    Pairing,
    arena_pairs,
    crosstable_text,
    pair_swiss,
    swiss_standings,
    tournament_trf,
)
from bot.tournament.swiss import DUTCH_PLAYERS, engine_players, played_pairs  # noqa: E402

RESULTS = (1.0, 0.5, 0.0)


def field(players: int, seed: int) -> list[Entrant]:
    rng = random.Random(seed)
    return [Entrant(user, f"Player {user}", 1000 + rng.randrange(1500)) for user in range(1, players + 1)]


def casual_round(entrants: list[Entrant], history: list[Pairing], number: int, total: int) -> list[Pairing]:
    """A round paired by caissify's ``casual`` engine (greedy, fast): history for the timed rounds."""
    rows = generate_pairings("casual", engine_players(entrants, history, number), played_pairs(history), number, total)
    return [Pairing(number, row["white_id"], row.get("black_id")) for row in rows]


def played(entrants: list[Entrant], rounds: int, total: int, seed: int) -> list[Pairing]:
    """``rounds`` rounds with random results (byes scored)."""
    rng = random.Random(seed)
    history: list[Pairing] = []
    for number in range(1, rounds + 1):
        history += [
            Pairing(p.round, p.first, p.second, 1.0 if p.is_bye else rng.choice(RESULTS))
            for p in casual_round(entrants, history, number, total)
        ]
    return history


def timed(action: Callable[[], Any]) -> tuple[float, Any]:
    began = time.perf_counter()
    answer = action()
    return time.perf_counter() - began, answer


def later_round(players: int, number: int, total: int, system: str | None, answers: Any) -> None:
    """In a child process: time round ``number`` of a field of ``players`` paired by ``system``
    (``None``: as the bot pairs it), send the seconds."""
    entrants = field(players, seed=players)
    history = played(entrants, number - 1, total, seed=players)
    seconds, _ = timed(lambda: pair_swiss(entrants, history, number, total, system=system))
    answers.put(seconds)


def within(limit: float, players: int, number: int, total: int, system: str | None) -> float | None:
    """The seconds of :func:`later_round`, or ``None`` if it ran past ``limit``."""
    answers: Any = multiprocessing.Queue()
    child = multiprocessing.Process(target=later_round, args=(players, number, total, system, answers))
    child.start()
    child.join(limit)
    if child.is_alive():
        child.terminate()
        child.join()
        return None
    return answers.get()


def seconds_text(seconds: float | None, limit: float) -> str:
    return f"> {limit:.0f} s (stopped)" if seconds is None else f"{seconds:.3f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--sizes", type=int, nargs="*", default=[50, 100, 200], help="more fields for the later round")
    parser.add_argument("--round", type=int, default=4, help="the later round timed")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--standings", type=int, default=200, help="players of the standings")
    parser.add_argument("--limit", type=float, default=600.0, help="seconds allowed to each later round")
    args = parser.parse_args()

    entrants = field(args.players, seed=1)
    seconds, pairs = timed(lambda: pair_swiss(entrants, [], 1, args.rounds))
    print(f"Swiss round 1, {args.players} players: {seconds:.3f} s ({len(pairs)} boards)")
    for players in sorted({*args.sizes, args.players}):
        for system, how in (
            (None, f"as shipped ({'dutch' if players <= DUTCH_PLAYERS else 'casual'})"),
            ("dutch", "FIDE Dutch"),
        ):
            result = within(args.limit, players, args.round, args.rounds, system)
            took = seconds_text(result, args.limit)
            print(f"Swiss round {args.round} of {args.rounds}, {players} players, {how}: {took}")

    field_ = field(args.standings, seed=2)
    history = played(field_, args.rounds, args.rounds, seed=2)
    seconds, standings = timed(lambda: swiss_standings(field_, history))
    print(f"standings, {args.standings} players after {args.rounds} rounds: {seconds * 1000:.1f} ms")
    seconds, _ = timed(lambda: crosstable_text(field_, history, standings, tiebreak_names=SWISS_TIEBREAKS))
    print(f"crosstable, the same: {seconds * 1000:.1f} ms")
    seconds, _ = timed(lambda: tournament_trf("Bench", date.today(), date.today(), field_, history, args.rounds))
    print(f"TRF16 report, the same: {seconds * 1000:.1f} ms")

    ratings = {e.user_id: e.rating for e in entrants}
    last = {e.user_id: (e.user_id % args.players) + 1 for e in entrants}
    seconds, pairs = timed(lambda: arena_pairs([e.user_id for e in entrants], last, ratings, {}))
    print(f"arena wave, {args.players} free: {seconds * 1000:.1f} ms ({len(pairs)} games)")


if __name__ == "__main__":
    main()
