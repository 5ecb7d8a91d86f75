"""``python -m benchmarks.rest_calls``: the REST calls a move costs, with the ping rules and without."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_move_between_present_players_costs_its_answer_and_little_more():
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.rest_calls", "--moves", "8"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    rows = {
        name.strip(): (float(before), float(after))
        for name, before, after in re.findall(r"^(.+?) {2,}([\d.]+)\s+([\d.]+)\s+[\d.]+$", run.stdout, re.M)
    }
    assert set(rows) == {"5+3, present", "1d/move, present", "1d/move, away", "computer"}, run.stdout
    for name in ("5+3, present", "1d/move, present"):
        assert rows[name][0] == 3.0  # the baseline: answer, ping, deletion of the last ping
        assert rows[name][1] <= 1.2  # the answer, and once the ping of the game's start taken back
    assert rows["1d/move, away"] == (3.0, 3.0)  # a player who left is still called after every move
    assert rows["computer"][1] <= rows["computer"][0] / 1.5
