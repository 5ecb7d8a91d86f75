"""Puzzles as a game of their own: start a try, play its moves, rate it, keep the streak; each
server's puzzle of the day. Pure logic on the store: nothing here knows Discord.

A try's state is its stored moves (the solver's, houses), so it goes on after a restart; the
opponent's replies come from the puzzle's solution. A right move is answered by the solution's
reply; a wrong move ends the try as failed, as does giving up; playing the whole line solves it.

Ratings: Glicko-2 (glicko2-py's ``update_rating``, as :mod:`bot.ratings` rates games), each try
a rating period against the puzzle as an opponent rated its difficulty with a small fixed
deviation (:data:`PUZZLE_RD`). The streak counts puzzles solved in a row.

The daily puzzle is the same for every member of a server on a UTC day (stored the first time
it is asked for, so it stays that day's), one try each. It counts for the streak but does not
change the rating: its solution can be read in the channel long before a member tries it, and a
rating must measure what a player finds alone.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import date, datetime

from bot.ai.puzzles import Puzzle, daily, pick, puzzle_by_id, puzzles_for, refutation
from bot.engine import VARIANTS, Game
from bot.i18n import N_
from bot.ratings import Rating, rated_after
from bot.storage.puzzles import AttemptRow, DailyPuzzleRow, DailySetting, PuzzleQueries, PuzzleStanding

from .table import ILLEGAL_MOVE, Closed, Refusal

#: The deviation the puzzles are given as opponents: they are rated by many tries, not one.
PUZZLE_RD = 60.0
#: The rule set of a server's daily puzzle.
DAILY_VARIANT = "wari"
#: The UTC hour a server's daily puzzle is posted at, unless its moderators chose another.
DAILY_HOUR = 12
#: The nodes a refutation searches: a fixed amount, so the same wrong move is always answered alike.
REFUTATION_NODES = 150_000

NOT_YOURS = N_("This puzzle is someone else's. Try one of your own with `/wari puzzle next`.")
STALE = N_("This puzzle has moved on since this board was drawn: use the latest one.")
OVER = N_("This try is over. `/wari puzzle next` gives you a new puzzle.")
GONE = N_("This puzzle is no longer available. `/wari puzzle next` gives you a new one.")


def refutation_line(puzzle_id: str, played_before: str, wrong_house: int) -> tuple[int, ...]:
    """The best line after a wrong move, as a worker process computes it: everything crosses as
    text and numbers (``played_before``: the solver's right moves before it, comma-separated)."""
    puzzle = puzzle_by_id(puzzle_id)
    if puzzle is None:
        return ()
    played = tuple(int(house) for house in played_before.split(",") if house)
    return refutation(puzzle, played, wrong_house, nodes=REFUTATION_NODES)


def rating_of(standing: PuzzleStanding) -> Rating:
    """A standing's rating as ratings read (``1562?``)."""
    return Rating(standing.rating, standing.rd, standing.volatility, standing.tries)


def rerated(standing: PuzzleStanding, difficulty: float, solved: bool) -> PuzzleStanding:
    """The standing after one rated try at a puzzle of ``difficulty``."""
    new = rated_after(rating_of(standing), Rating(difficulty, PUZZLE_RD), 1.0 if solved else 0.0)
    return replace(standing, rating=new.rating, rd=new.rd, volatility=new.volatility)


def counted(standing: PuzzleStanding, solved: bool) -> PuzzleStanding:
    """The standing with one more try ended: its count and the streak."""
    if solved:
        streak = standing.streak + 1
        return replace(
            standing, solved=standing.solved + 1, streak=streak, best_streak=max(streak, standing.best_streak)
        )
    return replace(standing, failed=standing.failed + 1, streak=0)


@dataclass(frozen=True)
class Try:
    """A try at a puzzle as stored: its row and its puzzle, and the moves both sides have played."""

    row: AttemptRow
    puzzle: Puzzle

    @property
    def played(self) -> tuple[int, ...]:
        """The solver's moves so far (a wrong one last, if the try failed on it)."""
        return self.row.played

    @property
    def step(self) -> int:
        """How many moves the solver has played: a board's buttons carry it, to tell stale presses."""
        return len(self.played)

    @property
    def wrong(self) -> int | None:
        """The wrong move that ended the try, if one did."""
        if self.row.status == "failed" and self.played and not self.puzzle.check(self.played).correct:
            return self.played[-1]
        return None

    @property
    def right_moves(self) -> tuple[int, ...]:
        """The solver's moves that were the solution's."""
        return self.played[:-1] if self.wrong is not None else self.played

    def line(self) -> list[int]:
        """Every move played so far, both sides', the wrong one last if any."""
        line = self.puzzle.line_before(self.right_moves)
        return [*line, self.wrong] if self.wrong is not None else line

    def start(self) -> Game:
        """The puzzle's position."""
        return self.puzzle.game()

    def game(self) -> Game:
        """The position now: the puzzle's with every move of :meth:`line` played."""
        game = self.puzzle.game()
        for house in self.line():
            game.play(house)
        return game


@dataclass(frozen=True)
class Ended:
    """What the end of a try did to its player: their standing before and after, and whether
    the rating changed (a daily try changes only the streak)."""

    before: PuzzleStanding
    after: PuzzleStanding
    rated: bool


@dataclass(frozen=True)
class Played:
    """A move (or giving up) applied to a try: the try now, and its end if it ended."""

    attempt: Try
    ended: Ended | None = None


class PuzzleService:
    """Tries at puzzles, ratings and streaks, and each server's daily puzzle."""

    def __init__(self, puzzles: PuzzleQueries, rng: random.Random | None = None) -> None:
        self._puzzles = puzzles
        self.rng = rng or random.Random()

    async def standing(self, user_id: int) -> PuzzleStanding:
        return await self._puzzles.puzzle_standing(user_id) or PuzzleStanding(user_id)

    async def open_try(self, user_id: int) -> Try | None:
        """The player's try of their own still open, if any (and its puzzle still shipped)."""
        row = await self._puzzles.open_attempt(user_id)
        return self._try(row) if row is not None and puzzle_by_id(row.puzzle_id) is not None else None

    async def start(self, user_id: int, guild_id: int | None, variant: str, now: datetime) -> Try:
        """A new try at a puzzle near the player's rating, one they never tried while any is left."""
        if variant not in VARIANTS:
            raise Refusal(N_("There is no rule set called {variant}."), variant=variant)
        puzzles = puzzles_for(variant)
        if not puzzles:
            raise Refusal(N_("There are no {variant} puzzles yet. Try `variant: wari`."), variant=variant)
        standing = await self.standing(user_id)
        tried = await self._puzzles.tried_puzzles(user_id)
        untried = [puzzle for puzzle in puzzles if puzzle.id not in tried]
        puzzle = pick(untried or puzzles, standing.rating, self.rng)
        row = await self._puzzles.start_attempt(
            user_id=user_id, guild_id=guild_id, puzzle_id=puzzle.id, daily=None, now=now
        )
        return Try(row, puzzle)

    async def attempt(self, attempt_id: int) -> Try:
        row = await self._puzzles.attempt(attempt_id)
        if row is None:
            raise Refusal(GONE)
        return self._try(row)

    def _try(self, row: AttemptRow) -> Try:
        puzzle = puzzle_by_id(row.puzzle_id)
        if puzzle is None:
            raise Refusal(GONE)
        return Try(row, puzzle)

    async def move(self, attempt_id: int, user_id: int, step: int, house: int, now: datetime) -> Played:
        """The solver plays ``house`` on the board drawn after their move ``step``: a move the
        position does not allow (a house off the board, empty or the opponent's, as only a forged
        press sends) is refused, and the try goes on; any legal move is judged."""
        attempt = await self._pressable(attempt_id, user_id, step)
        illegal = attempt.game().why_illegal(house)
        if illegal is not None:
            raise Refusal(ILLEGAL_MOVE, house=house, reason=illegal)
        played = (*attempt.played, house)
        judged = attempt.puzzle.check(played)
        if judged.correct and not judged.solved:
            row = await self._puzzles.record_move(attempt.row, played)
            if row is None:
                raise Closed(STALE)
            return Played(Try(row, attempt.puzzle))
        return await self._finish(attempt, played, solved=judged.solved, now=now)

    async def give_up(self, attempt_id: int, user_id: int, step: int, now: datetime) -> Played:
        """The solver asks for the solution: the try fails."""
        attempt = await self._pressable(attempt_id, user_id, step)
        return await self._finish(attempt, attempt.played, solved=False, now=now)

    async def _pressable(self, attempt_id: int, user_id: int, step: int) -> Try:
        attempt = await self.attempt(attempt_id)
        if attempt.row.user_id != user_id:
            raise Refusal(NOT_YOURS)
        if not attempt.row.open:
            raise Closed(OVER)
        if attempt.step != step:
            raise Refusal(STALE)
        return attempt

    async def _finish(self, attempt: Try, played: tuple[int, ...], *, solved: bool, now: datetime) -> Played:
        rated = attempt.row.daily is None

        def rerate(standing: PuzzleStanding) -> PuzzleStanding:
            standing = counted(standing, solved)
            return rerated(standing, attempt.puzzle.difficulty, solved) if rated else standing

        finished = await self._puzzles.finish_attempt(
            attempt.row, played, solved=solved, now=now, rerate=rerate, rated=rated
        )
        if finished is None:
            raise Closed(STALE)
        row, before, after = finished
        return Played(Try(row, attempt.puzzle), Ended(before, after, rated))

    # -- the daily puzzle -----------------------------------------------------------------------

    async def daily_post(self, guild_id: int, day: date) -> DailyPuzzleRow:
        """A server's puzzle of ``day`` as stored (the first time it is asked for): its puzzle, and
        where it was posted, if it was."""
        return await self._puzzles.daily_puzzle(guild_id, day.isoformat(), daily(DAILY_VARIANT, day).id)

    async def daily_puzzle(self, guild_id: int, day: date) -> Puzzle:
        """A server's puzzle of ``day`` (the same for all its members)."""
        row = await self.daily_post(guild_id, day)
        puzzle = puzzle_by_id(row.puzzle_id)
        if puzzle is None:
            raise Refusal(GONE)
        return puzzle

    async def daily_try(self, guild_id: int, user_id: int, day: date) -> Try | None:
        """The member's try at the server's puzzle of ``day``, if they have one."""
        row = await self._puzzles.daily_attempt(guild_id, day.isoformat(), user_id)
        return None if row is None else self._try(row)

    async def start_daily(
        self, guild_id: int, user_id: int, now: datetime, name: str | None = None
    ) -> tuple[Try, bool]:
        """The member's try at today's puzzle: a new one, or (``False``) the one they have."""
        day = now.date()
        existing = await self.daily_try(guild_id, user_id, day)
        if existing is not None:
            return existing, False
        puzzle = await self.daily_puzzle(guild_id, day)
        row = await self._puzzles.start_attempt(
            user_id=user_id, guild_id=guild_id, puzzle_id=puzzle.id, daily=day.isoformat(), now=now, name=name
        )
        return Try(row, puzzle), True

    async def daily_results(self, guild_id: int, day: str) -> tuple[list[tuple[int, str | None]], int]:
        """Who solved the server's puzzle of ``day`` at their one try, in order, and how many tried."""
        return await self._puzzles.daily_results(guild_id, day)

    async def daily_setting(self, guild_id: int) -> DailySetting:
        """Where and at which UTC hour the server's puzzle of the day is posted (if it is)."""
        return await self._puzzles.daily_setting(guild_id)

    async def change_daily_setting(
        self, guild_id: int, *, channel_id: int | None, hour: int | None, off: bool
    ) -> DailySetting:
        """Post the server's puzzle of the day in ``channel_id`` at ``hour`` (either left out: as
        set before; the hour at first :data:`DAILY_HOUR`), or, ``off``, no longer."""
        if off:
            setting = DailySetting(guild_id, None, None)
        else:
            current = await self._puzzles.daily_setting(guild_id)
            chosen = channel_id if channel_id is not None else current.channel_id
            if chosen is None:
                raise Refusal(N_("Choose the channel the daily puzzle is posted in: `channel`."))
            if hour is None:
                hour = current.hour if current.hour is not None else DAILY_HOUR  # midnight is an hour
            setting = DailySetting(guild_id, chosen, hour)
        await self._puzzles.set_daily_setting(guild_id, setting.channel_id, setting.hour)
        return setting

    async def dailies_due(self, moment: datetime) -> list[DailySetting]:
        """The servers whose puzzle of ``moment``'s day is due by its hour and not posted yet."""
        return await self._puzzles.dailies_due(moment.date().isoformat(), moment.hour)

    async def claim_daily_post(self, setting: DailySetting, day: date, now: datetime) -> Puzzle | None:
        """Claim the posting of the server's puzzle of ``day`` in its channel: the puzzle to post,
        or ``None`` if another process posted (or claimed) it already, or its puzzle is gone."""
        assert setting.channel_id is not None  # a due setting has its channel
        puzzle_id = daily(DAILY_VARIANT, day).id
        claimed = await self._puzzles.claim_daily_post(
            setting.guild_id, day.isoformat(), puzzle_id, setting.channel_id, now
        )
        return puzzle_by_id(claimed.puzzle_id) if claimed is not None else None

    async def set_daily_message(self, guild_id: int, day: date, message_id: int | None) -> None:
        """The posted message of the server's puzzle of ``day``; ``None`` gives up the claim (the
        post failed: the next sweep tries again)."""
        await self._puzzles.set_daily_message(guild_id, day.isoformat(), message_id)
