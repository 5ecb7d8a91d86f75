"""Takebacks: never in a rated game between people; asked of a person, granted by the computer."""

from __future__ import annotations

import pytest

from bot.engine import Game, Player, rules_for
from bot.service import Closed, Refusal

from .players import ALICE, BOB, CHANNEL, DAVE, GUILD, T0, game_between


async def play(service, table, user_id: int, house: int) -> None:
    current = await service.tables.live_table(CHANNEL)
    await service.games.play(
        channel_id=CHANNEL,
        game_id=table.row.id,
        ply=current.game.ply,
        message_id=current.row.message_id,
        user_id=user_id,
        house=house,
        now=T0,
    )


async def test_in_a_rated_game_between_people_a_move_played_stands(service):
    table = await game_between(service, rated=True)
    await play(service, table, ALICE, 5)
    with pytest.raises(Refusal, match="In a rated game a move played stands"):
        await service.games.take_back(CHANNEL, ALICE, T0)
    assert (await service.tables.live_table(CHANNEL)).game.ply == 1


async def test_an_unrated_takeback_waits_for_the_opponent_and_undoes_the_askers_move_and_the_reply(service):
    table = await game_between(service, rated=False)
    with pytest.raises(Refusal, match="You have no move to take back yet"):
        await service.games.take_back(CHANNEL, ALICE, T0)
    await play(service, table, ALICE, 5)
    await play(service, table, BOB, 8)
    asked, undone = await service.games.take_back(CHANNEL, ALICE, T0)
    assert undone == [] and asked.game.ply == 2  # nothing happens until Bob agrees
    with pytest.raises(Refusal, match="Only the opponent of who asked"):
        await service.games.grant_takeback(
            channel_id=CHANNEL, game_id=table.row.id, ply=2, side=Player.A, user_id=ALICE, now=T0
        )
    back, undone = await service.games.grant_takeback(
        channel_id=CHANNEL, game_id=table.row.id, ply=2, side=Player.A, user_id=BOB, now=T0
    )
    assert [(m.player, m.house) for m in undone] == [(Player.B, 8), (Player.A, 5)]  # latest first
    stored = await service.tables.live_table(CHANNEL)
    assert stored.game.ply == back.game.ply == 0 and stored.game.to_move is Player.A
    assert stored.game.board == Game("wari").board  # the opening again


async def test_a_takeback_request_lapses_once_a_move_is_played(service):
    table = await game_between(service, rated=False)
    await play(service, table, ALICE, 5)
    await service.games.take_back(CHANNEL, ALICE, T0)  # asked after move 1
    await play(service, table, BOB, 8)
    with pytest.raises(Closed, match="This takeback request lapsed"):
        await service.games.grant_takeback(
            channel_id=CHANNEL, game_id=table.row.id, ply=1, side=Player.A, user_id=BOB, now=T0
        )
    assert (await service.tables.live_table(CHANNEL)).game.ply == 2


async def test_against_the_computer_a_takeback_is_granted_at_once_even_in_a_rated_game(service):
    table = await service.starts.play_computer(
        guild_id=GUILD,
        channel_id=CHANNEL,
        human_id=ALICE,
        computer_id=DAVE,
        level="random",
        rules=rules_for("wari"),
        first="me",
        now=T0,
    )
    await play(service, table, ALICE, 5)
    await service.games.computer_move(channel_id=CHANNEL, game_id=table.row.id, ply=1, house=8, now=T0)
    back, undone = await service.games.take_back(CHANNEL, ALICE, T0)
    assert [(m.player, m.house) for m in undone] == [(Player.B, 8), (Player.A, 5)]
    assert back.game.ply == 0 and (await service.tables.live_table(CHANNEL)).game.ply == 0
