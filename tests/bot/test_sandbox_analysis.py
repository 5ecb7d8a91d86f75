"""A long analysis in the sandbox's page, in a real browser: its progress is shown while it runs,
its result when it is done, and the page never says "Action outcome uncertain".

SimCord ends a page's action once the bot's work has settled, and waits a few seconds for it; an
analysis judges positions for much longer (:func:`bot.sandbox._analyse_between_actions`). The
finished analysis is photographed at a small phone's width (360 px) as ``phone-analysis.png``,
in ``tmp_path`` and in the directory named by ``WARI_SANDBOX_SCREENSHOT`` if set.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from bot.ai.analysis.fit import self_play
from bot.engine.notation import record
from bot.sandbox import open_sandbox
from tests.bot.test_sandbox import SCREENSHOT_ENV, SMALL_PHONE, board_card, browser_page, type_command
from tests.helpers import stored_finished

#: A self-play game of 61 plies between two of the computer's levels: judged at full depth, far
#: longer than the few seconds SimCord waits for an action to settle.
LONG_GAME_SEED = 22
#: Every text the page's action status and its messages take, as they change.
WATCH = (
    "window.seen = []; window.statuses = [];"
    " new MutationObserver(() => {"
    " const status = document.getElementById('action-status')?.textContent || '';"
    " if (window.statuses.at(-1) !== status) window.statuses.push(status);"
    " const text = document.getElementById('channel-message-list')?.innerText || '';"
    " const seen = text.includes('Analysis of game #1') ? 'result'"
    " : (text.match(/🔬 Analysing game #1 \\S+ (\\d+)%/) || [])[1];"
    " if (seen && window.seen.at(-1) !== seen) window.seen.push(seen) })"
    ".observe(document.body, {childList: true, subtree: true, characterData: true})"
)


async def archive_long_game(sandbox) -> int:
    """A finished game of Ama (A) against Kofi (B), stored as the bot stores one: its number."""
    game = self_play(LONG_GAME_SEED)
    assert game.outcome is not None and game.ply > 60
    return await stored_finished(
        sandbox.bot.store,
        record(game, str(sandbox.ama.id), str(sandbox.kofi.id)),
        now=sandbox.env.now(),
        guild_id=sandbox.guild.id,
        channel_id=sandbox.channel.id,
        players=(sandbox.ama.id, sandbox.kofi.id),
    )


@pytest.mark.chromium
async def test_a_long_analysis_shows_its_progress_and_its_result_in_the_page(database_path, tmp_path):
    async with (
        open_sandbox(database_path, rng=random.Random(7)) as sandbox,
        browser_page(tmp_path, sandbox.url) as page,
    ):
        async with sandbox.hold_clock():
            number = await archive_long_game(sandbox)
        assert number == 1
        await page.js(WATCH)
        # Ama asks for it from the message box, picking the game among those suggested.
        await type_command(page, "/wari anal", "/wari analyse")
        await page.call("Input.insertText", text="1")  # the game option, which the command requires, is open
        await page.until(
            "[...document.querySelectorAll('[role=option]')].some(e => e.innerText.startsWith('#1 · wari'))",
            "the game among the suggestions",
        )
        await page.click("[role=option]", "#1 · wari")
        await page.click("button.send-message", "")
        await page.until("document.body.innerText.includes('🔬 Analysing game #1')", "the analysis's progress")
        # The answer came at once; the analysis goes on, its bar moving, until its result.
        await page.until(
            "document.body.innerText.includes('Analysis of game #1')", "the analysis's result", timeout=240
        )
        await page.idle()
        seen = await page.js("window.seen")
        statuses = await page.js("window.statuses")
        shares = [int(share) for share in seen if share != "result"]
        assert seen[-1] == "result" and len(shares) >= 2 and shares == sorted(shares), seen
        assert not [status for status in statuses if "uncertain" in status or "not completed" in status], statuses
        text = await page.js("document.body.innerText")
        assert "Accuracy" in text and "outcome uncertain" not in text

        # The result reads on a small phone: it is no wider than the page.
        await page.resize(*SMALL_PHONE)
        card = board_card("Analysis of game #1")
        fits = await page.js(
            f"(c => c.getBoundingClientRect().right <= document.documentElement.clientWidth"
            f" && document.documentElement.scrollWidth <= document.documentElement.clientWidth)({card})"
        )
        assert fits, "the analysis is wider than a 360 px page"
        # Its chart is there, drawn, within the page's width: the photograph ends with it.
        chart = f"{card}.querySelector('img')"
        await page.until(f"{chart}?.complete && {chart}.naturalWidth > 0", "the advantage chart")
        assert await page.js(f"{chart}.getBoundingClientRect().right <= document.documentElement.clientWidth")
        await page.js(f"{chart}.scrollIntoView({{block: 'end'}})")
        await page.js("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        png = await page.screenshot()

    (tmp_path / "phone-analysis.png").write_bytes(png)
    keep = os.environ.get(SCREENSHOT_ENV)
    if keep:
        (Path(keep) / "phone-analysis.png").write_bytes(png)
    print({"progress seen": seen, "page statuses": statuses})
