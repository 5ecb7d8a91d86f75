"""A season recap in the sandbox's page, in a real browser: after two rated games, Ama's
``/wari recap`` picture fits a small phone (360 px), whole, and its smallest print reads there.

The picture's smallest print (:data:`bot.pictures.recap.PRINT_SIZE`, in the picture's pixels:
every text on it but the name and the figures, never drawn smaller, tests/bot/test_recap_picture.py)
is measured as the page shows it: scaled by the width the picture is shown at (the message
column's, 272 CSS pixels) over its own width, in CSS pixels, at least 12. The message is
photographed as ``phone-recap.png``, in ``tmp_path`` and in the directory named by
``WARI_SANDBOX_SCREENSHOT`` if set (``make screenshots``: docs/).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from bot.pictures.recap import PRINT_SIZE, WIDTH
from bot.sandbox import open_sandbox
from tests.bot.test_sandbox import SCREENSHOT_ENV, SMALL_PHONE, browser_page, challenge_and_accept
from tests.helpers import surrender

#: The recap's message on the page: its line starts with the calendar and Ama's name.
RECAP = (
    "[...document.querySelectorAll('.channel-message')]"
    ".filter(m => m.innerText.includes('📅 Ama') && m.querySelector('img[src*=\"recap\"], img[alt*=\"season recap\"]'))"
    ".at(-1)"
)

#: How the recap's picture is shown: its own width, the width it is shown at, its right edge,
#: the window's and the page's widths; once the picture is loaded.
PICTURE_SHOWN = (
    f"(() => {{ const m = {RECAP}; const img = m && [...m.querySelectorAll('img')].at(-1);"
    " if (!img || !img.complete || !img.naturalWidth) return null;"
    " const box = img.getBoundingClientRect(), root = document.documentElement;"
    " return {natural: img.naturalWidth, shown: box.width, height: box.height, right: box.right,"
    " window: root.clientWidth, page: [root.scrollWidth, root.clientWidth], alt: img.alt, text: m.innerText} })()"
)

#: Where the recap's picture is on the screen, top and bottom, and the part of the message list seen
#: (the page's bars above it and the message box below it take the rest of the phone's height).
PICTURE_IN_VIEW = (
    f"(() => {{ const img = [...{RECAP}.querySelectorAll('img')].at(-1); let list = img.parentElement;"
    " while (list && !['auto', 'scroll'].includes(getComputedStyle(list).overflowY)) list = list.parentElement;"
    " const box = img.getBoundingClientRect(), seen = list.getBoundingClientRect();"
    " return {picture: [box.top, box.bottom], list: [seen.top, seen.bottom]} })()"
)


@pytest.mark.chromium
async def test_a_season_recap_picture_fits_a_small_phone_and_its_smallest_print_reads(database_path, tmp_path):
    async with (
        open_sandbox(database_path, real_time=False, rng=random.Random(7)) as sandbox,
        browser_page(tmp_path, sandbox.url) as page,
    ):
        await page.resize(*SMALL_PHONE)
        for loser in (sandbox.kofi, sandbox.kofi):  # two rated games, both won by Ama
            await challenge_and_accept(sandbox)
            await surrender(loser, sandbox.channel)
        asked = await sandbox.ama.slash(sandbox.channel, "wari recap", public=True)
        assert not asked.ephemeral and asked.response.attachments, asked.response.content
        assert asked.response.content.startswith("📅 **Ama** · Wari · "), asked.response.content
        await page.click("#refresh", "Refresh")
        await page.idle()

        picture = await page.until(PICTURE_SHOWN, "the recap picture")
        await page.js(f"[...{RECAP}.querySelectorAll('img')].at(-1).scrollIntoView({{block: 'end'}})")
        await page.js("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        in_view = await page.js(PICTURE_IN_VIEW)
        shot = await page.screenshot()
        (tmp_path / "phone-recap.png").write_bytes(shot)  # before the checks: a failure shows what they saw
        if keep := os.environ.get(SCREENSHOT_ENV):
            (Path(keep) / "phone-recap.png").write_bytes(shot)
        print(f"the recap picture at 360 px: {picture}")
        assert picture["natural"] == WIDTH, picture
        assert picture["right"] <= picture["window"] == SMALL_PHONE[0], picture
        assert picture["page"][0] <= picture["page"][1], picture
        assert in_view["list"][0] <= in_view["picture"][0] < in_view["picture"][1] <= in_view["list"][1], in_view
        assert "2 rated games" in picture["text"] and "Rated games: 2, 2 W · 0 D · 0 L" in picture["alt"], picture
        print_size = PRINT_SIZE * picture["shown"] / picture["natural"]
        print(f"the recap picture's smallest print at 360 px: {print_size:.1f} px")
        assert print_size >= 12, picture  # the team's phone bar: every text at 12 CSS px at least
