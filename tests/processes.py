"""Running the bot as its own process, as a host does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_bot(database: Path, *prefix: str) -> subprocess.CompletedProcess:
    """``python -m bot`` with a fake token on ``database`` (behind ``prefix``, a command to run it with)."""
    environ = {
        **os.environ,
        "DISCORD_TOKEN": "MTIz.not-a-real-token",
        "DATABASE_PATH": str(database),
        "BACKUP_INTERVAL_HOURS": "0",
    }
    return subprocess.run(
        [*prefix, sys.executable, "-m", "bot"], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60
    )


def the_one_error_line(done: subprocess.CompletedProcess) -> str:
    """The bot stopped with exit code 1 and exactly one line on standard error, no traceback, no token."""
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "not-a-real-token" not in done.stderr + done.stdout
    (line,) = done.stderr.strip().splitlines()
    assert "ERROR" in line
    return line
