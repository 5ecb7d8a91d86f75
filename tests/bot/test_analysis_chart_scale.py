"""The advantage chart says what its marks and its heights mean: a legend of the marks' colours at
the top right, and a scale in seeds ahead on the left, its unit in the reader's words."""

from __future__ import annotations

import io

from PIL import Image

from bot.ai.analysis.model import expected
from bot.pictures.analysis_chart import (
    LEGEND,
    MARGIN_LEFT,
    MARGIN_TOP,
    MARK_COLOURS,
    SCALE_SEEDS,
    Frame,
    advantage_chart,
    scale_rows,
)
from bot.pictures.charts import GRID, HEIGHT, TEXT, WIDTH
from tests.bot.test_analysis_chart import ADVANTAGE, ANALYSIS


def picture(unit: str = "seeds ahead") -> Image.Image:
    return Image.open(io.BytesIO(advantage_chart(ANALYSIS, ("Ama", "Kofi"), unit))).convert("RGB")


def pixels(image: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
    left, top, right, bottom = box
    return sum(1 for x in range(left, right) for y in range(top, bottom) if image.getpixel((x, y)) == colour)


def test_the_legend_shows_each_marks_colour_at_the_top_right():
    image = picture()
    top_right = (WIDTH // 2, 0, WIDTH, MARGIN_TOP)
    for mark in LEGEND:
        assert pixels(image, top_right, MARK_COLOURS[mark]) > 50, mark
    assert pixels(image, top_right, TEXT) > 50  # the marks' signs beside their dots


def test_the_scale_marks_leads_in_seeds_for_each_side_with_numbers_on_the_left():
    image = picture()
    frame = Frame(len(ADVANTAGE) - 1)
    rows = scale_rows(frame, ANALYSIS.k)
    assert len(rows) == 1 + 2 * len(SCALE_SEEDS)
    # Where the model puts a lead of 5 seeds for A (above the centre) and for B (below it).
    assert rows[2] == frame.y(expected(4 * 5, ANALYSIS.k)) < frame.y(0.5) < rows[5]
    left, _top, right, _bottom = frame.plot
    for row in rows:
        across = max(  # a line across (a pixel's row either way), where no fill or curve covers it
            [image.getpixel((x, y)) for x in range(left, right)].count(GRID)
            for y in (int(row) - 1, int(row), int(row) + 1)
        )
        assert across > 20, row
        number = (0, round(row) - 8, MARGIN_LEFT, round(row) + 8)
        assert pixels(image, number, TEXT) > 10, row  # its number in the left margin


def test_the_scales_unit_is_written_in_the_readers_words():
    bottom_right = (WIDTH // 2, HEIGHT - MARGIN_TOP, WIDTH, HEIGHT)
    without = pixels(picture(""), bottom_right, TEXT)  # the move numbers' row reaches into it
    assert pixels(picture("graines d'avance"), bottom_right, TEXT) > without + 50
