"""Recurring events: a schedule makes an event come back daily, weekly or monthly.

An edition's successor is made when the edition starts (or is called off), a copy of its
settings (a team battle's teams too, as its roles make them: :mod:`.teams`) with the start moved by the period
(:meth:`ScheduleService.next_edition`); its number is unique in the schedule, so a second try (a
retry, another process) finds it made. Editing a schedule changes the edition still to start,
which the following ones copy. A schedule may carry a title (a shield) that each edition's
winner takes (:meth:`ScheduleService.crown`).
"""

from __future__ import annotations

import calendar
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.i18n import N_
from bot.storage import ScheduleRow, Store, TitleRow, TournamentRow
from bot.storage.schedules import PERIODS
from bot.tournament import Standing

from .table import Refusal

TITLE_LENGTH = 60
#: The settings an edition copies from the one before.
COPIED = (
    "guild_id",
    "channel_id",
    "created_by",
    "name",
    "format",
    "variant",
    "clock",
    "rounds",
    "max_players",
    "rated",
    "cycles",
    "duration",
    "leaders",
)


def shifted(anchor: datetime, periods: int, period: str) -> datetime:
    """``anchor`` moved on by ``periods`` days, weeks or months (a month keeps the day of the
    month, or the month's last day where it has fewer)."""
    if period == "daily":
        return anchor + timedelta(days=periods)
    if period == "weekly":
        return anchor + timedelta(weeks=periods)
    months = anchor.month - 1 + periods
    year, month = anchor.year + months // 12, months % 12 + 1
    return anchor.replace(year=year, month=month, day=min(anchor.day, calendar.monthrange(year, month)[1]))


def start_of(schedule: ScheduleRow, edition: int, now: datetime) -> datetime:
    """When edition ``edition`` starts: its place in the schedule, or (the bot was away past it)
    the first of the schedule's times still to come."""
    periods = edition - schedule.anchor_edition
    start = shifted(schedule.anchor, periods, schedule.period)
    while start <= now:
        periods += 1
        start = shifted(schedule.anchor, periods, schedule.period)
    return start


@dataclass(frozen=True)
class Schedule:
    """A schedule as read: its row, its newest edition, who holds its title."""

    row: ScheduleRow
    newest: TournamentRow | None
    holders: list[TitleRow]


class ScheduleService:
    """Recurring events (see the module's documentation)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    @staticmethod
    def checked(
        *, period: str, editions: int | None, until: datetime | None, title: str | None, starts: datetime
    ) -> str | None:
        """The schedule's options, checked; its title tidied (``None``: none)."""
        if period not in PERIODS:
            raise Refusal(N_("`repeat` must be one of {choices}."), choices=", ".join(PERIODS))
        if editions is not None and editions < 2:
            raise Refusal(N_("A recurring tournament has at least 2 editions."))
        if until is not None and until < starts:
            raise Refusal(N_("The schedule ends before its first edition starts."))
        title = " ".join((title or "").split())[:TITLE_LENGTH]
        return title or None

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        created_by: int,
        period: str,
        editions: int | None,
        until: datetime | None,
        title: str | None,
        starts: datetime,
        now: datetime,
    ) -> ScheduleRow:
        title = self.checked(period=period, editions=editions, until=until, title=title, starts=starts)
        return await self._store.schedules.create_schedule(
            now=now,
            guild_id=guild_id,
            channel_id=channel_id,
            created_by=created_by,
            period=period,
            editions=editions,
            until=until,
            title=title,
            anchor=starts,
            anchor_edition=1,
        )

    async def schedule(self, row: TournamentRow) -> ScheduleRow | None:
        """The schedule of a recurring event (``None`` for a one-off)."""
        return await self._store.schedules.schedule(row.schedule_id) if row.schedule_id is not None else None

    async def next_edition(self, row: TournamentRow, now: datetime) -> TournamentRow | None:
        """The edition after ``row``, made now if it is due and not made yet; ``None`` if ``row``
        is no recurring event's, or its schedule is stopped or over."""
        schedule = await self.schedule(row)
        if schedule is None or row.edition is None:
            return None
        number = row.edition + 1
        made = await self._store.schedules.edition(schedule.id, number)
        if made is not None or schedule.stopped_at is not None:
            return made
        if schedule.editions is not None and number > schedule.editions:
            return None
        starts = start_of(schedule, number, now)
        if schedule.until is not None and starts > schedule.until:
            return None
        copied = {column: getattr(row, column) for column in COPIED}
        if row.format == "round-robin":
            copied["rounds"] = None  # set by its own players at its start
        made = await self._store.schedules.create_edition(
            **copied,
            schedule_id=schedule.id,
            edition=number,
            starts_at=starts,
            created_at=now,
            teams_of=row.id if row.leaders is not None else None,  # a team battle keeps its teams
        )
        return made or await self._store.schedules.edition(schedule.id, number)

    async def crown(self, row: TournamentRow, champions: Sequence[Standing], now: datetime) -> None:
        """The finished edition's champions (:meth:`~.event.Event.champions`) take its schedule's
        title (once)."""
        schedule = await self.schedule(row)
        if schedule is None or schedule.title is None or row.status != "finished":
            return
        for champion in champions:
            await self._store.schedules.award_title(
                tournament_id=row.id,
                user_id=champion.user_id,
                guild_id=row.guild_id,
                schedule_id=schedule.id,
                title=schedule.title,
                name=champion.name,
                now=now,
            )

    async def of_server(self, guild_id: int) -> list[Schedule]:
        rows = await self._store.schedules.schedules_of(guild_id)
        return [await self._read(row) for row in rows]

    async def in_server(self, guild_id: int, schedule_id: int) -> Schedule:
        row = await self._store.schedules.schedule(schedule_id)
        if row is None or row.guild_id != guild_id:
            raise Refusal(N_("There is no schedule #{number}."), number=schedule_id)
        return await self._read(row)

    async def _read(self, row: ScheduleRow) -> Schedule:
        newest = await self._store.schedules.newest_edition(row.id)
        return Schedule(row, newest, await self._store.schedules.holders(row.id))

    async def edit(
        self, schedule: Schedule, *, changes: dict[str, object], edition_changes: dict[str, object]
    ) -> Schedule:
        """Change a schedule (``period``, ``editions``, ``until``, ``title``) and the settings of its
        edition still to start (which the next ones copy)."""
        row, newest = schedule.row, schedule.newest
        if row.stopped_at is not None:
            raise Refusal(N_("This schedule is stopped."))
        upcoming = newest if newest is not None and newest.status == "open" else None
        if "period" in changes and upcoming is not None and upcoming.edition is not None:
            changes = {**changes, "anchor": upcoming.starts_at, "anchor_edition": upcoming.edition}
        if "title" in changes:
            changes["title"] = self.checked(
                period=str(changes.get("period", row.period)),
                editions=None,
                until=None,
                title=str(changes["title"] or ""),
                starts=row.anchor,
            )
        if changes:
            await self._store.schedules.update_schedule(row.id, changes)
        if edition_changes and upcoming is not None:
            await self._store.tournaments.update_tournament(upcoming.id, edition_changes, expect=("open",))
        return await self._read((await self._store.schedules.schedule(row.id)) or row)

    async def stop_row(self, row: TournamentRow, now: datetime) -> bool:
        """Stop the schedule of edition ``row``; whether this stopped it (not stopped already)."""
        if row.schedule_id is None:
            return False
        return await self._store.schedules.update_schedule(row.schedule_id, {"stopped_at": now})

    async def stop(self, schedule: Schedule, now: datetime) -> Schedule:
        if not await self._store.schedules.update_schedule(schedule.row.id, {"stopped_at": now}):
            raise Refusal(N_("This schedule is stopped."))
        return await self._read((await self._store.schedules.schedule(schedule.row.id)) or schedule.row)

    async def titles_of(self, user_id: int, guild_id: int) -> list[TitleRow]:
        """The titles a player won in a server, newest first (for their profile)."""
        return await self._store.schedules.titles_of(user_id, guild_id)
