"""Analyses of finished games: asking for one, running it position by position, keeping it.

An analysis judges every position of a game in the computer's worker processes, one position a
call (:func:`bot.ai.worker.analyse_position`), as work that can wait (:meth:`Computer.in_background`):
the bot's own moves in live games never queue behind a whole analysis, at most behind the one
position a worker is on. Analyses run one after another in the order they were asked, so a
queued one waits its turn rather than slowing those ahead of it. Its progress is stored as it
goes and the result once done, so asking again is instant; after a restart, those not done start
again from their first position (:meth:`AnalysisService.unfinished`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import datetime

from bot.ai.analysis import GameAnalysis, assemble
from bot.ai.analysis.judge import sowing_count
from bot.ai.worker import analyse_position
from bot.engine.notation import from_record
from bot.i18n import N_
from bot.storage import AnalysisRow, GameRow, Queued, Store

from .computer import Computer
from .table import Refusal

log = logging.getLogger(__name__)

#: Analyses queued or running at once for the whole bot; beyond it, asking is refused politely.
MOST_QUEUED = 8
#: Seconds between two notes of an analysis's progress (stored, and shown by whoever watches).
PROGRESS_EVERY = 2.0
#: How one analysis's progress is shown: called with the analysis, positions judged and in all.
Watcher = Callable[[AnalysisRow, int, int], Awaitable[None]]


class AnalysisService:
    """Asks for analyses, runs them in the computer's workers and stores them."""

    def __init__(self, store: Store, computer: Computer, *, clock: Callable[[], datetime]) -> None:
        self._store = store
        self.computer = computer
        self.clock = clock
        #: One analysis runs at a time per worker the moves leave free; the others wait in order.
        self.concurrent = max(1, computer.workers - 1)
        self._turns = asyncio.Semaphore(self.concurrent)

    async def request(self, game: GameRow, user_id: int, depth: str) -> Queued:
        """Ask for the analysis of ``game`` at ``depth``: queued, or why not (:class:`Queued`).

        :raises Refusal: the game is still being played, or has no move to analyse.
        """
        if game.live:
            raise Refusal(
                N_("Game #{number} is still being played: it can be analysed once it is over."), number=game.id
            )
        replayed, _tags = from_record(game.record)
        total = sowing_count(replayed)
        if total == 0:
            raise Refusal(N_("Game #{number} has no moves to analyse."), number=game.id)
        deeper = await self._store.analyses.finished_analysis(game.id)
        if deeper is not None and deeper.depth in (depth, "default"):
            return Queued(deeper, "done")  # a full analysis answers a quick question too
        return await self._store.analyses.request_analysis(
            game_id=game.id,
            depth=depth,
            requested_by=user_id,
            guild_id=game.guild_id,
            total_plies=total,
            now=self.clock(),
            most=MOST_QUEUED,
        )

    async def ahead_of(self, row: AnalysisRow) -> int:
        """How many analyses must end before ``row`` can start (0: it starts now)."""
        older = [other for other in await self._store.analyses.unfinished_analyses() if _before(other, row)]
        return max(0, len(older) - self.concurrent + 1)

    async def run(self, row: AnalysisRow, watch: Watcher) -> GameAnalysis | None:
        """Run ``row`` when its turn comes; store and return its result (``None`` if it failed:
        the analysis is then marked failed, and may be asked again)."""
        async with self._turns:
            try:
                analysis = await self._judge_every_position(row, watch)
            except asyncio.CancelledError:
                raise  # the bot is stopping: the analysis stays unfinished, to start again
            except Exception:
                log.exception("the analysis of game %s (%s) failed", row.game_id, row.depth)
                await self._store.analyses.end_analysis(row.game_id, row.depth, None, self.clock())
                return None
            await self._store.analyses.end_analysis(row.game_id, row.depth, analysis.to_json(), self.clock())
            return analysis

    async def _judge_every_position(self, row: AnalysisRow, watch: Watcher) -> GameAnalysis:
        game = await self._store.games.get_game(row.game_id)
        if game is None:
            raise LookupError(f"game {row.game_id} is gone")
        total = row.total_plies
        judgements: list[dict] = []
        shown = 0.0
        for ply in range(total + 1):
            judgements.append(await self.computer.in_background(analyse_position, game.record, ply, row.depth))
            if time.monotonic() - shown >= PROGRESS_EVERY and ply < total:
                shown = time.monotonic()
                await self._store.analyses.analysis_progress(row.game_id, row.depth, ply + 1, self.clock())
                await _quietly(watch(row, ply + 1, total + 1))
        return assemble(game.record, judgements)

    async def set_message(self, row: AnalysisRow, channel_id: int, message_id: int | None) -> None:
        """Where ``row`` shows itself: the message its progress edits, and its result; after a
        restart the analysis starts again on it."""
        await self._store.analyses.set_analysis_message(row.game_id, row.depth, channel_id, message_id)

    async def game_of(self, row: AnalysisRow) -> GameRow | None:
        """The game ``row`` analyses (``None`` if it is gone)."""
        return await self._store.games.get_game(row.game_id)

    async def finished(self, game_id: int) -> GameAnalysis | None:
        """The game's analysis, if one is done (the deeper one if both are)."""
        row = await self._store.analyses.finished_analysis(game_id)
        return GameAnalysis.from_json(row.result) if row is not None and row.result else None

    async def unfinished(self) -> list[AnalysisRow]:
        """The analyses a restart left queued or running, oldest first."""
        return await self._store.analyses.unfinished_analyses()


def _before(other: AnalysisRow, row: AnalysisRow) -> bool:
    return (other.created_at, other.game_id) < (row.created_at, row.game_id)


async def _quietly(showing: Awaitable[None]) -> None:
    """Show progress; a failure to show it must not stop the analysis (the end is shown again)."""
    try:
        await showing
    except Exception:
        log.warning("could not show an analysis's progress", exc_info=True)
