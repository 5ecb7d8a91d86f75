"""User stories: roles that call players and rating-tier roles (issue 37). A moderator picks the
role pinged when a tournament opens and starts, and the one pinged when someone seeks a game;
members take those roles with ``/wari notify``; the bot keeps rating-tier roles in step after
rated games; without Manage Roles, or with a role above its own, everyone is told clearly."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest

from cogs.wari import tiers as tier_roles_module
from tests.helpers import surrender, told

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


def bot_loses(world, permission: str) -> None:
    """A server admin takes ``permission`` (``manage_roles``, ``mention_everyone``) away from the
    bot's own role."""
    backend = world.env.backend
    (mine,) = [role for role in backend.get_guild(world.guild.id).roles.values() if role.managed]
    permissions = discord.Permissions(mine.permissions)
    setattr(permissions, permission, False)
    backend.edit_role(world.guild.id, mine.id, {"permissions": permissions.value})


def without_manage_roles(world) -> None:
    bot_loses(world, "manage_roles")


def posted_calls(world) -> list:
    """The calls posted in the channel, whether Discord let them notify anyone or not."""
    return [m for m in world.channel.history() if m.content.startswith("📣")]


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
    said = await choose(admin, world, stop="tiers")
    assert "🏅 Rating-tier roles: off" in said
    await world.env.advance_time(30)
    assert role_ids(world, ama) == {artists.id}  # turned off: the bands' roles deleted, Artists kept
    await rated_win(world, ama, world.carol)
    assert role_ids(world, ama) == {artists.id}  # nothing changes any more


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


MAY_NOTIFY_NOBODY = (
    "⚠️ My pings of **Seekers** may notify nobody: Discord notifies a role only if it is mentionable "
    "or I have the **Mention @everyone, @here and All Roles** permission in the channel of the call, "
    "and I do not have it server-wide. Turn on *Allow anyone to @mention this role* in Server "
    "Settings → Roles → Seekers, or give me that permission in the server or in the channels where "
    "tournaments and seeks happen."
)


async def test_a_calling_role_that_would_notify_nobody_is_kept_and_the_moderator_is_told_how_to_fix_it(world, admin):
    seekers = world.guild.create_role("Seekers")  # a new role: not mentionable by anyone
    bot_loses(world, "mention_everyone")
    said = await choose(admin, world, seeks=seekers)
    assert "🔎 Seek calls: **Seekers**" in said  # kept
    assert MAY_NOTIFY_NOBODY in said
    world.env.backend.edit_role(world.guild.id, seekers.id, {"mentionable": True})  # the moderator's fix
    assert "⚠️" not in await choose(admin, world)
    await world.carol.slash(world.channel, "wari notify", what="seeks")
    await world.alice.slash(world.channel, "wari seek", clock="5+3")
    ((_call, stored),) = calls(world)
    assert stored.ping_role_ids == [seekers.id]  # and the call notifies the role


async def test_a_call_whose_role_became_unmentionable_still_goes_out_and_is_logged_once(world, admin, caplog):
    seekers = world.guild.create_role("Seekers")
    await choose(admin, world, seeks=seekers)  # the bot may mention every role: nothing to warn of
    await world.carol.slash(world.channel, "wari notify", what="seeks")
    bot_loses(world, "mention_everyone")
    await world.alice.slash(world.channel, "wari seek", clock="5+3")
    (call,) = posted_calls(world)
    assert "**alice** is looking for a game" in call.content  # the text still says who waits
    assert world.env.backend.messages[world.channel.id][call.id].ping_role_ids == []  # Discord notified nobody
    await world.env.advance_time(31 * 60)
    await world.bob.slash(world.channel, "wari seek", clock="10+5")
    assert len(posted_calls(world)) == 2
    unheard = [r for r in caplog.records if "would notify nobody" in r.getMessage()]
    assert len(unheard) == 1 and str(seekers.id) in unheard[0].getMessage()
    assert unheard[0].levelname == "WARNING" and not unheard[0].exc_info


async def test_turning_tiers_on_gives_the_servers_rated_players_their_band_role_in_the_background(world, admin):
    dan = world.guild.add_member(world.env.create_user("dan"))
    await rated_win(world, world.alice, world.bob)
    await rated_win(world, world.carol, dan)
    world.guild.remove_member(dan)  # rated here, then left: skipped
    before = world.env.now()
    said = await choose(admin, world, tiers=100)
    assert "I'm giving the 4 rated players of this server the role of their band, in the background" in said
    # SimCord settles the bot's background work on its own clock: one player a second, not all at once.
    assert world.env.now() - before >= timedelta(seconds=3)
    await world.env.advance_time(30)
    bands = await tier_roles(world)
    for member in (world.alice, world.bob, world.carol):
        assert role_ids(world, member) == {bands[(await wari_points(world, member)) // 100 * 100]}
    assert role_ids(world, world.mod) == {world.guild.roles["Moderators"].id}  # not rated: untouched
    assert not world.env.errors


async def test_a_new_band_width_deletes_the_old_bands_roles_the_bot_made_and_gives_the_new_ones(world, admin):
    artists = world.guild.create_role("Artists")
    ama = world.guild.add_member(world.env.create_user("ama"), roles=[artists])
    await rated_win(world, ama, world.bob)
    await choose(admin, world, tiers=200)
    await world.env.advance_time(30)
    old = await tier_roles(world)
    old_names = sorted(world.env.backend.get_role(world.guild.id, role_id).name for role_id in old.values())
    assert len(old) == 2 and old_names[0].startswith("Wari ")
    said = await choose(admin, world, tiers=100)
    assert "🏅 Rating-tier roles: bands of 100 points" in said
    assert f"I'm deleting the roles I made for the old bands: **{old_names[0]}**, **{old_names[1]}**." in said
    await world.env.advance_time(30)
    guild_roles = set(world.env.backend.get_guild(world.guild.id).roles)
    assert not set(old.values()) & guild_roles  # gone from the server, so from every member
    new = await tier_roles(world)
    assert role_ids(world, ama) == {artists.id, new[(await wari_points(world, ama)) // 100 * 100]}
    assert role_ids(world, world.bob) == {new[(await wari_points(world, world.bob)) // 100 * 100]}
    assert artists.id in guild_roles


async def test_stopping_tiers_tells_which_old_roles_the_moderator_must_delete_when_the_bot_cannot(world, admin):
    await rated_win(world, world.alice, world.bob)
    await choose(admin, world, tiers=200)
    await world.env.advance_time(30)
    bands = await tier_roles(world)
    (high, low) = sorted(bands, reverse=True)
    high_name = world.env.backend.get_role(world.guild.id, bands[high]).name
    low_name = world.env.backend.get_role(world.guild.id, bands[low]).name
    world.env.backend.edit_role(world.guild.id, bands[high], {"position": 60})  # a moderator moved it above mine
    said = await choose(admin, world, stop="tiers")
    assert f"I'm deleting the roles I made for the old bands: **{low_name}**." in said
    assert (
        f"I cannot delete these roles I made for the old bands (they are above my own highest role, or I "
        f"lack **Manage Roles**): **{high_name}**. You may delete them in Server Settings → Roles."
    ) in said
    await world.env.advance_time(30)
    guild_roles = set(world.env.backend.get_guild(world.guild.id).roles)
    assert bands[high] in guild_roles and bands[low] not in guild_roles
    assert not world.env.errors


def test_a_moderators_answer_names_twelve_old_roles_at_most_and_counts_the_others():
    from cogs.wari.tiers import TierChange

    (note,) = TierChange(deleting=tuple(f"**Wari {n}**" for n in range(15))).notes()
    assert note == (
        "I'm deleting the roles I made for the old bands: "
        + ", ".join(f"**Wari {n}**" for n in range(12))
        + " and 3 more."
    )


def calls_channel(world):
    """A #calls channel where the bot may mention every role (a moderator granted it there alone)."""
    return world.guild.create_text_channel(
        "calls", overwrites={world.me: discord.PermissionOverwrite(mention_everyone=True)}
    )


async def test_a_role_the_bot_may_mention_only_in_some_channels_is_said_to_maybe_notify_nobody(world, admin, caplog):
    """The docs tell moderators they may grant the mention permission per channel: the server-wide
    warning says "may", and a call in a channel where the bot has it notifies and logs nothing."""
    seekers = world.guild.create_role("Seekers")
    bot_loses(world, "mention_everyone")
    calls_here = calls_channel(world)
    said = await choose(admin, world, seeks=seekers)
    assert MAY_NOTIFY_NOBODY in said and "would notify nobody" not in said
    await world.carol.slash(world.channel, "wari notify", what="seeks")
    await world.alice.slash(calls_here, "wari seek", clock="5+3")
    ((_call, stored),) = calls(world, calls_here)
    assert stored.ping_role_ids == [seekers.id]  # heard there
    assert not [r for r in caplog.records if "would notify nobody" in r.getMessage()]


async def test_calls_alternating_between_a_channel_that_hears_and_one_that_does_not_are_logged_once(
    world, admin, caplog
):
    seekers = world.guild.create_role("Seekers")
    bot_loses(world, "mention_everyone")
    calls_here = calls_channel(world)
    await choose(admin, world, seeks=seekers)
    for channel, player in ((world.channel, world.alice), (calls_here, world.bob), (world.channel, world.carol)):
        await player.slash(channel, "wari seek", clock="5+3")
        await world.env.advance_time(31 * 60)  # the search ends, and the seek calls' cooldown
    assert len(posted_calls(world)) == 2  # both calls in #games went out
    unheard = [r for r in caplog.records if "would notify nobody" in r.getMessage()]
    assert len(unheard) == 1 and str(world.channel.id) in unheard[0].getMessage()


async def bands_of_two_hundred(world, admin) -> tuple:
    """Ama beats Bob: two bands of 200 points, each with its role held by one of them (Ama, and
    the bands' roles)."""
    ama = world.guild.add_member(world.env.create_user("ama"))
    await rated_win(world, ama, world.bob)
    await choose(admin, world, tiers=200)
    await world.env.advance_time(30)
    old = await tier_roles(world)
    assert len(old) == 2
    return ama, old


def server_role_ids(world) -> set[int]:
    return set(world.env.backend.get_guild(world.guild.id).roles)


async def test_the_old_bands_roles_are_deleted_even_when_the_bot_restarts_before_it_is_done(world, admin, monkeypatch):
    _ama, old = await bands_of_two_hundred(world, admin)
    monkeypatch.setattr(tier_roles_module, "PACE", 600)  # a slow hand-out: the restart comes first
    said = await choose(admin, world, tiers=100)
    assert "I'm deleting the roles I made for the old bands" in said
    # How far the hand-out got before the restart is SimCord's to say (it settles the bot by letting
    # time run through its pauses, further under load): whatever is left, the next process deletes.
    # The same path, made certain by a refused deletion: test_a_role_discord_refuses_to_delete_...
    await world.restart()
    await world.env.advance_time(30 * 60)
    assert not set(old.values()) & server_role_ids(world)  # the new process deleted what was left
    # Nothing retired is left to delete (a retired band is kept under its role's id, negated); the
    # new bands the hand-out made meanwhile, if it got to the players, are the new width's.
    assert all(lowest >= 0 and lowest % 100 == 0 for lowest in await tier_roles(world))
    assert not set(old.values()) & set((await tier_roles(world)).values())
    assert not world.env.errors


async def test_a_second_width_while_the_first_is_handed_out_still_deletes_every_old_role(world, admin, monkeypatch):
    _ama, old = await bands_of_two_hundred(world, admin)
    monkeypatch.setattr(tier_roles_module, "PACE", 600)
    await choose(admin, world, tiers=100)  # stopped by the next change before its end
    monkeypatch.setattr(tier_roles_module, "PACE", 1)
    said = await choose(admin, world, tiers=50)
    assert "I'm deleting the roles I made for the old bands" in said
    await world.env.advance_time(60)
    assert not set(old.values()) & server_role_ids(world)
    bands = await tier_roles(world)
    assert bands and all(lowest % 50 == 0 and lowest >= 0 for lowest in bands)


async def test_a_role_discord_refuses_to_delete_does_not_stop_the_others_nor_the_hand_out(world, admin, caplog):
    _ama, old = await bands_of_two_hundred(world, admin)
    first, second = sorted(old.values())
    world.env.inject_error("DELETE", f"/guilds/{world.guild.id}/roles/{first}", status=403, code=50013)
    await choose(admin, world, tiers=100)
    await world.env.advance_time(60)
    assert first in server_role_ids(world) and second not in server_role_ids(world)
    new = await tier_roles(world)
    assert role_ids(world, world.bob) - {first} == {new[(await wari_points(world, world.bob)) // 100 * 100]}
    refused = [r for r in caplog.records if f"could not delete the old tier role {first}" in r.getMessage()]
    assert len(refused) == 1 and refused[0].levelname == "WARNING" and not refused[0].exc_info
    await world.restart()  # kept retired: the next start deletes it
    await world.env.advance_time(60)
    assert first not in server_role_ids(world)


async def test_two_width_changes_at_once_in_one_server_run_one_after_the_other(world, admin, monkeypatch):
    """Two moderators change the width at the same moment (SimCord runs one command at a time, so
    the bot's own two changes are raced): the second waits for the first and stops its hand-out,
    so one hand-out runs, and only the last width's roles are left."""
    import asyncio

    ama, old = await bands_of_two_hundred(world, admin)
    # Started from the test, the hand-out is not on SimCord's clock: no pause between players.
    monkeypatch.setattr(tier_roles_module, "PACE", 0)
    guild = world.env.bot.get_guild(world.guild.id)
    tiers = world.env.bot.get_cog("Wari").tiers
    await asyncio.gather(tiers.change(guild, 100), tiers.change(guild, 50))
    running = [task for task in asyncio.all_tasks() if task.get_name() == f"wari-tiers-{world.guild.id}"]
    live = [task for task in running if not task.done()]
    assert len(live) == 1  # the first change's hand-out was stopped
    await asyncio.wait(live)
    assert not set(old.values()) & server_role_ids(world)
    bands = await tier_roles(world)
    assert all(lowest % 50 == 0 and lowest >= 0 for lowest in bands)
    for member in (ama, world.bob):
        assert role_ids(world, member) == {bands[(await wari_points(world, member)) // 50 * 50]}
    assert not world.env.errors


#: Discord's interaction callback "thinking…, the answer follows" (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE).
DEFERRED = 5


async def test_setting_the_tiers_answers_at_once_and_hands_out_page_by_page(world, admin, monkeypatch):
    """Counting a large server's players takes time: the answer is deferred first (Discord waits
    three seconds), and the players are read a page at a time by user id."""
    from bot.service import roles as role_service

    monkeypatch.setattr(role_service, "PAGE", 2)
    dan = world.guild.add_member(world.env.create_user("dan"))
    await rated_win(world, world.alice, world.bob)
    await rated_win(world, world.carol, dan)
    before = len(world.env.backend.http_requests)
    answer = await admin.slash(world.channel, "wari-mod roles", tiers=100)
    first = world.env.backend.http_requests[before]
    assert first.path.endswith("/callback") and first.json["type"] == DEFERRED  # before any work
    (said,) = told(answer)
    assert said.ephemeral
    assert "I'm giving the 4 rated players of this server the role of their band" in said.content
    await world.env.advance_time(30)
    bands = await tier_roles(world)
    for member in (world.alice, world.bob, world.carol, dan):
        assert role_ids(world, member) == {bands[(await wari_points(world, member)) // 100 * 100]}
