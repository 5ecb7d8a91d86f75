"""``python -m benchmarks.search_speed`` times the compiled search with each evaluation on the
same positions, against the hand-set one."""

import json
import re

import pytest

from benchmarks import search_speed
from bot.ai.expert import NAMED


@pytest.mark.compiled_core  # it measures the compiled search
def test_each_weights_file_is_timed_against_the_hand_set_evaluation(tmp_path, capsys):
    before = tmp_path / "before.json"
    named = [3.5, -0.125, 6.5, 2.0, -0.5, 7.5, -2.5, 0.25, -1.0, 0.25]
    before.write_text(json.dumps({"features": list(NAMED), "default": "tuned", "tuned": {"wari": named}}))
    search_speed.main([str(before), "--variant", "wari", "--positions", "3", "--nodes", "5000", "--rounds", "1"])
    out = capsys.readouterr().out
    assert out.startswith("wari: 3 positions, 5,000 nodes each, 1 rounds\n")
    rates = re.findall(
        r"^(.+): ([\d.]+) million nodes a second \(([\d,]+) nodes in [\d.]+s\), ([\d.]+) x the hand-set$", out, re.M
    )
    assert [name for name, *_ in rates] == ["hand-set", str(before)]
    assert rates[0][3] == "1.00" and float(rates[1][1]) > 0
    # a node budget: each evaluation searched (about) the same work, at most the budget a position
    assert all(int(nodes.replace(",", "")) <= 3 * 5000 + 3 * 1024 for _name, _rate, nodes, _ratio in rates)
