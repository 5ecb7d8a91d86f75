"""``python -m benchmarks.arena_flood`` runs an arena through SimCord and prints what it posted."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_flood_benchmark_counts_an_arenas_messages_threads_and_notifications():
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.arena_flood", "--players", "4", "--minutes", "5"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    # the players pressed on their boards (none, if the benchmark cannot find the cups on them)
    assert re.search(r"^games played: [1-9]\d* \([1-9]\d* presses\)$", run.stdout, re.M), run.stdout
    assert re.search(r"^messages in the channel: \d+ \(\d+ of them Discord's thread notes\)$", run.stdout, re.M)
    assert re.search(r"^threads opened: 1$", run.stdout, re.M), run.stdout  # one for the event
    assert re.search(r"^most notifications beyond one per game: 0$", run.stdout, re.M), run.stdout
