"""A press on a board: played once, by the player to move, on the board it was drawn on."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.engine import Player
from bot.service import Refusal, StaleBoard, TimeUp

from .players import ALICE, BOB, CAROL, CHANNEL, T0, game_between

BOARD = 555


async def press(service, table, user_id: int, house: int, *, ply: int = 0, message_id: int | None = BOARD, now=T0):
    return await service.games.play(
        channel_id=CHANNEL,
        game_id=table.row.id,
        ply=ply,
        message_id=message_id,
        user_id=user_id,
        house=house,
        now=now,
    )


async def test_a_press_plays_its_move_once_and_the_same_press_again_finds_its_board_out_of_date(service):
    table = await service.games.moved_board(await game_between(service), BOARD, T0)
    moved, move = await press(service, table, ALICE, 5)
    assert (move.player, move.house, move.seeds) == (Player.A, 5, 4)
    with pytest.raises(StaleBoard, match="This board is out of date") as again:
        await press(service, table, ALICE, 5)  # a double click, or a second process's copy of the press
    assert again.value.table is not None and again.value.table.row.version == moved.row.version  # to redraw
    stored = await service.tables.live_table(CHANNEL)
    assert stored.game.ply == 1 and stored.game.board == moved.game.board
    assert stored.row.version == moved.row.version == table.row.version + 1


async def test_a_press_on_an_older_message_of_the_board_is_refused_even_at_the_right_ply(service):
    table = await service.games.moved_board(await game_between(service), BOARD, T0)
    with pytest.raises(StaleBoard, match="out of date"):
        await press(service, table, ALICE, 5, message_id=BOARD - 1)  # the board was posted anew since
    assert (await service.tables.live_table(CHANNEL)).row.version == table.row.version


async def test_a_press_out_of_turn_or_by_an_onlooker_is_refused_and_changes_nothing(service):
    table = await service.games.moved_board(await game_between(service), BOARD, T0)
    with pytest.raises(Refusal, match="It's Alice's turn"):
        await press(service, table, BOB, 8)
    with pytest.raises(Refusal, match="You are not in this game"):
        await press(service, table, CAROL, 5)
    assert (await service.tables.live_table(CHANNEL)).row.version == table.row.version


async def test_a_house_that_is_not_the_movers_is_refused_with_the_engines_reason(service):
    table = await service.games.moved_board(await game_between(service), BOARD, T0)
    with pytest.raises(Refusal, match="You can't play house 8: ") as refused:
        await press(service, table, ALICE, 8)
    assert not isinstance(refused.value, StaleBoard)  # the board is current: the move is what is wrong
    stored = await service.tables.live_table(CHANNEL)
    assert stored.game.ply == 0 and stored.row.version == table.row.version


async def test_a_press_after_the_movers_time_ran_out_ends_the_game_on_time_instead(service):
    table = await service.games.moved_board(await game_between(service, clock="1h/move"), BOARD, T0)
    assert table.row.deadline == T0 + timedelta(hours=1)
    with pytest.raises(TimeUp, match="Too late: Alice's time had run out") as late:
        await press(service, table, ALICE, 5, now=T0 + timedelta(hours=1, seconds=1))
    ended = await service.tables.game(table.row.id)
    assert (ended.row.status, ended.row.result, ended.row.reason) == ("finished", "B", "time")
    assert ended.game.ply == 1 and not ended.game.moves[-1].sows  # the time-out, not the pressed move
    assert late.value.table.row.version == ended.row.version
