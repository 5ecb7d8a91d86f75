"""The shipped puzzles: they load, their positions and lines are legal, a sample still holds under a
deeper search than the generator's screening (and under small endgame tables), and the helpers the
Discord side calls (check, refutation, pick, daily) behave."""

import io
import random
import subprocess
import sys
import time
from collections import Counter
from datetime import date, timedelta

import pytest

from bot.ai.puzzles import (
    BAND,
    GOALS,
    THEMES,
    Puzzle,
    daily,
    explain,
    parse_line,
    pick,
    puzzle_by_id,
    puzzles_for,
    refutation,
)
from bot.ai.puzzles.generate import SCREEN_NODES, build
from bot.ai.puzzles.solver import move_values, unique_best
from bot.ai.tables import Table
from bot.ai.tables import build as build_tables
from bot.engine import VARIANTS
from bot.engine.notation import from_position, position

pytestmark = pytest.mark.compiled_core  # puzzles are searched by the compiled core

#: The re-verifying search: 15 times the generator's screening budget for each move.
RECHECK_NODES = 15 * SCREEN_NODES


def all_puzzles() -> list[Puzzle]:
    return [puzzle for variant in VARIANTS for puzzle in puzzles_for(variant)]


def test_the_shipped_files_load_with_enough_puzzles():
    counts = {variant: len(puzzles_for(variant)) for variant in VARIANTS}
    assert counts["wari"] >= 800  # 1,200 found; 839 survived the re-verification of issue 39
    assert counts["oware"] >= 690  # 1,060 found; 709 survived it, 699 its repeat with the house tables
    assert puzzles_for("wari") is puzzles_for("wari")  # cached


def test_ids_are_unique_and_found_again():
    puzzles = all_puzzles()
    ids = [puzzle.id for puzzle in puzzles]
    assert len(ids) == len(set(ids))
    for puzzle in puzzles[::97]:
        assert puzzle_by_id(puzzle.id) is puzzle
    assert puzzle_by_id("wari-999999") is None
    assert puzzle_by_id("chess-0001") is None


def test_positions_are_distinct_legal_and_the_lines_too():
    seen = set()
    for puzzle in all_puzzles():
        assert puzzle.id.startswith(puzzle.variant + "-")
        assert puzzle.theme in THEMES and puzzle.goal.kind in GOALS
        assert 800 <= puzzle.difficulty <= 2200
        game = puzzle.game()
        assert position(game) == puzzle.position
        assert not game.is_over and len(game.legal_moves) >= 2
        assert game.to_move == puzzle.solver
        assert puzzle.position not in seen
        seen.add(puzzle.position)
        owner = game.rules.owner
        assert owner(puzzle.solution[0]) == puzzle.solver
        assert owner(puzzle.solution[-1]) == puzzle.solver  # the line ends on the solver's move
        assert 1 <= len(puzzle.solver_moves()) <= 3
        for house in puzzle.solution:
            assert game.to_move == owner(house), puzzle.id
            game.play(house)


def sample(variant: str, size: int) -> list[Puzzle]:
    puzzles = puzzles_for(variant)
    return random.Random(2026).sample(list(puzzles), min(size, len(puzzles)))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_sample_holds_under_a_deeper_search_than_the_screening(variant):
    """The first move is still the best under a search of 15 times the screening budget, and beats
    every other by the margin. The generator searched with 12-seed tables under its search and
    this test has none, and the search has gained its reductions since, so an estimate or two of
    a sample may move across the margin, never the best move."""
    size = 10 if variant in ("wari", "oware") else 5
    searched = [puzzle for puzzle in puzzles_for(variant) if puzzle.verified != "tables"]
    short = []
    for puzzle in random.Random(2026).sample(searched, min(size, len(searched))):
        values = move_values(puzzle.game(), RECHECK_NODES)
        assert max(values, key=lambda house: values[house].score) == puzzle.solution[0], (puzzle.id, values)
        if unique_best(values) != puzzle.solution[0]:
            short.append(puzzle.id)
    # Since issue 39 a loss found at a horizon no longer beats a proven loss by the margin: up to
    # 3 of a sample fall short (test_puzzle_verification.py lists them for re-verification).
    assert len(short) <= 3, short


def test_endgame_puzzles_hold_against_small_tables(tmp_path):
    """Puzzles the generator verified with its tables, with few seeds: tables built here agree."""
    most = 8
    checked = 0
    for variant in ("wari", "oware", "awari", "ouril"):
        small = [
            puzzle
            for puzzle in puzzles_for(variant)
            if puzzle.verified == "tables" and sum(puzzle.game().board) <= most
        ]
        if not small:
            continue
        build_tables(variant, most, tmp_path, out=io.StringIO())
        table = Table(variant, most, (tmp_path / f"{variant}-{most}.bin").read_bytes())
        for puzzle in small[:10]:
            values = move_values(puzzle.game(), RECHECK_NODES, table)
            assert unique_best(values) == puzzle.solution[0], puzzle.id
            if puzzle.goal.kind == "win":
                assert values[puzzle.solution[0]].seeds >= puzzle.goal.seeds
            checked += 1
    assert checked > 0


def test_check_accepts_the_solution_and_rejects_another_move():
    for puzzle in sample("wari", 5) + sample("oware", 5) + sample("kalah", 3):
        played: list[int] = []
        game = puzzle.game()
        for house in puzzle.solver_moves():
            wrong = [move for move in game.legal_moves if move != house]
            if wrong:
                step = puzzle.check([*played, wrong[0]])
                assert not step.correct and not step.solved and step.expected == house
            played.append(house)
            step = puzzle.check(played)
            assert step.correct
            game.play(house)
            for reply in step.replies:
                game.play(reply)
        assert step.solved and step.replies == ()
        with pytest.raises(ValueError):
            puzzle.check([*played, played[0]])


def test_a_step_names_the_reply_of_the_solution():
    puzzle = next(p for p in puzzles_for("wari") if len(p.solver_moves()) >= 2)
    step = puzzle.check(puzzle.solution[:1])
    assert step.correct and not step.solved
    assert step.reply == puzzle.solution[1]


def test_a_wrong_move_is_refuted_by_a_legal_line_quickly():
    for puzzle in sample("wari", 3) + sample("oware", 3) + sample("kalah", 2):
        game = puzzle.game()
        wrong = next(house for house in game.legal_moves if house != puzzle.solution[0])
        began = time.perf_counter()
        line = refutation(puzzle, [], wrong)
        assert time.perf_counter() - began < 1.0
        game.play(wrong)
        assert line or game.is_over, puzzle.id  # an empty line would read "Refutation: —"
        for house in line:
            game.play(house)  # legal, or this raises
        answer = explain(puzzle, [], wrong)
        assert answer.cost >= 0 and answer.captured >= 0
    with pytest.raises(ValueError):
        refutation(puzzle, [], 99)


def test_the_refutation_is_the_searchs_own_line_not_a_house_further_on():
    """The core's search gives its line in house numbers already: numbered once more, every move
    was a house further on, and the line was cut at its first move off the board (seen at 360 px:
    wari-0696, house 2 refuted by "—")."""
    puzzle = puzzle_by_id("wari-0696")
    line = refutation(puzzle, [], 2)
    assert 1 <= len(line) <= 4 and line[0] in range(7, 13), line
    game = puzzle.game()
    game.play(2)
    records = [game.play(house) for house in line]
    assert records[0].player != puzzle.solver  # the opponent's reply first
    # Told as far as the punishment: the line ends on the opponent's first capture.
    assert records[-1].player != puzzle.solver and records[-1].captured, line
    assert not any(r.captured for r in records[:-1] if r.player != puzzle.solver), line


def test_pick_stays_near_the_rating_and_skips_excluded():
    puzzles = puzzles_for("wari")
    rng = random.Random(1)
    bands = {puzzle.difficulty // BAND for puzzle in puzzles}
    for rating in range(800, 2300, 100):
        chosen = pick(puzzles, rating + 50, rng)
        nearest = min(abs(band - rating / BAND) for band in bands)
        assert abs(chosen.difficulty // BAND - rating / BAND) == nearest
    chosen = pick(puzzles, 1200, rng)
    again = pick(puzzles, 1200, rng, exclude={chosen.id})
    assert again.id != chosen.id
    few = puzzles[:3]
    assert pick(few, 1500, rng, exclude={few[0].id, few[1].id}) is few[2]
    with pytest.raises(LookupError):
        pick(few, 1500, rng, exclude={puzzle.id for puzzle in few})


def test_daily_is_stable_for_a_date_and_varies():
    day = date(2026, 11, 26)
    assert daily("wari", day) is daily("wari", day)
    week = [daily("wari", day + timedelta(days)) for days in range(7)]
    assert len({puzzle.id for puzzle in week}) == 7
    monday = daily("oware", date(2026, 11, 23))
    sunday = daily("oware", date(2026, 11, 29))
    assert monday.difficulty < sunday.difficulty


def test_a_small_generator_run_writes_well_formed_lines(tmp_path):
    new = build("wari", 2, seed=3, folder=tmp_path, out=io.StringIO(), verify=40_000)
    lines = [line for line in (tmp_path / "wari.txt").read_text().splitlines() if not line.startswith("#")]
    assert len(lines) == len(new) == 2
    puzzles = [parse_line(line) for line in lines]
    assert [puzzle.id for puzzle in puzzles] == ["wari-0001", "wari-0002"]
    for puzzle in puzzles:
        from_position(puzzle.position)
    # A second run appends after them, with new ids and new positions.
    more = build("wari", 1, seed=4, folder=tmp_path, out=io.StringIO(), verify=40_000)
    assert more[0].id == "wari-0003" and more[0].position not in {p.position for p in puzzles}


def test_the_command_line_builds(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "bot.ai.puzzles", "build", "--variant", "kalah", "--count", "1", "--seed", "1"]
        + ["--verify-nodes", "40000", "--dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "1 new kalah puzzles" in done.stdout
    assert Counter(line[:5] for line in (tmp_path / "kalah.txt").read_text().splitlines())["kalah"] == 1
