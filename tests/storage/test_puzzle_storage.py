"""Puzzle storage on both back ends: a try moves on once when two presses race, ends once with
its rating change, and a server's daily puzzle is claimed for posting once a day."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import Store
from bot.storage.database import ShardScope
from bot.storage.puzzles import PuzzleStanding
from tests.storage.databases import SHARD_0, SHARD_1

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)
DAY = "2026-01-01"


@pytest.fixture
async def store(database):
    store = await Store.open(database)
    yield store
    await store.close()


def plus_one(standing: PuzzleStanding) -> PuzzleStanding:
    return replace(standing, rating=standing.rating + 1, solved=standing.solved + 1, streak=standing.streak + 1)


async def test_two_presses_at_once_play_one_move(store):
    attempt = await store.puzzles.start_attempt(user_id=7, guild_id=1, puzzle_id="wari-0002", daily=None, now=T0)
    first, second = await asyncio.gather(
        store.puzzles.record_move(attempt, (7,)), store.puzzles.record_move(attempt, (10,))
    )
    assert [row is None for row in (first, second)].count(True) == 1
    assert (await store.puzzles.attempt(attempt.id)).played in ((7,), (10,))


async def test_a_try_ends_once_and_changes_the_standing_once(store):
    attempt = await store.puzzles.start_attempt(user_id=7, guild_id=1, puzzle_id="wari-0003", daily=None, now=T0)
    ends = await asyncio.gather(
        *(
            store.puzzles.finish_attempt(attempt, (6,), solved=True, now=T0, rerate=plus_one, rated=True)
            for _ in range(3)
        )
    )
    (ended,) = [end for end in ends if end is not None]
    row, before, after = ended
    assert row.status == "solved" and row.finished_at == T0 and (row.rating_before, row.rating_after) == (1500, 1501)
    assert before == PuzzleStanding(7) and after.rating == 1501
    stored = await store.puzzles.puzzle_standing(7)
    assert stored is not None and (stored.rating, stored.solved, stored.streak) == (1501, 1, 1)
    assert await store.puzzles.open_attempt(7) is None


async def test_a_daily_try_is_found_by_its_day_and_not_as_a_try_of_ones_own(store):
    daily = await store.puzzles.start_attempt(user_id=7, guild_id=1, puzzle_id="wari-0004", daily=DAY, now=T0)
    own = await store.puzzles.start_attempt(user_id=7, guild_id=1, puzzle_id="wari-0005", daily=None, now=T0)
    assert (await store.puzzles.open_attempt(7)).id == own.id
    assert (await store.puzzles.daily_attempt(1, DAY, 7)).id == daily.id
    assert await store.puzzles.daily_attempt(1, "2026-01-02", 7) is None
    assert await store.puzzles.tried_puzzles(7) == {"wari-0004", "wari-0005"}
    ended = await store.puzzles.finish_attempt(daily, (1,), solved=True, now=T0, rerate=plus_one, rated=False)
    assert ended is not None and (ended[0].rating_before, ended[0].rating_after) == (None, None)


async def test_the_daily_results_list_the_solvers_in_the_order_they_solved(store):
    for user, solved, minutes in ((8, True, 5), (9, False, 1), (7, True, 3), (6, True, 0)):
        name = f"player {user}"
        row = await store.puzzles.start_attempt(
            user_id=user, guild_id=1, puzzle_id="wari-0006", daily=DAY, now=T0, name=name
        )
        if user != 6:  # 6 is still on it
            moment = T0 + timedelta(minutes=minutes)
            await store.puzzles.finish_attempt(row, (), solved=solved, now=moment, rerate=plus_one, rated=False)
    assert await store.puzzles.daily_results(1, DAY) == ([(7, "player 7"), (8, "player 8")], 3)
    assert await store.puzzles.daily_results(2, DAY) == ([], 0)


async def test_a_server_has_one_puzzle_a_day_posted_once(store):
    assert (await store.puzzles.daily_puzzle(1, DAY, "wari-0010")).puzzle_id == "wari-0010"
    assert (
        await store.puzzles.daily_puzzle(1, DAY, "wari-0011")
    ).puzzle_id == "wari-0010"  # stored: it stays the day's
    claims = await asyncio.gather(*(store.puzzles.claim_daily_post(1, DAY, "wari-0011", 55, T0) for _ in range(3)))
    (claim,) = [claim for claim in claims if claim is not None]
    assert claim.puzzle_id == "wari-0010" and claim.channel_id == 55 and claim.posted_at == T0
    await store.puzzles.set_daily_message(1, DAY, None)  # the post failed: the claim is given up
    assert await store.puzzles.claim_daily_post(1, DAY, "wari-0010", 55, T0) is not None
    await store.puzzles.set_daily_message(1, DAY, 99)
    assert (await store.puzzles.daily_puzzle(1, DAY, "x")).message_id == 99


async def test_dailies_are_due_from_their_hour_until_posted(store):
    await store.puzzles.set_daily_setting(1, 55, 9)
    await store.puzzles.set_daily_setting(2, 66, 18)
    await store.puzzles.set_daily_setting(3, None, None)  # not posted
    assert [s.guild_id for s in await store.puzzles.dailies_due(DAY, 8)] == []
    assert [(s.guild_id, s.channel_id, s.hour) for s in await store.puzzles.dailies_due(DAY, 9)] == [(1, 55, 9)]
    assert [s.guild_id for s in await store.puzzles.dailies_due(DAY, 23)] == [1, 2]
    await store.puzzles.claim_daily_post(1, DAY, "wari-0010", 55, T0)
    assert [s.guild_id for s in await store.puzzles.dailies_due(DAY, 23)] == [2]
    assert [s.guild_id for s in await store.puzzles.dailies_due("2026-01-02", 23)] == [1, 2]
    assert (await store.puzzles.daily_setting(3)).channel_id is None and (
        await store.puzzles.daily_setting(4)
    ).hour is None


async def test_a_process_posts_the_dailies_of_its_own_shards(database):
    store = await Store.open(database, shards=ShardScope(2, (1,)))
    try:
        await store.puzzles.set_daily_setting(SHARD_0, 55, 9)
        await store.puzzles.set_daily_setting(SHARD_1, 66, 9)
        assert [s.guild_id for s in await store.puzzles.dailies_due(DAY, 10)] == [SHARD_1]
    finally:
        await store.close()
