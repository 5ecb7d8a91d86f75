"""The board fits a phone: every drawing the bot can send stays within the columns a Discord
embed shows on a 360-pixel screen, for every variant and every Kalah size."""

import pytest

from bot.engine import VARIANTS, Game, rules_for
from bot.render import PHONE_COLUMNS, across_width, board_text, width_of

ALL_RULES = [rules_for(name) for name in VARIANTS if name != "kalah"] + [
    rules_for("kalah", houses, seeds) for houses in range(1, 11) for seeds in range(1, 11)
]


def extremes(rules):
    """The start, every seed in one house, and every seed in one player's store or prisoners."""
    start = Game(rules)
    pits, total = rules.pits, rules.total_seeds
    yield start
    for house in (0, pits - 1):
        yield Game.from_state(rules, tuple(total if i == house else 0 for i in range(pits)) + (0, 0, 0, 0))
    yield Game.from_state(rules, (0,) * pits + (total, 0, 0, 0))
    yield Game.from_state(rules, (0,) * (pits - 1) + (1,) + (total // 2, total - total // 2 - 1, 0, 0))


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda rules: rules.label)
def test_every_board_fits_a_phone(rules):
    for game in extremes(rules):
        drawing = board_text(game)
        assert width_of(drawing) <= PHONE_COLUMNS, drawing
        for value in (*game.board, *game.scores):
            assert str(value) in drawing  # narrow, but nothing left out


def test_six_houses_lie_across_and_ten_stand_upright():
    assert board_text(Game(rules_for("wari"))).splitlines()[0].split() == ["12", "11", "10", "9", "8", "7"]
    upright = board_text(Game(rules_for("kalah", 10, 10))).splitlines()
    assert upright[2].split()[0] == "1" and upright[-3].split()[0] == "10"
    assert len(upright) == 10 + 4


def cells(drawing: str) -> list[str]:
    """The insides of the houses, row by row (between the walls │)."""
    return [cell for line in drawing.splitlines() if "│" in line for cell in line.split("│")[1:-1]]


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda rules: rules.label)
def test_numbers_have_a_space_on_each_side_unless_four_houses_or_more_lie_across(rules):
    across = across_width(rules) <= PHONE_COLUMNS
    for game in extremes(rules):
        drawing = board_text(game)
        inside = cells(drawing)
        assert len(inside) == rules.pits and all(cell.strip().isdigit() for cell in inside), drawing
        assert all(len(cell) == len(inside[0]) for cell in inside), drawing
        if not across or rules.houses <= 3:
            assert all(cell.startswith(" ") and cell.endswith(" ") for cell in inside), drawing
        else:  # with a space on each side, four to six houses across would be wider than a phone
            assert 4 <= rules.houses <= 6 and len(inside[0]) == 2
