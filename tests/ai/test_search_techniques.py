"""The compiled search's techniques (killers, history, reductions, the kept table, cycles): they change
how much the search looks at, never what it proves."""

import pytest

from bot.ai.expert import OPTIONAL, TECHNIQUES, ExpertPlayer
from bot.engine import Game
from bot.engine.notation import from_position

pytestmark = pytest.mark.compiled_core  # the techniques are the compiled search's

EVERY_CHOICE = [frozenset(), frozenset(TECHNIQUES), *(frozenset({name}) for name in TECHNIQUES)]

ENDGAMES = [
    ("w1 oware 0,2,0,1,1,0,0,0,0,0,1,1 18:24 B", True),  # a draw
    # B loses by 3; proven by every choice with the hand-set evaluation as with the tuned one (the
    # evaluation orders the moves, so a refit of the weights does not turn it into a repetition)
    ("w1 oware 2,1,1,0,0,1,1,0,0,0,4,0 23:15 B", True),
    ("w1 wari 0,1,0,0,3,0,1,0,0,0,0,1 19:23 B", False),  # B wins by 2, in lines that end in a repetition
]


@pytest.mark.parametrize(("text", "provable"), ENDGAMES)
def test_every_choice_of_techniques_finds_the_same_value(text, provable):
    """Small endgames searched to the end: every choice must find the same value. A value that rests
    on a repeated position is never called proven (the table that carries it to other lines ignores
    the path that repeated). Whether a search meets a repetition on its way to a proof depends on
    the order it looks at moves in, so only the full set and none are asked to prove the others."""
    decisions = {
        without: ExpertPlayer(max_nodes=500_000, without=without).choose(from_position(text), seconds=60)
        for without in EVERY_CHOICE
    }
    assert len({decision.score for decision in decisions.values()}) == 1, decisions
    if provable:
        assert decisions[frozenset()].exact and decisions[frozenset(TECHNIQUES)].exact
    else:
        assert not any(decision.exact for decision in decisions.values()), decisions


def test_a_kept_table_does_not_carry_a_repetition_to_the_next_search():
    """A value that rests on a repeated position holds only for the history it was searched with.
    Here A loses by 2 because the game has been at the positions its defence needs (every line
    repeats one: the rows are shared), yet the same position with no history is a win by 4. A
    search on a clock keeps its table for the next one: that next one, on the position as a fresh
    game, must not take the loss it finds there for its own."""
    game = from_position("w1 wari 1,0,1,0,1,0,0,1,0,1,0,1 20:22 A")
    for house in (5, 10, 1, 8, 2, 11, 6, 9, 3, 10, 5, 12, 4, 7, 6, 7, 5, 8):
        game.play(house)
    fresh = from_position("w1 wari 1,1,0,0,0,1,0,0,1,1,1,0 20:22 A")
    assert fresh.board == game.board and fresh.scores == game.scores and fresh.to_move == game.to_move
    expert = ExpertPlayer(weights="hand")  # on a clock: the kept table
    assert expert.choose(game, seconds=1).score == -1002
    assert expert.choose(fresh, seconds=1).score == 1004
    assert ExpertPlayer(max_nodes=2_000_000, weights="hand").choose(fresh).score == 1004  # a table of its own


#: A middle game of oware and one of wari, for the techniques to search.
MIDDLE_GAMES = [("oware", [3, 9, 5, 7, 1, 10, 6, 12]), ("wari", [2, 8, 4, 11, 6, 9, 1, 7])]


def middle_game(variant: str, moves: list[int]) -> Game:
    game = Game(variant)
    for house in moves:
        game.play(house)
    return game


@pytest.mark.parametrize(("variant", "moves"), MIDDLE_GAMES)
def test_the_techniques_search_deeper_on_the_same_nodes(variant, moves):
    game = middle_game(variant, moves)
    with_all = ExpertPlayer(max_nodes=400_000).choose(game)
    plain = ExpertPlayer(max_nodes=400_000, without=frozenset(TECHNIQUES)).choose(game)
    assert with_all.depth >= plain.depth + 2, (with_all.depth, plain.depth)


@pytest.mark.parametrize(("variant", "moves"), MIDDLE_GAMES)
def test_keeping_repetitions_to_their_lines_changes_nothing_where_nothing_repeats(variant, moves):
    """Cycles only sets apart values that rest on a repetition: in the middle game, where no line
    searched goes a dozen plies without a capture, the search is the same move for move (an entry
    set apart by mistake would only give its move, and the search would look at other nodes)."""
    game = middle_game(variant, moves)
    with_cycles = ExpertPlayer(max_nodes=400_000).choose(game)
    without = ExpertPlayer(max_nodes=400_000, without=frozenset({"cycles"})).choose(game)
    assert (with_cycles.house, with_cycles.score, with_cycles.depth, with_cycles.pv) == (
        without.house,
        without.score,
        without.depth,
        without.pv,
    )


def test_an_expert_without_something_it_does_not_have_is_refused():
    assert "book" in OPTIONAL and set(TECHNIQUES) < set(OPTIONAL)
    with pytest.raises(ValueError, match="cannot play without nullmove"):
        ExpertPlayer(without=frozenset({"nullmove"}))
