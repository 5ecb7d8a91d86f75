"""Endgame tables the bot gets by itself: built in the background on a start that finds none.

Every real game would otherwise be played without them, since a table exists only once someone
builds it. At start-up the bot (``TABLE_SEEDS``, 15 by default) looks for a table of at least that
many seeds for each variant that has tables, and builds the missing ones one variant at a time, in
a child process at the lowest CPU priority (``nice 19``), so that the bot's own searches and its
event loop go first. The child's progress lines go to the bot's log. Each file is written whole
and then renamed into place (:func:`bot.ai.tables.build`); the expert and the analyses use it from
their next search on, in every worker process, with no restart (:meth:`Table.for_variant` looks at
the folder each time). A bot that stops, or is killed, takes the child with it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path

from bot.engine.core import _core

from . import VARIANTS, largest_on_disk, tables_dir

log = logging.getLogger(__name__)

#: The CPU priority of the build (the lowest).
NICENESS = 19


def missing(seeds: int, folder: Path | None = None) -> list[str]:
    """The variants without a table of at least ``seeds`` seeds in ``folder`` (default: the tables')."""
    folder = folder or tables_dir()
    return [variant for variant in VARIANTS if (largest_on_disk(variant, folder) or -1) < seeds]


class TableBuilder:
    """Builds the missing tables in a low-priority child process, one variant after another."""

    def __init__(self, seeds: int, folder: Path | None = None) -> None:
        self.seeds = seeds
        self.folder = folder or tables_dir()
        self.task: asyncio.Task | None = None
        self.process: asyncio.subprocess.Process | None = None

    def start(self) -> asyncio.Task | None:
        """Start building what is missing (``None``: nothing to build, or no compiled core)."""
        if _core is None:
            log.info("endgame tables: the compiled core was not built, so the expert searches without them")
            return None
        todo = missing(self.seeds, self.folder)
        if not todo:
            return None
        log.info(
            "endgame tables: building %s up to %d seeds in %s, in the background",
            ", ".join(todo),
            self.seeds,
            self.folder,
        )
        self.task = asyncio.get_running_loop().create_task(self.run(todo), name="wari-endgame-tables")
        return self.task

    async def run(self, variants: list[str]) -> None:
        for variant in variants:
            if not await self._build(variant):
                return  # the next start tries again

    async def _build(self, variant: str) -> bool:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.ai.tables",
            "build",
            "--seeds",
            str(self.seeds),
            "--variant",
            variant,
            "--dir",
            str(self.folder),
            "--nice",
            str(NICENESS),
            "--parent",
            str(os.getpid()),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        assert self.process.stdout is not None
        async for line in self.process.stdout:
            log.info("endgame tables: %s", line.decode(errors="replace").strip())
        status = await self.process.wait()
        if status != 0:
            log.warning("endgame tables: building %s stopped (exit status %d)", variant, status)
        return status == 0

    async def stop(self) -> None:
        """Stop a build under way (its partial file is left behind and ignored)."""
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
