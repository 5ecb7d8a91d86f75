"""The compiled search's techniques (killers, history, reductions, the kept table): they change
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


def middle_game(variant: str, moves: list[int]) -> Game:
    game = Game(variant)
    for house in moves:
        game.play(house)
    return game


@pytest.mark.parametrize(
    ("variant", "moves"), [("oware", [3, 9, 5, 7, 1, 10, 6, 12]), ("wari", [2, 8, 4, 11, 6, 9, 1, 7])]
)
def test_the_techniques_search_deeper_on_the_same_nodes(variant, moves):
    game = middle_game(variant, moves)
    with_all = ExpertPlayer(max_nodes=400_000).choose(game)
    plain = ExpertPlayer(max_nodes=400_000, without=frozenset(TECHNIQUES)).choose(game)
    assert with_all.depth >= plain.depth + 2, (with_all.depth, plain.depth)


def test_an_expert_without_something_it_does_not_have_is_refused():
    assert "book" in OPTIONAL and set(TECHNIQUES) < set(OPTIONAL)
    with pytest.raises(ValueError, match="cannot play without nullmove"):
        ExpertPlayer(without=frozenset({"nullmove"}))
