"""Rows of the database as frozen dataclasses, and how their values are stored."""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from typing import TypeVar

from bot.names import markdown_name

from .backend import Row
from .database import Conflict, time_text, when

#: Columns that hold a time (UTC ISO text in the database, aware datetimes in the rows).
_TIME_COLUMNS = frozenset(
    {
        "created_at",
        "expires_at",
        "updated_at",
        "finished_at",
        "deadline",
        "ping_at",
        "starts_at",
        "ends_at",
        "joined_at",
        "posted_at",
    }
)


#: A row class.
RowT = TypeVar("RowT")


def row_as(kind: type[RowT], row: Row) -> RowT:
    """A row as the dataclass ``kind``, its time columns as aware datetimes."""
    return kind(**{key: when(value) if key in _TIME_COLUMNS else value for key, value in dict(row).items()})


def shown_name(user_id: int, name: str | None) -> str:
    """A member as the bot shows them, in Discord markdown: the name the server showed when the
    game or challenge began, as text that can do nothing else (:func:`bot.names.markdown_name`).
    Names, not mentions: a mention in an embed shows only for readers whose app knows the
    member. Rows from before names were kept (and a name with nothing left to show) fall back to
    a mention."""
    shown = markdown_name(name) if name else ""
    return shown if shown.strip() else f"<@{user_id}>"


def to_column(value: object) -> object:
    return time_text(value) if isinstance(value, datetime) else value


#: The ``opponent_id`` of an open challenge, which anyone may accept: no member is id 0.
ANYONE = 0
#: The ``guild_id`` of a game or challenge outside any server (a DM, a group DM): no server is id 0.
NO_SERVER = 0
#: Where a game is played (``venue``): a server that added the bot, the bot's own DM (both places
#: it may post in), or a place where it only answers interactions (a group DM, a server that did
#: not add it). See schema 15.
SERVER, DM, INTERACTION = "server", "dm", "interaction"


@dataclass(frozen=True)
class NumberScope:
    """The games a number given somewhere may show (a record, a replay, an analysis, a button's id,
    a suggestion as it is typed): what everyone reading there may see. The bot's DM, which its
    player alone reads (``guild_id`` ``None``), shows all of ``user_id``'s games; a server that
    added the bot, its own (``guild_id``); a place where the bot only answers interactions (a group
    DM: :data:`NO_SERVER`, or a server that did not add it), only those played in its channel
    (``channel_id``)."""

    user_id: int
    guild_id: int | None = None
    channel_id: int | None = None

    def covers(self, game: GameRow) -> bool:
        if self.guild_id is None:
            return self.user_id in game.players
        return game.guild_id == self.guild_id and self.channel_id in (None, game.channel_id)


def message_url(guild_id: int, channel_id: int, message_id: int | None) -> str:
    """The address of a message; outside a server (:data:`NO_SERVER`) Discord's ``@me``, the
    address of DMs and group DMs."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


@dataclass(frozen=True)
class ChallengeRow:
    id: int
    guild_id: int
    channel_id: int
    challenger_id: int
    opponent_id: int
    variant: str
    first: str
    message_id: int | None
    created_at: datetime
    expires_at: datetime
    #: The clock code the game will be played with (:mod:`bot.clock`).
    clock: str = "1d/move"
    #: The channel is a thread the bot made for this challenge and its game.
    thread: int = 0
    #: The finished game this challenge asks to play again.
    rematch_of: int | None = None
    #: The members' names as the server showed them (``None`` for challenges of before).
    challenger_name: str | None = None
    opponent_name: str | None = None
    #: An open challenge's rating range in its rule set (``None``: no bound).
    min_rating: int | None = None
    max_rating: int | None = None
    #: The game will change its players' ratings (0: unrated, takebacks allowed).
    rated: int = 1
    #: Where it is played: :data:`SERVER`, :data:`DM` or :data:`INTERACTION`.
    venue: str = SERVER

    @classmethod
    def from_row(cls, row: Row) -> ChallengeRow:
        return row_as(cls, row)

    @property
    def open(self) -> bool:
        """Anyone in the channel may accept it (it names no opponent)."""
        return self.opponent_id == ANYONE

    @property
    def names(self) -> tuple[str, str]:
        """The challenger's and the opponent's names (see :func:`shown_name`)."""
        return shown_name(self.challenger_id, self.challenger_name), shown_name(self.opponent_id, self.opponent_name)


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    player_a: int
    player_b: int
    variant: str
    record: str
    version: int
    message_id: int | None
    status: str
    result: str | None
    reason: str | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    #: The computer level playing side A / B, or ``None`` for a person.
    level_a: str | None = None
    level_b: str | None = None
    #: An exhibition that plays on its own (else one move per "Next move" press).
    autoplay: int = 0
    #: The clock code (:mod:`bot.clock`), ``None`` for no clock.
    clock: str | None = None
    #: When the player to move runs out of time; ``None`` while no person's time runs.
    deadline: datetime | None = None
    #: Per-player clocks: seconds banked by A and B.
    time_a: float | None = None
    time_b: float | None = None
    #: Seconds the clocks were paused in all because the bot was offline.
    clock_paused: int = 0
    #: When the next ping of the player to move is due, and which: ``turn`` or ``reminder``.
    ping_at: datetime | None = None
    ping_kind: str | None = None
    #: The last ping posted for this game (deleted when the next one is posted).
    ping_message_id: int | None = None
    #: The latest draw offer: by whom, at which move, whether it still stands, its message.
    draw_by: str | None = None
    draw_ply: int | None = None
    draw_open: int = 0
    draw_message_id: int | None = None
    #: The channel is a thread the bot made for this game; it is archived when the game ends.
    thread: int = 0
    #: The players' names as the server showed them when the game began (``None``: unknown).
    name_a: str | None = None
    name_b: str | None = None
    #: The game's state after its last move, so that reading it needs no replay
    #: (:func:`bot.engine.notation.snapshot`; ``None`` for games stored before it was kept).
    position: str | None = None
    #: A game between people that changes their ratings when it ends (0: unrated, takebacks allowed;
    #: -1: played rated, archived unrated: see :data:`bot.ratings.RATED_GAMES_PER_PAIR_PER_DAY`).
    rated: int = 1
    #: The ``version`` its board message was last drawn at (``None``: not known).
    shown_version: int | None = None
    #: The tournament whose pairing this game is (``None``: an ordinary game). Its games share the
    #: event's thread, one live game per player there.
    tournament_id: int | None = None
    #: Where it is played: :data:`SERVER`, :data:`DM` or :data:`INTERACTION`; only a server's
    #: games count in a server's leaderboard and history.
    venue: str = SERVER

    @classmethod
    def from_row(cls, row: Row) -> GameRow:
        return row_as(cls, row)

    @property
    def board_behind(self) -> bool:
        """Its board message may show an older state than the stored one."""
        return self.shown_version is None or self.shown_version < self.version

    @property
    def players(self) -> tuple[int, int]:
        return self.player_a, self.player_b

    @property
    def board_url(self) -> str:
        """The address of its board message."""
        return message_url(self.guild_id, self.channel_id, self.message_id)

    @property
    def names(self) -> tuple[str, str]:
        """A's and B's names (see :func:`shown_name`)."""
        return shown_name(self.player_a, self.name_a), shown_name(self.player_b, self.name_b)

    @property
    def live(self) -> bool:
        return self.status == "live"


#: Every column of a game, in order.
GAME_COLUMNS = tuple(field.name for field in fields(GameRow))
#: The columns of a game read (or returned) with its players' choice of pings (``0``: off, ``NULL``:
#: never chosen, so on): a ping's reader needs both, in one trip (see :func:`game_and_muted`). ``*``,
#: not ``games.*``: SQLite's ``RETURNING`` takes no table's wildcard.
GAME_WITH_PINGS = """*,
       (SELECT pings FROM user_settings WHERE user_id = games.player_a) AS pings_of_a,
       (SELECT pings FROM user_settings WHERE user_id = games.player_b) AS pings_of_b"""


def game_and_muted(row: Row) -> tuple[GameRow, frozenset[int]]:
    """A row of :data:`GAME_WITH_PINGS`: the game, and those of its players who turned pings off."""
    columns = dict(row)
    choices = {columns["player_a"]: columns.pop("pings_of_a"), columns["player_b"]: columns.pop("pings_of_b")}
    return GameRow.from_row(columns), frozenset(user for user, pings in choices.items() if pings == 0)


def saved_game(rows: list[Row]) -> tuple[GameRow, frozenset[int]]:
    """The game a save returned (a row of :data:`GAME_WITH_PINGS`), with its players who turned
    pings off; :class:`Conflict` if it returned none (the game's version moved on meanwhile)."""
    if not rows:
        raise Conflict("the game changed meanwhile")
    return game_and_muted(rows[0])


#: What :meth:`Store.update_game` may change: the game's state, never who plays it or where.
GAME_STATE = frozenset(GAME_COLUMNS) - {
    "id",
    "guild_id",
    "channel_id",
    "player_a",
    "player_b",
    "variant",
    "version",
    "created_at",
    "updated_at",
    "finished_at",
    "level_a",
    "level_b",
    "autoplay",
    "clock",
    "thread",
    "name_a",
    "name_b",
    "venue",
}


@dataclass(frozen=True)
class SeekRow:
    """A player waiting in a server's queue for a game (``/wari seek``)."""

    id: int
    guild_id: int
    #: Where they asked: their game's thread opens there if they are the one who completes a pair.
    channel_id: int
    user_id: int
    user_name: str | None
    variant: str
    clock: str
    #: Their rating in the rule set when they asked, and how far from it an opponent may be (``None``: any).
    rating: int
    within: int | None
    #: The message that shows the wait (to close it when it ends).
    message_id: int | None
    created_at: datetime
    expires_at: datetime

    @classmethod
    def from_row(cls, row: Row) -> SeekRow:
        return row_as(cls, row)

    @property
    def name(self) -> str:
        return shown_name(self.user_id, self.user_name)

    def fits(self, other: SeekRow) -> bool:
        """Whether the two waits make a game: same rule set and clock, each rating within the
        other's range, two different players."""
        gap = abs(self.rating - other.rating)
        return (
            self.user_id != other.user_id
            and (self.variant, self.clock) == (other.variant, other.clock)
            and all(within is None or gap <= within for within in (self.within, other.within))
        )
