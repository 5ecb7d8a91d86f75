"""Whose turn, whose clock, whose ping: the columns a game's change sets besides its record.

Pure functions of the game and the moment; the service writes what they return in the same
transaction as the move, so a clock, its deadline and the next ping never disagree.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.ai import LEVELS
from bot.clock import Clock, ClockState
from bot.engine import Game, Player
from bot.i18n import N_

from .table import FIRST_CHOICES, Refusal, Table

#: A person who pressed this lately is at the board: no turn ping for them (see :func:`handover`).
PRESENT = timedelta(minutes=2)
#: On a correspondence clock (:data:`CORRESPONDENCE` a move or more) a turn ping after a move waits
#: this long, and is dropped if the player moves first: two players at the board answer each
#: other within it, and Discord limits a bot's messages (a ping costs two calls, the new message
#: and the old one's deletion). On such a clock a minute is nothing to the player who is away.
PING_DELAY = timedelta(minutes=1)
CORRESPONDENCE = timedelta(hours=1)
#: Columns that stop every clock and ping of a game, and that close its draw offer.
STILL = {"deadline": None, "ping_at": None, "ping_kind": None}
NO_OFFER = {"draw_by": None, "draw_ply": None, "draw_open": 0}


def check_first(first: str) -> None:
    if first not in FIRST_CHOICES:
        raise Refusal(N_("`first` must be one of {choices}."), choices=", ".join(FIRST_CHOICES))


def check_level(level: str) -> None:
    """A stored level is always one the bot can play (Discord sends only the choices, but a
    forged or outdated request must not store garbage)."""
    if level not in LEVELS:
        raise Refusal(
            N_("There is no level called `{level}`. Choose one of: {levels}."), level=level, levels=", ".join(LEVELS)
        )


def parse_clock(code: str) -> Clock:
    try:
        return Clock.parse(code)
    except ValueError as exc:
        raise Refusal(N_("Sorry, {reason}."), reason=exc) from None


def person_to_move(game: Game, levels: tuple[str | None, str | None]) -> Player | None:
    """The side to move if a person plays it (``None``: the computer's turn, or the game is over)."""
    mover = game.to_move
    return mover if mover is not None and game.outcome is None and levels[mover] is None else None


def pings_and_clock(
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
    present: bool = False,
) -> dict:
    """The clock and ping columns once ``game`` is reached and ``mover`` (``None``: nobody) has moved.

    The person now to move gets a new deadline and a turn ping, unless they caused this change
    themselves (their own press, Accept or rematch: they are looking at the board) or are
    ``present`` (they pressed lately: see :func:`handover`). After a person's move on a
    correspondence clock the ping waits :data:`PING_DELAY`. A per-move clock's reminder is due
    when a quarter of the time is left.
    """
    person = person_to_move(game, levels)
    changes: dict = {}
    deadline = None
    if clock is not None:
        after = clock.next_turn(state, mover=mover, next_mover=person, now=now, moved=moved)
        deadline = after.deadline
        changes["deadline"] = deadline
        if after.banks is not None:
            changes["time_a"], changes["time_b"] = after.banks
    if person is None:
        return {**changes, **STILL}
    if users[person] != actor and person != mover and not present:
        return {**changes, "ping_at": now + ping_delay(clock, mover, levels), "ping_kind": "turn"}
    if clock is not None and deadline is not None and clock.reminder_before is not None:
        return {**changes, "ping_at": deadline - clock.reminder_before, "ping_kind": "reminder"}
    return {**changes, "ping_at": None, "ping_kind": None}


def ping_delay(clock: Clock | None, mover: Player | None, levels: tuple[str | None, str | None]) -> timedelta:
    """How long a turn ping waits: :data:`PING_DELAY` after a person's move on a correspondence
    clock (the opponent may well be at the board), else nothing (a game that starts calls its
    first player at once; a computer's move is answered by a person who may have left)."""
    person_moved = mover is not None and levels[mover] is None
    correspondence = clock is not None and clock.per_move is not None and clock.per_move >= CORRESPONDENCE
    return PING_DELAY if person_moved and correspondence else timedelta(0)


def opening(
    clock: Clock | None,
    game: Game,
    users: tuple[int, int],
    levels: tuple[str | None, str | None],
    actor: int | None,
    now: datetime,
) -> dict:
    """The clock and ping columns of a game about to start."""
    state = clock.start() if clock else ClockState(None)
    return pings_and_clock(clock, state, game, users, levels, mover=None, actor=actor, now=now)


def handover(table: Table, game: Game, mover: Player | None, actor: int | None, now: datetime, moved: bool) -> dict:
    """The clock and ping columns after ``mover`` moved in ``table`` (reaching ``game``).

    A person who pressed within :data:`PRESENT` is at the board and gets no turn ping (Discord
    limits a bot's messages, and a ping costs two calls, the new one and the old one's deletion):
    against the computer, whose answer follows the person's press within seconds, and in games
    on per-player (real-time) clocks. The change before this one was the last press in either.
    Reminders and the end on time still notify them.
    """
    if table.exhibition:
        return {}
    levels = (table.row.level_a, table.row.level_b)
    lately = now - table.row.updated_at < PRESENT
    against_the_computer = mover is not None and levels[mover] is not None
    real_time = table.clock is not None and table.clock.per_player
    present = lately and moved and (against_the_computer or real_time)
    return pings_and_clock(
        table.clock,
        table.clock_state,
        game,
        table.row.players,
        levels,
        mover=mover,
        actor=actor,
        now=now,
        moved=moved,
        present=present,
    )
