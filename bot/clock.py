"""Game clocks: a time limit per move (correspondence play) or per player with an increment.

A clock is named by its code, the value users pick in ``/wari challenge clock:``:

- ``1h/move``, ``1d/move``, ``3d/move``: each move must be played within that time. A reminder
  is due when a quarter of it is left.
- ``5+3``, ``10+5``: each player has 5 (10) minutes for the whole game and gains 3 (5) seconds
  after each of their moves (a Fischer increment). Only the mover's time runs.

Only people have clocks: while the computer thinks no deadline runs. The state a clock needs is
small and lives in the database beside the game: the deadline of the player to move, and, for
per-player clocks, the time each player has banked. :meth:`Clock.next_turn` computes it.

>>> from datetime import datetime, timezone
>>> t = datetime(2026, 11, 23, 12, 0, tzinfo=timezone.utc)
>>> fischer = Clock.parse("5+3")
>>> start = fischer.start()
>>> start
ClockState(deadline=None, banks=(300.0, 300.0))
>>> a_to_move = fischer.next_turn(start, mover=None, next_mover=0, now=t)
>>> a_to_move.deadline.time()
datetime.time(12, 5)
>>> later = t.replace(minute=1)   # A moves after one minute: 4 min left, plus 3 s
>>> fischer.next_turn(a_to_move, mover=0, next_mover=1, now=later).banks
(243.0, 300.0)
>>> Clock.parse("1d/move").describe()
'1 day a move'
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.i18n import _, n_

#: The clocks offered, in the order shown to users.
CLOCKS = ("1h/move", "1d/move", "3d/move", "5+3", "10+5")
DEFAULT_CLOCK = "1d/move"

_PER_MOVE = re.compile(r"^(\d+)([hd])/move$")
_FISCHER = re.compile(r"^(\d+)\+(\d+)$")
_UNITS = {"h": timedelta(hours=1), "d": timedelta(days=1)}


@dataclass(frozen=True)
class ClockState:
    """What a running clock stores: the mover's deadline and each player's banked seconds.

    ``deadline`` is ``None`` when no person is on the move (the computer, or the game is over).
    ``banks`` is ``None`` for per-move clocks.
    """

    deadline: datetime | None
    banks: tuple[float, float] | None = None


@dataclass(frozen=True)
class Clock:
    """A time control. Build it with :meth:`parse`; ``code`` is what is stored."""

    code: str
    #: Per-move clocks: the time for each move.
    per_move: timedelta | None = None
    #: Per-player clocks: each player's time for the whole game, and what a move adds to it.
    base: timedelta | None = None
    increment: timedelta = timedelta(0)

    @classmethod
    @functools.cache  # a board reads its game's clock several times; there are few codes (CLOCKS)
    def parse(cls, code: str) -> Clock:
        """The clock ``code`` names; ``ValueError`` for anything not in :data:`CLOCKS`."""
        if code not in CLOCKS:
            raise ValueError(f"unknown clock {code!r}: choose one of {', '.join(CLOCKS)}")
        if match := _PER_MOVE.match(code):
            return cls(code, per_move=int(match[1]) * _UNITS[match[2]])
        match = _FISCHER.match(code)
        assert match is not None  # every code of CLOCKS is per move or Fischer
        return cls(code, base=timedelta(minutes=int(match[1])), increment=timedelta(seconds=int(match[2])))

    @property
    def per_player(self) -> bool:
        return self.base is not None

    def describe(self) -> str:
        """In words, in the language of the moment: ``1 day a move``, ``5 min + 3 s a move``."""
        if self.per_move is not None:
            match = _PER_MOVE.match(self.code)
            assert match is not None  # a per-move clock's code is one (see parse)
            count = int(match[1])
            if match[2] == "h":
                return n_("{hours} hour a move", "{hours} hours a move", count, hours=count)
            return n_("{days} day a move", "{days} days a move", count, days=count)
        assert self.base is not None  # a clock is per move or per player (see parse)
        return _(
            "{minutes} min + {seconds} s a move",
            minutes=self.base // timedelta(minutes=1),
            seconds=self.increment.seconds,
        )

    @property
    def reminder_before(self) -> timedelta | None:
        """How long before a per-move deadline the one reminder is due (a quarter of the time)."""
        return self.per_move / 4 if self.per_move is not None else None

    def start(self) -> ClockState:
        """The state before the first move: nobody's time runs yet."""
        seconds = self.base.total_seconds() if self.base is not None else None
        return ClockState(None, (seconds, seconds) if seconds is not None else None)

    def next_turn(
        self, state: ClockState, *, mover: int | None, next_mover: int | None, now: datetime, moved: bool = True
    ) -> ClockState:
        """The state after ``mover`` (0 for A, 1 for B, ``None`` at the start) handed the turn on.

        ``next_mover`` is the side now to move if a person plays it, else ``None`` (the computer,
        or the game is over): then no deadline runs. A mover who had a deadline banks what was
        left of it, plus the increment if they ``moved`` (not when the game ended otherwise).
        """
        banks = state.banks
        if banks is not None and mover is not None and state.deadline is not None:
            left = max((state.deadline - now).total_seconds(), 0.0) + (self.increment.total_seconds() if moved else 0.0)
            banks = (left, banks[1]) if mover == 0 else (banks[0], left)
        if next_mover is None:
            return ClockState(None, banks)
        if self.per_move is not None:
            allowed = self.per_move
        else:
            assert banks is not None  # a per-player clock's state has banks from the start (see start)
            allowed = timedelta(seconds=banks[next_mover])
        return ClockState(now + allowed, banks)


def clock_time(seconds: float) -> str:
    """A player's banked time as a chess clock shows it: ``4:32``, ``1:02:05``.

    >>> clock_time(272.4), clock_time(3725)
    ('4:32', '1:02:05')
    """
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def duration(delta: timedelta) -> str:
    """A length of time in words, to the minute, in the language of the moment: ``2 h 13 min``, ``45 s``.

    >>> duration(timedelta(hours=2, minutes=13, seconds=20)), duration(timedelta(seconds=45))
    ('2 h 13 min', '45 s')
    """
    seconds = int(delta.total_seconds())
    if seconds < 60:
        return _("{seconds} s", seconds=seconds)
    hours, minutes = divmod(seconds // 60, 60)
    days, hours = divmod(hours, 24)
    parts = [
        _("{days} d", days=days) if days else "",
        _("{hours} h", hours=hours) if hours else "",
        _("{minutes} min", minutes=minutes) if minutes else "",
    ]
    return " ".join(part for part in parts if part)
