"""User stories: the player to move is told by a real ping, clocks run, and a game never stalls."""

import re
from datetime import datetime, timedelta

import pytest

from tests.helpers import (
    board_footer,
    board_words,
    buttons,
    cup_labels,
    enabled_houses,
    pinged,
    pings,
    press,
    shown,
    start_game,
    status_line,
    stored,
    surrender,
    told,
)

# Hours pass in these stories: SimCord settles the bot at each 30-second sweep on the way.
pytestmark = pytest.mark.simcord(settle_timeout=60)

#: Long enough for a correspondence game's delayed turn ping: its minute, and the sweep that posts it.
PING_WAIT = 95


def deadline_on(board) -> datetime:
    """The deadline the board shows as a Discord timestamp."""
    stamp = re.search(r"<t:(\d+):[RT]>", board_words(board))  # relative, or to the second
    assert stamp, board_words(board)
    return datetime.fromtimestamp(int(stamp[1])).astimezone()


async def test_accepting_pings_the_first_player_in_a_new_message(world):
    board = await start_game(world)  # Alice moves first; Bob pressed Accept
    (ping,) = pings(world)
    assert ping.id != board.id and ping.edited_at is None
    assert ping.content == f"{world.alice.mention}, your move in game #1 → [board]({board.message.jump_url})"
    assert pinged(world, ping) == {world.alice.id}
    assert not pinged(world, board.message)  # the board itself pings nobody


async def test_no_ping_for_the_player_who_just_pressed_accept(world):
    await start_game(world, first="opponent")  # Bob accepts and moves first: he is looking at it
    assert pings(world) == []


async def test_every_move_pings_the_next_player_a_minute_later_and_removes_the_previous_ping(world):
    board = await start_game(world)  # a day a move: correspondence
    for member, house, next_player in (
        (world.alice, 5, world.bob),
        (world.bob, 7, world.alice),
        (world.alice, 2, world.bob),
    ):
        await press(member, board, house)
        assert pings(world) == []  # the turn that passed is taken back at once, the next one waits
        await world.env.advance_time(PING_WAIT)
        (ping,) = pings(world)  # one ping per game in the channel, always the newest
        assert ping.content.startswith(f"{next_player.mention}, your move in game #1")
        assert pinged(world, ping) == {next_player.id}


async def test_a_correspondence_ping_is_dropped_when_the_player_moves_first(world):
    board = await start_game(world)
    await press(world.alice, board, 5)
    await world.env.advance_time(20)
    before = len(world.env.backend.http_requests)
    await press(world.bob, board, 7)  # Bob was at the board: he answers within the minute
    await world.env.advance_time(20)
    await press(world.alice, board, 2)
    assert len(world.env.backend.http_requests) - before == 2  # one call a move: its answer
    await world.env.advance_time(PING_WAIT)  # now Alice waits for Bob, who has left
    (ping,) = pings(world)
    assert pinged(world, ping) == {world.bob.id}
    assert not [m for m in world.channel.history() if m.content.startswith(world.alice.mention)]  # never pinged


async def test_a_one_hour_clock_waits_a_minute_too_but_a_game_that_starts_calls_at_once(world):
    board = await start_game(world, clock="1h/move")
    (start,) = pings(world)  # Alice did not press Accept: she is called at once
    await press(world.alice, board, 5)
    assert pings(world) == []
    await world.env.advance_time(PING_WAIT)
    assert [pinged(world, p) for p in pings(world)] == [{world.bob.id}]


async def test_a_finished_game_leaves_no_ping(world):
    await start_game(world)
    await surrender(world.alice, world.channel)
    assert pings(world) == []


async def test_playing_the_bot_pings_the_person_only_when_away(world, monkeypatch):
    from bot.service import turns

    board = (await world.alice.slash(world.channel, "wari play", level="greedy", first="me")).response
    assert pings(world) == []  # she started it and is looking at it
    await press(world.alice, board, 3)  # the bot answers at once: she is at the board
    assert pings(world) == []
    monkeypatch.setattr(turns, "PRESENT", timedelta(0))  # as if the bot had thought longer than she waited
    await press(world.alice, board, min(enabled_houses(board)))
    (ping,) = pings(world)
    assert pinged(world, ping) == {world.alice.id}


async def test_players_on_a_real_time_clock_are_at_the_board_and_get_no_turn_pings(world):
    board = await start_game(world, clock="5+3")
    (start,) = pings(world)  # Alice is called to the game Bob accepted
    await press(world.alice, board, min(enabled_houses(board)))
    assert pings(world) == []  # her ping goes once she moved, and Bob pressed Accept just now
    before = len(world.env.backend.http_requests)
    for number in range(6):
        await press(world.bob if number % 2 == 0 else world.alice, board, min(enabled_houses(board)))
    assert pings(world) == []
    assert len(world.env.backend.http_requests) - before == 6  # one call a move: its answer


async def test_exhibitions_ping_nobody(world):
    board = (await world.alice.slash(world.channel, "wari exhibition", level_a="low", level_b="greedy")).response
    for _ in range(3):
        await world.carol.click(board, label="Next move")
    assert pings(world) == []
    assert await stored(world, "clock") is None


async def test_a_player_can_turn_their_pings_off_and_on(world):
    answer = await world.alice.slash(world.channel, "wari settings", pings="off")
    assert answer.ephemeral and "Turn pings are **off**" in answer.response.content
    board = await start_game(world)
    assert pings(world) == []  # Alice is to move, but wants no ping
    await press(world.alice, board, 5)
    await world.env.advance_time(PING_WAIT)
    assert [pinged(world, p) for p in pings(world)] == [{world.bob.id}]  # Bob still gets his
    shown = await world.alice.slash(world.channel, "wari settings")
    assert "**off**" in shown.response.content
    await world.alice.slash(world.channel, "wari settings", pings="on")
    await press(world.bob, board, 7)
    await world.env.advance_time(PING_WAIT)
    assert [pinged(world, p) for p in pings(world)] == [{world.alice.id}]


async def test_the_board_shows_the_deadline_of_the_player_to_move(world):
    board = await start_game(world, clock="1h/move")
    assert "⏱ **1h/move** (1 hour a move)" in board_words(board)
    assert deadline_on(board) == world.env.now() + timedelta(hours=1)
    await world.env.advance_time(600)
    await press(world.alice, board, 5)
    assert deadline_on(board) == world.env.now() + timedelta(hours=1)  # Bob's own hour


async def test_the_default_clock_is_a_day_a_move(world):
    board = await start_game(world)
    assert "**1d/move** (1 day a move)" in board_words(board)
    assert deadline_on(board) == world.env.now() + timedelta(days=1)


async def test_one_reminder_when_a_quarter_of_the_time_is_left(world):
    await start_game(world, clock="1h/move")
    await world.env.advance_time(44 * 60)
    assert [p.content.startswith(f"{world.alice.mention}, your move") for p in pings(world)] == [True]
    await world.env.advance_time(2 * 60)
    (reminder,) = pings(world)  # the reminder replaced the turn ping
    assert reminder.content.startswith(f"⏰ {world.alice.mention}, about 15 min left for your move in game #1")
    assert pinged(world, reminder) == {world.alice.id}
    await world.env.advance_time(10 * 60)
    assert [p.id for p in pings(world)] == [reminder.id]  # one reminder per move


async def test_the_player_who_lets_the_deadline_pass_loses_on_time(world):
    board = await start_game(world, clock="1h/move")
    await press(world.alice, board, 5)
    await world.env.advance_time(60 * 60 + 30)  # Bob's hour is up; the sweep comes within a minute
    assert status_line(board) == f"🏁 {shown(world.alice)} wins on time: {shown(world.bob)} ran out (score 0–0)."
    assert cup_labels(board) == [] and [b["label"] for b in buttons(board)] == ["Rematch", "Analyse"]
    announcement = world.channel.last_message
    assert announcement.content == f"⏰ {world.bob.mention} ran out of time. {world.alice.mention} wins game #1!"
    assert pings(world) == []
    assert (await stored(world, "status"), await stored(world, "result"), await stored(world, "reason")) == (
        "finished",
        "A",
        "time",
    )
    assert (await stored(world, "record")).rstrip().endswith("A(5,4) B(time)")
    assert "📈 **Ratings** (wari): " in board_words(board)  # a loss on time is rated


async def test_a_press_after_the_deadline_ends_the_game_on_time_not_with_a_move(world):
    board = await start_game(world, clock="1h/move")
    world.env.bot.get_cog("Wari").sweep.cancel()  # as if the sweep had not come yet
    await world.env.advance_time(60 * 60 + 1)
    late = await press(world.alice, board, 5)
    assert told(late)[0].ephemeral
    assert told(late)[0].content == f"Too late: {shown(world.alice)}'s time had run out, so the game is over."
    assert (
        world.channel.last_message.content
        == f"⏰ {world.alice.mention} ran out of time. {world.bob.mention} wins game #1!"
    )
    assert status_line(board) == f"🏁 {shown(world.bob)} wins on time: {shown(world.alice)} ran out (score 0–0)."
    assert (await stored(world, "record")).rstrip().endswith("A(time)")


async def test_per_player_clocks_bank_the_time_left_plus_the_increment(world):
    board = await start_game(world, clock="5+3")
    text = board_words(board)
    assert "⏱ **5+3** (5 min + 3 s a move)" in text and f"{shown(world.bob)}: 5:00" in text
    assert deadline_on(board) == world.env.now() + timedelta(minutes=5)
    # The mover's time reads as the other's does, in minutes and seconds, with the second it runs out.
    out = int(deadline_on(board).timestamp())
    assert f"{shown(world.alice)}: 5:00, runs out at <t:{out}:T>" in text and ":R>" not in text
    await world.env.advance_time(60)
    await press(world.alice, board, 5)
    assert f"{shown(world.alice)}: 4:03" in board_words(board)
    assert deadline_on(board) == world.env.now() + timedelta(minutes=5)
    await world.env.advance_time(5 * 60 + 20)  # Bob's five minutes run out
    assert status_line(board) == f"🏁 {shown(world.alice)} wins on time: {shown(world.bob)} ran out (score 0–0)."


async def test_restart_just_before_a_deadline_times_out_once(world):
    board = await start_game(world, clock="1h/move")
    await world.env.advance_time(59 * 60)
    await world.restart()
    await world.env.advance_time(2 * 60)
    assert " wins on time: " in status_line(board)
    await world.restart()
    await world.env.advance_time(60)
    announcements = [m for m in world.channel.history() if "ran out of time" in m.content]
    assert len(announcements) == 1
    assert (await stored(world, "record")).rstrip().endswith("A(time)")


async def test_restart_between_a_move_and_its_ping_still_pings(world):
    board = await start_game(world)
    service = world.env.bot.service
    table = await service.tables.table(world.channel.id)
    # Alice's move is stored, but the process dies before the ping could be posted.
    await service.games.play(
        channel_id=world.channel.id,
        game_id=1,
        ply=0,
        message_id=table.row.message_id,
        user_id=world.alice.id,
        house=5,
        now=world.env.now(),
    )
    await world.restart()
    await world.env.advance_time(PING_WAIT)
    (ping,) = pings(world)
    assert pinged(world, ping) == {world.bob.id}
    # The board the process left behind was redrawn at start-up: the ping links to the current position.
    assert board_footer(board) == "Move 1" and status_line(board).startswith(f"**{shown(world.bob)}**, your move")


async def test_clocks_are_paused_while_the_bot_is_down(world):
    board = await start_game(world, clock="1h/move")
    cog = world.env.bot.get_cog("Wari")
    cog.sweep.cancel(), cog.heartbeat.cancel()  # the bot goes silent (hung, or its host stopped)…
    await world.env.advance_time(2 * 60 * 60)  # …for two hours, past Alice's deadline
    await world.restart()
    await world.env.advance_time(30)
    assert status_line(board).startswith(f"**{shown(world.alice)}**, your move")  # not lost on time
    assert "paused 2 h while the bot was offline" in board_words(board)
    assert deadline_on(board) > world.env.now() + timedelta(minutes=59)
    await world.env.advance_time(60 * 60)  # but the time is not forgiven forever
    assert " wins on time: " in status_line(board)


async def test_clocks_wait_while_discord_is_unreachable(world):
    board = await start_game(world, clock="1h/move")
    world.env.bot.dispatch("disconnect")  # as discord.py does when the gateway connection drops
    await world.env.advance_time(90 * 60)
    assert status_line(board).startswith(f"**{shown(world.alice)}**, your move")  # nobody could press: no time-out
    await world.env.bot.get_cog("Wari").on_resumed()  # the gateway is back: what discord.py calls, awaited
    await world.env.advance_time(30)  # a sweep comes: the outage was credited first, so no time-out
    assert "paused 1 h 30 min while the bot was offline" in board_words(board)
    assert deadline_on(board) > world.env.now() + timedelta(minutes=29)


async def test_no_sweep_ends_a_game_on_time_while_the_outage_is_being_credited(world, monkeypatch):
    """Back online, the bot first moves the deadlines on by the outage, and only then lets the
    sweeps run: a sweep in between would end on time a game nobody could play."""
    import asyncio

    board = await start_game(world, clock="1h/move")
    world.env.bot.dispatch("disconnect")
    await world.env.advance_time(90 * 60)
    service = world.env.bot.service
    credit, crediting = service.games.credit_downtime, asyncio.Event()

    async def slow_credit(now):
        await crediting.wait()  # the database is slow to answer
        return await credit(now)

    monkeypatch.setattr(service.games, "credit_downtime", slow_credit)
    back = asyncio.ensure_future(world.env.bot.get_cog("Wari").on_resumed())
    await world.env.advance_time(30)  # sweeps come meanwhile
    assert status_line(board).startswith(f"**{shown(world.alice)}**, your move")  # not ended on time
    crediting.set()
    await back
    assert "paused 1 h 30 min while the bot was offline" in board_words(board)


async def test_a_draw_accepted_after_the_deadline_is_a_loss_on_time(world):
    board = await start_game(world, clock="1h/move")
    offer = (await world.bob.slash(world.channel, "wari draw")).response
    world.env.bot.get_cog("Wari").sweep.cancel()  # the sweep has not come yet
    await world.env.advance_time(60 * 60 + 10)
    late = await world.alice.click(offer, label="Accept")
    assert late.ephemeral and "time had run out" in late.response.content
    assert status_line(board) == f"🏁 {shown(world.bob)} wins on time: {shown(world.alice)} ran out (score 0–0)."
    assert (await stored(world, "result"), await stored(world, "reason")) == ("B", "time")


async def test_a_finished_per_player_clock_shows_the_time_used(world):
    board = await start_game(world, clock="5+3")
    await world.env.advance_time(100)
    await surrender(world.alice, world.channel)
    assert f"{shown(world.alice)}: 3:20" in board_words(board)  # charged, without the increment
