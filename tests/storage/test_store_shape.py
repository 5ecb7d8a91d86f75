"""The store's queries are composed over one database handle (no class stacks on another:
tests/test_class_shape.py), and the writes that take a step of another feature's stay one
transaction (on both back ends)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import Conflict, StorageError, Store

T0 = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


@pytest.fixture
async def sqlite_store(database_path):
    store = await Store.open(database_path)
    yield store
    await store.close()


@pytest.fixture
async def store(database):
    """Each back end in turn (see ``tests/conftest.py``)."""
    store = await Store.open(database)
    yield store
    await store.close()


async def refuse_rating_changes(store: Store) -> None:
    """A rule of the database that refuses every new rating change, as a broken disk or a bad
    constraint would, halfway through the write that archives a rated game."""
    if store.dialect == "sqlite":
        statements = [
            "CREATE TRIGGER refuse_ratings BEFORE INSERT ON rating_changes BEGIN SELECT RAISE(ABORT, 'refused'); END"
        ]
    else:
        statements = [
            "CREATE FUNCTION refuse_ratings() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ "
            "LANGUAGE plpgsql",
            "CREATE TRIGGER refuse_ratings BEFORE INSERT ON rating_changes FOR EACH ROW "
            "EXECUTE FUNCTION refuse_ratings()",
        ]
    await store.database.write(*((sql, ()) for sql in statements))


async def live_game(store: Store, channel: int = 10):
    challenge = await store.games.add_challenge(
        guild_id=1,
        channel_id=channel,
        challenger_id=100,
        opponent_id=200,
        variant="wari",
        first="me",
        created_at=T0,
        expires_at=T0 + timedelta(minutes=10),
    )
    return await store.games.start_game(challenge, player_a=100, player_b=200, record="R0", now=T0)


async def test_a_game_whose_rating_cannot_be_written_does_not_end_either(store):
    game = await live_game(store)
    await refuse_rating_changes(store)
    with pytest.raises((Conflict, StorageError)):
        await store.games.update_game(game, now=T0, record="R1", status="finished", result="A", reason="majority")
    still = await store.games.get_game(game.id)
    assert still is not None and still.live and still.version == game.version and still.record == "R0"
    # The results counted before the rating was refused went with it.
    assert await store.ratings.results_of(100) == {} and await store.ratings.ratings_of(100) == {}


async def test_a_write_that_sqlite_undoes_by_itself_halfway_commits_none_of_its_later_statements(sqlite_store):
    # SQLite rolls a whole transaction back by itself on some failures (an I/O error, a full disk);
    # RAISE(ROLLBACK) does the same. A statement sent after the failure would then commit alone.
    store = sqlite_store
    game = await live_game(store)
    await store.database.write(
        ("CREATE TRIGGER undo_all BEFORE INSERT ON rating_changes BEGIN SELECT RAISE(ROLLBACK, 'undone'); END", ())
    )
    with pytest.raises((Conflict, StorageError)):
        await store.games.update_game(game, now=T0, record="R1", status="finished", result="A", reason="majority")
    still = await store.games.get_game(game.id)
    assert still is not None and still.live and still.record == "R0"
    for table in ("ratings", "rating_changes", "guild_players", "seasons", "player_stats"):
        assert await store.database.read(f"SELECT * FROM {table}") == [], table


async def test_a_games_end_that_sqlite_undoes_by_itself_counts_nothing_though_its_reads_went_with_it(sqlite_store):
    # The save that ends a game goes to SQLite's thread with the count's reads behind it (one trip):
    # if SQLite undoes the transaction at the save, the reads run alone, and nothing is written.
    store = sqlite_store
    game = await live_game(store)
    await store.database.write(
        (
            "CREATE TRIGGER undo_the_end BEFORE UPDATE OF status ON games WHEN NEW.status != 'live' "
            "BEGIN SELECT RAISE(ROLLBACK, 'undone'); END",
            (),
        )
    )
    with pytest.raises((Conflict, StorageError)):
        await store.games.update_game(game, now=T0, record="R1", status="finished", result="A", reason="majority")
    still = await store.games.get_game(game.id)
    assert still is not None and still.live and still.record == "R0" and still.version == game.version
    for table in ("ratings", "rating_changes", "guild_players", "seasons", "player_stats"):
        assert await store.database.read(f"SELECT * FROM {table}") == [], table
    # The game goes on: its next move is saved as if nothing had been tried.
    moved = await store.games.update_game(still, now=T0, record="R2")
    assert moved.version == game.version + 1 and moved.live


async def test_a_pairing_that_has_its_game_already_starts_no_second_game(store):
    event = await store.tournaments.create_tournament(
        now=T0,
        guild_id=1,
        channel_id=1,
        name="Cup",
        format="swiss",
        variant="wari",
        clock="5+3",
        rounds=1,
        max_players=None,
        rated=1,
        duration=None,
        cycles=1,
        starts_at=T0,
        created_by=100,
    )
    assert await store.tournaments.start_round(event.id, after=0, pairings=[(100, 200, None)], now=T0)
    (pairing,) = await store.tournaments.pairings(event.id)
    columns = {"guild_id": 1, "variant": "wari", "player_a": 100, "player_b": 200, "record": "R0"}
    first = await store.tournaments.create_tournament_game(pairing, now=T0, channel_id=20, **columns)
    with pytest.raises(Conflict):
        await store.tournaments.create_tournament_game(pairing, now=T0, channel_id=21, **columns)
    assert await store.games.live_game(21) is None  # the game inserted before the link failed is undone
    assert (await store.tournaments.pairing_of_game(first.id)).board == pairing.board
