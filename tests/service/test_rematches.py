"""Which finished game a rematch replays, and who may ask for it."""

from __future__ import annotations

import pytest

from bot.engine import rules_for
from bot.service import Refusal

from .players import ALICE, BOB, CAROL, CHANNEL, GUILD, T0, game_between

#: Another channel (of this server, another's, or a group DM: channels are told apart by id).
OTHER_CHANNEL = CHANNEL + 1


async def test_a_rematch_is_of_a_finished_game_of_this_channel_asked_by_one_of_its_players(service):
    table = await game_between(service)
    with pytest.raises(Refusal, match="Only a finished game can be played again"):
        await service.starts.rematch_of(table.row.id, ALICE, CHANNEL)
    await service.games.surrender(CHANNEL, BOB, T0)
    with pytest.raises(Refusal, match="Only the players of this game can ask for a rematch"):
        await service.starts.rematch_of(table.row.id, CAROL, CHANNEL)
    with pytest.raises(Refusal, match="Only a finished game"):  # another channel's game is not told apart
        await service.starts.rematch_of(table.row.id, ALICE, OTHER_CHANNEL)
    with pytest.raises(Refusal, match="Only a finished game"):
        await service.starts.rematch_of(table.row.id + 1, ALICE, CHANNEL)
    for player in (ALICE, BOB):
        again = await service.starts.rematch_of(table.row.id, player, CHANNEL)
        assert again.row.id == table.row.id and again.row.result == "A"


async def test_the_computers_side_never_asks_for_a_rematch(service):
    table = await service.starts.play_computer(
        guild_id=GUILD,
        channel_id=CHANNEL,
        human_id=ALICE,
        computer_id=CAROL,  # the bot's own user
        level="random",
        rules=rules_for("wari"),
        first="me",
        now=T0,
    )
    await service.games.surrender(CHANNEL, ALICE, T0)
    assert (await service.starts.rematch_of(table.row.id, ALICE, CHANNEL)).row.players == (ALICE, CAROL)
    with pytest.raises(Refusal, match="Only the players of this game"):
        await service.starts.rematch_of(table.row.id, CAROL, CHANNEL)
