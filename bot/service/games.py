"""Playing: moves, the computer's moves, surrender, time-outs, aborts, draw offers and clocks."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.engine import IllegalMoveError, MoveRecord, Player
from bot.engine.notation import from_record
from bot.i18n import N_
from bot.storage import GameRow

from .base import HEARTBEAT, OUTAGE, Tables
from .table import EARLY_ABORT, ILLEGAL_MOVE, MODERATOR_ABORT, Closed, Refusal, StaleBoard, Table
from .turns import NO_OFFER, STILL


class GameService:
    """Changes to live games."""

    def __init__(self, tables: Tables) -> None:
        #: The channels' locks and games, shared with the other parts of the game service.
        self._tables = tables
        self._store = tables.store

    async def play(
        self,
        *,
        channel_id: int,
        game_id: int,
        ply: int,
        message_id: int | None,
        user_id: int,
        house: int,
        now: datetime,
    ) -> tuple[Table, MoveRecord]:
        """A press on cup ``house`` of the board drawn after move ``ply`` in message ``message_id``.
        :raises TimeUp: the presser's time had run out: the game ended on time instead."""

        async def press(table: Table) -> tuple[Table, MoveRecord]:
            player = table.player(user_id)
            if player is None:
                raise Refusal(N_("You are not in this game. Start your own with `/wari challenge`."))
            if ply != table.game.ply or message_id != table.row.message_id:
                raise StaleBoard(N_("This board is out of date."), table)
            await self._tables.check_flag(table, now)  # a waiting player's press applies it too
            mover = table.game.to_move
            assert mover is not None  # a live game (see _current) is not over: someone is to move
            if player != mover:
                raise Refusal(N_("It's {name}'s turn."), name=table.row.names[mover])
            return await self._apply(table, house, now, actor=user_id)

        async with self._tables.lock(channel_id):
            return await self._tables.acting_on(channel_id, game_id, press)

    async def computer_move(
        self, *, channel_id: int, game_id: int, ply: int, house: int, now: datetime
    ) -> tuple[Table, MoveRecord]:
        """The computer's move ``house``, found by a search of the position after move ``ply``."""

        async def move(table: Table) -> tuple[Table, MoveRecord]:
            if ply != table.game.ply or not table.computer_to_move:
                raise StaleBoard(N_("The game moved on while the computer was thinking."), table)
            return await self._apply(table, house, now, actor=None)

        async with self._tables.lock(channel_id):
            return await self._tables.acting_on(channel_id, game_id, move)

    async def _apply(self, table: Table, house: int, now: datetime, *, actor: int | None) -> tuple[Table, MoveRecord]:
        game = table.game
        mover = game.to_move
        try:
            move = game.play(house)
        except IllegalMoveError as exc:
            raise Refusal(ILLEGAL_MOVE, house=house, reason=exc) from None
        saved = await self._tables.save(table, game, now, mover=mover, actor=actor)
        self._tables.live.played(saved)  # the next press plays on from it, without reading its record
        return saved, move

    async def seat(self, channel_id: int, user_id: int, now: datetime) -> tuple[Table, Player]:
        """The channel's live game and the side ``user_id`` plays in it; a :class:`Refusal` if none
        (a game found past its deadline is ended on time first: :class:`TimeUp`)."""
        async with self._tables.lock(channel_id):
            return await self._tables.seated(channel_id, user_id, now)

    async def surrender(self, channel_id: int, user_id: int, now: datetime, *, game_id: int | None = None) -> Table:
        """``user_id`` gives up the channel's game (only game ``game_id``, if given: a confirmation
        pressed after that game ended is :class:`Closed`)."""
        async with self._tables.lock(channel_id):
            if game_id is not None and await self._tables.table(channel_id, game_id=game_id) is None:
                raise Closed(N_("Game #{number} is already over."), number=game_id)
            table, player = await self._tables.seated(channel_id, user_id, now)
            return await self._tables.end(table, lambda: table.game.surrender(player), now)

    async def take_back(self, channel_id: int, user_id: int, now: datetime) -> tuple[Table, list[MoveRecord]]:
        """``user_id`` takes back their last move: the moves taken back (latest first), or none
        when the opponent is a person, who must agree first (:meth:`grant_takeback`; the game
        must be unrated). Against the computer it is granted at once: such games are practice."""
        async with self._tables.lock(channel_id):
            table, player = await self._tables.seated(channel_id, user_id, now)
            if table.level(player.other) is None and table.row.rated:
                raise Refusal(
                    N_(
                        "In a rated game a move played stands. Takebacks are for games against me and "
                        "unrated games (`/wari challenge rated: False`)."
                    )
                )
            if player not in table.sides_moved:
                raise Refusal(N_("You have no move to take back yet."))
            if table.level(player.other) is None:
                return table, []
            return await self._undo(table, player, now, actor=user_id)

    async def grant_takeback(
        self, *, channel_id: int, game_id: int, ply: int, side: Player, user_id: int, now: datetime
    ) -> tuple[Table, list[MoveRecord]]:
        """The opponent of ``side`` agrees to the takeback asked after move ``ply``."""
        async with self._tables.lock(channel_id):
            table = await self.check_takeback_answer(
                channel_id=channel_id, game_id=game_id, ply=ply, side=side, user_id=user_id
            )
            await self._tables.check_flag(table, now)
            return await self._undo(table, side, now, actor=user_id)

    async def check_takeback_answer(
        self, *, channel_id: int, game_id: int, ply: int, side: Player, user_id: int
    ) -> Table:
        """The game a takeback request of ``side`` after move ``ply`` stands in, if ``user_id``
        may answer it (:class:`Closed` once a move was played, or the game ended)."""
        table = await self._tables.table(channel_id, game_id=game_id)
        if table is None or table.game.ply != ply:
            raise Closed(N_("This takeback request lapsed: the game moved on."))
        if table.player(user_id) is not side.other:
            raise Refusal(N_("Only the opponent of who asked can answer a takeback request."))
        return table

    async def _undo(self, table: Table, player: Player, now: datetime, *, actor: int) -> tuple[Table, list[MoveRecord]]:
        """Take back ``player``'s last move and every move after it."""
        game = from_record(table.row.record)[0]  # the whole game, to undo (a snapshot cannot)
        undone = [game.undo()]
        while undone[-1].player is not player or not undone[-1].sows:
            undone.append(game.undo())
        return await self._tables.save(table, game, now, mover=None, actor=actor, moved=False), undone

    async def abort_early(self, channel_id: int, user_id: int, now: datetime) -> Table:
        """A player calls off the channel's game before both sides have moved: no winner, unrated."""
        async with self._tables.lock(channel_id):
            table, _player = await self._tables.seated(channel_id, user_id, now)
            if table.row.tournament_id is not None:
                raise Refusal(
                    N_(
                        "A tournament game cannot be called off: play it, or give it up with `/wari surrender`. "
                        "A moderator can set its result with `/wari-mod tournament result`."
                    )
                )
            if not table.abortable:
                raise Refusal(
                    N_(
                        "Both sides have moved, so game #{number} can no longer be aborted: "
                        "`/wari surrender` gives it up, `/wari draw` offers a draw."
                    ),
                    number=table.row.id,
                )
            return await self._abort(table, now, reason=EARLY_ABORT)

    async def time_out(self, game: GameRow, now: datetime) -> Table | None:
        """End ``game`` on time if its player to move is still past the deadline (else ``None``)."""
        async with self._tables.lock(game.channel_id):
            table = await self._tables.table(game.channel_id, game_id=game.id)
            if table is None or table.row.deadline is None or table.row.deadline > now:
                return None  # moved, ended or given more time meanwhile
            return await self._tables.end(table, table.game.time_out, now)

    async def abort(self, channel_id: int, now: datetime, *, game_id: int | None = None) -> Table:
        """End a stuck game with no winner (moderators only: the cog checks permissions): the
        channel's, or game ``game_id`` of it (a tournament's thread holds several)."""
        async with self._tables.lock(channel_id):
            if game_id is not None:
                table = await self._tables.table(channel_id, game_id=game_id)
                if table is None:
                    raise Closed(N_("Game #{number} is already over."), number=game_id)
                return await self._abort(table, now, reason=MODERATOR_ABORT)
            if len(await self._tables.live_tables(channel_id)) > 1:  # a tournament's thread: which one is not said
                raise Refusal(
                    N_(
                        "This thread holds several tournament games. "
                        "Set the result of one with `/wari-mod tournament result`."
                    )
                )
            return await self._abort(await self._tables.live_table(channel_id), now, reason=MODERATOR_ABORT)

    async def _abort(self, table: Table, now: datetime, *, reason: str) -> Table:
        row = await self._tables.update(table.row, now=now, status="aborted", reason=reason, **STILL, **NO_OFFER)
        return Table(row, table.game, table.row)

    async def moved_board(self, table: Table, message_id: int, now: datetime) -> Table:
        """Record that the board now lives in ``message_id``; older messages become stale.

        Returns the game as it is now, which may be ahead of ``table`` (the computer may have
        moved while the message was being posted): the caller redraws if so.
        """
        async with self._tables.lock(table.row.channel_id):
            current = await self._tables.table(table.row.channel_id, game_id=table.row.id)
            if current is not None:
                row = await self._tables.update(current.row, now=now, message_id=message_id)
            else:  # it ended: its final board moves
                current = await self._tables.game(table.row.id)
                row = await self._store.games.move_final_board(current.row, message_id)
            if current.row.version != table.row.version:  # changed meanwhile: that change follows up itself
                return Table(row, current.game)
            return Table(row, current.game, table.previous, table.ratings)

    async def offer_draw(self, channel_id: int, user_id: int, now: datetime) -> Table:
        """``user_id`` offers a draw to their opponent; it stands until answered or the next move."""
        async with self._tables.lock(channel_id):
            table, player = await self._tables.seated(channel_id, user_id, now)
            row = table.row
            if row.draw_open:
                raise Refusal(N_("A draw offer is already waiting for an answer."))
            if row.draw_by == player.name and row.draw_ply == table.game.ply:
                raise Refusal(N_("Your opponent declined your draw offer. You can offer again after the next move."))
            row = await self._tables.update(
                row, now=now, draw_by=player.name, draw_ply=table.game.ply, draw_open=1, draw_message_id=None
            )
            return Table(row, table.game, table.row)

    async def set_draw_message(self, table: Table, message_id: int, now: datetime) -> None:
        """Remember the offer's message (to close it when the offer lapses); skipped if it already did."""
        async with self._tables.lock(table.row.channel_id):
            current = await self._tables.table(table.row.channel_id, game_id=table.row.id)
            if current is not None and current.row.draw_open and current.row.draw_ply == table.game.ply:
                await self._tables.update(current.row, now=now, draw_message_id=message_id)

    async def answer_draw(
        self, *, channel_id: int, game_id: int, ply: int, user_id: int, accept: bool, now: datetime
    ) -> Table:
        """The opponent accepts (the game ends drawn by agreement) or declines the offer made at ``ply``."""
        async with self._tables.lock(channel_id):
            table = await self._tables.table(channel_id, game_id=game_id)
            if table is None or not table.row.draw_open or table.row.draw_ply != ply or table.game.ply != ply:
                raise Closed(N_("This draw offer is no longer open."))
            row = table.row
            assert row.draw_by is not None  # an open offer is stored with who made it
            offerer = Player[row.draw_by]
            if table.player(user_id) is not offerer.other:
                if table.player(user_id) is offerer:
                    raise Refusal(N_("You made this offer: your opponent answers it."))
                raise Refusal(N_("Only the player this offer was made to can answer it."))
            await self._tables.check_flag(table, now)
            if accept:
                return await self._tables.end(table, table.game.agree_draw, now)
            row = await self._tables.update(row, now=now, draw_open=0)
            return Table(row, table.game, table.row)

    async def cancel_draw(self, table: Table, now: datetime) -> None:
        """Take back the offer ``table`` made (its message could not be posted, or no answer came)."""
        async with self._tables.lock(table.row.channel_id):
            current = await self._tables.table(table.row.channel_id, game_id=table.row.id)
            if current is not None and current.row.draw_open and current.row.draw_ply == table.game.ply:
                await self._tables.update(current.row, now=now, **NO_OFFER)

    async def shown(self, table: Table) -> None:
        """Note that ``table``'s board message now shows it, in memory: written with the game's next
        change or by :meth:`note_shown` (a mark a crash loses redraws that board once at start-up)."""
        self._tables.live.shown(table.row)

    async def note_shown(self) -> None:
        """Write every mark :meth:`shown` kept, in one write (:meth:`.base.Tables.note_shown`)."""
        await self._tables.note_shown()

    async def boards_behind(self) -> list[Table]:
        """The live games whose board may show an older state than the stored one, oldest first
        (the marks kept in memory written first: those boards are not behind)."""
        await self.note_shown()
        return [Table.of(row) for row in await self._store.games.boards_behind()]

    async def credit_downtime(self, now: datetime) -> tuple[timedelta, list[Table]]:
        """Note that the bot is alive; after an outage, pause the running clocks for its length."""
        gap, rows = await self._store.clocks.credit_downtime(now, longer_than=OUTAGE, note_every=HEARTBEAT)
        for row in rows:  # their deadlines moved: a new version of each
            self._tables.live.keep(row)
        return gap, [Table.of(row) for row in rows]
