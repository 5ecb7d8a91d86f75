"""One composition root: the bot builds every service once, in ``setup_hook``, and the cog's
features are given those; the services keep the database to themselves."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.engine.notation import from_record
from tests.helpers import press, shown, status_line

COGS = Path(__file__).resolve().parents[2] / "cogs"


async def test_every_feature_is_given_the_services_the_bot_built_once(world):
    bot = world.env.bot
    services, cog = bot.services, bot.get_cog("Wari")
    assert cog.computer is services.computer
    assert cog.games.service is services.games and cog.challenges.service is services.games
    assert cog.seeks.seeks is services.seeks
    assert cog.standings.players is services.players
    assert cog.tournaments.tournaments is services.tournaments
    assert cog.tournaments.runner.tournaments is services.tournaments
    assert cog.analyses.service is services.analyses and cog.records.analyses is services.analyses
    assert cog.puzzles.service is services.puzzles and cog.puzzles.dailies.service is services.puzzles
    assert cog.puzzles.computer is services.computer  # a wrong move's refutation uses the same workers


async def test_after_a_restart_the_new_process_builds_its_own_services_and_they_answer_the_moves(world):
    board = (await world.alice.slash(world.channel, "wari play", level="greedy", first="me")).response
    before = world.env.bot.services
    await world.restart()
    after = world.env.bot.services
    assert after is not before and after.computer is not before.computer
    await press(world.alice, board, 3)
    # The new process's computer answered, and its move was shown on the board.
    assert status_line(board).startswith(f"**{shown(world.alice)}**, your move")
    (row,) = await world.env.bot.store.database.read("SELECT record FROM games ORDER BY id DESC LIMIT 1")
    assert from_record(row["record"])[0].ply == 2


def test_no_feature_of_the_cog_reaches_a_store_itself():
    """What a feature needs of the database is a service's method: no module under ``cogs/``
    names a ``store`` (nor a service's private ``_store``)."""
    reached = [
        f"{path.relative_to(COGS.parent)}:{node.lineno}"
        for path in sorted(COGS.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr in ("store", "_store")
    ]
    assert reached == []
