"""Quick pairing (``/wari seek``): a server's queue of players waiting for a game."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.engine import Rules
from bot.engine.notation import rules_code
from bot.i18n import N_
from bot.storage import Conflict, SeekRow, Store

from .table import Closed, Refusal
from .turns import parse_clock

#: How long a player waits in the queue before their search ends by itself.
SEEK_TIMEOUT = timedelta(minutes=15)


class SeekService:
    """Waiting, being paired, giving up and expiring; the game itself is started by
    :meth:`bot.service.starts.StartService.start_paired`."""

    def __init__(self, store: Store, *, timeout: timedelta = SEEK_TIMEOUT) -> None:
        self._store = store
        self.timeout = timeout

    async def seek(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        user_name: str,
        rules: Rules,
        clock: str,
        within: int | None,
        now: datetime,
    ) -> tuple[SeekRow | None, SeekRow]:
        """``(theirs, mine)``: the wait this one completes (claimed), or ``None`` and this one, queued."""
        parse_clock(clock)
        variant = rules_code(rules)
        rating = await self._store.ratings.rating_in(user_id, variant)
        try:
            return await self._store.seeks.seek(
                now=now,
                guild_id=guild_id,
                channel_id=channel_id,
                user_id=user_id,
                user_name=user_name,
                variant=variant,
                clock=clock,
                rating=rating.points,
                within=within,
                expires_at=now + self.timeout,
            )
        except Conflict:
            raise Refusal(
                N_("You are already looking for a game in this server: its message has a **Cancel** button.")
            ) from None

    async def set_message(self, seek: SeekRow, message_id: int) -> None:
        await self._store.seeks.set_seek_message(seek.id, message_id)

    async def cancel(self, seek_id: int, owner_id: int, user_id: int, guild_id: int) -> SeekRow:
        """``user_id`` gives up the wait ``seek_id`` in server ``guild_id`` (only its player,
        ``owner_id``, may; their wait in another server is not this one's to end, or show)."""
        if user_id != owner_id:
            raise Refusal(N_("Only the player who is looking can cancel this search."))
        waiting = await self._store.seeks.waiting(guild_id, owner_id)
        if waiting is None or waiting.id != seek_id:
            raise Closed(N_("This search is over."))
        ended = await self._store.seeks.end_seek(seek_id)
        if ended is None:
            raise Closed(N_("This search is over."))
        return ended

    async def requeue(self, seek: SeekRow) -> None:
        await self._store.seeks.requeue(seek)

    async def expire_due(self, now: datetime) -> list[SeekRow]:
        """End every wait past its time; return them (to close their messages)."""
        due = [await self._store.seeks.end_seek(seek.id) for seek in await self._store.seeks.due_seeks(now)]
        return [seek for seek in due if seek is not None]
