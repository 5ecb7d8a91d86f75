"""User stories: playing a game on the board message, from the first press to the archive."""

import json
import random

import discord

from bot.engine import Game, Player
from bot.engine.notation import from_record
from tests.helpers import (
    board_code,
    board_footer,
    board_title,
    board_words,
    buttons,
    cup_id,
    cup_labels,
    enabled_houses,
    gallery,
    press,
    shown,
    start_game,
    status_line,
    stored,
    told,
)


async def archived(world) -> list:
    return await world.env.bot.store.database.read("SELECT * FROM games WHERE status != 'live' ORDER BY id")


async def test_a_press_plays_the_move_and_redraws_the_same_message(world):
    board = await start_game(world)
    result = await press(world.alice, board, 5)
    assert result.acknowledged and told(result) == []
    assert status_line(board).startswith(f"**{shown(world.bob)}**, your move (wari, houses 7–12)")
    assert "**Last move:** `A(5,4)` alice sowed 4 seeds from house 5." in board_words(board)
    assert board_footer(board) == "Move 1"
    # Bob's cups, in board order (12 on the left, as drawn), with their seeds.
    assert cup_labels(board) == ["12 · 4", "11 · 4", "10 · 4", "9 · 5", "8 · 5", "7 · 5"]


async def test_the_worked_example_through_the_buttons(world):
    board = await start_game(world)
    for member, house in ((world.alice, 5), (world.bob, 7), (world.alice, 2), (world.bob, 12)):
        await press(member, board, house)
    assert "`B(12,5)+2`" in board_words(board)
    assert "captured 2 from house 5" in board_words(board)
    assert board_code(board).splitlines()[2:5] == [
        " ›0  5  5  6  6  0",  # house 12, the last move's, marked
        "2 ─────────────── 0",  # B's prisoners on the left, A's on the right
        "  5  1  6  6  0  6",
    ]
    assert enabled_houses(board) == [1, 2, 3, 4, 6]  # house 5 is empty: its button is disabled


async def test_a_whole_game_to_the_end_is_archived_with_its_record(world):
    board = await start_game(world, variant="oware")
    shadow, rng = Game("oware"), random.Random(5)
    players = {Player.A: world.alice, Player.B: world.bob}
    while not shadow.is_over:
        house = rng.choice(shadow.legal_moves)
        assert sorted(enabled_houses(board)) == shadow.legal_moves
        await press(players[shadow.to_move], board, house)
        shadow.play(house)
    assert [b["label"] for b in buttons(board)] == ["Rematch", "Analyse"]
    assert board_title(board).endswith("· finished")
    assert status_line(board).startswith("🏁 ")
    (row,) = await archived(world)
    assert row["status"] == "finished" and row["result"] == shadow.outcome.result
    assert row["reason"] == shadow.outcome.termination.value and row["finished_at"]
    game, tags = from_record(row["record"])
    assert game.moves == shadow.moves
    assert (tags["PlayerA"], tags["PlayerB"]) == (str(world.alice.id), str(world.bob.id))


async def test_the_other_player_is_told_whose_turn_it_is(world):
    board = await start_game(world)
    before = board_code(board)
    # Bob presses one of Alice's cups: it is not his turn.
    result = await press(world.bob, board, 3)
    assert told(result)[0].ephemeral
    assert told(result)[0].content == f"It's {shown(world.alice)}'s turn."
    assert board_code(board) == before


async def test_someone_else_is_told_they_are_not_in_the_game(world):
    board = await start_game(world)
    result = await press(world.carol, board, 3)
    assert told(result)[0].ephemeral and "You are not in this game" in told(result)[0].content


async def test_a_double_click_plays_only_once(world):
    board = await start_game(world)
    first_id = cup_id(board, 6)
    await world.alice.click(board, custom_id=first_id)
    assert board_footer(board) == "Move 1"
    # Bob's board now; Alice clicks the same spot again: it is Bob's cup 7 and not her turn.
    second = await press(world.alice, board, 7)
    assert told(second)[0].content == f"It's {shown(world.bob)}'s turn."
    assert board_footer(board) == "Move 1"


async def test_reposting_the_board_makes_the_old_message_stale(world):
    board = await start_game(world)
    labels = cup_labels(board)
    repost = (await world.carol.slash(world.channel, "wari board")).response
    assert not repost.ephemeral and cup_labels(repost) == labels
    # The old board is closed: no buttons, and a link to the one that replaced it.
    assert cup_labels(board) == [] and board_footer(board) == "No move yet"
    assert status_line(board).startswith(
        "↪️ This board was replaced: game #1 goes on → [board](https://discord.com/channels/"
    )
    assert status_line(board).endswith(f"/{repost.id})")
    await press(world.alice, repost, 2)
    assert board_footer(repost) == "Move 1"


async def test_a_moderator_may_abort_a_stuck_game(world):
    board = await start_game(world)
    assert "wari-mod abort" not in world.carol.available_commands(world.channel)  # hidden from members
    assert "wari-mod abort" in world.mod.available_commands(world.channel)
    # A server admin may let anyone see the command (Integrations settings): it still refuses.
    (command,) = [c for c in await world.env.bot.tree.fetch_commands() if c.name == "wari-mod"]
    world.guild.set_command_permissions(command, {world.carol: True})
    refused = await world.carol.slash(world.channel, "wari-mod abort")
    assert refused.ephemeral and "Manage Messages" in refused.response.content
    assert cup_labels(board)
    done = await world.mod.slash(world.channel, "wari-mod abort")
    assert (
        done.response.content
        == f"🛑 {shown(world.mod)} aborted game #1 between {world.alice.mention} and {world.bob.mention}. No winner."
    )
    assert status_line(board) == "Game aborted by a moderator: no winner." and buttons(board) == []
    (row,) = await archived(world)
    assert (row["status"], row["result"], row["reason"]) == ("aborted", None, "aborted")
    again = await world.alice.slash(world.channel, "wari challenge", opponent=world.bob)
    assert not again.ephemeral


async def test_rules_are_ephemeral_for_the_asked_variant_or_the_game_in_the_channel(world):
    asked = await world.carol.slash(world.channel, "wari rules", variant="kalah")
    assert asked.ephemeral and asked.response.embeds[0].title == "How to play Kalah"
    assert (
        "store" in asked.response.embeds[0].description
        and "equal stores are a draw" in asked.response.embeds[0].description
    )
    assert asked.response.embeds[0].footer.text.startswith("Start a game with /wari challenge")
    await start_game(world, variant="ouril")
    here = await world.carol.slash(world.channel, "wari rules")
    assert here.response.embeds[0].title == "How to play Ouril"
    assert "Single seeds" in here.response.embeds[0].description
    assert "**prisoners**" in here.response.embeds[0].description  # the word is introduced where it is first used
    assert here.response.embeds[0].footer.text == "These are the rules of game #1, in play here: /wari board shows it"


async def test_the_rules_of_a_one_seed_kalah_game_speak_of_one_seed(world):
    await start_game(world, variant="kalah", seeds=1)
    here = await world.carol.slash(world.channel, "wari rules")
    assert "Two rows of 6 houses with 1 seed each." in here.response.embeds[0].description
    wari = await world.carol.slash(world.channel, "wari rules", variant="wari")
    assert "Two rows of 6 houses with 4 seeds each." in wari.response.embeds[0].description


async def test_a_server_may_have_its_boards_drawn_as_a_picture(world):
    admins = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True, manage_messages=True))
    admin = world.guild.add_member(world.env.create_user("admin"), roles=[admins])
    refused = await world.mod.slash(world.channel, "wari-mod settings", board="image")  # Manage Messages is not enough
    assert refused.ephemeral and "Manage Server" in refused.response.content
    chosen = await admin.slash(world.channel, "wari-mod settings", board="image")
    assert "**picture**" in chosen.response.content
    board = await start_game(world)
    (picture,) = board.attachments
    assert picture.filename == "board.png" and gallery(board) == [picture.url]  # shown in the board's container
    assert "```" not in board_words(board)  # the picture replaces the drawing; the facts stay in words
    assert "prisoners: **0**" in board_words(board) and status_line(board).startswith("**alice**, your move")
    before = picture.url
    await press(world.alice, board, 3)
    (after,) = board.attachments  # the move's picture replaced the old one
    assert after.url != before and board_footer(board) == "Move 1"
    await admin.slash(world.channel, "wari-mod settings", board="text")
    await press(world.bob, board, 9)
    assert board.attachments == [] and "```" in board_words(board)


async def test_a_game_keeps_its_position_and_one_stored_without_it_plays_on(world):
    """Each move stores the position beside the record, so that a press needs no replay; a game
    stored before positions were kept (or with one that does not match) is replayed instead."""
    board = await start_game(world)
    await press(world.alice, board, 5)
    snapshot = json.loads(await stored(world, "position"))
    assert snapshot["ply"] == 1 and snapshot["last"][:3] == ["A", 5, 4]
    await world.env.bot.store.database.write(("UPDATE games SET position = NULL WHERE id = 1", ()))
    await press(world.bob, board, 7)
    assert json.loads(await stored(world, "position"))["ply"] == 2
    await world.env.bot.store.database.write(
        ("UPDATE games SET position = ? WHERE id = 1", (json.dumps({**snapshot, "format": "x"}),))
    )
    await press(world.alice, board, 2)
    assert board_footer(board) == "Move 3" and json.loads(await stored(world, "position"))["ply"] == 3


async def test_presses_leave_no_interaction_or_game_behind(world):
    """Memory per press stays flat: once collected, nothing of a press outlives it (what does
    grow in a long run is SimCord's own log of every call and message)."""
    import gc

    board = await start_game(world)
    for _ in range(3):
        await press(world.alice, board, enabled_houses(board)[0])
        await press(world.bob, board, enabled_houses(board)[0])
    gc.collect()
    before = count_alive(discord.Interaction), count_alive(Game)  # the game kept with its row is one
    for _ in range(10):
        if not enabled_houses(board):
            break
        mover = world.alice if "alice" in status_line(board) else world.bob
        await press(mover, board, enabled_houses(board)[0])
    gc.collect()
    assert before[0] == 0 and count_alive(discord.Interaction) == 0
    assert count_alive(Game) <= before[1]  # (a bot of another test may keep games too: not more of ours)


def count_alive(kind: type) -> int:
    import gc

    return sum(isinstance(thing, kind) for thing in gc.get_objects())


async def test_a_press_is_answered_by_its_redrawn_board_in_one_call(world):
    board = await start_game(world)
    before = len(world.env.backend.http_requests)
    result = await press(world.alice, board, 5)
    calls = [(call.method, call.path.split("/")[1]) for call in world.env.backend.http_requests[before:]]
    # the answer is the board itself; then Alice's ping, now stale, is deleted (Bob's waits a minute)
    assert calls == [("POST", "interactions"), ("DELETE", "channels")]
    assert not result.deferred and board_footer(board) == "Move 1"


async def test_a_press_whose_work_is_slow_is_deferred_in_time_then_shows_the_board(world, monkeypatch):
    """Discord waits 3 s for a press's first answer: work that takes longer than DEFER_AFTER
    (1.5 s; here 0.05 s, and a database that answers after 0.1 s) defers the press meanwhile; the
    board comes when the work is done, through the deferred answer."""
    import asyncio

    from cogs.wari import games

    monkeypatch.setattr(games, "DEFER_AFTER", 0.05)
    service = world.env.bot.service
    play = service.games.play

    async def slow_play(**move):
        await asyncio.sleep(0.1)
        return await play(**move)

    monkeypatch.setattr(service.games, "play", slow_play)
    board = await start_game(world)
    before = len(world.env.backend.http_requests)
    result = await press(world.alice, board, 5)
    assert result.deferred and told(result) == []
    assert board_footer(board) == "Move 1" and enabled_houses(board) == [12, 11, 10, 9, 8, 7]
    answers = [(call.method, call.path.rsplit("/", 1)[-1]) for call in world.env.backend.http_requests[before:]][:2]
    assert answers == [("POST", "callback"), ("PATCH", "@original")]  # the deferral, then the board


async def test_the_board_lists_the_moves_before_the_last_in_notation(world):
    board = await start_game(world)
    for number in range(1, 13):
        await press(world.alice if number % 2 else world.bob, board, min(enabled_houses(board)))
        if number == 2:
            assert "**Before:** `A(1,4)`" in board_words(board).splitlines()
    (row,) = await world.env.bot.store.database.read("SELECT record FROM games")
    moves = from_record(row["record"])[0].moves
    lines = board_words(board).splitlines()
    assert f"**Last move:** `{moves[-1]}` " in "\n".join(lines)
    # The eight moves before the last, the older ones elided.
    assert f"**Before:** … `{' '.join(str(move) for move in moves[-9:-1])}`" in lines
