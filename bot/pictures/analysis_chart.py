"""The advantage chart of a game's analysis: who was ahead, move by move (PNG, with Pillow).

The line is A's expected score (:mod:`bot.ai.analysis.model`) after each move: at the top A is
winning, at the bottom B is, and the centre line is an even game. The area between the line
and the centre is filled in the colour of the side ahead, and the moves the analysis marked are
dots on the line: red for a blunder, orange for a mistake, yellow for an inaccuracy. A's name is
written at the top edge and B's at the bottom, each beside a square of their colour, so the
chart needs no other words. Sizes, the font and the colours are :mod:`.charts`'s, made to be
read on a phone.

>>> from bot.ai.analysis import GameAnalysis
>>> analysis = GameAnalysis("wari", "quick", (), (0.5, 0.62, 0.4))
>>> advantage_chart(analysis, ("Ama", "Kofi"))[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.ai.analysis import GameAnalysis

from .charts import BACKGROUND, FONT_SIZE, GRID, HEIGHT, LINE, LINE_WIDTH, PAD, TEXT, WIDTH, game_ticks
from .fonts import font

#: The fill of the side ahead: A light (above the centre), B darker than the background (below).
A_FILL, B_FILL = (148, 151, 156), (24, 25, 28)
#: The colour of each mark's dot (Discord's red, orange and yellow).
MARK_COLOURS = {"??": (237, 66, 69), "?": (240, 140, 30), "?!": (254, 231, 92)}
#: Room for A's name above the plot; for the move numbers and B's name below it.
MARGIN_TOP, MARGIN_BOTTOM = FONT_SIZE + PAD, 2 * FONT_SIZE + PAD
MARGIN_SIDE = PAD + FONT_SIZE // 2
DOT = LINE_WIDTH * 2


@dataclass(frozen=True)
class Frame:
    """Where the plot of a game of ``plies`` moves lies, and how positions map to pixels."""

    plies: int

    @property
    def plot(self) -> tuple[int, int, int, int]:
        return MARGIN_SIDE, MARGIN_TOP, WIDTH - MARGIN_SIDE, HEIGHT - MARGIN_BOTTOM

    def x(self, ply: float) -> float:
        """The column of the position after ``ply`` moves (0 the start, on the left edge)."""
        left, _top, right, _bottom = self.plot
        return left + (right - left) * (ply / self.plies if self.plies else 0.5)

    def y(self, advantage: float) -> float:
        """The row of A's expected score ``advantage``: 1 at the top, ½ the centre, 0 the bottom."""
        _left, top, _right, bottom = self.plot
        return bottom - (bottom - top) * advantage


@dataclass(frozen=True)
class Dot:
    """A marked move as drawn: the centre of its dot and its colour."""

    ply: int
    mark: str
    xy: tuple[float, float]

    @property
    def colour(self) -> tuple[int, int, int]:
        return MARK_COLOURS[self.mark]


def dots(analysis: GameAnalysis) -> list[Dot]:
    """The marked moves' dots, at the position each move led to; the worst drawn last (on top)."""
    frame = Frame(len(analysis.advantage) - 1)
    marked = [verdict for verdict in analysis.moves if verdict.mark]
    marked.sort(key=lambda verdict: ("?!", "?", "??").index(verdict.mark))
    return [Dot(v.ply, v.mark, (frame.x(v.ply), frame.y(analysis.advantage[v.ply]))) for v in marked]


def advantage_chart(analysis: GameAnalysis, names: tuple[str, str]) -> bytes:
    """The chart of ``analysis`` as a PNG; ``names`` are A's and B's, written as they are."""
    frame = Frame(max(len(analysis.advantage) - 1, 0))
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    points = _points(frame, analysis.advantage)
    _fill(draw, frame, points)
    left, top, right, bottom = frame.plot
    draw.line([(left, frame.y(0.5)), (right, frame.y(0.5))], fill=GRID, width=2)
    for ply in game_ticks(frame.plies):
        x = frame.x(ply)
        draw.line([(x, bottom), (x, bottom + PAD // 3)], fill=GRID, width=2)
        draw.text((x, bottom + PAD // 2), f"{ply}", fill=TEXT, font=font(FONT_SIZE), anchor="ma")
    if len(points) > 1:
        draw.line(points, fill=LINE, width=LINE_WIDTH, joint="curve")
    for dot in dots(analysis):
        x, y = dot.xy
        draw.ellipse([x - DOT - 2, y - DOT - 2, x + DOT + 2, y + DOT + 2], fill=BACKGROUND)  # a ring to stand out
        draw.ellipse([x - DOT, y - DOT, x + DOT, y + DOT], fill=dot.colour)
    _name(draw, names[0], A_FILL, PAD // 2, "la")
    _name(draw, names[1], B_FILL, HEIGHT - PAD // 2, "ld")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _points(frame: Frame, advantage: tuple[float, ...]) -> list[tuple[float, float]]:
    """The line's points, with one more wherever it crosses the centre, so that each side's
    area can be filled exactly (see :func:`_fill`)."""
    points: list[tuple[float, float]] = []
    for ply, value in enumerate(advantage):
        if ply and (advantage[ply - 1] - 0.5) * (value - 0.5) < 0:
            before = advantage[ply - 1]
            cross = ply - 1 + (0.5 - before) / (value - before)
            points.append((frame.x(cross), frame.y(0.5)))
        points.append((frame.x(ply), frame.y(value)))
    return points


def _fill(draw: ImageDraw.ImageDraw, frame: Frame, points: list[tuple[float, float]]) -> None:
    """Fill between the line and the centre: above it in A's colour, below it in B's."""
    if len(points) < 2:
        return
    centre = frame.y(0.5)
    ends = [(points[-1][0], centre), (points[0][0], centre)]
    draw.polygon([(x, min(y, centre)) for x, y in points] + ends, fill=A_FILL)
    draw.polygon([(x, max(y, centre)) for x, y in points] + ends, fill=B_FILL)


def _name(draw: ImageDraw.ImageDraw, name: str, colour: tuple[int, int, int], y: int, anchor: str) -> None:
    """A player's name beside a square of their side's colour; a long one smaller, then cut short."""
    square = FONT_SIZE * 3 // 4
    room, size = WIDTH - 2 * MARGIN_SIDE - square - PAD, FONT_SIZE
    while size > FONT_SIZE * 3 // 4 and font(size).getlength(name) > room:
        size -= 1
    while len(name) > 1 and font(size).getlength(name) > room:
        name = name[:-2] + "…"
    xy = (MARGIN_SIDE + square + PAD // 2, y)
    draw.text(xy, name, fill=TEXT, font=font(size), anchor=anchor)
    box = draw.textbbox(xy, "Ag", font=font(size), anchor=anchor)  # the line's height, whatever the name holds
    middle = (box[1] + box[3]) / 2
    draw.rectangle(
        [MARGIN_SIDE, middle - square / 2, MARGIN_SIDE + square, middle + square / 2],
        fill=colour,
        outline=TEXT,
        width=1,
    )
