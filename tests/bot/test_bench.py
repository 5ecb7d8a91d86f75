"""``python -m bot.bench`` runs the real bot through SimCord to the end and reports its figures."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_benchmark_plays_its_games_to_the_end():
    run = subprocess.run(
        [sys.executable, "-m", "bot.bench", "--games", "2"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "presses/s" in run.stdout
