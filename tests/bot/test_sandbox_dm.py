"""Ama's direct messages with the bot in the sandbox, in a real browser: picked in the page's
channel picker and shown to her alone, where she plays the bot on its Components V2 board at a
small phone's width (360 px) without scrolling sideways, as a player who installed the app does.

The board is photographed there as ``phone-dm.png``, in ``tmp_path`` and in the directory named by
``WARI_SANDBOX_SCREENSHOT`` if set (``make screenshots``: docs/).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from bot.sandbox import DM_NAME, open_sandbox
from tests.bot.test_sandbox import SCREENSHOT_ENV, SMALL_PHONE, browser_page, type_command
from tests.helpers import board_footer, board_title, status_line, texts


def moves(board) -> int:
    """How many moves the board's footer counts."""
    footer = board_footer(board)
    return 0 if footer.startswith("No move yet") else int(footer.split()[1])


def dm_board(sandbox):
    """The board in Ama's DM: the newest message there laid out as a board."""
    return next(m for m in reversed(sandbox.dm.history()) if texts(m) and "· game #" in board_title(m))


async def test_ama_opens_her_dm_with_the_bot_from_the_page_and_plays_it_on_a_small_phone(database_path, tmp_path):
    async with open_sandbox(database_path, rng=random.Random(7)) as sandbox:
        async with browser_page(tmp_path, sandbox.url) as page:
            # The page's channel picker offers Ama's DM with the bot after #games.
            offered = await page.until(
                "[...document.querySelectorAll('#sandbox-channel-picker option')].map(o => o.textContent)"
                f".find(text => text.includes({DM_NAME!r}))",
                "the DM in the channel picker",
            )
            assert offered == f"✉️ {DM_NAME}"
            await page.js(
                "(() => { const s = document.getElementById('sandbox-channel-picker');"
                f" s.value = [...s.options].find(o => o.textContent.includes({DM_NAME!r})).value;"
                " s.dispatchEvent(new Event('change', {bubbles: true})) })()"
            )
            await page.until(f"window.sandboxPage.state()?.channel === '{sandbox.dm.id}'", "the DM shown")
            await page.idle()
            # Only Ama sees her DM: the page shows it to her, not to Kofi.
            viewers = "[...document.getElementById('viewer-picker').options].map(o => o.text)"
            assert await page.until(f"(v => v.length === 1 && v)({viewers})", "Ama alone as viewer") == ["Ama"]

            # In her DM, Ama plays the bot: /wari play from the message box, then a cup.
            await page.resize(*SMALL_PHONE)
            await type_command(page, "/wari pla", "/wari play")
            await page.click("button.send-message", "")
            await page.until("document.body.innerText.includes('Wari · game #1')", "the board in the DM")
            her_move = "document.body.innerText.includes('Ama, your move')"
            await page.until(her_move, "her move (after the bot's, if it moved first)")
            before = moves(dm_board(sandbox))
            await page.click("button.component-button", "")  # the first cup she may press
            await page.until(f"document.body.innerText.includes('Move {before + 2}') && {her_move}", "the bot's answer")
            board = dm_board(sandbox)
            assert board_footer(board) == f"Move {before + 2}"
            assert status_line(board).startswith("**Ama**, your move")

            fit = await page.assert_fits("Wari · game #1", SMALL_PHONE)
            assert "12 11 10  9  8  7" in fit["drawing"]  # across, in the container, at 360 px
            await page.bring_into_view("Wari · game #1")
            shot = await page.screenshot()

        table = await sandbox.bot.service.tables.table(sandbox.dm.id)
        assert table is not None and table.row.venue == "dm"
        assert set(table.row.players) == {sandbox.ama.id, sandbox.bot_user.id}
    (tmp_path / "phone-dm.png").write_bytes(shot)
    if keep := os.environ.get(SCREENSHOT_ENV):
        (Path(keep) / "phone-dm.png").write_bytes(shot)
