"""``python -m benchmarks.tournament`` runs at a small size and prints every figure."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_benchmark_prints_its_figures():
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.tournament"]
        + ["--players", "30", "--sizes", "12", "--limit", "120", "--standings", "20", "--rounds", "5"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    number = r"\d+\.\d+"
    for figure in (
        rf"^Swiss round 1, 30 players: {number} s \(15 boards\)$",
        rf"^Swiss round 4 of 5, 12 players, as shipped \(dutch\): {number} s$",
        rf"^Swiss round 4 of 5, 12 players, FIDE Dutch: {number} s$",
        rf"^Swiss round 4 of 5, 30 players, as shipped \(dutch\): {number} s$",
        rf"^standings, 20 players after 5 rounds: {number} ms$",
        rf"^crosstable, the same: {number} ms$",
        rf"^TRF16 report, the same: {number} ms$",
        rf"^arena wave, 30 free: {number} ms \(15 games\)$",
    ):
        assert re.search(figure, run.stdout, re.M), (figure, run.stdout)
