"""What every part of the game service shares (:class:`Tables`): the store, the channel locks,
the live games kept in memory (:mod:`.live`), reading and saving games. Each part
(:mod:`.challenges`, :mod:`.starts`, :mod:`.games`, :mod:`.pings`) takes the one :class:`Tables`
in its constructor, so one channel has one lock, and one game one copy in memory, whichever
part changes it."""

from __future__ import annotations

import asyncio
import logging
import random
import weakref
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any, TypeVar

from bot.engine import Game, Player
from bot.engine.notation import record, snapshot
from bot.i18n import N_
from bot.storage import ChallengeRow, Conflict, GameRow, NumberScope, SavedGame, StorageError, Store

from .live import LiveGames
from .table import NO_GAME, Refusal, StaleBoard, Table, TimeUp
from .turns import NO_OFFER, handover

log = logging.getLogger(__name__)

#: What an action on a game (:meth:`Tables.acting_on`) gives back.
Outcome = TypeVar("Outcome")

#: The answer to a game's number that is not this server's: unknown, or another server's (not told apart).
NOT_IN_THIS_SERVER = N_("There is no game #{number} in this server. `/wari history` lists the games of a player.")
#: In the bot's DM, a player reads their own games only.
NOT_YOURS = N_("You played no game #{number}. `/wari history` lists your games.")
#: Where the bot only answers interactions (a group DM, a server without it): its own games only.
NOT_IN_THIS_CONVERSATION = N_(
    "There is no game #{number} in this conversation: here I show only the games played here (in our DM, all of yours)."
)
#: A change that lost its race to another (see :meth:`Tables.update`).
CHANGED_MEANWHILE = N_("The game changed meanwhile: use the latest board message.")
#: The bot notes it is alive this often (its heartbeat); silent for longer than :data:`OUTAGE`,
#: it was down, and the clocks are paused for as long (once).
HEARTBEAT = timedelta(seconds=60)
OUTAGE = timedelta(minutes=3)
#: How long a saved challenge may wait for its message to be posted before it stops counting.
UNPOSTED_GRACE = timedelta(minutes=1)


def not_shown_here(scope: NumberScope) -> str:
    """Why a game's number finds nothing where ``scope`` says (its number formatted in)."""
    if scope.guild_id is None:
        return NOT_YOURS
    return NOT_IN_THIS_SERVER if scope.channel_id is None else NOT_IN_THIS_CONVERSATION


class Tables:
    """The store and the per-channel locks; reading, saving and ending a channel's game. The
    methods a player's action needs are public for the parts of :class:`bot.service.WariService`
    that share this object; the cogs read games through :meth:`table`, :meth:`game`,
    :meth:`game_shown` and :meth:`live_table`, and hold a channel with :meth:`lock`."""

    def __init__(self, store: Store, *, challenge_timeout: int = 600, rng: random.Random | None = None) -> None:
        self.store = store
        self.challenge_timeout = timedelta(seconds=challenge_timeout)
        #: Settles random first players (a seeded one makes them repeatable).
        self.rng = rng or random.Random()
        # Weak values: a channel's lock lives while someone holds or awaits it, and no longer.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        #: The live games as this process last saved or read them (see :mod:`.live`).
        self.live = LiveGames()

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The lock that serialises every change to one channel's challenge and game."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    async def table(self, channel_id: int, *, user_id: int | None = None, game_id: int | None = None) -> Table | None:
        """The live game of a channel, if any: an event's thread holds several, so the one
        ``user_id`` plays in, or game ``game_id``, where the caller knows which it wants."""
        row = await self.store.games.live_game(channel_id, user_id=user_id, game_id=game_id)
        if row is None:
            if game_id is not None:
                self.live.forget(game_id)  # over, or not this channel's: read afresh next time
            return None
        self.live.keep(row)
        return Table.of(self.live.as_shown(row))

    async def live_tables(self, channel_id: int) -> list[Table]:
        """Every live game of a channel (several only in a tournament's thread), oldest first."""
        return [Table.of(row) for row in await self.store.games.live_games(channel_id)]

    async def check_not_event_thread(self, channel_id: int) -> None:
        """A tournament's thread holds its games only: a :class:`Refusal` for any other game there."""
        if await self.store.tournaments.event_in_thread(channel_id) is not None:
            raise Refusal(
                N_(
                    "This thread holds a tournament's games only. "
                    "Start your game in another channel, or in the channel above this thread."
                )
            )

    async def game(self, game_id: int) -> Table:
        """Any game, live or finished, by its number; a :class:`Refusal` if there is none."""
        row = await self.store.games.get_game(game_id)
        if row is None:
            raise Refusal(N_("There is no game #{number}."), number=game_id)
        return Table.of(row)

    async def game_shown(self, game_id: int, scope: NumberScope) -> Table:
        """Game ``game_id`` if ``scope`` (where its number was given) may show it; else a
        :class:`Refusal` that does not tell a game kept from this place from one that does not
        exist. Every read of one game by a number a member gave (a record, a replay, an analysis,
        a button's id) goes through here: a game of another server, even the asker's own, is not
        this server's to show, nor a group DM's; only the bot's DM shows all its player's games."""
        row = await self.store.games.get_game(game_id)
        if row is None or not scope.covers(row):
            raise Refusal(not_shown_here(scope), number=game_id)
        return Table.of(row)

    async def live_table(self, channel_id: int) -> Table:
        """The live game of a channel; a :class:`Refusal` if there is none."""
        table = await self.table(channel_id)
        if table is None:
            raise Refusal(NO_GAME)
        return table

    async def open_challenge_in(self, channel_id: int, now: datetime) -> ChallengeRow | None:
        """The channel's open challenge; one that never got its message (the bot stopped, or
        the database failed, between saving and posting it) is removed after a short grace,
        so that it cannot block the channel until it expires."""
        challenge = await self.store.games.challenge_in(channel_id)
        if challenge is not None and challenge.message_id is None and now - challenge.created_at > UNPOSTED_GRACE:
            await self.store.games.delete_challenge(challenge.id)
            return None
        return challenge

    async def current(self, channel_id: int, game_id: int) -> Table:
        table = await self.table(channel_id, game_id=game_id)
        if table is None:
            raise StaleBoard(N_("This game is over."), table)
        return table

    async def acting_on(self, channel_id: int, game_id: int, act: Callable[[Table], Awaitable[Outcome]]) -> Outcome:
        """``act`` on live game ``game_id`` of the channel (under its lock), as this process last
        saw it, without reading it: the save ``act`` ends in is a compare-and-set, so it changes
        nothing if the game changed meanwhile. Then, as for any refusal ``act`` meets on the game
        as kept (it may be behind), the game is read afresh and ``act`` runs again on it: what
        is done or said is always the database's. A game ended on time stands (:class:`TimeUp`:
        its end was saved)."""
        kept = self.live.table(game_id)
        if kept is not None and kept.row.channel_id == channel_id:
            try:
                return await act(kept)
            except TimeUp:
                raise
            except Refusal:
                self.live.forget(game_id)
        return await act(await self.current(channel_id, game_id))

    async def seated(self, channel_id: int, user_id: int, now: datetime) -> tuple[Table, Player]:
        """The channel's live game (in an event's thread, the one ``user_id`` plays in) and the side
        ``user_id`` plays in it; a :class:`Refusal` if none, :class:`TimeUp` if the player to move
        had run out of time."""
        table = await self.table(channel_id, user_id=user_id) or await self.live_table(channel_id)
        player = table.player(user_id)
        if player is None:
            raise Refusal(N_("You are not playing in this channel's game."))
        await self.check_flag(table, now)
        return table, player

    async def check_flag(self, table: Table, now: datetime) -> None:
        """If the player to move let their deadline pass, end the game on time before anything
        else happens to it (the sweep may not have come yet), and say so.

        :raises TimeUp: with the ended game.
        """
        if table.row.deadline is not None and table.row.deadline <= now:
            mover = table.game.to_move
            assert mover is not None  # a deadline runs only while a person is to move (Clock.next_turn)
            loser = table.row.names[mover]
            ended = await self.end(table, table.game.time_out, now)
            raise TimeUp(N_("Too late: {name}'s time had run out, so the game is over."), ended, name=loser)

    async def end(self, table: Table, ending: Callable[[], object], now: datetime) -> Table:
        """End ``table``'s game by ``ending`` (a :class:`Game` method: surrender, time out, draw).

        The player whose turn it was is charged the time they used (no increment: no move).
        """
        on_move = table.game.to_move
        ending()
        return await self.save(table, table.game, now, mover=on_move, actor=None, moved=False)

    async def save(
        self, table: Table, game: Game, now: datetime, *, mover: Player | None, actor: int | None, moved: bool = True
    ) -> Table:
        """Store ``game`` (the new state of ``table``): record, result, clocks, pings, draw offer."""
        text = record(game, str(table.row.player_a), str(table.row.player_b))
        outcome = game.outcome
        changes = {
            "record": text,
            "position": snapshot(game),
            "status": "finished" if outcome else "live",
            "result": outcome.result if outcome else None,
            "reason": outcome.termination.value if outcome else None,
            **(NO_OFFER if table.row.draw_by is not None else {}),
            **handover(table, game, mover, actor, now, moved),
        }
        saved, over = await self._write(table.row, {**changes, "now": now})
        return Table(saved.row, game, over, saved.rating_changes)

    async def note_shown(self) -> None:
        """Write every board's mark kept in memory (:mod:`.live`), in one write; on a failure,
        logged, they wait for the next time (the boards are drawn: at worst redrawn once more)."""
        marks = self.live.unwritten()
        try:
            await self.store.games.mark_shown(*marks)
        except StorageError as exc:
            log.warning("could not note which version %d boards show: %s", len(marks), exc)
            for row in marks:
                self.live.shown(row)

    async def update(self, row: GameRow, **changes: Any) -> GameRow:
        """Save ``changes`` of ``row`` (compare-and-set on its version and its last ping), with the
        bookkeeping that waits to be written (:mod:`.live`: its board's mark, a ping taken back);
        the game kept in memory follows. A :class:`StaleBoard` if the game changed meanwhile."""
        return (await self._write(row, changes))[0].row

    async def _write(self, row: GameRow, changes: dict) -> tuple[SavedGame, GameRow]:
        """:meth:`update`'s game saved, and the game it was saved over: ``row``, or the game read
        afresh if only its pings changed since ``row`` was read (a ping is recorded or taken back,
        with no lock held, without a change of the game's version): the same game, so the same
        ``changes`` are saved over it, once more, and whoever acts is not told it changed."""
        try:
            return await self._save_over(row, changes), row
        except Conflict:
            current = await self._read_again(row)
        if current is None or current.row.version != row.version:
            raise StaleBoard(CHANGED_MEANWHILE, current)
        try:
            return await self._save_over(current.row, changes), current.row
        except Conflict:
            raise StaleBoard(CHANGED_MEANWHILE, await self._read_again(row)) from None

    async def _save_over(self, row: GameRow, changes: dict) -> SavedGame:
        """Save ``changes`` of ``row`` with its bookkeeping (:class:`Conflict` if ``row`` is not the stored game)."""
        bookkeeping = self.live.written_with(row, changes)
        saved = await self.store.games.save_game(row, **bookkeeping, **changes)
        self.live.written(saved.row)
        self.live.keep(saved.row, saved.muted, written=True)
        return saved

    async def _read_again(self, row: GameRow) -> Table | None:
        """The game of ``row``, which a save found changed, read afresh (``None``: it is over)."""
        self.live.forget(row.id)
        return await self.table(row.channel_id, game_id=row.id)
