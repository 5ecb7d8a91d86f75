"""Standings: points first, then the tie-breaks of the format, in order.

Players tied on points and on every tie-break share a rank (1, 2, 2, 4) and are listed in starting
order. ``played`` and ``wins`` count games decided over the board: byes and forfeits are not in
them, though their points are.

**Swiss and round-robin** (:data:`SWISS_TIEBREAKS`):

Buchholz cut-1
    The sum of the opponents' scores, less the lowest one.
Sonneborn-Berger
    The sum of the scores of the opponents beaten, plus half those of the opponents drawn.
Wins
    Games won over the board.
Direct encounter
    Among exactly the players still tied on everything before it: the points each scored against
    the others, if every two of them met (a forfeit between them counts with its result); else,
    and for a player tied with nobody, 0.

Unplayed rounds (a bye, a forfeit won or lost, a round away: before joining, after leaving) follow
FIDE's tie-break regulations (2023, article 16) in a simple form. A Swiss pairs players with their
equals, so an unplayed round is taken as a game against an equal, and a bye or a forfeit win is
worth no more to the opponents' tie-breaks than a draw:

* A player's own unplayed round counts as a game against a *dummy opponent* whose score is the
  player's own: it adds the player's points to their Buchholz (cut-1 may cut it like any other),
  and to their Sonneborn-Berger as that round was scored (a bye or a forfeit win: all of it; a
  forfeit loss or a round away: nothing).
* An opponent's score, for both tie-breaks, counts each of the opponent's unplayed rounds as a
  draw (half a point), whatever it gave them: beating someone who then had a bye or a forfeit win
  earns no more than if they had drawn that round.

A pairing still being played counts for nothing yet.

>>> ama, kofi, esi, yaw = (Entrant(1, "Ama", 1800), Entrant(2, "Kofi", 1700),
...                        Entrant(3, "Esi", 1600), Entrant(4, "Yaw", 1500))
>>> games = [Pairing(1, 1, 3, 1.0), Pairing(1, 4, 2, 0.5), Pairing(2, 2, 1, 1.0), Pairing(2, 3, 4, 0.5)]
>>> for s in swiss_standings([ama, kofi, esi, yaw], games):
...     print(s.rank, s.name, s.points, s.played, s.wins, s.tiebreaks)
1 Kofi 1.5 2 1 (1.0, 1.5, 1.0, 0.0)
2 Yaw 1.0 2 0 (1.5, 1.0, 0.0, 0.0)
3 Ama 1.0 2 1 (1.5, 0.5, 1.0, 0.0)
4 Esi 0.5 2 0 (1.0, 0.5, 0.0, 0.0)

Yaw and Ama are level on points and Buchholz; Yaw drew the winner (1.5 × ½) and Esi (0.5 × ½),
Ama beat only Esi (0.5 × 1): Sonneborn-Berger puts Yaw ahead. That is what a player is shown
(:func:`tiebreak_leads`): the tie-break that put them ahead of the next player level on points.

>>> lead = tiebreak_leads(swiss_standings([ama, kofi, esi, yaw], games))[4]
>>> lead.behind.name, SWISS_TIEBREAKS[lead.tiebreak], lead.ahead_value, lead.behind_value
('Ama', 'Sonneborn-Berger', 1.0, 0.5)

**Arena** (:data:`ARENA_TIEBREAKS`): points by :func:`~bot.tournament.arena_scores`, then the
performance rating over the games played over the board: the opponents' average rating (at the
start of the event) plus 400 × (wins − losses) / games, rounded to a whole point (0 without games).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations, groupby, pairwise

from .arena import arena_scores
from .model import Entrant, Pairing, by_player, last_round, starting_numbers

SWISS_TIEBREAKS = ("Buchholz cut-1", "Sonneborn-Berger", "Wins", "Direct encounter")
ARENA_TIEBREAKS = ("Performance",)
#: What a performance rating adds for each win (and takes for each loss), over the games played.
PERFORMANCE_SPREAD = 400
#: A player's ``(points, played, wins, tie-breaks)``.
Line = tuple[float, int, int, tuple[float, ...]]


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    #: Shared by players tied on points and every tie-break.
    rank: int
    user_id: int
    name: str
    points: float
    #: Games played over the board (not byes, not forfeits).
    played: int
    #: Games won over the board.
    wins: int
    #: In the order of the format's tie-break names (:data:`SWISS_TIEBREAKS`, :data:`ARENA_TIEBREAKS`).
    tiebreaks: tuple[float, ...]


@dataclass
class Record:
    """One player's event round by round: the games played, and the unplayed rounds' points."""

    points: float = 0.0
    #: ``(opponent, points scored)`` of each game played over the board.
    games: list[tuple[int, float]] = field(default_factory=list)
    #: The points of each unplayed round: a bye, a forfeit, a round away (0).
    unplayed: list[float] = field(default_factory=list)

    @property
    def wins(self) -> int:
        return sum(points == 1 for _, points in self.games)

    @property
    def adjusted(self) -> float:
        """The score as the opponents' tie-breaks see it: each unplayed round a draw."""
        return sum(points for _, points in self.games) + 0.5 * len(self.unplayed)


def swiss_standings(entrants: Sequence[Entrant], pairings: Sequence[Pairing]) -> list[Standing]:
    """The standings of a Swiss or a round-robin (see the module's docstring), best first."""
    index = by_player(pairings)
    rounds = last_round(pairings)
    records = {e.user_id: player_record(e.user_id, index.get(e.user_id, []), rounds) for e in entrants}
    lines = {
        user: (r.points, len(r.games), r.wins, (buchholz_cut1(r, records), sonneborn_berger(r, records), float(r.wins)))
        for user, r in records.items()
    }
    ordered = sorted(entrants, key=lambda e: tuple(-x for x in (lines[e.user_id][0], *lines[e.user_id][3])))
    encounters: dict[int, float] = {}
    for _, group in groupby(ordered, key=lambda e: (lines[e.user_id][0], lines[e.user_id][3])):
        tied = [e.user_id for e in group]
        theirs = dict.fromkeys(p for user in tied for p in index.get(user, []))  # each game once
        encounters.update(direct_encounter(tied, list(theirs)) if len(tied) > 1 else {tied[0]: 0.0})
    return ranked(
        entrants,
        {user: (points, played, wins, (*tbs, encounters[user])) for user, (points, played, wins, tbs) in lines.items()},
    )


def player_record(user: int, mine: Sequence[Pairing], rounds: int) -> Record:
    """What ``user`` did in each of the ``rounds`` of the event so far (``mine``: their pairings)."""
    record = Record()
    by_round: dict[int, list[Pairing]] = {}
    for pairing in mine:
        by_round.setdefault(pairing.round, []).append(pairing)
    for number in range(1, rounds + 1):
        if number not in by_round:
            record.unplayed.append(0.0)  # away this round
        for pairing in by_round.get(number, []):
            add_pairing(record, user, pairing)
    return record


def add_pairing(record: Record, user: int, pairing: Pairing) -> None:
    points = pairing.points_of(user)
    if points is None:
        return  # still being played
    record.points += points
    opponent = pairing.opponent_of(user)
    if pairing.played and opponent is not None:
        record.games.append((opponent, points))
    else:
        record.unplayed.append(points)


def buchholz_cut1(record: Record, records: dict[int, Record]) -> float:
    """The opponents' adjusted scores, and the player's own points for each unplayed round, less
    the lowest of them."""
    scores = [opponent_score(opponent, records) for opponent, _ in record.games]
    scores += [record.points] * len(record.unplayed)
    return sum(scores) - min(scores, default=0.0)


def sonneborn_berger(record: Record, records: dict[int, Record]) -> float:
    """Each opponent's adjusted score times the points scored against them; each unplayed round
    the player's own points times the points it gave."""
    played = sum(opponent_score(opponent, records) * points for opponent, points in record.games)
    return played + sum(record.points * points for points in record.unplayed)


def opponent_score(opponent: int, records: dict[int, Record]) -> float:
    """An opponent's score for the tie-breaks (0 for one who is not an entrant)."""
    record = records.get(opponent)
    return 0.0 if record is None else record.adjusted


def direct_encounter(tied: list[int], pairings: Sequence[Pairing]) -> dict[int, float]:
    """Each tied player's points against the other tied players, if every two of them met; else 0.

    >>> direct_encounter([1, 2, 3], [Pairing(1, 1, 2, 1.0), Pairing(2, 3, 1, 0.5), Pairing(3, 2, 3, 0.0)])
    {1: 1.5, 2: 0.0, 3: 1.5}
    >>> direct_encounter([1, 2, 3], [Pairing(1, 1, 2, 1.0), Pairing(2, 3, 1, 0.5)])  # 2 and 3 never met
    {1: 0.0, 2: 0.0, 3: 0.0}
    """
    group = set(tied)
    between = [p for p in pairings if p.decided and p.first in group and p.second in group]
    met = {p.pair for p in between}
    if len(tied) < 2 or any((min(a, b), max(a, b)) not in met for a, b in combinations(tied, 2)):
        return dict.fromkeys(tied, 0.0)
    return {user: sum(p.points_of(user) or 0.0 for p in between if p.has(user)) for user in tied}


def arena_standings(entrants: Sequence[Entrant], games: Sequence[Pairing]) -> list[Standing]:
    """The standings of an arena, ``games`` in time order (``round``: their sequence number)."""
    decided = sorted((g for g in games if not g.is_bye and g.result is not None), key=lambda g: g.round)
    scores = arena_scores([result for g in decided for result in both_results(g)])
    ratings = {e.user_id: e.rating for e in entrants}
    lines: dict[int, Line] = {}
    for e in entrants:
        played = [g for g in decided if g.played and g.has(e.user_id)]
        wins = sum(g.points_of(e.user_id) == 1 for g in played)
        lines[e.user_id] = (
            float(sum(scores.get(e.user_id, []))),
            len(played),
            wins,
            (performance(e.user_id, played, ratings),),
        )
    return ranked(entrants, lines)


def both_results(game: Pairing) -> list[tuple[int, float]]:
    """``(user, points)`` of each player of a decided game, the first mover first."""
    assert game.second is not None and game.result is not None
    return [(game.first, game.result), (game.second, 1.0 - game.result)]


def performance(user: int, games: Sequence[Pairing], ratings: dict[int, float]) -> float:
    """The performance rating over ``games`` (played by ``user``), rounded; 0 without games.

    >>> performance(1, [Pairing(1, 1, 2, 1.0), Pairing(2, 3, 1, 0.5), Pairing(3, 1, 2, 1.0)], {2: 1500, 3: 1800})
    1867.0
    """
    rated = [(ratings[opponent], g.points_of(user)) for g in games if (opponent := g.opponent_of(user)) in ratings]
    if not rated:
        return 0.0
    average = sum(rating for rating, _ in rated) / len(rated)
    balance = sum(1 if points == 1 else -1 if points == 0 else 0 for _, points in rated)
    return float(round(average + PERFORMANCE_SPREAD * balance / len(rated)))


def ranked(entrants: Sequence[Entrant], lines: dict[int, Line]) -> list[Standing]:
    """The standings from each player's ``(points, played, wins, tie-breaks)``: best first, exact
    ties sharing a rank and listed in starting order."""
    numbers = starting_numbers(entrants)

    def key(e: Entrant) -> tuple[float, ...]:
        points, _, _, tiebreaks = lines[e.user_id]
        return (-points, *(-x for x in tiebreaks))

    ordered = sorted(entrants, key=lambda e: (key(e), numbers[e.user_id]))
    standings: list[Standing] = []
    for index, e in enumerate(ordered):
        rank = standings[-1].rank if index and key(ordered[index - 1]) == key(e) else index + 1
        points, played, wins, tiebreaks = lines[e.user_id]
        standings.append(Standing(rank, e.user_id, e.name, points, played, wins, tiebreaks))
    return standings


@dataclass(frozen=True)
class Lead:
    """Why a player is ranked ahead of the next one though level with them on points: the first
    tie-break (an index into the format's names) in which they differ, and both values."""

    behind: Standing
    tiebreak: int
    ahead_value: float
    behind_value: float


def tiebreak_leads(standings: Sequence[Standing]) -> dict[int, Lead]:
    """By user id, each player ranked ahead of the next one while level with them on points: the
    tie-break that separates them. Players apart on points need none to be told apart, and players
    level on everything share a rank: neither has a lead, so no tie-break is shown for them.

    >>> line = lambda rank, user, points, *tiebreaks: Standing(rank, user, str(user), points, 0, 0, tiebreaks)
    >>> leads = tiebreak_leads([line(1, 1, 3, 5, 4), line(2, 2, 3, 5, 2), line(3, 3, 2, 0, 0), line(3, 4, 2, 0, 0)])
    >>> list(leads), leads[1].tiebreak, leads[1].behind.user_id
    ([1], 1, 2)
    """
    leads = {}
    for ahead, behind in pairwise(standings):
        if ahead.points != behind.points or ahead.rank == behind.rank:
            continue
        differing = (i for i, (a, b) in enumerate(zip(ahead.tiebreaks, behind.tiebreaks, strict=False)) if a != b)
        index = next(differing, None)
        if index is not None:
            leads[ahead.user_id] = Lead(behind, index, ahead.tiebreaks[index], behind.tiebreaks[index])
    return leads
