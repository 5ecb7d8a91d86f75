"""The image board: a PNG sized for a phone for every variant and Kalah size (across, or upright
where the text board stands upright), transparent around the board, the same bytes for the same
position, and the last move, each house's count, the names and the player to move visible in the
pixels."""

import io
from typing import cast

import pytest
from PIL import Image, ImageChops

from bot.engine import VARIANTS, Game, rules_for
from bot.pictures.board import (
    COUNT,
    PLATE,
    TURN,
    UPRIGHT_WIDTH,
    WIDTH,
    board_png,
    layout,
    stands_upright,
)
from bot.render import board_text

ALL_RULES = [rules_for(name) for name in VARIANTS if name != "kalah"] + [
    rules_for("kalah", houses, seeds) for houses in range(1, 11) for seeds in range(1, 11)
]
#: The box Discord gives an embed's picture on a phone of 360 and of 390 CSS pixels (as the
#: sandbox page draws it, see tests/bot/test_picture_board_browser.py): the picture is shrunk to
#: fit it, never enlarged in Discord itself.
PHONE_BOXES = {360: (240, 280), 390: (270, 280)}
NAMES = ("Ama", "Kofi")


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGBA")


def differs(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int] | None = None) -> bool:
    """Whether some pixel changed clearly: the palette is chosen per picture, so a change elsewhere
    may shift a colour by a few units everywhere; a drawn change moves it by far more."""
    if box:
        a, b = a.crop(box), b.crop(box)
    # The pictures are RGBA (see decode), so there is one (low, high) pair per band, never a single
    # pair: Pillow's return type covers both.
    extrema = cast(tuple[tuple[int, int], ...], ImageChops.difference(a, b).getextrema())
    return max(high for _low, high in extrema) > 40


def whole(box) -> tuple[int, int, int, int]:
    left, top, right, bottom = box
    return (int(left), int(top), int(right) + 1, int(bottom) + 1)


def glyph_heights(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 60) -> list[int]:
    """The heights (pixels) of the shapes drawn in ``colour`` (within ``tolerance`` on each channel,
    opaque pixels only): each 8-connected group of such pixels is one glyph (a digit)."""
    rgba = image.convert("RGBA")
    width, height = rgba.size
    raw = rgba.tobytes()
    inside = set()
    for index in range(width * height):
        r, g, b, a = raw[4 * index : 4 * index + 4]
        if a > 200 and max(abs(r - colour[0]), abs(g - colour[1]), abs(b - colour[2])) <= tolerance:
            inside.add((index % width, index // width))
    heights = []
    while inside:
        stack = [inside.pop()]
        top = bottom = stack[0][1]
        while stack:
            x, y = stack.pop()
            top, bottom = min(top, y), max(bottom, y)
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    if (x + dx, y + dy) in inside:
                        inside.remove((x + dx, y + dy))
                        stack.append((x + dx, y + dy))
        heights.append(bottom - top + 1)
    return heights


def digit_height(png: bytes) -> int:
    """The height in the picture's pixels of the seed counts' digits: the most common height of the
    glyphs drawn in the counts' colour (specks of a pixel or two left aside)."""
    heights = [h for h in glyph_heights(Image.open(io.BytesIO(png)), COUNT) if h >= 4]
    assert heights, "no digit found in the picture"
    return max(set(heights), key=lambda h: (heights.count(h), h))


def on_phone(size: tuple[int, int], screen: int) -> float:
    """The scale a picture of ``size`` is shown at on a phone ``screen`` CSS pixels wide."""
    box_w, box_h = PHONE_BOXES[screen]
    return min(1.0, box_w / size[0], box_h / size[1])


def test_wari_lies_across_and_kalah_of_ten_houses_stands_upright():
    wari = decode(board_png(Game("wari"), names=NAMES))
    assert wari.size[0] <= WIDTH and wari.size[1] < wari.size[0]
    kalah = decode(board_png(Game(rules_for("kalah", 10, 10)), names=NAMES))
    assert kalah.size[0] <= UPRIGHT_WIDTH and kalah.size[1] > kalah.size[0]


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda rules: rules.label)
def test_every_board_draws_for_a_phone(rules):
    game = Game(rules)
    move = game.play(game.legal_moves[-1])
    png = board_png(game, last_move=move, names=NAMES)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    image = decode(png)
    width, height = image.size
    assert width <= WIDTH <= 390 - 70  # a phone's screen less Discord's margins
    assert len(png) < 20_000
    # upright (two columns, A's houses down the left one) exactly when the text board stands upright
    at, n = layout(rules), rules.houses
    assert at.upright == stands_upright(rules) == (board_text(game).count("\n") > 6)
    first, second, last = at.cups[0], at.cups[1], at.cups[2 * n - 1]  # houses 1, 2 and 2n
    if at.upright:  # A's houses down the left column, B's up the right one: 1 beside 2n, 2 below 1
        assert first[1] == last[1] and first[0] < last[0]
        assert n == 1 or (first[0] == second[0] and first[1] < second[1])
    else:  # A's row below B's, from left to right: 1 below 2n, 2 right of 1
        assert first[0] == last[0] and first[1] > last[1]
        assert n == 1 or (first[1] == second[1] and first[0] < second[0])
    # every number is about 12 CSS pixels tall or more on a phone
    digits = layout(rules).digit_px
    assert digits * on_phone(image.size, 360) >= 11.5 and digits * on_phone(image.size, 390) >= 12.5
    # see-through around the board: the corners, and the whole outer edge
    for corner in ((0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)):
        assert image.getpixel(corner)[3] == 0
    edge = [image.getpixel((x, 0))[3] for x in range(width)] + [image.getpixel((0, y))[3] for y in range(height)]
    assert set(edge) == {0}
    assert image.getpixel((width // 2, height // 2))[3] == 255  # and the board itself opaque


@pytest.mark.parametrize("rules", [rules_for("wari"), rules_for("kalah", 10, 10)], ids=lambda rules: rules.label)
def test_the_digits_drawn_are_as_tall_as_the_layout_says(rules):
    game = Game(rules)
    measured = digit_height(board_png(game, names=NAMES))
    assert layout(rules).digit_px - 2 <= measured <= layout(rules).digit_px + 1


def test_same_position_same_bytes():
    game = Game("wari")
    move = None
    for house in (5, 7, 2, 12):
        move = game.play(house)
    assert board_png(game, last_move=move, names=NAMES) == board_png(game, last_move=move, names=NAMES)
    twin = Game("wari")
    for house in (5, 7, 2, 12):
        twin.play(house)
    assert board_png(twin, last_move=twin.moves[-1], names=NAMES) == board_png(game, last_move=move, names=NAMES)


@pytest.mark.parametrize("rules", [rules_for("wari"), rules_for("kalah", 10, 10)], ids=lambda rules: rules.label)
def test_last_move_and_captures_are_highlighted_and_nothing_else(rules):
    game = Game(rules)
    if rules.name == "wari":
        for house in (5, 7, 2):
            game.play(house)
        move = game.play(12)  # B(12,5)+2: captures house 5
        assert move.captures == ((5, 2),)
    else:
        move = game.play(3)
    at = layout(rules)
    plain, lit = decode(board_png(game, names=NAMES)), decode(board_png(game, last_move=move, names=NAMES))
    marked = {move.house} | {house for house, _seeds in move.captures}
    for house in range(1, 2 * rules.houses + 1):
        assert differs(plain, lit, at.house_box(house)) == (house in marked), house


@pytest.mark.parametrize("rules", [rules_for("kalah", 6, 4), rules_for("kalah", 10, 10)], ids=lambda rules: rules.label)
def test_a_house_count_shows_in_that_house_only(rules):
    start = Game(rules)
    other = Game.from_state(rules, (start.state[0] + 3,) + start.state[1:])
    before, after = decode(board_png(start)), decode(board_png(other))
    at = layout(rules)
    assert differs(before, after, at.house_box(1))
    assert not differs(before, after, at.house_box(2))
    assert not differs(before, after, at.house_box(2 * rules.houses))


@pytest.mark.parametrize("rules", [rules_for("wari"), rules_for("kalah", 10, 10)], ids=lambda rules: rules.label)
def test_store_counts_show_in_the_store(rules):
    pits = rules.pits
    base = Game.from_state(rules, (rules.seeds,) * pits + (0, 0, 0, 0))
    scored = Game.from_state(rules, (rules.seeds,) * (pits - 1) + (0,) + (rules.seeds, 0, 0, 0))
    before, after = decode(board_png(base)), decode(board_png(scored))
    a_store, b_store = layout(rules).stores
    assert differs(before, after, whole(a_store)) and not differs(before, after, whole(b_store))


def lit_plate(image: Image.Image, rules) -> str | None:
    """Which plate (A or B) is lit for the player to move, if any, from its colour."""
    colours = []
    for box in layout(rules).plates:
        left, top, right, bottom = whole(box)
        colours.append(cast(tuple[int, ...], image.getpixel((right - 8, (top + bottom) // 2)))[:3])

    def near(colour, target) -> bool:  # the palette is chosen per picture
        return all(abs(c - t) <= 12 for c, t in zip(colour, target, strict=True))

    assert all(near(colour, TURN) or near(colour, PLATE) for colour in colours), colours
    lit = [letter for letter, colour in zip("AB", colours, strict=True) if near(colour, TURN)]
    assert len(lit) <= 1
    return lit[0] if lit else None


@pytest.mark.parametrize("rules", [rules_for("wari"), rules_for("kalah", 10, 10)], ids=lambda rules: rules.label)
def test_the_names_are_drawn_on_their_plates_and_the_player_to_move_is_marked(rules):
    at = layout(rules)
    a_plate, b_plate = (whole(box) for box in at.plates)
    a_to_move = Game(rules)
    b_to_move = Game.from_state(rules, a_to_move.state[: rules.pits] + (0, 0, 1, 0))
    assert b_to_move.to_move is not None and b_to_move.to_move.name == "B"

    image = decode(board_png(a_to_move, names=("Ama", "Kofi")))
    assert lit_plate(image, rules) == "A"
    other_b = decode(board_png(a_to_move, names=("Ama", "Yaw")))
    assert differs(image, other_b, b_plate) and not differs(image, other_b, a_plate)
    other_a = decode(board_png(a_to_move, names=("Esi", "Kofi")))
    assert differs(image, other_a, a_plate) and not differs(image, other_a, b_plate)
    nameless = decode(board_png(a_to_move))
    assert differs(image, nameless, a_plate) and differs(image, nameless, b_plate)

    # the marker moves to B's plate when B is to move, and nothing but the two plates changes
    turned = decode(board_png(b_to_move, names=("Ama", "Kofi")))
    assert lit_plate(turned, rules) == "B"
    assert differs(image, turned, a_plate) and differs(image, turned, b_plate)
    for house in range(1, 2 * rules.houses + 1):
        assert not differs(image, turned, at.house_box(house))


def test_no_plate_is_lit_once_the_game_is_over():
    game = Game("wari")
    game.surrender()
    assert game.is_over and lit_plate(decode(board_png(game, names=NAMES)), rules_for("wari")) is None


@pytest.mark.parametrize("rules", [rules_for("wari"), rules_for("kalah", 10, 10)], ids=lambda rules: rules.label)
def test_long_names_are_cut_to_fit_their_plate(rules):
    game = Game(rules)
    a_plate, b_plate = (whole(box) for box in layout(rules).plates)
    long, longer = decode(board_png(game, names=("Ama", "K" * 80))), decode(board_png(game, names=("Ama", "K" * 200)))
    assert not differs(long, longer)  # both cut at the same place
    short = decode(board_png(game, names=("Ama", "K")))
    outside = ImageChops.difference(short, long)
    outside.paste((0, 0, 0, 0), b_plate)  # every difference is on B's plate
    assert outside.getbbox() is None


@pytest.mark.parametrize(
    "name",
    ["أمة الله", "陳大文", "Kofi 🎲", "Ama\nSerwaa", "\u202eevil", "Łukasz Ж", "", "  "],
    ids=["arabic", "cjk", "emoji", "newline", "bidi-override", "latin-cyrillic", "empty", "blank"],
)
def test_any_unicode_name_draws(name):
    game = Game("wari")
    png = board_png(game, names=(name, name))
    assert png == board_png(game, names=(name, name))
    assert decode(png).size == decode(board_png(game)).size
