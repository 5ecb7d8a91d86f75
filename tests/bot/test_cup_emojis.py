"""User stories: the bot uploads its cup pictures to its own application as emojis once, after it
is ready, and shows the cups as text wherever Discord refuses them."""

from __future__ import annotations

import logging

import discord
import pytest
from simcord import Env

from bot.emojis import PREFIX, cup_emoji, drawn_cups
from bot.pictures.cups import MOST_SEEDS
from tests.conftest import close_bot, make_bot
from tests.helpers import buttons, start_game, texts

EMOJIS = "/applications/*/emojis"


@pytest.fixture
def bot_options() -> dict:
    """The worlds of these stories run bots that show cup pictures (``CUP_EMOJIS=on``, production's default)."""
    return {"cup_emojis": True}


def cup_emojis(world) -> dict[str, int]:
    """The application's cup emojis as Discord keeps them: name to id."""
    return {e.name: e.id for e in world.env.backend.application_emojis.values() if e.name.startswith(PREFIX)}


def uploads(world) -> int:
    """How many emoji uploads the bot has asked Discord for so far."""
    return uploads_in(world.env)


def uploads_in(env: Env) -> int:
    return sum(
        1
        for request in env.backend.http_requests
        if request.method == "POST" and request.path.startswith("/applications/") and request.path.endswith("/emojis")
    )


def known_counts() -> list[int]:
    """The seed counts a board's cup can show as a picture now."""
    return [seeds for seeds in range(MOST_SEEDS + 1) if cup_emoji(seeds) is not None]


async def test_the_bot_uploads_one_cup_emoji_per_seed_count_and_boards_can_show_them(world):
    emojis = cup_emojis(world)
    assert len(emojis) == MOST_SEEDS + 1 and uploads(world) == MOST_SEEDS + 1
    for seeds in (0, 4, 48):
        (name,) = [name for name in emojis if name.startswith(f"{PREFIX}{seeds}_")]
        assert cup_emoji(seeds) == discord.PartialEmoji(name=name, id=emojis[name])
    assert cup_emoji(MOST_SEEDS + 1) is None  # a fuller Kalah cup: its text alone


async def test_a_boards_cups_show_their_seeds_in_pictures_and_their_houses_in_words(world):
    board = await start_game(world)
    cups = [button for button in buttons(board) if button["custom_id"].startswith("wari:cup:")]
    assert [button["label"] for button in cups] == ["1", "2", "3", "4", "5", "6"]  # three to a row fit a phone
    four = cup_emoji(4)
    assert four is not None and all(int(button["emoji"]["id"]) == four.id for button in cups)
    assert "*Buttons: the seeds pictured, then the house*" in texts(board)


async def test_a_restart_finds_the_emojis_and_uploads_none_again(world, caplog):
    before = cup_emojis(world)
    world.env.inject_error("POST", EMOJIS, status=500, times=None)  # an upload would be seen failing
    with caplog.at_level(logging.WARNING, logger="bot.emojis"):
        await world.restart()
    assert cup_emojis(world) == before and uploads(world) == MOST_SEEDS + 1
    assert known_counts() == list(range(MOST_SEEDS + 1)) and caplog.records == []


async def test_a_changed_picture_is_uploaded_under_its_new_name_and_the_old_one_stays_for_older_boards(world):
    (old_id,) = [id_ for name, id_ in cup_emojis(world).items() if name.startswith(f"{PREFIX}7_")]
    world.env.backend.application_emojis[old_id].name = f"{PREFIX}7_00000000"  # as drawn by an older version
    await world.restart()
    sevens = {name: id_ for name, id_ in cup_emojis(world).items() if name.startswith(f"{PREFIX}7_")}
    assert len(sevens) == 2 and sevens[f"{PREFIX}7_00000000"] == old_id
    assert uploads(world) == MOST_SEEDS + 2  # the changed one only
    assert cup_emoji(7) is not None and cup_emoji(7).id != old_id


async def test_when_discord_refuses_the_uploads_the_cups_show_as_text_and_the_next_start_tries_again(world, caplog):
    world.env.backend.application_emojis.clear()  # a new application, say
    world.env.inject_error(
        "POST", EMOJIS, status=400, code=30008, message="Maximum number of emojis reached (2000)", times=1
    )
    with caplog.at_level(logging.WARNING, logger="bot.emojis"):
        await world.restart()
    (warning,) = [r.getMessage() for r in caplog.records]
    assert "Maximum number of emojis reached" in warning and "49 cups show as text" in warning
    assert known_counts() == [] and cup_emojis(world) == {}
    assert uploads(world) == MOST_SEEDS + 2  # the first start's, and the one refused: no more tries
    await world.restart()  # the limit was raised, say
    assert known_counts() == list(range(MOST_SEEDS + 1)) and len(cup_emojis(world)) == MOST_SEEDS + 1


async def test_when_the_emojis_cannot_even_be_listed_the_cups_show_as_text(world, caplog):
    world.env.inject_error("GET", EMOJIS, status=403, code=50001, message="Missing Access", times=1)
    with caplog.at_level(logging.WARNING, logger="bot.emojis"):
        await world.restart()
    (warning,) = [r.getMessage() for r in caplog.records]
    assert "Missing Access" in warning and known_counts() == []


async def sharded_start(database_path, shard_ids: tuple[int, ...], *, found: int) -> int:
    """Start one process of a bot of two shards, running ``shard_ids``, on an application that has
    the first ``found`` cup emojis already: how many it uploaded."""
    bot = make_bot(database_path, shard_count=2, shard_ids=shard_ids, cup_emojis=True)
    env = Env(bot, strict_sync=False)
    for name, _picture in list(drawn_cups().values())[:found]:
        env.backend.create_application_emoji(name)
    await env.start()
    try:
        return uploads_in(env)
    finally:
        await env.shutdown()
        await close_bot(bot)
        env.raise_errors()


async def test_in_a_sharded_deployment_the_process_running_shard_0_uploads_the_missing_emojis(database_path):
    assert await sharded_start(database_path, (0,), found=10) == MOST_SEEDS + 1 - 10
    assert known_counts() == list(range(MOST_SEEDS + 1))


async def test_in_a_sharded_deployment_the_other_processes_take_the_emojis_there_are(database_path):
    assert await sharded_start(database_path, (1,), found=10) == 0
    assert known_counts() == list(range(10))  # the rest as text, until its next start


async def test_with_cup_emojis_off_nothing_is_uploaded_and_the_cups_show_as_text(database_path):
    bot = make_bot(database_path)  # the bot's own default, as CUP_EMOJIS=off sets it
    env = Env(bot)
    await env.start()
    try:
        assert uploads_in(env) == 0 and known_counts() == []
    finally:
        await env.shutdown()
        await close_bot(bot)
        env.raise_errors()
