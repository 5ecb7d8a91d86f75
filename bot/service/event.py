"""An event as read at one moment (:class:`Event`), and what one step of it did (:class:`Advance`).

Nothing about an event lives in memory: :meth:`bot.service.TournamentService.event` reads it
whole, and everything shown of it (its sign-up message, standings, podium) is drawn from this.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.storage import EntrantRow, PairingRow, TournamentRow
from bot.storage.tournaments import TeamRow
from bot.tournament import (
    DEFAULT_LEADERS,
    Entrant,
    Pairing,
    Standing,
    Team,
    TeamStanding,
    arena_standings,
    most_rounds,
    swiss_standings,
    team_standings,
)


@dataclass(frozen=True)
class Event:
    """An event as read at one moment: its row, its players, its pairings."""

    row: TournamentRow
    entrants: list[EntrantRow]
    pairings: list[PairingRow]
    #: The players whose rating in the event's rule set is still provisional (shown ``1500?``).
    provisional: frozenset[int] = frozenset()
    #: A recurring event's title (its shield), which its winner takes.
    title: str | None = None
    #: A team battle's teams, in their order (:mod:`bot.service.teams`); none for another event.
    teams: tuple[TeamRow, ...] = ()

    def entrant(self, user_id: int) -> EntrantRow | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    @property
    def battle(self) -> bool:
        """Whether it is a team battle (an arena whose players score for teams), even one whose
        teams all went with their roles before its start (:mod:`bot.service.teams`)."""
        return self.row.leaders is not None

    @property
    def teams_playing(self) -> int:
        """How many of a battle's teams have players in now (at least two, or it is called off)."""
        return len({e.team for e in self.active if e.team is not None})

    @property
    def team_of(self) -> dict[int, int]:
        """Each player's team number, by user id (empty outside a battle)."""
        return {e.user_id: e.team for e in self.entrants if e.team is not None}

    def team(self, number: int | None) -> TeamRow | None:
        return next((t for t in self.teams if t.team == number), None)

    def team_standings(self, standings: Sequence[Standing] | None = None) -> list[TeamStanding]:
        """A battle's teams, best first (:func:`bot.tournament.team_standings`); ``standings``: the
        players' as computed already, else computed here."""
        players = self.standings() if standings is None else standings
        teams = [Team(t.team, t.name) for t in self.teams]
        return team_standings(teams, players, self.team_of, self.row.leaders or DEFAULT_LEADERS)

    @property
    def active(self) -> list[EntrantRow]:
        """The players not withdrawn."""
        return [e for e in self.entrants if e.withdrawn_after is None]

    @property
    def model_entrants(self) -> list[Entrant]:
        return [
            Entrant(e.user_id, e.name or str(e.user_id), e.rating, e.joined_round, e.withdrawn_after)
            for e in self.entrants
        ]

    @property
    def model_pairings(self) -> list[Pairing]:
        return [Pairing(p.round, p.first_id, p.second_id, p.result, bool(p.forfeit)) for p in self.pairings]

    def round_pairings(self, number: int | None = None) -> list[PairingRow]:
        number = self.row.round if number is None else number
        return [p for p in self.pairings if p.round == number]

    @property
    def open_pairings(self) -> list[PairingRow]:
        """Pairings whose result is not known yet."""
        return [p for p in self.pairings if p.result is None]

    def current_pairing(self, user_id: int) -> PairingRow | None:
        """The player's pairing being played, if any."""
        return next((p for p in self.open_pairings if p.has(user_id)), None)

    def standings(self) -> list[Standing]:
        if self.row.format == "arena":
            return arena_standings(self.model_entrants, self.model_pairings)
        return swiss_standings(self.model_entrants, self.model_pairings)

    def champions(self, standings: Sequence[Standing] | None = None) -> list[Standing]:
        """Who takes a recurring event's title: the players ranked first; in a battle, the winning
        team's best player (its players ranked highest, sharing that rank), as a team wins the
        battle but one player holds a shield (a share of first place shares it). ``standings``:
        the players', as computed already, else computed here."""
        players = self.standings() if standings is None else standings
        if not self.battle:
            return [s for s in players if s.rank == 1]
        best = [team.leaders[0] for team in self.team_standings(players) if team.rank == 1 and team.leaders]
        firsts = {(self.team_of.get(s.user_id), s.rank) for s in best}
        return [s for s in players if (self.team_of.get(s.user_id), s.rank) in firsts]

    @property
    def total_rounds(self) -> int | None:
        return self.row.rounds

    @property
    def pairable_rounds(self) -> int | None:
        """For a Swiss announced with more rounds than its players can be paired in (nobody
        meets anyone twice), that smaller number; else ``None``. Counted on the players in now,
        so only meaningful once the event has started."""
        if self.row.format != "swiss" or self.row.status == "open":
            return None
        most = most_rounds(len(self.active))
        return most if most < (self.row.rounds or 0) else None

    @property
    def unpaired_round(self) -> int | None:
        """The round a finished Swiss could not pair (no pairing kept the rules), which ended it
        before the rounds it announced; else ``None``."""
        row = self.row
        if row.format != "swiss" or row.status != "finished" or row.round >= (row.rounds or 0):
            return None
        return row.round + 1


@dataclass
class Advance:
    """What one step of an event did, for the cog to show."""

    event: Event
    #: A round (or an arena's wave) was paired by this step.
    new_round: bool = False
    #: Results were written by this step.
    results: list[PairingRow] = field(default_factory=list)
    finished: bool = False
    #: Called off at its start: too few players (a battle: players of fewer than two teams).
    called_off: bool = False
    #: A recurring battle called off with fewer than two of its teams' roles left stopped its
    #: schedule: every later edition would be called off too.
    schedule_stopped: bool = False
    #: A recurring event's next edition, made when this one started (or was called off).
    next_edition: TournamentRow | None = None
