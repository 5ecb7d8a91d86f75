"""Recurring events: their schedules, and the titles (shields) their editions' winners take.

The editions themselves are events (:mod:`.tournaments`), each numbered in its schedule; the
number is unique there, so that the next edition is made once however many processes try. A
title is written once per edition and winner.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .backend import Row
from .database import Queries, time_text, when
from .rows import row_as, to_column
from .tournaments import TournamentRow

PERIODS = ("daily", "weekly", "monthly")


@dataclass(frozen=True)
class ScheduleRow:
    """How a recurring event comes back: every ``period``, from edition ``anchor_edition`` at
    ``anchor`` on, for ``editions`` editions in all or until ``until`` (``None``: no bound)."""

    id: int
    guild_id: int
    channel_id: int
    #: ``daily``, ``weekly`` or ``monthly``.
    period: str
    editions: int | None
    until: datetime | None
    #: The shield its editions' winners take (``None``: none).
    title: str | None
    anchor: datetime
    anchor_edition: int
    #: Stopped by a moderator: no further edition is made.
    stopped_at: datetime | None
    created_by: int
    created_at: datetime

    @classmethod
    def from_row(cls, row: Row) -> ScheduleRow:
        values = dict(row)
        for column in ("until", "anchor", "stopped_at"):
            values[column] = when(values[column]) if values[column] is not None else None
        return row_as(cls, values)


@dataclass(frozen=True)
class TitleRow:
    """A title won: the shield of a schedule, by the winner of one of its editions."""

    tournament_id: int
    user_id: int
    guild_id: int
    schedule_id: int
    title: str
    #: The winner's name as the server showed it then.
    name: str | None
    won_at: datetime

    @classmethod
    def from_row(cls, row: Row) -> TitleRow:
        values = dict(row)
        values["won_at"] = when(values["won_at"])
        return row_as(cls, values)


class ScheduleQueries(Queries):
    """Schedules of recurring events, and their titles."""

    async def create_schedule(self, *, now: datetime, **columns: Any) -> ScheduleRow:
        columns = {"created_at": now, **columns}
        names, marks = ", ".join(columns), ", ".join("?" for _ in columns)
        (row,) = await self._db.write_one(
            f"INSERT INTO tournament_schedules ({names}) VALUES ({marks}) RETURNING *",
            tuple(to_column(value) for value in columns.values()),
        )
        return ScheduleRow.from_row(row)

    async def schedule(self, schedule_id: int) -> ScheduleRow | None:
        return await self._db.one(ScheduleRow, "SELECT * FROM tournament_schedules WHERE id = ?", (schedule_id,))

    async def schedules_of(self, guild_id: int, limit: int = 25) -> list[ScheduleRow]:
        """A server's schedules, the running ones first, newest first."""
        rows = await self._db.read(
            "SELECT * FROM tournament_schedules WHERE guild_id = ? ORDER BY (stopped_at IS NULL) DESC, id DESC LIMIT ?",
            (guild_id, limit),
        )
        return [ScheduleRow.from_row(row) for row in rows]

    async def update_schedule(self, schedule_id: int, columns: Mapping[str, object]) -> bool:
        """Change a schedule's columns, if it is not stopped."""
        sets = ", ".join(f"{name} = ?" for name in columns)
        rows = await self._db.write_one(
            f"UPDATE tournament_schedules SET {sets} WHERE id = ? AND stopped_at IS NULL RETURNING id",
            (*map(to_column, columns.values()), schedule_id),
        )
        return bool(rows)

    # -- editions -------------------------------------------------------------------------------

    async def create_edition(self, *, teams_of: int | None = None, **columns: Any) -> TournamentRow | None:
        """Edition ``columns["edition"]`` of schedule ``columns["schedule_id"]``, made once: ``None``
        if it was made already (by another process, or an earlier try). A team battle's edition
        gets the teams of event ``teams_of`` (the one before) in the same transaction."""
        names, marks = ", ".join(columns), ", ".join("?" for _ in columns)
        async with self._db.writing():
            rows = await self._db.rows(
                f"INSERT INTO tournaments ({names}) VALUES ({marks}) ON CONFLICT DO NOTHING RETURNING *",
                tuple(to_column(value) for value in columns.values()),
            )
            if rows and teams_of is not None:
                await self._db.step(
                    "INSERT INTO tournament_teams (tournament_id, team, role_id, name) "
                    "SELECT ?, team, role_id, name FROM tournament_teams WHERE tournament_id = ?",
                    (rows[0]["id"], teams_of),
                )
        return TournamentRow.from_row(rows[0]) if rows else None

    async def edition(self, schedule_id: int, number: int) -> TournamentRow | None:
        return await self._db.one(
            TournamentRow, "SELECT * FROM tournaments WHERE schedule_id = ? AND edition = ?", (schedule_id, number)
        )

    async def newest_edition(self, schedule_id: int) -> TournamentRow | None:
        return await self._db.one(
            TournamentRow,
            "SELECT * FROM tournaments WHERE schedule_id = ? ORDER BY edition DESC LIMIT 1",
            (schedule_id,),
        )

    # -- titles ---------------------------------------------------------------------------------

    async def award_title(
        self,
        *,
        tournament_id: int,
        user_id: int,
        guild_id: int,
        schedule_id: int,
        title: str,
        name: str | None,
        now: datetime,
    ) -> bool:
        """The edition's winner takes the title: written once (``False`` if it was already)."""
        rows = await self._db.write_one(
            "INSERT INTO tournament_titles (tournament_id, user_id, guild_id, schedule_id, title, name, won_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING user_id",
            (tournament_id, user_id, guild_id, schedule_id, title, name, time_text(now)),
        )
        return bool(rows)

    async def titles_of(self, user_id: int, guild_id: int) -> list[TitleRow]:
        """Every title a player won in a server (one row per edition won), the newest first."""
        rows = await self._db.read(
            "SELECT * FROM tournament_titles WHERE user_id = ? AND guild_id = ? "
            "ORDER BY won_at DESC, tournament_id DESC",
            (user_id, guild_id),
        )
        return [TitleRow.from_row(row) for row in rows]

    async def holders(self, schedule_id: int) -> list[TitleRow]:
        """Who holds the schedule's title now: the winners of its last edition that crowned one."""
        rows = await self._db.read(
            "SELECT * FROM tournament_titles WHERE schedule_id = ? AND tournament_id = "
            "(SELECT MAX(tournament_id) FROM tournament_titles WHERE schedule_id = ?) ORDER BY user_id",
            (schedule_id, schedule_id),
        )
        return [TitleRow.from_row(row) for row in rows]
