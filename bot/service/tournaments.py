"""Tournaments that run themselves: Swiss, round-robin and arena events.

An event is made by a moderator (:meth:`TournamentService.create`), gathers players until its
start, then moves on by steps (:meth:`TournamentService.advance`), each a guarded write, called by
the sweep and whenever one of its games ends: the start (round 1, or the arena's first wave),
the results of the games that ended, the next round once every game of one has ended (a Swiss
is paired by the FIDE Dutch system, a round-robin follows Berger tables, an arena pairs players
as soon as they are free), and the end. Standings are computed from the pairings each time
(:mod:`bot.tournament`); nothing about an event lives in memory.

A game's result counts for the pairing once (:meth:`bot.storage.Store.record_result`): a win for
the first mover is 1, a draw 0.5, a loss 0; a game a moderator aborted is scored as a draw. A bye
is worth a win (:data:`bot.tournament.BYE_POINTS`).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import dateparser

from bot.ai.expert import ExpertPlayer
from bot.clock import CLOCKS
from bot.engine import Game, Player
from bot.engine.notation import parse_rules_code
from bot.i18n import N_
from bot.storage import Conflict, EntrantRow, GameRow, PairingRow, Store, TournamentRow
from bot.tournament import (
    BYE_POINTS,
    Entrant,
    Pairing,
    PairingError,
    Standing,
    arena_pairs,
    arena_standings,
    most_rounds,
    pair_swiss,
    round_robin_rounds,
    swiss_standings,
)

from .schedules import ScheduleService, winners
from .table import Closed, Refusal, Table

FORMATS = ("swiss", "round-robin", "arena")
#: A Swiss without ``rounds`` plays this many; an arena without ``duration`` lasts this long.
DEFAULT_ROUNDS = 5
DEFAULT_ARENA = timedelta(minutes=30)
#: An event that has fewer players than this at its start is called off.
MIN_PLAYERS = 2
NAME_LENGTH = 60
#: How long the engine thinks to adjudicate a game a moderator cut short, and the lead (in its
#: units, about 4 a seed) it takes to call it a win rather than a draw.
ADJUDICATION_SECONDS = 0.5
ADJUDICATION_MARGIN = 8.0
#: The languages ``starts`` is read in (the bot's).
TIME_LANGUAGES = ["en", "fr", "pt"]

log = logging.getLogger(__name__)


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

    def entrant(self, user_id: int) -> EntrantRow | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

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
    #: Called off at its start: too few players.
    called_off: bool = False
    #: A recurring event's next edition, made when this one started (or was called off).
    next_edition: TournamentRow | None = None


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


def game_points(game: GameRow) -> float:
    """The first mover's (side A's) points from a game that ended: a moderator's abort is a draw."""
    return {"A": 1.0, "B": 0.0}.get(game.result or "", 0.5)


def adjudicate(game: Game) -> float:
    """Side A's points in a game cut short, as the expert judges the position (exact where the
    search proves it): a lead of :data:`ADJUDICATION_MARGIN` wins, less is a draw."""
    if game.outcome is not None or game.to_move is None:
        winner = game.outcome.winner if game.outcome is not None else None
        return 0.5 if winner is None else (1.0 if winner is Player.A else 0.0)
    score = ExpertPlayer(seed=0).choose(game, ADJUDICATION_SECONDS).score
    for_a = score if game.to_move is Player.A else -score
    return 1.0 if for_a >= ADJUDICATION_MARGIN else 0.0 if for_a <= -ADJUDICATION_MARGIN else 0.5


class TournamentService:
    """Making, joining and running events (see the module's documentation)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.schedules = ScheduleService(store)

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
    ) -> TournamentRow:
        """A new event; with ``repeat`` (``daily``, ``weekly``, ``monthly``), the first edition of a
        recurring one (``editions`` in all, or none starting after ``until``; ``title``: its shield)."""
        name = " ".join(name.split())[:NAME_LENGTH]
        if not name:
            raise Refusal(N_("A tournament needs a name."))
        if format not in FORMATS:
            raise Refusal(N_("`format` must be one of {choices}."), choices=", ".join(FORMATS))
        if clock not in CLOCKS:
            raise Refusal(N_("`clock` must be one of {choices}."), choices=", ".join(CLOCKS))
        parse_rules_code(variant)
        if format == "swiss":
            rounds = rounds or DEFAULT_ROUNDS
        elif format == "arena":
            rounds, duration = None, duration or int(DEFAULT_ARENA.total_seconds() // 60)
        else:
            rounds = None  # a round-robin's rounds follow from its players
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
            name=name,
            format=format,
            variant=variant,
            clock=clock,
            rounds=rounds,
            max_players=max_players,
            rated=int(rated),
            duration=duration if format == "arena" else None,
            cycles=cycles if format == "round-robin" else 1,
            starts_at=starts_at,
            **recurring,
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
        )

    async def _provisional(self, entrants: list[EntrantRow], variant: str) -> frozenset[int]:
        """Which players' ratings are still provisional: their ratings are read as they are now
        (an entrant row keeps the points at joining, not how sure they were)."""
        ratings = [(e.user_id, await self._store.ratings.rating_in(e.user_id, variant)) for e in entrants]
        return frozenset(user for user, rating in ratings if rating.provisional)

    async def in_server(self, guild_id: int, tournament_id: int) -> Event:
        """Event ``tournament_id`` of this server (another server's is not found)."""
        event = await self.event(tournament_id)
        if event.row.guild_id != guild_id:
            raise Refusal(N_("There is no tournament #{number}."), number=tournament_id)
        return event

    async def of_server(self, guild_id: int, *, over: bool) -> list[TournamentRow]:
        return await self._store.tournaments.tournaments_of(guild_id, over=over)

    async def to_run(self, now: datetime) -> list[TournamentRow]:
        return await self._store.tournaments.tournaments_to_run(now)

    # -- players ------------------------------------------------------------------------------

    async def join(self, tournament_id: int, *, user_id: int, name: str, now: datetime) -> Event:
        event = await self.event(tournament_id)
        rating = await self._store.ratings.rating_in(user_id, event.row.variant)
        try:
            await self._store.tournaments.join_tournament(
                tournament_id, user_id=user_id, name=name, rating=rating.points, now=now
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

    async def advance(self, tournament_id: int, now: datetime) -> Advance:
        """One step of event ``tournament_id`` at ``now``: whatever is due (see the module)."""
        event = await self.event(tournament_id)
        step = Advance(event)
        row = event.row
        if row.status == "open" and row.starts_at <= now:
            await self._begin(event, now, step)
        elif row.status == "running":
            step.results = await self._collect_results(event, now)
            event = await self.event(tournament_id)
            if row.format == "arena":
                await self._arena_step(event, now, step)
            elif not event.open_pairings:
                await self._next_round(event, now, step)
        step.event = await self.event(tournament_id)
        await self._recur(step, now)
        return step

    async def _recur(self, step: Advance, now: datetime) -> None:
        """A recurring event that has started (or was called off) has its next edition (made once,
        however often this is tried); one that finished crowns its winner with its title (once)."""
        row = step.event.row
        if row.schedule_id is None or row.status == "open":
            return
        step.next_edition = await self.schedules.next_edition(row, now)
        if row.status == "finished":
            await self.schedules.crown(row, winners(step.event.standings()), now)

    async def _begin(self, event: Event, now: datetime, step: Advance) -> None:
        if len(event.active) < MIN_PLAYERS:
            if await self._store.tournaments.update_tournament(
                event.row.id, {"status": "cancelled", "finished_at": now}, expect=("open",)
            ):
                step.called_off = True
            return
        if event.row.format == "arena":
            ends_at = now + timedelta(minutes=event.row.duration or 0)
            await self._arena_wave(event, now, step, ends_at=ends_at)
            return
        if event.row.format == "round-robin":
            schedule = round_robin_rounds(event.model_entrants, double=event.row.cycles == 2)
            pairs = schedule[0]
            step.new_round = await self._store.tournaments.start_round(
                event.row.id, after=0, pairings=self._rows_of(pairs), now=now, rounds=len(schedule)
            )
            return
        await self._next_round(event, now, step)

    async def _next_round(self, event: Event, now: datetime, step: Advance) -> None:
        row = event.row
        if row.round >= (row.rounds or 0):
            await self._finish(event, now, step)
            return
        number = row.round + 1
        if row.format == "round-robin":
            pairs = round_robin_rounds(event.model_entrants, double=row.cycles == 2)[number - 1]
            pairs = [p for p in pairs if not self._withdrawn(event, p, number)]
        else:
            try:  # the library's Dutch engine is pure Python: a second or more for a big event
                pairs = await asyncio.to_thread(
                    pair_swiss, event.model_entrants, event.model_pairings, number, row.rounds or DEFAULT_ROUNDS
                )
            except PairingError:  # no pairing keeps the rules (few players, many rounds): it ends here
                log.info(
                    "tournament %s ends after round %s: round %s cannot be paired (no pairing keeps the rules)",
                    row.id,
                    row.round,
                    number,
                )
                await self._finish(event, now, step)
                return
        step.new_round = await self._store.tournaments.start_round(
            row.id, after=row.round, pairings=self._rows_of(pairs), now=now
        )

    @staticmethod
    def _withdrawn(event: Event, pairing: Pairing, number: int) -> bool:
        """A round-robin pairing with a player who has left: not played (their opponent rests)."""
        gone = {e.user_id for e in event.entrants if e.withdrawn_after is not None and e.withdrawn_after < number}
        return pairing.first in gone or pairing.second in gone

    @staticmethod
    def _rows_of(pairs: list[Pairing]) -> list[tuple[int, int | None, float | None]]:
        """Pairings as stored: a bye is scored at once."""
        return [(p.first, p.second, BYE_POINTS if p.second is None else None) for p in pairs]

    async def _arena_step(self, event: Event, now: datetime, step: Advance) -> None:
        assert event.row.ends_at is not None  # set at the start
        if now < event.row.ends_at:
            await self._arena_wave(event, now, step)
        elif not event.open_pairings:
            await self._finish(event, now, step)

    async def _arena_wave(self, event: Event, now: datetime, step: Advance, ends_at: datetime | None = None) -> None:
        """Pair the arena's free players (none playing now), in the order they became free."""
        busy = {user for p in event.open_pairings for user in (p.first_id, p.second_id)}
        finished_at: dict[int, datetime] = {}
        last_opponent: dict[int, int | None] = {}
        first_moves: dict[int, int] = {}
        for p in event.pairings:
            if p.second_id is None:
                continue
            first_moves[p.first_id] = first_moves.get(p.first_id, 0) + 1
            for me, them in ((p.first_id, p.second_id), (p.second_id, p.first_id)):
                last_opponent[me] = them
                finished_at[me] = p.finished_at or p.created_at
        free = [e for e in event.active if e.user_id not in busy]
        free.sort(key=lambda e: (finished_at.get(e.user_id, e.joined_at), e.user_id))
        ratings = {e.user_id: e.rating for e in event.entrants}
        waiting = [e.user_id for e in free]
        pairs = arena_pairs(waiting, last_opponent, ratings, first_moves)
        if not pairs and not busy:  # only two who just met, and nobody else playing: they meet again
            pairs = arena_pairs(waiting, last_opponent, ratings, first_moves, allow_repeat=True)
        if not pairs and ends_at is None:
            return
        columns = {"ends_at": ends_at} if ends_at is not None else {}
        step.new_round = await self._store.tournaments.start_round(
            event.row.id, after=event.row.round, pairings=[(a, b, None) for a, b in pairs], now=now, **columns
        )

    async def _collect_results(self, event: Event, now: datetime) -> list[PairingRow]:
        """Copy the result of every game of the event that ended into its pairing (once)."""
        recorded = []
        for pairing in event.open_pairings:
            if pairing.game_id is None:
                continue
            game = await self._store.games.get_game(pairing.game_id)
            if game is None or game.live:
                continue
            if await self._store.tournaments.record_result(
                pairing, game_points(game), now, forfeit=game.status == "aborted"
            ):
                recorded.append(pairing)
        return recorded

    async def _finish(self, event: Event, now: datetime, step: Advance) -> None:
        step.finished = await self._store.tournaments.update_tournament(
            event.row.id, {"status": "finished", "finished_at": now}, expect=("running",)
        )

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

    async def start_now(self, tournament_id: int, now: datetime) -> Advance:
        """A moderator starts an open event now."""
        if not await self._store.tournaments.update_tournament(tournament_id, {"starts_at": now}, expect=("open",)):
            raise Refusal(N_("Only a tournament that has not started can be started now."))
        return await self.advance(tournament_id, now)

    async def set_status(self, tournament_id: int, *, expect: tuple[str, ...], status: str, now: datetime) -> Event:
        """Move an event to ``status`` if it is in one of ``expect``."""
        columns: dict[str, object] = {"status": status}
        if status in ("finished", "cancelled"):
            columns["finished_at"] = now
        if not await self._store.tournaments.update_tournament(tournament_id, columns, expect=expect):
            current = await self.event(tournament_id)
            raise Refusal(N_("That cannot be done now: the tournament is `{status}`."), status=current.row.status)
        return await self.event(tournament_id)

    async def rule(self, tournament_id: int, *, user_id: int, result: float, reason: str, now: datetime) -> PairingRow:
        """A moderator sets the result of ``user_id``'s current (or else last) game: ``result``
        is that player's points."""
        event = await self.event(tournament_id)
        pairing = event.current_pairing(user_id) or next(
            (p for p in reversed(event.pairings) if p.has(user_id) and not p.bye), None
        )
        if pairing is None:
            raise Refusal(N_("This player has no game in this tournament."))
        first_points = result if pairing.first_id == user_id else 1.0 - result
        await self._store.tournaments.rule_result(pairing, first_points, reason, now)
        return pairing

    async def rule_pairing(self, pairing: PairingRow, first_points: float, reason: str, now: datetime) -> None:
        """Set a pairing's result by hand (the first mover's points), the reason kept."""
        await self._store.tournaments.rule_result(pairing, first_points, reason, now)

    async def adjudication(self, game: Game) -> float:
        return await asyncio.to_thread(adjudicate, game)
