"""User stories: a tournament does not flood its channel. Every game of an event is played in ONE
thread of its channel, each board a message there; each round (an arena's each wave of new
games) is one message in that thread that pings its players, and that ping is the only one a
player gets for a game. The channel keeps the sign-up, the standings and the podium. In the
event's thread a command acts on the asker's own game; a spectator's ``/wari board`` lists the
games; no other game may start there. A restart reuses the thread; a deleted one is replaced."""

from __future__ import annotations

import logging

import pytest

from benchmarks.arena_flood import Flood, counting
from tests.cogs.test_tournaments import board_of, event, finish, gathered, play_round
from tests.helpers import buttons, surrender

pytestmark = pytest.mark.simcord(settle_timeout=120)


def threads_of(world) -> list:
    """Every thread of #games, archived ones too."""
    return world.channel.threads


def waves_in(thread, heading: str) -> list:
    return [m for m in thread.history() if heading in m.content]


def games_played(current) -> dict[int, int]:
    played: dict[int, int] = {}
    for pairing in current.pairings:
        if pairing.second_id is not None and pairing.game_id is not None:
            for user in (pairing.first_id, pairing.second_id):
                played[user] = played.get(user, 0) + 1
    return played


async def test_an_arena_plays_all_its_games_in_one_thread_and_calls_each_player_once_per_game(world):
    flood = Flood(world.channel.id)
    counting(world.env, flood)  # every message from now on, pings deleted later included
    _players, by_id, _signup = await gathered(
        world, 6, name="Blitz", format="arena", starts="in 1 minute", duration=30, clock="5+3"
    )
    await world.env.advance_time(90)
    standings = next(m for m in world.channel.history() if m.embeds and "· standings" in m.embeds[0].title)
    (thread,) = threads_of(world)
    assert f"The games are played in <#{thread.id}>." in standings.embeds[0].description  # the way there
    for _wave in range(3):  # each game that ends frees two players, paired again at once: a new wave
        for pairing in list((await event(world)).open_pairings):
            await finish(world, by_id, pairing, "first")
    await world.env.advance_time(30 * 60)  # time is up: the games under way are played out
    for pairing in list((await event(world)).open_pairings):
        await finish(world, by_id, pairing, "second")
    await world.env.advance_time(30)

    current = await event(world)
    assert current.row.status == "finished" and current.row.round >= 4
    (thread,) = threads_of(world)  # one thread for the whole event, not one per game
    assert current.row.thread_id == thread.id
    played = games_played(current)
    assert sum(played.values()) // 2 >= 9
    # Every board is a message of that thread.
    for pairing in current.pairings:
        game = await world.env.bot.store.games.get_game(pairing.game_id)
        assert game.channel_id == thread.id and game.tournament_id == current.row.id
    # One message per wave, in the thread; the channel gets none of them.
    assert len(waves_in(thread, "⚔️ Blitz: new games")) == current.row.round
    assert not [m for m in world.channel.history() if "new games" in m.content]
    # The channel: the sign-up, the standings and the podium (and Discord's note of the thread, if any).
    assert flood.in_channel - flood.system_notes == 3
    # Each player was notified exactly once per game they played, and nobody else was pinged.
    assert {user: flood.pings[user] for user in played} == played
    assert set(flood.pings) == set(played)


async def test_a_swiss_plays_every_round_in_the_same_thread_even_across_a_restart(world):
    flood = Flood(world.channel.id)
    counting(world.env, flood)
    players, by_id, _signup = await gathered(
        world, 4, name="Cup", format="swiss", starts="in 1 hour", rounds=3, clock="10+5"
    )
    await world.mod.slash(world.channel, "wari-mod tournament start")
    await play_round(world, by_id, 1)
    await world.restart()
    await play_round(world, by_id, 2)
    await world.env.advance_time(3 * 3600)  # round 3's games run out of time: that calls nobody either
    await play_round(world, by_id, 3)
    current = await event(world)
    assert current.row.status == "finished"
    (thread,) = threads_of(world)
    assert [len(waves_in(thread, f"⚔️ Cup: round {n}")) for n in (1, 2, 3)] == [1, 1, 1]
    assert {user: flood.pings[user] for user in by_id} == {member.id: 3 for member in players}, flood.pinging


async def test_in_the_event_thread_commands_act_on_the_askers_own_game_and_a_spectator_gets_the_list(world):
    _players, by_id, _signup = await gathered(
        world, 4, name="Cup", format="swiss", starts="in 1 hour", rounds=2, clock="1d/move"
    )
    await world.mod.slash(world.channel, "wari-mod tournament start")
    first, second = (await event(world)).round_pairings(1)
    (thread,) = threads_of(world)

    watched = await world.carol.slash(thread, "wari board")  # carol plays in neither game
    assert watched.ephemeral and "**2 games** are played in this thread" in watched.response.content
    for pairing in (first, second):
        game = await world.env.bot.store.games.get_game(pairing.game_id)
        assert f"#{game.id} " in watched.response.content
        assert f"/{thread.id}/{game.message_id})" in watched.response.content  # a link to its board

    player = by_id[second.second_id]
    reposted = await player.slash(thread, "wari board")  # their own game's board, posted anew
    assert not reposted.ephemeral
    assert (await world.env.bot.store.games.get_game(second.game_id)).message_id == reposted.response.id
    assert (await world.env.bot.store.games.get_game(first.game_id)).message_id != reposted.response.id

    await surrender(player, thread)  # gives up their game, not the other one
    current = await event(world)
    by_board = {p.board: p for p in current.round_pairings(1)}
    assert by_board[second.board].result == 1.0 and by_board[first.board].result is None

    await gathered(world, 4, prefix="q", name="Second", format="swiss", starts="in 1 hour", rounds=2, clock="1d/move")
    await world.mod.slash(world.channel, "wari-mod tournament start", tournament=2)
    other = next(t for t in threads_of(world) if t.id != thread.id)
    stuck = await world.mod.slash(other, "wari-mod abort")  # which of its two games is not said: nothing ends
    assert stuck.ephemeral and "This thread holds several tournament games" in stuck.response.content
    assert all(p.result is None for p in (await event(world, 2)).round_pairings(1))

    board = await board_of(world, first.game_id)  # a press on a board acts on that board's game
    assert [b for b in buttons(board) if b["custom_id"].startswith(f"wari:cup:{first.game_id}:")]


async def test_no_other_game_starts_in_an_event_thread(world):
    await gathered(world, 4, name="Cup", format="swiss", starts="in 1 hour", rounds=2, clock="1d/move")
    await world.mod.slash(world.channel, "wari-mod tournament start")
    (thread,) = threads_of(world)
    refused = await world.alice.slash(thread, "wari challenge", opponent=world.bob)
    assert refused.ephemeral and "This thread holds a tournament's games only" in refused.response.content
    refused = await world.alice.slash(thread, "wari play", level="greedy")
    assert refused.ephemeral and "This thread holds a tournament's games only" in refused.response.content


async def test_a_deleted_event_thread_is_replaced_at_the_next_round_and_the_log_says_so(world, caplog):
    _players, by_id, _signup = await gathered(
        world, 4, name="Cup", format="swiss", starts="in 1 hour", rounds=2, clock="1d/move"
    )
    await world.mod.slash(world.channel, "wari-mod tournament start")
    await world.mod.slash(world.channel, "wari-mod tournament pause")
    await play_round(world, by_id, 1)
    (old,) = threads_of(world)
    world.env.backend.delete_channel(old.id)  # someone deleted it between rounds
    with caplog.at_level(logging.WARNING, logger="cogs.wari"):
        await world.mod.slash(world.channel, "wari-mod tournament resume")
    current = await event(world)
    assert current.row.round == 2
    (new,) = threads_of(world)  # opened from the sign-up message again (so it may get the same id)
    assert current.row.thread_id == new.id and not waves_in(new, "⚔️ Cup: round 1")
    assert len(waves_in(new, "⚔️ Cup: round 2")) == 1
    assert f"its thread {old.id} was deleted; opening another" in caplog.text


async def test_a_result_a_moderator_sets_ends_that_game_only_and_not_another_of_the_thread(world):
    _players, by_id, _signup = await gathered(
        world, 4, name="Cup", format="swiss", starts="in 1 hour", rounds=2, clock="1d/move"
    )
    await world.mod.slash(world.channel, "wari-mod tournament start")
    first, second = (await event(world)).round_pairings(1)
    ruled = await world.mod.slash(  # the thread's newer game: the oldest is not "the thread's game"
        world.channel, "wari-mod tournament result", member=by_id[second.first_id], result="win", reason="left"
    )
    assert ruled.ephemeral and "left" in ruled.response.content
    games = world.env.bot.store.games
    assert (await games.get_game(second.game_id)).status == "aborted"
    assert (await games.get_game(first.game_id)).live


async def test_a_swiss_played_over_days_pings_each_turn_as_any_game_does(world):
    """On a clock per move the players are away from the board: a move waiting for them is
    called as in any game (a quick arena's games, whose players are at the board, call nobody)."""
    from tests.helpers import enabled_houses, pinged, pings, press

    _players, by_id, _signup = await gathered(
        world, 2, name="Slow", format="swiss", starts="in 1 hour", rounds=1, clock="1d/move"
    )
    await world.mod.slash(world.channel, "wari-mod tournament start")
    (pairing,) = (await event(world)).round_pairings(1)
    board = await board_of(world, pairing.game_id)
    (thread,) = threads_of(world)
    await press(by_id[pairing.first_id], board, enabled_houses(board)[0])
    await world.env.advance_time(5 * 60)  # a turn ping waits a little, in case they are at the board
    (ping,) = pings(world, thread)
    assert pinged(world, ping) == {pairing.second_id}
