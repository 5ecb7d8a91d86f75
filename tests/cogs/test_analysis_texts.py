"""User stories: what an analysis says reads as a player reads a game. A random mover the expert
crushed gets a low accuracy and the expert a high one; the replay says who is ahead and by about
how many seeds, never a bare "+0.2", in English, French and Portuguese."""

from __future__ import annotations

import re

import pytest

from bot.ai.analysis import GameAnalysis
from bot.ai.analysis.fit import calibration_game
from bot.ai.analysis.model import is_proven, margin
from bot.engine import Game
from bot.engine.notation import record
from tests.helpers import buttons, stored_finished

pytestmark = pytest.mark.simcord(settle_timeout=120)

#: A game of the random mover (A, Alice as Ama) against the expert (B, Bob as Kofi): crushed.
RANDOM_AGAINST_EXPERT = 0
#: "Kofi ahead by about 3 seeds", in each language (the names as the replay writes them).
AHEAD = {
    "en": r"🔬 (?P<name>Ama|Kofi) ahead by about (?P<count>\d+) seeds?",
    "fr": r"🔬 (?P<name>Ama|Kofi) mène d’environ (?P<count>\d+) graines?",
    "pt": r"🔬 (?P<name>Ama|Kofi) à frente por cerca de (?P<count>\d+) sementes?",
}


def crushed_game() -> Game:
    game, side = calibration_game("random", RANDOM_AGAINST_EXPERT)
    assert int(side) == 0 and game.outcome is not None and game.outcome.winner == 1
    return game


async def archive(world, game: Game) -> int:
    """``game`` stored as finished in the channel, Alice (Ama) against Bob (Kofi): its number."""
    return await stored_finished(
        world.env.bot.store,
        record(game, str(world.alice.id), str(world.bob.id)),
        now=world.env.now(),
        guild_id=world.guild.id,
        channel_id=world.channel.id,
        players=(world.alice.id, world.bob.id),
    )


def accuracy(message, name: str) -> int:
    (value,) = [field.value for field in message.embeds[0].fields if field.name == name]
    said = re.search(r"Accuracy \*\*([0-9]+)\*\*", value)
    assert said is not None, value
    return int(said.group(1))


async def test_a_random_mover_the_expert_crushed_reads_a_low_accuracy_and_the_expert_a_high_one(world):
    number = await archive(world, crushed_game())
    result = (await world.carol.slash(world.channel, "wari analyse", game=number, quick=True)).response
    assert result.embeds[0].title == f"🔬 Analysis of game #{number}"
    ama, kofi = accuracy(result, "Ama"), accuracy(result, "Kofi")
    assert ama < 50 < 75 < kofi, (ama, kofi)


def estimated_move(analysis: GameAnalysis) -> int:
    """The first move after which the engine's value is an estimate at least a seed from even."""
    return next(
        verdict.ply
        for verdict in analysis.moves
        if not is_proven(verdict.value_played) and abs(margin(verdict.value_played)) >= 1
    )


@pytest.mark.parametrize("language", ["en", "fr", "pt"])
async def test_the_replay_says_who_is_ahead_and_by_about_how_many_seeds(world, language):
    number = await archive(world, crushed_game())
    if language != "en":
        await world.alice.slash(world.channel, "wari settings", language=language)
    await world.carol.slash(world.channel, "wari analyse", game=number, quick=True)
    analysis = await world.env.bot.store.analyses.finished_analysis(number)
    assert analysis is not None and analysis.result is not None
    analysis = GameAnalysis.from_json(analysis.result)
    ply = estimated_move(analysis)

    replay = (await world.alice.slash(world.channel, "wari replay", game=number, public=False)).response
    first = next(b for b in buttons(replay) if b["custom_id"].endswith(":first"))
    await world.alice.click(replay, custom_id=first["custom_id"])
    for _ in range(ply):
        step = next(b for b in buttons(replay) if b["custom_id"].endswith(":next"))
        await world.alice.click(replay, custom_id=step["custom_id"])
    text = replay.embeds[0].description
    said = re.search(AHEAD[language], text)
    assert said is not None, text
    # The side named is the one the analysis has ahead, by the seeds it estimates.
    ahead = "Ama" if analysis.advantage[ply] > 0.5 else "Kofi"
    seeds = abs(margin(analysis.moves[ply - 1].value_played))
    assert said["name"] == ahead and abs(int(said["count"]) - seeds) <= 0.5, (said.group(0), seeds)
    assert not re.search(r"🔬 [+-]?[0-9]", text)  # no bare figure
