"""User stories: a replay stepped, a history page turned, a record asked for, while Discord
refuses an answer. Every feature answers through the presenter, so every one takes its other
ways: the pressed message is edited by id when the press's answer is refused, a record whose
"thinking…" Discord refused comes as the answer itself. When Discord refuses every way, the
presser is told that Discord did, not that something broke on our side (and no bug is logged).
"""

from __future__ import annotations

import logging

from tests.cogs.test_records import download, shown_move, step
from tests.cogs.test_standings import play_out
from tests.helpers import buttons, press, start_game, surrender, told

REFUSED_REDRAW = "Discord did not let me change this message. Please try again in a moment."


def bugs(caplog) -> list[str]:
    """What was logged as a bug: a traceback, or an error."""
    return [record.getMessage() for record in caplog.records if record.exc_info or record.levelno >= logging.ERROR]


async def a_public_replay(world):
    """Game #1, three moves then a surrender, replayed for the channel (it opens at its end)."""
    board = await start_game(world)
    for member, house in ((world.alice, 5), (world.bob, 7), (world.alice, 2)):
        await press(member, board, house)
    await surrender(world.bob, world.channel)
    replay = (await world.carol.slash(world.channel, "wari replay", game=1)).response
    assert shown_move(replay) == 3  # three moves: a surrender is none
    return replay


async def test_a_replay_step_whose_answer_discord_refuses_is_shown_by_editing_the_message(world, caplog):
    replay = await a_public_replay(world)
    world.env.inject_error("POST", "/interactions/*/callback", status=500)  # the press's answer
    result = await step(world.mod, replay, "first")
    assert shown_move(replay) == 0
    assert told(result) == [] and bugs(caplog) == []


async def test_a_replay_step_discord_refuses_every_way_tells_the_presser_so(world, caplog):
    replay = await a_public_replay(world)
    world.env.inject_error("POST", "/interactions/*/callback", status=500)  # the press's answer
    world.env.inject_error("PATCH", f"/channels/*/messages/{replay.id}", status=500)  # the edit by id
    result = await step(world.mod, replay, "first")
    assert shown_move(replay) == 3  # as it was: nothing else to show
    assert [answer.content for answer in told(result)] == [REFUSED_REDRAW]
    assert bugs(caplog) == []


async def test_a_history_page_whose_answer_discord_refuses_is_turned_by_editing_the_message(world, caplog):
    for _ in range(11):
        await play_out(world, world.alice, world.bob)
    page = (await world.bob.slash(world.channel, "wari history", member=world.alice, public=True)).response
    world.env.inject_error("POST", "/interactions/*/callback", status=500)  # the press's answer
    result = await world.bob.click(page, custom_id=buttons(page)[1]["custom_id"])
    (last,) = page.embeds[0].description.splitlines()[1:]
    assert last.startswith("**#1** ")
    assert told(result) == [] and bugs(caplog) == []


async def test_a_record_whose_thinking_discord_refuses_still_comes_as_the_answer(world, caplog):
    board = await start_game(world)
    await press(world.alice, board, 5)
    world.env.inject_error("POST", "/interactions/*/callback", status=500)  # "thinking…"
    result, text = await download(world.alice, world.channel, 1)
    assert result.ephemeral and text.startswith('[Format "wari-record/1"]\n')
    assert result.response.content.startswith("📄 The record of game #1 (wari)")
    assert bugs(caplog) == []
