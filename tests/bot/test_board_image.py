"""The image board: a PNG of the right size for every variant and Kalah size, the same bytes for
the same position, and the last move and each house's count visible in the pixels."""

import io
from typing import cast

import pytest
from PIL import Image, ImageChops

from bot.board_image import MAX_WIDTH, board_png
from bot.engine import VARIANTS, Game, rules_for

ALL_RULES = [rules_for(name) for name in VARIANTS if name != "kalah"] + [
    rules_for("kalah", houses, seeds) for houses in range(1, 11) for seeds in range(1, 11)
]


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def house_box(image: Image.Image, game: Game, house: int) -> tuple[int, int, int, int]:
    """The square around ``house``, found from the layout's proportions: across, B's store, the n
    houses, A's store; B's row above A's."""
    from bot.board_image import _layout

    n = game.rules.houses
    pitch, store, margin, label = _layout(n)
    pad = int(pitch * 0.12)
    column, row = (house - 1, 1) if house <= n else (2 * n - house, 0)
    left = margin + pad + store + column * pitch
    top = margin // 2 + label + pad + row * pitch
    return (left, top, left + pitch, top + pitch)


def differs(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int] | None = None) -> bool:
    """Whether some pixel changed clearly: the palette is chosen per picture, so a change elsewhere
    may shift a colour by a few units everywhere; a drawn change moves it by far more."""
    if box:
        a, b = a.crop(box), b.crop(box)
    # The pictures are RGB (see decode), so there is one (low, high) pair per band, never a single
    # pair: Pillow's return type covers both.
    extrema = cast(tuple[tuple[int, int], ...], ImageChops.difference(a, b).getextrema())
    return max(high for _low, high in extrema) > 40


def test_png_decodes_with_the_expected_size():
    image = decode(board_png(Game("wari")))
    width, height = image.size
    assert 600 <= width <= MAX_WIDTH and 200 <= height <= 400


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda rules: rules.label)
def test_every_board_draws(rules):
    game = Game(rules)
    move = game.play(game.legal_moves[-1])
    png = board_png(game, last_move=move)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = Image.open(io.BytesIO(png)).size
    assert width <= MAX_WIDTH and height <= 400
    assert len(png) < 40_000


def test_same_position_same_bytes():
    game = Game("wari")
    move = None
    for house in (5, 7, 2, 12):
        move = game.play(house)
    assert board_png(game, last_move=move) == board_png(game, last_move=move)
    twin = Game("wari")
    for house in (5, 7, 2, 12):
        twin.play(house)
    assert board_png(twin, last_move=twin.moves[-1]) == board_png(game, last_move=move)


def test_last_move_and_captures_are_highlighted_and_nothing_else():
    game = Game("wari")
    for house in (5, 7, 2):
        game.play(house)
    move = game.play(12)  # B(12,5)+2: captures house 5
    assert move.captures == ((5, 2),)
    plain, lit = decode(board_png(game)), decode(board_png(game, last_move=move))
    assert differs(plain, lit, house_box(plain, game, 12))  # played from
    assert differs(plain, lit, house_box(plain, game, 5))  # captured
    for house in (1, 2, 3, 4, 6, 7, 8, 9, 10, 11):
        assert not differs(plain, lit, house_box(plain, game, house)), house


def test_a_house_count_shows_in_that_house_only():
    rules = rules_for("kalah", 10, 10)
    start = Game(rules)
    other = Game.from_state(rules, (start.state[0] + 3,) + start.state[1:])
    before, after = decode(board_png(start)), decode(board_png(other))
    assert differs(before, after, house_box(before, start, 1))
    assert not differs(before, after, house_box(before, start, 2))
    assert not differs(before, after, house_box(before, start, 20))


def test_store_counts_show():
    rules = rules_for("wari")
    base = Game.from_state(rules, (4,) * 12 + (0, 0, 0, 0))
    scored = Game.from_state(rules, (4,) * 11 + (0,) + (0, 4, 0, 0))
    assert differs(decode(board_png(base)), decode(board_png(scored)))
