"""What the service hands back and refuses with: a stored game with its engine game, and
the refusals whose message is shown to the user as it is (in the language they read)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from bot.clock import Clock, ClockState
from bot.engine import Game, Player
from bot.engine.notation import NotationError, from_record, resume
from bot.i18n import N_, _
from bot.storage import GameRow, RatingChange

log = logging.getLogger(__name__)

FIRST_CHOICES = ("random", "me", "opponent")

CHANNEL_BUSY = N_(
    "This channel already has a game in progress. Start yours beside it in a thread of its own "
    "with `thread: True`, or play in another channel."
)
#: :data:`CHANNEL_BUSY` with a link to the running game's board, once it has one.
CHANNEL_BUSY_WITH = N_(
    "This channel already has a game in progress: game #{number} → [board]({url}). Start yours beside it "
    "in a thread of its own with `thread: True`, or play in another channel."
)
CHALLENGE_CLOSED = N_("This challenge is no longer open.")
NO_GAME = N_("There is no game in this channel. Start one with `/wari challenge`.")
#: A move the position does not allow (the engine says why).
ILLEGAL_MOVE = N_("You can't play house {house}: {reason}.")


#: Why a game was aborted (its ``reason``): a moderator ended it, or a player called it off before
#: both sides had moved (:attr:`Table.abortable`).
MODERATOR_ABORT = "aborted"
EARLY_ABORT = "early"


class Refusal(Exception):
    """Something a user asked for that cannot be done; ``str()`` is the message to show them,
    in the language of the moment (see :mod:`bot.i18n`): ``message`` is the English text with
    ``{placeholders}`` that ``params`` fill."""

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message)
        self.message, self.params = message, params

    def __str__(self) -> str:
        return _(self.message, **self.params)


def channel_busy(running: GameRow) -> Refusal:
    """The refusal of a new game in a channel where ``running`` is played: it leads to that game."""
    if running.message_id is None:  # its board is not posted yet
        return Refusal(CHANNEL_BUSY)
    return Refusal(CHANNEL_BUSY_WITH, number=running.id, url=running.board_url)


class Closed(Refusal):
    """A button of something no longer open (a challenge, a draw offer): its message can say so."""


class TimeUp(Refusal):
    """The player pressed after their time ran out: the game was ended on time instead."""

    def __init__(self, message: str, table: Table, **params: object) -> None:
        super().__init__(message, **params)
        self.table = table


class StaleBoard(Refusal):
    """A button from an older board. ``table`` is the game as it is now (``None`` if gone)."""

    def __init__(self, message: str, table: Table | None, **params: object) -> None:
        super().__init__(message, **params)
        self.table = table


@dataclass(frozen=True)
class Table:
    """A stored game together with its replayed engine :class:`Game`."""

    row: GameRow
    game: Game
    #: The stored game before the change that produced this one (``None`` if just read).
    previous: GameRow | None = field(default=None, compare=False)
    #: What this change did to the players' ratings (a rated game that just ended), A first.
    ratings: tuple[RatingChange, ...] = field(default=(), compare=False)

    @classmethod
    def of(cls, row: GameRow) -> Table:
        """The stored game, taken up from its snapshot (a game of any length costs the same);
        replayed from its record if it has none (stored before snapshots were kept) or one
        that does not go with it (the record is the truth)."""
        if row.position:
            try:
                return cls(row, resume(row.record, row.position))
            except NotationError as exc:
                log.warning("game %s: %s; replaying its record", row.id, exc)
        return cls(row, from_record(row.record)[0])

    @property
    def clock(self) -> Clock | None:
        return Clock.parse(self.row.clock) if self.row.clock else None

    @property
    def called_once(self) -> bool:
        """A game of a tournament played on a clock per player (an arena, a 10+5 Swiss): its round's
        pairings called its players, who are at the board, so nothing of the game pings them again
        (no turn ping, no reminder, no end). A tournament on a clock per move (days for a move) is
        played away from the board: its games ping as any other."""
        clock = self.clock
        return self.row.tournament_id is not None and (clock is None or clock.per_move is None)

    @property
    def clock_state(self) -> ClockState:
        row = self.row
        # The two banks are stored together: both set (per-player clocks) or neither.
        banks = (row.time_a, row.time_b) if row.time_a is not None and row.time_b is not None else None
        return ClockState(row.deadline, banks)

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
    def sides_moved(self) -> set[Player]:
        """The sides that have sown at least once (a surrender, time-out or agreement is no move)."""
        return self.game.sides_sown

    @property
    def abortable(self) -> bool:
        """Either player may still call the game off, unrated: one side has not moved yet."""
        return not self.exhibition and self.sides_moved != set(Player)

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
