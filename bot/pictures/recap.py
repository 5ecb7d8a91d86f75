"""A player's season recap as a card (PNG, with Pillow): their name, the season, and a tile for
each figure of it (games, rating points, best win, accuracy, puzzles), its badges at the foot.

The card is a portrait, :data:`WIDTH` pixels wide, which Discord shows at the chat's width: on a
360-pixel phone about 330 wide, so its smallest print (:data:`NOTE_SIZE`) is some 13 pixels
there and the figures (:data:`VALUE_SIZE`) about 30. Every text is fitted to its place
(:func:`.fonts.fitted`): a long name or a big number gets smaller, then is cut short, never
drawn over an edge. It draws texts it is given, in the reader's language already (the
front end writes them, and the same facts as the picture's alt text): nothing of Discord.

>>> card = RecapCard("Ama", ("1 Jan 2026 – 31 Jan 2026", "Wari"), (Tile("Games", "3", ("2 W · 0 D · 1 L",)),))
>>> recap_png(card)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from .board import NAME_FONT
from .charts import BACKGROUND, GRID, TEXT
from .fonts import Font, fitted, font

#: The face of the texts that are not figures (:mod:`.fonts`); the figures and the name are bold.
TEXT_FONT = "DejaVuSans.ttf"
WIDTH = 720
PAD = 28
GAP = 16
#: Inside a tile, around its texts.
INSET = 18
NAME_SIZE, LINE_SIZE, LABEL_SIZE, VALUE_SIZE, NOTE_SIZE = 52, 28, 26, 64, 28
#: The space a line of each size takes (its size and some air).
LINE_HEIGHT = {
    size: round(size * (1.15 if size == VALUE_SIZE else 1.3))
    for size in (NAME_SIZE, LINE_SIZE, LABEL_SIZE, VALUE_SIZE, NOTE_SIZE)
}
#: Tiles a row.
COLUMNS = 2
#: The season's colour (Discord's gold, as its embeds), a bar along the top; the tiles a shade
#: lighter than the background; the labels quieter than the figures.
ACCENT, TILE, LABEL = (241, 196, 15), (54, 57, 63), (181, 186, 193)
ACCENT_BAR = 12


@dataclass(frozen=True)
class Tile:
    """One figure of the season: its label, the figure, and up to a few lines about it."""

    label: str
    value: str
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class RecapCard:
    """What the card says: the player's name, the lines under it (the season's dates, the rule
    set), and its tiles in order."""

    name: str
    lines: tuple[str, ...]
    tiles: tuple[Tile, ...]


Colour = tuple[int, int, int]


@dataclass(frozen=True)
class Text:
    """A text where it is drawn (``xy`` its top left) in the font it fits in."""

    text: str
    xy: tuple[float, float]
    size: int
    face: str
    colour: Colour
    #: The right edge it must stay within (its box's, or the card's).
    room: float

    def box(self) -> tuple[float, float, float, float]:
        """Its (left, top, right, bottom) in pixels, as drawn."""
        return ImageDraw.Draw(Image.new("RGB", (1, 1))).textbbox(self.xy, self.text, self.font)

    @property
    def font(self) -> Font:
        return font(self.size, self.face)


@dataclass(frozen=True)
class Layout:
    """Where everything of a card goes: its height, its tiles' boxes and its texts."""

    height: int
    boxes: list[tuple[float, float, float, float]]
    texts: list[Text]


def placed(text: str, left: float, top: float, right: float, size: int, face: str, colour: Colour) -> Text:
    """``text`` at (``left``, ``top``), fitted within ``right``."""
    shown, fitting = fitted(text, right - left, size, face)
    return Text(shown, (left, top), getattr(fitting, "size", size), face, colour, right)


def tile_height(tile: Tile) -> int:
    return 2 * INSET + LINE_HEIGHT[LABEL_SIZE] + LINE_HEIGHT[VALUE_SIZE] + len(tile.notes) * LINE_HEIGHT[NOTE_SIZE]


def tile_texts(tile: Tile, box: tuple[float, float, float, float]) -> list[Text]:
    """A tile's label, figure and notes, from its top, each within it."""
    left, top, right, _bottom = box
    left, right, y = left + INSET, right - INSET, top + INSET
    texts = [placed(tile.label, left, y, right, LABEL_SIZE, TEXT_FONT, LABEL)]
    y += LINE_HEIGHT[LABEL_SIZE]
    texts.append(placed(tile.value, left, y, right, VALUE_SIZE, NAME_FONT, TEXT))
    y += LINE_HEIGHT[VALUE_SIZE]
    for note in tile.notes:
        texts.append(placed(note, left, y, right, NOTE_SIZE, TEXT_FONT, TEXT))
        y += LINE_HEIGHT[NOTE_SIZE]
    return texts


def rows_of(tiles: tuple[Tile, ...]) -> list[tuple[Tile, ...]]:
    """The tiles in rows of :data:`COLUMNS`."""
    return [tiles[start : start + COLUMNS] for start in range(0, len(tiles), COLUMNS)]


def layout(card: RecapCard) -> Layout:
    """Where the card's name, lines and tiles go, from the top down."""
    right = WIDTH - PAD
    y: float = ACCENT_BAR + PAD
    texts = [placed(card.name, PAD, y, right, NAME_SIZE, NAME_FONT, TEXT)]
    y += LINE_HEIGHT[NAME_SIZE]
    for line in card.lines:
        texts.append(placed(line, PAD, y, right, LINE_SIZE, TEXT_FONT, LABEL))
        y += LINE_HEIGHT[LINE_SIZE]
    y += GAP
    boxes = []
    column_width = (WIDTH - 2 * PAD - (COLUMNS - 1) * GAP) / COLUMNS
    for row in rows_of(card.tiles):
        height = max(tile_height(tile) for tile in row)
        for number, tile in enumerate(row):
            left = PAD + number * (column_width + GAP)
            box = (left, y, left + column_width, y + height)
            boxes.append(box)
            texts.extend(tile_texts(tile, box))
        y += height + GAP
    return Layout(round(y - GAP + PAD), boxes, texts)


def recap_png(card: RecapCard) -> bytes:
    """The card as a PNG."""
    drawn = layout(card)
    image = Image.new("RGB", (WIDTH, drawn.height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, WIDTH, ACCENT_BAR], fill=ACCENT)
    for box in drawn.boxes:
        draw.rounded_rectangle(box, radius=INSET // 2, fill=TILE, outline=GRID, width=2)
    for text in drawn.texts:
        draw.text(text.xy, text.text, fill=text.colour, font=text.font)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
