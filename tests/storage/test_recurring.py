"""Stories of the database: a recurring event's next edition is made once, whoever tries and
however often; its shield is written once per edition and read back per player and server."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.service.schedules import shifted, start_of
from bot.storage import Store

T0 = datetime(2026, 11, 6, 19, tzinfo=UTC)


async def first_edition(store: Store):
    schedule = await store.schedules.create_schedule(
        now=T0,
        guild_id=1,
        channel_id=10,
        created_by=9,
        period="weekly",
        editions=None,
        until=None,
        title="Oware Shield",
        anchor=T0,
        anchor_edition=1,
    )
    row = await store.tournaments.create_tournament(
        now=T0,
        guild_id=1,
        channel_id=10,
        created_by=9,
        name="Friday Arena",
        format="arena",
        variant="wari",
        clock="5+3",
        duration=30,
        starts_at=T0,
        schedule_id=schedule.id,
        edition=1,
    )
    return schedule, row


def edition_columns(row, number: int) -> dict:
    return {
        "guild_id": row.guild_id,
        "channel_id": row.channel_id,
        "created_by": row.created_by,
        "name": row.name,
        "format": row.format,
        "variant": row.variant,
        "clock": row.clock,
        "duration": row.duration,
        "starts_at": row.starts_at + timedelta(weeks=number - 1),
        "schedule_id": row.schedule_id,
        "edition": number,
        "created_at": T0,
    }


async def test_the_next_edition_is_made_once_when_several_processes_try_at_once(database):
    stores = [await Store.open(database) for _ in range(3)]
    try:
        schedule, row = await first_edition(stores[0])
        made = await asyncio.gather(*(s.schedules.create_edition(**edition_columns(row, 2)) for s in stores))
        assert sum(edition is not None for edition in made) == 1
        again = await stores[1].schedules.create_edition(**edition_columns(row, 2))
        assert again is None
        (second,) = [edition for edition in made if edition is not None]
        assert (await stores[2].schedules.newest_edition(schedule.id)) == second
        assert second.edition == 2 and second.starts_at == T0 + timedelta(weeks=1)
    finally:
        for store in stores:
            await store.close()


async def test_a_shield_is_written_once_per_edition_and_read_per_player_and_server(database):
    store = await Store.open(database)
    try:
        schedule, row = await first_edition(store)
        award = {
            "tournament_id": row.id,
            "user_id": 100,
            "guild_id": 1,
            "schedule_id": schedule.id,
            "title": "Oware Shield",
        }
        assert await store.schedules.award_title(**award, name="Ama", now=T0)
        assert not await store.schedules.award_title(**award, name="Ama", now=T0)  # once
        (title,) = await store.schedules.titles_of(100, 1)
        assert (title.title, title.name, title.won_at) == ("Oware Shield", "Ama", T0)
        assert await store.schedules.titles_of(100, 2) == []  # another server's profile holds none
        assert [h.user_id for h in await store.schedules.holders(schedule.id)] == [100]
    finally:
        await store.close()


def test_a_monthly_edition_keeps_its_day_or_takes_the_months_last():
    assert shifted(datetime(2026, 1, 31, 20, tzinfo=UTC), 1, "monthly") == datetime(2026, 2, 28, 20, tzinfo=UTC)
    assert shifted(datetime(2026, 11, 15, tzinfo=UTC), 2, "monthly") == datetime(2027, 1, 15, tzinfo=UTC)


async def test_an_edition_whose_time_passed_while_the_bot_was_away_starts_at_the_next_time_to_come(database):
    store = await Store.open(database)
    try:
        schedule, _row = await first_edition(store)
        assert start_of(schedule, 2, T0) == T0 + timedelta(weeks=1)
        assert start_of(schedule, 2, T0 + timedelta(days=10)) == T0 + timedelta(weeks=2)
    finally:
        await store.close()
