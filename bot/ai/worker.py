"""The entry point a worker process runs: one computer move for a stored game.

Everything crosses the process boundary as text (the game record), so the worker needs
nothing from the parent but this module.

A worker dies with the process that started it (see :func:`tie_to_parent`): a bot killed
with ``kill -9`` while the computer thinks leaves no search running behind it.
"""

from __future__ import annotations

import multiprocessing
import os
import threading

from bot.engine.notation import from_record

from . import make_player
from .expert import ExpertPlayer

#: Nodes the expert searches to judge a position: a fixed amount, so the same position always
#: gets the same answer (about half a second).
JUDGING_NODES = 20_000

#: The exit status of a worker that outlived the process that started it.
ORPHANED = 70

_watchdog: threading.Thread | None = None
_watchdog_lock = threading.Lock()


def tie_to_parent() -> None:
    """Make this process exit at once when the process that started it is gone; called again,
    or outside a multiprocessing child, it does nothing.

    Give it to the pool as its ``initializer``, so that a worker that has not had any work yet
    is covered too; :func:`choose_move` and :func:`evaluate` call it as well, for a pool
    started without it.

    Why this is needed: a worker of a ``ProcessPoolExecutor`` waits for work on a pipe whose
    write end every worker holds too, so a parent killed with ``kill -9`` never gives them
    end-of-file: each finishes its search and then waits forever. Multiprocessing's resource
    tracker lingers with them: it exits when the last holder of its pipe does, and every
    spawned worker is handed that pipe. So it is enough that the workers go.

    How: multiprocessing gives each child a *sentinel*, the read end of a pipe whose write end
    only the parent holds (``multiprocessing.parent_process().sentinel``); the kernel closes it
    when the parent dies, however it dies, and the sentinel then reads as ready for good. A
    daemon thread waits on it (blocked in the kernel, no polling, the GIL released) and ends
    the process with ``os._exit``. A parent already dead before this runs is seen at once:
    its sentinel is already ready.

    Not ``prctl(PR_SET_PDEATHSIG)``: that signal fires when the *thread* that started the
    child ends, and the pool starts workers from whichever thread submits work, so a worker
    could be killed under a live bot. Not polling ``os.getppid()`` either: with the forkserver
    start method the kernel parent is not the multiprocessing parent, and polling has a delay.
    """
    global _watchdog
    parent = multiprocessing.parent_process()
    if parent is None:
        return  # not a multiprocessing child (the terminal game, tests): nothing to outlive
    with _watchdog_lock:
        if _watchdog is not None:
            return
        _watchdog = threading.Thread(target=_exit_with, args=(parent,), name="wari-parent-watch", daemon=True)
        _watchdog.start()


def _exit_with(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()  # returns once the parent's end of the sentinel pipe is closed: it is gone
    os._exit(ORPHANED)  # at once, from this thread, whatever the main thread is doing


def choose_move(level: str, record_text: str, seconds: float, seed: int) -> int:
    """The house ``level`` plays in the game ``record_text`` describes."""
    tie_to_parent()  # in case the pool was started without it as its initializer
    game, _ = from_record(record_text)
    return make_player(level, seed).choose(game, seconds).house


def evaluate(record_text: str, seed: int) -> float:
    """The expert's evaluation of the game ``record_text`` describes, for the player to move
    (about 4 per seed ahead), from a search of :data:`JUDGING_NODES` nodes."""
    tie_to_parent()
    game, _ = from_record(record_text)
    return ExpertPlayer(seed, max_nodes=JUDGING_NODES).choose(game, seconds=60).score


def analyse_position(record_text: str, ply: int, depth: str) -> dict:
    """The engine's judgement of the position after the first ``ply`` moves of the game
    ``record_text`` describes, at the analysis ``depth`` (``"default"`` or ``"quick"``): a dict
    of :class:`bot.ai.analysis.PositionJudgement`, for :func:`bot.ai.analysis.assemble`."""
    from .analysis import judge_position  # imported here: a worker that only plays never loads it

    tie_to_parent()
    return judge_position(record_text, ply, depth)
