"""User stories: a game in a thread of its own, so that its channel stays free."""

import discord

from tests.helpers import (
    archived,
    buttons,
    enabled_houses,
    pinged,
    pings,
    press,
    shown,
    start_game,
    status_line,
    stored,
    surrender,
    texts,
)


async def challenge_in_thread(world, **options):
    result = await world.alice.slash(
        world.channel, "wari challenge", opponent=world.bob, thread=True, first="me", **options
    )
    assert not result.ephemeral
    (thread,) = world.channel.threads
    return result.response, thread


async def test_a_challenge_with_thread_plays_in_a_new_thread(world):
    starter, thread = await challenge_in_thread(world)
    assert starter.content == "⚔️ alice vs bob · Wari: the challenge and the game are in the thread below."
    assert thread.name == "alice vs bob · Wari"
    (challenge,) = thread.history()
    assert pinged(world, challenge) == {world.bob.id}
    await world.bob.click(challenge, label="Accept")
    board = thread.history()[0]
    assert (
        status_line(board).startswith(f"**{shown(world.alice)}**, your move")
        and await stored(world, "channel_id") == thread.id
    )
    (ping,) = pings(world, thread)
    assert pinged(world, ping) == {world.alice.id}
    # The channel itself stays free for another game.
    other = await world.carol.slash(world.channel, "wari challenge", opponent=world.mod)
    assert not other.ephemeral


async def test_a_busy_channel_suggests_a_thread(world):
    await start_game(world)
    busy = await world.carol.slash(world.channel, "wari challenge", opponent=world.mod)
    assert busy.ephemeral and "with `thread: True`" in busy.response.content
    beside = await world.carol.slash(world.channel, "wari challenge", opponent=world.mod, thread=True)
    assert not beside.ephemeral and len(world.channel.threads) == 1


async def test_the_thread_is_archived_when_the_game_ends(world):
    _, thread = await challenge_in_thread(world)
    await world.bob.click(thread.history()[0], label="Accept")
    await surrender(world.alice, thread)
    assert archived(world, thread)


async def test_playing_the_bot_in_a_thread(world):
    result = await world.alice.slash(world.channel, "wari play", level="greedy", first="me", thread=True)
    (thread,) = world.channel.threads
    assert result.response.content.startswith("🤖 alice vs ")
    board = thread.history()[-1]
    await press(world.alice, board, 3)
    assert (await stored(world, "record")).count("(") == 2  # her move and the bot's answer, in the thread


async def test_a_rematch_in_an_archived_thread_reopens_it(world):
    _, thread = await challenge_in_thread(world)
    await world.bob.click(thread.history()[0], label="Accept")
    await surrender(world.bob, thread)
    assert archived(world, thread)
    board = thread.history()[0]  # read again: history() gives snapshots
    rematch = next(b["custom_id"] for b in buttons(board) if b["label"] == "Rematch")
    asked = await world.bob.click(board, custom_id=rematch)
    assert not asked.ephemeral and not archived(world, thread)
    assert asked.response.channel_id == thread.id


async def test_without_the_thread_permissions_the_answer_says_what_is_missing(world):
    closed = world.guild.create_text_channel(
        "no-threads", overwrites={world.me: discord.PermissionOverwrite(create_public_threads=False)}
    )
    refused = await world.alice.slash(closed, "wari challenge", opponent=world.bob, thread=True)
    assert refused.ephemeral and "**Create Public Threads**" in refused.response.content
    assert closed.threads == [] and closed.history() == []


async def test_no_thread_inside_a_thread(world):
    _, thread = await challenge_in_thread(world)
    inner = await world.carol.slash(thread, "wari play", thread=True)
    assert inner.ephemeral and "works in a text channel, not inside a thread" in inner.response.content


async def test_the_computer_ending_a_thread_game_archives_it_and_leaves_no_ping(world):
    await world.alice.slash(
        world.channel, "wari play", level="low", first="me", variant="kalah", houses=3, seeds=2, thread=True
    )
    (thread,) = world.channel.threads
    for _ in range(40):
        board = next(m for m in reversed(thread.history()) if texts(m))
        if status_line(board).startswith("🏁 "):
            break
        await press(world.alice, board, enabled_houses(board)[0])
    assert status_line(board).startswith("🏁 ") and await stored(world, "status") == "finished"
    assert pings(world, thread) == [] and archived(world, thread)
