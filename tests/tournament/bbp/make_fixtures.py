"""Record bbpPairings' answers for random Swiss events, for ``test_against_bbpairings.py``.

bbpPairings (https://github.com/BieremaBoyzProgramming/bbpPairings, Apache-2.0) is a Dutch
engine endorsed by FIDE; it implements the 2025 Dutch rules (in force from 2026). This script
plays random events round by round: bbpPairings pairs each round from the event's TRF16 file
(written by the project's own :func:`~bot.tournament.tournament_trf`), the results are drawn at
random, and the next round is paired from those. It records each event's entrants and every
pairing bbpPairings made (first: white, the player who moves first), with the results, in
``events.json``; the test then asks ``pair_swiss`` for the same rounds.

Events have 4 to 30 players and 3 to 9 rounds (never more than the players allow), random
results with draws, byes (odd counts), withdrawals (a player leaves after some round), late
joiners (they play from round 2, as the bot allows) and forfeits (a game won or lost without
being played: TRF ``+``/``-``). A forfeit drawn (an aborted game, which the bot records as a
draw without a game) is left out: TRF16 has no code for it (``D`` is a game played, unrated).

To re-run it (seconds), build bbpPairings outside the repository and point at the binary::

    git clone https://github.com/BieremaBoyzProgramming/bbpPairings /tmp/bbp && make -C /tmp/bbp
    .venv/bin/python -m tests.tournament.bbp.make_fixtures /tmp/bbp/bbpPairings.exe \
        --commit "$(git -C /tmp/bbp rev-parse HEAD)"

``--events`` and ``--seed`` choose how many events and which, ``--also`` adds events by their
own seed; the same seeds, the same bbpPairings commit and the same project code give the same
events. The file holds the 100 events of seed 35 and three found by a run of 800 events (seeds
36 and 37) where caissify-pairings 0.5.0 went wrong: 3600039 (see ``KNOWN_DEFECTS`` in the test),
3700093 and 3700167 (a bye to a player who had won by forfeit, now refused by ``pair_swiss``).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import tempfile
from datetime import date
from pathlib import Path
from typing import Any

from bot.tournament import Entrant, Pairing, most_rounds, tournament_trf

FIXTURES = Path(__file__).with_name("events.json")
#: TRF16: the first round's block starts after this many columns; each round takes ten.
FIRST_ROUND, ROUND_COLUMNS = 89, 10
#: How often (per player, per game) the random events leave, join late, forfeit, draw.
WITHDRAWAL, LATE_JOINER, FORFEIT, DRAW = 0.12, 0.1, 0.06, 0.25


class Unpairable(Exception):
    """bbpPairings found no pairing that keeps the absolute rules."""


def random_entrants(rng: random.Random, rounds: int, size: int) -> list[Entrant]:
    entrants = []
    for user in rng.sample(range(1000, 10000), size):
        joined = 2 if rng.random() < LATE_JOINER else 1
        left = rng.randint(joined, rounds - 1) if rng.random() < WITHDRAWAL and joined < rounds else None
        rating = rng.choice([1500, rng.randint(1000, 2400)])  # some equal ratings: user ids break ties
        entrants.append(Entrant(user, f"P{user}", rating, joined, left))
    return entrants


def known_by(entrants: list[Entrant], round_number: int) -> list[Entrant]:
    """The entrants the bot knows when it pairs ``round_number``: late joiners only from then."""
    return [e for e in entrants if e.joined_round <= round_number]


def round_trf(entrants: list[Entrant], pairings: list[Pairing], round_number: int, rounds: int) -> str:
    """The event's TRF16 before ``round_number``, with ``0000 - Z`` in that round's column for
    the players not to be paired (gone): the convention bbpPairings reads (JaVaFo's)."""
    known = known_by(entrants, round_number)
    text = tournament_trf("random", date(2026, 1, 1), date(2026, 1, 2), known, pairings, rounds)
    away = {e.user_id for e in known if not e.active_in(round_number)}
    numbers = {number: e.user_id for number, e in enumerate(sorted(known, key=lambda e: (-e.rating, e.user_id)), 1)}
    lines = []
    for line in text.splitlines():
        if line.startswith("001") and numbers[int(line[4:8])] in away:
            start = FIRST_ROUND + ROUND_COLUMNS * (round_number - 1)
            line = line[:start].ljust(start) + "  0000 - Z" + line[start + ROUND_COLUMNS :]
        lines.append(line)
    return "\n".join(lines) + "\n"


def bbp_round(binary: str, trf: str, known: list[Entrant], round_number: int) -> list[tuple[int, int | None]]:
    """bbpPairings' pairs (white first; ``None``: the bye) for the round, as user ids."""
    users = [e.user_id for e in sorted(known, key=lambda e: (-e.rating, e.user_id))]
    with tempfile.TemporaryDirectory() as folder:
        source, answer = Path(folder, "in.trf"), Path(folder, "out.txt")
        source.write_text(trf, encoding="utf-8")
        run = subprocess.run([binary, "--dutch", str(source), "-p", str(answer)], capture_output=True, text=True)
        if run.returncode == 1:  # "no valid pairing exists"
            raise Unpairable(run.stderr.strip())
        if run.returncode:
            raise RuntimeError(f"bbpPairings failed on round {round_number}: {run.stderr}\n{trf}")
        rows = answer.read_text().split("\n")[1:]
    pairs = []
    for row in filter(None, (r.strip() for r in rows)):
        white, black = (int(n) for n in row.split())
        pairs.append((users[white - 1], users[black - 1] if black else None))
    return pairs


def play(rng: random.Random, round_number: int, white: int, black: int | None) -> Pairing:
    if black is None:
        return Pairing(round_number, white, None, 1.0)
    if rng.random() < FORFEIT:
        return Pairing(round_number, white, black, rng.choice([1.0, 0.0]), forfeit=True)
    result = 0.5 if rng.random() < DRAW else rng.choice([1.0, 0.0])
    return Pairing(round_number, white, black, result)


def random_event(binary: str, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    size = rng.randint(4, 30)
    rounds = min(rng.randint(3, 9), most_rounds(size))
    entrants = random_entrants(rng, rounds, size)
    pairings: list[Pairing] = []
    unpairable = None
    for number in range(1, rounds + 1):
        known = known_by(entrants, number)
        if sum(e.active_in(number) for e in known) < 2:
            break
        try:
            pairs = bbp_round(binary, round_trf(entrants, pairings, number, rounds), known, number)
        except Unpairable:
            unpairable = number
            break
        pairings += [play(rng, number, white, black) for white, black in pairs]
    return {
        "seed": seed,
        "rounds": rounds,
        "entrants": [[e.user_id, e.rating, e.joined_round, e.withdrawn_after] for e in entrants],
        "pairings": [[p.round, p.first, p.second, p.result, p.forfeit] for p in pairings],
        "unpairable_round": unpairable,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the bbpPairings executable")
    parser.add_argument("--commit", required=True, help="the bbpPairings commit it was built from")
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument(
        "--also", type=int, nargs="*", default=[3600039, 3700093, 3700167], help="more events by their seed"
    )
    args = parser.parse_args()
    version = subprocess.run([args.binary], capture_output=True, text=True).stdout.strip()
    seeds = [args.seed * 100_000 + n for n in range(args.events)] + args.also
    events = [random_event(args.binary, seed) for seed in seeds]
    fixture = {
        "source": "bbpPairings --dutch, https://github.com/BieremaBoyzProgramming/bbpPairings",
        "commit": args.commit,
        "version": version,
        "made_by": "tests/tournament/bbp/make_fixtures.py",
        "events": events,
    }
    FIXTURES.write_text(json.dumps(fixture, separators=(",", ":")) + "\n", encoding="utf-8")
    played = sum(len(e["pairings"]) for e in events)
    print(f"{len(events)} events, {played} pairings written to {FIXTURES}")


if __name__ == "__main__":
    main()
