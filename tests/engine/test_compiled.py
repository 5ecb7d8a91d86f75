"""The compiled core against the Python reference, move by move (the rules oracle).

Random games in every variant (and Kalah sizes from 1x1 to 10x10), played to their end: at
every position both engines must offer the same legal moves, and every move must give the same
state and the same effect (captures, grand slam, extra turn, last house).
"""

import random

import pytest

from bot.engine.core import machine_for
from bot.engine.rules import VARIANTS, rules_for

pytestmark = pytest.mark.compiled_core

RULE_SETS = [rules_for(name) for name in VARIANTS if name != "kalah"] + [
    rules_for("kalah", houses, seeds) for houses in (1, 2, 6, 10) for seeds in (1, 4, 10)
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
def test_both_engines_agree_on_every_move_of_random_games(rules):
    python, compiled = machine_for(rules, "python"), machine_for(rules, "compiled")
    rng = random.Random(rules.label)
    checked = 0
    for game in range(120):
        state = python.start(game % 2)
        seen = {state}
        while True:
            moves = python.legal(state)
            assert compiled.legal(state) == moves, state
            if not moves:
                break
            house = rng.choice(moves)
            played = python.play(state, house)
            assert compiled.play(state, house) == played, (state, house)
            checked += 1
            state = played[0]
            if python.majority(state) or state in seen:
                break
            seen.add(state)
    assert checked >= 120  # at least one move a game (Kalah 1x1 has no more)


@pytest.mark.parametrize(
    "rules",
    RULE_SETS[:4]
    + [rules_for("kalah", 1, 3), rules_for("kalah", 3, 3), rules_for("kalah"), rules_for("kalah", 10, 10)],
    ids=str,
)
def test_both_engines_count_the_same_move_sequences(rules):
    python, compiled = machine_for(rules, "python"), machine_for(rules, "compiled")
    for first in (0, 1):
        start = python.start(first)
        assert [compiled.perft(start, depth) for depth in range(1, 8)] == [
            python.perft(start, depth) for depth in range(1, 8)
        ]


def test_the_compiled_core_refuses_what_is_not_a_state():
    machine = machine_for(rules_for("oware"), "compiled")
    with pytest.raises(ValueError, match="tuple of 16 numbers"):
        machine.legal((4,) * 12)
    with pytest.raises(ValueError, match="not a house with seeds"):
        machine.play((0,) * 12 + (0, 0, 0, 0), 3)
