"""The rating chart of ``/wari stats``: round numbers on its axes, and texts readable on a phone."""

from __future__ import annotations

import io
import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from bot.engine import VARIANTS
from bot.i18n import LANGUAGES, speaking
from bot.pictures.charts import (
    FONT_SIZE,
    HEIGHT,
    MAX_STEPS,
    PHONE_TEXT,
    PHONE_WIDTH,
    RATING_STEPS,
    WIDTH,
    game_ticks,
    layout,
    plot_width,
    rating_chart,
    rating_ticks,
)
from bot.pictures.fonts import font

#: A tester's history whose chart was marked 1403, 1427, 1452, 1476 and 1500 before.
TESTED = [1500.0, 1451.2, 1403.4, 1420.0, 1440.9, 1472.3, 1466.0]
ON_PHONE = PHONE_WIDTH / WIDTH


def walk(games: int, seed: int, start: float = 1500.0, stride: float = 30.0) -> list[float]:
    rnd = random.Random(seed)
    ratings = [start]
    for _ in range(games):
        ratings.append(ratings[-1] + rnd.uniform(-stride, stride))
    return ratings


def test_the_testers_history_is_marked_at_round_ratings():
    chart = layout(TESTED, "wari", games=6)
    assert chart.y_ticks == [1400, 1425, 1450, 1475, 1500]
    assert [label.text for label in chart.labels[:5]] == ["1400", "1425", "1450", "1475", "1500"]
    assert chart.x_ticks == [0, 1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(
    ("low", "high", "ticks"),
    [
        (1475, 1525, [1470, 1480, 1490, 1500, 1510, 1520, 1530]),
        (1403.4, 1500, [1400, 1425, 1450, 1475, 1500]),
        (1312, 1590, [1300, 1350, 1400, 1450, 1500, 1550, 1600]),
        (1187.4, 1823.9, [1000, 1250, 1500, 1750, 2000]),
        (850, 2400, [500, 1000, 1500, 2000, 2500]),
    ],
)
def test_rating_ticks(low, high, ticks):
    assert rating_ticks(low, high) == ticks


@given(st.floats(0, 3000), st.floats(50, 3000))
def test_rating_ticks_are_round_and_cover_the_ratings(low, span):
    ticks = rating_ticks(low, low + span)
    steps = {b - a for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1
    (step,) = steps
    assert step in RATING_STEPS and all(tick % step == 0 for tick in ticks)
    assert ticks[0] <= low and ticks[-1] >= low + span
    assert 2 <= len(ticks) <= MAX_STEPS + 1
    # The smallest round step that fits: the next smaller one would need too many.
    smaller = [s for s in RATING_STEPS if s < step]
    if smaller:
        s = smaller[-1]
        assert -(-(low + span) // s) - low // s > MAX_STEPS


@pytest.mark.parametrize(
    ("games", "ticks"),
    [
        (1, [0, 1]),
        (6, [0, 1, 2, 3, 4, 5, 6]),
        (7, [0, 2, 4, 6]),
        (37, [0, 10, 20, 30]),
        (137, [0, 20, 40, 60, 80, 100, 120]),
        (600, [0, 100, 200, 300, 400, 500, 600]),
        (4321, [0, 1000, 2000, 3000, 4000]),
    ],
)
def test_game_ticks(games, ticks):
    assert game_ticks(games) == ticks


def test_the_games_axis_runs_from_the_first_rating_to_the_last():
    ratings = walk(40, seed=1)
    chart = layout(ratings, "oware", games=40)
    left, _top, right, _bottom = chart.plot
    assert right - left == plot_width()
    points = chart.points()
    assert points[0][0] == chart.x(0) == left and points[-1][0] == chart.x(40) == right
    assert [label.text for label in chart.labels if label.anchor == "ma"] == ["0", "10", "20", "30", "40"]
    assert "rated games" in [label.text for label in chart.labels]


def test_texts_are_sized_for_a_phone():
    # Shown about 320 pixels wide on a phone, the texts are as big as the app's own small print.
    assert FONT_SIZE * ON_PHONE >= PHONE_TEXT >= 11
    left, top, right, bottom = font(FONT_SIZE).getbbox("1450")
    assert (bottom - top) * ON_PHONE >= 7  # the digits' height there, in the phone's pixels
    assert (right - left) * ON_PHONE >= 24


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("games", "stride"), [(1, 20), (6, 30), (137, 30), (2500, 12)])
def test_texts_fit_in_the_image_at_full_size_and_never_overlap(language, variant, games, stride):
    ratings = walk(games, seed=games, stride=stride)
    with speaking(language):
        chart = layout(ratings, variant, games=games)
    assert all(label.size == FONT_SIZE for label in chart.labels)
    boxes = [label.box for label in chart.labels]
    for left, top, right, bottom in boxes:
        assert 0 <= left < right <= WIDTH and 0 <= top < bottom <= HEIGHT
    for a, b in itertools.combinations(boxes, 2):
        apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
        assert apart, (a, b)


def test_a_long_title_gets_smaller_rather_than_cut():
    chart = layout(TESTED, "kalah with ten houses of ten seeds each, played by the old rules", games=6)
    (title,) = [label for label in chart.labels if label.anchor == "la"]
    assert title.size < FONT_SIZE


def test_the_chart_is_a_png_of_its_size_in_each_language():
    for language in LANGUAGES:
        with speaking(language):
            png = rating_chart(walk(20, seed=2), "wari", games=20)
        with Image.open(io.BytesIO(png)) as image:
            assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    with Image.open(io.BytesIO(rating_chart([1500.0], "wari", games=0))) as image:
        assert image.size == (WIDTH, HEIGHT)
