"""User stories: roles that call players and rating-tier roles (issue 37). A moderator picks the
role pinged when a tournament opens and starts, and the one pinged when someone seeks a game;
members take those roles with ``/wari notify``; the bot keeps rating-tier roles in step after
rated games; without Manage Roles, or with a role above its own, everyone is told clearly."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest

from tests.helpers import surrender

# Half an hour passes in a story: SimCord settles the bot at each sweep on the way.
pytestmark = pytest.mark.simcord(settle_timeout=120)


@pytest.fixture
def admin(world):
    """A member allowed to choose the roles: Manage Roles (and the moderators' Manage Messages)."""
    admins = world.guild.create_role("Admins", permissions=discord.Permissions(manage_roles=True, manage_messages=True))
    return world.guild.add_member(world.env.create_user("admin"), roles=[admins])


def role_ids(world, member) -> set[int]:
    """The roles Discord holds for ``member`` (SimCord's model of the server), @everyone aside."""
    return set(world.env.backend.get_member(world.guild.id, member.id).role_ids)


def calls(world, channel=None) -> list:
    """The messages of the channel that notify a role, with the roles they notify."""
    channel = channel or world.channel
    stored = world.env.backend.messages[channel.id]
    return [(m, stored[m.id]) for m in channel.history() if stored[m.id].ping_role_ids]


def without_manage_roles(world) -> None:
    """A server admin takes Manage Roles away from the bot's own role."""
    backend = world.env.backend
    (mine,) = [role for role in backend.get_guild(world.guild.id).roles.values() if role.managed]
    permissions = discord.Permissions(mine.permissions)
    permissions.manage_roles = False
    backend.edit_role(world.guild.id, mine.id, {"permissions": permissions.value})


async def choose(admin, world, **options) -> str:
    answer = await admin.slash(world.channel, "wari-mod roles", **options)
    assert answer.ephemeral
    return answer.response.content


async def rated_win(world, winner, loser) -> None:
    board = (await winner.slash(world.channel, "wari challenge", opponent=loser, first="me")).response
    await loser.click(board, label="Accept")
    await surrender(loser, world.channel)


async def test_members_take_and_give_back_the_seek_role_themselves_privately(world, admin):
    seekers = world.guild.create_role("Seekers")
    artists = world.guild.create_role("Artists")
    alice = world.guild.add_member(world.env.create_user("ama"), roles=[artists])
    refused = await alice.slash(world.channel, "wari notify", what="seeks")
    assert refused.ephemeral and "no role for these calls yet" in refused.response.content
    said = await choose(admin, world, seeks=seekers)
    assert "🔎 Seek calls: **Seekers**" in said and "at most once every 30 minutes" in said
    taken = await alice.slash(world.channel, "wari notify", what="seeks")
    assert taken.ephemeral and taken.response.content.startswith("🔔 You have the role **Seekers**")
    assert role_ids(world, alice) == {artists.id, seekers.id}
    given_back = await alice.slash(world.channel, "wari notify", what="seeks", on="off")
    assert given_back.ephemeral and given_back.response.content.startswith("🔕 You no longer have the role **Seekers**")
    assert role_ids(world, alice) == {artists.id}  # her other role untouched


async def test_a_seek_pings_the_seek_role_once_and_not_again_within_the_cooldown(world, admin):
    seekers = world.guild.create_role("Seekers")
    await choose(admin, world, seeks=seekers)
    await world.carol.slash(world.channel, "wari notify", what="seeks")
    waiting = (await world.alice.slash(world.channel, "wari seek", clock="5+3")).response
    ((call, stored),) = calls(world)
    assert stored.ping_role_ids == [seekers.id] and stored.ping_user_ids == [] and not stored.mention_everyone
    assert call.content.startswith(f"📣 <@&{seekers.id}> **alice** is looking for a game: press **Play** on")
    assert str(waiting.id) in call.content  # a link to her search
    await world.alice.click(waiting, label="Cancel")
    await world.alice.slash(world.channel, "wari seek", clock="5+3")  # seeks again: no second call
    await world.bob.slash(world.channel, "wari seek", clock="10+5")  # another player, within the cooldown
    assert len(calls(world)) == 1
    await world.env.advance_time(31 * 60)  # both searches end; the cooldown is over
    await world.bob.slash(world.channel, "wari seek", clock="10+5")
    assert len(calls(world)) == 2
    await world.restart()  # the cooldown is the database's: a new process does not call again
    await world.carol.slash(world.channel, "wari seek", clock="1d/move")
    assert len(calls(world)) == 2


async def test_the_tournament_role_is_pinged_at_sign_up_and_at_the_start_only(world, admin):
    players = world.guild.create_role("Tournament players")
    await choose(admin, world, tournaments=players)
    entrants = [world.guild.add_member(world.env.create_user(f"p{n}")) for n in (1, 2)]
    made = await world.mod.slash(
        world.channel, "wari-mod tournament create", name="Duel", format="swiss", starts="in 1 hour", rounds=2
    )
    signup = made.response
    ((opened, stored),) = calls(world)
    assert stored.ping_role_ids == [players.id] and stored.ping_user_ids == []
    assert opened.content == (
        f"📣 <@&{players.id}> **Duel** is open for sign-up: press **Join** on "
        f"[its message](https://discord.com/channels/{world.guild.id}/{world.channel.id}/{signup.id})."
    )
    for member in entrants:
        await member.click(signup, label="Join")
    await world.mod.slash(world.channel, "wari-mod tournament start")
    (_opened, (started, stored)) = calls(world)
    (thread,) = world.channel.threads
    assert stored.ping_role_ids == [players.id]
    assert started.content == (
        f"📣 <@&{players.id}> **Duel** has started: its games are in "
        f"[its thread](https://discord.com/channels/{world.guild.id}/{thread.id})."
    )
    await world.restart()
    await world.env.advance_time(90)  # the sweeps step the event again: nobody is called twice
    await surrender(entrants[0], thread)  # round 1 ends, round 2 starts: no call either
    await world.env.advance_time(90)
    assert len(calls(world)) == 2


async def tier_roles(world) -> dict[int, int]:
    rows = await world.env.bot.store.database.read("SELECT lowest, role_id FROM tier_roles ORDER BY lowest")
    return {row["lowest"]: row["role_id"] for row in rows}


async def wari_points(world, member) -> int:
    return (await world.env.bot.store.ratings.rating_in(member.id, "wari")).points


async def test_tier_roles_follow_a_rating_across_bands_and_leave_other_roles_alone(world, admin):
    said = await choose(admin, world, tiers=100)
    assert "🏅 Rating-tier roles: bands of 100 points" in said
    artists = world.guild.create_role("Artists")
    ama = world.guild.add_member(world.env.create_user("ama"), roles=[artists])
    await rated_win(world, ama, world.bob)  # Ama climbs, Bob falls
    up = await wari_points(world, ama)
    bands = await tier_roles(world)
    high = bands[up // 100 * 100]
    assert world.guild.roles[f"Wari {up // 100 * 100}–{up // 100 * 100 + 99}"].id == high
    assert role_ids(world, ama) == {artists.id, high}
    assert role_ids(world, world.bob) == {bands[(await wari_points(world, world.bob)) // 100 * 100]}
    await rated_win(world, world.carol, ama)  # Ama falls to a lower band
    down = await wari_points(world, ama)
    assert down // 100 < up // 100
    low = (await tier_roles(world))[down // 100 * 100]
    assert role_ids(world, ama) == {artists.id, low}  # the higher band's role taken away, Artists kept
    await choose(admin, world, stop="tiers")
    await rated_win(world, ama, world.carol)
    assert role_ids(world, ama) == {artists.id, low}  # turned off: nothing changes any more


async def test_without_manage_roles_or_with_a_role_above_mine_everyone_is_told_clearly(world, admin):
    seekers = world.guild.create_role("Seekers")
    above = world.guild.create_role("Staff", position=50)
    powerful = world.guild.create_role("Helpers", permissions=discord.Permissions(manage_messages=True))
    refused = await world.mod.slash(world.channel, "wari-mod roles", seeks=seekers)
    assert refused.ephemeral and refused.response.content == (
        "Only members with the Manage Roles permission can choose the roles I give and ping."
    )
    assert "not below my own highest role" in await choose(admin, world, seeks=above)
    assert "must grant no permission that @everyone lacks" in await choose(admin, world, seeks=powerful)
    assert "🔎 Seek calls: none" in await choose(admin, world)  # nothing refused was kept
    await choose(admin, world, seeks=seekers)
    without_manage_roles(world)
    needs = "I need the **Manage Roles** permission in this server to give roles. Ask a moderator to grant it."
    assert await choose(admin, world, tiers=200) == needs
    refused = await world.alice.slash(world.channel, "wari notify", what="seeks")
    assert refused.ephemeral and refused.response.content == needs
    assert seekers.id not in role_ids(world, world.alice)
    assert not [e for e in world.env.errors if not isinstance(e, discord.app_commands.AppCommandError)]


async def test_a_call_claimed_is_made_once_whatever_the_timing(world):
    """The database says which calls were made: a server's seek call again only after its cooldown."""
    settings = world.env.bot.store.settings
    now = world.env.now()
    assert await settings.claim_call(1, "seek", now, again_after=timedelta(minutes=30))
    assert not await settings.claim_call(1, "seek", now + timedelta(minutes=29), again_after=timedelta(minutes=30))
    assert await settings.claim_call(2, "seek", now, again_after=timedelta(minutes=30))  # another server's
    assert await settings.claim_call(1, "seek", now + timedelta(minutes=30), again_after=timedelta(minutes=30))
    assert await settings.claim_call(1, "tournament:1:open", now, again_after=None)
    assert not await settings.claim_call(1, "tournament:1:open", now + timedelta(days=400), again_after=None)
