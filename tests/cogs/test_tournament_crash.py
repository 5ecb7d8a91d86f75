"""User stories: a tournament game whose board was never posted (the process died between the
game's commit and its board, or Discord refused the board) is shown when the event next moves on,
its clock starting then: nobody loses on time in a game they could not see, the round's
announcement links every board, and two processes repairing it at once leave one board."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.service import WariService
from bot.service.tournaments import TournamentService
from cogs.wari.tournaments.runs import TournamentRunner
from tests.cogs.test_tournaments import event, gathered, play_round, posted, thread_of
from tests.helpers import board_footer, buttons, enabled_houses, pinged, press, texts

pytestmark = pytest.mark.simcord(settle_timeout=120)


class Killed(Exception):
    """The process dies here: its loops stop, and nothing after this point runs."""


def killed_after_the_game_is_committed(world, monkeypatch) -> None:
    """The next tournament game the bot starts is committed and linked to its pairing, then the
    process dies before anything is posted in its thread."""
    service, cog = world.env.bot.service, world.env.bot.get_cog("Wari")
    commit = service.starts.start_tournament_game

    async def commit_then_die(**options):
        await commit(**options)
        cog.clocks.stop()
        raise Killed("killed between the game's commit and its board")

    monkeypatch.setattr(service.starts, "start_tournament_game", commit_then_die)


def boards_in(thread) -> list:
    """The board messages of a game's thread (a board has cups to press, or had)."""
    return [m for m in thread.history() if texts(m) and buttons(m)]


async def started_game(world):
    """Round 1's only game, as stored, and its thread."""
    (pairing,) = (await event(world)).round_pairings(1)
    game = await world.env.bot.store.games.get_game(pairing.game_id)
    assert game is not None
    return pairing, game, thread_of(world, game.channel_id)


def announcement(world):
    (found,) = [m for m in posted(world) if "round 1" in m.content]
    return found


async def test_a_game_started_just_before_a_crash_gets_its_board_and_its_whole_clock_after_the_restart(
    world, monkeypatch
):
    players, by_id, _signup = await gathered(
        world, 2, name="Duel", format="swiss", starts="in 1 hour", rounds=1, clock="1h/move"
    )
    killed_after_the_game_is_committed(world, monkeypatch)
    await world.mod.slash(world.channel, "wari-mod tournament start")
    pairing, game, thread = await started_game(world)
    assert game.live and game.message_id is None and not boards_in(thread)  # started, never shown
    assert not [m for m in posted(world) if "round 1" in m.content]  # nor announced
    await world.env.advance_time(2 * 60)  # down two minutes: too short to count as an outage
    await world.restart()
    await world.env.advance_time(30)  # the first sweep of the new process

    (board,) = boards_in(thread)
    _pairing, game, _thread = await started_game(world)
    assert game.message_id == board.id and board_footer(board) == "No move yet"
    called = announcement(world)
    assert f"/{thread.id}/{board.id})" in called.content  # the round's announcement links the board
    assert pinged(world, called) == {member.id for member in players}
    # Past the hour the clock had from the game's commit, the first mover has not lost on time:
    # their hour runs from the moment the board was shown.
    await world.env.advance_time(59 * 60)
    assert (await event(world)).round_pairings(1)[0].result is None
    assert (await world.env.bot.store.games.get_game(game.id)).live
    assert not [m for m in thread.history() if "ran out of time" in m.content]
    board = boards_in(thread)[0]
    await press(by_id[pairing.first_id], board, enabled_houses(board)[0])  # in time: the move counts
    (board,) = boards_in(thread)
    assert board_footer(board) == "Move 1"


async def test_a_board_discord_refused_is_posted_by_the_next_sweep_before_the_round_is_announced(world):
    players, _by_id, _signup = await gathered(
        world, 2, name="Duel", format="swiss", starts="in 1 hour", rounds=1, clock="1h/move"
    )
    world.env.inject_error("POST", "/channels/*/messages", status=500)  # the board, the first post
    await world.mod.slash(world.channel, "wari-mod tournament start")
    _pairing, game, thread = await started_game(world)
    assert not [m for m in posted(world) if "round 1" in m.content]  # called once linkable
    assert game.message_id is None and game.deadline is None  # not shown: its clock waits

    await world.env.advance_time(30)  # the next sweep shows it, then calls the players to it
    (board,) = boards_in(thread)
    called = announcement(world)
    assert f"/{thread.id}/{board.id})" in called.content
    assert pinged(world, called) == {member.id for member in players}
    game = await world.env.bot.store.games.get_game(game.id)
    assert game.deadline is not None and game.deadline - world.env.now() > timedelta(minutes=59)  # a whole hour


async def test_two_processes_repairing_the_same_game_at_once_leave_one_board(world, monkeypatch):
    await gathered(world, 2, name="Duel", format="swiss", starts="in 1 hour", rounds=1, clock="1h/move")
    killed_after_the_game_is_committed(world, monkeypatch)
    await world.mod.slash(world.channel, "wari-mod tournament start")
    # Two processes take the event's next step together: each posts the board before either
    # records it (as two hosts would), through stores of their own on the same database.
    bot = world.env.bot
    mine = bot.get_cog("Wari").tournaments.runner
    theirs = TournamentRunner(
        bot,
        WariService(bot.store),
        TournamentService(bot.store),
        mine.presenter,
        mine.languages,
        mine.boards,
        mine.notices,
        mine.players,
        mine.role_calls,
    )
    both_posted, recorded = asyncio.Barrier(2), []
    for service in (mine.service, theirs.service):
        record = service.starts.first_shown

        async def record_once_both_posted(*args, record=record, **kwargs):
            await both_posted.wait()
            recorded.append(await record(*args, **kwargs))
            return recorded[-1]

        monkeypatch.setattr(service.starts, "first_shown", record_once_both_posted)
    await asyncio.gather(mine.advance(1), theirs.advance(1))

    assert len(recorded) == 2 and recorded.count(None) == 1  # both posted; one write lost
    _pairing, game, thread = await started_game(world)
    (board,) = boards_in(thread)  # the loser took its board back
    assert game.message_id == board.id
    assert all(f"/{thread.id}/{board.id})" in m.content for m in posted(world) if "round 1" in m.content)


async def test_a_podium_discord_refused_is_posted_by_the_next_sweep(world):
    """The last result ends the event, and Discord refuses its podium: the event is finished in
    the database, and the next sweep posts the podium (it used to be lost for good)."""
    _players, by_id, _signup = await gathered(
        world, 2, name="Duel", format="swiss", starts="in 1 hour", rounds=1, clock="1d/move"
    )
    await world.mod.slash(world.channel, "wari-mod tournament start")
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=500)  # the podium
    await play_round(world, by_id, 1)
    ended = await event(world)
    assert ended.row.status == "finished" and ended.row.podium_message_id is None
    assert not [m for m in world.channel.history() if "**Duel** is over" in m.content]
    await world.env.advance_time(30)  # the next sweep
    ended = await event(world)
    (podium,) = [m for m in world.channel.history() if "**Duel** is over" in m.content]
    assert ended.row.podium_message_id == podium.id
    await world.env.advance_time(60)  # and only once
    assert len([m for m in world.channel.history() if "**Duel** is over" in m.content]) == 1
