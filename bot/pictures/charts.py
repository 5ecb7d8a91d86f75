"""Small images for players: a rating history drawn as a line chart (PNG, with Pillow).

The chart is read on phones, where Discord shows it about :data:`PHONE_WIDTH` pixels wide, so its
texts are sized from the image's width to be :data:`PHONE_TEXT` pixels high there. The ratings
axis is marked at round numbers (:func:`rating_ticks`) and the other axis counts the rated
games (:func:`game_ticks`).

>>> png = rating_chart([1500.0, 1662.3, 1598.0], "wari", games=2)
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> rating_ticks(1403.2, 1500.0)
[1400, 1425, 1450, 1475, 1500]
>>> game_ticks(37)
[0, 10, 20, 30]
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.i18n import _, n_

from .fonts import font

WIDTH, HEIGHT = 640, 360
#: About how wide Discord shows the chart on a phone, in the phone's pixels.
PHONE_WIDTH = 320
#: How high a text's font is on that phone, in its pixels: the size of the app's small print.
PHONE_TEXT = 11
FONT_SIZE = round(PHONE_TEXT * WIDTH / PHONE_WIDTH)
PAD = FONT_SIZE // 2
#: Room for a rating of four digits on the left, half a game number on the right, the title
#: above, and the game numbers and the axis's name below.
MARGIN_LEFT, MARGIN_RIGHT = 3 * FONT_SIZE + PAD, FONT_SIZE + PAD // 2
MARGIN_TOP, MARGIN_BOTTOM = 2 * FONT_SIZE + PAD, 3 * FONT_SIZE + PAD
LINE_WIDTH = max(3, round(WIDTH / PHONE_WIDTH * 2))
BACKGROUND, GRID, LINE, TEXT = (43, 45, 49), (70, 73, 79), (88, 166, 255), (219, 222, 225)

#: The steps between marked ratings, the smallest that fits being used: round numbers only.
RATING_STEPS = (10, 25, 50, 100, 250, 500, 1000)
#: The steps between marked game numbers.
GAME_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000)
#: At most this many steps on an axis, so that its numbers stay apart on a phone.
MAX_STEPS = 6
#: The smallest span of ratings shown: a flat history still gets a readable scale.
MIN_SPAN = 50


def plot_width() -> int:
    return WIDTH - MARGIN_LEFT - MARGIN_RIGHT


def rating_ticks(low: float, high: float) -> list[int]:
    """The ratings marked on the chart's axis: multiples of the smallest of :data:`RATING_STEPS`
    from one at or below ``low`` to one at or above ``high`` in at most :data:`MAX_STEPS` steps.

    >>> rating_ticks(1500, 1500)
    [1500, 1510]
    >>> rating_ticks(1187.4, 1823.9)
    [1000, 1250, 1500, 1750, 2000]
    """
    for step in RATING_STEPS:
        first, last = math.floor(low / step), math.ceil(high / step)
        if last - first <= MAX_STEPS:
            break
    else:  # not reached by ratings: even 10,000 points fit in 10 steps of 1000
        step = 10 ** math.ceil(math.log10(max(high - low, 1) / MAX_STEPS))
        first, last = math.floor(low / step), math.ceil(high / step)
    return [n * step for n in range(first, max(last, first + 1) + 1)]


def game_ticks(games: int) -> list[int]:
    """The game numbers marked on the chart's other axis, from 0 (the rating before the first game)
    to at most ``games``, in at most :data:`MAX_STEPS` round steps.

    >>> game_ticks(1), game_ticks(4), game_ticks(12), game_ticks(600)
    ([0, 1], [0, 1, 2, 3, 4], [0, 2, 4, 6, 8, 10, 12], [0, 100, 200, 300, 400, 500, 600])
    """
    if games < 1:
        return [0]
    step = next((step for step in GAME_STEPS if games // step <= MAX_STEPS), GAME_STEPS[-1])
    return list(range(0, games + 1, step))


@dataclass(frozen=True)
class Label:
    """A text of the chart where it is drawn: ``box`` is its (left, top, right, bottom) in pixels."""

    text: str
    xy: tuple[float, float]
    anchor: str
    size: int = FONT_SIZE

    @property
    def box(self) -> tuple[float, float, float, float]:
        return ImageDraw.Draw(Image.new("RGB", (1, 1))).textbbox(self.xy, self.text, font(self.size), self.anchor)


@dataclass(frozen=True)
class Layout:
    """Where everything of a chart goes (see :func:`layout`)."""

    ratings: list[float]
    games: int
    low: int
    high: int
    y_ticks: list[int]
    x_ticks: list[int]
    labels: list[Label]

    @property
    def plot(self) -> tuple[int, int, int, int]:
        return MARGIN_LEFT, MARGIN_TOP, WIDTH - MARGIN_RIGHT, HEIGHT - MARGIN_BOTTOM

    def x(self, game: float) -> float:
        left, _top, right, _bottom = self.plot
        return left + (right - left) * (game / self.games if self.games else 0.5)

    def y(self, rating: float) -> float:
        _left, top, _right, bottom = self.plot
        return top + (bottom - top) * (self.high - rating) / (self.high - self.low)

    def points(self) -> list[tuple[float, float]]:
        """The ratings spread evenly from the first game to the last (as the history is thinned)."""
        last = max(len(self.ratings) - 1, 1)
        return [(self.x(self.games * i / last), self.y(r)) for i, r in enumerate(self.ratings)]


def layout(ratings: list[float], variant: str, *, games: int) -> Layout:
    """The axes and the texts of :func:`rating_chart`, in the language of the moment."""
    low, high = min(ratings), max(ratings)
    if high - low < MIN_SPAN:
        middle = (low + high) / 2
        low, high = middle - MIN_SPAN / 2, middle + MIN_SPAN / 2
    y_ticks = rating_ticks(low, high)
    x_ticks = game_ticks(games) if len(ratings) > 1 else []
    chart = Layout(ratings, games, y_ticks[0], y_ticks[-1], y_ticks, x_ticks, [])
    left, _top, right, bottom = chart.plot
    labels = [Label(f"{value}", (left - PAD // 2, chart.y(value)), "rm") for value in y_ticks]
    labels += [Label(f"{game}", (chart.x(game), bottom + PAD // 2), "ma") for game in x_ticks]
    below = HEIGHT - PAD // 2
    if x_ticks:
        labels.append(Label(_("rated games"), (left, below), "ld"))
    labels.append(Label(_("now {rating}", rating=f"{ratings[-1]:.0f}"), (right, below), "rd"))
    title = n_(
        "{variant} rating, {games} rated game",
        "{variant} rating, {games} rated games",
        games,
        variant=variant,
        games=games,
    )
    size = FONT_SIZE  # a long title (a long variant's name) gets smaller rather than cut
    while size > FONT_SIZE * 3 // 4 and font(size).getlength(title) > WIDTH - 2 * PAD:
        size -= 1
    labels.append(Label(title, (PAD, PAD), "la", size))
    chart.labels.extend(labels)
    return chart


def rating_chart(ratings: list[float], variant: str, *, games: int) -> bytes:
    """``ratings`` (oldest first, at most about one per pixel column) over ``games`` rated games,
    as a PNG line chart, its texts in the language of the moment."""
    chart = layout(ratings, variant, games=games)
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = chart.plot
    for value in chart.y_ticks:  # grid lines at the marked ratings
        draw.line([(left, chart.y(value)), (right, chart.y(value))], fill=GRID, width=2)
    for game in chart.x_ticks:  # and short marks under the games
        draw.line([(chart.x(game), bottom), (chart.x(game), bottom + PAD // 3)], fill=GRID, width=2)
    for label in chart.labels:
        draw.text(label.xy, label.text, fill=TEXT, font=font(label.size), anchor=label.anchor)
    xy = chart.points()
    if len(xy) > 1:
        draw.line(xy, fill=LINE, width=LINE_WIDTH, joint="curve")
    for px, py in xy[-1:]:
        dot = LINE_WIDTH * 2
        draw.ellipse([px - dot, py - dot, px + dot, py + dot], fill=LINE)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
