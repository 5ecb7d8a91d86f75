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
"""

from __future__ import annotations

import contextlib
import functools

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
