"""User stories in French and Portuguese, and the catalogs that make them: a whole game in a
server whose language is French (or Portuguese), with players who read the bot in their own
language; and a catalog test that fails when a text of the code has no translation."""

from __future__ import annotations

import random
import re
from pathlib import Path

import discord
import pytest
from babel.messages.extract import extract_from_dir

from bot.engine import Game, Player
from bot.i18n import LANGUAGES, _, catalog, speaking
from bot.render import result_text
from cogs.wari.settings import PINGS_ON
from tests.helpers import board_footer, board_words, buttons, cup_id, enabled_houses, press, status_line, told

ROOT = Path(__file__).resolve().parents[2]
#: As the Makefile's ``translations`` extracts them: a rule set's name for Discord's list is the
#: second argument of its ``Variant`` entry (the engine imports nothing to mark it).
KEYWORDS = {"_": None, "N_": None, "n_": (1, 2), "Variant": (2,)}
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def code_messages() -> set:
    """Every text the code marks for translation, as pybabel extracts them (babel.cfg)."""
    found = set()
    for folder in ("bot", "cogs"):
        for _file, _line, message, _comments, _context in extract_from_dir(
            ROOT / folder, keywords=KEYWORDS, comment_tags=()
        ):
            found.add(message)
    return found


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_every_text_of_the_code_is_translated_with_the_same_placeholders(language):
    translations = catalog(language)
    messages = code_messages()
    assert len(messages) > 250
    missing = sorted(str(message) for message in messages if message not in translations)
    assert missing == [], (
        f"{len(missing)} texts have no {language} translation: run pybabel update (README) and translate them"
    )
    for message in messages:
        english = " ".join(message) if isinstance(message, tuple) else message
        translated = translations[message]
        translated = " ".join(translated) if isinstance(translated, tuple) else translated
        assert set(PLACEHOLDER.findall(translated)) <= set(PLACEHOLDER.findall(english)), (message, translated)


async def play_to_the_end(board, players, rng, language: str) -> Game:
    """Press random legal cups (the player to move) until the game is over; returns the game."""
    shadow = Game("wari")
    while not shadow.is_over:
        house = rng.choice(shadow.legal_moves)
        assert sorted(enabled_houses(board)) == shadow.legal_moves
        await press(players[shadow.to_move], board, house)
        shadow.play(house)
        assert board_footer(board) == in_language(language, "Move {number}", number=shadow.ply)
    return shadow


def in_language(language: str, message: str, **params) -> str:
    with speaking(language):
        return _(message, **params)


@pytest.mark.parametrize(("locale", "language"), [("fr", "fr"), ("pt-BR", "pt")])
async def test_a_whole_game_in_the_servers_language_with_answers_in_the_players_own(world, locale, language):
    guild = world.env.create_guild("Wari", preferred_locale=locale)
    channel = guild.create_text_channel("jogos" if language == "pt" else "parties")
    ama, kofi = guild.add_member(world.env.create_user("ama")), guild.add_member(world.env.create_user("kofi"))
    # Discord tells the bot each player's app language; SimCord always says en-US, so they choose.
    for member in (ama, kofi):
        chosen = await member.slash(channel, "wari settings", language=language)
        assert chosen.ephemeral and chosen.response.content.startswith(in_language(language, PINGS_ON)[:20])
    challenge = (await ama.slash(channel, "wari challenge", opponent=kofi, first="me")).response
    assert challenge.content == in_language(language, "{player}, you have been challenged!", player=kofi.mention)
    title = in_language(language, "⚔️ {variant} challenge", variant="Wari")
    assert challenge.embeds[0].title == title != "⚔️ Wari challenge"
    await kofi.click(challenge, label=in_language(language, "Accept"))
    board = challenge
    assert status_line(board) == in_language(
        language, "**{name}**, your move ({variant}, houses {houses}).", name="ama", variant="wari", houses="1–6"
    )
    assert in_language(
        language,
        "**{side}** {name} · prisoners: **{score}** (houses {houses})",
        side="A",
        name="ama",
        score=0,
        houses="1–6",
    ) in board_words(board)
    wrong = await kofi.click(board, custom_id=cup_id(board, 1))  # not Kofi's turn: told in his language
    assert told(wrong)[0].content == in_language(language, "It's {name}'s turn.", name="ama") != "It's ama's turn."
    rules = (await ama.slash(channel, "wari rules")).response.embeds[0]
    assert rules.title == in_language(language, "How to play {variant}", variant="Wari") != "How to play Wari"
    game = await play_to_the_end(board, {Player.A: ama, Player.B: kofi}, random.Random(3), language)
    with speaking(language):
        assert status_line(board) == "🏁 " + result_text(game.outcome, ("ama", "kofi"))
    assert [b["label"] for b in buttons(board)] == [in_language(language, "Rematch"), in_language(language, "Analyse")]
    stats = (await kofi.slash(channel, "wari stats")).response  # only for Kofi: in his language
    assert stats.embeds[0].title == in_language(language, "📊 {name}'s Wari", name="kofi") != "📊 kofi's Wari"


async def test_the_slash_commands_are_described_in_french_and_portuguese(world):
    commands = {command.name: command for command in await world.env.bot.tree.fetch_commands()}
    wari = commands["wari"]
    described = {locale.value: text for locale, text in wari.description_localizations.items()}
    assert described.get("fr") and described.get("pt-BR")
    assert described["fr"] != wari.description and described["pt-BR"] != wari.description
    assert "wari" in commands and "défi" not in commands  # names stay the same everywhere


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_board_and_the_rules_use_the_same_words_in_each_language(language):
    """What the board calls houses, prisoners and stores is what the rules call them."""
    from bot.engine import rules_for
    from bot.render import rules_text

    with speaking(language):
        line = _(
            "**{side}** {name} · prisoners: **{score}** (houses {houses})", side="A", name="x", score=0, houses="1–6"
        )
        store = _("**{side}** {name} · store: **{score}** (houses {houses})", side="A", name="x", score=0, houses="1–6")
        wari, kalah = rules_text(rules_for("wari")), rules_text(rules_for("kalah"))
    prisoners, houses = line.split("· ")[1].split(" ")[0].rstrip(":"), line.split("(")[1].split(" ")[0]
    store_word = store.split("· ")[1].split(" ")[0].rstrip(":")
    assert prisoners.lower() in wari.lower() and houses.lower() in wari.lower(), (prisoners, houses)
    assert store_word.lower() in kalah.lower(), store_word


@pytest.mark.parametrize(
    "language, one, four",
    [
        ("en", "with 1 seed each.", "with 4 seeds each."),
        ("fr", "avec 1 graine dans chaque case.", "avec 4 graines dans chaque case."),
        ("pt", "com 1 semente em cada casa.", "com 4 sementes em cada casa."),
    ],
)
def test_the_rules_count_the_seeds_of_a_house_in_each_language(language, one, four):
    from bot.engine import rules_for
    from bot.render import rules_text

    with speaking(language):
        assert one in rules_text(rules_for("kalah", 6, 1))
        assert four in rules_text(rules_for("kalah"))


async def test_languages_are_named_as_the_sentence_around_them_says_them(world):
    guild = world.env.create_guild("Club", preferred_locale="fr")
    channel = guild.create_text_channel("parties")
    ama = guild.add_member(world.env.create_user("ama"))
    admin = guild.add_member(
        world.env.create_user("admin"),
        roles=[guild.create_role("Admins", permissions=discord.Permissions(manage_messages=True))],
    )
    chosen = (await ama.slash(channel, "wari settings", language="fr")).response.content
    assert "Je vous réponds en **français**." in chosen  # not "en **Français**"
    english = (await ama.slash(channel, "wari settings", language="en")).response.content
    assert "I answer you in **English**." in english
    server = (await admin.slash(channel, "wari-mod settings")).response.content  # read in English, the server is French
    assert "Boards and announcements here are in **French**." in server  # not "in **Français**"
    portuguese = (await ama.slash(channel, "wari settings", language="pt")).response.content
    assert "Eu respondo a você em **português (Brasil)**." in portuguese  # which Portuguese it is


async def test_french_puts_a_space_before_its_colons_and_tells_pings_from_reminders(world):
    from tests.helpers import surrender

    guild = world.env.create_guild("Club", preferred_locale="fr")
    channel = guild.create_text_channel("parties")
    ama, kofi = (guild.add_member(world.env.create_user(name)) for name in ("ama", "kofi"))
    board = (await ama.slash(channel, "wari challenge", opponent=kofi, first="me", clock="5+3")).response
    await kofi.click(board, label="Accepter")
    clock = next(line for line in board_words(board).splitlines() if line.startswith("⏱"))
    assert "kofi : 5:00" in clock and "kofi: " not in clock  # the waiting side's time
    await surrender(ama, channel)
    await ama.slash(channel, "wari play", level="greedy", first="me")
    await surrender(ama, channel)
    await ama.slash(channel, "wari settings", language="fr")
    stats = (await ama.slash(channel, "wari stats")).response.embeds[0]
    (against,) = [field.value for field in stats.fields if field.name == "Contre l'ordinateur"]
    assert against.startswith("**Amateur** : 1 ")
    pings = (await ama.slash(channel, "wari settings", pings="on")).response.content
    assert "mentions de tour" in pings and "un rappel" in pings  # two things, two words


async def test_the_levels_say_how_strong_they_are_in_words_that_fit_a_choice(world):
    """The level option's choices measure each level from the weakest (never a bare "≈ +0"), in
    each language, within Discord's 100 characters a choice."""
    commands = {command.name: command for command in await world.env.bot.tree.fetch_commands()}
    (play,) = [option for option in commands["wari"].options if option.name == "play"]
    (level,) = [option for option in play.options if option.name == "level"]
    names = [choice.name for choice in level.choices]
    assert names[0] == "Beginner: plays any move at random"
    assert names[1] == "Novice: always plays its lowest house · ≈ Beginner"
    assert names[-1] == "Expert: reads many moves ahead, and endgames to the end · Beginner +1600 Elo"
    for choice in level.choices:
        localized = {locale.value: text for locale, text in choice.name_localizations.items()}
        assert {"fr", "pt-BR"} <= set(localized), choice.name
        for text in (choice.name, *localized.values()):
            assert len(text) <= 100 and "+0" not in text, text
    french = {locale.value: text for locale, text in level.choices[-1].name_localizations.items()}["fr"]
    assert french.endswith("· Débutant +1600 Elo"), french
