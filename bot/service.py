"""What may happen to challenges and games, and in what order: the bot's game logic.

This layer knows users only by id and never touches Discord, so the cog stays a thin
translation between interactions and these calls. Every refusal is a :class:`Refusal` whose
message can be shown to the user as it is.

Moves in one channel are serialised by a per-channel lock, and every write also checks the
stored version (:meth:`bot.storage.Store.update_game`), so two presses at once never play two
moves, even across processes sharing the database.
"""

from __future__ import annotations

import asyncio
import random
import weakref
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from .clock import DEFAULT_CLOCK, Clock, ClockState
from .engine import Game, IllegalMoveError, MoveRecord, Player, Rules
from .engine.notation import from_record, parse_rules_code, record, rules_code
from .storage import ChallengeRow, Conflict, GameRow, Store

FIRST_CHOICES = ("random", "me", "opponent")
#: The bot notes it is alive this often (from its sweep); silent for longer than :data:`OUTAGE`,
#: it was down, and the clocks are paused for as long (once).
HEARTBEAT = timedelta(seconds=60)
OUTAGE = timedelta(minutes=3)

CHANNEL_BUSY = (
    "This channel already has a game in progress. Start yours beside it in a thread of its own "
    "with `thread: True`, or play in another channel."
)
CHALLENGE_CLOSED = "This challenge is no longer open."
NO_GAME = "There is no game in this channel. Start one with `/wari challenge`."


class Refusal(Exception):
    """Something a user asked for that cannot be done; ``str()`` is the message to show them."""


class TimeUp(Refusal):
    """The player pressed after their time ran out: the game was ended on time instead."""

    def __init__(self, message: str, table: Table) -> None:
        super().__init__(message)
        self.table = table


class StaleBoard(Refusal):
    """A button from an older board. ``table`` is the game as it is now (``None`` if gone)."""

    def __init__(self, message: str, table: Table | None) -> None:
        super().__init__(message)
        self.table = table


@dataclass(frozen=True)
class Table:
    """A stored game together with its replayed engine :class:`Game`."""

    row: GameRow
    game: Game
    #: The stored game before the change that produced this one (``None`` if just read).
    previous: GameRow | None = field(default=None, compare=False)

    @classmethod
    def of(cls, row: GameRow) -> Table:
        return cls(row, from_record(row.record)[0])

    @property
    def clock(self) -> Clock | None:
        return Clock.parse(self.row.clock) if self.row.clock else None

    @property
    def clock_state(self) -> ClockState:
        banks = (self.row.time_a, self.row.time_b) if self.row.time_a is not None else None
        return ClockState(self.row.deadline, banks)

    @property
    def just_ended(self) -> bool:
        """This change ended the game (it was live before)."""
        return self.previous is not None and self.previous.live and not self.row.live

    @property
    def lapsed_offer(self) -> int | None:
        """The message of a draw offer that this change closed without an answer, if any."""
        previous = self.previous
        if previous is None or not previous.draw_open or self.row.draw_open:
            return None
        return previous.draw_message_id

    def user(self, player: Player) -> int:
        return self.row.players[player]

    def player(self, user_id: int) -> Player | None:
        """The side ``user_id`` plays; a person is never the player of a computer side."""
        if self.exhibition:
            return None
        if user_id == self.row.player_a:
            return Player.A
        return Player.B if user_id == self.row.player_b else None

    @property
    def user_to_move(self) -> int | None:
        mover = self.game.to_move
        return None if mover is None else self.user(mover)

    def level(self, player: Player) -> str | None:
        """The computer level playing ``player``'s side, or ``None`` for a person."""
        return (self.row.level_a, self.row.level_b)[player]

    @property
    def computer_to_move(self) -> bool:
        mover = self.game.to_move
        return self.row.live and mover is not None and self.level(mover) is not None

    @property
    def exhibition(self) -> bool:
        """The computer plays both sides."""
        return self.row.level_a is not None and self.row.level_b is not None

    @property
    def paced_by_button(self) -> bool:
        """An exhibition that moves once per "Next move" press (not on its own)."""
        return self.exhibition and not self.row.autoplay


class WariService:
    """Challenges and games, stored in a :class:`Store`."""

    def __init__(self, store: Store, *, challenge_timeout: int = 600, rng: random.Random | None = None) -> None:
        self.store = store
        self.challenge_timeout = timedelta(seconds=challenge_timeout)
        self._rng = rng or random.Random()
        # Weak values: a channel's lock lives while someone holds or awaits it, and no longer.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The lock that serialises every change to one channel's challenge and game."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    # -- challenges -------------------------------------------------------------------------

    async def challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int,
        rules: Rules,
        first: str,
        now: datetime,
        clock: str = DEFAULT_CLOCK,
        thread: bool = False,
        rematch_of: int | None = None,
    ) -> ChallengeRow:
        self.check_challenge(challenger_id, opponent_id, first, clock)
        async with self.lock(channel_id):
            if await self.store.live_game(channel_id):
                raise Refusal(CHANNEL_BUSY)
            if await self.store.challenge_in(channel_id):
                raise Refusal("This channel already has an open challenge. Wait until it is answered or expires.")
            try:
                return await self.store.add_challenge(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    challenger_id=challenger_id,
                    opponent_id=opponent_id,
                    variant=rules_code(rules),
                    first=first,
                    created_at=now,
                    expires_at=now + self.challenge_timeout,
                    clock=clock,
                    thread=thread,
                    rematch_of=rematch_of,
                )
            except Conflict:
                raise Refusal("This channel got busy just now. Try again when it is free.") from None

    @staticmethod
    def check_challenge(challenger_id: int, opponent_id: int, first: str, clock: str) -> None:
        """Refuse a challenge that can never be made, whatever the channel holds."""
        _check_first(first)
        _clock(clock)  # a stored clock code is always one the bot knows
        if challenger_id == opponent_id:
            raise Refusal("You can't challenge yourself. Pick another member of this server.")

    async def set_challenge_message(self, challenge: ChallengeRow, message_id: int) -> None:
        await self.store.set_challenge_message(challenge.id, message_id)

    async def _open_challenge(self, challenge_id: int, channel_id: int, now: datetime) -> ChallengeRow:
        challenge = await self.store.get_challenge(challenge_id)
        if challenge is None or challenge.channel_id != channel_id or challenge.expires_at <= now:
            raise Refusal(CHALLENGE_CLOSED)
        return challenge

    async def accept(self, challenge_id: int, user_id: int, channel_id: int, now: datetime) -> Table:
        """The challenged member accepts: the game starts, its first player settled."""
        async with self.lock(channel_id):
            challenge = await self._open_challenge(challenge_id, channel_id, now)
            if user_id != challenge.opponent_id:
                raise Refusal(self._not_yours(challenge, user_id))
            a, b = challenge.challenger_id, challenge.opponent_id
            first = challenge.first if challenge.first != "random" else self._rng.choice(("me", "opponent"))
            if first == "opponent":
                a, b = b, a  # A always moves first in this bot: the starting member is player A
            game = Game(parse_rules_code(challenge.variant), Player.A)
            opening = _opening(Clock.parse(challenge.clock), game, (a, b), (None, None), user_id, now)
            try:
                row = await self.store.start_game(challenge, player_a=a, player_b=b, record=record(game, str(a), str(b)), now=now, **opening)
            except Conflict:
                raise Refusal(CHALLENGE_CLOSED) from None
            return Table.of(row)

    async def decline(self, challenge_id: int, user_id: int, channel_id: int, now: datetime) -> ChallengeRow:
        return await self._close_challenge(challenge_id, user_id, channel_id, now, by="opponent")

    async def withdraw(self, challenge_id: int, user_id: int, channel_id: int, now: datetime) -> ChallengeRow:
        return await self._close_challenge(challenge_id, user_id, channel_id, now, by="challenger")

    async def _close_challenge(self, challenge_id: int, user_id: int, channel_id: int, now: datetime, by: str) -> ChallengeRow:
        async with self.lock(channel_id):
            challenge = await self._open_challenge(challenge_id, channel_id, now)
            if user_id != getattr(challenge, f"{by}_id"):
                raise Refusal(self._not_yours(challenge, user_id))
            if not await self.store.delete_challenge(challenge.id):
                raise Refusal(CHALLENGE_CLOSED)
            return challenge

    @staticmethod
    def _not_yours(challenge: ChallengeRow, user_id: int) -> str:
        if user_id == challenge.challenger_id:
            return f"Only <@{challenge.opponent_id}> can accept or decline. You can withdraw your challenge."
        if user_id == challenge.opponent_id:
            return "Only the challenger can withdraw. You can accept or decline."
        return f"This challenge is between <@{challenge.challenger_id}> and <@{challenge.opponent_id}>."

    async def expire_due(self, now: datetime) -> list[ChallengeRow]:
        """Remove every challenge past its time and return them (to update their messages)."""
        expired = []
        for challenge in await self.store.due_challenges(now):
            async with self.lock(challenge.channel_id):
                if await self.store.delete_challenge(challenge.id):
                    expired.append(challenge)
        return expired

    # -- starting games ---------------------------------------------------------------------

    async def play_computer(
        self,
        *,
        guild_id: int,
        channel_id: int,
        human_id: int,
        computer_id: int,
        level: str,
        rules: Rules,
        first: str,
        now: datetime,
        clock: str = DEFAULT_CLOCK,
        thread: bool = False,
    ) -> Table:
        """Start a game against the bot itself at once. ``first``: me (the human), opponent, random."""
        _check_first(first)
        if first == "random":
            first = self._rng.choice(("me", "opponent"))
        if first == "me":
            players, levels = (human_id, computer_id), (None, level)
        else:
            players, levels = (computer_id, human_id), (level, None)
        return await self._create(guild_id, channel_id, players, levels, rules, now, actor=human_id, clock=clock, thread=thread)

    async def exhibition(
        self, *, guild_id: int, channel_id: int, computer_id: int, levels: tuple[str, str], rules: Rules, now: datetime, autoplay: bool = False
    ) -> Table:
        """Two computer levels play each other in the channel (no clock: nobody waits on a person)."""
        return await self._create(guild_id, channel_id, (computer_id, computer_id), levels, rules, now, actor=None, autoplay=autoplay)

    async def _create(
        self,
        guild_id: int,
        channel_id: int,
        players: tuple[int, int],
        levels: tuple[str | None, str | None],
        rules: Rules,
        now: datetime,
        *,
        actor: int | None,
        clock: str | None = None,
        thread: bool = False,
        autoplay: bool = False,
    ) -> Table:
        async with self.lock(channel_id):
            if await self.store.live_game(channel_id):
                raise Refusal(CHANNEL_BUSY)
            game = Game(rules, Player.A)
            opening = _opening(_clock(clock) if clock else None, game, players, levels, actor, now)
            try:
                row = await self.store.create_game(
                    guild_id=guild_id, channel_id=channel_id, player_a=players[0], player_b=players[1],
                    variant=rules_code(rules), record=record(game, *map(str, players)), now=now,
                    level_a=levels[0], level_b=levels[1], autoplay=int(autoplay), clock=clock, thread=int(thread), **opening,
                )
            except Conflict:
                raise Refusal("This channel has an open challenge. Wait until it is answered or expires.") from None
            return Table.of(row)

    async def rematch_of(self, game_id: int, user_id: int) -> Table:
        """The finished game ``user_id`` asks to play again (they must have played in it)."""
        row = await self.store.get_game(game_id)
        if row is None or row.status != "finished":
            raise Refusal("Only a finished game can be played again.")
        table = Table.of(row)
        if table.player(user_id) is None or table.level(table.player(user_id)) is not None:
            raise Refusal("Only the players of this game can ask for a rematch. Start your own with `/wari challenge`.")
        return table

    # -- playing ----------------------------------------------------------------------------

    async def table(self, channel_id: int) -> Table | None:
        """The live game of a channel, if any."""
        row = await self.store.live_game(channel_id)
        return Table.of(row) if row else None

    async def play(
        self, *, channel_id: int, game_id: int, ply: int, message_id: int, user_id: int, house: int, now: datetime
    ) -> tuple[Table, MoveRecord]:
        """A press on cup ``house`` of the board drawn after move ``ply`` in message ``message_id``.

        :raises TimeUp: the presser's time had run out: the game ended on time instead.
        """
        async with self.lock(channel_id):
            table = await self._current(channel_id, game_id)
            player = table.player(user_id)
            if player is None:
                raise Refusal("You are not in this game. Start your own with `/wari challenge`.")
            if ply != table.game.ply or message_id != table.row.message_id:
                raise StaleBoard("This board is out of date.", table)
            if player != table.game.to_move:
                raise Refusal(f"It's <@{table.user_to_move}>'s turn.")
            await self._check_flag(table, now)
            return await self._apply(table, house, now, actor=user_id)

    async def _check_flag(self, table: Table, now: datetime) -> None:
        """If the player to move let their deadline pass, end the game on time before anything
        else happens to it (the sweep may not have come yet), and say so.

        :raises TimeUp: with the ended game.
        """
        if table.row.deadline is not None and table.row.deadline <= now:
            loser = table.user_to_move
            ended = await self._end(table, table.game.time_out, now)
            raise TimeUp(f"Too late: <@{loser}>'s time had run out, so the game is over.", ended)

    async def computer_move(self, *, channel_id: int, game_id: int, ply: int, house: int, now: datetime) -> tuple[Table, MoveRecord]:
        """The computer's move ``house``, found by a search of the position after move ``ply``."""
        async with self.lock(channel_id):
            table = await self._current(channel_id, game_id)
            if ply != table.game.ply or not table.computer_to_move:
                raise StaleBoard("The game moved on while the computer was thinking.", table)
            return await self._apply(table, house, now, actor=None)

    async def _current(self, channel_id: int, game_id: int) -> Table:
        table = await self.table(channel_id)
        if table is None or table.row.id != game_id:
            raise StaleBoard("This game is over.", table)
        return table

    async def _apply(self, table: Table, house: int, now: datetime, *, actor: int | None) -> tuple[Table, MoveRecord]:
        game = table.game
        mover = game.to_move
        try:
            move = game.play(house)
        except IllegalMoveError as exc:
            raise Refusal(f"You can't play house {house}: {exc}.") from None
        return await self._save(table, game, now, mover=mover, actor=actor), move

    async def surrender(self, channel_id: int, user_id: int, now: datetime) -> Table:
        async with self.lock(channel_id):
            table, player = await self._seat(channel_id, user_id, now)
            return await self._end(table, lambda: table.game.surrender(player), now)

    async def _seat(self, channel_id: int, user_id: int, now: datetime) -> tuple[Table, Player]:
        """The channel's live game and the side ``user_id`` plays in it; a :class:`Refusal` if none,
        :class:`TimeUp` if the player to move had run out of time."""
        table = await self.live_table(channel_id)
        player = table.player(user_id)
        if player is None:
            raise Refusal("You are not playing in this channel's game.")
        await self._check_flag(table, now)
        return table, player

    async def time_out(self, game: GameRow, now: datetime) -> Table | None:
        """End ``game`` on time if its player to move is still past the deadline (else ``None``)."""
        async with self.lock(game.channel_id):
            table = await self.table(game.channel_id)
            if table is None or table.row.id != game.id or table.row.deadline is None or table.row.deadline > now:
                return None  # moved, ended or given more time meanwhile
            return await self._end(table, table.game.time_out, now)

    async def _end(self, table: Table, ending, now: datetime) -> Table:
        """End ``table``'s game by ``ending`` (a :class:`Game` method: surrender, time out, draw).

        The player whose turn it was is charged the time they used (no increment: no move).
        """
        on_move = table.game.to_move
        ending()
        return await self._save(table, table.game, now, mover=on_move, actor=None, moved=False)

    async def abort(self, channel_id: int, now: datetime) -> Table:
        """End a stuck game with no winner (moderators only: the cog checks permissions)."""
        async with self.lock(channel_id):
            table = await self.live_table(channel_id)
            row = await self._update(table.row, now=now, status="aborted", reason="aborted", **_STILL, **_NO_OFFER)
            return Table(row, table.game, table.row)

    async def moved_board(self, table: Table, message_id: int, now: datetime) -> Table:
        """Record that the board now lives in ``message_id``; older messages become stale.

        Returns the game as it is now, which may be ahead of ``table`` (the computer may have
        moved while the message was being posted): the caller redraws if so.
        """
        async with self.lock(table.row.channel_id):
            current = await self._current(table.row.channel_id, table.row.id)
            row = await self._update(current.row, now=now, message_id=message_id)
            return Table(row, current.game)

    async def live_table(self, channel_id: int) -> Table:
        """The live game of a channel; a :class:`Refusal` if there is none."""
        table = await self.table(channel_id)
        if table is None:
            raise Refusal(NO_GAME)
        return table

    # -- draw offers ------------------------------------------------------------------------

    async def offer_draw(self, channel_id: int, user_id: int, now: datetime) -> Table:
        """``user_id`` offers a draw to their opponent; it stands until answered or the next move."""
        async with self.lock(channel_id):
            table, player = await self._seat(channel_id, user_id, now)
            row = table.row
            if row.draw_open:
                raise Refusal("A draw offer is already waiting for an answer.")
            if row.draw_by == player.name and row.draw_ply == table.game.ply:
                raise Refusal("Your opponent declined your draw offer. You can offer again after the next move.")
            row = await self._update(row, now=now, draw_by=player.name, draw_ply=table.game.ply, draw_open=1, draw_message_id=None)
            return Table(row, table.game, table.row)

    async def set_draw_message(self, table: Table, message_id: int, now: datetime) -> None:
        """Remember the offer's message (to close it when the offer lapses); skipped if it already did."""
        async with self.lock(table.row.channel_id):
            current = await self.table(table.row.channel_id)
            if current is not None and current.row.id == table.row.id and current.row.draw_open and current.row.draw_ply == table.game.ply:
                await self._update(current.row, now=now, draw_message_id=message_id)

    async def answer_draw(self, *, channel_id: int, game_id: int, ply: int, user_id: int, accept: bool, now: datetime) -> Table:
        """The opponent accepts (the game ends drawn by agreement) or declines the offer made at ``ply``."""
        async with self.lock(channel_id):
            table = await self.table(channel_id)
            row = table.row if table else None
            if row is None or row.id != game_id or not row.draw_open or row.draw_ply != ply or table.game.ply != ply:
                raise Refusal("This draw offer is no longer open.")
            offerer = Player[row.draw_by]
            if table.player(user_id) is not offerer.other:
                if table.player(user_id) is offerer:
                    raise Refusal("You made this offer: your opponent answers it.")
                raise Refusal("Only the player this offer was made to can answer it.")
            await self._check_flag(table, now)
            if accept:
                return await self._end(table, table.game.agree_draw, now)
            row = await self._update(row, now=now, draw_open=0)
            return Table(row, table.game, table.row)

    async def cancel_draw(self, table: Table, now: datetime) -> None:
        """Take back the offer ``table`` made (its message could not be posted, or no answer came)."""
        async with self.lock(table.row.channel_id):
            current = await self.table(table.row.channel_id)
            if current is not None and current.row.id == table.row.id and current.row.draw_open and current.row.draw_ply == table.game.ply:
                await self._update(current.row, now=now, **_NO_OFFER)

    # -- clocks -----------------------------------------------------------------------------

    async def credit_downtime(self, now: datetime) -> tuple[timedelta, list[Table]]:
        """Note that the bot is alive; after an outage, pause the running clocks for its length."""
        gap, rows = await self.store.credit_downtime(now, longer_than=OUTAGE, note_every=HEARTBEAT)
        return gap, [Table.of(row) for row in rows]

    # -- saving -----------------------------------------------------------------------------

    async def _save(
        self, table: Table, game: Game, now: datetime, *, mover: Player | None, actor: int | None, moved: bool = True
    ) -> Table:
        """Store ``game`` (the new state of ``table``): record, result, clocks, pings, draw offer."""
        text = record(game, str(table.row.player_a), str(table.row.player_b))
        outcome = game.outcome
        changes = {
            "record": text,
            "status": "finished" if outcome else "live",
            "result": outcome.result if outcome else None,
            "reason": outcome.termination.value if outcome else None,
            **(_NO_OFFER if table.row.draw_by is not None else {}),
            **_handover(table, game, mover, actor, now, moved),
        }
        row = await self._update(table.row, now=now, **changes)
        return Table(row, game, table.row)

    async def _update(self, row: GameRow, **changes) -> GameRow:
        try:
            return await self.store.update_game(row, **changes)
        except Conflict:
            raise StaleBoard("The game changed meanwhile: use the latest board message.", await self.table(row.channel_id)) from None


#: Columns that stop every clock and ping of a game, and that close its draw offer.
_STILL = {"deadline": None, "ping_at": None, "ping_kind": None}
_NO_OFFER = {"draw_by": None, "draw_ply": None, "draw_open": 0}


def _check_first(first: str) -> None:
    if first not in FIRST_CHOICES:
        raise Refusal(f"`first` must be one of {', '.join(FIRST_CHOICES)}.")


def _clock(code: str) -> Clock:
    try:
        return Clock.parse(code)
    except ValueError as exc:
        raise Refusal(f"Sorry, {exc}.") from None


def _person_to_move(game: Game, levels: tuple[str | None, str | None]) -> Player | None:
    """The side to move if a person plays it (``None``: the computer's turn, or the game is over)."""
    mover = game.to_move
    return mover if mover is not None and game.outcome is None and levels[mover] is None else None


def _pings_and_clock(
    clock: Clock | None,
    state: ClockState,
    game: Game,
    users: tuple[int, int],
    levels: tuple[str | None, str | None],
    *,
    mover: Player | None,
    actor: int | None,
    now: datetime,
    moved: bool = True,
) -> dict:
    """The clock and ping columns once ``game`` is reached and ``mover`` (``None``: nobody) has moved.

    The person now to move gets a new deadline and a turn ping, unless they caused this change
    themselves (their own press, Accept or rematch: they are looking at the board). A per-move
    clock's reminder is due when a quarter of the time is left.
    """
    person = _person_to_move(game, levels)
    changes: dict = {}
    deadline = None
    if clock is not None:
        after = clock.next_turn(state, mover=mover, next_mover=person, now=now, moved=moved)
        deadline = after.deadline
        changes["deadline"] = deadline
        if after.banks is not None:
            changes["time_a"], changes["time_b"] = after.banks
    if person is None:
        return {**changes, **_STILL}
    if users[person] != actor and person != mover:
        return {**changes, "ping_at": now, "ping_kind": "turn"}
    if deadline is not None and clock.reminder_before is not None:
        return {**changes, "ping_at": deadline - clock.reminder_before, "ping_kind": "reminder"}
    return {**changes, "ping_at": None, "ping_kind": None}


def _opening(clock: Clock | None, game: Game, users: tuple[int, int], levels, actor: int | None, now: datetime) -> dict:
    """The clock and ping columns of a game about to start."""
    state = clock.start() if clock else ClockState(None)
    return _pings_and_clock(clock, state, game, users, levels, mover=None, actor=actor, now=now)


def _handover(table: Table, game: Game, mover: Player | None, actor: int | None, now: datetime, moved: bool) -> dict:
    """The clock and ping columns after ``mover`` moved in ``table`` (reaching ``game``)."""
    if table.exhibition:
        return {}
    levels = (table.row.level_a, table.row.level_b)
    return _pings_and_clock(
        table.clock, table.clock_state, game, table.row.players, levels, mover=mover, actor=actor, now=now, moved=moved
    )
