"""Small images for players: a rating history drawn as a line chart (PNG, with Pillow).

>>> png = rating_chart([1500.0, 1662.3, 1598.0], "wari", games=2)
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import _, n_

WIDTH, HEIGHT = 640, 260
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 56, 16, 34, 30
BACKGROUND, GRID, LINE, TEXT = (43, 45, 49), (70, 73, 79), (88, 166, 255), (219, 222, 225)


def plot_width() -> int:
    return WIDTH - MARGIN_LEFT - MARGIN_RIGHT


def rating_chart(ratings: list[float], variant: str, *, games: int) -> bytes:
    """``ratings`` (oldest first, at most about one per pixel column) over ``games`` rated games,
    as a PNG line chart, its texts in the language of the moment."""
    low, high = min(ratings), max(ratings)
    if high - low < 50:  # a flat history still gets a readable scale
        low, high = (low + high) / 2 - 25, (low + high) / 2 + 25
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=13)
    plot_w, plot_h = plot_width(), HEIGHT - MARGIN_TOP - MARGIN_BOTTOM

    def x(index: int) -> float:
        return MARGIN_LEFT + (plot_w * index / (len(ratings) - 1) if len(ratings) > 1 else plot_w / 2)

    def y(rating: float) -> float:
        return MARGIN_TOP + plot_h * (high - rating) / (high - low)

    for step in range(5):  # grid lines with their rating
        value = low + (high - low) * step / 4
        draw.line([(MARGIN_LEFT, y(value)), (WIDTH - MARGIN_RIGHT, y(value))], fill=GRID)
        draw.text((MARGIN_LEFT - 6, y(value)), f"{value:.0f}", fill=TEXT, font=font, anchor="rm")
    title = n_(
        "{variant} rating, {games} rated game",
        "{variant} rating, {games} rated games",
        games,
        variant=variant,
        games=games,
    )
    draw.text((MARGIN_LEFT, 10), title, fill=TEXT, font=font)
    draw.text(
        (WIDTH - MARGIN_RIGHT, HEIGHT - 10),
        _("now {rating}", rating=f"{ratings[-1]:.0f}"),
        fill=TEXT,
        font=font,
        anchor="rs",
    )
    xy = [(x(i), y(r)) for i, r in enumerate(ratings)]
    if len(xy) > 1:
        draw.line(xy, fill=LINE, width=3)
    for px, py in xy[-1:]:
        draw.ellipse([px - 4, py - 4, px + 4, py + 4], fill=LINE)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
