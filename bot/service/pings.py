"""Turn pings and reminders, time-outs due, and the games the computer plays: what the sweeps
and a restart read and record. Discord is the caller's: this module says who is due a ping and
records that it was posted."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime

from bot.storage import GameRow

from .base import Tables
from .table import Table


@dataclass(frozen=True)
class DuePing:
    """A ping a game is due now, as read under its channel's lock."""

    table: Table
    #: ``"turn"`` (it is their move) or ``"reminder"`` (a quarter of a per-move clock is left).
    kind: str
    #: Whom to mention: the player to move, unless they turned pings off or the game is one of a
    #: fast tournament's (:attr:`~bot.service.table.Table.called_once`) (``None``: nobody).
    user_id: int | None


class PingService:
    """Who is due a ping, its record, and the due rows the sweeps read."""

    def __init__(self, tables: Tables) -> None:
        #: The channels' locks and games, shared with the other parts of the game service.
        self._tables = tables
        self._store = tables.store
        #: The due pings being posted now (game, version, due time): each is posted once.
        self._delivering: set[tuple[int, int, datetime | None]] = set()

    async def games_past_deadline(self, now: datetime) -> list[GameRow]:
        """Live games whose player to move has run out of time (end each with :meth:`.games.GameService.time_out`)."""
        return await self._store.clocks.games_past_deadline(now)

    async def games_due_a_ping(self, now: datetime) -> list[GameRow]:
        """Live games whose player to move is due a ping (deliver each through :meth:`due_ping`)."""
        return await self._store.clocks.games_due_a_ping(now)

    @contextlib.asynccontextmanager
    async def due_ping(
        self, game_id: int, channel_id: int, now: datetime, *, just_saved: bool = False
    ) -> AsyncIterator[DuePing | None]:
        """The ping game ``game_id`` is due at ``now`` (``None``: none is), to post and then
        :meth:`record_ping` inside the block. ``just_saved``: this process has just saved the
        game (a press's follow-up), so it is read from memory (:mod:`.live`), not the database.

        Read under the channel's lock, but not held across the block: posting a ping is a call
        to Discord, and no press waits for it. A move or an ending meanwhile makes the record's
        compare-and-set fail, and the ping just posted is taken back; two deliveries of the same
        due ping in this process (a sweep, a press) do not both post it: the second finds none.
        """
        async with self._tables.lock(channel_id):
            due = await self._due(game_id, now, just_saved)
        claim = None if due is None else (game_id, due.table.row.version, due.table.row.ping_at)
        if claim is None or claim in self._delivering:
            yield None
            return
        self._delivering.add(claim)
        try:
            yield due
        finally:
            self._delivering.discard(claim)

    async def _due(self, game_id: int, now: datetime, just_saved: bool) -> DuePing | None:
        known = self._tables.live.get(game_id) if just_saved else None
        if known is not None and known.muted is not None:
            row, muted = known.row, known.muted
        else:
            found = await self._store.clocks.game_to_ping(game_id)
            if found is None:
                return None
            row, muted = found
            self._tables.live.keep(row, muted)
        if not row.live or row.ping_at is None or row.ping_at > now or row.message_id is None:
            return None
        assert row.ping_kind is not None  # stored together with ping_at
        table = Table.of(row)
        user = table.user_to_move
        quiet = user in muted or table.called_once
        return DuePing(table, row.ping_kind, None if quiet else user)

    async def called_now(self, table: Table) -> int | None:
        """Whom a game where the bot only answers interactions calls in the follow-up of the change
        that made ``table`` (it has no later moment to ping in): the player to move if a turn ping
        is due them, at once or later, unless they turned pings off (``None``: nobody)."""
        row = table.row
        if not row.live or row.ping_kind != "turn" or row.ping_at is None:
            return None
        known = self._tables.live.get(row.id)
        if known is not None and known.muted is not None:
            muted = known.muted
        else:
            found = await self._store.clocks.game_to_ping(row.id)
            muted = found[1] if found is not None else frozenset()
        user = table.user_to_move
        return None if user is None or user in muted or table.called_once else user

    async def record_ping(self, due: DuePing, message_id: int | None) -> int | None:
        """Record that ``due`` was posted as ``message_id`` (``None``: not posted) and set the next
        ping (a turn ping leads to a reminder, if the clock gives one). The id of the ping message
        to delete: the game's previous ping, or, if the game moved on meanwhile, the one just posted."""
        row, clock = due.table.row, due.table.clock
        next_at = None
        if due.kind == "turn" and clock is not None and clock.reminder_before and row.deadline:
            next_at = row.deadline - clock.reminder_before
        recorded = await self._store.clocks.record_ping(
            row, message_id=message_id, next_at=next_at, next_kind="reminder" if next_at is not None else None
        )
        if recorded is None:
            return message_id
        stale = row.ping_message_id if self._tables.live.still_to_take_back(row.id, row.ping_message_id) else None
        self._tables.live.keep(recorded, written=True)
        return stale

    async def passed_ping(self, table: Table) -> int | None:
        """The ping message to take back after a move whose ping, if any, is not posted now (the
        player to move is at the board, or their ping waits): the previous one, for a turn that
        has passed; ``None`` if there is none, or a new ping replaced it already. Where this
        process keeps the game (:mod:`.live`), that is known without a trip, and the ping is
        forgotten with the game's next change; else it is forgotten now."""
        previous = table.previous
        if previous is None or previous.record == table.row.record or previous.ping_message_id is None:
            return None  # not a move, or no ping shown
        if table.row.ping_message_id != previous.ping_message_id:
            return None  # replaced by a new ping, or forgotten by this change: taken back already
        kept = self._tables.live.taken_back(table.row.id, previous.ping_message_id)
        if kept is not None:
            return previous.ping_message_id if kept else None
        async with self._tables.lock(table.row.channel_id):
            if await self._store.clocks.forget_ping(table.row.id, previous.ping_message_id):
                return previous.ping_message_id
        return None

    async def last_ping(self, table: Table) -> int | None:
        """The last ping message of ``table``'s game, which just ended: as its ending's save
        returned it (no ping is recorded for a finished game), else read afresh."""
        if table.just_ended:
            return table.row.ping_message_id
        async with self._tables.lock(table.row.channel_id):
            row = await self._store.games.get_game(table.row.id)
        return row.ping_message_id if row else None

    async def computer_games(self) -> list[Table]:
        """Every live game the computer plays in on this process's shards (to resume after a restart)."""
        return [Table.of(row) for row in await self._store.games.live_computer_games()]
