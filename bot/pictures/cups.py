"""A cup and its seed count as a small square picture: the bot's application emojis for the cup
buttons (:mod:`bot.emojis` uploads them).

Discord shows a button's emoji about 20 pixels wide on a phone, so the picture holds nothing but
the count, as large as the cup allows, in the picture board's colours (:mod:`.board`): a dark
cup ringed with the board's wood, the digits cream on the cup. The ring keeps the cup apart from
Discord's dark theme, and the dark cup from its light one; around the ring the picture is
transparent. An empty cup shows no digit: nothing in it.

>>> png = cup_png(12)
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", png == cup_png(12), png != cup_png(13)
(True, True, True)
>>> cup_png(MOST_SEEDS + 1)
Traceback (most recent call last):
...
ValueError: a cup picture shows 0 to 48 seeds, not 49
"""

from __future__ import annotations

import functools
import io

from PIL import Image, ImageDraw

from .board import CUP, CUP_EDGE, DIGIT_EM, NUMBER_FONT, SUPERSAMPLE, WOOD
from .fonts import font

#: The most seeds a cup picture shows: every seed of a game of Wari (Kalah's bigger boards' fuller
#: cups are shown as text).
MOST_SEEDS = 48
#: Discord's size for an emoji's picture, in pixels.
SIZE = 128
#: The wooden ring's width and the cup's dark edge's, in pixels of the finished picture.
RING, EDGE = 10, 3
#: How tall the digits are, in pixels: one digit, and two (narrower, so that they fit the cup).
DIGIT_HEIGHTS = {1: 70, 2: 60}
COUNT = (255, 248, 232)


@functools.cache
def cup_png(seeds: int) -> bytes:
    """The picture of a cup holding ``seeds`` seeds (0 to :data:`MOST_SEEDS`), as PNG bytes."""
    if not 0 <= seeds <= MOST_SEEDS:
        raise ValueError(f"a cup picture shows 0 to {MOST_SEEDS} seeds, not {seeds}")
    k = SUPERSAMPLE
    size = SIZE * k
    picture = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(picture)
    draw.ellipse((0, 0, size - 1, size - 1), fill=WOOD)
    inset = RING * k
    draw.ellipse((inset, inset, size - 1 - inset, size - 1 - inset), fill=CUP, outline=CUP_EDGE, width=EDGE * k)
    if seeds:
        text = str(seeds)
        digits = font(round(DIGIT_HEIGHTS[len(text)] * k / DIGIT_EM), NUMBER_FONT)
        draw.text((size / 2, size / 2), text, font=digits, fill=COUNT, anchor="mm")
    picture = picture.resize((SIZE, SIZE), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    picture.save(out, format="PNG", optimize=True)
    return out.getvalue()
