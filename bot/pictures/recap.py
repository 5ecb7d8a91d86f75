"""A player's season recap as a card (PNG, with Pillow): their name, the season, and a tile for
each figure of it (games, rating points, best win, accuracy, puzzles, badges), one a row.

The card is a portrait, :data:`WIDTH` pixels wide, which Discord shows at the message column's
width: on a 360-pixel phone 272 CSS pixels. Every text but the name and the figures is drawn at
:data:`PRINT_SIZE`, 12 pixels there; the figures (:data:`VALUE_SIZE`) some 24. So each tile
takes the card's width: its label and its notes on the left, its figure big on the right (two
tiles a row would leave a long French or Portuguese label no room at that size). A text too long
for its place goes on over more lines (:func:`.fonts.wrapped`): the card grows taller, its print
never smaller, nothing cut; only a figure too wide gets smaller (:func:`.fonts.fitted`). It
draws texts it is given, in the reader's language already (the front end writes them, and the
same facts as the picture's alt text): nothing of Discord.

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
from .fonts import Font, fitted, font, wrapped

#: The face of the texts that are not figures (:mod:`.fonts`); the figures and the name are bold.
TEXT_FONT = "DejaVuSans.ttf"
WIDTH = 720
PAD = 28
GAP = 10
#: Inside a tile, around its texts.
INSET = 12
#: The print of every text but the name and the figures: 32 of the card's 720 pixels is 12.1 CSS
#: pixels at the 272 a 360-pixel phone shows it at, the smallest the team lets a phone show.
PRINT_SIZE = 32
NAME_SIZE, VALUE_SIZE = 48, 64
#: The name on at most this many lines, smaller if it must, down to :data:`NAME_LEAST` (32 W's fit at it).
NAME_LINES, NAME_LEAST = 2, 36
#: The most of a tile's inside its figure takes (a bigger figure gets smaller): the rest is its label's and notes'.
VALUE_SHARE = 0.5
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


def figure(value: str, left: float, top: float, right: float) -> Text:
    """A tile's figure, big, against ``right`` from ``top``; smaller if it would reach past ``left``."""
    shown, fitting = fitted(value, right - left, VALUE_SIZE, NAME_FONT)
    width = fitting.getlength(shown)
    return Text(shown, (right - width, top), getattr(fitting, "size", VALUE_SIZE), NAME_FONT, TEXT, right)


def line_height(size: int) -> int:
    """The space a line of ``size`` takes: its size and some air."""
    return round(size * 1.25)


def lines_placed(text: str, left: float, top: float, right: float, size: int, face: str, colour: Colour) -> list[Text]:
    """``text`` from (``left``, ``top``) down, over as many lines as it needs within ``right``, at ``size``."""
    lines = wrapped(text, right - left, size, face)
    return [
        Text(line, (left, top + row * line_height(size)), size, face, colour, right) for row, line in enumerate(lines)
    ]


def below(texts: list[Text]) -> float:
    """Where the next line goes under ``texts``."""
    return max(text.xy[1] + line_height(text.size) for text in texts)


def tile_at(tile: Tile, top: float) -> tuple[tuple[float, float, float, float], list[Text]]:
    """A tile across the card from ``top``: its figure on the right; its label and then its
    notes down the left, in the room the figure leaves. Its box and its texts."""
    left, right = PAD + INSET, WIDTH - PAD - INSET
    value = figure(tile.value, right - VALUE_SHARE * (right - left), top + INSET, right)
    column = value.xy[0] - GAP
    texts = lines_placed(tile.label, left, top + INSET, column, PRINT_SIZE, TEXT_FONT, LABEL)
    for note in tile.notes:
        texts += lines_placed(note, left, below(texts), column, PRINT_SIZE, TEXT_FONT, TEXT)
    texts.append(value)
    return (PAD, top, WIDTH - PAD, below(texts) + INSET), texts


def name_size(name: str) -> int:
    """The size the name is drawn at: :data:`NAME_SIZE`, or smaller where it would take more than :data:`NAME_LINES`."""
    size = NAME_SIZE
    while size > NAME_LEAST and len(wrapped(name, WIDTH - 2 * PAD, size, NAME_FONT)) > NAME_LINES:
        size -= 2
    return size


def layout(card: RecapCard) -> Layout:
    """Where the card's name, lines and tiles go, from the top down."""
    left, right = PAD, WIDTH - PAD
    texts = lines_placed(card.name, left, ACCENT_BAR + PAD, right, name_size(card.name), NAME_FONT, TEXT)
    for line in card.lines:
        texts += lines_placed(line, left, below(texts), right, PRINT_SIZE, TEXT_FONT, LABEL)
    y, boxes = below(texts) + GAP, []
    for tile in card.tiles:
        box, tile_texts = tile_at(tile, y)
        boxes.append(box)
        texts += tile_texts
        y = box[3] + GAP
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
