"""Team battles (issue 37): an arena whose players score for teams, each team a role of the server.

A moderator picks the roles (:data:`~bot.tournament.MIN_TEAMS` to :data:`~bot.tournament.MAX_TEAMS`)
and how many of each team's best players count (:func:`battle_teams`). A member plays for the
team whose role they hold (:func:`team_to_join`): one such role, that team; several, they choose
(:class:`ChooseTeam`, for the cog to ask them privately); none, they are refused and told the
teams. Once in, their team is theirs for the whole event, even if they leave and come back or the
role changes. Pairing never makes teammates meet (:func:`bot.tournament.arena_pairs`); the teams'
scores are :func:`bot.tournament.team_standings`'s.

A team is its role's, and a role can be renamed or deleted. A battle still to start follows the
server's roles (:meth:`BattleTeams.follow_roles`): when it is made as a recurring battle's next
edition, and at its start. Each team takes its role's name now; a team whose role is gone is
dropped (nobody could join it, and the others would face nobody), unless players joined for it
already: they play for it, under its last name, as in a battle under way. A battle left with players
of fewer than two teams is called off at its start (:func:`bot.service.rounds.too_few`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace

from bot.i18n import N_
from bot.names import markdown_name
from bot.storage import Store, TournamentRow
from bot.storage.tournaments import TeamRow
from bot.tournament import DEFAULT_LEADERS, MAX_TEAMS, MIN_TEAMS

from .table import Refusal

#: A server's roles now, by id: their names.
ServerRoles = Mapping[int, str]
#: A server's roles now, by the server's id (``None``: not known, as when the bot does not see the
#: server: then no team is dropped).
RolesOf = Callable[[int], ServerRoles | None]


class ChooseTeam(Exception):
    """The member holds the roles of several teams of the battle: they choose one before they are in."""

    def __init__(self, teams: Sequence[TeamRow]) -> None:
        super().__init__("several teams")
        self.teams = list(teams)


def battle_teams(
    roles: Sequence[tuple[int, str]], leaders: int | None, *, guild_id: int
) -> tuple[list[tuple[int, str]], int]:
    """A battle's teams (role id, name, in the moderator's order) and its count of leaders, checked.

    :raises Refusal: fewer than two different roles, more than :data:`MAX_TEAMS`, or @everyone
        (its id is the server's: every member holds it, so it would divide nobody).
    """
    if any(role_id == guild_id for role_id, _ in roles):
        raise Refusal(N_("@everyone cannot be a team: every member holds it. Pick roles that divide the server."))
    if len({role_id for role_id, _ in roles}) != len(roles) or len(roles) < MIN_TEAMS:
        raise Refusal(N_("A team battle needs at least {count} teams, each a different role."), count=MIN_TEAMS)
    if len(roles) > MAX_TEAMS:
        raise Refusal(N_("A team battle has at most {count} teams."), count=MAX_TEAMS)
    return list(roles), leaders or DEFAULT_LEADERS


def team_to_join(
    teams: Sequence[TeamRow], held: Collection[int], *, chosen: int | None, already: int | None = None
) -> int:
    """The number of the team a member joins for: ``already`` (theirs before, if they left and come
    back), else the team they ``chosen`` among those whose role they hold (``held``: their roles),
    else the one whose role they hold.

    :raises ChooseTeam: they hold several teams' roles and chose none.
    :raises Refusal: they hold none of them, or chose one whose role they do not hold.
    """
    if already is not None:
        return already
    if not teams:
        raise Refusal(N_("This team battle has no team left: their roles were deleted. It will be called off."))
    theirs = [team for team in teams if team.role_id in held]
    if not theirs:
        raise Refusal(
            N_("This is a team battle: you play for the team whose role you hold, and you hold none of {teams}."),
            teams=team_names(teams),
        )
    if chosen is not None:
        if chosen not in {team.team for team in theirs}:
            raise Refusal(N_("You don't hold that team's role: choose one of {teams}."), teams=team_names(theirs))
        return chosen
    if len(theirs) > 1:
        raise ChooseTeam(theirs)
    return theirs[0].team


def team_names(teams: Sequence[TeamRow]) -> str:
    """The teams' names as a list to read: ``**Lions**, **Tigers**`` (names, never role mentions)."""
    return ", ".join(f"**{markdown_name(team.name)}**" for team in teams)


def following_roles(teams: Sequence[TeamRow], roles: ServerRoles, joined: Collection[int]) -> list[TeamRow]:
    """A battle's teams as the server's ``roles`` now make them (see the module): each under its
    role's name, a team whose role is gone dropped unless a player joined for it (``joined``: the
    numbers of the teams players joined for).

    >>> lions, tigers = TeamRow(1, 1, 501, "Lions"), TeamRow(1, 2, 502, "Tigers")
    >>> [(t.team, t.name) for t in following_roles([lions, tigers], {502: "Big Cats"}, joined=set())]
    [(2, 'Big Cats')]
    >>> [(t.team, t.name) for t in following_roles([lions, tigers], {502: "Tigers"}, joined={1})]
    [(1, 'Lions'), (2, 'Tigers')]
    """
    kept = []
    for team in teams:
        if team.role_id in roles:
            kept.append(replace(team, name=roles[team.role_id]))
        elif team.team in joined:
            kept.append(team)
    return kept


class BattleTeams:
    """A battle's teams as its players join and its roles change (see the module)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def to_join(self, row: TournamentRow, user_id: int, roles: Collection[int], *, chosen: int | None) -> int:
        """The team a member joins battle ``row`` for (:func:`team_to_join`), their team of before
        if they left and come back."""
        teams = await self._store.tournaments.teams(row.id)
        before = next((e for e in await self._store.tournaments.entrants(row.id) if e.user_id == user_id), None)
        return team_to_join(teams, roles, chosen=chosen, already=before.team if before else None)

    async def follow_roles(self, tournament_id: int, roles: ServerRoles) -> bool:
        """Battle ``tournament_id``, still to start, follows the server's ``roles`` now
        (:func:`following_roles`); whether its teams changed."""
        teams = await self._store.tournaments.teams(tournament_id)
        joined = {e.team for e in await self._store.tournaments.entrants(tournament_id) if e.team is not None}
        kept = following_roles(teams, roles, joined)
        if kept == teams:
            return False
        await self._store.tournaments.keep_teams(tournament_id, kept)
        return True
