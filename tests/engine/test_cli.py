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
        zip(range(1, 7), [6, 36, 190, 1014, 5219, 27332], strict=True)
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
        "pits": [5, 1, 6, 6, 0, 6, 0, 6, 6, 5, 5, 0],
        "stores": [0, 2],
        "to_move": "A",
        "legal": [1, 2, 3, 4, 6],
        "over": False,
        "result": None,
        "reason": None,
    }
    assert second["states"][0]["to_move"] == "B"
    assert second["states"][-1] == {"error": "house 7 is empty", "at": 2}
    assert "error" in bad
    assert kalah["states"][-1] == {
        "pits": [0, 0],
        "stores": [1, 1],
        "to_move": None,
        "legal": [],
        "over": True,
        "result": "draw",
        "reason": "no_legal_move",
    }


def test_replay_handles_thousands_of_games():
    stdin = (json.dumps({"variant": "oware", "moves": [1, 7, 2, 8, 3, 9]}) + "\n") * 3000
    done = run("replay", stdin=stdin)
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 3000


def test_bench_reports_positions_per_second():
    done = run("bench", "--depth", "4", "--search", "0.1")
    assert done.returncode == 0, done.stderr
    assert "positions/s" in done.stdout and "nodes/s" in done.stdout and "moves/s" in done.stdout
    assert " compiled " in done.stdout or " python " in done.stdout


# -- game records (wari-record/1) -------------------------------------------------------------


def finished_game(variant: str = "oware", seed: int = 7):
    import random

    from bot.engine import Game

    game, rng = Game(variant, "B"), random.Random(seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves))
    return game


def test_replay_reads_a_record_from_stdin_and_prints_its_final_position_and_result():
    from bot.engine.notation import position, record

    game = finished_game()
    text = record(game, "Ama", "Kofi", tags={"Event": "Wari for Discord", "Game": "12", "Clock": "-"})
    done = run("replay", stdin=text)
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()
    assert json.loads(line) == {
        "variant": "oware",
        "plies": game.ply,
        "position": position(game),
        "result": game.outcome.result,
        "reason": game.outcome.termination.value,
        "players": ["Ama", "Kofi"],
    }


def test_replay_reads_records_from_a_file_several_at_once_and_says_which_is_wrong(tmp_path):
    from bot.engine import Game
    from bot.engine.notation import from_position, position, record

    first = finished_game("wari", 3)
    second = from_position("w1 kalah/4x3 3,3,3,3,3,3,3,3 0:0 B")
    second.play(5)
    second.time_out()
    broken = record(Game("wari")).replace("\n\n", "\n\nA(5,4) A(6,4)\n")
    path = tmp_path / "games.txt"
    path.write_text("\ufeff" + record(first) + "\n" + record(second, "x", "y") + broken, encoding="utf-8")
    done = run("replay", str(path))
    assert done.returncode == 0, done.stderr
    one, two, three = (json.loads(line) for line in done.stdout.splitlines())
    assert one["position"] == position(first) and one["result"] == first.outcome.result
    assert two == {
        "variant": "kalah/4x3",
        "plies": 2,
        "position": position(second),
        "result": "B",
        "reason": "time",
        "players": ["x", "y"],
    }
    assert three == {"error": "move 2: A(6,4) but it is B's turn", "at": None}


def test_replay_of_a_file_that_is_not_there_says_so():
    done = run("replay", "/no/such/record.txt")
    assert done.returncode == 1 and done.stdout == ""
    assert "cannot read /no/such/record.txt" in done.stderr and "Traceback" not in done.stderr


def test_replay_of_json_from_a_file_still_answers_json(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps({"variant": "wari", "moves": [5, 7, 2, 12]}) + "\n")
    done = run("replay", str(path))
    (answer,) = (json.loads(line) for line in done.stdout.splitlines())
    assert answer["states"][-1]["stores"] == [0, 2]
