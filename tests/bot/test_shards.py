"""A sharded bot: each process runs some shards, sweeps only their servers' games, and one syncs."""

from datetime import timedelta

import discord
import pytest
from simcord import Env

from bot.client import ShardedWariBot, WariBot
from bot.storage import ShardScope, Store
from tests.conftest import close_bot, make_bot
from tests.helpers import enabled_houses, press


def guild_id_on(shard: int, count: int, serial: int = 1) -> int:
    """A server id Discord would put on ``shard`` of ``count``."""
    return ((serial * count + shard) << 22) | 12345


async def test_a_sharded_bot_hosts_games_on_each_of_its_shards(database_path):
    bot = make_bot(database_path, shard_count=2)
    assert isinstance(bot, ShardedWariBot) and isinstance(make_bot(database_path), WariBot)
    env = Env(bot)
    await env.start()
    try:
        assert sorted(bot.shards) == [0, 1] and bot.store.shards == ShardScope(2, (0, 1))
        for shard in (0, 1):
            guild = env.create_guild(f"Server {shard}", shard_id=shard)
            channel = guild.create_text_channel("games")
            alice, bob = (guild.add_member(env.create_user(f"{name}{shard}")) for name in ("alice", "bob"))
            board = (await alice.slash(channel, "wari challenge", opponent=bob, first="me")).response
            await bob.click(board, label="Accept")
            await press(alice, board, 6)
            assert sorted(enabled_houses(board)) == [7, 8, 9, 10, 11, 12]  # B to move
            assert bot.get_guild(guild.id).shard_id == shard
    finally:
        await env.shutdown()
        await close_bot(bot)
    env.raise_errors()


async def test_a_process_sweeps_only_the_servers_of_its_own_shards(database_path):
    """Process 1 of 2 expires its own challenge and leaves process 0's to it."""
    bot = make_bot(database_path, shard_count=2, shard_ids=(1,))
    env = Env(bot, strict_sync=False)  # process 0 synced the commands
    await env.start()
    try:
        guild = env.create_guild("Mine", shard_id=1)
        channel = guild.create_text_channel("games")
        alice, bob = (guild.add_member(env.create_user(name)) for name in ("alice", "bob"))
        mine = (await alice.slash(channel, "wari challenge", opponent=bob)).response
        now = discord.utils.utcnow()
        theirs = await bot.store.games.add_challenge(
            guild_id=guild_id_on(0, 2),
            channel_id=555,
            challenger_id=1,
            opponent_id=2,
            variant="wari",
            first="me",
            created_at=now,
            expires_at=now + timedelta(minutes=1),
        )
        await env.advance_time(11 * 60)
        assert "expired" in mine.embeds[0].description.lower() or "expired" in mine.content.lower()
        assert await bot.store.games.challenge_in(channel.id) is None
        assert await bot.store.games.get_challenge(theirs.id) == theirs  # process 0's to expire
    finally:
        await env.shutdown()
        await close_bot(bot)
    env.raise_errors()


@pytest.mark.parametrize("shard_ids, syncs", [((0,), True), ((1,), False)])
async def test_only_the_process_running_shard_0_syncs_the_commands(database_path, shard_ids, syncs):
    bot = make_bot(database_path, shard_count=2, shard_ids=shard_ids)
    env = Env(bot, strict_sync=False)
    await env.start()
    try:
        puts = [r for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]
        assert bool(puts) is syncs
    finally:
        await env.shutdown()
        await close_bot(bot)
    env.raise_errors()


async def test_each_shard_s_sweeps_read_only_its_servers_games(tmp_path):
    path = tmp_path / "wari.sqlite3"
    stores = [await Store.open(path, shards=ShardScope(2, (shard,))) for shard in (0, 1)]
    try:
        now = discord.utils.utcnow()
        made = {}
        for shard in (0, 1):
            made[shard] = await stores[shard].games.add_challenge(
                guild_id=guild_id_on(shard, 2),
                channel_id=100 + shard,
                challenger_id=1,
                opponent_id=2,
                variant="wari",
                first="me",
                created_at=now,
                expires_at=now,
            )
        for shard in (0, 1):
            assert [c.id for c in await stores[shard].games.due_challenges(now)] == [made[shard].id]
        everyone = await Store.open(path)
        assert len(await everyone.games.due_challenges(now)) == 2
        await everyone.close()
    finally:
        for store in stores:
            await store.close()
