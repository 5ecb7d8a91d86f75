"""Computer analysis of a finished game: judgements, verdicts and marks, the model and its fit.

The tests of this folder run without endgame tables (``conftest.py``); those that need them build
the small wari tables of :mod:`tests.analysis_games` in a temporary folder.
"""

from __future__ import annotations

import math
import random

import pytest

from bot.ai import make_player
from bot.ai.analysis import (
    DEPTHS,
    FORMAT,
    GameAnalysis,
    PositionJudgement,
    Sample,
    analyse_game,
    assemble,
    expected,
    fit_k,
    judge,
    judge_position,
    position_at,
)
from bot.ai.analysis.model import mark_for_exact, mark_for_loss, move_accuracy
from bot.ai.expert import ExpertPlayer
from bot.ai.tables import best_move
from bot.ai.worker import analyse_position
from bot.engine import Game, rules_for
from bot.engine.notation import from_position, record
from tests.analysis_games import PROVEN_BLUNDERS, SEEDS_LOST, blundering_record, build_small_tables


@pytest.fixture
def small_tables(tmp_path, monkeypatch):
    monkeypatch.setenv("WARI_TABLES", str(build_small_tables(tmp_path / "tables")))


def play(game: Game, players: dict, plies: int) -> Game:
    while not game.is_over and game.ply < plies:
        game.play(players[game.to_move].choose(game, seconds=60).house)
    return game


# -- the blunder the tables prove ------------------------------------------------------------------


@pytest.mark.compiled_core  # the tables are built by the compiled core
def test_a_blunder_the_tables_prove_is_marked_with_the_better_move(small_tables):
    text = blundering_record()
    ply, _mark, better = PROVEN_BLUNDERS[0]
    known = best_move(position_at(text, ply - 1))  # the tables themselves know the answer
    assert known is not None and known.house == better and known.notes == {"tables": 8}
    analysis = analyse_game(text, "quick")
    assert [(v.ply, v.mark, v.best) for v in analysis.moves if v.mark] == PROVEN_BLUNDERS
    blunder = analysis.moves[PROVEN_BLUNDERS[0][0] - 1]
    assert blunder.exact and blunder.house != blunder.best
    assert blunder.seeds_lost == SEEDS_LOST
    assert (blunder.expected_before, blunder.expected_after, blunder.loss) == (1.0, 0.0, 1.0)
    assert analysis.worst(blunder.player) == [blunder]
    assert analysis.counts(blunder.player) == {"?!": 0, "?": 0, "??": 1}
    assert analysis.advantage[-1] == 0.0  # B won: A's expected score is 0 at the end


@pytest.mark.compiled_core  # as above
def test_the_workers_judgements_assemble_to_the_same_analysis(small_tables):
    text = blundering_record()
    judged = [analyse_position(text, ply, "quick") for ply in range(5)]
    assert judged == [judge_position(text, ply, "quick") for ply in range(5)]
    assert assemble(text, judged) == analyse_game(text, "quick")
    assert judged[-1]["over"] and judged[-1]["best"] is None and judged[-1]["score"] == 1000 + 5  # B by 25-20
    with pytest.raises(ValueError, match="positions 0 to 4"):
        assemble(text, judged[:-1])


# -- verdicts -------------------------------------------------------------------------------------


@pytest.mark.compiled_core  # its bounds were measured on the compiled search: the Python one plays other moves
def test_a_quiet_game_has_few_marks_and_a_wild_one_many():
    expert = ExpertPlayer(1, max_nodes=40_000)  # weaker than the judge: its moves differ, a little
    quiet = analyse_game(play(Game("wari"), {0: expert, 1: expert}, 24), "quick")
    wild = analyse_game(play(Game("wari"), {0: expert, 1: make_player("random", 3)}, 24), "quick")
    quiet_marks = [v.mark for v in quiet.moves if v.mark]
    assert len(quiet_marks) <= 2 and set(quiet_marks) <= {"?!"}  # an inaccuracy or two at most
    assert min(quiet.accuracy(0), quiet.accuracy(1)) > 85  # one inaccuracy in 12 moves reads 89
    assert len([v for v in wild.of(1) if v.mark]) >= 3
    assert wild.accuracy(1) < wild.accuracy(0)
    worst = wild.worst(1, n=2)
    assert len(worst) == 2 and worst[0].loss >= worst[1].loss > 0


def judgement(ply: int, player: int, score: int, best: int | None = 1, exact: bool = False) -> PositionJudgement:
    return PositionJudgement(ply, player, best, score, exact, (best,) if best else (), "quick")


def test_a_kalah_extra_turn_keeps_the_sign_of_the_next_position():
    game = Game("kalah")
    assert game.play(3).extra_turn  # 4 seeds from house 3: the last in A's store
    game.play(1)
    # After house 3 A moves again, so position 1's score is already A's: +40, not -40.
    judged = [judgement(0, 0, 60, best=3), judgement(1, 0, 40, best=1), judgement(2, 1, -40)]
    first, second = assemble(game, judged).moves
    assert (first.value_played, first.value_best, first.mark) == (40, 60, "")  # the engine's own move
    assert (second.value_played, second.player) == (40, 0)
    # Had house 3 been another's choice, the 20 units it gave away are what the verdict weighs.
    judged[0] = judgement(0, 0, 60, best=6)
    first = assemble(game, judged).moves[0]
    assert first.loss == pytest.approx(expected(60) - expected(40), abs=1e-4) and first.seeds_lost == 5


def test_a_kalah_game_with_extra_turns_is_analysed_end_to_end():
    game = Game(rules_for("kalah", 4, 3))
    play(game, {0: ExpertPlayer(1, max_nodes=5_000), 1: make_player("again", 2)}, 200)
    assert any(move.extra_turn for move in game.moves)
    analysis = analyse_game(game, "quick")
    assert len(analysis.moves) == game.ply and analysis.variant == "kalah/4x3"
    winner = game.outcome and game.outcome.winner
    assert analysis.advantage[-1] == (0.5 if winner is None else 1.0 - int(winner))


def test_a_surrender_is_not_a_move_and_not_a_position():
    game = Game("wari")
    for house in (5, 7, 2):
        game.play(house)
    game.surrender()
    text = record(game)
    analysis = analyse_game(text, "quick")
    assert [v.ply for v in analysis.moves] == [1, 2, 3] and len(analysis.advantage) == 4
    assert position_at(text, 3).to_move is not None  # the position before the surrender, still going
    with pytest.raises(ValueError, match="positions 0 to 3"):
        judge_position(text, 4, "quick")


def test_a_forced_move_is_worth_the_position_it_leads_to():
    game = from_position("w1 wari 0,0,0,0,0,3,2,2,2,2,2,2 10:23 A")
    assert game.legal_moves == [6]
    judged = judge(game, "quick")
    after = game.copy()
    after.play(6)
    assert judged.best == 6 and judged.score == -judge(after, "quick").score != 0


def test_an_unknown_depth_is_refused():
    assert DEPTHS["quick"] < DEPTHS["default"]
    with pytest.raises(ValueError, match="unknown depth"):
        judge(Game("wari"), "deep")


# -- storing ---------------------------------------------------------------------------------------


def test_the_json_round_trips_and_is_versioned():
    game = play(Game("oware"), {0: make_player("greedy", 1), 1: make_player("random", 2)}, 12)
    analysis = analyse_game(game, "quick")
    text = analysis.to_json()
    again = GameAnalysis.from_json(text)
    assert again == analysis and again.to_json() == text
    assert f'"format":"{FORMAT}"' in text and " " not in text
    with pytest.raises(ValueError, match="not a"):
        GameAnalysis.from_json(text.replace(FORMAT, "wari-analysis/0"))
    with pytest.raises(ValueError, match="damaged"):
        GameAnalysis.from_json(text.replace('"moves":[[', '"moves":[[0,'))


# -- the model -------------------------------------------------------------------------------------


def test_marks_by_expected_score_and_by_exact_result():
    assert [mark_for_loss(loss) for loss in (0.0, 0.049, 0.05, 0.1, 0.15, 1.0)] == ["", "", "?!", "?", "??", "??"]
    assert mark_for_exact(1002, 0) == "??"  # a win thrown to a draw
    assert mark_for_exact(0, -1001) == "??"  # a draw to a loss
    assert mark_for_exact(1006, 1002) == "?"  # a win kept, 4 seeds of margin given away
    assert mark_for_exact(-1002, -1005) == "?!"
    assert mark_for_exact(1003, 1002) == ""
    assert move_accuracy(0.0) == pytest.approx(100, abs=1e-3) and move_accuracy(1.0) == 0


def test_the_fit_recovers_a_known_k():
    rng = random.Random(7)
    true_k = 0.03
    samples = []
    for _ in range(6000):
        score = rng.uniform(-150, 150)
        won = rng.random() < 1 / (1 + math.exp(-true_k * score))
        samples.append(Sample(score, float(won)))
    samples.append(Sample(1005, 1.0))  # a proven result says nothing about k: left out
    fit = fit_k(samples)
    assert fit.samples == 6000
    assert fit.k == pytest.approx(true_k, rel=0.1)
    assert fit.log_loss < fit_k([Sample(s.score, 0.5) for s in samples]).log_loss
