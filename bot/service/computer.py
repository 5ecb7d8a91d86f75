"""The bot as a player: searches run in worker processes, never on the event loop.

A process pool sized to the machine does the thinking, so a bot that thinks hard never slows
other channels' button presses. At most :attr:`Computer.capacity` games may have the bot
thinking at once; beyond that new games against the bot are refused politely. A game that
ends, is surrendered or aborted cancels its search (a running search's answer is dropped).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import UTC, datetime
from typing import Any, TypeVar

from bot.ai.worker import choose_move, evaluate, tie_to_parent
from bot.i18n import N_

from .table import Refusal, StaleBoard, Table
from .wari import WariService

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Seconds the searching levels think per move; the simple levels answer at once anyway.
THINKING_TIME = {"mcts": 1.0, "expert": 2.0}
#: Seconds before a failed computer move is tried again; the pause doubles up to the maximum.
RETRY_PAUSE, MAX_RETRY_PAUSE = 5, 300
#: Seconds between the moves of an exhibition that plays on its own.
EXHIBITION_PACE = 6


#: What to do with each move the computer plays on its own: show it. Given by whoever asks the
#: computer to think (:meth:`Computer.schedule`), which is what shows games: the computer itself
#: knows nothing above the service, and nobody has to tell it later whom to tell.
ShowMove = Callable[[Table], Awaitable[None]]


class Computer:
    """Plays the bot's moves in every channel where it is a player."""

    def __init__(
        self, service: WariService, workers: int | None = None, *, clock: Callable[[], datetime] | None = None
    ) -> None:
        #: Whose games it plays: their moves, the live table of a channel, its games to resume.
        self.service = service
        #: The time of a move (the caller's clock: Discord's, which a simulated Discord may run).
        self.clock = clock or (lambda: datetime.now(UTC))
        self.workers = workers or max(1, os.cpu_count() or 1)
        self.pool = self._new_pool()
        self.capacity = 4 * self.workers
        #: Work that can wait (analyses) uses all workers but one, so a move never waits behind it
        #: for more than the one position a worker is on (on a one-core machine, it shares the one).
        self._background = asyncio.Semaphore(max(1, self.workers - 1))
        self.tasks: dict[int, asyncio.Task] = {}

    def check_capacity(self, channel_id: int) -> None:
        """Refuse a new game against the bot when too many searches are under way."""
        if len(self.tasks) >= self.capacity and channel_id not in self.tasks:
            raise Refusal(N_("I'm thinking in too many games right now. Try again in a minute, or challenge a friend!"))

    def schedule(self, table: Table, show: ShowMove) -> None:
        """Start thinking if it is the bot's turn against a person (and it is not thinking already);
        each move it then plays is handed to ``show``.

        A task already running for the channel re-reads the game after each move, so a turn
        that comes up while it finishes is not lost.
        """
        channel_id = table.row.channel_id
        if table.computer_to_move and not table.paced_by_button and channel_id not in self.tasks:
            self._start(channel_id, self._play_turns(channel_id, table.row.id, show))

    async def play_one(self, table: Table) -> Table | None:
        """One move of an exhibition; ``None`` if the game ended or moved on meanwhile."""
        if table.row.channel_id in self.tasks:
            raise Refusal(N_("I'm already thinking about the next move. Watch the board!"))
        try:
            return await self._start(table.row.channel_id, self._move(table))
        except asyncio.CancelledError:
            current = asyncio.current_task()
            assert current is not None  # a coroutine runs in a task
            if current.cancelling():
                raise
            return None  # the exhibition was aborted: its search was cancelled

    def _start(self, channel_id: int, work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        task = asyncio.get_running_loop().create_task(work, name=f"wari-computer-{channel_id}")
        self.tasks[channel_id] = task
        task.add_done_callback(
            lambda _: self.tasks.pop(channel_id, None) if self.tasks.get(channel_id) is task else None
        )
        return task

    def cancel(self, channel_id: int) -> None:
        """Stop thinking in a channel (its game ended); the computer's own task just stops by itself."""
        task = self.tasks.get(channel_id)
        if task is not None and task is not asyncio.current_task():
            self.tasks.pop(channel_id)
            task.cancel()

    async def _move(self, table: Table) -> Table | None:
        """Search in a worker process, then play the move found (if the game is still there)."""
        mover = table.game.to_move
        if mover is None:
            return None  # the game is over: no move to play
        level = table.level(mover) or "mcts"
        seed = table.row.id * 1000 + table.game.ply
        house = await self._search(level, table.row.record, THINKING_TIME.get(level, 0.0), seed)
        try:
            table, _move = await self.service.games.computer_move(
                channel_id=table.row.channel_id,
                game_id=table.row.id,
                ply=table.game.ply,
                house=house,
                now=self.clock(),
            )
        except StaleBoard:
            return None  # surrendered, aborted or otherwise moved on
        return table

    async def judge_draw(self, table: Table, computer_id: int) -> tuple[bool, float]:
        """Whether the computer (the user ``computer_id`` in ``table``) accepts a draw, and its
        evaluation from its point of view: it accepts unless it thinks it is ahead."""
        side = table.player(computer_id)
        score = await self.in_worker(evaluate, table.row.record, table.row.id)
        mine = score if table.game.to_move == side else -score
        return mine <= 0, mine

    async def _search(self, level: str, record_text: str, seconds: float, seed: int) -> int:
        return await self.in_worker(choose_move, level, record_text, seconds, seed)

    async def in_worker(self, function: Callable[..., T], *args: object) -> T:
        """``function(*args)`` in a worker process; a dead pool is replaced once."""
        for attempt in (1, 2):
            future: Future[T] = self.pool.submit(function, *args)
            try:
                return await asyncio.wrap_future(future)
            except asyncio.CancelledError:
                future.cancel()  # a queued search never starts; a running one is ignored
                raise
            except BrokenProcessPool:
                if attempt == 2:
                    raise
                log.error("a search worker died; starting a new process pool")
                self.pool = self._new_pool()
        raise AssertionError("unreachable")

    async def in_background(self, function: Callable[..., T], *args: object) -> T:
        """``function(*args)`` in a worker, as work that can wait: see :attr:`_background`."""
        async with self._background:
            return await self.in_worker(function, *args)

    def _new_pool(self) -> ProcessPoolExecutor:
        # "spawn": a fresh interpreter per worker, not a fork of a process with threads; each
        # worker dies with the bot, even one killed with -9 before the worker ever searched.
        return ProcessPoolExecutor(
            self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=tie_to_parent
        )

    async def _play_turns(self, channel_id: int, game_id: int, show: ShowMove) -> None:
        """Think and move while it is the bot's turn; retry after failures, with a growing pause."""
        pause = RETRY_PAUSE
        while True:
            try:
                table = await self.service.tables.table(channel_id, game_id=game_id)
                if table is None or not table.computer_to_move:
                    return
                if table.exhibition and table.game.ply:
                    await asyncio.sleep(EXHIBITION_PACE)  # let the watchers follow each move
                moved = await self._move(table)
                if moved is not None:
                    await show(moved)
                pause = RETRY_PAUSE
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the computer could not move in game %s; trying again in %d s", game_id, pause)
                await asyncio.sleep(pause)
                pause = min(2 * pause, MAX_RETRY_PAUSE)

    async def resume(self, show: ShowMove) -> None:
        """After a restart: think again where it is the bot's turn (not in button-paced
        exhibitions), handing each move to ``show``."""
        for table in await self.service.pings.computer_games():
            self.schedule(table, show)

    def stop_thinking(self) -> None:
        """Cancel every search under way (what shows the moves is going); the workers stay."""
        for task in list(self.tasks.values()):
            task.cancel()

    def close(self) -> None:
        """Stop thinking and end the worker processes: the bot is closing."""
        self.stop_thinking()
        self.pool.shutdown(wait=False, cancel_futures=True)
