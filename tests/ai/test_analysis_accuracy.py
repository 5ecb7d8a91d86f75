"""The accuracy follows the game: on real games of the computer's levels against its expert, a
random mover reads low and the expert high; moves made once the result was settled do not count;
and every mark follows from the thresholds docs/analysis.md states."""

from __future__ import annotations

import re
import statistics
from pathlib import Path

import pytest

from bot.ai.analysis import THRESHOLDS, GameAnalysis, MoveVerdict, analyse_game
from bot.ai.analysis.fit import accuracy_figures, calibration_game
from bot.ai.analysis.model import EXACT_INACCURACY, EXACT_MISTAKE, mark_for_exact, mark_for_loss

DOCS = Path(__file__).resolve().parents[2] / "docs" / "analysis.md"


@pytest.mark.compiled_core  # the figures were measured with the compiled search: the Python one plays other moves
def test_random_movers_read_low_and_the_expert_high_on_real_games():
    figures = accuracy_figures("random", games=4, seed=0)
    randoms = [level for level, _expert in figures]
    experts = [expert for _level, expert in figures]
    print({"random": [round(a) for a in randoms], "expert": [round(a) for a in experts]})
    assert max(randoms) < 60 and statistics.median(randoms) < 45
    assert min(experts) > 70 and statistics.median(experts) > 80
    assert all(expert - level > 25 for level, expert in figures)


@pytest.mark.compiled_core  # as above
def test_the_expert_against_itself_reads_high():
    figures = accuracy_figures("expert", games=2, seed=0)
    accuracies = [accuracy for game in figures for accuracy in game]
    print({"expert against the expert": [round(a) for a in accuracies]})
    assert statistics.median(accuracies) > 75 and max(accuracies) > 85


def verdict(ply: int, loss: float, *, proven: bool = False, exact: bool = False) -> MoveVerdict:
    """A move of A (0) with this loss, made where the best move's value was proven or an estimate."""
    best = -1005 if proven else 40
    return MoveVerdict(ply, 0, 1, 1 if loss == 0 else 2, best, best, 0.5, 0.5 - loss, loss, "", exact, 0.0)


def test_moves_that_keep_a_settled_result_do_not_count_and_one_that_throws_it_does():
    open_game = [verdict(1, 0.1), verdict(3, 0.12)]
    tail = [verdict(ply, 0.0, proven=True) for ply in range(5, 41, 2)]  # lost for sure: every move loses alike
    crushed = GameAnalysis("wari", "quick", tuple(open_game + tail), (0.5,) * 41)
    assert crushed.accuracy(0) == GameAnalysis("wari", "quick", tuple(open_game), (0.5,) * 5).accuracy(0) < 35
    thrown = verdict(5, 1.0, exact=True)  # a proven win thrown away
    assert not verdict(5, 0.0, exact=True).counts_for_accuracy and thrown.counts_for_accuracy
    assert GameAnalysis("wari", "quick", (thrown,), (0.5,) * 6).accuracy(0) < 1


def test_an_accuracy_after_a_random_opening_leaves_its_moves_out():
    opening, own = [verdict(1, 0.25)], [verdict(ply, 0.0) for ply in range(3, 21, 2)]
    game = GameAnalysis("wari", "quick", tuple(opening + own), (0.5,) * 21)
    assert game.accuracy(0) < 70  # the one bad move weighs on nine good ones
    without = GameAnalysis("wari", "quick", tuple(own), (0.5,) * 21).accuracy(0)
    assert game.accuracy(0, after_ply=2) == without > 99.9


def documented_thresholds() -> dict[str, float]:
    """The marks' table of docs/analysis.md: mark -> the loss of expected score from which it is given."""
    rows = re.findall(r"^\| `(\?\?|\?!|\?)` \w+ \| ([0-9.]+) or more \|", DOCS.read_text(encoding="utf-8"), re.M)
    return {mark: float(loss) for mark, loss in rows}


def test_the_marks_follow_the_thresholds_the_docs_state():
    assert documented_thresholds() == dict(THRESHOLDS)
    text = DOCS.read_text(encoding="utf-8")
    assert f"{EXACT_MISTAKE} seeds or more of the final margin is a\n  **mistake**" in text
    assert f"{EXACT_INACCURACY} or {EXACT_INACCURACY + 1} seeds an **inaccuracy**" in text


@pytest.mark.compiled_core  # as above
def test_every_mark_of_a_real_game_is_the_one_its_loss_or_its_exact_values_call_for():
    game, _side = calibration_game("greedy", 1)
    analysis = analyse_game(game, "quick")
    marked = [v for v in analysis.moves if v.mark]
    assert marked  # a greedy player against the expert errs
    for move in analysis.moves:
        if move.house == move.best:
            assert move.mark == "" and move.loss == 0
        elif move.exact:
            assert move.mark == mark_for_exact(move.value_best, move.value_played)
        else:
            assert move.mark == mark_for_loss(move.loss)
