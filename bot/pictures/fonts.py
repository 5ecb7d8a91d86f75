"""The pictures' fonts: one loader for every picture, cached by size and face.

A face is a font file found among the system's fonts by its name: Debian's fonts-dejavu-core
gives the DejaVu faces, which cover Latin, Greek, Cyrillic, Arabic, Hebrew and more (a
character they lack, say a CJK one, shows as a box). Where the file is missing (not a Debian
machine), and for the pictures that ask for no face, Pillow's own font is used, which Pillow
10.1 and later scale to any size.

>>> font(16).getlength("1500") > 0
True
>>> font(16, "NoSuchFace.ttf").getlength("1500") > 0  # a missing face: Pillow's own font
True
>>> text, chosen = fitted("Kwame Nkrumah Mensah-Bonsu", 120, 20)
>>> text.endswith("…") and chosen.getlength(text) <= 120
True
>>> wrapped("Kwame Nkrumah Mensah-Bonsu · game #12", 200, 20)
['Kwame Nkrumah', 'Mensah-Bonsu', 'game #12']
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable

from PIL import ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@functools.lru_cache(maxsize=64)
def font(size: int, face: str | None = None) -> Font:
    """The font ``face`` (a file name, ``DejaVuSans-Bold.ttf``) at ``size`` pixels; Pillow's own
    font without a face, or where the face is missing."""
    if face is not None:
        with contextlib.suppress(OSError):  # not a Debian machine
            return ImageFont.truetype(face, size)
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # pragma: no cover - Pillow 10.0: one small size only
        return ImageFont.load_default()


def fitted(text: str, room: float, size: int, face: str | None = None) -> tuple[str, Font]:
    """``text`` as it fits in ``room`` pixels, and its font: at ``size``, else smaller down to
    three quarters of it, else cut short with "…" (a long name, a big number: never over its edge)."""
    smallest = size * 3 // 4
    while size > smallest and font(size, face).getlength(text) > room:
        size -= 1
    chosen = font(size, face)
    while len(text) > 1 and chosen.getlength(text) > room:
        text = text[:-2] + "…"
    return text, chosen


#: Where a line may break, the best first: between the parts of a text (``1500 → 1662 · place 1
#: of 2``), between words, and in a word too long for a line (a name in one word) between letters.
BREAKS = (" · ", " ", "")


def wrapped(text: str, room: float, size: int, face: str | None = None) -> list[str]:
    """``text`` in lines of at most ``room`` pixels at ``size``, broken where :data:`BREAKS` says.
    Never smaller, never cut: for the print that must stay readable, where a picture can grow
    taller instead."""
    chosen = font(size, face)
    return broken(text, BREAKS, lambda line: chosen.getlength(line) <= room)


def broken(text: str, breaks: tuple[str, ...], fits: Callable[[str], bool]) -> list[str]:
    """``text`` in lines that fit, broken at its first kind of break, a part too long at the next kind."""
    joint, finer = breaks[0], breaks[1:]
    lines: list[str] = []
    for part in text.split(joint) if joint else list(text):
        if lines and fits(lines[-1] + joint + part):
            lines[-1] += joint + part
        elif fits(part) or not finer:
            lines.append(part)
        else:
            lines += broken(part, finer, fits)
    return lines
