"""User stories: what a tournament says. A Swiss with more rounds than its players can be paired
in says so before it starts, warns when it starts, and says why it ends early; ratings read as
everywhere else (``1500?`` while provisional); format names are written alike; and the
``tournament`` option suggests the server's events, newest first."""

from __future__ import annotations

import pytest

from tests.cogs.test_database_outage import database_away
from tests.cogs.test_tournaments import create, event, gathered, members, play_round, posted
from tests.helpers import pinged

pytestmark = pytest.mark.simcord(settle_timeout=120)


async def test_a_swiss_with_more_rounds_than_its_players_can_pair_warns_at_its_start_and_says_why_it_ends_early(
    world,
):
    players, by_id, signup = await gathered(
        world, 4, name="Long", format="swiss", starts="in 1 hour", rounds=5, clock="1d/move"
    )
    assert "5 rounds need at least 5 players" in signup.embeds[0].description  # said at once, before anyone joins
    await world.mod.slash(world.channel, "wari-mod tournament start")
    (announcement,) = [m for m in posted(world) if "round 1" in m.content]
    assert "4 players can play at most 3 rounds" in announcement.content
    assert f"<@{world.mod.id}>" in announcement.content  # the moderator who made it is told
    assert "at most 3 rounds" in signup.embeds[0].description
    for number in range(1, 4):
        await play_round(world, by_id, number)
    finished = await event(world)
    assert finished.row.status == "finished" and finished.row.round == 3
    (ending,) = [m for m in world.channel.history() if "**Long** is over" in m.content]
    assert "Round 4 could not be paired" in ending.content
    assert f"<@{world.mod.id}>" in ending.content


async def test_the_warning_reaches_a_moderator_who_plays_in_the_swiss_they_made(world):
    """The round's message pings its players and the moderator who made the event once each, even
    when the moderator is one of the players (Discord refuses a user listed twice: the round was
    never announced)."""
    _players, by_id, signup = await gathered(
        world, 3, name="Long", format="swiss", starts="in 1 hour", rounds=5, clock="1d/move"
    )
    await world.mod.click(signup, label="Join")
    await world.mod.slash(world.channel, "wari-mod tournament start")
    (announcement,) = [m for m in posted(world) if "round 1" in m.content]
    assert "4 players can play at most 3 rounds" in announcement.content
    assert world.mod.id in pinged(world, announcement)


async def test_a_swiss_its_players_can_pair_through_says_nothing_of_rounds_left_over(world):
    _players, by_id, signup = await gathered(
        world, 4, name="Short", format="swiss", starts="in 1 hour", rounds=2, clock="1d/move"
    )
    assert "need at least" not in signup.embeds[0].description
    await world.mod.slash(world.channel, "wari-mod tournament start")
    for number in range(1, 3):
        await play_round(world, by_id, number)
    (ending,) = [m for m in world.channel.history() if "**Short** is over" in m.content]
    assert "could not be paired" not in ending.content and "at most" not in "".join(m.content for m in posted(world))


async def test_the_sign_up_list_marks_provisional_ratings_and_format_names_are_capitalised_alike(world):
    _players, _by_id, signup = await gathered(world, 2, name="Fresh", format="round-robin", starts="in 1 hour")
    description = signup.embeds[0].description
    assert "Round-robin ·" in description
    assert "1. p1 (1500?)" in description and "2. p2 (1500?)" in description
    arena = await create(world, name="Quick", format="arena", starts="in 1 hour")
    assert arena.embeds[0].description.startswith("Arena ·")
    listed = (await world.alice.slash(world.channel, "wari tournament list")).response.content
    assert "Round-robin ·" in listed and "Arena ·" in listed


async def test_the_tournament_option_suggests_the_servers_events_newest_first_and_nothing_while_the_database_is_away(
    world, request, caplog
):
    await create(world, name="Autumn Swiss", format="swiss", starts="in 1 hour")
    await create(world, name="Winter Arena", format="arena", starts="in 2 hours")
    members(world, 1)
    offered = await world.alice.autocomplete(world.channel, "wari tournament join", "tournament", "")
    assert [(c["name"], c["value"]) for c in offered] == [("#2 Winter Arena", 2), ("#1 Autumn Swiss", 1)]
    typed = await world.mod.autocomplete(world.channel, "wari-mod tournament cancel", "tournament", "aut")
    assert [c["value"] for c in typed] == [1]
    async with database_away(world, request):
        assert await world.alice.autocomplete(world.channel, "wari tournament standings", "tournament", "") == []
    assert world.env.errors == []
    assert not [record for record in caplog.records if record.exc_info], "a traceback was logged"
