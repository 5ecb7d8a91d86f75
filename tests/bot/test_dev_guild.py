"""With DEV_GUILD_ID set, commands are synced to that server at every start (and not globally)."""

import pytest

from tests.conftest import make_bot

DEV_GUILD = 777_000_000_000_000_001


@pytest.fixture
def simcord_bot(database_path):
    return make_bot(database_path, dev_guild_id=DEV_GUILD)


async def test_commands_are_synced_to_the_development_guild(simcord_env, database_path):
    env = simcord_env
    guild = env.create_guild("Dev", id=DEV_GUILD)
    channel = guild.create_text_channel("test")
    alice = guild.add_member(env.create_user("alice"))
    puts = [r.path for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert puts == [f"/applications/{env.bot.application_id}/guilds/{DEV_GUILD}/commands"]
    assert "wari challenge" in alice.available_commands(channel)
    await env.restart_bot(make_bot(database_path, dev_guild_id=DEV_GUILD))
    assert len([r for r in env.http_requests if r.method == "PUT"]) == 2  # again, instantly
