"""Perft: counting move sequences from the start checks move generation against known figures.

Both engines count (see ``conftest.py``); ``test_compiled.py`` compares them deeper.
"""

import pytest

from bot.engine.core import machine_for
from bot.engine.rules import rules_for

pytestmark = pytest.mark.usefixtures("backend")

# RULES.md's Oware and Wari agree this early: no grand slam and no starvation is reachable.
KNOWN = [6, 36, 190, 1014, 5219, 27332]


@pytest.mark.parametrize("variant", ["oware", "wari", "awari"])
def test_perft_from_the_start_position(variant):
    machine = machine_for(rules_for(variant))
    assert [machine.perft(machine.start(), depth) for depth in range(1, 7)] == KNOWN


def test_perft_counts_nothing_past_a_finished_game():
    # Kalah on a 1x1 board: A's only move ends in the store and leaves A empty: the game ends.
    machine = machine_for(rules_for("kalah", 1, 1))
    assert [machine.perft(machine.start(), depth) for depth in (1, 2, 3)] == [1, 0, 0]


def test_perft_of_the_same_board_from_either_side_agrees():
    machine = machine_for(rules_for("ouril"))
    assert machine.perft(machine.start(0), 5) == machine.perft(machine.start(1), 5)
