"""User stories: a team battle (issue 37). A moderator makes an arena whose teams are two roles of
the server, the best two players of each counting; members join for the team whose role they
hold (one who holds both chooses, privately; one who holds neither is told the teams), teammates
never meet, a restart in the middle loses nothing, and the team standings at the end are those
worked out by hand from the games played. A battle with players of one team only is called off;
a recurring battle's shield goes to the winning team's best player; six teams with long names
still fit the sign-up message and the podium, whole; a recurring battle follows its roles (renamed,
deleted) and stops when fewer than two teams are left."""

from __future__ import annotations

import pytest

from bot.service import Refusal
from bot.service.tournaments import TournamentService
from tests.cogs.test_tournaments import event, finish, standings_in

# Half an hour passes in a story: SimCord settles the bot at each 30-second sweep on the way.
pytestmark = pytest.mark.simcord(settle_timeout=120)


def hand_arena_points(results: list[float]) -> int:
    """A player's arena points, worked out as a person would: a win 2, a draw 1, a loss 0; after
    two wins in a row every game counts double until one is not a win (that one still double)."""
    points, wins_in_a_row = 0, 0
    for result in results:
        worth = {1.0: 2, 0.5: 1, 0.0: 0}[result]
        points += worth * 2 if wins_in_a_row >= 2 else worth
        wins_in_a_row = wins_in_a_row + 1 if result == 1.0 else 0
    return points


def hand_points(current) -> dict[int, int]:
    """Every player's arena points from the stored games, in the order they were paired."""
    results: dict[int, list[float]] = {e.user_id: [] for e in current.entrants}
    for pairing in sorted(current.pairings, key=lambda p: (p.round, p.board)):
        results[pairing.first_id].append(pairing.result)
        results[pairing.second_id].append(1.0 - pairing.result)
    return {user: hand_arena_points(played) for user, played in results.items()}


def team_roles(world, *names: str) -> list:
    """The server's roles the teams stand for, made in the order named: the ids (and so the
    pairings) follow the order of creation, which the stories keep."""
    return [world.guild.create_role(name) for name in names]


def member(world, name: str, *roles):
    """A new member of the server named ``name``, holding ``roles``: none, one team's, or several."""
    return world.guild.add_member(world.env.create_user(name), roles=roles)


def team_members(world, role, prefix: str, count: int) -> list:
    """``count`` new members holding ``role``, named ``prefix1``, ``prefix2``…, made in that order."""
    return [member(world, f"{prefix}{n}", role) for n in range(1, count + 1)]


async def declare_battle(world, *roles, starts: str, name: str = "Derby", duration: int = 30, **options):
    """The moderator's ``/wari-mod tournament battle`` in #games, ``roles`` its team1, team2…: the
    reply. Every story's battle is "Derby", half an hour long, unless it says otherwise."""
    teams = {f"team{n}": role for n, role in enumerate(roles, start=1)}
    return await world.mod.slash(
        world.channel, "wari-mod tournament battle", name=name, starts=starts, duration=duration, **teams, **options
    )


async def test_two_roles_play_a_team_battle_where_each_teams_best_two_count(world):
    guild = world.guild
    lions_role, tigers_role = team_roles(world, "Lions", "Tigers")
    lions, tigers = team_members(world, lions_role, "lion", 3), team_members(world, tigers_role, "tiger", 2)
    both, neither = member(world, "twofold", lions_role, tigers_role), member(world, "loner")
    made = await declare_battle(world, lions_role, tigers_role, starts="in 1 minute", leaders=2, clock="1d/move")
    assert not made.ephemeral, made.response.content
    signup = made.response
    description = signup.embeds[0].description
    assert "Arena · team battle" in description and "its best 2 players; you play for the team" in description
    assert "**Teams** (best 2 of each count)\nLions (0) · Tigers (0)" in description

    for player in [*lions, *tigers]:  # one team's role each: they are in at once, for it
        joined = await player.click(signup, label="Join")
        assert joined.acknowledged and not joined.ephemeral
    refused = await neither.click(signup, label="Join")
    assert refused.ephemeral and "you hold none of **Lions**, **Tigers**" in refused.response.content
    asked = await both.click(signup, label="Join")  # both roles: asked which, privately, and not in yet
    assert asked.ephemeral and "Which team do you play for?" in asked.response.content
    assert len((await event(world)).entrants) == 5
    chosen = await both.click(asked.response, label="Tigers")
    assert "for team **Tigers**" in chosen.response.content
    tigers.append(both)
    current = await event(world)
    team_of = {e.user_id: e.team for e in current.entrants}
    assert team_of == {**{m.id: 1 for m in lions}, **{m.id: 2 for m in tigers}}
    assert "\nLions (3) · Tigers (3)\n" in event_signup(world).embeds[0].description
    again = await both.slash(world.channel, "wari tournament join")  # the team is fixed: joined is joined
    assert again.ephemeral and again.response.content == "You are in this tournament already."

    by_id = {m.id: m for m in [*lions, *tigers]}
    tiger1 = tigers[0].id

    def outcome(pairing) -> str:
        """The Lions win, except against tiger1, who beats everyone."""
        winner = (
            tiger1
            if tiger1 in (pairing.first_id, pairing.second_id)
            else (pairing.first_id if team_of[pairing.first_id] == 1 else pairing.second_id)
        )
        return "first" if pairing.first_id == winner else "second"

    await world.env.advance_time(90)  # the start: three games, each a Lion against a Tiger
    for wave in range(3):
        current = await event(world)
        if wave == 0:
            assert len(current.open_pairings) == 3
        for pairing in list(current.open_pairings):
            await finish(world, by_id, pairing, outcome(pairing))
        if wave == 0:
            world.env.backend.delete_role(guild.id, lions_role.id)  # a team's role gone: its name stays
            await world.restart()  # in the middle: nothing is lost or doubled
    await world.env.advance_time(30 * 60)  # time is up: the games under way are played out
    for pairing in list((await event(world)).open_pairings):
        await finish(world, by_id, pairing, outcome(pairing))
    await world.env.advance_time(60)

    current = await event(world)
    assert current.row.status == "finished" and len(current.pairings) >= 6
    assert all(team_of[p.first_id] != team_of[p.second_id] for p in current.pairings)  # teammates never met
    points = hand_points(current)
    # The games, as the bot paired them (the sequence is the same on each run):
    #   1: lion1-tiger1 0-1, lion2-tiger2 1-0, lion3-twofold 1-0
    #   2: tiger2-lion1 0-1, tiger1-lion2 1-0
    #   3: twofold-lion1 0-1, lion3-tiger2 1-0
    #   4: lion1-tiger1 0-1, lion2-twofold 1-0
    # lion1: L W W L = 0 + 2 + 2 + 0 (the loss after two wins is doubled: still 0) = 4
    # lion2: W L W = 2 + 0 + 2 = 4; lion3: W W = 2 + 2 = 4
    # tiger1: W W W = 2 + 2 + 4 (the third on the streak) = 8; tiger2 and twofold lost all: 0
    named = {by_id[user].name: score for user, score in points.items()}
    assert named == {"lion1": 4, "lion2": 4, "lion3": 4, "tiger1": 8, "tiger2": 0, "twofold": 0}
    # The best two of each: the three Lions have 4 each, and the standings put lion3 (performance
    # 1500 + 400 x 2/2 = 1900) and lion2 (1500 + 400 x 1/3 = 1633) ahead of lion1 (1500): Lions
    # 4 + 4 = 8; Tigers 8 + 0 = 8. Level on score, the Tigers' best counting player (8) is ahead of
    # the Lions' (4): the Tigers win.
    ranked = current.team_standings()
    assert [(t.rank, t.name, t.score, [s.points for s in t.leaders]) for t in ranked] == [
        (1, "Tigers", 8, [8, 0]),
        (2, "Lions", 8, [4, 4]),
    ]
    assert [by_id[s.user_id].name for s in ranked[1].leaders] == ["lion3", "lion2"]
    assert {s.user_id: s.points for s in current.standings()} == points  # the bot's players' points too

    shown = standings_in(world).embeds[0].description  # names, not mentions: the Lions' role is gone
    assert shown.startswith(
        "**Teams** (best 2 of each count)\n"
        "1\\. Tigers · **8** pts · tiger1 8, tiger2 0\n"
        "2\\. Lions · **8** pts · lion3 4, lion2 4\n"
        "**Players**\n"
        "1\\. tiger1 · Tigers · **8** pts"
    )
    assert "<@" not in shown and "lion3 · Lions · **4** pts" in shown
    podium = next(m for m in world.channel.history() if "is over" in m.content).content
    assert podium.index("🥇 Tigers · **8** pts") < podium.index("🥈 Lions") < podium.index("**Players**")
    assert podium.index("**Players**") < podium.index("🥇 tiger1 · Tigers")  # the winning team, then the players
    asked_standings = await neither.slash(world.channel, "wari tournament standings")
    assert "1\\. Tigers · **8** pts" in asked_standings.response.embeds[0].description


def event_signup(world):
    return next(m for m in world.channel.history() if m.embeds and "· tournament #1" in (m.embeds[0].title or ""))


async def test_a_battle_of_one_role_or_everyone_is_refused_and_a_recurring_battle_keeps_its_teams(world):
    lions_role, tigers_role = team_roles(world, "Lions", "Tigers")
    same = await declare_battle(world, lions_role, lions_role, starts="in 1 hour")
    assert same.ephemeral and "at least 2 teams, each a different role" in same.response.content
    anyone = await declare_battle(world, lions_role, world.guild.default_role, starts="in 1 hour")
    assert anyone.ephemeral and "@everyone cannot be a team" in anyone.response.content
    made = await declare_battle(world, lions_role, tigers_role, starts="in 1 hour", repeat="weekly")
    assert not made.ephemeral, made.response.content
    await world.mod.slash(world.channel, "wari-mod tournament start")  # too few players: called off, next edition made
    following = await event(world, 2)
    assert following.row.edition == 2 and following.row.leaders == 3  # the default: each team's best three
    assert [(t.team, t.role_id, t.name) for t in following.teams] == [
        (1, lions_role.id, "Lions"),
        (2, tigers_role.id, "Tigers"),
    ]


def called_off_in(world) -> str:
    return next(m.content for m in world.channel.history() if "was called off" in m.content)


async def test_a_battle_where_only_one_team_has_players_is_called_off_at_its_start(world):
    lions_role, tigers_role = team_roles(world, "Lions", "Tigers")
    lions = team_members(world, lions_role, "lion", 4)
    made = await declare_battle(world, lions_role, tigers_role, starts="in 1 minute")
    for lion in lions:  # four Lions, and no Tiger: nobody they may meet
        await lion.click(made.response, label="Join")
    await world.env.advance_time(90)

    current = await event(world)
    assert current.row.status == "cancelled" and current.pairings == []
    assert "called off: a team battle needs players of at least two teams" in called_off_in(world)
    assert not any("is over" in m.content for m in world.channel.history())  # no podium of four golds


async def test_a_recurring_battles_shield_goes_to_the_winning_teams_best_player(world):
    lions_role, tigers_role = team_roles(world, "Lions", "Tigers")
    lions, tigers = team_members(world, lions_role, "lion", 3), team_members(world, tigers_role, "tiger", 3)
    made = await declare_battle(
        world,
        lions_role,
        tigers_role,
        starts="in 1 minute",
        leaders=3,
        clock="1d/move",
        repeat="weekly",
        title="Derby Shield",
    )
    for player in [*lions, *tigers]:
        await player.click(made.response, label="Join")
    by_id = {m.id: m for m in [*lions, *tigers]}
    tiger1 = tigers[0].id

    def outcome(pairing) -> str:
        """tiger1 beats everyone; otherwise the Lions win: tiger1 is the best player, the Lions the best team."""
        lion_first = pairing.first_id in {m.id for m in lions}
        first_wins = pairing.first_id == tiger1 or (lion_first and pairing.second_id != tiger1)
        return "first" if first_wins else "second"

    await world.env.advance_time(90)
    for _wave in range(3):
        for pairing in list((await event(world)).open_pairings):
            await finish(world, by_id, pairing, outcome(pairing))
    await world.env.advance_time(30 * 60)
    for pairing in list((await event(world)).open_pairings):
        await finish(world, by_id, pairing, outcome(pairing))
    await world.env.advance_time(60)

    current = await event(world)
    assert current.row.status == "finished"
    best = current.standings()[0]
    assert best.user_id == tiger1 and best.rank == 1  # the best player is a Tiger…
    winning = current.team_standings()[0]
    assert (winning.rank, winning.name) == (1, "Lions")  # …and the Lions won the battle
    best_lion = winning.leaders[0]
    lions_first = [s for s in winning.leaders if s.rank == best_lion.rank]
    holders = await world.env.bot.store.schedules.holders(current.row.schedule_id)
    assert sorted(h.user_id for h in holders) == sorted(s.user_id for s in lions_first)
    podium = next(m for m in world.channel.history() if "is over" in m.content).content
    names = ", ".join(s.name for s in lions_first)
    assert f"🛡️ The **Derby Shield** passes to {names}, of the winning team **Lions**." in podium


async def test_a_long_podium_and_sign_up_stay_whole_naming_three_players_a_team(world):
    roles = team_roles(world, *(f"T{n}_" + "x_" * 48 for n in range(1, 7)))  # 100 characters, 150 shown
    teams = {
        n: [member(world, f"p{n}{k}_" + "y_" * 13, role) for k in range(1, 5)] for n, role in enumerate(roles, start=1)
    }
    made = await declare_battle(
        world, *roles, starts="in 1 minute", leaders=20, clock="1d/move", repeat="weekly", title="Derby Shield"
    )
    players = [player for members_of_team in teams.values() for player in members_of_team]
    for player in players:
        await player.click(made.response, label="Join")
    signup = event_signup(world).embeds[0].description
    assert len(signup) <= 4096 and signup.splitlines()[-1].startswith("…and ")  # whole lines, and the count left
    team_of = {m.id: n for n, members_of_team in teams.items() for m in members_of_team}
    by_id = {m.id: m for m in players}

    def outcome(pairing) -> str:  # the lower team's number wins
        return "first" if team_of[pairing.first_id] < team_of[pairing.second_id] else "second"

    await world.env.advance_time(90)
    for pairing in list((await event(world)).open_pairings):
        await finish(world, by_id, pairing, outcome(pairing))
    await world.env.advance_time(30 * 60)
    while (await event(world)).open_pairings:
        for pairing in list((await event(world)).open_pairings):
            await finish(world, by_id, pairing, outcome(pairing))
    await world.env.advance_time(60)

    assert (await event(world)).row.status == "finished"
    podium = next(m for m in world.channel.history() if "is over" in m.content).content
    assert len(podium) <= 2000 and podium.count("**") % 2 == 0  # no markup cut in half
    assert "🛡️ The **Derby Shield** passes to" in podium and podium.endswith("`/wari tournament results` has them all.")
    team_lines = [line for line in podium.splitlines() if line.startswith(("🥇 T", "🥈 T", "🥉 T", "4\\. T"))]
    assert team_lines and all(line.count(", ") <= 2 and line.endswith(" +1") for line in team_lines)


async def test_a_recurring_battle_follows_its_roles_and_stops_when_fewer_than_two_teams_are_left(world):
    guild, backend = world.guild, world.env.backend
    lions_role, tigers_role, eagles_role = team_roles(world, "Lions", "Tigers", "Eagles")
    lion = member(world, "lion", lions_role)
    tiger = member(world, "tiger", tigers_role)
    eagle = member(world, "eagle", eagles_role)
    made = await declare_battle(
        world, lions_role, tigers_role, eagles_role, starts="in 1 hour", clock="1d/move", repeat="weekly"
    )
    for player in (lion, tiger, eagle):
        await player.click(made.response, label="Join")
    backend.delete_role(guild.id, eagles_role.id)  # the Eagle joined: they play this edition for the Eagles
    backend.edit_role(guild.id, tigers_role.id, {"name": "Big Cats"})
    await world.env.advance_time(3600 + 60)

    first, second = await event(world, 1), await event(world, 2)
    assert first.row.status == "running"
    assert [t.name for t in first.teams] == ["Lions", "Big Cats", "Eagles"]  # renamed at the start; kept
    assert [t.name for t in second.teams] == ["Lions", "Big Cats"]  # nobody can join the Eagles any more
    signup = next(m for m in world.channel.history() if m.embeds and "· tournament #2" in m.embeds[0].title)
    assert "Lions (0) · Big Cats (0)" in signup.embeds[0].description and "Eagles" not in signup.embeds[0].description

    await lion.click(signup, label="Join")
    backend.delete_role(guild.id, tigers_role.id)  # one team left: nobody to play against
    started = await world.mod.slash(world.channel, "wari-mod tournament start", tournament=2)
    assert started.ephemeral

    second = await event(world, 2)
    assert second.row.status == "cancelled" and [t.name for t in second.teams] == ["Lions"]
    said = called_off_in(world)
    assert "needs players of at least two teams" in said and "its schedule is stopped" in said
    assert await world.env.bot.store.schedules.edition(second.row.schedule_id, 3) is None  # it comes back no more


async def test_only_an_arena_can_be_a_team_battle(world):
    lions_role, tigers_role = team_roles(world, "Lions", "Tigers")
    with pytest.raises(Refusal) as refused:
        await TournamentService(world.env.bot.store).create(
            guild_id=world.guild.id,
            channel_id=world.channel.id,
            created_by=world.mod.id,
            name="Derby",
            format="swiss",
            variant="wari",
            clock="10+5",
            starts="in 1 hour",
            rounds=3,
            max_players=None,
            rated=True,
            duration=None,
            cycles=1,
            now=world.env.now(),
            teams=[(lions_role.id, "Lions"), (tigers_role.id, "Tigers")],
        )
    assert refused.value.message == "Only an arena can be a team battle."
    assert await world.env.bot.store.tournaments.tournaments_of(world.guild.id, over=False) == []
