"""The bot gets its endgame tables by itself: a start without them builds them in the background,
at low priority, its progress in the log, and the expert uses each as soon as it is written."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.ai.tables import Table, largest_on_disk
from bot.ai.tables.background import TableBuilder, missing

pytestmark = pytest.mark.compiled_core  # the tables are built by the compiled core
VARIANTS = ["wari", "oware", "awari", "ouril"]


async def test_a_start_without_tables_builds_them_and_the_expert_uses_them_at_once(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("WARI_TABLES", str(tmp_path))
    assert missing(4) == VARIANTS and Table.for_variant("oware") is None
    caplog.set_level(logging.INFO, logger="bot.ai.tables.background")
    builder = TableBuilder(4)
    task = builder.start()
    assert task is not None
    await asyncio.wait_for(task, 120)
    assert missing(4) == [] and [largest_on_disk(v, tmp_path) for v in VARIANTS] == [4, 4, 4, 4]
    assert not list(tmp_path.glob("*.part"))  # every file written whole, then renamed
    table = Table.for_variant("oware")  # seen without a restart: the folder is looked at again
    assert table is not None and table.seeds == 4
    said = [record.getMessage() for record in caplog.records]
    assert (
        said[0] == f"endgame tables: building wari, oware, awari, ouril up to 4 seeds in {tmp_path}, in the background"
    )
    assert any(line.startswith("endgame tables: oware  4 seeds:") and "% exact" in line for line in said)
    # The next start finds them: nothing to build.
    assert TableBuilder(4).start() is None
    # Larger ones asked for are built beside them, and preferred.
    again = TableBuilder(5).start()
    assert again is not None
    await asyncio.wait_for(again, 120)
    table = Table.for_variant("oware")
    assert table is not None and table.seeds == 5


def test_the_build_runs_at_the_lowest_priority_and_dies_with_the_bot(tmp_path):
    """A build started by a process that is then killed with -9 stops too (nothing left behind)."""
    starter = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import subprocess, sys, time\n"
            "child = subprocess.Popen([sys.executable, '-m', 'bot.ai.tables', 'build', '--seeds', '16', '--variant',"
            f" 'oware', '--dir', {str(tmp_path)!r}, '--nice', '19', '--parent', str(__import__('os').getpid())])\n"
            "print(child.pid, flush=True)\n"
            "time.sleep(600)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert starter.stdout is not None
    child = int(starter.stdout.readline())
    time.sleep(1.0)
    assert os.getpriority(os.PRIO_PROCESS, child) == 19
    starter.send_signal(signal.SIGKILL)
    starter.wait()
    for _ in range(100):
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        if Path(f"/proc/{child}/stat").read_text().split()[2] == "Z":
            break  # gone, only waiting for its new parent to read its status
        time.sleep(0.1)
    else:
        os.kill(child, signal.SIGKILL)
        pytest.fail("the build outlived the process that started it")
