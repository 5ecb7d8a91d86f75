"""The picture board reads on a phone, measured in a real browser (Debian's Chromium).

The sandbox (:mod:`bot.sandbox`) serves the real bot's messages as a Discord-like page; a server
that chose ``board: image`` gets its board as a PNG shown as the embed's image. At a phone's width
(390 px, as :data:`tests.bot.test_sandbox.PHONE`) the ``<img>`` is measured where it is drawn: the
picture is scaled to fit the box the page gives it (``object-fit: contain``), so its scale is the
smaller of the box's width and height over the picture's. The digits' height in the picture is
measured in its pixels (the seed counts, light on the dark cups); times that scale, it is their
height on the screen, in CSS pixels. Wari (six houses, across) and Kalah of ten houses of ten
seeds (the largest board, upright) are measured.
"""

from __future__ import annotations

import base64
import random
from pathlib import Path

import pytest

from bot.sandbox import open_sandbox
from tests.bot.test_board_image import digit_height
from tests.bot.test_sandbox import (
    PHONE,
    SMALL_PHONE,
    board_card,
    browser_page,
    challenge_and_accept,
)
from tests.helpers import surrender

#: The least height (CSS pixels) of a digit of a seed count on a phone's screen.
MIN_DIGIT_PX = 11


async def shown_picture(page, title: str) -> dict:
    """The board picture of the newest embed titled ``title`` as the page draws it: its natural
    size, its box, the scale it is drawn at, and its bytes (base64, fetched as the page did)."""
    card = board_card(title)
    return await page.js(
        f"(async () => {{ const card = {card}; if (!card) return null;"
        " const img = card.querySelector('img'); if (!img) return null;"
        " if (!img.complete || !img.naturalWidth) await new Promise(done => img.addEventListener('load', done));"
        " const box = img.getBoundingClientRect(), style = getComputedStyle(img);"
        " const sx = box.width / img.naturalWidth, sy = box.height / img.naturalHeight;"
        " const scale = ['contain', 'scale-down'].includes(style.objectFit) ? Math.min(sx, sy) : sx;"
        " const bytes = new Uint8Array(await (await fetch(img.src)).arrayBuffer());"
        " let text = ''; for (const b of bytes) text += String.fromCharCode(b);"
        " return {natural: [img.naturalWidth, img.naturalHeight], box: [box.width, box.height],"
        " fit: style.objectFit, scale, drawn: [img.naturalWidth * scale, img.naturalHeight * scale],"
        " window: document.documentElement.clientWidth, png: btoa(text)} })()"
    )


@pytest.mark.chromium
async def test_the_picture_board_reads_on_a_phone_in_a_real_browser(database_path: Path, tmp_path: Path) -> None:
    seen: dict[tuple[str, str], dict] = {}
    async with (
        open_sandbox(database_path, rng=random.Random(7)) as sandbox,
        browser_page(tmp_path, sandbox.url) as page,
    ):
        async with sandbox.hold_clock():
            chosen = await sandbox.ama.slash(sandbox.channel, "wari-mod settings", board="image")
            assert chosen.response is not None and "**picture**" in chosen.response.content, chosen
            await challenge_and_accept(sandbox)
        await page.click("#refresh", "Refresh")
        await page.until(f"!!{board_card('Wari · game #1')}?.querySelector('img')", "the wari picture")
        for name, size in (("phone", PHONE), ("small phone", SMALL_PHONE)):
            await page.resize(*size)
            seen["wari", name] = await shown_picture(page, "Wari · game #1")

        async with sandbox.hold_clock():
            await surrender(sandbox.kofi, sandbox.channel)
            kalah = await sandbox.ama.slash(
                sandbox.channel, "wari play", variant="kalah", houses=10, seeds=10, first="me"
            )
            assert kalah.acknowledged and not kalah.ephemeral, kalah
        await page.click("#refresh", "Refresh")
        await page.until(f"!!{board_card('Kalah 10x10 · game #2')}?.querySelector('img')", "the kalah picture")
        for name, size in (("phone", PHONE), ("small phone", SMALL_PHONE)):
            await page.resize(*size)
            seen["kalah", name] = await shown_picture(page, "Kalah 10x10 · game #2")
        await page.js(f"{board_card('Kalah 10x10 · game #2')}.scrollIntoView({{block: 'start'}})")
        (tmp_path / "picture-kalah-small-phone.png").write_bytes(await page.screenshot())

    report = {}
    for (board, name), shown in seen.items():
        assert shown is not None, f"no picture on the {board} board at {name} width"
        digits = digit_height(base64.b64decode(shown.pop("png")))
        shown["digits"] = digits
        shown["on_screen"] = round(digits * shown["scale"], 1)
        report[f"{board} at {shown['window']} px"] = {
            "picture": shown["natural"],
            "drawn": [round(v) for v in shown["drawn"]],
            "digit px": digits,
            "on screen": shown["on_screen"],
        }
    print(report)
    for (board, name), shown in seen.items():
        assert shown["on_screen"] >= MIN_DIGIT_PX, f"{board} at {name} width: digits too small: {shown}"
        assert shown["drawn"][0] <= shown["window"], shown  # never wider than the screen
    natural = seen["kalah", "phone"]["natural"]
    assert natural[1] > natural[0]  # Kalah 10x10 stands upright
