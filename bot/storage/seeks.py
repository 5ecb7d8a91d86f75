"""The quick-pairing queue (``/wari seek``): players waiting for a game in a server.

A wait is claimed by deleting its row, so two processes can never pair the same player twice;
each server's queue is changed under one lock, so two players who fit and ask at the same moment
are paired with each other, never left waiting side by side.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .backend import Conflict
from .database import Queries, time_text
from .rows import SeekRow, to_column


class Unfit(Exception):
    """A wait that does not fit the player who would take it (see :meth:`SeekQueries.take`)."""

    def __init__(self, seek: SeekRow) -> None:
        super().__init__(seek.id)
        self.seek = seek


class SeekQueries(Queries):
    """Waiting for a game, being paired, giving up, expiring."""

    async def seek(self, *, now: datetime, **columns: Any) -> tuple[SeekRow | None, SeekRow]:
        """Pair a new wait with the oldest fitting one of its server, or queue it.

        ``columns`` are the new wait's (guild, channel, user, variant, clock, rating, within,
        expires_at). Returns ``(theirs, mine)``: ``theirs`` claimed (deleted) and ``mine`` not
        stored, or ``None`` and ``mine`` stored in the queue.

        :raises Conflict: the player is waiting in this server already.
        """
        guild_id = columns["guild_id"]
        async with self._db.writing():
            await self._db.lock(guild_id)
            waiting = await self._db.rows(
                "SELECT * FROM seeks WHERE guild_id = ? AND variant = ? AND clock = ? AND expires_at > ? ORDER BY id",
                (guild_id, columns["variant"], columns["clock"], time_text(now)),
            )
            mine = SeekRow(id=0, message_id=None, created_at=now, **columns)
            if await self._db.rows("SELECT 1 FROM seeks WHERE guild_id = ? AND user_id = ?", (guild_id, mine.user_id)):
                raise Conflict("already waiting")
            for theirs in map(SeekRow.from_row, waiting):
                if theirs.fits(mine) and (await self._db.step("DELETE FROM seeks WHERE id = ?", (theirs.id,))).rowcount:
                    return theirs, mine
            (stored,) = await self._db.rows(
                """
                INSERT INTO seeks (guild_id, channel_id, user_id, user_name, variant, clock, rating, within,
                                   created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *
                """,
                (
                    guild_id,
                    mine.channel_id,
                    mine.user_id,
                    mine.user_name,
                    mine.variant,
                    mine.clock,
                    mine.rating,
                    mine.within,
                    time_text(now),
                    time_text(mine.expires_at),
                ),
            )
            return None, SeekRow.from_row(stored)

    async def get(self, seek_id: int, guild_id: int) -> SeekRow:
        """The wait ``seek_id`` of server ``guild_id``.

        :raises LookupError: there is none (it ended, or it is another server's)."""
        seek = await self._db.one(SeekRow, "SELECT * FROM seeks WHERE id = ? AND guild_id = ?", (seek_id, guild_id))
        if seek is None:
            raise LookupError(seek_id)
        return seek

    async def take(self, seek_id: int, mine: SeekRow, now: datetime) -> tuple[SeekRow, SeekRow | None]:
        """Claim the wait ``seek_id`` for ``mine`` (a player who pressed its **Play**; not stored).

        Returns ``(theirs, dropped)``: ``theirs`` claimed (deleted), and ``dropped`` the taker's own
        wait in this server, if they had one, ended with it (they are playing now).

        :raises LookupError: the wait is gone (paired, cancelled) or past its time.
        :raises Unfit: it does not fit ``mine`` (the taker's own, or a rating out of range).
        """
        async with self._db.writing():
            await self._db.lock(mine.guild_id)
            rows = await self._db.rows(
                "SELECT * FROM seeks WHERE id = ? AND guild_id = ? AND expires_at > ?",
                (seek_id, mine.guild_id, time_text(now)),
            )
            if not rows:
                raise LookupError(seek_id)
            theirs = SeekRow.from_row(rows[0])
            if not theirs.fits(mine):
                raise Unfit(theirs)
            await self._db.step("DELETE FROM seeks WHERE id = ?", (seek_id,))
            own = await self._db.rows(
                "DELETE FROM seeks WHERE guild_id = ? AND user_id = ? RETURNING *", (mine.guild_id, mine.user_id)
            )
            return theirs, SeekRow.from_row(own[0]) if own else None

    async def waiting(self, guild_id: int, user_id: int) -> SeekRow | None:
        """The player's wait in a server, if any."""
        return await self._db.one(
            SeekRow, "SELECT * FROM seeks WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )

    async def set_seek_message(self, seek_id: int, message_id: int) -> None:
        await self._db.write(("UPDATE seeks SET message_id = ? WHERE id = ?", (message_id, seek_id)))

    async def end_seek(self, seek_id: int) -> SeekRow | None:
        """Take a wait out of the queue (given up, expired); ``None`` if it was gone already
        (paired or ended meanwhile)."""
        async with self._db.writing():
            rows = await self._db.rows("DELETE FROM seeks WHERE id = ? RETURNING *", (seek_id,))
        return SeekRow.from_row(rows[0]) if rows else None

    async def requeue(self, seek: SeekRow) -> None:
        """Put back a claimed wait whose game could not start (its place in the queue kept)."""
        columns = {name: getattr(seek, name) for name in SeekRow.__dataclass_fields__}
        names = ", ".join(columns)
        marks = ", ".join("?" for _ in columns)
        values = tuple(map(to_column, columns.values()))
        await self._db.write((f"INSERT INTO seeks ({names}) VALUES ({marks}) ON CONFLICT DO NOTHING", values))

    async def due_seeks(self, now: datetime) -> list[SeekRow]:
        """The waits past their time, oldest first."""
        rows = await self._db.read("SELECT * FROM seeks WHERE expires_at <= ? ORDER BY id", (time_text(now),))
        return [SeekRow.from_row(row) for row in rows]
