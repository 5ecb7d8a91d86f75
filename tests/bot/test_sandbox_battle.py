"""A team battle in the sandbox's page, in a real browser: its standings (the teams first) and its
podium read on a phone, 390 and 360 px wide, without scrolling sideways.

Two roles of the server are the teams, three members each (Ama and Kofi among them, on either
side); the battle is an arena whose games are played in its thread, every game won by the
Accra Lions except against Kofi, who beats everyone. The standings and the podium are photographed at
360 px as ``phone-battle-standings.png`` and ``phone-battle-podium.png``, in ``tmp_path`` and in
the directory named by ``WARI_SANDBOX_SCREENSHOT`` if set (``make screenshots``: docs/).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from bot.sandbox import open_sandbox
from bot.service.tournaments import TournamentService
from tests.bot.test_sandbox import PHONE, SCREENSHOT_ENV, SMALL_PHONE, board_card, browser_page
from tests.bot.test_sandbox_tournament import show_games_channel
from tests.cogs.test_tournaments import finish

LIONS, TIGERS = "Accra Lions", "Kumasi Tigers"
STANDINGS = "Derby · standings"
#: The podium's message on the page (a message without an embed: its text).
PODIUM = (
    "[...document.querySelectorAll('.channel-message')]"
    ".filter(m => m.innerText.includes('Derby** is over') || m.innerText.includes('Derby is over')).at(-1)"
)


def fit_of(element: str) -> str:
    """A JavaScript expression: how ``element`` (an expression) fits the window: its text, its
    right edge, the page's widths, the descendants that scroll sideways, and each line of its text
    that the page wraps (its text as the message has it, the lines the page draws it on)."""
    return (
        f"(() => {{ const e = {element}; if (!e) return null; const root = document.documentElement;"
        " const overflowing = [e, ...e.querySelectorAll('*')].filter(d => d.scrollWidth > d.clientWidth + 1"
        " && getComputedStyle(d).overflowX !== 'visible').map(d => d.className);"
        " const wrapped = []; const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);"
        " for (let node = walker.nextNode(); node; node = walker.nextNode()) {"
        " const range = document.createRange(); range.selectNodeContents(node);"
        " const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));"
        " if (tops.size > 1) wrapped.push([node.textContent, tops.size]); }"
        " return {text: e.innerText, right: e.getBoundingClientRect().right, window: root.clientWidth,"
        " page: [root.scrollWidth, root.clientWidth], overflowing, wrapped} })()"
    )


def assert_fits(fit: dict | None, what: str, width: int) -> None:
    assert fit is not None, f"no {what} on the page"
    assert fit["right"] <= fit["window"] == width, f"the {what} is wider than the page at {width} px: {fit}"
    assert fit["page"][0] <= fit["page"][1], f"the page scrolls sideways with the {what} at {width} px: {fit}"
    assert not fit["overflowing"], f"part of the {what} scrolls sideways at {width} px: {fit}"


async def play_battle(sandbox) -> list:
    """The Accra Lions (Ama, Esi, Yaw) against the Kumasi Tigers (Kofi, Abena, Kwame), the best two of
    each counting: an arena of half an hour, played to its end. Its players, by id."""
    guild, backend = sandbox.guild, sandbox.env.backend
    lions_role, tigers_role = guild.create_role(LIONS), guild.create_role(TIGERS)
    backend.add_member_role(guild.id, sandbox.ama.id, lions_role.id)
    backend.add_member_role(guild.id, sandbox.kofi.id, tigers_role.id)
    lions = [sandbox.ama] + [
        guild.add_member(sandbox.env.create_user(n.lower(), global_name=n), roles=[lions_role]) for n in ("Esi", "Yaw")
    ]
    tigers = [sandbox.kofi] + [
        guild.add_member(sandbox.env.create_user(n.lower(), global_name=n), roles=[tigers_role])
        for n in ("Abena", "Kwame")
    ]
    made = await sandbox.ama.slash(
        sandbox.channel, "wari-mod tournament battle", name="Derby", starts="in 1 minute",
        team1=lions_role, team2=tigers_role, leaders=2, duration=30, clock="1d/move",
    )  # fmt: skip
    assert not made.ephemeral, made.response.content
    for member in [*lions, *tigers]:
        joined = await member.click(made.response, label="Join")
        assert joined.acknowledged and not joined.ephemeral, joined.response
    by_id = {member.id: member for member in [*lions, *tigers]}
    lion_ids = {member.id for member in lions}

    def outcome(pairing) -> str:
        """Kofi beats everyone; otherwise the Lions win."""
        if sandbox.kofi.id in (pairing.first_id, pairing.second_id):
            return "first" if pairing.first_id == sandbox.kofi.id else "second"
        return "first" if pairing.first_id in lion_ids else "second"

    tournaments = TournamentService(sandbox.bot.store)
    await sandbox.env.advance_time(90)  # the start: three games, each a Lion against a Tiger
    for _wave in range(2):
        for pairing in list((await tournaments.event(1)).open_pairings):
            await finish(sandbox, by_id, pairing, outcome(pairing))
    await sandbox.env.advance_time(30 * 60)  # time is up: the games under way are played out
    for pairing in list((await tournaments.event(1)).open_pairings):
        await finish(sandbox, by_id, pairing, outcome(pairing))
    await sandbox.env.advance_time(60)
    assert (await tournaments.event(1)).row.status == "finished"
    return [*lions, *tigers]


async def fit_once_shown(page, element: str, what: str, size: tuple) -> dict:
    """How ``element`` fits the page laid out at ``size``, once it is shown again (the page draws
    its messages anew for a new width, a moment after its layout)."""
    await page.resize(*size)
    fit = await page.until(fit_of(element), f"the {what} at {size[0]} px")
    assert_fits(fit, what, size[0])
    return fit


@pytest.mark.chromium
async def test_a_team_battles_standings_and_podium_read_on_a_phone_teams_first(database_path, tmp_path):
    async with (
        open_sandbox(database_path, real_time=False, rng=random.Random(7)) as sandbox,
        browser_page(tmp_path, sandbox.url) as page,
    ):
        await page.resize(*PHONE)  # a phone from the start: the page lays itself out while it is quiet
        await play_battle(sandbox)
        await page.click("#refresh", "Refresh")
        await show_games_channel(page, sandbox)  # the page followed the games into their thread
        await page.until(f"document.body.innerText.includes({json.dumps(STANDINGS)})", "the standings")

        standings = {
            size: await fit_once_shown(page, board_card(STANDINGS), "standings", size) for size in (PHONE, SMALL_PHONE)
        }
        text = standings[SMALL_PHONE]["text"]
        # The teams first, each the sum of its best two players' points as listed under them.
        teams, players = text.index("Teams (best 2 of each count)"), text.index("\nPlayers\n")
        assert teams < text.index(f"\n1. {LIONS} · 8 pts · Yaw 4, Ama 4\n") < players, text
        assert teams < text.index(f"\n2. {TIGERS} · 4 pts · Kofi 4, Abena 0\n") < players, text
        for line in (
            "Yaw · {LIONS} · 4 pts",
            "Ama · {LIONS} · 4 pts",
            "Kofi · {TIGERS} · 4 pts",
            "Abena · {TIGERS} · 0 pts",
        ):
            assert line.format(LIONS=LIONS, TIGERS=TIGERS) in text[players:], text
        for size, fit in standings.items():  # a line may wrap on a phone; a team's place and name never
            print(f"the standings at {size[0]} px wrap: {fit['wrapped']}")
            assert not [line for line, _rows in fit["wrapped"] if LIONS in line or TIGERS in line], fit
        await page.bring_into_view(STANDINGS)
        shots = {"phone-battle-standings": await page.screenshot()}

        podiums = {size: await fit_once_shown(page, PODIUM, "podium", size) for size in (PHONE, SMALL_PHONE)}
        podium = podiums[SMALL_PHONE]["text"]
        assert podium.index(f"🥇 {LIONS} · 8 pts") < podium.index(f"🥈 {TIGERS} · 4 pts") < podium.index("Players"), (
            podium
        )
        assert podium.index("Players") < podium.index(f"🥇 Kofi · {TIGERS}") < podium.index("🥉 Ama"), podium
        for size, fit in podiums.items():
            print(f"the podium at {size[0]} px wraps: {fit['wrapped']}")
            assert not [line for line, _rows in fit["wrapped"] if LIONS in line or TIGERS in line], fit
        await page.js(f"{PODIUM}.scrollIntoView({{block: 'start'}})")
        await page.js("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        shots["phone-battle-podium"] = await page.screenshot()

    keep = os.environ.get(SCREENSHOT_ENV)
    for name, png in shots.items():
        (tmp_path / f"{name}.png").write_bytes(png)
        if keep:
            (Path(keep) / f"{name}.png").write_bytes(png)
