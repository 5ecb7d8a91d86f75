"""User stories from the last walk through the bot (issue 35): one notification for an accepted
takeback, a surrender that is no move in the record and the replay, variant names written as
boards write them, and a busy channel's refusal that leads to the game it is busy with."""

from tests.helpers import board_footer, pinged, press, shown, start_game, surrender


def board_url_of(world, board) -> str:
    """The address of a board message, as Discord links it."""
    return f"https://discord.com/channels/{world.guild.id}/{board.channel_id}/{board.id}"


def notifying(world, before: set[int], member) -> list:
    """The channel's new messages since ``before`` that notify ``member``."""
    return [m for m in world.channel.history() if m.id not in before and member.id in pinged(world, m)]


async def test_an_accepted_takeback_notifies_the_asker_once(world):
    board = (
        await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, first="me", rated=False)
    ).response
    await world.bob.click(board, label="Accept")
    await press(world.alice, board, 3)
    request = (await world.alice.slash(world.channel, "wari takeback")).response
    before = {m.id for m in world.channel.history()}
    await world.bob.click(request, label="Accept")
    assert request.content == f"✅ {shown(world.bob)} agreed: `A(3,4)` taken back."
    (told,) = notifying(world, before, world.alice)  # one message, not a "he agreed" and a turn ping
    assert "your move in game #1" in told.content and board_url_of(world, board) in told.content


async def test_a_surrender_is_no_move_in_the_record_or_the_replay(world):
    board = await start_game(world)
    for member, house in [(world.alice, 5), (world.bob, 7), (world.alice, 2)]:
        await press(member, board, house)
    await surrender(world.bob, world.channel)
    assert board_footer(board) == "Move 3"
    record = (await world.carol.slash(world.channel, "wari record", game=1)).response
    assert ", 3 moves, " in record.content
    replay = (await world.carol.slash(world.channel, "wari replay", game=1)).response
    assert replay.embeds[0].footer.text.startswith("Move 3 of 3")
    description = replay.embeds[0].description
    assert "**Move 3:** `A(2,4)`" in description and "🏁" in description and "surrender" in description


async def test_thread_titles_and_history_name_the_variant_as_its_board_does(world):
    started = await world.alice.slash(
        world.channel, "wari challenge", opponent=world.bob, variant="kalah", houses=10, seeds=10, thread=True
    )
    (thread,) = world.channel.threads
    assert thread.name == "alice vs bob · Kalah 10x10"
    assert "· Kalah 10x10:" in started.response.content
    (challenge,) = thread.history()
    await world.bob.click(challenge, label="Accept")
    assert "Kalah 10x10" in challenge.embeds[0].title  # how the board names it
    await surrender(world.alice, thread)
    history = (await world.alice.slash(world.channel, "wari history")).response.embeds[0].description
    assert "· Kalah 10x10 ·" in history and "kalah/10x10" not in history


async def test_the_busy_channel_refusal_links_the_game_in_progress(world):
    board = await start_game(world)
    busy = await world.carol.slash(world.channel, "wari challenge", opponent=world.mod)
    assert busy.ephemeral
    assert busy.response.content.startswith("This channel already has a game in progress")
    assert f"→ [board]({board_url_of(world, board)})" in busy.response.content
