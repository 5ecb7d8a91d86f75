"""The advantage chart of ``/wari analyse``: a PNG of the phone size, the side ahead filled in its
colour, and every marked move a dot of its mark's colour where the chart says it is."""

from __future__ import annotations

import io

from PIL import Image

from bot.ai.analysis import GameAnalysis, MoveVerdict
from bot.pictures.analysis_chart import A_FILL, B_FILL, MARGIN_TOP, MARK_COLOURS, Frame, advantage_chart, dots
from bot.pictures.charts import BACKGROUND, HEIGHT, LINE, TEXT, WIDTH

#: A's expected score after each move: A ahead, then B far ahead after a blunder at move 6.
ADVANTAGE = (0.5, 0.55, 0.62, 0.7, 0.66, 0.6, 0.1, 0.12, 0.2, 0.25, 0.3)
MARKS = {3: "?!", 6: "??", 9: "?"}


def verdict(ply: int) -> MoveVerdict:
    mark = MARKS.get(ply, "")
    return MoveVerdict(ply, (ply - 1) % 2, 1, 2 if mark else 1, 0, 0, 0.5, 0.5, 0.2 if mark else 0.0, mark, False, 1.0)


ANALYSIS = GameAnalysis("wari", "quick", tuple(verdict(ply) for ply in range(1, 11)), ADVANTAGE)


def picture(names=("Ama", "Kofi")) -> Image.Image:
    png = advantage_chart(ANALYSIS, names)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def test_a_png_of_the_charts_size():
    assert picture().size == (WIDTH, HEIGHT)


def test_each_marked_move_is_a_dot_of_its_marks_colour_on_the_line():
    image = picture()
    drawn = dots(ANALYSIS)
    assert [dot.ply for dot in drawn] == [3, 9, 6]  # the worst last, on top
    frame = Frame(len(ADVANTAGE) - 1)
    for dot in drawn:
        assert dot.xy == (frame.x(dot.ply), frame.y(ADVANTAGE[dot.ply]))
        x, y = map(round, dot.xy)
        assert image.getpixel((x, y)) == MARK_COLOURS[dot.mark], dot
    # An unmarked move has no dot: the line's colour where its point is.
    x, y = map(round, (frame.x(1), frame.y(ADVANTAGE[1])))
    assert image.getpixel((x, y)) == LINE


def test_the_side_ahead_is_filled_toward_its_edge():
    image = picture()
    frame = Frame(len(ADVANTAGE) - 1)
    # Half-way between the centre and the line: A's colour while A is ahead, B's after the blunder.
    assert image.getpixel((round(frame.x(3)), round(frame.y((0.5 + 0.7) / 2)))) == A_FILL
    assert image.getpixel((round(frame.x(7)), round(frame.y((0.5 + 0.12) / 2)))) == B_FILL
    # Beyond the line, on the far side from the centre: the background.
    assert image.getpixel((round(frame.x(3)), round(frame.y(0.9)))) == BACKGROUND
    assert image.getpixel((round(frame.x(7)), round(frame.y(0.02)))) == BACKGROUND


def test_the_names_are_written_at_their_sides_edges():
    def written(image: Image.Image, top: int, bottom: int) -> int:
        return sum(1 for x in range(WIDTH) for y in range(top, bottom) if image.getpixel((x, y)) == TEXT)

    plain = picture(("", ""))
    named = picture(("Ama Owusu-Mensah", "Kofi Boateng"))
    assert written(named, 0, MARGIN_TOP) > written(plain, 0, MARGIN_TOP) + 50  # A's name on top
    bottom = HEIGHT - MARGIN_TOP
    assert written(named, bottom, HEIGHT) > written(plain, bottom, HEIGHT) + 50  # B's at the bottom
    picture(("A" * 200, "🦁" * 50))  # a long name is shrunk and cut, not an error
