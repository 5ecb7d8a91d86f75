"""Quick pairing (``/wari seek``): a server's queue of players waiting for a game."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.engine import Rules
from bot.engine.notation import rules_code
from bot.i18n import N_
from bot.storage import Conflict, SeekRow, Store, Unfit

from .table import Closed, Refusal
from .turns import parse_clock

SEARCH_OVER = N_("This search is over.")
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

    async def take(
        self, seek_id: int, *, guild_id: int, channel_id: int, user_id: int, user_name: str, now: datetime
    ) -> tuple[SeekRow, SeekRow, SeekRow | None]:
        """``user_id`` pressed **Play** on the wait ``seek_id``: ``(theirs, mine, dropped)``, the
        wait claimed, the taker as a wait of the same game (not stored), and the taker's own wait
        in this server that ended with it (or ``None``)."""
        seeks = self._store.seeks
        try:
            wanted = await seeks.get(seek_id, guild_id)  # its game (rule set, clock) never changes
        except LookupError:
            raise Closed(SEARCH_OVER) from None
        rating = await self._store.ratings.rating_in(user_id, wanted.variant)
        mine = SeekRow(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            user_name=user_name,
            variant=wanted.variant,
            clock=wanted.clock,
            rating=rating.points,
            within=None,
            message_id=None,
            created_at=now,
            expires_at=now,
        )
        try:
            theirs, dropped = await seeks.take(seek_id, mine, now)
        except LookupError:
            raise Closed(SEARCH_OVER) from None
        except Unfit as unfit:
            raise refusal_to(unfit.seek, mine) from None
        return theirs, mine, dropped

    async def set_message(self, seek: SeekRow, message_id: int) -> None:
        await self._store.seeks.set_seek_message(seek.id, message_id)

    async def cancel(self, seek_id: int, owner_id: int, user_id: int, guild_id: int) -> SeekRow:
        """``user_id`` gives up the wait ``seek_id`` in server ``guild_id`` (only its player,
        ``owner_id``, may; their wait in another server is not this one's to end, or show)."""
        if user_id != owner_id:
            raise Refusal(N_("Only the player who is looking can cancel this search."))
        waiting = await self._store.seeks.waiting(guild_id, owner_id)
        if waiting is None or waiting.id != seek_id:
            raise Closed(SEARCH_OVER)
        ended = await self._store.seeks.end_seek(seek_id)
        if ended is None:
            raise Closed(SEARCH_OVER)
        return ended

    async def requeue(self, seek: SeekRow) -> None:
        await self._store.seeks.requeue(seek)

    async def expire_due(self, now: datetime) -> list[SeekRow]:
        """End every wait past its time; return them (to close their messages)."""
        due = [await self._store.seeks.end_seek(seek.id) for seek in await self._store.seeks.due_seeks(now)]
        return [seek for seek in due if seek is not None]


def refusal_to(theirs: SeekRow, mine: SeekRow) -> Refusal:
    """Why ``mine`` cannot take the wait ``theirs``."""
    if theirs.user_id == mine.user_id:
        return Refusal(N_("This is your own search: its **Cancel** button ends it."))
    assert theirs.within is not None  # only a range keeps two different players apart
    return Refusal(
        N_("{name} is looking for opponents rated {low}–{high}; your rating in this game is {rating}."),
        name=theirs.name,
        low=theirs.rating - theirs.within,
        high=theirs.rating + theirs.within,
        rating=mine.rating,
    )
