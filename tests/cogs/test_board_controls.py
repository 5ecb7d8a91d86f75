"""User stories: the board is one Components V2 container whose colour shows whose turn it is,
with the game's own controls on it (Take back, Offer draw, Abort, Surrender), so that a player
on a phone never needs to type a slash command mid-game; and boards drawn before the upgrade
(content and an embed) are still pressable, and redrawn as V2 boards."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import discord
import pytest
from simcord.components import COMPONENTS_V2_FLAG, validate_components, walk_components

from bot.engine import Player
from bot.i18n import _, language_of, speaking
from bot.ratings import Rating
from bot.render import result_text
from bot.service import Table
from bot.storage.ratings import RatingChange
from cogs.wari.views import OVER_COLOUR, SIDE_COLOURS, CupButton, board_message, board_status
from tests.cogs.test_tournaments import event, game_channel, gathered, thread_of
from tests.helpers import (
    accent,
    board_footer,
    board_title,
    board_words,
    buttons,
    enabled_houses,
    pinged,
    press,
    shown,
    start_game,
    status_line,
    stored,
    texts,
    told,
)

LOCALES = pytest.mark.parametrize("locale", ["en-US", "fr", "pt-BR"])
NOT_YOURS = "Only the players of game #1 can use its buttons."


def controls(board) -> list[str]:
    """The controls the board offers, in the order shown."""
    return [b["custom_id"].rsplit(":", 1)[1] for b in buttons(board) if b["custom_id"].startswith("wari:act:")]


def control(board, action: str) -> str:
    (custom_id,) = [
        b["custom_id"] for b in buttons(board) if b["custom_id"] in (f"wari:act:{n}:{action}" for n in games(board))
    ]
    return custom_id


def games(board) -> set[str]:
    """The game numbers the board's controls carry."""
    return {b["custom_id"].split(":")[2] for b in buttons(board) if b["custom_id"].startswith("wari:act:")}


def answer(message, action: str) -> str:
    """The custom id of a message's Accept (or Decline...) button, whatever its label's language."""
    (custom_id,) = [b["custom_id"] for b in buttons(message) if b["custom_id"].endswith(f":{action}")]
    return custom_id


def said(language: str, text: str, **params) -> str:
    with speaking(language):
        return _(text, **params)


@dataclasses.dataclass
class Played:
    """Ama (A, first) against Kofi (B) in a server that speaks ``language``, both reading it too."""

    channel: object
    ama: object
    kofi: object
    board: object
    language: str


async def game_in(world, locale: str, **options) -> Played:
    guild = world.env.create_guild("Wari", preferred_locale=locale)
    channel = guild.create_text_channel("games")
    ama, kofi = (guild.add_member(world.env.create_user(name)) for name in ("ama", "kofi"))
    language = language_of(locale) or "en"
    for member in (ama, kofi):  # SimCord always says en-US: they choose their language
        await member.slash(channel, "wari settings", language=language)
    board = (await ama.slash(channel, "wari challenge", opponent=kofi, first="me", **options)).response
    await kofi.click(board, custom_id=answer(board, "accept"))
    return Played(channel, ama, kofi, board, language)


async def stored_table(world, game_id: int = 1) -> Table:
    row = await world.env.bot.store.games.get_game(game_id)
    assert row is not None
    return Table.of(row)


# -- the controls, each pressed, in the three languages ----------------------------------------


@LOCALES
async def test_a_draw_offered_with_the_boards_button_and_accepted_ends_the_game(world, locale):
    game = await game_in(world, locale)
    board, language = game.board, game.language
    labels = [b["label"] for b in buttons(board) if b["custom_id"].startswith("wari:act:")]
    assert labels == [said(language, word) for word in ("Offer draw", "Abort", "Surrender")]  # rated: no takeback
    offered = await game.ama.click(board, custom_id=control(board, "draw"))
    offer = offered.response
    assert not offered.ephemeral
    assert offer.content == said(language, "{player}, your opponent offers a draw.", player=game.kofi.mention)
    assert pinged(world, offer.message) == {game.kofi.id}
    assert await stored(world, "draw_open") == 1
    await game.kofi.click(offer, custom_id=answer(offer, "accept"))
    assert (await stored(world, "status"), await stored(world, "reason")) == ("finished", "agreement")
    table = await stored_table(world)
    with speaking(language):
        assert status_line(board) == "🏁 " + result_text(table.game.outcome, ("ama", "kofi"))
    assert controls(board) == [] and accent(board) == OVER_COLOUR.value


@LOCALES
async def test_in_an_unrated_game_a_move_is_taken_back_with_the_boards_button(world, locale):
    game = await game_in(world, locale, rated=False)
    board, language = game.board, game.language
    assert "takeback" not in controls(board)  # nobody has moved yet
    await press(game.ama, board, 3)
    assert controls(board) == ["takeback", "draw", "abort", "surrender"]
    asked = await game.ama.click(board, custom_id=control(board, "takeback"))
    request = asked.response
    assert not asked.ephemeral
    assert request.content == said(
        language,
        "↩️ <@{opponent}>, {name} asks to take back their last move in game #{number}.",
        opponent=game.kofi.id,
        name="ama",
        number=1,
    )
    await game.kofi.click(request, custom_id=answer(request, "accept"))
    no_move = said(language, "No move yet")
    assert board_footer(board) == said(language, "{moves} · unrated", moves=no_move)
    assert enabled_houses(board) == [1, 2, 3, 4, 5, 6] and "A(3,4)" not in await stored(world, "record")


@LOCALES
async def test_surrender_with_the_boards_button_asks_privately_first(world, locale):
    game = await game_in(world, locale)
    board, language = game.board, game.language
    await press(game.ama, board, 3)
    asked = await game.kofi.click(board, custom_id=control(board, "surrender"))
    assert asked.ephemeral  # only Kofi sees the question, in his language
    assert asked.response.content == (
        said(language, "Give up game #{number}? {opponent} wins, and this cannot be undone.", number=1, opponent="ama")
        + "\n"
        + said(language, "Not everyone has moved yet: `/wari abort` calls the game off instead, unrated.")
    )
    assert await stored(world, "status") == "live"  # asking changes nothing
    (confirm,) = buttons(asked.response)
    await game.kofi.click(asked.response, custom_id=confirm["custom_id"])
    assert (await stored(world, "status"), await stored(world, "reason")) == ("finished", "surrender")
    table = await stored_table(world)
    with speaking(language):
        assert status_line(board) == "🏁 " + result_text(table.game.outcome, ("ama", "kofi"))


@LOCALES
async def test_abort_with_the_boards_button_calls_the_game_off_before_both_sides_moved(world, locale):
    game = await game_in(world, locale)
    board, language = game.board, game.language
    await press(game.ama, board, 3)
    called = await game.kofi.click(board, custom_id=control(board, "abort"))
    assert not called.ephemeral
    assert called.response.content == said(
        language,
        "🛑 {name} called off game #{number} against {opponent} before both sides had moved: "
        "no winner, and no rating changes.",
        name="kofi",
        number=1,
        opponent=game.ama.mention,
    )
    assert await stored(world, "status") == "aborted"
    assert status_line(board) == said(
        language, "Game aborted before both sides had moved: no winner, and no rating changes."
    )
    assert buttons(board) == []


# -- who may press, and where each control shows ----------------------------------------------


async def test_a_spectators_press_of_a_control_is_refused_and_changes_nothing(world):
    board = await start_game(world)
    await press(world.alice, board, 3)
    assert controls(board) == ["draw", "abort", "surrender"]
    before = (texts(board), buttons(board))
    for action in controls(board):
        result = await world.carol.click(board, custom_id=control(board, action))
        assert [(m.content, m.ephemeral) for m in told(result)] == [(NOT_YOURS, True)], action
    assert (texts(board), buttons(board)) == before
    assert (await stored(world, "status"), await stored(world, "draw_open")) == ("live", 0)
    assert [m for m in world.channel.history() if "offers a draw" in m.content] == []


async def test_the_boards_colour_shows_whose_turn_it_is_and_each_side_wears_its_colour(world):
    board = await start_game(world)
    lines = board_words(board).splitlines()
    assert f"🟦 **A** {shown(world.alice)} · prisoners: **0** (houses 1–6)" in lines
    assert f"🟧 **B** {shown(world.bob)} · prisoners: **0** (houses 7–12)" in lines
    assert accent(board) == SIDE_COLOURS[Player.A].value
    await press(world.alice, board, 3)
    assert accent(board) == SIDE_COLOURS[Player.B].value and status_line(board).startswith(f"**{shown(world.bob)}**")
    await press(world.bob, board, 9)
    assert accent(board) == SIDE_COLOURS[Player.A].value
    assert controls(board) == ["draw", "surrender"]  # rated, and both have moved: no takeback, no abort
    await world.alice.click(board, custom_id=control(board, "surrender"))  # asks first: nothing changes
    assert accent(board) == SIDE_COLOURS[Player.A].value
    await world.mod.slash(world.channel, "wari-mod abort")
    assert accent(board) == OVER_COLOUR.value and board_title(board) == "Wari · game #1 · finished"


async def test_against_the_computer_the_takeback_button_undoes_the_move_and_its_answer(world):
    board = (await world.alice.slash(world.channel, "wari play", level="greedy", first="me")).response
    assert controls(board) == ["draw", "abort", "surrender"]
    await press(world.alice, board, 3)
    assert board_footer(board) == "Move 2" and controls(board) == ["takeback", "draw", "surrender"]
    taken = await world.alice.click(board, custom_id=control(board, "takeback"))
    assert not taken.ephemeral and taken.response.content.startswith(f"↩️ {shown(world.alice)} took back `A(3,4)` ")
    assert board_footer(board) == "No move yet" and enabled_houses(board) == [1, 2, 3, 4, 5, 6]


async def test_in_a_tournaments_thread_a_player_cannot_press_the_controls_of_another_game(world):
    players, _by_id, _signup = await gathered(
        world, 4, name="Duel", format="swiss", starts="in 5 minutes", rounds=1, clock="1d/move"
    )
    await world.mod.slash(world.channel, "wari-mod tournament start")
    first, second = (await event(world)).round_pairings(1)
    thread = thread_of(world, await game_channel(world, first.game_id))
    boards = {m.id: m for m in thread.history() if any(b["custom_id"].startswith("wari:act:") for b in buttons(m))}
    by_game = {int(control(m, "surrender").split(":")[2]): m for m in boards.values()}
    assert controls(by_game[first.game_id]) == ["draw", "surrender"]  # a tournament game is never called off
    outsider = next(member for member in players if member.id in (second.first_id, second.second_id))
    result = await outsider.click(by_game[first.game_id], custom_id=control(by_game[first.game_id], "draw"))
    refusal = f"Only the players of game #{first.game_id} can use its buttons."
    assert [(m.content, m.ephemeral) for m in told(result)] == [(refusal, True)]
    assert (await stored(world, "draw_open", first.game_id), await stored(world, "draw_open", second.game_id)) == (0, 0)


# -- boards drawn before the upgrade -----------------------------------------------------------


async def post_old_board(world, table: Table) -> discord.Message:
    """The board as the bot drew it before Components V2: the status as content, one embed, and a
    classic view of cup buttons (the same custom ids)."""
    game = table.game
    mover = game.to_move
    assert mover is not None  # a live game's board
    houses = range(1 + 6 * mover, 6 * (mover + 1) + 1)
    view = discord.ui.View(timeout=None)
    for index, house in enumerate(houses):  # two rows of three, as it split six cups
        view.add_item(CupButton(table.row.id, game.ply, house, seeds=game.board[house - 1], row=index // 3))
    embed = discord.Embed(title=f"Wari · game #{table.row.id}", description="```\nold board\n```")
    embed.set_footer(text="No move yet")
    channel = world.env.bot.get_partial_messageable(world.channel.id)
    return await channel.send(content=board_status(table), embed=embed, view=view)


def as_now(world, message):
    """``message`` as the channel shows it now (a message read from history does not follow edits)."""
    return next(m for m in world.channel.history() if m.id == message.id)


async def test_a_board_drawn_before_the_upgrade_is_pressable_and_becomes_a_v2_board(world):
    await start_game(world)
    old = await post_old_board(world, await stored_table(world))
    await world.env.advance_time(30)  # the old version's sweep noted which move its board shows
    await world.env.bot.store.database.write(("UPDATE games SET message_id = ? WHERE id = 1", (old.id,)))
    await world.restart()  # the upgrade: a new version of the bot on the same database
    old = as_now(world, old)
    assert old.content and old.embeds and not old.flags.components_v2  # still as the old version drew it
    await press(world.alice, old, 3)
    board = as_now(world, old)
    assert board.flags.components_v2 and board.content == "" and board.embeds == []
    assert status_line(board).startswith(f"**{shown(world.bob)}**, your move") and board_footer(board) == "Move 1"
    assert controls(board) == ["draw", "abort", "surrender"] and enabled_houses(board) == [12, 11, 10, 9, 8, 7]
    await press(world.bob, board, 9)  # and it plays on as a V2 board
    assert board_footer(as_now(world, board)) == "Move 2"


async def test_an_old_board_left_behind_is_closed_as_a_v2_board_pointing_to_the_current_one(world):
    current = await start_game(world)
    old = await post_old_board(world, await stored_table(world))  # never the game's board
    result = await press(world.alice, old, 3)
    assert told(result)[0].content == "This board was replaced: use the current one, linked here."
    closed = as_now(world, old)
    assert closed.flags.components_v2 and closed.content == "" and closed.embeds == [] and buttons(closed) == []
    assert status_line(closed).startswith("↪️ This board was replaced: game #1 goes on → [board](")
    assert status_line(closed).endswith(f"/{current.id})") and accent(closed) == OVER_COLOUR.value
    assert board_footer(current) == "No move yet"  # the press played nothing


# -- Discord's limits ----------------------------------------------------------------------------


def sizes(table: Table) -> tuple[int, int, int]:
    """The board of ``table`` with both players' rating changes (a board shows them once the game
    ends: here on a live board too, more than any one moment shows), as Discord checks it: its
    buttons, its components (nested ones counted) and the characters of its text."""
    changes = tuple(
        RatingChange(table.row.id, user, "kalah", Rating(), Rating(1687.4, 300.0), datetime(2026, 1, 1, tzinfo=UTC))
        for user in table.row.players
    )
    layout = board_message(Table(table.row, table.game, ratings=changes)).view
    assert isinstance(layout, discord.ui.LayoutView)
    wire = layout.to_components()
    validate_components(wire, flags=COMPONENTS_V2_FLAG)
    every = list(walk_components(wire))
    text = sum(len(component["content"]) for component in every if component["type"] == 10)
    return sum(1 for component in every if component["type"] == 2), len(every), text


async def test_the_largest_board_keeps_within_discords_limits(world):
    """Kalah with 10 houses, a clock a move, ratings, 32-character names and the last moves
    listed: at most 40 components (nested ones counted) and 4,000 characters of text."""
    long = [world.guild.add_member(world.env.create_user(letter * 32)) for letter in "wm"]
    options = {"variant": "kalah", "houses": 10, "seeds": 10, "clock": "1h/move", "rated": False, "first": "me"}
    board = (await long[0].slash(world.channel, "wari challenge", opponent=long[1], **options)).response
    await long[1].click(board, label="Accept")
    await press(long[0], board, 1)  # A moved, B not: every control shows
    assert controls(board) == ["takeback", "draw", "abort", "surrender"]
    most_buttons, components, text = sizes(await stored_table(world))
    assert most_buttons == 10 + 4 and components <= 40 and text <= 4000
    for _move in range(12):
        mover = next(m for m in long if status_line(board).startswith(f"**{shown(m)}**"))
        await press(mover, board, enabled_houses(board)[-1])
    table = await stored_table(world)
    assert "**Before:**" in board_words(board) and table.game.ply > 10
    most_buttons, components, text = sizes(table)
    assert most_buttons >= 10 and components <= 40 and 500 < text <= 4000, (components, text)
