"""Round-robin schedules from FIDE's Berger tables (Handbook C.05), as ``caissify-pairings`` lays
them out: everyone meets everyone once (twice in a double round-robin, colours swapped, the last
two rounds of the first cycle played in the other order: see :func:`playing_order`).

Players take their Berger numbers from the starting list (rating down, then user id). With an odd
number of players a phantom makes the count even, and whoever meets it has a bye that round: each
player rests once a cycle. The whole schedule is known at the start, results do not change it.

>>> four = [Entrant(1, "Ama", 1800), Entrant(2, "Kofi", 1700), Entrant(3, "Esi", 1600), Entrant(4, "Yaw", 1500)]
>>> [[(p.first, p.second) for p in games] for games in round_robin_rounds(four)]
[[(1, 4), (2, 3)], [(1, 2), (4, 3)], [(3, 1), (2, 4)]]
>>> [(p.first, p.second) for p in round_robin_rounds(four[:3])[0]]
[(2, 3), (1, None)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from caissify_pairings import generate_pairings

from .model import Entrant, Pairing, starting_order
from .swiss import board_order

#: The ``system`` of ``caissify_pairings.generate_pairings`` that reads the Berger tables.
SYSTEM = "round_robin"


def round_robin_rounds(entrants: Sequence[Entrant], *, double: bool = False) -> list[list[Pairing]]:
    """Every round's pairings (the game of the best starting number first, the bye last), results
    ``None``.

    ``n`` players play ``n - 1`` rounds, or ``n`` if ``n`` is odd; twice as many if ``double``.
    """
    if len(entrants) < 2:
        raise ValueError(f"a round-robin needs two players or more, not {len(entrants)}")
    players = berger_players(entrants)
    cycles = 2 if double else 1
    order = playing_order(cycle_length(len(entrants)), cycles)
    return [berger_round(players, number, berger, len(order), cycles) for number, berger in enumerate(order, start=1)]


def playing_order(rounds_per_cycle: int, cycles: int) -> list[int]:
    """The Berger table's rounds in the order they are played. In a double round-robin the last
    two rounds of the first cycle change places, as FIDE recommends (Handbook C.05, annex 1):
    played in the table's order, someone would have the same colour three games running where
    the cycles meet (the second cycle repeats the first with the colours reversed).

    >>> playing_order(5, 1), playing_order(5, 2), playing_order(1, 2)
    ([1, 2, 3, 4, 5], [1, 2, 3, 5, 4, 6, 7, 8, 9, 10], [1, 2])
    """
    first_cycle = list(range(1, rounds_per_cycle + 1))
    if cycles == 2:
        first_cycle[-2:] = reversed(first_cycle[-2:])
    return first_cycle + list(range(rounds_per_cycle + 1, rounds_per_cycle * cycles + 1))


def cycle_length(players: int) -> int:
    """Rounds in one cycle: one fewer than the players, a phantom added to an odd count.

    >>> cycle_length(6), cycle_length(5)
    (5, 5)
    """
    return players - 1 + players % 2


def berger_players(entrants: Sequence[Entrant]) -> list[dict[str, Any]]:
    """The player dicts the engine takes: only ``starting_number`` decides the Berger numbers."""
    return [
        {"id": e.user_id, "name": e.name, "rating": round(e.rating), "starting_number": number}
        for number, e in enumerate(starting_order(entrants), start=1)
    ]


def berger_round(players: list[dict[str, Any]], number: int, berger: int, total: int, cycles: int) -> list[Pairing]:
    """Round ``number`` of the event: the Berger table's round ``berger``."""
    answer = generate_pairings(
        system=SYSTEM, players=players, previous_pairings=set(), round_number=berger, total_rounds=total, cycles=cycles
    )
    return [Pairing(number, row["white_id"], row.get("black_id")) for row in board_order(answer)]
