"""A try at a puzzle: only moves the position allows are judged; the solution solves it, any other
legal move fails it; a press from an older board or another member changes nothing."""

from __future__ import annotations

import random

import pytest

from bot.service import Closed, Refusal
from bot.service.puzzles import PuzzleService

from .players import ALICE, BOB, GUILD, T0


@pytest.fixture
def puzzles(store) -> PuzzleService:
    return PuzzleService(store.puzzles, rng=random.Random(3))


async def test_a_move_the_puzzles_position_does_not_allow_is_refused_and_the_try_goes_on(puzzles):
    attempt = await puzzles.start(ALICE, GUILD, "wari", T0)
    position = attempt.game()
    illegal = [house for house in range(1, position.rules.pits + 1) if not position.is_legal(house)]
    assert illegal  # the opponent's row at least
    for house in illegal:
        with pytest.raises(Refusal, match=f"You can't play house {house}: "):
            await puzzles.move(attempt.row.id, ALICE, 0, house, T0)
    now = await puzzles.attempt(attempt.row.id)
    assert now.row.open and now.step == 0
    assert (await puzzles.standing(ALICE)).failed == 0


async def test_the_solutions_moves_solve_the_puzzle_rated_and_counted_in_the_streak(puzzles):
    attempt = await puzzles.start(ALICE, GUILD, "wari", T0)
    moves = attempt.puzzle.solver_moves()
    for step, house in enumerate(moves):
        played = await puzzles.move(attempt.row.id, ALICE, step, house, T0)
        assert (played.ended is None) == (step < len(moves) - 1)  # it ends with the last one
    ended = played.ended
    assert ended is not None and ended.rated and played.attempt.row.status == "solved"
    assert (ended.after.solved, ended.after.streak) == (1, 1)
    assert ended.after.rating > ended.before.rating  # a win against the puzzle


async def test_any_other_legal_move_fails_the_try_and_ends_the_streak(puzzles):
    solved = await puzzles.start(ALICE, GUILD, "wari", T0)
    for step, house in enumerate(solved.puzzle.solver_moves()):
        await puzzles.move(solved.row.id, ALICE, step, house, T0)
    attempt = await puzzles.start(ALICE, GUILD, "wari", T0)
    assert attempt.puzzle.id != solved.puzzle.id  # one never tried, while any is left
    wrong = next(house for house in attempt.game().legal_moves if house != attempt.puzzle.solver_moves()[0])
    played = await puzzles.move(attempt.row.id, ALICE, 0, wrong, T0)
    assert played.ended is not None and played.attempt.row.status == "failed" and played.attempt.wrong == wrong
    assert (played.ended.before.streak, played.ended.after.streak, played.ended.after.failed) == (1, 0, 1)
    with pytest.raises(Closed, match="This try is over"):
        await puzzles.move(attempt.row.id, ALICE, 1, attempt.puzzle.solver_moves()[0], T0)


async def test_a_press_from_an_older_board_or_another_member_changes_nothing(puzzles):
    attempt = await puzzles.start(ALICE, GUILD, "wari", T0)
    first = attempt.puzzle.solver_moves()[0]
    with pytest.raises(Refusal, match="This puzzle is someone else's"):
        await puzzles.move(attempt.row.id, BOB, 0, first, T0)
    with pytest.raises(Refusal, match="This puzzle has moved on since this board was drawn"):
        await puzzles.move(attempt.row.id, ALICE, 1, first, T0)
    assert (await puzzles.attempt(attempt.row.id)).played == ()
