"""Small images for players: a rating history drawn as a line chart (PNG, with Pillow).

>>> from datetime import datetime, timezone
>>> t = datetime(2026, 11, 23, tzinfo=timezone.utc)
>>> png = rating_chart([(t, 1500.0), (t, 1662.3), (t, 1598.0)], "wari")
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import io
from datetime import datetime

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 640, 260
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 56, 16, 34, 30
BACKGROUND, GRID, LINE, TEXT = (43, 45, 49), (70, 73, 79), (88, 166, 255), (219, 222, 225)


def rating_chart(points: list[tuple[datetime, float]], variant: str) -> bytes:
    """The ratings of ``points`` (oldest first, one per rated game) as a PNG line chart."""
    ratings = [rating for _, rating in points]
    low, high = min(ratings), max(ratings)
    if high - low < 50:  # a flat history still gets a readable scale
        low, high = (low + high) / 2 - 25, (low + high) / 2 + 25
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=13)
    plot_w, plot_h = WIDTH - MARGIN_LEFT - MARGIN_RIGHT, HEIGHT - MARGIN_TOP - MARGIN_BOTTOM

    def x(index: int) -> float:
        return MARGIN_LEFT + (plot_w * index / (len(ratings) - 1) if len(ratings) > 1 else plot_w / 2)

    def y(rating: float) -> float:
        return MARGIN_TOP + plot_h * (high - rating) / (high - low)

    for step in range(5):  # grid lines with their rating
        value = low + (high - low) * step / 4
        draw.line([(MARGIN_LEFT, y(value)), (WIDTH - MARGIN_RIGHT, y(value))], fill=GRID)
        draw.text((MARGIN_LEFT - 6, y(value)), f"{value:.0f}", fill=TEXT, font=font, anchor="rm")
    draw.text((MARGIN_LEFT, 10), f"{variant} rating, {len(ratings) - 1} rated games", fill=TEXT, font=font)
    draw.text((WIDTH - MARGIN_RIGHT, HEIGHT - 10), f"now {ratings[-1]:.0f}", fill=TEXT, font=font, anchor="rs")
    xy = [(x(i), y(r)) for i, r in enumerate(ratings)]
    if len(xy) > 1:
        draw.line(xy, fill=LINE, width=3)
    for px, py in xy[-1:]:
        draw.ellipse([px - 4, py - 4, px + 4, py + 4], fill=LINE)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
