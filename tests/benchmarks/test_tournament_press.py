"""``python -m benchmarks.tournament_press`` runs both sides and prints their ratio."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_press_benchmark_plays_inside_and_outside_a_tournament():
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.tournament_press", "--games", "3", "--presses", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.search(r"^outside +6 presses: p50 [\d.]+ ms", run.stdout, re.M), run.stdout
    assert re.search(r"^tournament +6 presses: p50 [\d.]+ ms", run.stdout, re.M), run.stdout
    assert re.search(r"^tournament / outside: p50 [\d.]+x, p99 [\d.]+x$", run.stdout, re.M), run.stdout
