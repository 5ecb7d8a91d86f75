"""The computer players: legal, reproducible, and each true to its name."""

import subprocess
import sys
import time

import pytest

from bot.ai import LEVELS, expert, make_player
from bot.ai.arena import elo, wilson
from bot.ai.expert import ExpertPlayer
from bot.ai.mcts import MctsPlayer
from bot.engine import VARIANTS, Game
from bot.engine.notation import from_position


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_level_plays_legal_moves_to_the_end_of_a_game(level, variant):
    game = Game(variant)
    players = [make_player(level, seed=3), make_player("random", seed=4)]
    while not game.is_over:
        decision = players[game.ply % 2].choose(game, seconds=0.01)
        assert decision.house in game.legal_moves
        game.play(decision.house)
    assert game.outcome is not None


def test_unknown_level_names_the_levels():
    with pytest.raises(ValueError, match="choose one of random, low, again, greedy, mcts, expert"):
        make_player("grandmaster")


def test_low_plays_the_lowest_legal_house():
    game = from_position("w1 wari 0,0,3,1,0,2,4,4,4,4,4,4 9:9 A")
    assert make_player("low").choose(game).house == 3


def test_again_prefers_an_extra_turn_in_kalah():
    game = Game("kalah")  # house 3 (4 seeds) ends in the store
    assert make_player("again").choose(game).house == 3
    assert make_player("again").choose(Game("wari")).house == 1  # no stores: as low


def test_greedy_takes_the_biggest_capture():
    game = from_position("w1 oware 1,1,1,1,1,3,1,2,1,4,4,4 12:12 A")  # house 6 takes 7 seeds
    decision = make_player("greedy", seed=1).choose(game)
    assert decision.house == 6 and decision.score == 7


def test_expert_sees_a_forced_win():
    # A's house 6 captures 5 and reaches 25: the game is won at once.
    game = from_position("w1 oware 1,1,1,1,1,3,0,2,1,4,4,4 20:5 A")
    decision = ExpertPlayer(seed=1).choose(game, seconds=0.3)
    assert decision.house == 6 and decision.score >= 1000
    assert decision.pv[0] == 6


def test_expert_proves_a_lost_endgame_lost():
    game = from_position("w1 wari 0,0,0,0,1,1,0,0,0,0,0,1 22:23 A")
    decision = ExpertPlayer(seed=1).choose(game, seconds=0.3)
    assert decision.score <= -1000  # B wins whatever A does


def test_expert_calls_a_result_exact_only_when_every_line_ended():
    # Both of A's moves take 2 and win 25:20 at once: every line ends at depth 1.
    game = from_position("w1 oware 0,0,0,0,2,1,1,0,1,0,0,0 23:20 A")
    decision = ExpertPlayer(seed=1).choose(game, seconds=0.5)
    assert decision.exact and decision.depth == 1 and decision.score == 1000 + 25 - 20
    unfinished = ExpertPlayer(seed=1).choose(from_position("w1 oware 2,1,0,0,1,0,0,0,0,0,0,3 23:18 A"), seconds=0.05)
    assert unfinished.score > 1000 and not unfinished.exact  # a win, but lines go on past the horizon


@pytest.mark.parametrize("pure_python", [False, True])
def test_the_expert_searches_only_for_what_its_budget_has_left(pure_python, monkeypatch):
    # Before it searches, a move looks in the endgame tables and the book (on a first move, it
    # opens them: a cold disk made moves late). That time is spent from the move's budget.
    if pure_python:
        monkeypatch.setenv("WARI_PURE_PYTHON", "1")
    monkeypatch.setattr(expert, "best_move", lambda game: time.sleep(0.2))  # a slow look in the tables
    budgets = []
    real_compiled, real_python = expert.compiled_search, expert._Search

    def compiled(machine, game, seconds, *rest):
        budgets.append(seconds)
        return real_compiled(machine, game, seconds, *rest)

    class Python(real_python):
        def __init__(self, machine, seen, seconds, *rest):
            budgets.append(seconds)
            super().__init__(machine, seen, seconds, *rest)

    monkeypatch.setattr(expert, "compiled_search", compiled)
    monkeypatch.setattr(expert, "_Search", Python)
    game = from_position("w1 oware 2,1,0,0,1,0,0,0,0,0,0,3 23:18 A")
    decision = ExpertPlayer(seed=1).choose(game, seconds=0.3)
    assert len(budgets) == 1 and 0 <= budgets[0] <= 0.1
    assert decision.seconds >= 0.2  # the whole move, the look in the tables included
    assert decision.house in game.legal_moves


@pytest.mark.parametrize("pure_python", [False, True])
def test_expert_does_not_stop_at_the_first_win_it_finds(pure_python, monkeypatch):
    # Issue 14's example: A wins whatever; the first win found (at depth 2) is by 8 seeds, and
    # A can win by 12. Stopping at the first proven win kept the 8.
    if pure_python:
        monkeypatch.setenv("WARI_PURE_PYTHON", "1")
    game = from_position("w1 oware 2,1,0,0,1,0,0,0,0,0,0,3 23:18 A")
    assert ExpertPlayer(seed=1, max_depth=2).choose(game, seconds=0.5).score == 1008
    decision = ExpertPlayer(seed=1).choose(game, seconds=1)
    assert decision.score == 1012 and decision.depth > 2


def test_searches_with_a_node_budget_are_reproducible():
    game = Game("oware")
    game.play(3)
    searching = frozenset({"book"})  # the opening book would answer without a search
    first = ExpertPlayer(max_nodes=3000, without=searching).choose(game, seconds=60)
    again = ExpertPlayer(max_nodes=3000, without=searching).choose(game, seconds=60)
    assert (first.house, first.depth, first.score, first.pv) == (again.house, again.depth, again.score, again.pv)
    assert first.nodes >= 3000 and first.depth >= 2
    a = MctsPlayer(seed=9, max_iterations=300).choose(game)
    b = MctsPlayer(seed=9, max_iterations=300).choose(game)
    assert (a.house, a.score, a.pv, a.nodes) == (b.house, b.score, b.pv, b.nodes) and a.nodes == 300


def test_searching_players_report_progress():
    dots = []
    ExpertPlayer(seed=1, without=frozenset({"book"})).choose(
        Game("wari"), seconds=0.1, progress=lambda: dots.append(".")
    )
    assert len(dots) >= 6  # every root move at least once


def test_the_choice_leaves_the_game_unchanged():
    game = Game("ouril")
    game.play(2)
    before = (game.state, game.ply, game.seen_positions)
    for level in LEVELS:
        make_player(level, seed=1).choose(game, seconds=0.02)
    assert (game.state, game.ply, game.seen_positions) == before


def test_elo_and_its_interval():
    assert elo(0.5) == 0 and round(elo(0.76)) == 200
    low, high = wilson(1.0, 20)
    assert 0.8 < low < 1.0 and high == 1.0


def test_arena_prints_the_match_and_the_elo_difference():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot.ai.arena",
            "--a",
            "greedy",
            "--b",
            "random",
            "--games",
            "4",
            "--time",
            "0.01",
            "--jobs",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len([line for line in lines if line.startswith("game ")]) == 4
    assert any(line.startswith("greedy vs random: 4 games, +") for line in lines)
    assert any(line.startswith("Elo difference ") for line in lines)
    assert any(line.startswith("greedy: ") and "over budget + 10%" in line for line in lines)


def test_without_the_compiled_core_everything_falls_back_to_python():
    # As on a machine where the extension could not be built: importing it fails.
    script = (
        "import sys; sys.modules['bot.engine._core'] = None\n"
        "from bot.engine import Game\n"
        "from bot.engine.core import Machine, CompiledMachine, machine_for, default_backend\n"
        "from bot.ai import make_player\n"
        "game = Game('oware')\n"
        "assert default_backend() == 'python' and type(machine_for(game.rules)) is Machine\n"
        "decision = make_player('expert', 1).choose(game, 0.05)\n"
        "print(default_backend(), decision.house in game.legal_moves, decision.depth > 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["python", "True", "True"]


def test_arena_ladder_rates_each_level_from_the_one_below():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot.ai.arena",
            "--ladder",
            "random",
            "greedy",
            "--games",
            "2",
            "--time",
            "0.01",
            "--jobs",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("greedy vs random: 2 games") for line in lines)
    ratings = lines[lines.index(next(line for line in lines if line.startswith("ratings ("))) + 1 :][:2]
    assert [line.split()[0] for line in ratings] == ["random", "greedy"] and ratings[0].split()[1] == "+0"
