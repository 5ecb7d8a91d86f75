"""User stories: games where the bot is no member (a group DM, a server that did not add it).

There the bot may only answer interactions, so a game lives on them alone: the answer to
``/wari challenge`` is the challenge, Accept turns that message into the board, each press redraws
the board through its own answer and calls the next player in a follow-up of that press, the
computer's reply is drawn through the press that asked for it, and nothing is said unprompted
(no sweep's ping, reminder or time-out: a clock's time-out is applied at the next press or
``/wari board``). Every story checks from SimCord's log of the bot's requests that the bot never
posted, edited or deleted a message of the channel by itself.

Runs through the ``user_installed`` fixture (tests/cogs/conftest.py): every interaction is
authorised by its user's install alone; ``group_dm`` shows the channel to discord.py as a group
DM (no server). What SimCord cannot check: that Discord itself refuses the bot's channel calls
there (it would: the bot is no member), and the cap of 5 follow-ups an interaction."""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.service import Computer, Table
from bot.storage import INTERACTION, NO_SERVER
from cogs.wari.reach import CLOCK_NOTE, clock_note
from tests.helpers import board_words, buttons, enabled_houses, late_click, pinged, press, status_line

#: The bot's own calls on a channel's messages: a post, an edit or a deletion by id.
CHANNEL_MESSAGE_CALL = re.compile(r"^/channels/(?P<channel>\d+)/messages")


def channel_calls(world) -> list[str]:
    """The bot-initiated message calls on the story's channel (none may be made in these games)."""
    return [
        f"{entry.method} {entry.path}"
        for entry in world.env.http_requests
        if entry.method in ("POST", "PATCH", "DELETE")
        and (found := CHANNEL_MESSAGE_CALL.match(entry.path))
        and int(found["channel"]) == world.channel.id
    ]


async def stored_game(world, number: int = 1):
    return await world.env.bot.store.games.get_game(number)


async def an_hour_passes(world) -> None:
    """A little over an hour, in steps (SimCord gives each step a few real seconds to settle)."""
    for _ in range(5):
        await world.env.advance_time(13 * 60)


def privately(result) -> list:
    """The private follow-ups of an interaction (what only its user was told)."""
    return [message for message in result.followups if message.flags.ephemeral]


def followed_up(result) -> list:
    """The public follow-ups of an interaction (a turn ping, an announcement)."""
    return [message for message in result.followups if not message.flags.ephemeral]


@pytest.fixture
def group_dm(world, user_installed):
    """Alice, Bob and Carol's group DM."""
    user_installed.group_dm = True
    user_installed.recipients = (world.alice.id, world.bob.id, world.carol.id)
    return user_installed


async def test_in_a_group_dm_two_friends_play_by_presses_alone_across_a_restart(world, group_dm):
    challenge = await world.alice.slash(
        world.channel, "wari challenge", opponent=world.bob, first="me", variant="kalah", houses=3, seeds=2
    )
    assert not challenge.ephemeral
    assert pinged(world, challenge.response.message) == {world.bob.id}  # the answer is the challenge: Bob is called
    accepted = await world.bob.click(challenge.response, label="Accept")
    board = challenge.response
    row = await stored_game(world)
    assert (row.venue, row.guild_id, row.message_id) == (INTERACTION, NO_SERVER, board.id)
    assert "game #1" in board_words(board) and enabled_houses(board)
    # Alice to move: called in a follow-up of Bob's press.
    (call,) = followed_up(accepted)
    assert pinged(world, call.message) == {world.alice.id}
    members = {world.alice.id: world.alice, world.bob.id: world.bob}
    for turn in range(40):
        table = Table.of(await stored_game(world))
        if not table.row.live:
            break
        if turn == 3:
            await world.restart()  # the buttons carry all a press needs
        pressed = await press(members[table.user_to_move], board, min(enabled_houses(board)))
        assert pressed.response.id == board.id and not privately(pressed)  # the board, redrawn through the press
        after = Table.of(await stored_game(world))
        if after.row.live:  # the next player is called in a follow-up of this press
            (call,) = followed_up(pressed)
            assert pinged(world, call.message) == {after.user_to_move}
    row = await stored_game(world)
    assert row.status == "finished" and row.message_id == board.id
    assert enabled_houses(board) == []
    assert channel_calls(world) == []
    world.env.raise_errors()


async def test_in_a_server_without_the_bot_the_computer_answers_through_the_press(world, user_installed):
    played = await world.alice.slash(world.channel, "wari play", level="low", variant="kalah", houses=3, first="me")
    assert not played.ephemeral
    board = played.response
    assert (await stored_game(world)).venue == INTERACTION
    pressed = await press(world.alice, board, min(enabled_houses(board)))
    row = await stored_game(world)
    assert row.version >= 3 and row.message_id == board.id  # her move, then the computer's reply
    assert enabled_houses(board) and "**alice**, your move" in status_line(board)  # drawn through her press
    assert followed_up(pressed) == []  # she is at the board: nobody to call
    await world.restart()
    # `/wari board` answers with the board, which becomes the game's board.
    shown = await world.alice.slash(world.channel, "wari board")
    assert not shown.ephemeral and (await stored_game(world)).message_id == shown.response.id
    stale = await press(world.alice, board, min(enabled_houses(board)))  # the old board is fixed by its press
    assert buttons(board) == [] and "replaced" in privately(stale)[0].content
    for _ in range(60):
        if not (await stored_game(world)).live:
            break
        await press(world.alice, shown.response, min(enabled_houses(shown.response)))
    assert (await stored_game(world)).status == "finished"
    assert channel_calls(world) == []
    world.env.raise_errors()


async def test_a_clock_runs_out_unseen_and_the_next_press_ends_the_game_saying_so(world, user_installed):
    board = (
        await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, first="me", clock="1h/move")
    ).response
    await world.bob.click(board, label="Accept")
    assert clock_note(Table.of(await stored_game(world))) == CLOCK_NOTE
    assert CLOCK_NOTE in board_words(board)  # the board's plain word on its clock
    await an_hour_passes(world)  # the sweeps run: none of them may speak here
    assert (await stored_game(world)).live
    claimed = await press(world.bob, board, min(enabled_houses(board)))  # Bob, waiting, presses
    row = await stored_game(world)
    assert row.status == "finished" and row.reason == "time"
    assert "🏁" in status_line(board) and enabled_houses(board) == []
    (told_everyone,) = followed_up(claimed)
    assert "ran out of time" in told_everyone.content
    assert pinged(world, told_everyone.message) == {world.alice.id, world.bob.id}
    assert channel_calls(world) == []
    world.env.raise_errors()


async def test_a_time_out_is_applied_by_board_too(world, user_installed):
    board = (
        await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, first="me", clock="1h/move")
    ).response
    await world.bob.click(board, label="Accept")
    await an_hour_passes(world)
    shown = await world.bob.slash(world.channel, "wari board")
    row = await stored_game(world)
    assert row.status == "finished" and row.message_id == shown.response.id
    assert "🏁" in status_line(shown.response)
    assert any("ran out of time" in message.content for message in followed_up(shown))
    assert channel_calls(world) == []
    world.env.raise_errors()


async def test_an_expired_challenge_is_closed_unseen_and_its_message_fixed_at_the_next_press(world, user_installed):
    challenge = (await world.alice.slash(world.channel, "wari challenge", opponent=world.bob)).response
    await world.env.advance_time(11 * 60)  # past its time: the sweep closes it in storage only
    assert await world.env.bot.store.games.challenge_in(world.channel.id) is None
    assert [b["label"] for b in buttons(challenge)] == ["Accept", "Decline", "Withdraw"]  # not edited by id
    await world.bob.click(challenge, label="Accept")
    assert challenge.components == [] and "no longer open" in challenge.content
    assert channel_calls(world) == []
    world.env.raise_errors()


async def test_where_the_server_turned_external_apps_off_a_game_is_refused_saying_why(world, user_installed):
    user_installed.external_apps = False
    for command, options in (("wari play", {}), ("wari challenge", {"opponent": world.bob})):
        refused = await world.alice.slash(world.channel, command, **options)
        assert refused.ephemeral and "Use External Apps" in refused.response.content, command
    assert await world.env.bot.store.games.live_game(world.channel.id) is None
    world.env.raise_errors()


async def test_a_challenge_names_someone_in_the_group_dm(world, group_dm):
    group_dm.recipients = (world.alice.id, world.carol.id)
    refused = await world.alice.slash(world.channel, "wari challenge", opponent=world.bob)
    assert refused.ephemeral and "not in this conversation" in refused.response.content
    world.env.raise_errors()


async def test_in_a_group_dm_a_draw_offer_and_a_surrender_are_said_through_the_interactions(world, group_dm):
    board = (await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, first="me")).response
    await world.bob.click(board, label="Accept")
    offer = await world.alice.slash(world.channel, "wari draw")  # its answer is the offer, calling Bob
    assert pinged(world, offer.response.message) == {world.bob.id}
    declined = await world.bob.click(offer.response, label="Decline")
    (told_alice,) = followed_up(declined)  # Alice hears of it in a follow-up of Bob's press
    assert pinged(world, told_alice.message) == {world.alice.id}
    asked = await world.alice.slash(world.channel, "wari surrender")
    done = await world.alice.click(asked.response, label="Surrender")
    announced, final = followed_up(done)
    assert "surrendered" in announced.content and pinged(world, announced.message) == {world.bob.id}
    row = await stored_game(world)
    assert row.status == "finished" and row.message_id == final.id  # the final board, shown through her press
    assert channel_calls(world) == []
    world.env.raise_errors()


async def finished_in_group_dm(world):
    """Alice's game against Bob in their group DM, ended by Bob's surrender after Alice's move:
    the final board (shown through Bob's press)."""
    board = (await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, first="me")).response
    await world.bob.click(board, label="Accept")
    await press(world.alice, board, min(enabled_houses(board)))
    asked = await world.bob.slash(world.channel, "wari surrender")
    done = await world.bob.click(asked.response, label="Surrender")
    _announced, final = followed_up(done)
    assert (await stored_game(world)).message_id == final.id
    return final


async def test_in_a_group_dm_an_analysis_is_refused_privately_and_pointed_to_the_bots_dm(world, group_dm):
    final = await finished_in_group_dm(world)
    assert "Analyse" not in [button["label"] for button in buttons(final)]  # it could never be shown here
    asked = await world.alice.slash(world.channel, "wari analyse", game=1)
    assert asked.ephemeral and "in our DM" in asked.response.content
    menu = await world.carol.context_menu(world.channel, "Analyse this game", final)
    assert menu.ephemeral and "in our DM" in menu.response.content
    assert channel_calls(world) == []
    world.env.raise_errors()


async def test_a_restart_while_the_computer_thinks_leaves_a_board_a_press_brings_up_to_date(
    world, user_installed, monkeypatch
):
    board = (
        await world.alice.slash(world.channel, "wari play", level="low", variant="kalah", houses=3, first="me")
    ).response
    held = asyncio.Event()

    async def thinks_until_the_restart(*_args):  # the process dies mid-think
        await world.env.external_wait(held.wait(), reason="the computer thinks until the restart")

    monkeypatch.setattr(Computer, "_search", thinks_until_the_restart)
    await press(world.alice, board, min(enabled_houses(board)))
    assert "is thinking" in status_line(board)
    assert "press a cup" in status_line(board)  # no promise that its move shows by itself here
    monkeypatch.undo()
    await world.restart()  # the computer thinks again and moves: stored, but no interaction draws it
    assert Table.of(await stored_game(world)).user_to_move == world.alice.id
    stale = await press(world.alice, board, min(enabled_houses(board)))  # a cup of the thinking board
    assert "**alice**, your move" in status_line(board) and enabled_houses(board)
    assert all(message.ephemeral for message in stale.followups)
    assert channel_calls(world) == []
    world.env.raise_errors()


async def test_in_a_group_dm_the_computers_first_move_is_drawn_on_the_board_the_command_answered(world, group_dm):
    played = await world.alice.slash(
        world.channel, "wari play", level="low", variant="kalah", houses=3, first="opponent"
    )
    board = played.response
    row = await stored_game(world)
    assert (
        Table.of(row).game.ply >= 1 and row.message_id == board.id
    )  # the computer moved; its board is still the answer
    assert followed_up(played) == []  # no second board left beside it
    assert "**alice**, your move" in status_line(board) and enabled_houses(board)
    shown = await world.alice.slash(world.channel, "wari board")  # the same for /wari board
    assert (await stored_game(world)).message_id == shown.response.id and followed_up(shown) == []
    assert channel_calls(world) == []
    world.env.raise_errors()


async def test_in_a_group_dm_the_board_keeps_one_language_whoever_presses(world, group_dm):
    await world.bob.slash(world.channel, "wari settings", language="fr")  # Alice's is English
    board = (await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, first="me")).response
    await world.bob.click(board, label="Accept")
    await press(world.alice, board, min(enabled_houses(board)))
    await press(world.bob, board, min(enabled_houses(board)))  # Bob, who reads French, moves
    assert "**alice**, your move" in status_line(board)  # drawn in the language of its first player
    assert "game #1" in board_words(board)
    world.env.raise_errors()


async def test_a_rematch_forged_in_another_group_dm_is_refused_and_starts_nothing(world, group_dm):
    await finished_in_group_dm(world)  # game #1, in this group DM
    other = world.guild.create_text_channel("another-group-dm")  # the same three, another group DM
    board = (await world.alice.slash(other, "wari challenge", opponent=world.bob, first="me")).response
    await world.bob.click(board, label="Accept")
    asked = await world.bob.slash(other, "wari surrender")
    _announced, final = followed_up(await world.bob.click(asked.response, label="Surrender"))
    forged = await late_click(world.alice, final, "wari:rematch:1")  # game #1's Rematch, pressed here
    assert [message.ephemeral for message in [forged.response, *forged.followups] if message] == [True]
    for channel in (world.channel, other):
        assert await world.env.bot.store.games.challenge_in(channel.id) is None
    world.env.raise_errors()


async def test_in_a_dm_between_two_people_only_the_other_one_can_be_challenged(world, group_dm):
    group_dm.two_people, group_dm.recipients = True, (world.alice.id, world.bob.id)
    refused = await world.alice.slash(world.channel, "wari challenge", opponent=world.carol)
    assert refused.ephemeral and "not in this conversation" in refused.response.content
    assert await world.env.bot.store.games.challenge_in(world.channel.id) is None
    challenge = await world.alice.slash(world.channel, "wari challenge", opponent=world.bob)
    assert not challenge.ephemeral and pinged(world, challenge.response.message) == {world.bob.id}
    world.env.raise_errors()


async def test_a_game_past_its_deadline_is_ended_on_time_by_the_next_challenge_which_goes_on(world, user_installed):
    board = (
        await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, first="me", clock="1h/move")
    ).response
    await world.bob.click(board, label="Accept")
    await an_hour_passes(world)  # Alice let her time run out; no sweep may say so here
    challenged = await world.bob.slash(world.channel, "wari challenge", opponent=world.carol)
    row = await stored_game(world)
    assert row.status == "finished" and row.reason == "time"
    said = [challenged.response, *challenged.followups]
    assert any("ran out of time" in (message.content or "") for message in said)
    challenge = await world.env.bot.store.games.challenge_in(world.channel.id)
    assert challenge is not None and challenge.opponent_id == world.carol.id
    assert any(pinged(world, message.message) == {world.carol.id} for message in said if not message.ephemeral)
    assert channel_calls(world) == []
    world.env.raise_errors()


async def test_a_game_past_its_deadline_is_ended_on_time_by_the_next_game_against_the_computer(world, user_installed):
    board = (
        await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, first="me", clock="1h/move")
    ).response
    await world.bob.click(board, label="Accept")
    await an_hour_passes(world)
    played = await world.bob.slash(world.channel, "wari play", level="low")
    assert (await stored_game(world)).reason == "time"
    new_game = await stored_game(world, 2)
    assert new_game is not None and new_game.live and not played.ephemeral
    world.env.raise_errors()
