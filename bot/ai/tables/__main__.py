"""``python -m bot.ai.tables build --seeds N``: build the endgame tables (see :mod:`bot.ai.tables`)."""

from __future__ import annotations

import argparse
import ctypes
import os
import signal
import sys
from pathlib import Path

from bot.engine.core import _core

from . import DEFAULT_DIR, VARIANTS, build, tables_dir


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.tables", description="Endgame tables for the expert.")
    commands = parser.add_subparsers(dest="command", required=True)
    b = commands.add_parser("build", help="solve every position with at most --seeds seeds on board")
    b.add_argument(
        "--seeds",
        type=int,
        required=True,
        help="seeds on board, 0..24 (12 takes about 30 s a variant, 14 about 3 minutes and 1 GB)",
    )
    b.add_argument("--variant", action="append", choices=VARIANTS, help="one variant (repeatable); all by default")
    b.add_argument("--dir", type=Path, default=None, help=f"where to write (default {DEFAULT_DIR}, or $WARI_TABLES)")
    b.add_argument("--nice", type=int, default=0, help="lower this process's CPU priority by this much (0..19)")
    b.add_argument("--parent", type=int, default=None, metavar="PID", help="stop when process PID (the parent) stops")
    args = parser.parse_args(argv)
    if args.parent is not None:
        die_with_parent(args.parent)
    if args.nice:
        os.nice(args.nice)
    if not 0 <= args.seeds <= 24:
        parser.error("--seeds must be 0..24")
    if _core is None:
        print(
            "python -m bot.ai.tables: the compiled core was not built (pip install -e . with a C compiler)",
            file=sys.stderr,
        )
        return 1
    for variant in args.variant or VARIANTS:
        build(variant, args.seeds, args.dir or tables_dir())
    return 0


def die_with_parent(parent: int) -> None:
    """Be killed when the parent process ends, however it ends (``kill -9`` included): the bot
    starts this build in the background and must not leave it running behind it.

    Linux's ``PR_SET_PDEATHSIG`` fires when the thread that started the child ends; the bot starts
    it from its event loop's thread, which lives as long as the bot. A ``parent`` gone before the
    call is seen at once: this process was handed to another."""
    if sys.platform == "linux":
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        sys.exit(1)


if __name__ == "__main__":
    sys.exit(main())
