"""A tournament's crosstable as a picture, for servers whose boards are pictures.

The crosstable as a phone shows it (:func:`bot.tournament.crosstable_text` at a board's width,
26 columns, names whole where they fit) is drawn line by line in a monospaced font, dark on
light, about 375 pixels wide. A 360-pixel phone shows it 240 points wide (as measured in the
sandbox's real browser, tests/bot/test_sandbox_tournament.py), its print at 14 points; the
results file's 40 columns, 560 pixels, would shrink to 9.

>>> png = crosstable_png("1 Ama 3\\n2 Kofi 2")
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from .fonts import font

#: The face (:mod:`.fonts`): DejaVu's monospaced one, so that the columns line up.
MONO_FONT = "DejaVuSansMono.ttf"
FONT_SIZE = 22
PAD = 16
BACKGROUND, INK = (250, 246, 238), (40, 28, 16)


def crosstable_png(text: str) -> bytes:
    """The PNG of ``text``, one crosstable line a line."""
    mono = font(FONT_SIZE, MONO_FONT)
    lines = text.splitlines() or [""]
    line_height = round(FONT_SIZE * 1.3)
    width = round(max(mono.getlength(line) for line in lines)) + 2 * PAD
    image = Image.new("RGB", (max(width, 2 * PAD + 1), line_height * len(lines) + 2 * PAD), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for number, line in enumerate(lines):
        draw.text((PAD, PAD + number * line_height), line, fill=INK, font=mono)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
