"""Stories of the database: games anywhere in Discord (schema 15). A game or challenge says where it
is played: a server that added the bot, the bot's DM, or a place where the bot only answers
interactions (a group DM, a server that did not add it). Outside a server it has no server's id.
A game played outside a server that added the bot is rated in the global pool only: it never
enters a server's leaderboard, nor its history. A database of before is migrated on both back
ends, its games and challenges a server's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import DM, INTERACTION, MIGRATIONS, NO_SERVER, SERVER, Conflict, Store
from tests.storage.schemas import database_at

T0 = datetime(2026, 11, 1, tzinfo=UTC)
#: The schema before venues: every game a server's.
BEFORE = 14
SERVER_ID, OTHER_SERVER = 7, 8
ALICE, BOB = 100, 200


async def old_database(database, monkeypatch) -> None:
    """A database of schema 14 holding a live game in channel 10 and a challenge in channel 11."""
    game = (
        "INSERT INTO games (guild_id, channel_id, player_a, player_b, variant, record, created_at, updated_at)"
        " VALUES (?, 10, ?, ?, 'wari', 'R', ?, ?)"
    )
    challenge = (
        "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, variant, first, created_at,"
        " expires_at) VALUES (?, 11, ?, ?, 'wari', 'me', ?, ?)"
    )
    await database_at(
        database,
        monkeypatch,
        BEFORE,
        [
            (game, (SERVER_ID, ALICE, BOB, T0.isoformat(), T0.isoformat())),
            (challenge, (SERVER_ID, ALICE, BOB, T0.isoformat(), (T0 + timedelta(days=1)).isoformat())),
        ],
    )


async def test_a_database_of_before_is_migrated_its_games_and_challenges_a_servers(database, monkeypatch):
    await old_database(database, monkeypatch)
    store = await Store.open(database)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        game = await store.games.get_game(1)
        assert (game.venue, game.guild_id) == (SERVER, SERVER_ID)
        challenge = await store.games.challenge_in(11)
        assert challenge is not None and challenge.venue == SERVER
    finally:
        await store.close()


async def new_game(store: Store, channel: int, guild_id: int, venue: str):
    return await store.games.create_game(
        now=T0,
        guild_id=guild_id,
        channel_id=channel,
        player_a=ALICE,
        player_b=BOB,
        variant="wari",
        record="R",
        venue=venue,
    )


async def finish(store: Store, game, minutes: int):
    return await store.games.update_game(game, now=T0 + timedelta(minutes=minutes), status="finished", result="A")


async def test_games_outside_a_server_are_rated_in_the_global_pool_only(database):
    store = await Store.open(database)
    try:
        in_dm = await new_game(store, 20, NO_SERVER, DM)
        in_group = await new_game(store, 21, NO_SERVER, INTERACTION)
        without_bot = await new_game(store, 22, OTHER_SERVER, INTERACTION)  # a server that did not add the bot
        for minutes, game in enumerate((in_dm, in_group, without_bot)):
            archived = await finish(store, game, minutes)
            assert archived.venue == game.venue and archived.rated == 1
            assert [change.user_id for change in await store.ratings.rating_changes(game.id)] == [ALICE, BOB]
        everyone = await store.ratings.leaderboard("wari", guild_id=None, offset=0, limit=10)
        assert [row.user_id for row in everyone] == [ALICE, BOB]  # rated: three wins for Alice
        for server in (NO_SERVER, OTHER_SERVER):  # no server's leaderboard counts them
            assert await store.ratings.leaderboard("wari", guild_id=server, offset=0, limit=10) == []
            assert await store.ratings.archive_of(ALICE, guild_id=server, offset=0, limit=10) == []
        # The player's own list, outside a server, has them all, newest first.
        mine = await store.ratings.archive_of(ALICE, guild_id=None, offset=0, limit=10)
        assert [row.id for row in mine] == [without_bot.id, in_group.id, in_dm.id]
        # A server's own game still enters its leaderboard and history.
        served = await finish(store, await new_game(store, 23, SERVER_ID, SERVER), 10)
        assert [row.user_id for row in await store.ratings.leaderboard("wari", guild_id=SERVER_ID, offset=0, limit=10)]
        assert [row.id for row in await store.ratings.archive_of(ALICE, guild_id=SERVER_ID, offset=0, limit=10)] == [
            served.id
        ]
    finally:
        await store.close()


async def test_a_venue_that_is_not_one_of_the_three_is_refused(database):
    store = await Store.open(database)
    try:
        with pytest.raises(Conflict):  # an integrity error, as the database reports it
            await new_game(store, 30, NO_SERVER, "somewhere")
    finally:
        await store.close()
