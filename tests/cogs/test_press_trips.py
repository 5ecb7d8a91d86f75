"""User stories: a press costs one trip to the database before its board answers, and little after.

The trips are counted where the drivers send them (:mod:`benchmarks.trips`: every statement of
aiosqlite's or asyncpg's connections, a transaction's ``BEGIN`` and ``COMMIT`` included), on both
back ends, through SimCord's real presses; "before the answer" is what was sent before discord.py
sent the press's answer (the redrawn board). A change that adds a trip to a press fails here.
"""

import pytest

from benchmarks.press_timing import Press, timed
from tests.helpers import board_footer, board_words, pinged, pings, press, start_game, status_line

# Minutes pass in some of these stories: SimCord settles the bot at each 30-second sweep on the way.
pytestmark = pytest.mark.simcord(settle_timeout=60)

#: Long enough for a correspondence game's delayed turn ping: its minute, and the sweep that posts it.
PING_WAIT = 95


async def timed_press(member, board, house: int) -> Press:
    result, measured = await timed(press(member, board, house))
    assert result.acknowledged and not result.ephemeral and not result.followups
    return measured


async def test_a_press_between_two_players_at_the_board_makes_one_trip_in_all(world):
    board = await start_game(world)  # a day a move: correspondence, Alice first
    await world.env.advance_time(5)
    presses = []
    for member, house in ((world.alice, 5), (world.bob, 7), (world.alice, 2), (world.bob, 8)):
        presses.append(await timed_press(member, board, house))
        await world.env.advance_time(5)  # they answer each other at once: no ping falls due
    assert [(p.trips_answered, p.trips) for p in presses] == [(1, 1)] * 4
    assert pings(world) == []


async def test_the_first_press_of_a_game_just_accepted_makes_one_trip_too(world):
    board = await start_game(world, first="opponent")  # Bob accepts and moves first: nobody is pinged
    assert pings(world) == []
    measured = await timed_press(world.bob, board, 3)  # he plays the first side's houses, 1 to 6
    assert (measured.trips_answered, measured.trips) == (1, 1)


async def test_a_press_that_calls_the_next_player_makes_one_trip_before_its_answer_and_one_for_the_ping(world):
    board = await start_game(world, clock="5+3")  # a real-time clock: a player away is called at once
    await timed_press(world.alice, board, 5)
    await world.env.advance_time(150)  # Bob thought for long: he is no longer taken to be at the board
    measured = await timed_press(world.bob, board, 7)
    (ping,) = pings(world)
    assert pinged(world, ping) == {world.alice.id}
    assert (measured.trips_answered, measured.trips) == (1, 2)


async def test_a_press_that_calls_the_next_player_in_place_of_its_own_ping_makes_two_trips(world):
    board = await start_game(world, clock="5+3")
    (called,) = pings(world)  # Alice is called to the game Bob accepted
    await world.env.advance_time(150)  # she comes back late: Bob is no longer taken to be at the board
    measured = await timed_press(world.alice, board, 5)
    (ping,) = pings(world)  # hers is taken back, his posted
    assert ping.id != called.id and pinged(world, ping) == {world.bob.id}
    assert (measured.trips_answered, measured.trips) == (1, 2)


async def test_a_press_that_takes_back_the_players_own_ping_makes_one_trip(world):
    board = await start_game(world)
    await timed_press(world.alice, board, 5)
    await world.env.advance_time(PING_WAIT)  # Bob is pinged a minute later
    (ping,) = pings(world)
    assert pinged(world, ping) == {world.bob.id}
    measured = await timed_press(world.bob, board, 7)  # his move takes his ping back
    assert pings(world) == []
    assert (measured.trips_answered, measured.trips) == (1, 1)


def board_edits(world, board, since: int) -> int:
    """How many times the bot edited ``board`` by id since ``since`` requests (a redraw)."""
    return sum(
        1
        for call in world.env.backend.http_requests[since:]
        if call.method == "PATCH" and call.path.endswith(f"/messages/{board.id}")
    )


async def test_a_board_drawn_just_before_a_crash_is_redrawn_at_start_up_as_it_was(world):
    """Which version a board shows is noted after the press, with the game's next change or by
    the sweep: a crash before then leaves the board unmarked, and the start-up redraws it, to the
    same position (a redraw is idempotent), then notes it."""
    board = await start_game(world)
    await press(world.alice, board, 5)
    shown_before = (status_line(board), board_words(board))
    assert [row.id for row in await world.env.bot.store.games.boards_behind()] == [1]  # not noted yet
    since = len(world.env.backend.http_requests)
    await world.restart()  # the process dies: what it kept in memory is lost
    assert board_edits(world, board, since) == 1
    assert (status_line(board), board_words(board)) == shown_before
    assert not await world.env.bot.store.games.boards_behind()  # noted once redrawn
    await press(world.bob, board, 7)  # and play goes on
    assert board_footer(board) == "Move 2"


async def test_the_sweep_notes_the_boards_drawn_so_a_restart_redraws_none(world):
    board = await start_game(world)
    await press(world.alice, board, 5)
    await world.env.advance_time(30)  # the sweep writes what the presses kept in memory
    assert not await world.env.bot.store.games.boards_behind()
    since = len(world.env.backend.http_requests)
    await world.restart()
    assert board_edits(world, board, since) == 0
    await press(world.bob, board, 7)
    assert board_footer(board) == "Move 2"
