"""User stories: restarts, Discord failures, races and a broken database lose nothing."""

import asyncio

import discord
import pytest

from bot.engine import rules_for
from bot.service import Refusal, StaleBoard
from bot.storage import StorageError
from cogs.wari.options import rules_of
from tests.helpers import (
    board_code,
    board_footer,
    board_words,
    cup_id,
    cup_labels,
    enabled_houses,
    late_click,
    pinged,
    press,
    shown,
    start_game,
    status_line,
    stored,
    texts,
    told,
)


async def test_restart_in_the_middle_of_a_game_and_play_on(world):
    board = await start_game(world)
    await press(world.alice, board, 3)
    before = board_code(board)
    await world.restart()
    assert world.env.bot.is_ready()
    result = await press(world.bob, board, 9)  # a button drawn by the previous bot process
    assert result.acknowledged and told(result) == []
    assert board_footer(board) == "Move 2" and board_code(board) != before
    await press(world.alice, board, 1)
    assert board_footer(board) == "Move 3"


async def test_restart_with_an_open_challenge_then_accept(world):
    message = (await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, first="me")).response
    await world.restart()
    await world.bob.click(message, label="Accept")
    assert status_line(message).startswith(f"**{shown(world.alice)}**, your move")


async def test_a_challenge_still_expires_after_a_restart(world):
    message = (await world.alice.slash(world.channel, "wari challenge", opponent=world.bob)).response
    await world.env.advance_time(5 * 60)
    await world.restart()
    await world.env.advance_time(5 * 60 + 30)
    assert message.content == "⌛ This challenge expired without an answer."


async def test_a_refused_answer_to_a_press_is_repaired_by_editing_the_board_by_id(world):
    board = await start_game(world)
    world.env.inject_error("POST", "/interactions/*/callback", status=500)  # the press's answer, the redrawn board
    result = await press(world.alice, board, 6)
    assert told(result) == []  # nothing to say: the board shows the move
    assert board_footer(board) == "Move 1" and enabled_houses(board) == [12, 11, 10, 9, 8, 7]


async def test_a_board_discord_will_not_edit_is_posted_anew_and_the_presser_gets_its_link(world):
    board = await start_game(world)
    world.env.inject_error("POST", "/interactions/*/callback", status=503)
    world.env.inject_error("PATCH", f"/channels/*/messages/{board.id}", status=404, times=None)  # gone for good
    result = await press(world.alice, board, 6)
    (new,) = [m for m in world.channel.history() if texts(m) and m.id != board.id]
    assert new.id != board.id and board_footer(new) == "Move 1"
    assert told(result)[0].ephemeral
    assert told(result)[0].content == (
        "The move `A(6,4)` was played. Discord did not let me update the board, so I posted it anew → [board]("
        f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{new.id})"
    )
    assert await stored(world, "message_id") == new.id
    await press(world.bob, new, 12)
    (new,) = [m for m in world.channel.history() if m.id == new.id]  # history() gives snapshots
    assert board_footer(new) == "Move 2"


async def test_when_discord_refuses_every_redraw_the_move_counts_and_the_old_board_catches_up(world):
    board = await start_game(world)
    world.env.inject_error("POST", "/interactions/*/callback", status=500)
    world.env.inject_error("PATCH", "*", status=500, times=2)
    world.env.inject_error("POST", "/channels/*/messages", status=500)
    result = await press(world.alice, board, 6)
    assert (
        told(result)[0].content
        == "The move `A(6,4)` was played. Discord did not let me show the board: use `/wari board` to see it."
    )
    # The message still shows Alice's cups of the old position; the game has moved on.
    assert cup_labels(board)[0] == "1 · 4" and board_footer(board) == "No move yet"
    again = await press(world.alice, board, 6)
    assert told(again)[0].content == "Your move `A(6,4)` had already been played: the board now shows it."
    assert board_footer(board) == "Move 1"
    assert cup_labels(board) == ["12 · 4", "11 · 4", "10 · 5", "9 · 5", "8 · 5", "7 · 5"]  # Bob to move
    await press(world.bob, board, 12)
    assert board_footer(board) == "Move 2"


async def test_two_presses_at_once_apply_one_move(world):
    await start_game(world)
    service = world.env.bot.service
    table = await service.tables.table(world.channel.id)

    async def alice_plays(house):
        return await service.games.play(
            channel_id=world.channel.id,
            game_id=table.row.id,
            ply=0,
            message_id=table.row.message_id,
            user_id=world.alice.id,
            house=house,
            now=table.row.updated_at,
        )

    outcomes = await asyncio.gather(alice_plays(1), alice_plays(2), alice_plays(3), return_exceptions=True)
    played = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, StaleBoard)]
    assert len(played) == 1 and len(refused) == 2
    stored = await service.tables.table(world.channel.id)
    assert stored.game.ply == 1 and stored.row.version == table.row.version + 1


async def read_only(store, on: bool) -> None:
    """Make the database refuse every write (as a full disk or a read-only replica would), or stop."""
    backend = store.database._backend
    if store.dialect == "sqlite":
        await backend._run(f"PRAGMA query_only = {'ON' if on else 'OFF'}")
        return
    async with backend._pool.acquire() as connection:
        await connection.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE")  # this one may change it back
        name = await connection.fetchval("SELECT current_database()")
        await connection.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = {"on" if on else "off"}')
    await backend._pool.expire_connections()  # new connections take the setting


async def test_a_database_that_cannot_be_written_refuses_clearly_and_changes_nothing(world, caplog):
    board = await start_game(world)
    store = world.env.bot.store
    await read_only(store, True)  # every write now fails inside the database itself
    result = await press(world.alice, board, 2)
    assert told(result)[0].ephemeral
    assert (
        told(result)[0].content
        == "I can't reach my game database right now, so nothing was changed. Please try again in a moment."
    )
    assert "cannot write to the database" in caplog.text
    assert board_footer(board) == "No move yet"
    await read_only(store, False)
    await press(world.alice, board, 2)
    assert board_footer(board) == "Move 1"


async def test_an_illegal_house_is_refused_with_the_reason_and_nothing_changes(world):
    board = await start_game(world)
    await press(world.alice, board, 1)
    await press(world.bob, board, 7)
    service = world.env.bot.service
    table = await service.tables.table(world.channel.id)
    # The button of an empty house is disabled; a forged press still gets a clear refusal.
    with pytest.raises(Refusal, match="You can't play house 1: house 1 is empty"):
        await service.games.play(
            channel_id=world.channel.id,
            game_id=table.row.id,
            ply=2,
            message_id=table.row.message_id,
            user_id=world.alice.id,
            house=1,
            now=table.row.updated_at,
        )
    assert (await service.tables.table(world.channel.id)).row.version == table.row.version


async def test_a_challenge_button_only_works_in_its_own_channel(world):
    message = (await world.alice.slash(world.channel, "wari challenge", opponent=world.bob)).response
    challenge = await world.env.bot.store.games.challenge_in(world.channel.id)
    other = world.guild.create_text_channel("elsewhere")
    with pytest.raises(Refusal, match="no longer open"):
        await world.env.bot.service.challenges.accept(challenge.id, world.bob.id, other.id, challenge.created_at)
    await world.bob.click(message, label="Accept")
    assert status_line(message).startswith("**alice**, your move")  # still accepted where it was posted


async def test_a_surrender_whose_answer_discord_refuses_is_still_announced_and_drawn(world):
    board = await start_game(world)
    await press(world.alice, board, 3)
    asked = await world.bob.slash(world.channel, "wari surrender")
    world.env.inject_error("POST", "/interactions/*/callback", status=500)
    pressed = await world.bob.click(asked.response, label="Surrender")
    assert pressed.acknowledged
    assert (
        world.channel.last_message.content == f"🏳️ {shown(world.bob)} surrendered. {world.alice.mention} wins game #1!"
    )
    assert status_line(board).startswith("🏁 ") and cup_labels(board) == []
    assert not [m for m in world.channel.history() if "your move in game" in m.content]  # no ping left behind


async def test_an_accept_whose_answer_discord_refuses_still_shows_the_board_and_pings(world):
    message = (await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, first="me")).response
    world.env.inject_error("POST", "/interactions/*/callback", status=500)
    await world.bob.click(message, label="Accept")
    assert status_line(message).startswith(f"**{shown(world.alice)}**, your move")  # edited by id instead
    assert [m for m in world.channel.history() if "your move in game #1" in m.content]  # Alice was pinged


async def test_a_challenge_discord_will_not_post_is_not_made_and_the_channel_stays_free(world):
    world.env.inject_error("POST", "/interactions/*/callback", status=503)
    result = await world.alice.slash(world.channel, "wari challenge", opponent=world.bob)
    assert (
        result.response.content == "Discord did not let me post your challenge, so it was not made. Please try again."
    )
    assert await world.env.bot.store.games.challenge_in(world.channel.id) is None
    again = await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, first="me")
    await world.bob.click(again.response, label="Accept")
    assert status_line(again.response).startswith(f"**{shown(world.alice)}**, your move")


async def test_a_posted_challenge_whose_message_id_the_database_first_refuses_keeps_it(world, monkeypatch):
    from cogs.wari import challenges

    store = world.env.bot.store
    save = store.games.set_challenge_message
    failures = []

    async def flaky_save(challenge_id, message_id):
        if len(failures) < 2:  # the database fails twice, then recovers
            failures.append(challenge_id)
            raise StorageError("cannot write to the database: disk I/O error")
        await save(challenge_id, message_id)

    monkeypatch.setattr(store.games, "set_challenge_message", flaky_save)
    monkeypatch.setattr(challenges, "MESSAGE_ID_RETRIES", (0.01, 0.01, 0.01))  # seconds apart, not 2, 8, 20
    message = (await world.alice.slash(world.channel, "wari challenge", opponent=world.bob)).response
    assert len(failures) == 2 and (await store.games.challenge_in(world.channel.id)).message_id == message.id
    await world.env.advance_time(2 * 60)  # past the grace of a challenge never posted: still open
    busy = await world.carol.slash(world.channel, "wari challenge", opponent=world.mod)
    assert busy.response.content == "This channel already has an open challenge. Wait until it is answered or expires."
    await world.env.advance_time(10 * 60)
    assert message.content == "⌛ This challenge expired without an answer."  # its expiry found its message


async def test_a_challenge_saved_without_its_message_stops_blocking_the_channel_after_a_minute(world):
    # The bot stopped between saving a challenge and posting it: nobody can see or answer it.
    service = world.env.bot.service
    await service.challenges.challenge(
        guild_id=world.guild.id,
        channel_id=world.channel.id,
        challenger_id=world.alice.id,
        opponent_id=world.bob.id,
        rules=rules_for("wari"),
        first="me",
        now=discord.utils.utcnow(),
    )
    busy = await world.carol.slash(world.channel, "wari challenge", opponent=world.mod)
    assert busy.response.content == "This channel already has an open challenge. Wait until it is answered or expires."
    await world.env.advance_time(61)
    free = await world.carol.slash(world.channel, "wari challenge", opponent=world.mod)
    assert not free.ephemeral and "challenges" in free.response.embeds[0].description


async def test_a_challenge_is_posted_with_one_call_and_nothing_read_back(world):
    before = len(world.env.backend.http_requests)
    await world.alice.slash(world.channel, "wari challenge", opponent=world.bob)
    calls = [(call.method, call.path.rsplit("/", 1)[-1]) for call in world.env.backend.http_requests[before:]]
    assert calls == [("POST", "callback")]  # the message's id comes back with the answer


async def test_a_double_click_whose_button_the_first_redraw_removed_is_answered(world):
    board = await start_game(world)
    pressed = cup_id(board, 3)
    await press(world.alice, board, 3)
    late = await late_click(world.alice, board, pressed)
    assert late.acknowledged
    assert told(late)[0].content == "Your move `A(3,4)` had already been played: the board now shows it."
    assert board_footer(board) == "Move 1"


async def test_two_players_racing_hear_that_another_press_came_first(world):
    board = await start_game(world)
    pressed = cup_id(board, 3)
    await press(world.alice, board, 3)
    late = await late_click(world.bob, board, pressed)  # Bob's click on the board as it was before
    assert told(late)[0].content.startswith("Another press came first: move 1 (`A(3,4)`) was played.")


async def test_a_refusal_discord_drops_once_is_sent_again(world):
    board = await start_game(world)
    world.env.inject_error("POST", "/interactions/*/callback", status=500)  # the first answer fails
    result = await world.bob.click(board, custom_id=cup_id(board, 2))
    assert [f.content for f in told(result)] == [f"It's {shown(world.alice)}'s turn."]


async def test_a_forged_level_or_board_size_is_refused_clearly_and_stores_nothing(world):
    service = world.env.bot.service
    with pytest.raises(Refusal, match="There is no level called `grandmaster`. Choose one of: random"):
        await service.starts.play_computer(
            guild_id=world.guild.id,
            channel_id=world.channel.id,
            human_id=world.alice.id,
            computer_id=world.env.bot.user.id,
            level="grandmaster",
            rules=rules_for("wari"),
            first="me",
            now=discord.utils.utcnow(),
        )
    assert await world.env.bot.store.games.live_game(world.channel.id) is None
    with pytest.raises(Refusal, match="Sorry, kalah houses must be a whole number from 1 to 10, not 11."):
        rules_of("kalah", 11, None)
    with pytest.raises(Refusal, match="Sorry, unknown variant 'chess'"):
        rules_of("chess", None, None)


async def commit_without_redraw(world, channel_id, board, member, house):
    """A press whose move is committed, then the process dies before the board is redrawn: the
    move is in the database, the board message still shows the position before it."""
    service = world.env.bot.service
    table = await service.tables.table(channel_id)
    await service.games.play(
        channel_id=channel_id,
        game_id=table.row.id,
        ply=table.game.ply,
        message_id=board.id,
        user_id=member.id,
        house=house,
        now=discord.utils.utcnow(),
    )


async def test_boards_a_crash_left_behind_are_redrawn_at_start_up(world):
    boards = []
    for number in range(3):
        channel = world.guild.create_text_channel(f"games-{number}")
        board = (await world.alice.slash(channel, "wari challenge", opponent=world.bob, first="me")).response
        await world.bob.click(board, label="Accept")
        boards.append((channel, board))
    for channel, board in boards:
        await commit_without_redraw(world, channel.id, board, world.alice, 3)
        assert board_footer(board) == "No move yet"  # behind its game
    await world.restart()
    for _channel, board in boards:
        assert board_footer(board) == "Move 1" and "`A(3,4)`" in board_words(board)
    assert not await world.env.bot.store.games.boards_behind()


async def test_a_press_on_a_board_left_behind_says_so_and_never_blames_another_press(world):
    board = await start_game(world)
    await commit_without_redraw(world, world.channel.id, board, world.alice, 3)
    again = await press(world.alice, board, 3)  # she presses again: her first press seemed lost
    assert told(again)[0].content == "Your move `A(3,4)` had already been played: the board now shows it."
    assert board_footer(board) == "Move 1"
    await commit_without_redraw(world, world.channel.id, board, world.bob, 9)
    await commit_without_redraw(world, world.channel.id, board, world.alice, 4)
    late = await press(world.bob, board, 10)  # the board still shows Bob to move after move 1
    assert told(late)[0].content == (
        "This board was out of date: it now shows the current position, after move 3 (`A(4,5)`)."
    )
    assert board_footer(board) == "Move 3"


async def test_when_discord_refuses_every_private_answer_the_channel_tells_the_asker(world):
    await start_game(world)
    world.env.inject_error("POST", "/interactions/*/callback", status=500, times=2)
    await world.carol.slash(world.channel, "wari surrender")  # not her game: a refusal
    said = world.channel.last_message
    assert said.content == f"{world.carol.mention} You are not playing in this channel's game."
    assert pinged(world, said) == {world.carol.id}
