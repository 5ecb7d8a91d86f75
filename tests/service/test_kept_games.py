"""The games this process keeps between presses (:mod:`bot.service.live`): a press plays on a
game of its own, never on the one kept, nor on the one the previous press drew its board from."""

from __future__ import annotations

import pytest

from bot.service import StaleBoard
from bot.storage import StorageError

from .players import ALICE, BOB, T0, game_between
from .test_moves import BOARD, press

#: A rule of the database that fails every change of a game with an error of the database, not a
#: refusal (its table does not exist), as a failing disk would.
FAIL_MOVES = "CREATE TRIGGER fail_moves BEFORE UPDATE ON games BEGIN INSERT INTO no_such_table VALUES (1); END"


async def test_the_next_press_leaves_the_game_the_previous_press_drew_its_board_from_as_it_was(service):
    table = await service.games.moved_board(await game_between(service), BOARD, T0)
    first, _ = await press(service, table, ALICE, 5)
    drawn = (first.game.ply, first.game.state, first.game.move_texts())
    second, _ = await press(service, first, BOB, 8, ply=1)  # while the first board may still be drawn
    assert (first.game.ply, first.game.state, first.game.move_texts()) == drawn
    third, _ = await press(service, second, ALICE, 1, ply=2)
    assert second.game.move_texts() == ["A(5,4)", "B(8,5)"]
    assert third.game.move_texts() == ["A(5,4)", "B(8,5)", "A(1,5)"]
    stored = await service.tables.game(table.row.id)
    assert stored.game.state == third.game.state and stored.game.move_texts() == third.game.move_texts()


async def test_a_move_whose_save_failed_is_not_played_and_a_press_on_the_board_it_would_have_made_is_out_of_date(
    service, store
):
    table = await service.games.moved_board(await game_between(service), BOARD, T0)
    moved, _ = await press(service, table, ALICE, 5)
    await store.database.write((FAIL_MOVES, ()))
    with pytest.raises(StorageError):
        await press(service, moved, BOB, 8, ply=1)
    await store.database.write(("DROP TRIGGER fail_moves", ()))
    with pytest.raises(StaleBoard, match="This board is out of date"):  # Alice, as if Bob's move stood
        await press(service, moved, ALICE, 1, ply=2)
    stored = await service.tables.game(table.row.id)
    assert stored.game.move_texts() == ["A(5,4)"]
    again, move = await press(service, moved, BOB, 8, ply=1)  # Bob's press again: it plays now, once
    assert str(move) == "B(8,5)" and again.game.move_texts() == ["A(5,4)", "B(8,5)"]
    assert (await service.tables.game(table.row.id)).game.move_texts() == ["A(5,4)", "B(8,5)"]
