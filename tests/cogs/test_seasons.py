"""User stories: a server's seasons. Rated play is grouped in seasons (weekly here, so that the
story's days pass quickly); each season has its own leaderboard beside the all-time one, closes
once with its podium posted in the channel, through restarts, and leaves badges on the
players' profiles that /wari stats shows, beside a tournament win, a first win against the
Expert and a puzzle streak."""

from __future__ import annotations

import re
from datetime import timedelta

import discord

from bot.storage import time_text
from tests.cogs.test_standings import field, play_out
from tests.cogs.test_tournaments import event as tournament_event
from tests.cogs.test_tournaments import finish, gathered


async def season_ends_soon(world, minutes: int = 10) -> None:
    """Bring the end of the server's season under way to ``minutes`` from now, as if its week had
    run: SimCord steps through every 30-second sweep, so four real days would take minutes."""
    soon = world.env.now() + timedelta(minutes=minutes)
    await world.env.bot.store.database.write(
        ("UPDATE seasons SET ends_at = ? WHERE guild_id = ? AND closed_at IS NULL", (time_text(soon), world.guild.id))
    )


def podium_posts(world) -> list[discord.Message]:
    return [m for m in world.channel.history() if m.embeds and m.embeds[0].title == "🏁 The season is over"]


async def weekly_seasons(world):
    """An admin makes this server's seasons weekly (SimCord's clock starts on Thursday 1 January
    2026: the first season ends on Monday 5 January, 00:00 UTC)."""
    admins = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True, manage_messages=True))
    admin = world.guild.add_member(world.env.create_user("admin"), roles=[admins])
    told = await admin.slash(world.channel, "wari-mod season settings", length="weekly")
    assert told.ephemeral and "Seasons here are **weekly**" in told.response.content
    return admin


async def test_a_season_closes_once_with_its_podium_and_badges_across_restarts(world):
    await weekly_seasons(world)
    await play_out(world, world.alice, world.bob)
    await play_out(world, world.alice, world.carol)
    await play_out(world, world.carol, world.bob)
    await season_ends_soon(world)
    await world.restart()
    await world.env.advance_time(9 * 60)  # not over yet
    assert podium_posts(world) == []
    await world.env.advance_time(2 * 60)  # over: the sweep closes it
    (post,) = podium_posts(world)
    lines = post.embeds[0].description.splitlines()
    assert lines[0].startswith("From ") and "rating points gained in this server's rated games" in lines[0]
    assert lines[2] == "**Wari**"
    assert re.fullmatch(r"🥇 alice \+\d+ · 2 games", lines[3]), lines
    assert re.fullmatch(r"🥈 carol [+-]\d+ · 2 games", lines[4]), lines
    assert re.fullmatch(r"🥉 bob -\d+ · 2 games", lines[5]), lines
    assert not post.mentions  # names, not pings
    await world.restart()
    await world.env.advance_time(2 * 60)
    assert len(podium_posts(world)) == 1  # closed once: a restart does not post it again
    stats = (await world.alice.slash(world.channel, "wari stats")).response.embeds[0]
    assert field(stats, "Badges") == "🥇×1 in seasons"
    bob = (await world.bob.slash(world.channel, "wari stats")).response.embeds[0]
    assert field(bob, "Badges") == "🥉×1 in seasons"


async def test_the_season_leaderboard_counts_this_season_only_beside_the_all_time_one(world):
    await weekly_seasons(world)
    await play_out(world, world.alice, world.bob)
    await season_ends_soon(world, minutes=1)
    await world.env.advance_time(2 * 60)  # the season closed; the next one begins with a game
    await play_out(world, world.carol, world.bob)
    season = (await world.bob.slash(world.channel, "wari leaderboard", scope="season")).response.embeds[0]
    assert season.title == "🏆 Wari leaderboard · this season"
    lines = season.description.splitlines()
    assert "<t:" in lines[0]
    assert re.fullmatch(r"\*\*1\.\*\* carol \+\d+ · 1 game", lines[2]), lines
    assert re.fullmatch(r"\*\*2\.\*\* bob -\d+ · 1 game", lines[3]), lines
    assert len(lines) == 4  # alice did not play this season
    assert season.footer.text.startswith("Your place: 2 of 2 (-")
    alltime = (await world.bob.slash(world.channel, "wari leaderboard")).response.embeds[0]
    assert len(alltime.description.splitlines()) == 3  # everyone rated here, all time
    empty = (await world.alice.slash(world.channel, "wari leaderboard", scope="season", variant="kalah")).response
    assert "Nobody has played a rated game here this season." in empty.embeds[0].description


async def test_stats_show_a_tournament_win_a_first_win_against_the_expert_and_a_puzzle_streak(world):
    players, by_id, _signup = await gathered(world, 2, name="Duel", format="round-robin", starts="in 2 hours")
    started = await world.mod.slash(world.channel, "wari-mod tournament start")
    assert started.ephemeral, started.response.content
    (pairing,) = (await tournament_event(world)).round_pairings(1)
    await finish(world, by_id, pairing, "first")
    assert (await tournament_event(world)).row.status == "finished"
    winner = by_id[pairing.first_id]
    store = world.env.bot.store
    # A win against the Expert, archived as the bot archives a game (the Expert rarely loses).
    now = world.env.now()
    game = await store.games.create_game(
        now=now,
        guild_id=world.guild.id,
        channel_id=world.channel.id,
        player_a=winner.id,
        player_b=0,
        variant="wari",
        record="",
        level_b="expert",
    )
    await store.games.update_game(game, now=now, status="finished", result="A", reason="surrender")
    # Ten puzzles solved in a row, at some time.
    await store.database.write(
        ("INSERT INTO puzzle_ratings (user_id, solved, streak, best_streak) VALUES (?, 10, 3, 10)", (winner.id,))
    )
    stats = (await winner.slash(world.channel, "wari stats")).response.embeds[0]
    assert field(stats, "Badges") == "🏆 1 tournament won · 🧩 a puzzle streak of 10 · 🤖 beat the Expert"
    loser = by_id[pairing.second_id]
    assert "Badges" not in [f.name for f in (await loser.slash(world.channel, "wari stats")).response.embeds[0].fields]


async def test_a_moderator_reads_the_seasons_setting_and_only_a_manager_changes_it(world):
    shown = await world.mod.slash(world.channel, "wari-mod season settings")
    assert shown.ephemeral and "Seasons here are **monthly**" in shown.response.content
    assert "the channel of the season's latest rated game" in shown.response.content
    refused = await world.mod.slash(world.channel, "wari-mod season settings", length="weekly")
    assert "Manage Server" in refused.response.content
    admin = await weekly_seasons(world)
    podiums = world.guild.create_text_channel("podiums")
    moved = await admin.slash(world.channel, "wari-mod season settings", channel=podiums)
    assert f"<#{podiums.id}>" in moved.response.content and "**weekly**" in moved.response.content
