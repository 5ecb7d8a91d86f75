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
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from .engine import Game, IllegalMoveError, MoveRecord, Player, Rules
from .engine.notation import from_record, parse_rules_code, record, rules_code
from .storage import ChallengeRow, Conflict, GameRow, Store

FIRST_CHOICES = ("random", "me", "opponent")

CHANNEL_BUSY = "This channel already has a game in progress. Finish it, or play in another channel or a thread."
CHALLENGE_CLOSED = "This challenge is no longer open."
NO_GAME = "There is no game in this channel. Start one with `/wari challenge`."


class Refusal(Exception):
    """Something a user asked for that cannot be done; ``str()`` is the message to show them."""


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

    @classmethod
    def of(cls, row: GameRow) -> Table:
        return cls(row, from_record(row.record)[0])

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
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The lock that serialises every change to one channel's challenge and game."""
        return self._locks[channel_id]

    # -- challenges -------------------------------------------------------------------------

    async def challenge(
        self, *, guild_id: int, channel_id: int, challenger_id: int, opponent_id: int, rules: Rules, first: str, now: datetime
    ) -> ChallengeRow:
        if first not in FIRST_CHOICES:
            raise Refusal(f"`first` must be one of {', '.join(FIRST_CHOICES)}.")
        if challenger_id == opponent_id:
            raise Refusal("You can't challenge yourself. Pick another member of this server.")
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
                )
            except Conflict:
                raise Refusal("This channel got busy just now. Try again when it is free.") from None

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
            text = record(Game(parse_rules_code(challenge.variant), Player.A), str(a), str(b))
            try:
                row = await self.store.start_game(challenge, player_a=a, player_b=b, record=text, now=now)
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

    # -- games ------------------------------------------------------------------------------

    async def play_computer(
        self, *, guild_id: int, channel_id: int, human_id: int, computer_id: int, level: str, rules: Rules, first: str, now: datetime
    ) -> Table:
        """Start a game against the bot itself at once. ``first``: me (the human), opponent, random."""
        if first not in FIRST_CHOICES:
            raise Refusal(f"`first` must be one of {', '.join(FIRST_CHOICES)}.")
        if first == "random":
            first = self._rng.choice(("me", "opponent"))
        if first == "me":
            return await self._create(guild_id, channel_id, (human_id, computer_id), (None, level), rules, now)
        return await self._create(guild_id, channel_id, (computer_id, human_id), (level, None), rules, now)

    async def exhibition(
        self, *, guild_id: int, channel_id: int, computer_id: int, levels: tuple[str, str], rules: Rules, now: datetime, autoplay: bool = False
    ) -> Table:
        """Two computer levels play each other in the channel."""
        return await self._create(guild_id, channel_id, (computer_id, computer_id), levels, rules, now, autoplay)

    async def _create(
        self,
        guild_id: int,
        channel_id: int,
        players: tuple[int, int],
        levels: tuple[str | None, str | None],
        rules: Rules,
        now: datetime,
        autoplay: bool = False,
    ) -> Table:
        async with self.lock(channel_id):
            if await self.store.live_game(channel_id):
                raise Refusal(CHANNEL_BUSY)
            text = record(Game(rules, Player.A), *map(str, players))
            try:
                row = await self.store.create_game(
                    guild_id=guild_id, channel_id=channel_id, player_a=players[0], player_b=players[1],
                    variant=rules_code(rules), record=text, now=now, levels=levels, autoplay=autoplay,
                )
            except Conflict:
                raise Refusal("This channel has an open challenge. Wait until it is answered or expires.") from None
            return Table.of(row)

    async def table(self, channel_id: int) -> Table | None:
        """The live game of a channel, if any."""
        row = await self.store.live_game(channel_id)
        return Table.of(row) if row else None

    async def play(
        self, *, channel_id: int, game_id: int, ply: int, message_id: int, user_id: int, house: int, now: datetime
    ) -> tuple[Table, MoveRecord]:
        """A press on cup ``house`` of the board drawn after move ``ply`` in message ``message_id``."""
        async with self.lock(channel_id):
            table = await self._current(channel_id, game_id)
            player = table.player(user_id)
            if player is None:
                raise Refusal("You are not in this game. Start your own with `/wari challenge`.")
            if ply != table.game.ply or message_id != table.row.message_id:
                raise StaleBoard("This board is out of date.", table)
            if player != table.game.to_move:
                raise Refusal(f"It's <@{table.user_to_move}>'s turn.")
            return await self._apply(table, house, now)

    async def computer_move(self, *, channel_id: int, game_id: int, ply: int, house: int, now: datetime) -> tuple[Table, MoveRecord]:
        """The computer's move ``house``, found by a search of the position after move ``ply``."""
        async with self.lock(channel_id):
            table = await self._current(channel_id, game_id)
            if ply != table.game.ply or not table.computer_to_move:
                raise StaleBoard("The game moved on while the computer was thinking.", table)
            return await self._apply(table, house, now)

    async def _current(self, channel_id: int, game_id: int) -> Table:
        table = await self.table(channel_id)
        if table is None or table.row.id != game_id:
            raise StaleBoard("This game is over.", table)
        return table

    async def _apply(self, table: Table, house: int, now: datetime) -> tuple[Table, MoveRecord]:
        game = table.game
        try:
            move = game.play(house)
        except IllegalMoveError as exc:
            raise Refusal(f"You can't play house {house}: {exc}.") from None
        return await self._save(table, game, now), move

    async def surrender(self, channel_id: int, user_id: int, now: datetime) -> Table:
        async with self.lock(channel_id):
            table = await self.live_table(channel_id)
            player = table.player(user_id)
            if player is None:
                raise Refusal("You are not playing in this channel's game.")
            game = table.game
            game.surrender(player)
            return await self._save(table, game, now)

    async def abort(self, channel_id: int, now: datetime) -> Table:
        """End a stuck game with no winner (moderators only: the cog checks permissions)."""
        async with self.lock(channel_id):
            table = await self.live_table(channel_id)
            row = await self._update(table.row, now=now, status="aborted", reason="aborted")
            return Table(row, table.game)

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

    async def _save(self, table: Table, game: Game, now: datetime) -> Table:
        text = record(game, str(table.row.player_a), str(table.row.player_b))
        outcome = game.outcome
        status = "finished" if outcome else "live"
        result = outcome.result if outcome else None
        reason = outcome.termination.value if outcome else None
        row = await self._update(table.row, now=now, record=text, status=status, result=result, reason=reason)
        return Table(row, game)

    async def _update(self, row: GameRow, **changes) -> GameRow:
        try:
            return await self.store.update_game(row, **changes)
        except Conflict:
            raise StaleBoard("The game changed meanwhile: use the latest board message.", await self.table(row.channel_id)) from None
