"""``python -m benchmarks.analysis_priority`` times the bot's moves on an idle pool, beside the
analyses as shipped, and beside analyses not held back; it prints the three."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_benchmark_times_the_moves_in_the_three_cases():
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.analysis_priority", "--moves", "3", "--analyses", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    found = re.findall(r"^(.+?) +answer p50 +(\d+) ms, worst +(\d+) ms \(([\d.]+)x idle p50\)$", run.stdout, re.M)
    assert [name for name, *_ in found] == ["idle pool", "analyses as shipped", "analyses not held back"], run.stdout
    for _name, p50, worst, _ratio in found:
        assert 200 <= int(p50) <= int(worst)  # each move thought its 0.25 s, give or take the clock
    assert found[0][3] == "1.00"
