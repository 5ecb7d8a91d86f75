"""User stories: a tournament that comes back every week by itself, its shield passing from winner
to winner, its players' role called to each edition's sign-up and start, and every tournament shown
in the server's Events (a Discord scheduled event), kept in step as it starts and ends; moderators
list, change and stop a schedule."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest

from tests.cogs.test_tournaments import create, event, finish

# Weeks pass in these stories: SimCord settles the bot at each sweep on the way.
pytestmark = pytest.mark.simcord(settle_timeout=120)

WEEK = 7 * 24 * 3600
#: Discord's statuses of a scheduled event: scheduled, active, completed, cancelled.
SCHEDULED, ACTIVE, COMPLETED, CANCELLED = 1, 2, 3, 4


@pytest.fixture(autouse=True)
def half_hourly_sweeps(world):
    """Weeks pass here: the bot's sweep and heartbeat run every half hour instead of every 30
    seconds, so that SimCord settles a week in 336 sweeps, not 20,160 (the sweep is the same)."""
    cog = world.env.bot.get_cog("Wari")
    for loop in (cog.sweep, cog.heartbeat):
        loop.change_interval(minutes=30)


def discord_events(world) -> dict:
    """The server's scheduled events, as Discord keeps them, by id."""
    return world.env.backend.get_guild(world.guild.id).scheduled_events


def signups(world) -> list:
    return [m for m in world.channel.history() if m.embeds and "· tournament #" in (m.embeds[0].title or "")]


def signup_of(world, number: int):
    return next(m for m in signups(world) if f"· tournament #{number}" in m.embeds[0].title)


async def play_edition(world, number: int, winner, loser) -> None:
    """Both join edition ``number`` from its sign-up message, the start comes, ``winner`` beats
    ``loser`` once the arena's time is up, and the sweep ends it."""
    for member in (winner, loser):
        await member.click(signup_of(world, number), label="Join")
    row = (await event(world, number)).row
    await world.env.advance_time((row.starts_at - discord.utils.utcnow()).total_seconds() + 60)
    current = await event(world, number)
    assert current.row.status == "running", current.row.status
    await world.env.advance_time(((current.row.duration or 0) + 1) * 60)  # the arena ends during its first game
    (pairing,) = (await event(world, number)).open_pairings
    by_id = {winner.id: winner, loser.id: loser}
    await finish(world, by_id, pairing, "first" if pairing.first_id == winner.id else "second")
    await world.env.advance_time(30 * 60)
    assert (await event(world, number)).row.status == "finished"


def role_calls(world) -> list[tuple[str, list[int]]]:
    """The channel's messages that notify a role: their text, and the roles they notify."""
    stored = world.env.backend.messages[world.channel.id]
    return [(m.content, stored[m.id].ping_role_ids) for m in world.channel.history() if stored[m.id].ping_role_ids]


async def test_a_weekly_arena_runs_three_editions_by_itself_and_its_shield_passes_to_each_winner(world):
    rights = discord.Permissions(manage_roles=True, manage_messages=True)
    managers = world.guild.create_role("Managers", permissions=rights)
    admin = world.guild.add_member(world.env.create_user("admin"), roles=[managers])
    players = world.guild.create_role("Arena players")
    assert (await admin.slash(world.channel, "wari-mod roles", tournaments=players)).ephemeral
    signup = await create(
        world,
        name="Friday Arena",
        format="arena",
        starts="in 1 hour",
        duration=5,
        clock="1h/move",
        repeat="weekly",
        editions=3,
        title="Oware Shield",
    )
    assert "Friday Arena · tournament #1" in signup.embeds[0].title
    first = (await event(world, 1)).row
    (listed,) = discord_events(world).values()  # the tournament is in the server's Events
    assert listed.id == first.discord_event_id and listed.name == "Friday Arena"
    assert listed.entity_type == 3 and listed.entity_metadata == {"location": "#games"}
    assert listed.status == SCHEDULED

    await play_edition(world, 1, world.alice, world.bob)
    second = (await event(world, 2)).row  # made when the first started, a week after it
    assert (second.schedule_id, second.edition) == (first.schedule_id, 2)
    assert second.starts_at == first.starts_at + timedelta(weeks=1)
    assert (second.format, second.duration, second.clock) == ("arena", 5, "1h/move")
    assert discord_events(world)[first.discord_event_id].status == COMPLETED
    assert discord_events(world)[second.discord_event_id].status == SCHEDULED
    podium = next(m for m in world.channel.history() if "is over" in (m.content or ""))
    assert "🛡️ The **Oware Shield** passes to alice." in podium.content
    titles = await world.env.bot.store.schedules.titles_of(world.alice.id, world.guild.id)
    assert [(t.title, t.tournament_id) for t in titles] == [("Oware Shield", 1)]

    await play_edition(world, 2, world.bob, world.alice)  # the shield changes hands
    await play_edition(world, 3, world.alice, world.carol)
    assert [row.edition for row in [(await event(world, n)).row for n in (1, 2, 3)]] == [1, 2, 3]
    assert await world.env.bot.store.schedules.edition(first.schedule_id, 4) is None  # 3 editions in all
    assert len(signups(world)) == 3 and len(discord_events(world)) == 3
    assert all(e.status == COMPLETED for e in discord_events(world).values())
    store = world.env.bot.store.schedules
    assert [t.tournament_id for t in await store.titles_of(world.alice.id, world.guild.id)] == [3, 1]
    assert [t.tournament_id for t in await store.titles_of(world.bob.id, world.guild.id)] == [2]
    listing = await world.alice.slash(world.channel, "wari tournament list")
    assert "🛡️ Oware Shield (held by alice)" in listing.response.content
    # The players' role was called to each edition twice, in order: its sign-up, then its start (the
    # next edition's sign-up is posted as one starts), and nobody else was notified by those calls.
    said = [(text.split("** ")[1].split(":")[0], roles) for text, roles in role_calls(world)]
    assert said == [("is open for sign-up", [players.id]), ("has started", [players.id])] * 3, said
    opened = [text for text, _roles in role_calls(world) if "is open for sign-up" in text]
    assert [next(m.id for m in signups(world) if str(m.id) in text) for text in opened] == [
        signup_of(world, n).id for n in (1, 2, 3)
    ]


async def test_a_stopped_schedule_makes_no_further_edition(world):
    await create(world, name="Daily Blitz", format="arena", starts="in 1 hour", duration=5, repeat="daily")
    stopped = await world.mod.slash(world.channel, "wari-mod schedule stop", schedule=1)
    assert stopped.ephemeral and "Schedule #1 is stopped" in stopped.response.content
    await play_edition(world, 1, world.alice, world.bob)
    assert await world.env.bot.store.schedules.edition(1, 2) is None
    assert len(signups(world)) == 1
    listing = await world.mod.slash(world.channel, "wari-mod schedule list")
    assert "stopped" in listing.response.content


async def test_an_edited_schedule_gives_its_next_edition_the_change(world):
    await create(
        world, name="Weekly Swiss", format="arena", starts="in 1 hour", duration=5, clock="1h/move", repeat="weekly"
    )
    edited = await world.mod.slash(
        world.channel, "wari-mod schedule edit", schedule=1, duration=10, title="Club Shield"
    )
    assert edited.ephemeral and "Schedule changed" in edited.response.content, edited.response.content
    assert (await event(world, 1)).row.duration == 10  # the edition still to start takes it
    assert "10 minutes" in signup_of(world, 1).embeds[0].description
    await play_edition(world, 1, world.alice, world.bob)
    following = (await event(world, 2)).row
    assert following.duration == 10  # and the ones after copy it
    podium = next(m for m in world.channel.history() if "is over" in (m.content or ""))
    assert "**Club Shield** passes to alice" in podium.content


async def test_without_manage_events_the_moderator_is_told_once_and_the_tournament_runs(world):
    (bot_role,) = [r for r in world.env.backend.get_guild(world.guild.id).roles.values() if r.managed]
    without = discord.Permissions(bot_role.permissions)
    without.manage_events = False
    world.env.backend.edit_role(world.guild.id, bot_role.id, {"permissions": without.value})

    made = await world.mod.slash(
        world.channel,
        "wari-mod tournament create",
        name="Quiet Cup",
        format="arena",
        starts="in 1 hour",
        duration=5,
        repeat="weekly",
    )
    assert not made.ephemeral  # the sign-up message, for everyone
    (told,) = made.followups
    assert told.flags.ephemeral and "**Manage Events**" in told.content
    assert discord_events(world) == {}
    await play_edition(world, 1, world.alice, world.bob)  # it runs all the same, and comes back
    assert (await event(world, 1)).row.discord_event_status == "refused"
    assert (await event(world, 2)).row.status == "open" and discord_events(world) == {}
