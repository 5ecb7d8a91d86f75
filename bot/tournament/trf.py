r"""The event as a TRF16 file, FIDE's tournament report format (Handbook C.04.A, annex 2), which
pairing programs (bbpPairings, JaVaFo, caissify's checker) and rating officers read. It is written
by ``caissify_pairings.trf.write_trf``.

A TRF16 file is lines of fixed columns, each opened by a three-character code:

``012`` the event's name, ``042``/``052`` its first and last day (``YYYY/MM/DD``), ``062``/``072``
the number of players, ``XXR`` the number of rounds, ``XXC white1`` that starting number 1 had
the first move (white) in round 1; then a ``001`` line for each player, in starting order:
starting number, name (33 columns), rating (``0``: unrated), points, rank, and a 10-column block
for each round: the opponent's starting number, ``w`` (moved first) or ``b``, and the result:

====================  ============================================================
``1`` ``=`` ``0``     won, drawn, lost over the board
``+`` ``-``           won, lost by forfeit
``D``                 drawn without a game (adjudicated): TRF16's unrated draw
``0000 - U``          a bye (``H``: worth a half point, ``Z``: nothing)
``0000 - Z``          not paired that round (before joining, after leaving)
``NNNN w``            paired, the game not over yet (the result column blank)
====================  ============================================================

Starting numbers follow the starting list (rating down, then user id); points and ranks are those
of :func:`~bot.tournament.swiss_standings`. Names keep their Unicode (the file is UTF-8), without
control characters; a name longer than 33 characters is cut.

>>> from datetime import date
>>> entrants = [Entrant(1, "Ama", 1800), Entrant(2, "Kofi", 1700), Entrant(3, "Esi", 1600.4)]
>>> games = [Pairing(1, 1, 2, 1.0), Pairing(1, 3, None), Pairing(2, 3, 1, 0.5)]
>>> text = tournament_trf("Accra open", date(2026, 5, 1), date(2026, 5, 2), entrants, games, 2)
>>> print("\n".join(line.rstrip() for line in text.splitlines()))  # each round block is 10 columns
012 Accra open
042 2026/05/01
052 2026/05/02
062 3
072 3
XXR 2
XXC white1
001    1      Ama                               1800                             1.5    2     2 w 1     3 b =
001    2      Kofi                              1700                             0.0    3     1 b 0  0000 - Z
001    3      Esi                               1600                             1.5    1  0000 - U     1 w =
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from caissify_pairings.trf import write_trf

from .crosstable import clean
from .model import Entrant, Pairing, by_player, last_round, starting_numbers, starting_order
from .standings import Standing, swiss_standings

#: The TRF16 result code of a game's points: over the board, by forfeit.
PLAYED = {1.0: "1", 0.5: "=", 0.0: "0"}
FORFEITED = {1.0: "+", 0.5: "D", 0.0: "-"}
#: The code of a bye by the points it gave; a round not paired is a zero-point bye.
BYES = {1.0: "U", 0.5: "H", 0.0: "Z"}
#: A rating fits in four columns.
MAX_RATING = 9999


def tournament_trf(
    name: str, start: date, end: date, entrants: Sequence[Entrant], pairings: Sequence[Pairing], rounds: int
) -> str:
    """The TRF16 text of the event (see the module's docstring). ``rounds``: the event's rounds
    (at least the blocks of every paired round are written)."""
    numbers = starting_numbers(entrants)
    standings = {s.user_id: s for s in swiss_standings(entrants, pairings)}
    paired = last_round(pairings)
    index = by_player(pairings)
    tournament = {
        "name": clean(name),
        "start_date": start.strftime("%Y/%m/%d"),
        "end_date": end.strftime("%Y/%m/%d"),
        "color_method": "white1",
    }
    players = [
        trf_player(e, numbers, standings[e.user_id], index.get(e.user_id, []), paired) for e in starting_order(entrants)
    ]
    return write_trf(tournament, players, max(rounds, paired)) + "\n"


def trf_player(
    entrant: Entrant, numbers: dict[int, int], standing: Standing, mine: Sequence[Pairing], paired: int
) -> dict[str, Any]:
    """The player dict ``write_trf`` takes: one result per round up to ``paired``."""
    by_round = {p.round: p for p in mine}
    return {
        "starting_number": numbers[entrant.user_id],
        "name": clean(entrant.name),
        "rating": min(max(round(entrant.rating), 0), MAX_RATING),
        "score": standing.points,
        "rank": standing.rank,
        "results": {
            number: round_result(by_round.get(number), entrant.user_id, numbers) for number in range(1, paired + 1)
        },
    }


def round_result(pairing: Pairing | None, user: int, numbers: dict[int, int]) -> dict[str, Any]:
    """One round's block as ``write_trf`` takes it.

    >>> round_result(Pairing(4, 7, 9, 0.0, forfeit=True), 9, {7: 12, 9: 3})
    {'opponent': 12, 'color': 'b', 'result': '+'}
    >>> round_result(None, 9, {})
    {'opponent': None, 'color': None, 'result': 'Z'}
    """
    if pairing is None:
        return {"opponent": None, "color": None, "result": BYES[0.0]}
    points = pairing.points_of(user)
    opponent = pairing.opponent_of(user)
    if opponent is None:
        return {"opponent": None, "color": None, "result": BYES.get(points or 0.0, "U")}
    codes = PLAYED if pairing.played else FORFEITED
    return {
        "opponent": numbers[opponent],
        "color": "w" if pairing.moved_first(user) else "b",
        "result": "" if points is None else codes[points],
    }
