"""The board fits a phone: every drawing the bot can send stays within the columns a board's
container shows on a 360-pixel screen, for every variant and every Kalah size."""

import re

import pytest

from bot.engine import VARIANTS, Game, rules_for
from bot.render import BOARD_COLUMNS, PLAYED_MARK, across_width, board_text, width_of

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
        assert width_of(drawing) <= BOARD_COLUMNS, drawing
        for value in (*game.board, *game.scores):
            assert str(value) in drawing  # narrow, but nothing left out


def test_six_houses_lie_across_and_ten_stand_upright():
    assert board_text(Game(rules_for("wari"))).splitlines()[0].split() == ["12", "11", "10", "9", "8", "7"]
    upright = board_text(Game(rules_for("kalah", 10, 10))).splitlines()
    assert upright[2].split()[0] == "1" and upright[-3].split()[0] == "10"
    assert len(upright) == 10 + 4


TOUCHING = re.compile(r"[│┤├─]\d|\d[│┤├─]")


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda rules: rules.label)
def test_no_number_touches_a_line_of_the_drawing(rules):
    for game in extremes(rules):
        drawing = board_text(game)
        assert not TOUCHING.search(drawing), drawing


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda rules: rules.label)
def test_the_house_the_last_move_was_sown_from_is_marked_as_the_picture_rings_it(rules):
    game = Game(rules)
    assert PLAYED_MARK not in board_text(game)  # no move yet: nothing marked
    house = game.legal_moves[-1]
    game.play(house)
    drawing = board_text(game)
    assert drawing.count(PLAYED_MARK) == 1 and width_of(drawing) <= BOARD_COLUMNS, drawing
    lines = drawing.splitlines()
    (row,) = [line for line in lines if PLAYED_MARK in line]
    marked = re.search(f"{PLAYED_MARK}(\\d+)", row)
    assert marked and int(marked[1]) == game.board[house - 1], drawing
    assert row[marked.start() - 1] in " │", drawing  # the mark takes a space: nothing moves
    # Where the mark is: in that house's column (across) or on its line (upright).
    if across_width(rules) <= BOARD_COLUMNS:
        labels = lines[-1] if house <= rules.houses else lines[0]
        assert labels[marked.end() - len(str(house)) : marked.end()] == str(house), drawing
    else:
        assert str(house) in (row.split()[0], row.split()[-1]), drawing
