"""The season recap card of ``/wari recap``: a portrait PNG a small phone shows whole, every text
on it readable there (12 CSS pixels at least) in English, French and Portuguese, whole (never
cut, never shrunk), inside its tile and the card, whatever the name or the numbers.

The cards are made as ``/wari recap`` makes them (:func:`cogs.wari.seasons.recap_card`, in the
reader's language), from a season as the service reads it."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
from PIL import Image

from bot.i18n import speaking
from bot.pictures.recap import VALUE_SIZE, WIDTH, RecapCard, Tile, layout, recap_png
from bot.service.seasons import Badges, Recap
from bot.storage import SeasonRow, SeasonStanding
from bot.storage.seasons import PuzzleSeason, SeasonGame
from cogs.wari.seasons import recap_card

#: Discord shows a picture at the message column's width: 272 CSS pixels on a 360-pixel phone
#: (measured in the sandbox's page in a real browser: tests/bot/test_sandbox_recap.py).
PHONE_WIDTH = 272
#: Discord's longest display name (32 characters), in its widest letter and in words.
WIDEST_NAME = "W" * 32
LONG_NAME = "Kwame Nkrumah Mensah-Bonsu Jr. X"
LANGUAGES = ("en", "fr", "pt")


def season_game(number: int, result: str = "A", *, opponent: str = "Kofi") -> SeasonGame:
    return SeasonGame(number, "wari", "A", result, 1500.0, 1520.0, 2, opponent, 1873.0, None)


def full_season(*, opponent: str = LONG_NAME, games: int = 13, gained: float = 12345.0) -> Recap:
    """A season with every figure as long as it gets: many games, a win against a player with a
    long name, analysed games, puzzles and every badge one season gives (one podium place)."""
    season = SeasonRow(
        1, datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 2, 1, tzinfo=UTC), "monthly", None, None, None
    )
    played = [season_game(number, opponent=opponent) for number in range(1, games)] + [season_game(games, "B")]
    return Recap(
        season, False, "wari", played, SeasonStanding(12, 1, gained, games), 123, played[0], 87.4, 12,
        PuzzleSeason(1890.0, 123, 4, 12), Badges({1: 1}, 12, None, True),
    )  # fmt: skip


def empty_season() -> Recap:
    """A season of one lost game: no win, nothing analysed, no puzzle, no badge."""
    season = SeasonRow(
        1, datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 2, 1, tzinfo=UTC), "monthly", None, None, None
    )
    played = [season_game(1, "B")]
    return Recap(
        season, True, "wari", played, SeasonStanding(2, 1, -12.0, 1), 2, None, None, 0,
        PuzzleSeason(None, 0, 0, 0), Badges(),
    )  # fmt: skip


def made(recap: Recap, name: str, language: str, server: str = "Le club de wari de Ouagadougou") -> RecapCard:
    with speaking(language):
        return recap_card(recap, name, server)


def every_card() -> list:
    """Each language's card of a full season with the two longest names, and of an empty one."""
    cards = []
    for language in LANGUAGES:
        for name in (WIDEST_NAME, LONG_NAME):
            cards.append(pytest.param(made(full_season(opponent=name), name, language), id=f"{language}, {name}"))
        cards.append(pytest.param(made(empty_season(), "Ama", language), id=f"{language}, empty"))
    return cards


def squeezed(texts) -> str:
    """Texts without the spaces and the separators where lines may break: what must all be drawn, in order."""
    return "".join("".join(text.replace(" · ", "").split()) for text in texts)


def in_order(card: RecapCard) -> list[str]:
    """The card's texts in the order the layout draws them: name, lines, then each tile's label, notes and figure."""
    return [card.name, *card.lines, *(text for tile in card.tiles for text in (tile.label, *tile.notes, tile.value))]


def inside(box, outer) -> bool:
    left, top, right, bottom = box
    return left >= outer[0] and top >= outer[1] and right <= outer[2] and bottom <= outer[3]


@pytest.mark.parametrize("card", every_card())
def test_every_text_on_the_card_reads_on_a_small_phone_whole_in_english_french_and_portuguese(card):
    drawn = layout(card)
    for text in drawn.texts:  # as drawn, after any fitting: 12 CSS px at least where the phone shows the card
        assert text.size * PHONE_WIDTH / WIDTH >= 12, text
    assert squeezed(text.text for text in drawn.texts) == squeezed(in_order(card)), card  # nothing cut
    assert not any(text.text.endswith("…") for text in drawn.texts), card
    assert all(text.size >= VALUE_SIZE for text in drawn.texts if text.text in {tile.value for tile in card.tiles})
    assert WIDTH < drawn.height <= 1.8 * WIDTH, drawn.height  # a portrait that a phone shows whole
    everything = (0, 0, WIDTH, drawn.height)
    assert all(inside(text.box(), everything) for text in drawn.texts), card


def test_the_card_is_a_portrait_png_of_the_chats_width():
    card = made(full_season(), LONG_NAME, "fr")
    picture = Image.open(io.BytesIO(recap_png(card)))
    assert picture.format == "PNG" and picture.width == WIDTH and picture.height == layout(card).height
    picture.verify()


def test_a_32_character_name_and_big_numbers_stay_inside_the_card_and_their_tiles():
    big = RecapCard(
        WIDEST_NAME,
        ("Jan 1, 2026 – Jan 4, 2026 · Wari", "Wari club · Season over"),
        (
            Tile("Rated games", "123456", ("123455 W · 0 D · 1 L",)),
            Tile("Rating points", "+12345", ("12345 → 23456", "place 12345 of 23456")),
            Tile("Best win", "1500", (LONG_NAME, "game #123456")),
        ),
    )
    drawn = layout(big)
    names = [text for text in drawn.texts if set(text.text) == {"W"}]
    assert "".join(text.text for text in names) == WIDEST_NAME and len(names) == 2  # whole, on two lines
    for box in drawn.boxes:  # each tile's texts within it
        texts = [text for text in drawn.texts if box[0] <= text.xy[0] < box[2] and box[1] <= text.xy[1] < box[3]]
        assert texts and all(inside(text.box(), box) for text in texts)
    values = {text.text for text in drawn.texts if text.size >= VALUE_SIZE}
    assert {"123456", "+12345", "1500"} <= values  # big numbers whole, and big


def test_six_tiles_one_a_row_across_the_card():
    drawn = layout(made(full_season(), "Ama", "en"))
    assert len(drawn.boxes) == 6
    assert len({(box[0], box[2]) for box in drawn.boxes}) == 1  # the same width, the card's
    tops = [box[1] for box in drawn.boxes]
    assert all(above[3] < below for above, below in zip(drawn.boxes, tops[1:], strict=False))  # one under another
