"""Stories of the database: a tournament's games share one thread. A channel holds one live game,
unless its games are an event's: then one live game per player there. A database of before
(schema 13, one live game per channel, tournament games linked only by their pairing) is
migrated on both back ends, its tournament games marked as their event's."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.storage import MIGRATIONS, Conflict, Store
from tests.storage.schemas import database_at

T0 = datetime(2026, 11, 1, tzinfo=UTC)
#: The schema before event threads: one live game per channel, whosever it is.
BEFORE = 13


async def insert_game(store: Store, channel: int, a: int, b: int, tournament: int | None = None):
    async with store.database.writing():
        return await store.games.insert_game(
            dict(
                guild_id=1,
                channel_id=channel,
                player_a=a,
                player_b=b,
                variant="wari",
                record="R",
                created_at=T0,
                updated_at=T0,
                **({"tournament_id": tournament} if tournament is not None else {}),
            )
        )


async def old_database(database, monkeypatch) -> None:
    """A database of schema 13 holding a running Swiss (#1, its game live in thread 500) and an
    ordinary live game in channel 10."""
    tournament = (
        "INSERT INTO tournaments (guild_id, channel_id, name, format, variant, clock, rounds, starts_at, status,"
        " round, created_by, created_at) VALUES (1, 50, 'Cup', 'swiss', 'wari', '1d/move', 3, ?, 'running', 1, 9, ?)"
    )
    game = (
        "INSERT INTO games (guild_id, channel_id, player_a, player_b, variant, record, created_at, updated_at)"
        " VALUES (1, ?, ?, ?, 'wari', 'R', ?, ?)"
    )
    pairing = (
        "INSERT INTO tournament_pairings (tournament_id, round, board, first_id, second_id, game_id, created_at)"
        " VALUES (1, 1, 1, 100, 200, 1, ?)"
    )
    games = [
        (game, (channel, a, b, T0.isoformat(), T0.isoformat())) for channel, a, b in ((500, 100, 200), (10, 300, 400))
    ]
    rows = [(tournament, (T0.isoformat(), T0.isoformat())), *games, (pairing, (T0.isoformat(),))]
    await database_at(database, monkeypatch, BEFORE, rows)


async def test_a_database_of_before_is_migrated_its_tournament_games_marked_as_their_events(database, monkeypatch):
    await old_database(database, monkeypatch)
    store = await Store.open(database)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        (linked, ordinary) = [await store.games.get_game(n) for n in (1, 2)]
        assert linked.tournament_id == 1 and ordinary.tournament_id is None
        assert (await store.tournaments.tournament(1)).thread_id is None  # opened at the event's next round
    finally:
        await store.close()


async def test_an_events_thread_holds_a_live_game_per_player_and_any_other_channel_one_live_game(database, monkeypatch):
    await old_database(database, monkeypatch)
    store = await Store.open(database)
    try:
        second = await insert_game(store, 500, 101, 201, tournament=1)  # the event's second board, same thread
        assert [g.id for g in await store.games.live_games(500)] == [1, second.id]
        assert (await store.games.live_game(500, user_id=201)).id == second.id
        assert (await store.games.live_game(500, game_id=1)).id == 1
        with pytest.raises(Conflict):  # a player is in one live game of the thread at a time
            await insert_game(store, 500, 100, 202, tournament=1)
        with pytest.raises(Conflict):
            await insert_game(store, 500, 203, 200, tournament=1)
        with pytest.raises(Conflict):  # an ordinary channel: one live game, as before
            await insert_game(store, 10, 301, 401)
    finally:
        await store.close()
