"""User stories: a finished game's board offers a rematch, sides swapped, also after a restart."""

from tests.helpers import (
    board_title,
    buttons,
    enabled_houses,
    pinged,
    press,
    shown,
    start_game,
    status_line,
    stored,
    surrender,
)


def rematch_button(board) -> str:
    (button,) = [b for b in buttons(board) if b["label"] == "Rematch"]
    return button["custom_id"]


async def test_a_rematch_challenges_the_other_player_with_sides_swapped(world):
    board = await start_game(world, variant="oware", clock="1h/move")  # Alice is A
    await surrender(world.alice, world.channel)
    outsider = await world.carol.click(board, custom_id=rematch_button(board))
    assert outsider.ephemeral and "Only the players of this game" in outsider.response.content
    asked = await world.alice.click(board, custom_id=rematch_button(board))
    challenge = asked.response
    assert not asked.ephemeral and challenge.id != board.id
    assert challenge.content == f"{world.bob.mention}, you have been challenged!"
    assert pinged(world, challenge.message) == {world.bob.id}
    text = challenge.embeds[0].description
    assert "a game of **oware** (a rematch of game #1)" in text and "the challenged player moves first" in text
    assert "Clock: **1h/move**" in text
    await world.bob.click(challenge, label="Accept")
    assert status_line(challenge).startswith(f"**{shown(world.bob)}**, your move (oware, houses 1–6)")  # Bob is A now
    assert (await stored(world, "player_a", 2), await stored(world, "clock", 2)) == (world.bob.id, "1h/move")
    assert [b["label"] for b in buttons(board)] == ["Rematch"]  # the old board keeps its final position


async def test_a_second_rematch_press_meets_the_open_challenge(world):
    board = await start_game(world)
    await surrender(world.bob, world.channel)
    await world.bob.click(board, custom_id=rematch_button(board))
    again = await world.alice.click(board, custom_id=rematch_button(board))
    assert again.ephemeral and "already has an open challenge" in again.response.content


async def test_a_rematch_against_the_computer_starts_at_once_and_survives_a_restart(world):
    board = (
        await world.alice.slash(
            world.channel, "wari play", level="greedy", first="me", variant="kalah", houses=4, seeds=3
        )
    ).response
    await surrender(world.alice, world.channel)
    await world.restart()
    new = (await world.alice.click(board, custom_id=rematch_button(board))).response
    assert new.id != board.id
    assert board_title(new) == "Kalah 4x3 · game #2"
    # Alice was A: now the bot is A and has already moved; it is her turn as B.
    assert status_line(new).startswith(f"**{shown(world.alice)}**, your move (kalah 4x3, houses 5–8)")
    assert (await stored(world, "level_a", 2), await stored(world, "player_b", 2)) == ("greedy", world.alice.id)
    await press(world.alice, new, enabled_houses(new)[0])
    assert " B(" in await stored(world, "record", 2)  # the new game plays on


async def test_an_aborted_game_offers_no_rematch(world):
    board = await start_game(world)
    await world.mod.slash(world.channel, "wari-mod abort")
    assert buttons(board) == []
