"""A tournament in the sandbox's page, in a real browser: its standings and its podium read on a
small phone (360 px) without scrolling sideways, the crosstable no wider than a board.

Four members play a round-robin in #games' threads, every game won by its first mover, as
players press cups and give up in the page. The standings and the podium are photographed at
360 px as ``phone-standings.png`` and ``phone-podium.png``, in ``tmp_path`` and in the directory
named by ``WARI_SANDBOX_SCREENSHOT`` if set.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from bot.pictures.crosstable import FONT_SIZE
from bot.sandbox import open_sandbox
from bot.service.tournaments import TournamentService
from tests.bot.test_sandbox import PHONE, SCREENSHOT_ENV, SMALL_PHONE, board_card, browser_page
from tests.cogs.test_tournaments import finish

STANDINGS = "Club night · standings"
#: The podium's message on the page (a message without an embed: its text).
PODIUM = (
    "[...document.querySelectorAll('.channel-message')]"
    ".filter(m => m.innerText.includes('Club night** is over') || m.innerText.includes('Club night is over')).at(-1)"
)


#: How the podium's message fits the page (its width, and the page's), once it is shown.
PODIUM_FIT = (
    f"(() => {{ const m = {PODIUM}; if (!m) return null; const root = document.documentElement;"
    " return {text: m.innerText, right: m.getBoundingClientRect().right, window: root.clientWidth,"
    " page: [root.scrollWidth, root.clientWidth]} })()"
)


async def play_round_robin(sandbox) -> None:
    """Ama, Kofi, Esi and Yaw play a round-robin: every game won by its first mover (the other
    gives up after a move each)."""
    others = [sandbox.guild.add_member(sandbox.env.create_user(n.lower(), global_name=n)) for n in ("Esi", "Yaw")]
    players = [sandbox.ama, sandbox.kofi, *others]
    made = await sandbox.ama.slash(
        sandbox.channel, "wari-mod tournament create", name="Club night", format="round-robin",
        starts="in 1 hour", clock="1d/move",
    )  # fmt: skip
    assert not made.ephemeral, made.response.content
    for member in players:
        await member.click(made.response, label="Join")
    await sandbox.ama.slash(sandbox.channel, "wari-mod tournament start")
    by_id = {member.id: member for member in players}
    tournaments = TournamentService(sandbox.bot.store)
    for number in range(1, 4):
        for pairing in (await tournaments.event(1)).round_pairings(number):
            await finish(sandbox, by_id, pairing, "first")
    assert (await tournaments.event(1)).row.status == "finished"


async def show_games_channel(page, sandbox) -> None:
    """Pick #games in the page's channel picker, as a person does, and wait until it is shown.

    The page follows a thread the bot opens (each game's): it is let follow the newest first,
    once it knows them all, so that it does not go there again after #games is picked."""
    threads = len(sandbox.channel.threads)
    await page.until(
        f"document.getElementById('sandbox-channel-picker')?.options.length === {2 + threads}"  # and Ama's DM
        " && document.getElementById('sandbox-notice')?.innerText.includes('🧵')",
        "the page to follow the games' threads",
    )
    await page.idle()
    await page.js(
        "(s => { s.value = " + json.dumps(str(sandbox.channel.id)) + ";"
        " s.dispatchEvent(new Event('change', {bubbles: true})) })"
        "(document.getElementById('sandbox-channel-picker'))"
    )
    await page.until("document.getElementById('channel-name').innerText === 'games'", "#games to be shown")
    await page.click("#refresh", "Refresh")  # the page drawn anew for #games before it is resized


async def fits_once_shown(page, title: str, size: tuple) -> dict:
    """:meth:`Page.assert_fits`, once the page laid out at ``size`` shows the message again (it
    draws its messages anew for a new width, a moment after its layout)."""
    await page.resize(*size)
    await page.until(f"!!{board_card(title)}", f"{title!r} at {size[0]} px")
    return await page.assert_fits(title, size)


@pytest.mark.chromium
async def test_a_tournaments_standings_and_podium_read_on_a_small_phone(database_path, tmp_path):
    async with (
        open_sandbox(database_path, real_time=False, rng=random.Random(7)) as sandbox,
        browser_page(tmp_path, sandbox.url) as page,
    ):
        await page.resize(*PHONE)  # a phone from the start: the page lays itself out while it is quiet
        await play_round_robin(sandbox)
        await page.click("#refresh", "Refresh")
        await show_games_channel(page, sandbox)  # the page followed the games into their threads
        await page.until(f"document.body.innerText.includes({json.dumps(STANDINGS)})", "the standings")
        fits = {size: await fits_once_shown(page, STANDINGS, size) for size in (PHONE, SMALL_PHONE)}
        drawing = fits[SMALL_PHONE]["drawing"]
        assert drawing.startswith("# Name") and "Club night" not in drawing  # the crosstable
        assert max(len(line) for line in drawing.splitlines()) <= 26
        await page.bring_into_view(STANDINGS)
        shots = {"phone-standings": await page.screenshot()}
        text = await page.js("document.body.innerText")
        assert "ahead of" in text and "Buchholz cut-1: 0" not in text

        podium = await page.until(PODIUM_FIT, "the podium")
        assert podium["right"] <= podium["window"] and podium["page"][0] <= podium["page"][1], podium
        assert "🥇" in podium["text"] and "pts" in podium["text"] and ": 0" not in podium["text"]
        await page.js(f"{PODIUM}.scrollIntoView({{block: 'start'}})")
        await page.js("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        shots["phone-podium"] = await page.screenshot()

    keep = os.environ.get(SCREENSHOT_ENV)
    for name, png in shots.items():
        (tmp_path / f"{name}.png").write_bytes(png)
        if keep:
            (Path(keep) / f"{name}.png").write_bytes(png)


#: The crosstable picture's print (bot.pictures.crosstable.FONT_SIZE) as the page shows it, in CSS px.
PICTURE_PRINT = (
    "(() => { const card = [...document.querySelectorAll('.embed-card')]"
    f".filter(c => c.querySelector('.embed-title')?.innerText.includes({json.dumps(STANDINGS)})).at(-1);"
    " const img = card && card.querySelector('img'); if (!img || !img.complete || !img.naturalWidth) return null;"
    " const box = img.getBoundingClientRect(), root = document.documentElement;"
    " return {natural: img.naturalWidth, shown: box.width, right: box.right, window: root.clientWidth,"
    " page: [root.scrollWidth, root.clientWidth]} })()"
)


@pytest.mark.chromium
async def test_where_boards_are_pictures_the_crosstable_picture_reads_on_a_small_phone(database_path, tmp_path):
    async with (
        open_sandbox(database_path, real_time=False, rng=random.Random(7)) as sandbox,
        browser_page(tmp_path, sandbox.url) as page,
    ):
        await page.resize(*SMALL_PHONE)
        chosen = await sandbox.ama.slash(sandbox.channel, "wari-mod settings", board="image")
        assert chosen.ephemeral, chosen.response.content
        await play_round_robin(sandbox)
        await page.click("#refresh", "Refresh")
        await show_games_channel(page, sandbox)
        await page.until(f"document.body.innerText.includes({json.dumps(STANDINGS)})", "the standings")
        await page.bring_into_view(STANDINGS)
        picture = await page.until(PICTURE_PRINT, "the crosstable picture")
        assert picture["right"] <= picture["window"] and picture["page"][0] <= picture["page"][1], picture
        print_size = FONT_SIZE * picture["shown"] / picture["natural"]
        print(f"the crosstable picture's print at 360 px: {print_size:.1f} px ({picture})")
        assert print_size >= 12, f"the crosstable picture's print is {print_size:.1f} px at 360 px: {picture}"
        (tmp_path / "phone-standings-picture.png").write_bytes(await page.screenshot())
