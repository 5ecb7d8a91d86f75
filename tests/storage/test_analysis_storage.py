"""Analysis storage on both back ends: asking is one decision (done, under way, the asker's own
under way, a full queue), a failed analysis may be asked again, the progress and the result are
kept, and a sharded bot's process resumes only its own servers' analyses."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import Store
from bot.storage.database import ShardScope
from tests.storage.databases import SHARD_0, SHARD_1

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
async def store(database):
    store = await Store.open(database)
    yield store
    await store.close()


async def finished_game(store: Store, channel: int, guild: int = SHARD_0) -> int:
    game = await store.games.create_game(
        now=T0, guild_id=guild, channel_id=channel, player_a=1, player_b=2, variant="wari", record="R"
    )
    return (await store.games.update_game(game, now=T0, status="finished", result="A", reason="majority")).id


async def ask(store: Store, game: int, user: int, *, depth: str = "default", most: int = 8, at=T0):
    return await store.analyses.request_analysis(
        game_id=game, depth=depth, requested_by=user, guild_id=SHARD_0, total_plies=40, now=at, most=most
    )


async def test_asking_queues_once_and_says_why_not(store):
    games = [await finished_game(store, channel) for channel in (1, 2, 3)]
    first = await ask(store, games[0], 10)
    assert first.refusal is None and first.row is not None and first.row.status == "queued"
    assert (await ask(store, games[0], 11)).refusal == "active"  # under way: the asker is shown it
    mine = await ask(store, games[1], 10)
    assert mine.refusal == "yours" and mine.row is not None and mine.row.game_id == games[0]
    assert (await ask(store, games[1], 11, most=1)).refusal == "full"
    await store.analyses.analysis_progress(games[0], "default", 12, T0)
    assert (await store.analyses.analysis(games[0], "default")).done_plies == 12
    done = await store.analyses.end_analysis(games[0], "default", '{"x": 1}', T0 + timedelta(seconds=9))
    assert done is not None and done.status == "done" and done.done_plies == 40 and done.result == '{"x": 1}'
    again = await ask(store, games[0], 12)
    assert again.refusal == "done" and again.row == done
    assert (await store.analyses.finished_analysis(games[0])) == done
    # A failed analysis is asked again, from the start.
    await ask(store, games[2], 13)
    failed = await store.analyses.end_analysis(games[2], "default", None, T0)
    assert failed is not None and failed.status == "failed"
    retried = await ask(store, games[2], 14)
    assert retried.refusal is None and retried.row is not None and retried.row.requested_by == 14


async def test_two_asking_at_once_for_the_last_place_get_one(store):
    games = [await finished_game(store, channel) for channel in (1, 2)]
    answers = await asyncio.gather(ask(store, games[0], 10, most=1), ask(store, games[1], 11, most=1))
    assert sorted(str(answer.refusal) for answer in answers) == ["None", "full"]


async def test_each_shard_resumes_its_own_servers_analyses(store, database):
    theirs = await finished_game(store, 1, guild=SHARD_1)
    ours = await finished_game(store, 2, guild=SHARD_0)
    for game, guild in ((theirs, SHARD_1), (ours, SHARD_0)):
        await store.analyses.request_analysis(
            game_id=game, depth="quick", requested_by=game, guild_id=guild, total_plies=4, now=T0, most=8
        )
    assert [row.game_id for row in await store.analyses.unfinished_analyses()] == [theirs, ours]
    shard_0 = await Store.open(database, shards=ShardScope(2, (0,)))
    try:
        assert [row.game_id for row in await shard_0.analyses.unfinished_analyses()] == [ours]
    finally:
        await shard_0.close()
