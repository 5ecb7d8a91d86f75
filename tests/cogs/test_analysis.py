"""User stories: a finished game analysed by the computer, its mistakes marked, its progress shown,
the result kept, the replay annotated, an analysis a restart interrupted finished all the same."""

from __future__ import annotations

import pytest

from bot.service import analyses as analysis_service
from tests.analysis_games import PROVEN_BLUNDERS, blundering_record, build_small_tables
from tests.helpers import buttons, press, start_game, stored_finished, surrender

ANALYSING = "🔬 Analysing game #"


@pytest.fixture(autouse=True)
def small_tables(tmp_path, monkeypatch):
    """The wari tables up to 8 seeds, which prove every position of the blundering game; the
    worker processes read the variable when they start."""
    monkeypatch.setenv("WARI_TABLES", str(build_small_tables(tmp_path / "tables")))


@pytest.fixture
def every_position_shown(monkeypatch):
    """Progress shown after every position, so that a short game's message moves too."""
    monkeypatch.setattr(analysis_service, "PROGRESS_EVERY", 0.0)


async def finished_game(world) -> int:
    """The blundering game (Alice as Ama, A; Bob as Kofi, B), archived in the channel: its number."""
    text = blundering_record(str(world.alice.id), str(world.bob.id))
    return await stored_finished(
        world.env.bot.store,
        text,
        now=world.env.now(),
        guild_id=world.guild.id,
        channel_id=world.channel.id,
        players=(world.alice.id, world.bob.id),
    )


async def queue_analysis(world, number: int, member, depth: str):
    """Ask for an analysis as the bot does, without running it (as a process that stopped would leave it)."""
    return await world.env.bot.store.analyses.request_analysis(
        game_id=number, depth=depth, requested_by=member.id, guild_id=world.guild.id, total_plies=4,
        now=world.env.now(), most=8,
    )  # fmt: skip


def edits_of(world, message_id: int) -> list[dict]:
    """What the bot's edits of one message sent, in order."""
    return [
        request.json
        for request in world.env.backend.http_requests
        if request.method == "PATCH" and request.path.endswith(f"/messages/{message_id}") and request.json
    ]


def fields(message) -> dict[str, str]:
    return {field.name: field.value for field in message.embeds[0].fields}


async def test_the_analysis_marks_the_blunder_the_tables_prove(world, every_position_shown):
    number = await finished_game(world)
    result = await world.carol.slash(world.channel, "wari analyse", game=number)
    message = result.response
    assert not result.ephemeral  # the channel studies the game together
    # One message moved through the positions, then became the result.
    progress = [edit["content"] for edit in edits_of(world, message.id) if edit.get("content")]
    assert progress and all(text.startswith(f"{ANALYSING}{number} ") for text in progress)
    shares = [int(text.split("% ")[0].rsplit(" ", 1)[1]) for text in progress]
    assert shares == sorted(shares) and shares[0] < 100
    assert message.content in (None, "")
    assert message.embeds[0].title == f"🔬 Analysis of game #{number}"
    ((ply, mark, better),) = PROVEN_BLUNDERS
    ama, kofi = fields(message)["Ama"], fields(message)["Kofi"]
    assert f"Move {ply}: house 4 {mark} (blunder) · better: house {better} (7 seeds more, proven)" in ama
    assert "0 ?! · 0 ? · 1 ??" in ama
    assert "No mistakes found." in kofi and "Accuracy **100**" in kofi
    assert message.embeds[0].image.url == "attachment://analysis.png"
    assert [a.filename for a in message.attachments] == ["analysis.png"]


async def test_asking_again_is_instant_and_the_replay_shows_the_marks(world):
    number = await finished_game(world)
    await world.alice.slash(world.channel, "wari analyse", game=number)
    before = len(world.env.backend.http_requests)
    again = await world.bob.slash(world.channel, "wari analyse", game=number, quick=True)
    assert again.response.embeds[0].title == f"🔬 Analysis of game #{number}"
    assert "full depth" in again.response.embeds[0].description  # the full analysis answers a quick one
    # The stored result, at once: one answer, no progress edits.
    assert [r.method for r in world.env.backend.http_requests[before:]] == ["POST"]
    replay = (await world.alice.slash(world.channel, "wari replay", game=number)).response
    first = next(b for b in buttons(replay) if b["custom_id"].endswith(":first"))
    await world.alice.click(replay, custom_id=first["custom_id"])
    for _ in range(3):
        step = next(b for b in buttons(replay) if b["custom_id"].endswith(":next"))
        await world.alice.click(replay, custom_id=step["custom_id"])
    text = replay.embeds[0].description
    assert "**Move 3:** `A(4,2)`" in text and "**??**" in text
    assert "better: house 2 (7 seeds more, proven)" in text
    assert "🔬 Ama loses by 5 seeds" in text


async def test_one_analysis_at_a_time_each_and_live_games_wait(world, monkeypatch):
    number = await finished_game(world)
    store = world.env.bot.store
    queued = await queue_analysis(world, number, world.alice, "quick")
    assert queued.refusal is None
    mine = await world.alice.slash(world.channel, "wari analyse", game=number)
    assert mine.ephemeral
    assert f"Your analysis of game #{number} is still under way: one at a time, please." in mine.response.content
    board = await start_game(world, variant="wari")
    await press(world.alice, board, 3)
    live = (await store.games.live_game(world.channel.id)).id
    early = await world.bob.slash(world.channel, "wari analyse", game=live)
    assert early.ephemeral
    assert early.response.content == f"Game #{live} is still being played: it can be analysed once it is over."


async def test_the_queue_is_bounded(world, monkeypatch):
    monkeypatch.setattr(analysis_service, "MOST_QUEUED", 0)
    number = await finished_game(world)
    full = await world.alice.slash(world.channel, "wari analyse", game=number)
    assert full.ephemeral
    assert full.response.content == "I'm analysing too many games right now. Please try again in a few minutes."


async def test_a_finished_board_offers_analysis(world):
    board = await start_game(world, variant="wari")
    await press(world.alice, board, 3)
    await surrender(world.bob, world.channel)
    labels = [b["label"] for b in buttons(board)]
    assert "Analyse" in labels and "Rematch" in labels
    analyse = next(b for b in buttons(board) if b["label"] == "Analyse")
    result = await world.carol.click(board, custom_id=analyse["custom_id"])
    answer = result.response if hasattr(result, "response") else result
    assert answer.embeds[0].title.startswith("🔬 Analysis of game #")


async def test_an_analysis_a_restart_interrupted_finishes_on_its_message(world, every_position_shown):
    number = await finished_game(world)
    store = world.env.bot.store
    # The bot stopped in the middle: the analysis is running, its message shows the bar half way.
    queued = await queue_analysis(world, number, world.carol, "default")
    posted = await world.env.bot.get_partial_messageable(world.channel.id).send(f"{ANALYSING}{number} ▰▰▰▰▰▱▱▱▱▱ 50%")
    await store.analyses.set_analysis_message(number, "default", world.channel.id, posted.id)
    await store.analyses.analysis_progress(number, "default", 2, world.env.now())
    assert queued.row is not None
    await world.restart()
    await world.env.settle()
    row = await world.env.bot.store.analyses.analysis(number, "default")
    assert row is not None and row.status == "done"
    (shown,) = [m for m in world.channel.history() if m.id == posted.id]
    assert shown.embeds and shown.embeds[0].title == f"🔬 Analysis of game #{number}"
    assert "1 ??" in {f.name: f.value for f in shown.embeds[0].fields}["Ama"]
