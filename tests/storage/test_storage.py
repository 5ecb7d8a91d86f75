"""Storage against real databases: the queries and their guards on both back ends (a SQLite
file, a database of the test PostgreSQL server), and what only SQLite has (its file, pragmas,
refusals of broken files)."""

import asyncio
import contextlib
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import MIGRATIONS, Conflict, StorageError, Store

T0 = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


@pytest.fixture
async def sqlite_store(tmp_path):
    store = await Store.open(tmp_path / "sub" / "wari.sqlite3")
    yield store
    await store.close()


@pytest.fixture
async def store(database):
    """Each back end in turn (see ``tests/conftest.py``)."""
    store = await Store.open(database)
    yield store
    await store.close()


async def test_a_new_file_is_created_and_migrated_to_the_latest_schema(sqlite_store):
    assert sqlite_store.path.exists()
    assert await sqlite_store.schema_version() == len(MIGRATIONS)
    with sqlite3.connect(sqlite_store.path) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"meta", "challenges", "games"} <= tables
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_reopening_does_not_migrate_again_and_keeps_data(tmp_path):
    path = tmp_path / "wari.sqlite3"
    first = await Store.open(path)
    await first.set_meta("hello", "world")
    await first.close()
    again = await Store.open(path)
    assert await again.get_meta("hello") == "world"
    assert await again.schema_version() == len(MIGRATIONS)
    await again.close()


async def test_foreign_keys_are_on_and_commits_do_not_wait_for_the_disk(sqlite_store):
    assert (await sqlite_store.database.read("PRAGMA foreign_keys"))[0][0] == 1
    assert (await sqlite_store.database.read("PRAGMA synchronous"))[0][
        0
    ] == 1  # NORMAL: safe in WAL mode against a killed process


async def test_a_corrupt_file_is_refused_with_a_clear_message(tmp_path):
    path = tmp_path / "wari.sqlite3"
    path.write_bytes(b"this is not a database, just some text that got here somehow" * 100)
    with pytest.raises(StorageError, match=r"cannot use the database .*wari.sqlite3: file is not a database"):
        await Store.open(path)
    assert path.read_bytes().startswith(b"this is not a database")  # left as it was


async def test_a_database_from_a_newer_bot_is_refused_before_anything_is_written(tmp_path):
    path = tmp_path / "wari.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as db, db:  # rollback-journal mode, as a copy from elsewhere may be
        db.execute("CREATE TABLE later (x)")
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    before = path.read_bytes()
    with pytest.raises(
        StorageError, match=f"schema version {len(MIGRATIONS) + 1} is newer than this bot knows .*upgrade the bot"
    ):
        await Store.open(path)
    assert path.read_bytes() == before  # no switch to WAL (bytes 18-19 of the header), no migration
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["wari.sqlite3"]  # no -wal, no -shm


async def test_a_directory_in_place_of_the_file_is_refused(tmp_path):
    with pytest.raises(StorageError, match="cannot"):
        await Store.open(tmp_path)


async def new_challenge(store, channel=10, **overrides):
    fields = {
        "guild_id": 1,
        "channel_id": channel,
        "challenger_id": 100,
        "opponent_id": 200,
        "variant": "wari",
        "first": "me",
        "created_at": T0,
        "expires_at": T0 + timedelta(minutes=10),
    }
    fields.update(overrides)
    return await store.games.add_challenge(**fields)


async def test_one_open_challenge_per_channel(store):
    challenge = await new_challenge(store)
    assert challenge.id and challenge.expires_at == T0 + timedelta(minutes=10)
    with pytest.raises(Conflict):
        await new_challenge(store)
    assert await new_challenge(store, channel=11)


async def test_accepting_moves_the_challenge_to_a_live_game_once(store):
    challenge = await new_challenge(store)
    game = await store.games.start_game(challenge, player_a=100, player_b=200, record="R", now=T0)
    assert game.live and game.version == 0 and await store.games.challenge_in(10) is None
    with pytest.raises(Conflict):
        await store.games.start_game(challenge, player_a=100, player_b=200, record="R", now=T0)
    with pytest.raises(Conflict):  # no challenge either while the game is live
        await new_challenge(store)


async def test_updates_check_the_version_and_archive_finished_games(store):
    game = await store.games.start_game(await new_challenge(store), player_a=100, player_b=200, record="R0", now=T0)
    moved = await store.games.update_game(game, now=T0, record="R1")
    assert moved.version == 1 and moved.record == "R1"
    with pytest.raises(Conflict):
        await store.games.update_game(game, now=T0, record="R1 again")  # written for version 0
    done = await store.games.update_game(
        moved, now=T0 + timedelta(hours=1), record="R2", status="finished", result="B", reason="majority"
    )
    assert done.finished_at == T0 + timedelta(hours=1)
    assert await store.games.live_game(10) is None
    assert [row.id for row in await store.games.archived_games(10)] == [done.id]


async def test_a_move_is_saved_by_one_statement_that_commits_by_itself(store, database):
    game = await store.games.start_game(await new_challenge(store), player_a=100, player_b=200, record="R0", now=T0)
    moved = await store.games.update_game(game, now=T0, record="R1")
    other = await Store.open(database)  # another process's view: the move is committed
    try:
        assert (await other.games.get_game(game.id)).record == "R1"
    finally:
        await other.close()
    if store.dialect == "sqlite":
        assert not store.database._backend._db.in_transaction
    with pytest.raises(Conflict):  # its version check is its whole defence, as in a transaction
        await store.games.update_game(game, now=T0, record="R1 again")
    assert (await store.games.get_game(game.id)).version == moved.version == 1


async def test_a_lone_write_waits_for_a_transaction_under_way_and_is_not_undone_with_it(store):
    game = await store.games.start_game(await new_challenge(store), player_a=100, player_b=200, record="R0", now=T0)
    opened, release = asyncio.Event(), asyncio.Event()

    async def failing_transaction():
        async with store.database.writing():
            await store.database.step("UPDATE meta SET value = 'doomed' WHERE key = 'nothing'")
            opened.set()
            await release.wait()
            raise RuntimeError("rolled back")

    failing = asyncio.ensure_future(failing_transaction())
    await opened.wait()
    move = asyncio.ensure_future(store.games.update_game(game, now=T0, record="R1"))
    await asyncio.sleep(0.05)
    release.set()
    with pytest.raises(RuntimeError, match="rolled back"):
        await failing
    assert (await move).record == "R1"
    assert (await store.games.get_game(game.id)).record == "R1"  # not rolled back with the other write


async def test_a_read_sees_what_is_committed_never_another_write_under_way(store):
    game = await store.games.start_game(await new_challenge(store), player_a=100, player_b=200, record="R0", now=T0)
    opened, release = asyncio.Event(), asyncio.Event()

    async def doomed_write():
        async with store.database.writing():
            await store.database.step("UPDATE games SET record = 'R-doomed' WHERE id = ?", (game.id,))
            opened.set()
            await release.wait()
            raise RuntimeError("rolled back")

    write = asyncio.ensure_future(doomed_write())
    await opened.wait()
    assert (await store.games.get_game(game.id)).record == "R0"  # not what the write under way wrote
    release.set()
    with pytest.raises(RuntimeError, match="rolled back"):
        await write
    assert (await store.games.get_game(game.id)).record == "R0"


async def test_due_challenges_are_the_expired_ones(store):
    await new_challenge(store, channel=1, expires_at=T0)
    await new_challenge(store, channel=2, expires_at=T0 + timedelta(minutes=5))
    assert [c.channel_id for c in await store.games.due_challenges(T0 + timedelta(minutes=1))] == [1]


async def test_a_version_1_database_is_migrated_and_keeps_its_games(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(MIGRATIONS[0])
        db.execute("PRAGMA user_version = 1")
        db.execute(
            "INSERT INTO games (guild_id, channel_id, player_a, player_b, variant, record, created_at, updated_at)"
            " VALUES (1, 10, 100, 200, 'wari', 'R', '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00')"
        )
    store = await Store.open(path)
    assert await store.schema_version() == len(MIGRATIONS) >= 2
    game = await store.games.live_game(10)
    assert (game.record, game.level_a, game.level_b, game.autoplay) == ("R", None, None, 0)
    await store.close()


async def test_writes_in_many_channels_at_once_all_succeed(store):
    import asyncio

    made = await asyncio.gather(*(new_challenge(store, channel=c) for c in range(100, 108)))
    assert sorted(c.channel_id for c in made) == list(range(100, 108))


async def test_a_cancelled_write_leaves_the_database_usable(store):
    import asyncio

    task = asyncio.ensure_future(new_challenge(store, channel=1))
    await asyncio.sleep(0)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert await new_challenge(store, channel=2)
    if store.dialect == "sqlite":
        assert not store.database._backend._db.in_transaction


async def test_ids_are_never_reused(store):
    first = await new_challenge(store, channel=1)
    await store.games.delete_challenge(first.id)
    second = await new_challenge(store, channel=1)
    assert second.id > first.id


async def test_processes_opening_a_new_database_at_once_all_start_and_migrate_once(database, caplog):
    """Four stores, each with connections of its own (as four processes have), open a new
    database at once: each migration runs once, under the migration lock; the others find it done."""
    caplog.set_level("INFO", logger="bot.storage")
    stores = await asyncio.gather(*(Store.open(database) for _ in range(4)))
    try:
        assert [await s.schema_version() for s in stores] == [len(MIGRATIONS)] * 4
        migrated = [
            record.getMessage().rsplit(" ", 1)[1]
            for record in caplog.records
            if "migrated to schema version" in record.getMessage()
        ]
        assert sorted(migrated, key=int) == [str(number) for number in range(1, len(MIGRATIONS) + 1)]
    finally:
        for s in stores:
            await s.close()


async def clocked_game(store, channel=10, **columns):
    challenge = await new_challenge(store, channel=channel)
    return await store.games.start_game(challenge, player_a=100, player_b=200, record="R", now=T0, **columns)


async def test_the_sweeps_read_through_their_partial_indexes(sqlite_store):
    plans = {}
    for name, where in (
        ("deadline", "deadline IS NOT NULL AND deadline <= ?"),
        ("ping", "ping_at IS NOT NULL AND ping_at <= ?"),
    ):
        rows = await sqlite_store.database.read(
            f"EXPLAIN QUERY PLAN SELECT * FROM games WHERE status = 'live' AND {where}", ("x",)
        )
        plans[name] = " ".join(row["detail"] for row in rows)
    assert "USING INDEX live_games_by_deadline" in plans["deadline"]
    assert "USING INDEX live_games_by_ping" in plans["ping"]


async def test_a_game_to_ping_is_read_with_its_players_who_turned_pings_off(store):
    game = await clocked_game(store)
    assert await store.clocks.game_to_ping(game.id) == (game, frozenset())
    await store.settings.set_pings(200, False)
    await store.settings.set_user_language(100, "fr")  # a settings row of its own, pings left on
    assert await store.clocks.game_to_ping(game.id) == (game, frozenset({200}))
    await store.settings.set_pings(200, True)
    assert (await store.clocks.game_to_ping(game.id))[1] == frozenset()
    assert await store.clocks.game_to_ping(game.id + 1) is None


async def test_a_ping_is_recorded_once_and_never_for_a_game_that_moved_on(store):
    game = await clocked_game(store, ping_at=T0, ping_kind="turn")
    assert [g.id for g in await store.clocks.games_due_a_ping(T0)] == [game.id]
    moved = await store.games.update_game(game, now=T0, ping_at=T0 + timedelta(seconds=5), ping_kind="turn")
    assert not await store.clocks.record_ping(game, message_id=77, next_at=None, next_kind=None)  # read before the move
    assert (await store.games.get_game(game.id)).ping_message_id is None
    reminder = T0 + timedelta(hours=1)
    assert await store.clocks.record_ping(moved, message_id=78, next_at=reminder, next_kind="reminder")
    assert not await store.clocks.record_ping(moved, message_id=79, next_at=None, next_kind=None)  # a second time: no
    after = await store.games.get_game(game.id)
    assert (after.ping_message_id, after.ping_at, after.ping_kind) == (78, reminder, "reminder")
    assert await store.clocks.games_due_a_ping(T0 + timedelta(minutes=59)) == []


async def test_downtime_is_credited_once_to_running_clocks_only(store):
    running = await clocked_game(
        store, channel=1, deadline=T0 + timedelta(hours=1), ping_at=T0 + timedelta(minutes=45), ping_kind="reminder"
    )
    still = await clocked_game(store, channel=2)
    rules = {"longer_than": timedelta(minutes=3), "note_every": timedelta(minutes=1)}
    assert await store.clocks.credit_downtime(T0, **rules) == (timedelta(0), [])  # the first sign of life
    back = T0 + timedelta(hours=2)
    gap, shifted = await store.clocks.credit_downtime(back, **rules)
    assert gap == timedelta(hours=2) and [g.id for g in shifted] == [running.id]
    moved = await store.games.get_game(running.id)
    assert moved.deadline == T0 + timedelta(hours=3) and moved.ping_at == T0 + timedelta(hours=2, minutes=45)
    assert moved.clock_paused == 7200 and (await store.games.get_game(still.id)).deadline is None
    assert await store.clocks.credit_downtime(back + timedelta(minutes=2), **rules) == (timedelta(0), [])  # not twice
    assert (await store.games.get_game(running.id)).deadline == T0 + timedelta(hours=3)


async def test_a_version_3_database_gets_the_ratings_of_its_archive_in_the_order_games_finished(tmp_path):
    from bot.ratings import Rating, rate_game

    path = tmp_path / "v3.sqlite3"
    with sqlite3.connect(path) as db:
        for script in MIGRATIONS[:3]:
            db.executescript(script)
        db.execute("PRAGMA user_version = 3")
        finished = [  # (id, A, B, result, finished_at): inserted out of order on purpose
            (1, 100, 200, "A", "2026-01-03T00:00:00+00:00"),
            (2, 200, 300, "B", "2026-01-01T00:00:00+00:00"),
            (3, 100, 300, "draw", "2026-01-02T00:00:00+00:00"),
        ]
        for game_id, a, b, result, at in finished:
            db.execute(
                "INSERT INTO games (id, guild_id, channel_id, player_a, player_b, variant, record, status,"
                " result, reason, created_at, updated_at, finished_at)"
                " VALUES (?, 1, ?, ?, ?, 'wari', 'R', 'finished', ?, 'majority', ?, ?, ?)",
                (game_id, 10 + game_id, a, b, result, at, at, at),
            )
        db.execute(  # against the computer: counts in statistics, not in ratings
            "INSERT INTO games (id, guild_id, channel_id, player_a, player_b, variant, record, status, result, reason,"
            " created_at, updated_at, finished_at, level_b) VALUES (4, 1, 20, 100, 999, 'wari', 'R', 'finished', 'A',"
            " 'surrender', '2026-01-04T00:00:00+00:00', '2026-01-04T00:00:00+00:00',"
            " '2026-01-04T00:00:00+00:00', 'mcts')"
        )
    store = await Store.open(path)
    # Replayed by hand in the order the games finished: 2, then 3, then 1.
    r = {100: Rating(), 200: Rating(), 300: Rating()}
    r[200], r[300] = rate_game(r[200], r[300], 0.0)
    r[100], r[300] = rate_game(r[100], r[300], 0.5)
    r[100], r[200] = rate_game(r[100], r[200], 1.0)
    for user in (100, 200, 300):
        stored = (await store.ratings.ratings_of(user))["wari"]
        assert (round(stored.rating, 6), round(stored.rd, 6), stored.games) == (
            round(r[user].rating, 6),
            round(r[user].rd, 6),
            r[user].games,
        )
    assert 999 not in [s.user_id for s in await store.ratings.leaderboard("wari", guild_id=None, offset=0, limit=10)]
    assert (await store.ratings.results_of(100))["mcts"].wins == 1
    await store.close()


#: An event's columns, as ``/wari-mod tournament create`` stores them.
TOURNAMENT = {
    "guild_id": 1,
    "channel_id": 8,
    "name": "Cup",
    "format": "swiss",
    "variant": "wari",
    "clock": "5+3",
    "rounds": 3,
    "max_players": None,
    "rated": 1,
    "duration": None,
    "cycles": 1,
    "starts_at": T0,
    "created_by": 7,
}


async def test_a_copy_moves_every_table_keeps_ids_and_checks_the_counts(tmp_path, database, capsys):
    """python -m bot.storage copy: a SQLite deployment into a new database (of each back end)."""
    from bot.storage.__main__ import main as storage_cli
    from bot.storage.schema import TABLES

    source_path = tmp_path / "old.sqlite3"
    source = await Store.open(source_path)
    game = await clocked_game(source, channel=1)
    await source.games.update_game(game, now=T0, record="R1", status="finished", result="A", reason="majority")
    season = await source.seasons.season_at(game.guild_id, T0)  # opened by the rated game
    assert season is not None and await source.seasons.close_season(season, season.ends_at)  # its podium's badges
    await clocked_game(source, channel=2)
    await source.games.delete_challenge((await new_challenge(source, channel=3)).id)
    open_challenge = await new_challenge(source, channel=4)
    await source.settings.set_pings(100, False)
    await source.settings.set_board_style(1, "image")
    await source.settings.set_tier_role(1, 1400, 9)
    await source.settings.claim_call(1, "seek", T0, again_after=None)
    await source.set_meta("commands_digest", "abc")
    seek = {
        "guild_id": 1,
        "channel_id": 6,
        "user_id": 7,
        "user_name": "w",
        "variant": "wari",
        "clock": "5+3",
        "rating": 1500,
    }
    _paired, waiting = await source.seeks.seek(now=T0, within=None, expires_at=T0 + timedelta(minutes=15), **seek)
    event = await source.tournaments.create_tournament(now=T0, **TOURNAMENT)
    await source.tournaments.join_tournament(event.id, user_id=100, name="a", rating=1500.0, now=T0)
    await source.tournaments.start_round(event.id, after=0, pairings=[(100, None, 1.0)], now=T0)
    battle = {**TOURNAMENT, "format": "arena", "leaders": 2}  # a team battle: its teams are a table of their own
    await source.tournaments.create_tournament(now=T0, teams=[(501, "Lions"), (502, "Tigers")], **battle)
    shield = await source.schedules.create_schedule(  # a recurring event's schedule, and its title won
        now=T0,
        guild_id=1,
        channel_id=5,
        created_by=9,
        period="weekly",
        editions=None,
        until=None,
        title="Shield",
        anchor=T0,
        anchor_edition=1,
    )
    await source.schedules.award_title(
        tournament_id=event.id, user_id=100, guild_id=1, schedule_id=shield.id, title="Shield", name="a", now=T0
    )
    await source.analyses.request_analysis(
        game_id=game.id, depth="quick", requested_by=100, guild_id=1, total_plies=1, now=T0, most=8
    )
    attempt = await source.puzzles.start_attempt(
        user_id=100, guild_id=1, puzzle_id="wari-0001", daily="2026-01-01", now=T0
    )
    await source.puzzles.finish_attempt(
        attempt, (3,), solved=True, now=T0, rerate=lambda standing: standing, rated=True
    )
    await source.puzzles.daily_puzzle(1, "2026-01-01", "wari-0001")
    await source.close()
    target = database if database != source_path else tmp_path / "new.sqlite3"
    assert await asyncio.to_thread(storage_cli, ["copy", str(source_path), str(target)]) == 0
    said = capsys.readouterr().out
    assert "games: 2 rows" in said and "every table's count matches" in said
    copied = await Store.open(target)
    try:
        assert (await copied.games.get_challenge(open_challenge.id)).channel_id == 4
        assert [g.id for g in await copied.games.archived_games()] == [game.id]
        assert (await copied.games.live_game(2)).record == "R"
        assert not await copied.settings.pings_enabled(100) and await copied.settings.server_settings(1) == (
            None,
            "image",
        )
        assert (await copied.ratings.ratings_of(100))["wari"].games == 1
        after = await new_challenge(copied, channel=5)  # ids go on after the copied ones, never reused
        assert after.id > open_challenge.id
        assert (await copied.seeks.waiting(1, 7)) == waiting
        await copied.seeks.end_seek(waiting.id)
        _paired, again = await copied.seeks.seek(now=T0, within=None, expires_at=T0 + timedelta(minutes=15), **seek)
        assert again.id > waiting.id  # a wait's id is never reused either (its Cancel button names it)
        assert [(p.first_id, p.result) for p in await copied.tournaments.pairings(event.id)] == [(100, 1.0)]
        assert (await copied.tournaments.create_tournament(now=T0, **TOURNAMENT)).id > event.id
        for table, _ in TABLES:
            assert (await copied.database.read(f"SELECT COUNT(*) AS n FROM {table}"))[0]["n"] > 0, table
    finally:
        await copied.close()
    assert await asyncio.to_thread(storage_cli, ["copy", str(source_path), str(target)]) == 1  # not into a filled one
    assert "is not empty" in capsys.readouterr().err


async def test_rated_games_between_two_players_count_five_times_in_any_24_hours(store):
    from bot.ratings import OVER_THE_DAILY_LIMIT, RATED, RATED_GAMES_PER_PAIR_PER_DAY

    async def finish(channel, at):
        game = await clocked_game(store, channel=channel)
        return await store.games.update_game(game, now=at, status="finished", result="A", reason="surrender")

    finished = [await finish(channel, T0 + timedelta(hours=channel)) for channel in range(1, 7)]
    assert [game.rated for game in finished] == [RATED] * RATED_GAMES_PER_PAIR_PER_DAY + [OVER_THE_DAILY_LIMIT]
    assert len(await store.ratings.rating_changes(finished[-1].id)) == 0
    assert (await store.ratings.ratings_of(100))["wari"].games == 5
    # The first of the five is more than a day old by hour 26: one more counts.
    assert (await finish(26, T0 + timedelta(hours=26))).rated == RATED
    assert (await store.ratings.ratings_of(100))["wari"].games == 6


async def test_a_database_password_never_shows_in_an_error_or_a_log_line(caplog):
    import logging

    caplog.set_level(logging.DEBUG)
    for url in ("postgresql://wari:s3cret-pw@127.0.0.1:1/wari", "postgresql://wari:s3cret-pw@nowhere.invalid/wari"):
        with pytest.raises(StorageError) as raised:
            await Store.open(url)
        assert "s3cret-pw" not in str(raised.value) and "wari:***@" in str(raised.value)
    assert "s3cret-pw" not in caplog.text


async def test_the_save_that_archives_a_rated_game_returns_its_rating_changes_as_they_are_read_back(store):
    """The final board shows what the game did to the ratings from the archiving write itself
    (no read after it): it must be what the database holds, A first, and nothing once unrated."""
    from bot.ratings import RATED_GAMES_PER_PAIR_PER_DAY

    saved = []
    for channel in range(1, RATED_GAMES_PER_PAIR_PER_DAY + 2):
        game = await clocked_game(store, channel=channel)
        result = "AB"[channel % 2]
        at = T0 + timedelta(minutes=channel)
        saved.append(await store.games.save_game(game, now=at, status="finished", result=result, reason="surrender"))
    *rated, over_the_limit = saved
    for save in rated:
        read_back = tuple(await store.ratings.rating_changes(save.row.id))
        assert save.rating_changes == read_back
        assert [change.user_id for change in read_back] == [save.row.player_a, save.row.player_b]
        assert all(change.delta != 0 for change in read_back)
    assert over_the_limit.rating_changes == () == tuple(await store.ratings.rating_changes(over_the_limit.row.id))
