"""Tournaments that run themselves: Swiss, round-robin and arena events.

An event is made by a moderator (:meth:`TournamentService.create`), gathers players until its
start, then moves on by steps (:meth:`TournamentService.advance`), each a guarded write, called by
the sweep and whenever one of its games ends (the steps themselves: :mod:`.rounds`). Standings
are computed from the pairings each time (:mod:`bot.tournament`); nothing about an event lives in
memory (:class:`~.event.Event` is one as read). An arena may be a team battle
(:mod:`bot.service.teams`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC, datetime, timedelta

import dateparser

from bot.clock import CLOCKS
from bot.engine.notation import parse_rules_code
from bot.i18n import N_
from bot.storage import Conflict, EntrantRow, GameRow, PairingRow, Store, TournamentRow
from bot.tournament import MIN_TEAMS

from .event import Advance, Event
from .rounds import DEFAULT_ROUNDS, Rounds
from .schedules import ScheduleService
from .table import Closed, Refusal, Table
from .teams import BattleTeams, RolesOf, ServerRoles, battle_teams

FORMATS = ("swiss", "round-robin", "arena")
#: An arena without ``duration`` lasts this long.
DEFAULT_ARENA = timedelta(minutes=30)
NAME_LENGTH = 60
#: The languages ``starts`` is read in (the bot's).
TIME_LANGUAGES = ["en", "fr", "pt"]


def parse_start(text: str, now: datetime) -> datetime:
    """When ``starts`` says, as people type it ("in 30 minutes", "20:00", "2026-12-01 18:30",
    "tomorrow 20:00", in English, French or Portuguese; times without a zone are UTC). A time of
    day already past today means tomorrow.

    :raises Refusal: if it cannot be read, or is in the past.
    """
    settings = {
        "RELATIVE_BASE": now.astimezone(UTC).replace(tzinfo=None),
        "TIMEZONE": "UTC",
        "TO_TIMEZONE": "UTC",
        "RETURN_AS_TIMEZONE_AWARE": True,
        "PREFER_DATES_FROM": "future",
    }
    found = dateparser.parse(text, languages=TIME_LANGUAGES, settings=settings)
    if found is None:
        raise Refusal(
            N_("I can't read `{text}` as a time. Try `in 30 minutes`, `20:00` (UTC) or `2026-12-01 18:30`."), text=text
        )
    if found < now and now - found < timedelta(days=1):
        found += timedelta(days=1)  # "20:00" at 21:00: tomorrow's
    if found < now - timedelta(minutes=1):
        raise Refusal(N_("`{text}` is in the past. Choose a time to come."), text=text)
    return max(found, now)


def checked_settings(
    *, name: str, format: str, variant: str, clock: str, rounds: int | None, duration: int | None, cycles: int
) -> dict[str, object]:
    """A new event's settings, checked, as its columns: its name tidied, and the rounds, length
    and cycles its format has (a Swiss's rounds, an arena's length, a round-robin's cycles).

    :raises Refusal: no name, or a format, clock or rule set the bot does not know.
    """
    name = " ".join(name.split())[:NAME_LENGTH]
    if not name:
        raise Refusal(N_("A tournament needs a name."))
    if format not in FORMATS:
        raise Refusal(N_("`format` must be one of {choices}."), choices=", ".join(FORMATS))
    if clock not in CLOCKS:
        raise Refusal(N_("`clock` must be one of {choices}."), choices=", ".join(CLOCKS))
    parse_rules_code(variant)
    return {
        "name": name,
        "format": format,
        "variant": variant,
        "clock": clock,
        "rounds": (rounds or DEFAULT_ROUNDS) if format == "swiss" else None,  # a round-robin's: its players'
        "duration": (duration or int(DEFAULT_ARENA.total_seconds() // 60)) if format == "arena" else None,
        "cycles": cycles if format == "round-robin" else 1,
    }


class TournamentService:
    """Making, joining and running events (see the module's documentation)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.schedules = ScheduleService(store)
        self.rounds = Rounds(store)
        self.teams = BattleTeams(store)

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        created_by: int,
        name: str,
        format: str,
        variant: str,
        clock: str,
        starts: str,
        rounds: int | None,
        max_players: int | None,
        rated: bool,
        duration: int | None,
        cycles: int,
        now: datetime,
        repeat: str | None = None,
        editions: int | None = None,
        until: str | None = None,
        title: str | None = None,
        teams: Sequence[tuple[int, str]] = (),
        leaders: int | None = None,
    ) -> TournamentRow:
        """A new event; with ``repeat`` (``daily``, ``weekly``, ``monthly``), the first edition of a
        recurring one (``editions`` in all, or none starting after ``until``; ``title``: its shield);
        with ``teams`` (role id, name), an arena that is a team battle, ``leaders`` of each team
        counting (:mod:`bot.service.teams`)."""
        settings = checked_settings(
            name=name, format=format, variant=variant, clock=clock, rounds=rounds, duration=duration, cycles=cycles
        )
        if teams:
            if format != "arena":
                raise Refusal(N_("Only an arena can be a team battle."))
            teams, leaders = battle_teams(teams, leaders, guild_id=guild_id)
        else:
            leaders = None  # not a battle
        starts_at = parse_start(starts, now)
        recurring: dict[str, object] = {}
        if repeat is not None:
            schedule = await self.schedules.create(
                guild_id=guild_id,
                channel_id=channel_id,
                created_by=created_by,
                period=repeat,
                editions=editions,
                until=parse_start(until, now) if until else None,
                title=title,
                starts=starts_at,
                now=now,
            )
            recurring = {"schedule_id": schedule.id, "edition": 1}
        return await self._store.tournaments.create_tournament(
            now=now,
            guild_id=guild_id,
            channel_id=channel_id,
            created_by=created_by,
            **settings,
            max_players=max_players,
            rated=int(rated),
            starts_at=starts_at,
            **recurring,
            teams=teams,
            leaders=leaders,
        )

    async def event(self, tournament_id: int) -> Event:
        row = await self._store.tournaments.tournament(tournament_id)
        if row is None:
            raise Refusal(N_("There is no tournament #{number}."), number=tournament_id)
        entrants = await self._store.tournaments.entrants(tournament_id)
        schedule = await self.schedules.schedule(row)
        return Event(
            row,
            entrants,
            await self._store.tournaments.pairings(tournament_id),
            await self._provisional(entrants, row.variant),
            schedule.title if schedule is not None else None,
            tuple(await self._store.tournaments.teams(tournament_id)) if row.leaders is not None else (),
        )

    async def _provisional(self, entrants: list[EntrantRow], variant: str) -> frozenset[int]:
        """Which players' ratings are still provisional: their ratings are read as they are now
        (an entrant row keeps the points at joining, not how sure they were)."""
        ratings = [(e.user_id, await self._store.ratings.rating_in(e.user_id, variant)) for e in entrants]
        return frozenset(user for user, rating in ratings if rating.provisional)

    async def in_server(self, guild_id: int, tournament_id: int) -> Event:
        """Event ``tournament_id`` of this server (another server's is not found)."""
        await self.row_in_server(guild_id, tournament_id)
        return await self.event(tournament_id)

    async def row_in_server(self, guild_id: int, tournament_id: int) -> TournamentRow:
        """Only the row of event ``tournament_id`` of this server: the check of a button's event,
        without reading its players and pairings."""
        row = await self._store.tournaments.tournament(tournament_id)
        if row is None or row.guild_id != guild_id:
            raise Refusal(N_("There is no tournament #{number}."), number=tournament_id)
        return row

    async def of_server(self, guild_id: int, *, over: bool) -> list[TournamentRow]:
        return await self._store.tournaments.tournaments_of(guild_id, over=over)

    async def to_run(self, now: datetime) -> list[TournamentRow]:
        return await self._store.tournaments.tournaments_to_run(now)

    # -- players ------------------------------------------------------------------------------

    async def join(
        self,
        tournament_id: int,
        *,
        user_id: int,
        name: str,
        now: datetime,
        roles: Collection[int] = (),
        team: int | None = None,
    ) -> Event:
        """Add a player. In a team battle, for the team whose role they hold among ``roles``
        (``team``: the one they chose, if they hold several; see :func:`~.teams.team_to_join`).
        The event is read whole once, after: only its row (and a battle's teams) before."""
        row = await self._store.tournaments.tournament(tournament_id)
        if row is None:
            raise Refusal(N_("There is no tournament #{number}."), number=tournament_id)
        team = await self.teams.to_join(row, user_id, roles, chosen=team) if row.leaders is not None else None
        rating = await self._store.ratings.rating_in(user_id, row.variant)
        try:
            await self._store.tournaments.join_tournament(
                tournament_id, user_id=user_id, name=name, rating=rating.points, now=now, team=team
            )
        except Conflict as conflict:
            reason = str(conflict)
            if reason == "joined":
                raise Refusal(N_("You are in this tournament already.")) from None
            if reason == "full":
                raise Refusal(N_("This tournament is full.")) from None
            raise Closed(N_("This tournament takes no more players.")) from None
        return await self.event(tournament_id)

    async def leave(self, tournament_id: int, user_id: int) -> Event:
        try:
            await self._store.tournaments.leave_tournament(tournament_id, user_id)
        except Conflict as conflict:
            if str(conflict) == "closed":
                raise Closed(N_("This tournament is over.")) from None
            raise Refusal(N_("You are not playing in this tournament.")) from None
        return await self.event(tournament_id)

    # -- moving on ------------------------------------------------------------------------------

    async def advance(self, tournament_id: int, now: datetime, roles_of: RolesOf | None = None) -> Advance:
        """One step of event ``tournament_id`` at ``now``: whatever is due (see :mod:`.rounds`).
        ``roles_of``: a server's roles now (:data:`~.teams.RolesOf`), which a team battle's teams
        follow at its start, and its next edition's when it is made
        (:meth:`~.teams.BattleTeams.follow_roles`)."""
        event = await self.event(tournament_id)
        step = Advance(event)
        row = event.row
        roles = roles_of(row.guild_id) if roles_of is not None and event.battle else None
        if row.status == "open" and row.starts_at <= now:
            if event.battle and roles is not None and await self.teams.follow_roles(row.id, roles):
                event = await self.event(tournament_id)
            await self.rounds.begin(event, now, step)
        elif row.status == "running":
            step.results = await self.rounds.collect_results(event, now)
            event = await self.event(tournament_id)
            if row.format == "arena":
                await self.rounds.arena_step(event, now, step)
            elif not event.open_pairings:
                await self.rounds.next_round(event, now, step)
        step.event = await self.event(tournament_id)
        await self._recur(step, now, roles)
        return step

    async def _recur(self, step: Advance, now: datetime, roles: ServerRoles | None) -> None:
        """A recurring event that has started (or was called off) has its next edition (made once,
        however often this is tried); one that finished crowns its winner with its title (once)."""
        event = step.event
        if event.row.schedule_id is None or event.row.status == "open":
            return
        step.next_edition, step.schedule_stopped = await self.next_edition(event, now, roles)
        if event.row.status == "finished":
            await self.schedules.crown(event.row, event.champions(), now)

    async def next_edition(
        self, event: Event, now: datetime, roles: ServerRoles | None
    ) -> tuple[TournamentRow | None, bool]:
        """A recurring event's next edition (made once; ``None``: none), a battle's teams following
        ``roles`` until its sign-up message is posted; and whether this stopped its schedule: a
        battle called off with fewer than two teams left makes none (their roles were deleted, and
        every later edition would be called off too)."""
        if event.battle and event.row.status == "cancelled" and len(event.teams) < MIN_TEAMS:
            return None, await self.schedules.stop_row(event.row, now)
        following = await self.schedules.next_edition(event.row, now)
        if following is not None and following.message_id is None and roles is not None:
            await self.teams.follow_roles(following.id, roles)
        return following, False

    async def games_of(self, event: Event) -> list[GameRow]:
        """The games the event's pairings started."""
        found = [await self._store.games.get_game(p.game_id) for p in event.pairings if p.game_id is not None]
        return [game for game in found if game is not None]

    async def pairing_of_game(self, game_id: int) -> PairingRow | None:
        return await self._store.tournaments.pairing_of_game(game_id)

    async def games_to_start(self, event: Event) -> list[PairingRow]:
        """Pairings of the event still without their game (a bye has none)."""
        return [p for p in event.open_pairings if not p.bye and p.game_id is None]

    async def unseen_games(self, event: Event) -> list[Table]:
        """The event's live games whose players were never shown a board to play on (the process
        died, or Discord refused, between a game's start and its board), or whose clock never
        started: the next step shows them (their clock waits until then)."""
        return [Table.of(row) for row in await self._store.tournaments.unseen_games(event.row.id)]

    async def mark_announced(self, event: Event) -> None:
        """The pairings of the event's current round were posted."""
        await self._store.tournaments.update_tournament(event.row.id, {"announced": event.row.round})

    async def set_messages(self, tournament_id: int, **messages: int | str | None) -> None:
        """Note the event's messages (``message_id``, ``standings_message_id``, ``podium_message_id``),
        the thread its games are played in (``thread_id``), or its Discord scheduled event
        (``discord_event_id``, ``discord_event_status``)."""
        await self._store.tournaments.update_tournament(tournament_id, messages)

    # -- moderation -----------------------------------------------------------------------------

    async def start_now(self, tournament_id: int, now: datetime, roles_of: RolesOf | None = None) -> Advance:
        """A moderator starts an open event now (``roles_of``: as :meth:`advance` takes it)."""
        if not await self._store.tournaments.update_tournament(tournament_id, {"starts_at": now}, expect=("open",)):
            raise Refusal(N_("Only a tournament that has not started can be started now."))
        return await self.advance(tournament_id, now, roles_of)

    async def set_status(self, tournament_id: int, *, expect: tuple[str, ...], status: str, now: datetime) -> Event:
        """Move an event to ``status`` if it is in one of ``expect``."""
        columns: dict[str, object] = {"status": status}
        if status in ("finished", "cancelled"):
            columns["finished_at"] = now
        if not await self._store.tournaments.update_tournament(tournament_id, columns, expect=expect):
            current = await self.event(tournament_id)
            raise Refusal(N_("That cannot be done now: the tournament is `{status}`."), status=current.row.status)
        return await self.event(tournament_id)
