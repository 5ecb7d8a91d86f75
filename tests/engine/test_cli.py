"""``python -m bot.engine``: run as a real subprocess, as other tools will drive it."""

import json
import subprocess
import sys


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot.engine", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_perft_prints_one_line_per_depth():
    done = run("perft", "--variant", "oware", "--depth", "6")
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()]
    assert [(int(d), int(n)) for d, n, _ in rows] == list(
        zip(range(1, 7), [6, 36, 190, 1014, 5219, 27332])
    )
    assert all(seconds.endswith("s") for *_, seconds in rows)


def test_perft_refuses_a_bad_variant_without_a_traceback():
    done = run("perft", "--variant", "chess", "--depth", "2")
    assert done.returncode == 2 and "invalid choice" in done.stderr and "Traceback" not in done.stderr


def test_replay_writes_one_state_per_prefix_and_stops_at_an_illegal_move():
    games = [
        {"variant": "wari", "first": "A", "moves": [5, 7, 2, 12]},
        {"variant": "oware", "first": "B", "moves": [7, 1, 7]},
        "not json",
        {"variant": []},
        {"variant": "wari", "houses": 6.0},
        {"variant": "kalah", "houses": 1, "seeds": 1, "moves": [1]},
    ]
    stdin = "\n".join(g if isinstance(g, str) else json.dumps(g) for g in games) + "\n"
    done = run("replay", stdin=stdin)
    assert done.returncode == 0, done.stderr
    first, second, bad, bad_type, bad_number, kalah = (json.loads(line) for line in done.stdout.splitlines())
    assert bad_type["error"].startswith("unknown variant []") and bad_number["at"] is None
    assert len(first["states"]) == 5
    assert first["states"][-1] == {
        "pits": [5, 1, 6, 6, 0, 6, 0, 6, 6, 5, 5, 0], "stores": [0, 2], "to_move": "A",
        "legal": [1, 2, 3, 4, 6], "over": False, "result": None, "reason": None,
    }
    assert second["states"][0]["to_move"] == "B"
    assert second["states"][-1] == {"error": "house 7 is empty", "at": 2}
    assert "error" in bad
    assert kalah["states"][-1] == {
        "pits": [0, 0], "stores": [1, 1], "to_move": None, "legal": [],
        "over": True, "result": "draw", "reason": "no_legal_move",
    }


def test_replay_handles_thousands_of_games():
    stdin = (json.dumps({"variant": "oware", "moves": [1, 7, 2, 8, 3, 9]}) + "\n") * 3000
    done = run("replay", stdin=stdin)
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 3000


def test_bench_reports_positions_per_second():
    done = run("bench", "--depth", "4")
    assert done.returncode == 0, done.stderr
    assert "positions/s" in done.stdout and "moves/s" in done.stdout
