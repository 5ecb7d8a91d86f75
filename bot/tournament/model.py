"""The two records every tournament format is computed from: who entered, and who met whom.

An event is nothing more than its :class:`Entrant` list and its :class:`Pairing` list: the
pairings of the next round, the standings, the crosstable and the TRF report are all worked out
from them again each time, so that nothing about a tournament needs to live in memory.

A pairing's ``result`` is always the points of ``first``, the player who moves first (the
"white" of chess programs); ``second`` scored the rest of the point:

>>> game = Pairing(round=1, first=10, second=20, result=0.5)
>>> game.points_of(10), game.points_of(20), game.opponent_of(20)
(0.5, 0.5, 10)

A bye (``second`` is ``None``) is worth :data:`BYE_POINTS` even before anyone writes its result:

>>> bye = Pairing(round=1, first=30, second=None)
>>> bye.is_bye, bye.decided, bye.points_of(30)
(True, True, 1.0)

A game ``played`` is one decided over the board: a bye or a forfeit is decided, not played.

>>> Pairing(2, 10, 30, 1.0).played, Pairing(2, 10, 30, 1.0, forfeit=True).played, bye.played
(True, False, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: What a bye is worth (a pairing-allocated bye scores a win, as in FIDE Swiss events).
BYE_POINTS = 1.0


class PairingError(ValueError):
    """A round cannot be paired under the rules: too few players, or no pairing without a rematch
    or a bye for someone who may not have it (had one, or won by forfeit). The event cannot go on
    as it is (a moderator may end it)."""


@dataclass(frozen=True)
class Entrant:
    """One player of an event, as the event saw them when it started.

    >>> late = Entrant(7, "Ama", 1612.0, joined_round=3, withdrawn_after=5)
    >>> [late.active_in(n) for n in range(1, 8)]
    [False, False, True, True, True, False, False]
    """

    user_id: int
    name: str
    #: At the start of the event: it orders the starting list (rating down, then user id).
    rating: float
    #: The first round they may be paired in (a late joiner's is above 1).
    joined_round: int = 1
    #: They are paired in no round after this one (``None``: still in).
    withdrawn_after: int | None = None

    def active_in(self, round_number: int) -> bool:
        """Whether this player is to be paired in round ``round_number``."""
        return self.joined_round <= round_number and (
            self.withdrawn_after is None or round_number <= self.withdrawn_after
        )


@dataclass(frozen=True)
class Pairing:
    """Two players of one round (or an arena's game number ``round``), or a bye."""

    round: int
    #: The user id of the player who moves first.
    first: int
    #: The opponent; ``None`` for a bye (the odd player out).
    second: int | None
    #: The points of ``first`` (1, 0.5 or 0); ``None`` while the game is on. A bye scores
    #: :data:`BYE_POINTS` whatever this says while it is ``None``.
    result: float | None = None
    #: The result was set without a game played (a player kicked, a game adjudicated by hand): it
    #: counts for points, but not as a game played where the tie-breaks ask for games played.
    forfeit: bool = False

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def decided(self) -> bool:
        """Whether the points of this pairing are known (a bye's always are)."""
        return self.is_bye or self.result is not None

    @property
    def played(self) -> bool:
        """Whether a game was played to its result over the board (not a bye, not a forfeit)."""
        return not self.is_bye and self.result is not None and not self.forfeit

    @property
    def pair(self) -> tuple[int, int] | None:
        """The two players, lower user id first (``None`` for a bye): the same for a rematch."""
        return None if self.second is None else (min(self.first, self.second), max(self.first, self.second))

    def has(self, user_id: int) -> bool:
        return user_id in (self.first, self.second)

    def opponent_of(self, user_id: int) -> int | None:
        """The other player (``None`` for a bye)."""
        return self.second if user_id == self.first else self.first

    def moved_first(self, user_id: int) -> bool:
        return user_id == self.first

    def points_of(self, user_id: int) -> float | None:
        """What ``user_id`` scored here; ``None`` while the game is on."""
        if self.is_bye:
            return BYE_POINTS if self.result is None else self.result
        if self.result is None:
            return None
        return self.result if user_id == self.first else 1.0 - self.result


def starting_order(entrants: Iterable[Entrant]) -> list[Entrant]:
    """The starting list: rating down, then user id up (the first is starting number 1).

    >>> [e.user_id for e in starting_order([Entrant(5, "a", 1500), Entrant(3, "b", 1500), Entrant(9, "c", 1700)])]
    [9, 3, 5]
    """
    return sorted(entrants, key=lambda e: (-e.rating, e.user_id))


def starting_numbers(entrants: Iterable[Entrant]) -> dict[int, int]:
    """Each user id's starting number (1 for the highest rated)."""
    return {e.user_id: number for number, e in enumerate(starting_order(entrants), start=1)}


def pairings_of(user_id: int, pairings: Iterable[Pairing]) -> list[Pairing]:
    """One player's pairings, in round order."""
    return sorted((p for p in pairings if p.has(user_id)), key=lambda p: p.round)


def by_player(pairings: Iterable[Pairing]) -> dict[int, list[Pairing]]:
    """Each player's pairings in round order, in one pass (for all players at once).

    >>> by_player([Pairing(2, 1, 2, 1.0), Pairing(1, 1, None)])
    {1: [Pairing(round=1, first=1, second=None, result=None, forfeit=False), \
Pairing(round=2, first=1, second=2, result=1.0, forfeit=False)], \
2: [Pairing(round=2, first=1, second=2, result=1.0, forfeit=False)]}
    """
    index: dict[int, list[Pairing]] = {}
    for pairing in sorted(pairings, key=lambda p: p.round):
        for user in (pairing.first, pairing.second):
            if user is not None:
                index.setdefault(user, []).append(pairing)
    return index


def last_round(pairings: Sequence[Pairing]) -> int:
    """The highest round number that has a pairing (0 before any)."""
    return max((p.round for p in pairings), default=0)
