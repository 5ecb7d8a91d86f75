"""The board as a picture (PNG, with Pillow), for servers that chose ``board: image``.

Drawn for a phone: Discord shows an embed's picture about as wide as the screen less its margins
(some 240 to 320 CSS pixels on a 360 to 390 pixel phone) and at most about 280 pixels tall, so
the picture is at most :data:`WIDTH` pixels wide and a board of many houses stands upright
rather than lying in a wide strip, as the text board does (:func:`bot.render.board_text`, whose
rule is followed: :func:`stands_upright`). Every number is drawn at least :data:`DIGIT_PX` pixels
tall (:data:`UPRIGHT_DIGIT_PX` upright, where the picture is taller), which stays about 12 CSS
pixels on such a screen.

Across (as :func:`bot.render.across_text`): B's row on top read right to left (houses 2n down to
n+1), A's row below from 1 to n, B's store (prisoners) on the left and A's on the right, each
house's number beside it. Upright (as :func:`bot.render.upright_text`): A's houses down the left
column (1 to n), B's up the right one (n+1 to 2n), B's store on top above its column and A's below
its own. Each player's name is on a plate beside their row (B above, A below), after their letter;
the plate of the player to move is lit and marked ▶. Names are the only words: numbers, letters
and names need no translation.

The picture is transparent around the wooden board, so that it sits on Discord's light theme as
well as on its dark one; every text is drawn on the wood, in a cup or on a plate, never on the
transparent background.

>>> from bot.engine import Game
>>> game = Game("wari")
>>> png = board_png(game, last_move=game.play(5), names=("Ama", "Kofi"))
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", png == board_png(game, last_move=game.moves[-1], names=("Ama", "Kofi"))
(True, True)
"""

from __future__ import annotations

import functools
import io
import math
import unicodedata
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engine import Game, MoveRecord, Player, Rules
from bot.render import BOARD_COLUMNS, across_width

from .fonts import Font, font

#: The widest picture, in pixels: about what a 390-pixel phone shows of an embed's picture (less on
#: a 360-pixel one, which shrinks it to three quarters at most), and what a desktop shows as is.
WIDTH = 320
#: The width of an upright picture: it is also limited by its height (Discord shows a picture at
#: most about 280 pixels tall), so a wider one would only be shrunk more.
UPRIGHT_WIDTH = 272
#: The height in pixels of the digits of the counts and the house numbers, across and upright.
DIGIT_PX, UPRIGHT_DIGIT_PX = 16, 15
#: Drawn this many times larger, then shrunk: Pillow's shapes have no anti-aliasing of their own.
SUPERSAMPLE = 2

WOOD, WOOD_EDGE = (176, 122, 72), (120, 78, 42)
CUP, CUP_EDGE = (98, 60, 30), (72, 42, 18)
COUNT = (255, 252, 245)  # the seeds in a cup or a store
LABEL = (58, 32, 12)  # the house numbers and store letters, dark on the wood
PLATE, PLATE_TEXT = (88, 54, 26), (250, 214, 150)  # a name plate
TURN, TURN_TEXT = (150, 222, 128), (20, 36, 12)  # the plate of the player to move
PLAYED = (255, 204, 64)  # the house the last move was played from
CAPTURED = (235, 82, 70)  # houses the last move captured from
#: The faces (:mod:`.fonts`): condensed bold for the numbers, bold for the names.
NUMBER_FONT, NAME_FONT = "DejaVuSansCondensed-Bold.ttf", "DejaVuSans-Bold.ttf"
#: Digits are this part of the font's size tall (DejaVu Sans: 0.73).
DIGIT_EM = 0.73

Box = tuple[float, float, float, float]  # left, top, right, bottom, in pixels


def stands_upright(rules: Rules) -> bool:
    """Whether the picture stands upright: when the text board does (its across drawing would not
    fit a phone), which is for boards of many houses (or of counts of three digits).

    >>> from bot.engine import rules_for
    >>> stands_upright(rules_for("wari")), stands_upright(rules_for("kalah", 10, 10))
    (False, True)
    """
    return across_width(rules) > BOARD_COLUMNS


@dataclass(frozen=True)
class Layout:
    """Where everything goes, in pixels of the final picture."""

    upright: bool
    width: int
    height: int
    board: Box  # the wood
    cups: tuple[Box, ...]  # house 1 to 2n
    labels: tuple[tuple[float, float], ...]  # the middle of each house's number, 1 to 2n
    stores: tuple[Box, Box]  # A's, B's
    plates: tuple[Box, Box]  # A's name plate, B's
    store_letters: tuple[tuple[float, float], ...]  # the middle of "A" and "B" beside the stores (across)
    digit_px: int
    name_px: int  # the size of the names' font
    ring_px: float  # the ring around a house the last move played or captured from: the gap between two cups

    def house_box(self, house: int) -> tuple[int, int, int, int]:
        """The cup of ``house`` (1..2n) in whole pixels, within its edge (its ring shows there too)."""
        left, top, right, bottom = self.cups[house - 1]
        return (math.ceil(left), math.ceil(top), math.floor(right), math.floor(bottom))


@functools.lru_cache(maxsize=64)
def layout(rules: Rules) -> Layout:
    """The layout of a board of ``rules``: across or upright (:func:`stands_upright`)."""
    return _upright(rules.houses) if stands_upright(rules) else _across(rules.houses)


def _across(n: int) -> Layout:
    digit = DIGIT_PX
    margin, pad, gap = 3, 6, 4
    plate_h, label_h = round(digit * 1.65), round(digit * 1.25)
    store_w = round(digit * 2.5)
    area = WIDTH - 2 * margin - 2 * pad - 2 * store_w - 2 * gap  # for the houses
    pitch = min(area / n, digit * 2.9)
    cup = pitch - 4
    left = margin + pad + store_w + gap + (area - n * pitch) / 2  # the first column of houses
    top = margin + pad + plate_h + 2 + label_h  # B's row
    height = round(top + 2 * pitch + label_h + 2 + plate_h + pad + margin)
    cups, labels = [], []
    for house in range(1, 2 * n + 1):
        column, row = (house - 1, 1) if house <= n else (2 * n - house, 0)
        x, y = left + column * pitch + (pitch - cup) / 2, top + row * pitch + (pitch - cup) / 2
        cups.append((x, y, x + cup, y + cup))
        label_y = top - label_h / 2 if row == 0 else top + 2 * pitch + label_h / 2
        labels.append((x + cup / 2, label_y))
    inset = (pitch - cup) / 2
    b_store = (margin + pad, top + inset, margin + pad + store_w, top + 2 * pitch - inset)
    a_store = (WIDTH - margin - pad - store_w, top + inset, WIDTH - margin - pad, top + 2 * pitch - inset)
    b_plate = (margin + pad, margin + pad, WIDTH - margin - pad, margin + pad + plate_h)
    a_plate = (margin + pad, height - margin - pad - plate_h, WIDTH - margin - pad, height - margin - pad)
    return Layout(
        upright=False,
        width=WIDTH,
        height=height,
        board=(margin, margin, WIDTH - margin, height - margin),
        cups=tuple(cups),
        labels=tuple(labels),
        stores=(a_store, b_store),
        plates=(a_plate, b_plate),
        store_letters=(
            ((a_store[0] + a_store[2]) / 2, top + 2 * pitch + label_h / 2),
            ((b_store[0] + b_store[2]) / 2, top - label_h / 2),
        ),
        digit_px=digit,
        name_px=round(digit * 1.05),
        ring_px=pitch - cup,
    )


def _upright(n: int) -> Layout:
    digit = UPRIGHT_DIGIT_PX
    width, margin, pad, gap = UPRIGHT_WIDTH, 3, 6, 4
    band = round(digit * 1.9)  # a plate and a store side by side
    pitch = round(digit * 1.6)  # a row of two houses
    label_w = round(digit * 1.9)
    inner = width - 2 * margin - 2 * pad
    cup_w = (inner - 2 * label_w - 2 * gap - 6) / 2
    cup_h = pitch - 4
    a_x = margin + pad + label_w + gap  # the left column: A's houses
    b_x = a_x + cup_w + 6
    top = margin + pad + band + gap  # the first row
    height = round(top + n * pitch + gap + band + pad + margin)
    cups: list[Box] = [(0, 0, 0, 0)] * (2 * n)
    labels: list[tuple[float, float]] = [(0, 0)] * (2 * n)
    for row in range(n):
        y = top + row * pitch + (pitch - cup_h) / 2
        a, b = row + 1, 2 * n - row  # house numbers
        cups[a - 1] = (a_x, y, a_x + cup_w, y + cup_h)
        cups[b - 1] = (b_x, y, b_x + cup_w, y + cup_h)
        labels[a - 1] = (margin + pad + label_w / 2, y + cup_h / 2)
        labels[b - 1] = (width - margin - pad - label_w / 2, y + cup_h / 2)
    # B's store at the top, on the side of its column, A's at the foot, on the side of its own; each
    # as wide as three digits need: the plates, beside them, have the rest of the width for the names
    store_w = round(digit * 3.3)
    b_top, a_top = margin + pad, height - margin - pad - band
    b_store = (width - margin - pad - store_w, b_top, width - margin - pad, b_top + band)
    a_store = (margin + pad, a_top, margin + pad + store_w, a_top + band)
    b_plate = (margin + pad, b_top, b_store[0] - gap, b_top + band)
    a_plate = (a_store[2] + gap, a_top, width - margin - pad, a_top + band)
    return Layout(
        upright=True,
        width=width,
        height=height,
        board=(margin, margin, width - margin, height - margin),
        cups=tuple(cups),
        labels=tuple(labels),
        stores=(a_store, b_store),
        plates=(a_plate, b_plate),
        store_letters=(),
        digit_px=digit,
        name_px=round(digit * 0.98),
        ring_px=pitch - cup_h,
    )


def _printable(name: str) -> str:
    """``name`` on one line: control characters and line breaks as spaces, runs of spaces as one
    (joiners and direction marks stay: some scripts need them)."""
    return " ".join("".join(" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c for c in name).split())


def _fit(text: str, font: Font, room: float) -> str:
    """``text``, cut short with … if it is wider than ``room``."""
    if font.getlength(text) <= room:
        return text
    while text and font.getlength(text + "…") > room:
        text = text[:-1]
    return text.rstrip() + "…"


def board_png(game: Game, *, last_move: MoveRecord | None = None, names: tuple[str, str] | None = None) -> bytes:
    """The position of ``game`` as a PNG: ``last_move`` (if any) highlighted, a gold ring around the
    house it was played from and a red ring around each house it captured from; ``names`` (A's,
    B's; cut short to fit) on the players' plates, the plate of the player to move lit and marked ▶
    (none once the game is over).

    Same game, same bytes. At most :data:`WIDTH` pixels wide (320 for every board lying across,
    :data:`UPRIGHT_WIDTH` upright; wari is 320 × 185, Kalah of ten houses 272 × 322).
    """
    n = game.rules.houses
    board, (store_a, store_b) = game.board, game.scores
    at = layout(game.rules)
    k = SUPERSAMPLE
    digit = at.digit_px

    def scaled(box: Box) -> list[float]:
        return [v * k for v in box]

    image = Image.new("RGBA", (at.width * k, at.height * k), (*WOOD_EDGE, 0))  # see-through, edge-coloured
    draw = ImageDraw.Draw(image)
    number_size = round(digit / DIGIT_EM) * k
    numbers = font(number_size, NUMBER_FONT)
    draw.rounded_rectangle(scaled(at.board), radius=digit * 0.8 * k, fill=WOOD, outline=WOOD_EDGE, width=2 * k)

    def count(box: Box, value: int) -> None:
        """``value`` in the middle of ``box``, smaller if it would not fit its width."""
        fitting, room = numbers, (box[2] - box[0]) * 0.86 * k
        if fitting.getlength(str(value)) > room:
            fitting = font(int(number_size * room / fitting.getlength(str(value))), NUMBER_FONT)
        middle = ((box[0] + box[2]) / 2 * k, (box[1] + box[3]) / 2 * k)
        draw.text(middle, str(value), fill=COUNT, font=fitting, anchor="mm")

    def cup(box: Box, ring: tuple[int, int, int] | None = None) -> None:
        """A cup, and its ``ring`` (if any) over its edge, half in the cup and half in the gap to the
        next one (half the gap at most: two rings never meet)."""
        radius = min(box[2] - box[0], box[3] - box[1]) * (0.5 if at.upright else 0.32)
        draw.rounded_rectangle(scaled(box), radius=radius * k, fill=CUP, outline=CUP_EDGE, width=k)
        if ring:
            r = at.ring_px / 2
            outer = (box[0] - r, box[1] - r, box[2] + r, box[3] + r)
            draw.rounded_rectangle(scaled(outer), radius=(radius + r) * k, outline=ring, width=round(at.ring_px * k))

    captured = {house for house, _seeds in last_move.captures} if last_move else set()
    played = last_move.house if last_move and last_move.sows else None
    for house in range(1, 2 * n + 1):
        box = at.cups[house - 1]
        cup(box, PLAYED if house == played else CAPTURED if house in captured else None)
        count(box, board[house - 1])
        x, y = at.labels[house - 1]
        draw.text((x * k, y * k), str(house), fill=LABEL, font=numbers, anchor="mm")

    for box, value in zip(at.stores, (store_a, store_b), strict=True):
        cup(box)
        count(box, value)
    for (x, y), letter in zip(at.store_letters, "AB", strict=False):
        draw.text((x * k, y * k), letter, fill=LABEL, font=numbers, anchor="mm")

    to_move = game.to_move
    name_font = font(at.name_px * k, NAME_FONT)
    for player, box in zip((Player.A, Player.B), at.plates, strict=True):
        lit = player is to_move
        height = box[3] - box[1]
        draw.rounded_rectangle(scaled(box), radius=height * 0.3 * k, fill=TURN if lit else PLATE)
        ink = TURN_TEXT if lit else PLATE_TEXT
        x, y = box[0] + height * 0.3, (box[1] + box[3]) / 2
        lead = ("▶ " if lit else "") + str(player)
        draw.text((x * k, y * k), lead, fill=ink, font=name_font, anchor="lm")
        if names is not None:
            x += name_font.getlength(lead + " ") / k + at.name_px * 0.3
            room = (box[2] - height * 0.3 - x) * k
            name = _fit(_printable(names[player]), name_font, room)
            draw.text((x * k, y * k), name, fill=ink, font=name_font, anchor="lm")

    image = image.reduce(k)
    image = image.quantize(colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG")  # the palette does the shrinking; optimize=True costs 3x the time for little
    return out.getvalue()
