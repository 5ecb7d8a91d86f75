"""User stories: giving up and calling off. A surrender is asked first and done by a button;
until both sides have moved, either player may abort, unrated."""

from tests.helpers import (
    board_footer,
    board_words,
    buttons,
    cup_labels,
    pinged,
    press,
    shown,
    start_game,
    status_line,
    surrender,
)


async def games(world) -> list:
    return await world.env.bot.store.database.read("SELECT * FROM games ORDER BY id")


async def rating_changes(world) -> list:
    return await world.env.bot.store.database.read("SELECT * FROM rating_changes")


async def test_surrender_asks_first_and_only_its_button_ends_the_game(world):
    board = await start_game(world)
    await press(world.alice, board, 4)
    asked = await world.bob.slash(world.channel, "wari surrender")
    assert asked.ephemeral
    assert asked.response.content == (
        f"Give up game #1? {shown(world.alice)} wins, and this cannot be undone.\n"
        "Not everyone has moved yet: `/wari abort` calls the game off instead, unrated."
    )
    assert [b["label"] for b in buttons(asked.response)] == ["Surrender"]
    assert cup_labels(board) and (await games(world))[0]["status"] == "live"  # asking changed nothing

    await world.bob.click(asked.response, label="Surrender")
    assert asked.response.content == "🏳️ You surrendered game #1." and asked.response.components == []
    (announcement,) = [m for m in world.channel.history() if " surrendered. " in m.content]
    assert announcement.content == f"🏳️ {shown(world.bob)} surrendered. {world.alice.mention} wins game #1!"
    assert pinged(world, announcement) == {world.alice.id}  # a new message: the winner is notified
    assert [b["label"] for b in buttons(board)] == ["Rematch", "Analyse"]
    assert status_line(board) == f"🏁 {shown(world.alice)} wins: {shown(world.bob)} surrendered (score 0–0)."
    # One move was played: the surrender is no move, and the last move is still Alice's, not the ending.
    assert board_footer(board) == "Move 1"
    assert "**Last move:** `A(4,4)`" in board_words(board) and "surrendered" not in board_words(board)
    (row,) = await games(world)
    assert (row["status"], row["result"], row["reason"]) == ("finished", "A", "surrender")
    assert row["record"].rstrip().endswith("A(4,4) B(surrender)")


async def test_a_surrender_confirmed_after_the_game_ended_changes_nothing(world):
    board = await start_game(world)
    await press(world.alice, board, 4)
    await press(world.bob, board, 9)
    asked = await world.bob.slash(world.channel, "wari surrender")
    assert "abort" not in asked.response.content  # both have moved: no abort to suggest
    await surrender(world.alice, world.channel)
    late = await world.bob.click(asked.response, label="Surrender")
    assert asked.response.content == "Game #1 is already over." and asked.response.components == []
    assert late.response is None or "Something went wrong" not in late.response.content
    # A new game in the channel is not the one the old confirmation was for.
    asked = await world.bob.slash(world.channel, "wari surrender")
    assert asked.response.content.startswith("There is no game in this channel")
    await start_game(world)
    old = await world.alice.slash(world.channel, "wari surrender")
    await world.alice.slash(world.channel, "wari abort")
    fresh = await start_game(world)
    await world.alice.click(old.response, label="Surrender")
    assert old.response.content == "Game #2 is already over."
    assert cup_labels(fresh) and [row["status"] for row in await games(world)] == ["finished", "aborted", "live"]


async def test_only_players_may_surrender_and_only_in_a_game(world):
    nothing = await world.alice.slash(world.channel, "wari surrender")
    assert nothing.ephemeral and nothing.response.content.startswith("There is no game in this channel")
    await start_game(world)
    outsider = await world.carol.slash(world.channel, "wari surrender")
    assert outsider.ephemeral and outsider.response.content == "You are not playing in this channel's game."


async def test_either_player_may_abort_until_both_have_moved(world):
    board = await start_game(world)
    await press(world.alice, board, 4)  # Alice has moved, Bob not yet: still abortable
    outsider = await world.carol.slash(world.channel, "wari abort")
    assert outsider.ephemeral and outsider.response.content == "You are not playing in this channel's game."
    called_off = await world.bob.slash(world.channel, "wari abort")
    assert not called_off.ephemeral
    assert called_off.response.content == (
        f"🛑 {shown(world.bob)} called off game #1 against {world.alice.mention} before both sides had moved: "
        "no winner, and no rating changes."
    )
    (said,) = [m for m in world.channel.history() if "called off" in m.content]
    assert pinged(world, said) == {world.alice.id}  # the opponent hears of it
    assert status_line(board) == "Game aborted before both sides had moved: no winner, and no rating changes."
    assert buttons(board) == []
    (row,) = await games(world)
    assert (row["status"], row["result"], row["reason"]) == ("aborted", None, "early")
    assert await rating_changes(world) == []
    stats = await world.alice.slash(world.channel, "wari stats")
    assert "1 aborted" in str(stats.response.embeds[0].to_dict())  # a game, never a loss


async def test_once_both_have_moved_abort_is_refused_and_surrender_remains(world):
    board = await start_game(world)
    await press(world.alice, board, 4)
    await press(world.bob, board, 9)
    refused = await world.alice.slash(world.channel, "wari abort")
    assert refused.ephemeral
    assert refused.response.content == (
        "Both sides have moved, so game #1 can no longer be aborted: "
        "`/wari surrender` gives it up, `/wari draw` offers a draw."
    )
    assert cup_labels(board) and (await games(world))[0]["status"] == "live"


async def test_against_the_computer_abort_works_until_the_player_has_moved(world):
    board = (await world.alice.slash(world.channel, "wari play", level="greedy", first="opponent")).response
    assert board_footer(board) == "Move 1"  # the bot moved first; Alice has not
    called_off = await world.alice.slash(world.channel, "wari abort")
    assert called_off.response.content.startswith(f"🛑 {shown(world.alice)} called off game #1 against TestBot")
    assert (await games(world))[0]["reason"] == "early"
    board = (await world.alice.slash(world.channel, "wari play", level="greedy", first="me")).response
    await press(world.alice, board, 3)  # the bot answers at once: both have moved
    refused = await world.alice.slash(world.channel, "wari abort")
    assert refused.ephemeral and refused.response.content.startswith("Both sides have moved")
