"""The board as a picture (PNG, with Pillow), for players who chose ``board: image``.

Drawn as :func:`bot.render.across_text` lays it out, for every size: B's row on top read right to
left (houses 2n down to n+1), A's row below from 1 to n, B's store (prisoners) on the left and A's
on the right, each house's number beside it. The picture holds numbers and the letters A and B
only, so it needs no translation; the words stay in the message.

>>> from bot.engine import Game
>>> game = Game("wari")
>>> png = board_png(game, last_move=game.play(5))
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", png == board_png(game, last_move=game.moves[-1])
(True, True)
"""

from __future__ import annotations

import functools
import io
import math

from PIL import Image, ImageDraw, ImageFont

from bot.engine import Game, MoveRecord

#: The widest picture: a phone shows an attachment at about 360-400 points across, so an image
#: at most 800 pixels wide is shown at half size at worst, and every number still reads.
MAX_WIDTH = 800
#: Houses up to this size (in pixels) across; boards of more houses get smaller ones, to fit.
PITCH_MAX = 104
#: Up to this many seeds a house shows each seed as a dot around its number.
MAX_DOTS = 12
#: Drawn this many times larger, then shrunk: Pillow's shapes have no anti-aliasing of their own.
SUPERSAMPLE = 2

BACKGROUND = (43, 45, 49)  # Discord's dark theme, as in bot.charts
WOOD, WOOD_EDGE = (176, 122, 72), (120, 78, 42)
CUP, CUP_EDGE = (124, 80, 44), (92, 58, 30)
SEED, SEED_EDGE = (240, 226, 196), (150, 120, 80)
NUMBER = (255, 248, 235)
LABEL = (196, 200, 206)
PLAYED = (255, 204, 64)  # the house the last move was played from
CAPTURED = (235, 82, 70)  # houses the last move captured from


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    """Pillow's own font at ``size`` pixels (Pillow 10.1 and later); Pillow 10.0 has one size only."""
    return _font_cached(size)


@functools.lru_cache(maxsize=32)
def _font_cached(size: int):
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1: no size argument, a small bitmap font
        return ImageFont.load_default()


def _layout(houses: int) -> tuple[int, int, int, int]:
    """(pitch, store width, margin, label height) in final pixels for a board of ``houses`` a row."""
    margin = 14
    pitch = int(min(PITCH_MAX, (MAX_WIDTH - 2 * margin) // (houses + 1.9)))
    store = int(pitch * 0.8)
    label = max(18, int(pitch * 0.3))
    return pitch, store, margin, label


def board_png(game: Game, *, last_move: MoveRecord | None = None) -> bytes:
    """The position of ``game`` as a PNG, ``last_move`` (if any) highlighted: a gold ring around the
    house it was played from and a red ring around each house it captured from.

    Same game, same bytes. Width: at most :data:`MAX_WIDTH` pixels (about 786 for 6 to 10 houses, 738 for 5,
    322 for one); houses shrink from 104 to 64 pixels across as their number grows.
    """
    n = game.rules.houses
    board, (store_a, store_b) = game.board, game.scores
    pitch, store_w, margin, label_h = _layout(n)
    k = SUPERSAMPLE
    pad = int(pitch * 0.12)  # wood around the cups
    board_w = 2 * store_w + n * pitch + 2 * pad
    board_h = 2 * pitch + 2 * pad
    width, height = board_w + 2 * margin, board_h + 2 * (label_h + margin // 2) + margin

    image = Image.new("RGB", (width * k, height * k), BACKGROUND)
    draw = ImageDraw.Draw(image)
    big = _font(int(pitch * 0.30) * k)
    mid = _font(int(pitch * 0.25) * k)
    letters = _font(int(label_h * 1.0) * k)
    small = _font(int(label_h * 0.75) * k)
    store_font = _font(int(pitch * 0.34) * k)

    x0, y0 = margin, margin // 2 + label_h  # the board's top-left corner
    draw.rounded_rectangle(
        [x0 * k, y0 * k, (x0 + board_w) * k, (y0 + board_h) * k],
        radius=int(pitch * 0.35) * k,
        fill=WOOD,
        outline=WOOD_EDGE,
        width=3 * k,
    )

    def centre(house: int) -> tuple[float, float]:
        """The middle of house ``house`` (1..2n), in final pixels."""
        if house <= n:
            column, row = house - 1, 1
        else:
            column, row = 2 * n - house, 0
        return (x0 + pad + store_w + (column + 0.5) * pitch, y0 + pad + (row + 0.5) * pitch)

    radius = pitch * 0.42
    captured = {house for house, _seeds in last_move.captures} if last_move else set()
    played = last_move.house if last_move and last_move.sows else None

    for house in range(1, 2 * n + 1):
        cx, cy = centre(house)
        ring = PLAYED if house == played else CAPTURED if house in captured else None
        if ring:
            r = radius + pitch * 0.07
            draw.ellipse([(cx - r) * k, (cy - r) * k, (cx + r) * k, (cy + r) * k], fill=ring)
        r = radius
        draw.ellipse([(cx - r) * k, (cy - r) * k, (cx + r) * k, (cy + r) * k], fill=CUP, outline=CUP_EDGE, width=2 * k)
        seeds = board[house - 1]
        if 0 < seeds <= MAX_DOTS:
            dot, ring_r = pitch * 0.05, radius * 0.72
            for i in range(seeds):
                angle = -math.pi / 2 + 2 * math.pi * i / max(seeds, 6)
                sx, sy = cx + ring_r * math.cos(angle), cy + ring_r * math.sin(angle)
                draw.ellipse(
                    [(sx - dot) * k, (sy - dot) * k, (sx + dot) * k, (sy + dot) * k],
                    fill=SEED,
                    outline=SEED_EDGE,
                    width=k,
                )
        draw.text((cx * k, cy * k), str(seeds), fill=NUMBER, font=mid if 0 < seeds <= MAX_DOTS else big, anchor="mm")
        # the house's number: above B's row, below A's
        ly = y0 - label_h / 2 - margin // 4 if house > n else y0 + board_h + label_h / 2 + margin // 4
        draw.text((cx * k, ly * k), str(house), fill=LABEL, font=small, anchor="mm")

    # the stores: B's on the left, A's on the right, with their letter above (B) or below (A)
    inset = pitch * 0.06
    for letter, count, left, letter_y in (
        ("B", store_b, x0 + pad, y0 - label_h / 2 - margin // 4),
        ("A", store_a, x0 + pad + store_w + n * pitch, y0 + board_h + label_h / 2 + margin // 4),
    ):
        box = [
            (left + inset) * k,
            (y0 + pad + inset) * k,
            (left + store_w - inset) * k,
            (y0 + board_h - pad - inset) * k,
        ]
        draw.rounded_rectangle(box, radius=int(store_w / 2 - inset) * k, fill=CUP, outline=CUP_EDGE, width=2 * k)
        cx = left + store_w / 2
        draw.text((cx * k, (y0 + board_h / 2) * k), str(count), fill=NUMBER, font=store_font, anchor="mm")
        draw.text((cx * k, letter_y * k), letter, fill=NUMBER, font=letters, anchor="mm")

    image = image.reduce(k)
    image = image.quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG")  # the palette does the shrinking; optimize=True costs 3x the time for 6% less
    return out.getvalue()
