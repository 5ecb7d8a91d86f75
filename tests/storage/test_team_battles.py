"""Stories of the database: a team battle's teams are written with the event, a player's team is
kept with them, a recurring battle's next edition gets the same teams once however many processes
make it, and a database of before (schema 18) is migrated on both back ends, its events no battles."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.storage import MIGRATIONS, Store
from tests.storage.schemas import database_at

T0 = datetime(2026, 11, 6, 19, tzinfo=UTC)
#: The schema before team battles.
BEFORE = 18
LIONS, TIGERS = 501, 502
BATTLE = {
    "guild_id": 1,
    "channel_id": 10,
    "created_by": 9,
    "name": "Derby",
    "format": "arena",
    "variant": "wari",
    "clock": "5+3",
    "duration": 30,
    "starts_at": T0,
    "leaders": 2,
}


async def test_a_battles_teams_are_written_with_it_and_each_player_keeps_their_team(database):
    store = await Store.open(database)
    try:
        battle = await store.tournaments.create_tournament(
            now=T0, teams=[(LIONS, "Lions"), (TIGERS, "Tigers")], **BATTLE
        )
        assert battle.leaders == 2
        teams = await store.tournaments.teams(battle.id)
        assert [(t.team, t.role_id, t.name) for t in teams] == [(1, LIONS, "Lions"), (2, TIGERS, "Tigers")]
        await store.tournaments.join_tournament(battle.id, user_id=100, name="Ama", rating=1500.0, now=T0, team=2)
        await store.tournaments.join_tournament(battle.id, user_id=200, name="Kofi", rating=1500.0, now=T0, team=1)
        assert {e.user_id: e.team for e in await store.tournaments.entrants(battle.id)} == {100: 2, 200: 1}
        arena = await store.tournaments.create_tournament(now=T0, **{**BATTLE, "leaders": None})
        assert arena.leaders is None and await store.tournaments.teams(arena.id) == []
    finally:
        await store.close()


async def test_a_recurring_battles_next_edition_gets_its_teams_once_when_several_processes_make_it(database):
    stores = [await Store.open(database) for _ in range(3)]
    try:
        schedule = await stores[0].schedules.create_schedule(
            now=T0,
            guild_id=1,
            channel_id=10,
            created_by=9,
            period="weekly",
            editions=None,
            until=None,
            title=None,
            anchor=T0,
            anchor_edition=1,
        )
        first = await stores[0].tournaments.create_tournament(
            now=T0, teams=[(LIONS, "Lions"), (TIGERS, "Tigers")], schedule_id=schedule.id, edition=1, **BATTLE
        )
        second = {**BATTLE, "starts_at": T0 + timedelta(weeks=1), "schedule_id": schedule.id, "edition": 2}
        made = await asyncio.gather(
            *(s.schedules.create_edition(**second, created_at=T0, teams_of=first.id) for s in stores)
        )
        (edition,) = [row for row in made if row is not None]
        assert edition.leaders == 2
        teams = await stores[1].tournaments.teams(edition.id)
        assert [(t.team, t.role_id, t.name) for t in teams] == [(1, LIONS, "Lions"), (2, TIGERS, "Tigers")]
    finally:
        for store in stores:
            await store.close()


async def test_a_database_of_before_is_migrated_and_its_arena_is_no_battle(database, monkeypatch):
    arena = (
        "INSERT INTO tournaments (guild_id, channel_id, name, format, variant, clock, duration, starts_at, status,"
        " round, created_by, created_at) VALUES (1, 50, 'Blitz', 'arena', 'wari', '5+3', 30, ?, 'running', 1, 9, ?)"
    )
    player = (
        "INSERT INTO tournament_players (tournament_id, user_id, name, rating, joined_at)"
        " VALUES (1, 100, 'Ama', 1500, ?)"
    )
    await database_at(
        database, monkeypatch, BEFORE, [(arena, (T0.isoformat(), T0.isoformat())), (player, (T0.isoformat(),))]
    )
    store = await Store.open(database)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        row = await store.tournaments.tournament(1)
        assert row is not None and row.leaders is None and row.status == "running"
        assert [(e.user_id, e.team) for e in await store.tournaments.entrants(1)] == [(100, None)]
        assert await store.tournaments.teams(1) == []
    finally:
        await store.close()
