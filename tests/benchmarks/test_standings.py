"""``python -m benchmarks.standings`` times the standings commands on a written archive."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_standings_benchmark_times_every_command_round_after_round_without_being_told_to_slow_down():
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.standings", "--games", "2000", "--players", "100", "--rounds", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr  # a refusal (a cooldown) is an answer without its embed
    assert re.search(r"^archive: 2000 finished games, 100 players; migration 4 rated them in", run.stdout, re.M)
    timed = re.findall(r"^(.+?) +p50 +[\d.]+ ms  p99 +[\d.]+ ms  \([\d.]+x the baseline\)$", run.stdout, re.M)
    assert timed == ["rules (baseline)", "leaderboard (server)", "leaderboard (everyone)", "stats"], run.stdout
