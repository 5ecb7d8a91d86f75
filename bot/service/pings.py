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

    async def games_past_deadline(self, now: datetime) -> list[GameRow]:
        """Live games whose player to move has run out of time (end each with :meth:`.games.GameService.time_out`)."""
        return await self._store.clocks.games_past_deadline(now)

    async def games_due_a_ping(self, now: datetime) -> list[GameRow]:
        """Live games whose player to move is due a ping (deliver each through :meth:`due_ping`)."""
        return await self._store.clocks.games_due_a_ping(now)

    @contextlib.asynccontextmanager
    async def due_ping(self, game_id: int, channel_id: int, now: datetime) -> AsyncIterator[DuePing | None]:
        """The ping game ``game_id`` is due at ``now`` (``None``: none is), held under the channel's
        lock so that no move or ending comes between reading it and :meth:`record_ping`, which
        must be called inside the block (its compare-and-set keeps other processes right)."""
        async with self._tables.lock(channel_id):
            found = await self._store.clocks.game_to_ping(game_id)
            due = None
            if found is not None:
                row, muted = found
                if row.live and row.ping_at is not None and row.ping_at <= now and row.message_id is not None:
                    assert row.ping_kind is not None  # stored together with ping_at
                    table = Table.of(row)
                    user = table.user_to_move
                    quiet = user in muted or table.called_once
                    due = DuePing(table, row.ping_kind, None if quiet else user)
            yield due

    async def called_now(self, table: Table) -> int | None:
        """Whom a game where the bot only answers interactions calls in the follow-up of the change
        that made ``table`` (it has no later moment to ping in): the player to move if a turn ping
        is due them, at once or later, unless they turned pings off (``None``: nobody)."""
        row = table.row
        if not row.live or row.ping_kind != "turn" or row.ping_at is None:
            return None
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
        return row.ping_message_id if recorded else message_id

    async def passed_ping(self, table: Table) -> int | None:
        """The ping message to take back after a move whose ping, if any, is not posted now (the
        player to move is at the board, or their ping waits): the previous one, for a turn that
        has passed; ``None`` if there is none, or a new ping replaced it already."""
        previous = table.previous
        if previous is None or previous.record == table.row.record or previous.ping_message_id is None:
            return None  # not a move, or no ping shown
        async with self._tables.lock(table.row.channel_id):
            if await self._store.clocks.forget_ping(table.row.id, previous.ping_message_id):
                return previous.ping_message_id
        return None

    async def last_ping(self, table: Table) -> int | None:
        """The last ping message of ``table``'s game, read afresh (one may have come meanwhile)."""
        async with self._tables.lock(table.row.channel_id):
            row = await self._store.games.get_game(table.row.id)
        return row.ping_message_id if row else None

    async def computer_games(self) -> list[Table]:
        """Every live game the computer plays in on this process's shards (to resume after a restart)."""
        return [Table.of(row) for row in await self._store.games.live_computer_games()]
