"""Search workers die with the bot: ``kill -9`` of a thinking bot leaves no process behind.

Each test runs a real parent in a subprocess, lets its workers start (and search), collects
every process under it from ``/proc``, kills the parent with SIGKILL and waits until none of
them is left (a zombie waiting for its new parent to reap it counts as gone). Killing more than
once: the bug this guards against was intermittent.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: The bot's own pool (bot.service.computer), both workers deep in a long expert search.
SEARCHING_BOT = """
from concurrent.futures import wait
from bot.ai.worker import choose_move
from bot.engine import Game
from bot.engine.notation import record
from bot.service.computer import Computer

computer = Computer(service=None, workers=2)
game = Game("wari")
for house in (1, 7, 2, 8):  # past the opening book, which would answer at once
    game.play(house)
text = record(game)
# Each search outlasts the test, so each worker takes one: both are searching when killed.
searches = [computer.pool.submit(choose_move, "expert", text, 600.0, seed) for seed in (1, 2)]
print("searching", flush=True)
wait(searches)
"""

#: A pool started with the worker's initializer: workers that have never run a search (idle,
#: or busy with something else) die too.
IDLE_POOL = """
import multiprocessing, time
from concurrent.futures import ProcessPoolExecutor
from bot.ai.worker import tie_to_parent

pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn"), initializer=tie_to_parent)
pool.submit(time.sleep, 600)  # busy, but not with a search
pool.submit(abs, 1).result()  # the other worker: done, and now waiting for work
print("waiting", flush=True)
time.sleep(600)
"""

#: Seconds allowed for everything to go once the parent is killed (it takes well under one).
GRACE = 10.0


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the command name (state first), or ``None``."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return text.rsplit(")", 1)[1].split()


def _identity(pid: int) -> tuple[int, str] | None:
    """The pid with its start time, so a reused pid is never taken for the same process."""
    fields = _stat(pid)
    return None if fields is None else (pid, fields[19])


def _alive(identity: tuple[int, str]) -> bool:
    fields = _stat(identity[0])
    return fields is not None and fields[19] == identity[1] and fields[0] not in ("Z", "X")


def _cpu_seconds(pid: int) -> float:
    fields = _stat(pid)
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _descendants(root: int) -> list[int]:
    """Every process below ``root``, found by scanning ``/proc`` for parent pids."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None:
                parents[int(entry.name)] = int(fields[1])
    found, frontier = [], [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        found += children
        frontier += children
    return found


def _is_resource_tracker(pid: int) -> bool:
    try:
        return b"resource_tracker" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def _wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting until {what}")
        time.sleep(0.05)


def _kill_and_check(program: str, ready_line: str, ready) -> None:
    """Run ``program``; once it prints ``ready_line`` and ``ready(workers)`` holds, SIGKILL it
    and assert that every process it started is gone within :data:`GRACE` seconds."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    parent = subprocess.Popen(
        [sys.executable, "-c", program], cwd=ROOT, env=environment, stdout=subprocess.PIPE, text=True
    )
    stdout = parent.stdout
    assert stdout is not None  # started with stdout=PIPE
    processes: list[tuple[int, str]] = []
    try:
        assert stdout.readline().strip() == ready_line
        workers: list[int] = []

        def started() -> bool:
            workers[:] = [pid for pid in _descendants(parent.pid) if not _is_resource_tracker(pid)]
            return len(workers) == 2 and ready(workers)

        _wait_for(started, 60, "both workers are under way")
        processes = [identity for identity in map(_identity, _descendants(parent.pid)) if identity is not None]
        trackers = [pid for pid, _ in processes if _is_resource_tracker(pid)]
        assert len(trackers) == 1 and len(processes) == 3, processes  # two workers and the tracker

        parent.send_signal(signal.SIGKILL)
        parent.wait(5)
        try:
            _wait_for(lambda: not any(map(_alive, processes)), GRACE, "every worker and the resource tracker are gone")
        except AssertionError:
            left = [identity[0] for identity in processes if _alive(identity)]
            raise AssertionError(
                f"still running {GRACE} s after the parent was killed: {left} of {processes}"
            ) from None
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        stdout.close()
        for identity in processes:  # a failure must not leave 10-minute searches running
            if _alive(identity):
                os.kill(identity[0], signal.SIGKILL)


def _searching(workers: list[int]) -> bool:
    # A spawned worker starts in about 0.05 s of CPU; half a second means it is searching.
    return all(_cpu_seconds(pid) >= 0.5 for pid in workers)


@pytest.mark.parametrize("attempt", range(5))
def test_killing_a_thinking_bot_leaves_no_worker_and_no_resource_tracker(attempt):
    _kill_and_check(SEARCHING_BOT, "searching", _searching)


@pytest.mark.parametrize("attempt", range(3))
def test_workers_started_with_the_initializer_die_even_before_their_first_search(attempt):
    _kill_and_check(IDLE_POOL, "waiting", lambda workers: True)


def test_outside_a_worker_process_nothing_is_tied():
    from bot.ai import worker

    worker.tie_to_parent()
    assert worker._watchdog is None  # the test process is no multiprocessing child
