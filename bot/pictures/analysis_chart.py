"""The advantage chart of a game's analysis: who was ahead, move by move (PNG, with Pillow).

The line is A's expected score (:mod:`bot.ai.analysis.model`) after each move: at the top A is
winning, at the bottom B is, and the centre line is an even game. The area between the line
and the centre is filled in the colour of the side ahead, and the moves the analysis marked are
dots on the line: red for a blunder, orange for a mistake, yellow for an inaccuracy, as the
legend at the top right says (the marks' signs, read alike in every language). A's name is
written at the top edge and B's at the bottom, each beside a square of their colour. The scale
on the left is in seeds ahead: 0 on the centre line, then 2, 5 and 10 seeds ahead for the side
of each half (where the model puts those leads, :data:`SCALE_SEEDS`); its unit, in the reader's
language, is written at the bottom right. Sizes, the font and the colours are :mod:`.charts`'s,
made to be read on a phone.

>>> from bot.ai.analysis import GameAnalysis
>>> analysis = GameAnalysis("wari", "quick", (), (0.5, 0.62, 0.4))
>>> advantage_chart(analysis, ("Ama", "Kofi"))[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> [round(y) for y in scale_rows(Frame(10), analysis.k)][:4]  # 0, then 2, 5 and 10 seeds for A
[169, 135, 93, 53]
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.ai.analysis import GameAnalysis
from bot.ai.analysis.model import expected

from .charts import BACKGROUND, FONT_SIZE, GRID, HEIGHT, LINE, LINE_WIDTH, PAD, TEXT, WIDTH, game_ticks
from .fonts import fitted, font

#: The fill of the side ahead: A light (above the centre), B darker than the background (below).
A_FILL, B_FILL = (148, 151, 156), (24, 25, 28)
#: The colour of each mark's dot (Discord's red, orange and yellow).
MARK_COLOURS = {"??": (237, 66, 69), "?": (240, 140, 30), "?!": (254, 231, 92)}
#: Room for A's name and the legend above the plot; for the move numbers, B's name and the
#: scale's unit below it; for the scale's numbers (two digits) on its left.
MARGIN_TOP, MARGIN_BOTTOM = FONT_SIZE + PAD, 2 * FONT_SIZE + PAD
MARGIN_SIDE = PAD + FONT_SIZE // 2
MARGIN_LEFT = PAD + FONT_SIZE * 3 // 2
DOT = LINE_WIDTH * 2
#: The leads marked on the scale, in seeds, for each side.
SCALE_SEEDS = (2, 5, 10)
#: The legend's marks, worst first.
LEGEND = ("??", "?", "?!")


@dataclass(frozen=True)
class Frame:
    """Where the plot of a game of ``plies`` moves lies, and how positions map to pixels."""

    plies: int

    @property
    def plot(self) -> tuple[int, int, int, int]:
        return MARGIN_LEFT, MARGIN_TOP, WIDTH - MARGIN_SIDE, HEIGHT - MARGIN_BOTTOM

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


def scale_rows(frame: Frame, k: float) -> list[float]:
    """The rows of the scale's marks: the centre, then :data:`SCALE_SEEDS` ahead for A (above)
    and for B (below), where the model of constant ``k`` puts those leads."""
    above = [frame.y(expected(4 * seeds, k)) for seeds in SCALE_SEEDS]
    below = [frame.y(1 - expected(4 * seeds, k)) for seeds in SCALE_SEEDS]
    return [frame.y(0.5), *above, *below]


def advantage_chart(analysis: GameAnalysis, names: tuple[str, str], unit: str = "seeds ahead") -> bytes:
    """The chart of ``analysis`` as a PNG; ``names`` are A's and B's, written as they are, and
    ``unit`` names the scale's unit (the reader's words for "seeds ahead")."""
    frame = Frame(max(len(analysis.advantage) - 1, 0))
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    points = _points(frame, analysis.advantage)
    _fill(draw, frame, points)
    left, top, right, bottom = frame.plot
    _scale(draw, frame, analysis.k)
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
    legend_left = _legend(draw)
    unit_left = _unit(draw, unit)
    _name(draw, names[0], A_FILL, PAD // 2, "la", legend_left)
    _name(draw, names[1], B_FILL, HEIGHT - PAD // 2, "ld", unit_left)
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


def _scale(draw: ImageDraw.ImageDraw, frame: Frame, k: float) -> None:
    """The centre line, thin lines at the leads of :data:`SCALE_SEEDS`, and their numbers on the left."""
    left, _top, right, _bottom = frame.plot
    rows = scale_rows(frame, k)
    labels = ["0", *(f"{seeds}" for seeds in SCALE_SEEDS), *(f"{seeds}" for seeds in SCALE_SEEDS)]
    for number, (row, label) in enumerate(zip(rows, labels, strict=True)):
        draw.line([(left, row), (right, row)], fill=GRID, width=2 if number == 0 else 1)
        draw.text((left - PAD // 2, row), label, fill=TEXT, font=font(FONT_SIZE), anchor="rm")


def _legend(draw: ImageDraw.ImageDraw) -> float:
    """The marks' colours and signs at the top right, worst first; returns where it begins."""
    x: float = WIDTH - MARGIN_SIDE
    y = PAD // 2 + FONT_SIZE / 2
    for mark in reversed(LEGEND):  # drawn from the right
        x -= font(FONT_SIZE).getlength(mark)
        draw.text((x, y), mark, fill=TEXT, font=font(FONT_SIZE), anchor="lm")
        x -= PAD // 2 + 2 * DOT
        draw.ellipse([x, y - DOT, x + 2 * DOT, y + DOT], fill=MARK_COLOURS[mark])
        x -= PAD
    return x


def _unit(draw: ImageDraw.ImageDraw, unit: str) -> float:
    """The scale's unit at the bottom right; returns where it begins."""
    right = WIDTH - MARGIN_SIDE
    draw.text((right, HEIGHT - PAD // 2), unit, fill=TEXT, font=font(FONT_SIZE), anchor="rd")
    return right - font(FONT_SIZE).getlength(unit) - PAD


def _name(draw: ImageDraw.ImageDraw, name: str, colour: tuple[int, int, int], y: int, anchor: str, end: float) -> None:
    """A player's name beside a square of their side's colour, before ``end`` (the legend's or the
    unit's place); a long one smaller, then cut short."""
    square = FONT_SIZE * 3 // 4
    name, name_font = fitted(name, end - MARGIN_SIDE - square - PAD, FONT_SIZE)
    xy = (MARGIN_SIDE + square + PAD // 2, y)
    draw.text(xy, name, fill=TEXT, font=name_font, anchor=anchor)
    box = draw.textbbox(xy, "Ag", font=name_font, anchor=anchor)  # the line's height, whatever the name holds
    middle = (box[1] + box[3]) / 2
    draw.rectangle(
        [MARGIN_SIDE, middle - square / 2, MARGIN_SIDE + square, middle + square / 2],
        fill=colour,
        outline=TEXT,
        width=1,
    )
