"""Glicko-2 ratings, one per player and rule set (Kalah of every size shares ``kalah``).

The maths is the glicko2-py library's (``glicko2.math.update_rating``, Glickman's 2012
algorithm); this module only decides what is rated and how a rating reads. Every rated game
is a rating period of its own, as on the big online game sites.

>>> fresh = Rating()
>>> str(fresh)
'1500?'
>>> alice, bob = rate_game(fresh, fresh, 1.0)
>>> round(alice.rating), round(bob.rating), round(alice.rd)
(1662, 1338, 290)
"""

from __future__ import annotations

from dataclasses import dataclass

from glicko2.math import mu_to_rating, phi_to_rd, rating_to_mu, rd_to_phi, update_rating

from .engine.notation import parse_rules_code

#: A rating whose deviation is this large or more is still provisional (shown with a ``?``).
PROVISIONAL_RD = 110.0
#: A game's ``rated``: it counts for its players' ratings; played unrated (``rated: False``); or
#: played rated but not counted, because its players had already played
#: :data:`RATED_GAMES_PER_PAIR_PER_DAY` rated games together in the day before it ended.
RATED, UNRATED, OVER_THE_DAILY_LIMIT = 1, 0, -1
#: So that two accounts cannot farm rating points off each other: beyond this many rated games
#: between the same two players in 24 hours, their games are archived unrated.
RATED_GAMES_PER_PAIR_PER_DAY = 5
#: How a game's result reads for player A.
SCORES = {"A": 1.0, "B": 0.0, "draw": 0.5}


@dataclass(frozen=True)
class Rating:
    """A player's Glicko-2 rating in one rule set: rating, deviation, volatility, games rated."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06
    games: int = 0

    @property
    def provisional(self) -> bool:
        return self.rd >= PROVISIONAL_RD

    @property
    def points(self) -> int:
        """The rating as shown: whole points (a change is shown as the difference of these, so
        that what is shown adds up)."""
        return round(self.rating)

    def __str__(self) -> str:
        """The rating as players read it: whole points, with ``?`` while it is provisional (its
        deviation, the statistician's ``± 290``, stays out of sight: it only says how sure it is).

        >>> str(Rating(1612.4, 48.0)), str(Rating(1661.6, 290.3))
        ('1612', '1662?')
        """
        return f"{self.points}{'?' if self.provisional else ''}"


def rate_game(a: Rating, b: Rating, score_a: float) -> tuple[Rating, Rating]:
    """The ratings of A and B after one game between them (``score_a``: 1 win, 0.5 draw, 0 loss)."""
    return rated_after(a, b, score_a), rated_after(b, a, 1.0 - score_a)


def rated_after(player: Rating, opponent: Rating, score: float) -> Rating:
    """``player``'s rating after one rating period against ``opponent`` (``score``: 1, 0.5, 0)."""
    new = update_rating(
        rating_to_mu(player.rating),
        rd_to_phi(player.rd),
        player.volatility,
        [(rating_to_mu(opponent.rating), rd_to_phi(opponent.rd), score)],
    )
    return Rating(mu_to_rating(new.mu), phi_to_rd(new.phi), new.sigma, player.games + 1)


def outcome_for(status: str, result: str | None, side: str) -> str | None:
    """How a game ended for ``side`` (``"A"`` or ``"B"``): ``win``, ``draw``, ``loss``, or ``None``
    when it has no result (aborted).

    >>> outcome_for("finished", "B", "A"), outcome_for("finished", "draw", "B"), outcome_for("aborted", None, "A")
    ('loss', 'draw', None)
    """
    if status != "finished" or result is None:
        return None
    return "draw" if result == "draw" else ("win" if result == side else "loss")


def family(variant_code: str) -> str:
    """The rating a game counts for: its rule set, whatever its size (``kalah/4x3`` → ``kalah``)."""
    return parse_rules_code(variant_code).name


def is_rated(status: str, levels: tuple[str | None, str | None], rated: int = 1) -> bool:
    """Rated: a finished game between two people (by play, time, surrender or agreement) that
    was not played unrated.

    Aborted games, exhibitions, games against the computer and unrated games are not (they
    still count in statistics).
    """
    return rated == RATED and status == "finished" and levels == (None, None)
