"""Team battles, after lichess's: an arena where every player scores for a team, and a team's
score is the sum of the arena points of its best ``leaders`` players (its *leaders*; the others
play, and may become leaders, but do not count while they are not).

A player's points are an arena's (:func:`~bot.tournament.arena_standings`), and a team's leaders
are its first ``leaders`` players in the players' standings, so a tie between two teammates is
settled as the standings settle it (performance, then starting order).

Teams are ranked by score; two teams level on score are told apart by their leaders' points
compared best first (the team whose best leader scored more is ahead; if those are level, the
second best, and so on; a leader missing counts as 0). Teams level on all of it share a place,
listed in the order the moderator gave them.

Six players, two teams, the best two of each counting:

>>> line = lambda rank, user, name, points: Standing(rank, user, name, float(points), 0, 0, (0.0,))
>>> lions, tigers = Team(1, "Lions"), Team(2, "Tigers")
>>> board = [line(1, 1, "Ama", 10), line(2, 2, "Kofi", 8), line(3, 3, "Esi", 6), line(3, 4, "Yaw", 6),
...          line(5, 5, "Abena", 4), line(6, 6, "Kwame", 2)]
>>> team_of = {1: 1, 3: 1, 5: 1, 2: 2, 4: 2, 6: 2}
>>> for t in team_standings([lions, tigers], board, team_of, leaders=2):
...     print(t.rank, t.name, t.score, [(s.name, s.points) for s in t.leaders], t.players)
1 Lions 16.0 [('Ama', 10.0), ('Esi', 6.0)] 3
2 Tigers 14.0 [('Kofi', 8.0), ('Yaw', 6.0)] 3

Abena's 4 points do not count: Ama and Esi scored more. Level teams:

>>> eagles = Team(3, "Eagles")
>>> board = [line(1, 1, "Ama", 6), line(2, 2, "Kofi", 4), line(2, 3, "Esi", 4), line(2, 4, "Yaw", 4),
...          line(2, 5, "Abena", 4), line(6, 6, "Kwame", 2)]
>>> team_of = {1: 1, 6: 1, 2: 2, 3: 2, 4: 3, 5: 3}
>>> [(t.rank, t.name, t.score) for t in team_standings([lions, tigers, eagles], board, team_of, leaders=2)]
[(1, 'Lions', 8.0), (2, 'Tigers', 8.0), (2, 'Eagles', 8.0)]

All three scored 8; the Lions' best leader scored 6, the others' 4: the Lions are ahead. The
Tigers and the Eagles are level on everything: they share second place, in the moderator's order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .standings import Standing

#: How many players of a team count when the moderator does not say (lichess lets each battle
#: choose; three suits a club's teams of a handful of players).
DEFAULT_LEADERS = 3
#: Teams in a battle: at least two, and no more than a phone shows at a glance.
MIN_TEAMS, MAX_TEAMS = 2, 6


@dataclass(frozen=True)
class Team:
    """One team of a battle: its number in the battle (1, 2…, the moderator's order) and its name."""

    number: int
    name: str


@dataclass(frozen=True)
class TeamStanding:
    """One line of a battle's team standings."""

    #: Shared by teams level on score and on their leaders' points.
    rank: int
    number: int
    name: str
    #: The sum of its leaders' points.
    score: float
    #: The players whose points count, best first (fewer than ``leaders`` if it has fewer players).
    leaders: tuple[Standing, ...]
    #: How many players it has in the battle.
    players: int


def team_standings(
    teams: Sequence[Team], standings: Sequence[Standing], team_of: Mapping[int, int], leaders: int
) -> list[TeamStanding]:
    """The teams' standings, best first (see the module's docstring), from the players'
    ``standings`` (best first) and each player's team number (``team_of``, by user id)."""
    members: dict[int, list[Standing]] = {team.number: [] for team in teams}
    for standing in standings:
        number = team_of.get(standing.user_id)
        if number in members:
            members[number].append(standing)
    lines = {team.number: (tuple(members[team.number][:leaders]), len(members[team.number])) for team in teams}

    def key(team: Team) -> tuple[float, ...]:
        counted = [s.points for s in lines[team.number][0]]
        counted += [0.0] * (leaders - len(counted))  # a leader missing counts as 0
        return (-sum(counted), *(-points for points in counted))

    ordered = sorted(teams, key=lambda team: (key(team), team.number))
    ranked: list[TeamStanding] = []
    for index, team in enumerate(ordered):
        rank = ranked[-1].rank if index and key(ordered[index - 1]) == key(team) else index + 1
        counted, players = lines[team.number]
        ranked.append(
            TeamStanding(rank, team.number, team.name, float(sum(s.points for s in counted)), counted, players)
        )
    return ranked
