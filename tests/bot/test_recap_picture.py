"""The season recap card of ``/wari recap``: a portrait PNG of the chat's width, readable on a phone,
every text inside its tile and the card whatever the name or the numbers."""

from __future__ import annotations

import io

from PIL import Image

from bot.pictures.recap import NOTE_SIZE, WIDTH, RecapCard, Tile, layout, recap_png

#: Discord shows a picture at the chat's width: about this many pixels on a 360-pixel phone.
PHONE_WIDTH = 330


def card(name: str = "Ama", *, games: str = "3", points: str = "+162", rating: str = "1500 → 1662") -> RecapCard:
    return RecapCard(
        name,
        ("Jan 1, 2026 – Jan 4, 2026 · Wari", "Wari club · Season over"),
        (
            Tile("Rated games", games, ("2 W · 0 D · 1 L",)),
            Tile("Rating points", points, (rating, "place 1 of 2")),
            Tile("Best win", "1500", ("Kofi", "game #1")),
            Tile("Accuracy", "—", ("No game analysed",)),
            Tile("Puzzle rating", "1662", ("1 solved", "best streak 1")),
            Tile("Badges", "1", ("Podium: place 1",)),
        ),
    )


def inside(box, outer) -> bool:
    left, top, right, bottom = box
    return left >= outer[0] and top >= outer[1] and right <= outer[2] and bottom <= outer[3]


def test_the_card_is_a_portrait_png_of_the_chats_width_with_print_a_phone_reads():
    picture = Image.open(io.BytesIO(recap_png(card())))
    assert picture.format == "PNG" and picture.width == WIDTH
    assert WIDTH <= picture.height <= 1.4 * WIDTH  # a portrait that a phone shows whole
    assert NOTE_SIZE * PHONE_WIDTH / WIDTH >= 12  # its smallest print, in the phone's pixels


def test_a_32_character_name_and_big_numbers_stay_inside_the_card_and_their_tiles():
    name = "W" * 32  # Discord's longest display name, in its widest letter
    big = card(name, games="123456", points="+12345", rating="12345 → 23456")
    drawn = layout(big)
    everything = (0, 0, WIDTH, drawn.height)
    assert all(inside(text.box(), everything) for text in drawn.texts)
    shown_name = drawn.texts[0]
    assert shown_name.text.endswith("…") and shown_name.text.startswith("W")  # smaller, then cut short
    assert shown_name.font.getlength(shown_name.text) <= shown_name.room - shown_name.xy[0]
    for box in drawn.boxes:  # each tile's texts within it
        texts = [text for text in drawn.texts if box[0] <= text.xy[0] < box[2] and box[1] <= text.xy[1] < box[3]]
        assert texts and all(inside(text.box(), box) for text in texts)
    values = [text.text for text in drawn.texts if text.size > NOTE_SIZE and text is not shown_name]
    assert "123456" in values and "+12345" in values  # big numbers are whole
    Image.open(io.BytesIO(recap_png(big))).verify()


def test_six_tiles_two_a_row():
    drawn = layout(card())
    assert len(drawn.boxes) == 6
    assert len({box[0] for box in drawn.boxes}) == 2 and len({box[1] for box in drawn.boxes}) == 3
