"""``make sandbox``: the real bot in SimCord's simulated Discord, with its browser page.

The sandbox is started from Python (:func:`bot.sandbox.open_sandbox`) and driven through the
same members a person switches between on the page; the command line is run as a process. The
sandbox's clock runs with real time; tests that drive the members from Python open it with a still
clock (``real_time=False``), or act inside ``sandbox.hold_clock()``, since SimCord refuses an
action that overlaps a step of the clock. The last test opens the page in a real headless
Chromium when the machine has one (skipped otherwise), at a desktop's width and at a phone's, and
checks that no board scrolls sideways. It writes its two screenshots to its ``tmp_path``, and also
to the directory named by ``WARI_SANDBOX_SCREENSHOT``, if set: ``make screenshots`` sets it to
``docs/``, for the README's ``docs/sandbox-desktop.png`` and ``docs/sandbox-phone.png``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import logging
import os
import queue
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import aiohttp
import pytest

from bot.engine.notation import from_record
from bot.sandbox import BOT_NAME, DM_NAME, GUILD_ID, WORLD_KEY, open_sandbox
from tests.conftest import CHROMIUM
from tests.helpers import board_footer, board_title, cup_labels, press, shown, status_line, surrender, texts, told

ROOT = Path(__file__).resolve().parents[2]
URL = re.compile(r"http://127\.0\.0\.1:[0-9]+/#\S+")


async def challenge_and_accept(sandbox):
    """Ama challenges Kofi and moves first; Kofi accepts. Returns the board message (live)."""
    challenge = await sandbox.ama.slash(sandbox.channel, "wari challenge", opponent=sandbox.kofi, first="me")
    assert challenge.acknowledged and not challenge.ephemeral
    accepted = await sandbox.kofi.click(challenge.response, label="Accept")
    assert accepted.acknowledged
    return challenge.response


def stored_games(database_path) -> list[sqlite3.Row]:
    with sqlite3.connect(database_path) as db:
        db.row_factory = sqlite3.Row
        return db.execute("SELECT * FROM games ORDER BY id").fetchall()


async def get_page(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url.split("#", 1)[0]) as response:
        return response.status, await response.text()


async def test_a_challenge_and_a_move_through_the_sandbox(database_path):
    async with open_sandbox(database_path, real_time=False) as sandbox:
        assert URL.fullmatch(sandbox.url)
        status, page = await get_page(sandbox.url)
        assert status == 200 and "<html" in page.lower()
        assert sandbox.guild.id == GUILD_ID and sandbox.bot.get_guild(GUILD_ID).me.name == BOT_NAME
        assert "wari challenge" in sandbox.kofi.available_commands(sandbox.channel)

        board = await challenge_and_accept(sandbox)
        assert status_line(board).startswith(f"**{shown(sandbox.ama)}**, your move")
        result = await press(sandbox.ama, board, 5)
        assert result.acknowledged and told(result) == []
        assert status_line(board).startswith(f"**{shown(sandbox.kofi)}**, your move")
        assert board_footer(board) == "Move 1"

        # The page shows the board as it is now, to the member it is shown to.
        snapshot = await sandbox.preview.snapshot()
        assert snapshot["viewerId"] == str(sandbox.ama.id)
        assert [viewer["name"] for viewer in snapshot["viewers"]] == ["Ama", "Kofi"]
        assert any("your move" in json.dumps(message) for message in snapshot["messages"].values())
        assert not [item for item in snapshot["diagnostics"] if item.get("severity") != "info"]

    (game,) = stored_games(database_path)
    assert (game["status"], game["player_a"], game["player_b"]) == ("live", sandbox.ama.id, sandbox.kofi.id)
    assert "A(5,4)" in game["record"]


async def test_the_simulated_clock_runs_on_wall_clock_time(database_path):
    async with open_sandbox(database_path) as sandbox:
        assert abs((sandbox.env.now() - datetime.now(UTC)).total_seconds()) < 60
        async with sandbox.hold_clock():
            board = await challenge_and_accept(sandbox)
        assert abs((board.message.created_at - datetime.now(UTC)).total_seconds()) < 60


EXPIRED = "⌛ This challenge expired without an answer."


class PageClient:
    """One page of the Preview, through the HTTP API the browser uses, seen by one member."""

    def __init__(self, http: aiohttp.ClientSession, sandbox, viewer) -> None:
        self.http = http
        self.base, capability = sandbox.url.split("/#", 1)
        self.headers = {"X-Simcord-Capability": capability}
        self.viewer = viewer
        self.sequence = 0

    async def call(self, method: str, path: str, body=None):
        async with self.http.request(method, self.base + path, json=body, headers=self.headers) as response:
            assert response.status == 200, await response.text()
            return await response.json()

    async def open(self):
        page = await self.call("POST", "/api/pages", {"viewer_id": str(self.viewer.id)})
        self.headers["X-Simcord-Context"] = page["context"]["id"]
        return page

    async def state(self):
        """What the page shows now (as last published: reading it publishes nothing)."""
        return await self.call("GET", "/api/state")

    async def click(self, message, label: str):
        state = await self.state()
        (button,) = (
            item
            for row in state["messages"][str(message.id)]["components"]
            for item in row["components"]
            if item.get("label") == label
        )
        self.sequence += 1
        return await self.call(
            "POST",
            "/api/action",
            {
                "protocol_version": 3,
                "sequence": self.sequence,
                "request_id": f"test-{self.sequence}",
                "generation": state["context"]["generation"],
                "bot_generation": state["botGeneration"],
                "published_revision": state["publishedRevision"],
                "kind": "click",
                "target_id": str(message.id),
                "control_key": button["control_key"],
            },
        )


def on_page(state, message) -> str:
    """The text of ``message`` on the page (its content and embeds)."""
    return json.dumps(state["messages"][str(message.id)], ensure_ascii=False)


async def test_time_passes_in_the_sandbox_and_a_challenge_expires_by_itself(database_path, caplog):
    async with open_sandbox(database_path, challenge_timeout=1) as sandbox, aiohttp.ClientSession() as http:
        env = sandbox.env
        async with sandbox.hold_clock():
            # The bot's sweeps (it looks for expired challenges every 15 s) run every second
            # instead, so that the test need not wait so long.
            cog = sandbox.bot.get_cog("Wari")
            sweeps = [cog.sweep, cog.heartbeat]
            assert sweeps
            for sweep in sweeps:
                sweep.change_interval(seconds=1)
            challenge = await sandbox.ama.slash(sandbox.channel, "wari challenge", opponent=sandbox.kofi)
        assert challenge.response.content == f"{sandbox.kofi.mention}, you have been challenged!"
        kofi = PageClient(http, sandbox, sandbox.kofi)
        assert "you have been challenged" in on_page(await kofi.open(), challenge.response)

        # Nobody acts: time passes, the challenge expires, the bot says so.
        real, virtual = time.monotonic(), env.now()
        while challenge.response.content != EXPIRED:
            assert time.monotonic() - real < 5, "the challenge did not expire by itself"
            await asyncio.sleep(0.1)
        assert challenge.response.components == []
        # The page shows it too: the step of the clock in which the bot acted (it has ended once
        # the clock can be held) published the page again; here its state is only read.
        async with sandbox.hold_clock():
            pass
        assert EXPIRED in on_page(await kofi.state(), challenge.response)

        # The clock went on as the wall clock does (it moves on about every second).
        await asyncio.sleep(max(0.0, real + 1.5 - time.monotonic()))
        assert (env.now() - virtual).total_seconds() >= time.monotonic() - real - 1.5
        assert -0.1 < (datetime.now(UTC) - env.now()).total_seconds() < 1.5
        async with sandbox.hold_clock():  # the channel is free again
            again = await sandbox.kofi.slash(sandbox.channel, "wari challenge", opponent=sandbox.ama)
        assert again.response.content == f"{sandbox.ama.mention}, you have been challenged!"

    assert not [task for task in asyncio.all_tasks() if task.get_name() == "wari-sandbox-clock"]
    assert "the simulated clock" not in caplog.text  # nothing logged about it: it never failed


async def test_a_click_on_the_page_waits_for_a_step_of_the_clock(database_path):
    async with open_sandbox(database_path) as sandbox, aiohttp.ClientSession() as http:
        async with sandbox.hold_clock():
            challenge = await sandbox.ama.slash(sandbox.channel, "wari challenge", opponent=sandbox.kofi)
        kofi = PageClient(http, sandbox, sandbox.kofi)
        await kofi.open()
        # Held as a step of the clock holds it: SimCord would refuse the click meanwhile (it
        # refuses overlapping operations), so the page's click waits for the step to end.
        async with sandbox.hold_clock():
            click = asyncio.ensure_future(kofi.click(challenge.response, "Decline"))
            await asyncio.sleep(0.3)
            assert not click.done()
        result = await click
        assert result["rejected"] is False and result["settlement"] == "settled", result
        assert "declined" in challenge.response.content


async def test_a_game_continues_after_the_sandbox_restarts(database_path):
    async with open_sandbox(database_path, real_time=False) as first:
        ids = first.world_ids()
        old_board = await challenge_and_accept(first)
        await press(first.ama, old_board, 5)
        old_board_id = old_board.id
        assert first.resumed_board is None

    async with open_sandbox(database_path, real_time=False) as again:
        # Same server, channel, members and bot: the stored game is theirs.
        assert again.world_ids() == ids
        assert "wari challenge" in again.ama.available_commands(again.channel)
        # The board came back at start (posted by Kofi, whose move it is), as it was.
        board = again.resumed_board
        assert board is not None and board.id != old_board_id
        assert status_line(board).startswith(f"**{shown(again.kofi)}**, your move")
        assert board_footer(board) == "Move 1"
        # The sandbox's cups show their seeds in pictures (its bot has its cup emojis): a house a label.
        assert cup_labels(board) == ["12", "11", "10", "9", "8", "7"]
        await press(again.kofi, board, 7)
        assert board_footer(board) == "Move 2"
        assert status_line(board).startswith(f"**{shown(again.ama)}**, your move")

    (game,) = stored_games(database_path)
    assert game["status"] == "live" and "A(5,4) B(7,5)" in game["record"]


async def test_the_bot_is_an_opponent_and_its_games_survive_a_restart_too(database_path):
    async with open_sandbox(database_path, real_time=False) as sandbox:
        started = await sandbox.ama.slash(sandbox.channel, "wari challenge", opponent=sandbox.bot_user, first="me")
        assert started.acknowledged and not started.ephemeral
        board = started.response
        await press(sandbox.ama, board, 5)
        # The bot has answered by the time the press settles: Ama's turn again.
        assert status_line(board).startswith(f"**{shown(sandbox.ama)}**, your move")
        assert board_footer(board) == "Move 2"

    async with open_sandbox(database_path, real_time=False) as again:
        board = again.resumed_board
        assert board is not None and status_line(board).startswith(f"**{shown(again.ama)}**, your move")
        await press(again.ama, board, 1)
        assert board_footer(board) == "Move 4"

    (game,) = stored_games(database_path)
    assert game["player_b"] == sandbox.bot_user.id and len(from_record(game["record"])[0].moves) == 4


async def test_a_restart_touches_no_message_of_the_earlier_run(database_path, caplog):
    """The messages of an earlier run went with its simulated Discord: at a restart the bot no
    longer tries to edit them ("404 Unknown Message"), while the board still comes back, and a
    challenge left open still expires."""
    async with open_sandbox(database_path, real_time=False, challenge_timeout=60) as first:
        board = await challenge_and_accept(first)
        await press(first.ama, board, 5)
    async with open_sandbox(database_path, real_time=False, challenge_timeout=60) as second:
        await surrender(second.kofi, second.channel)  # the game of the first run ends in the second
        challenge = await second.ama.slash(second.channel, "wari challenge", opponent=second.kofi)
        assert challenge.response.content == f"{second.kofi.mention}, you have been challenged!"

    caplog.clear()
    with caplog.at_level(logging.WARNING):
        async with open_sandbox(database_path, real_time=False, challenge_timeout=60) as again:
            assert again.resumed_board is None  # no live game: the challenge is what is left
            # The challenge of the second run expires in the third, where its message never was.
            await again.env.advance_time(120)
            assert await again.bot.store.games.challenge_in(again.channel.id) is None
            again_board = await challenge_and_accept(again)
            await press(again.ama, again_board, 5)
        async with open_sandbox(database_path, real_time=False) as last:
            # The game of the third run is shown again in the fourth, and played on.
            board = last.resumed_board
            assert board is not None and board_footer(board) == "Move 1"
            await press(last.kofi, board, 7)
            assert board_footer(board) == "Move 2"
    warnings = [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING]
    assert warnings == []
    assert "Unknown Message" not in caplog.text


async def test_a_change_of_the_simulated_ids_is_reported(database_path, caplog):
    async with open_sandbox(database_path) as sandbox:
        ids = sandbox.world_ids()
    with sqlite3.connect(database_path) as db:
        (recorded,) = db.execute("SELECT value FROM meta WHERE key = ?", (WORLD_KEY,)).fetchone()
        assert json.loads(recorded) == ids
        db.execute("UPDATE meta SET value = ? WHERE key = ?", (json.dumps({**ids, "channel": 1}), WORLD_KEY))
    async with open_sandbox(database_path):
        pass
    assert "the simulated server's ids differ from those recorded" in caplog.text
    caplog.clear()
    async with open_sandbox(database_path):  # recorded anew: said once
        pass
    assert "ids differ" not in caplog.text


async def test_a_database_of_before_the_dm_keeps_its_world_and_is_not_warned(database_path, caplog):
    async with open_sandbox(database_path) as sandbox:
        ids = sandbox.world_ids()
    with sqlite3.connect(database_path) as db:  # as recorded by a sandbox that made no DM
        before = {key: value for key, value in ids.items() if key != "dm"}
        db.execute("UPDATE meta SET value = ? WHERE key = ?", (json.dumps(before), WORLD_KEY))
    async with open_sandbox(database_path) as again:
        assert again.world_ids() == ids  # the DM, made last, moved no other id
    assert "ids differ" not in caplog.text


async def test_refusals_surrender_and_abort_in_the_sandbox(database_path):
    async with open_sandbox(database_path, real_time=False) as sandbox:
        board = await challenge_and_accept(sandbox)
        wrong = await press(sandbox.kofi, board, 3)
        assert told(wrong)[0].ephemeral
        assert told(wrong)[0].content == f"It's {shown(sandbox.ama)}'s turn."

        gave_up = await surrender(sandbox.kofi, sandbox.channel)
        assert gave_up.content.startswith(f"🏳️ {shown(sandbox.kofi)} surrendered. {sandbox.ama.mention} wins")
        assert cup_labels(board) == []

        # Ama owns the server, so she may abort; Kofi does not even see the command.
        await challenge_and_accept(sandbox)
        assert "wari-mod abort" not in sandbox.kofi.available_commands(sandbox.channel)
        aborted = await sandbox.ama.slash(sandbox.channel, "wari-mod abort")
        assert aborted.response.content.startswith(f"🛑 {shown(sandbox.ama)} aborted game #2")

    assert [row["status"] for row in stored_games(database_path)] == ["finished", "aborted"]


# -- the command line ---------------------------------------------------------------------------


def test_the_command_line_serves_the_page_until_interrupted(tmp_path: Path) -> None:
    database = tmp_path / "cli.sqlite3"
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.sandbox", "--database", str(database)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    stdout, stderr = process.stdout, process.stderr
    assert stdout is not None and stderr is not None  # started with stdout=PIPE and stderr=PIPE
    lines: queue.Queue[str | None] = queue.Queue()

    def read_lines() -> None:
        for line in stdout:
            lines.put(line)
        lines.put(None)

    reader = threading.Thread(target=read_lines, daemon=True)
    reader.start()
    out: list[str] = []
    try:
        url = None
        while url is None:
            line = lines.get(timeout=60)
            assert line is not None, "".join(out) + stderr.read()
            out.append(line)
            if match := URL.search(line):
                url = match.group()
        assert f"Database: {database}" in "".join(out)
        status, _ = asyncio.run(get_page(url))
        assert status == 200
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    reader.join(timeout=10)
    out.extend(iter(lambda: lines.get(timeout=10), None))
    err = stderr.read()
    stdout.close()
    stderr.close()
    assert process.returncode == 0, err
    assert "Wari sandbox stopped." in "".join(out)
    assert "Traceback" not in err and "Task was destroyed" not in err
    assert database.exists()


@pytest.mark.parametrize("module", ["simcord", "PIL"])
def test_without_simcord_preview_the_command_says_what_to_do_in_one_line(module):
    code = f"import sys; sys.modules[{module!r}] = None; from bot.sandbox.__main__ import main; sys.exit(main([]))"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1, run.stderr
    assert run.stderr.startswith(
        f"wari-sandbox: the sandbox needs simcord[preview] (missing: {module}): run `make sandbox`"
    )


# -- a real browser -----------------------------------------------------------------------------

#: Set to a directory (``make screenshots``: docs/) to keep the browser test's screenshots there,
#: as sandbox-desktop.png and sandbox-phone.png.
SCREENSHOT_ENV = "WARI_SANDBOX_SCREENSHOT"
#: The sizes the page is shown at: (width, height, mobile, device scale factor).
DESKTOP = (1280, 860, False, 1)
PHONE = (390, 844, True, 2)
SMALL_PHONE = (360, 740, True, 2)


#: How long a resize waits for the page's layout (a round trip to the sandbox, which waits for
#: its clock step, which waits for the bot: over 15 s once in CI on a busy machine), and how many
#: times it sets the size again when the page dropped its viewport update.
LAYOUT_TIMEOUT = 30
LAYOUT_ATTEMPTS = 3
ACTION_STATUS = "document.getElementById('action-status')?.textContent"


class Page:
    """Just enough of the Chrome DevTools Protocol to drive the page: evaluate, wait, capture."""

    def __init__(self, socket) -> None:
        self.socket = socket
        self.ids = itertools.count(1)

    async def call(self, method: str, **params):
        number = next(self.ids)
        await self.socket.send_json({"id": number, "method": method, "params": params})
        async for message in self.socket:
            data = json.loads(message.data)
            if data.get("id") == number:
                if "error" in data:
                    raise RuntimeError(f"{method}: {data['error']}")
                return data["result"]
        raise RuntimeError("the browser closed the connection")

    async def js(self, expression: str):
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def until(self, expression: str, what: str, timeout: float = 15):
        """Wait until ``expression`` is truthy in the page."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = await self.js(expression)
            if value:
                return value
            await asyncio.sleep(0.1)
        text = await self.js("document.body.innerText")
        raise AssertionError(f"timed out waiting for {what}; the page shows:\n{text[-1500:]}")

    async def idle(self) -> None:
        """Wait until the page has finished its last action (it ignores clicks meanwhile)."""
        await self.until(
            "(() => { const s = document.getElementById('action-status');"
            " return !!s && !s.textContent.endsWith('…') && !document.querySelector('[aria-busy=true]') })()",
            "the page to be idle",
            timeout=LAYOUT_TIMEOUT,  # an action waits for the sandbox's clock step, as a resize does
        )

    async def click(self, selector: str, text: str) -> None:
        """Click the first enabled element matching ``selector`` whose text starts with ``text``."""
        await self.idle()
        found = await self.js(
            f"(() => {{ const e = [...document.querySelectorAll({json.dumps(selector)})]"
            f".find(e => e.innerText.trim().startsWith({json.dumps(text)}) && !e.disabled);"
            f" if (e) e.click(); return !!e }})()"
        )
        assert found, f"no {selector} {text!r} on the page"

    async def resize(self, width: int, height: int, mobile: bool, scale: int) -> None:
        """Show the page at this size, as a desktop or a phone (mobile), and wait for its layout.

        The page lays itself out for the window's size after a round trip to the sandbox
        ("Viewport updated"): the channel, #preview-app, then fills its stage (the window less
        the list of messages on a desktop, all of it on a phone).
        """
        laid_out = (
            f"document.documentElement.clientWidth === {width} && (s => s.clientWidth"
            " === Math.round(document.getElementById('preview-app').getBoundingClientRect().width))"
            "(document.getElementById('preview-stage'))"
        )
        for attempt in range(LAYOUT_ATTEMPTS):
            # A nudge of one pixel first, on a second try: the page sends its viewport only when
            # the window's size changes.
            for nudge in (1, 0) if attempt else (0,):
                await self.call(
                    "Emulation.setDeviceMetricsOverride",
                    width=width + nudge,
                    height=height,
                    deviceScaleFactor=scale,
                    mobile=mobile,
                )
            try:
                await self.until(laid_out, f"the page laid out at {width} px", timeout=LAYOUT_TIMEOUT)
                break
            except AssertionError:
                # On a busy machine SimCord's page may drop its viewport update ("Action was not
                # completed."), and the layout stays at the old width: a person would resize again.
                if attempt == LAYOUT_ATTEMPTS - 1 or await self.js(ACTION_STATUS) != "Action was not completed.":
                    raise
        await self.idle()
        await self.js("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")

    async def fit(self, title: str) -> dict:
        """How the newest board whose embed title contains ``title`` fits the page's width.

        The board's drawing is its code block (a ``pre``, with a ``code`` inside); it fits when
        neither scrolls sideways (``scrollWidth <= clientWidth``) and its embed, like the page, is
        no wider than the window. The same check is made on a copy of the drawing set four times side by
        side, in the same place, which must not fit: the check could see a drawing too wide.
        """
        return await self.js(
            f"(() => {{ const fits = e => e.scrollWidth <= e.clientWidth, card = {board_card(title)};"
            " if (!card) return null;"
            " const blocks = [...card.querySelectorAll('pre, pre code')];"
            " const pre = card.querySelector('pre'); const probe = pre.cloneNode(true);"
            " probe.querySelector('code').textContent ="
            " pre.innerText.split('\\n').map(line => Array(4).fill(line).join('  ')).join('\\n');"
            " pre.after(probe); const wide = [probe, probe.querySelector('code')].every(fits); probe.remove();"
            " const root = document.documentElement, right = card.getBoundingClientRect().right;"
            " const text = document.createRange(); text.selectNodeContents(pre.querySelector('code'));"
            " return {drawing: pre.innerText, blocks: blocks.map(e => [e.tagName, e.scrollWidth, e.clientWidth]),"
            " text_width: Math.ceil(text.getBoundingClientRect().width),"
            " fits: blocks.length > 0 && blocks.every(fits), wide_fits: wide, embed_right: right,"
            " window: root.clientWidth,"
            " page: [root.scrollWidth, root.clientWidth], embed_fits: right <= root.clientWidth && fits(root)} })()"
        )

    async def assert_fits(self, title: str, size: tuple) -> dict:
        """Show the page at ``size`` and assert that the board titled ``title`` fits it."""
        await self.resize(*size)
        fit = await self.fit(title)
        assert fit is not None, f"no board {title!r} on the page"
        assert fit["fits"], f"the board {title!r} scrolls sideways at {size[0]} px: {fit}"
        assert fit["embed_fits"], f"the board {title!r} is wider than the page at {size[0]} px: {fit}"
        assert not fit["wide_fits"], (
            f"a drawing four times as wide would fit at {size[0]} px: the check sees nothing: {fit}"
        )
        return fit

    async def bring_into_view(self, title: str) -> None:
        """Scroll the message of the board titled ``title`` to the top of the channel."""
        await self.js(f"{board_card(title)}.closest('.channel-message').scrollIntoView({{block: 'start'}})")
        await self.js("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")

    async def screenshot(self) -> bytes:
        png = base64.b64decode((await self.call("Page.captureScreenshot", format="png"))["data"])
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        return png

    async def view_as(self, name: str) -> None:
        await self.idle()
        chosen = await self.js(
            "(() => { const s = document.getElementById('viewer-picker');"
            f" const o = [...s.options].find(o => o.text === {json.dumps(name)}); if (!o) return false;"
            " s.value = o.value; s.dispatchEvent(new Event('change', {bubbles: true})); return true })()"
        )
        assert chosen, f"{name} is not offered in the viewer picker"
        await self.idle()


def board_card(title: str) -> str:
    """A JavaScript expression: the newest embed on the page whose title contains ``title``, or
    the newest board laid out in a container (Components V2) whose text does."""
    return (
        "[...document.querySelectorAll('.embed-card, .component-container')]"
        ".filter(c => (c.classList.contains('embed-card') ? c.querySelector('.embed-title') : c)"
        f"?.innerText.includes({json.dumps(title)})).at(-1)"
    )


@contextlib.asynccontextmanager
async def browser_page(tmp_path, url: str):
    """Headless Chromium showing ``url`` at a desktop's size, driven through the DevTools protocol."""
    if CHROMIUM is None:
        pytest.fail("this test needs Chromium (Debian: apt-get install chromium)")
    profile = tmp_path / "chromium-profile"
    process = await asyncio.create_subprocess_exec(
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--remote-debugging-port=0",
        "about:blank",
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (port_file.exists() and port_file.read_text().count("\n") >= 1):
            if time.monotonic() > deadline or process.returncode is not None:
                pytest.fail("headless Chromium did not start")
            await asyncio.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/json/list") as response:
                target = next(item for item in await response.json() if item["type"] == "page")
            async with http.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0) as socket:
                page = Page(socket)
                width, height, mobile, scale = DESKTOP
                await page.call(
                    "Emulation.setDeviceMetricsOverride",
                    width=width,
                    height=height,
                    deviceScaleFactor=scale,
                    mobile=mobile,
                )
                await page.call("Page.navigate", url=url)
                await page.until("document.getElementById('viewer-picker')?.options.length === 2", "the viewer picker")
                yield page
    finally:
        if process.returncode is None:
            process.terminate()
        try:
            await asyncio.wait_for(process.wait(), 10)
        except TimeoutError:
            process.kill()
            await process.wait()


def board_in(channel):
    """The game's board: the newest message of the channel laid out as a board (pings come after it)."""
    return next(m for m in reversed(channel.history()) if texts(m) and "· game #" in board_title(m))


def mover(sandbox, board):
    """The member whose move it is, from the name that starts the board's status line."""
    return next(
        member for member in sandbox.members if status_line(board).startswith(f"**{shown(member)}**, your move")
    )


# Skipped only on a developer's machine without it: CI installs chromium (.ci/run) and fails here if it cannot;
# so does `make screenshots`.
@pytest.mark.chromium
async def test_a_person_plays_in_the_page_in_a_real_browser(database_path, tmp_path):
    async with (
        open_sandbox(database_path, rng=random.Random(7)) as sandbox,
        browser_page(tmp_path, sandbox.url) as page,
    ):
        # Ama types /wari challenge in the message box, picks Kofi as the opponent and sends.
        await page.idle()
        await page.js("document.querySelector('textarea').focus()")
        await page.call("Input.insertText", text="/wari chal")
        await page.until("!!document.querySelector('.command-entry')", "the command suggestions")
        await page.click(".command-entry", "/wari challenge")
        # The opponent is optional (without one the challenge is open to anyone): add it.
        await page.until("!!document.querySelector('.command-suggestion')", "the command's options")
        await page.click(".command-suggestion", "opponent")
        members = "[...document.querySelectorAll('[role=option]')].some(e => e.innerText.startsWith('Kofi'))"
        await page.until(members, "the members to pick from")
        await page.click("[role=option]", "Kofi")
        await page.click("button.send-message", "")
        await page.until("document.body.innerText.includes('you have been challenged')", "the challenge")
        assert sandbox.channel.last_message.content == f"{sandbox.kofi.mention}, you have been challenged!"

        # Kofi accepts; then whoever is to move presses a cup, four times.
        await page.view_as("Kofi")
        await page.click("button.component-button", "Accept")
        await page.until("document.body.innerText.includes('No move yet')", "the board")
        board = board_in(sandbox.channel)
        for moves in range(1, 5):
            await page.view_as(mover(sandbox, board).user.global_name)
            await page.click("button.component-button", "")  # the first cup the page lets them press
            await page.until(f"document.body.innerText.includes('Move {moves}')", f"move {moves}")
            board = board_in(sandbox.channel)
            assert board_footer(board) == f"Move {moves}"
        # The player to move is pinged by a new message below the board, a minute after the move
        # (a day a move: the ping waits in case they are at the board).
        async with sandbox.hold_clock():
            await sandbox.env.advance_time(95)
        await page.click("#refresh", "Refresh")
        await page.until("document.body.innerText.includes('your move in game #1')", "the turn ping")

        # The one who just moved presses again: only they see the refusal.
        await page.click("button.component-button", "")
        await page.until("document.body.innerText.includes('Only you can see this')", "the refusal")
        assert f"It's {shown(mover(sandbox, board))}'s turn." in await page.js("document.body.innerText")
        await page.idle()

        # The board reads without scrolling sideways on a desktop and on phones, where the page
        # keeps its newest messages in view: the board is brought into view for the screenshot.
        fits = {}
        shots = {}
        for name, size in [("desktop", DESKTOP), ("phone", PHONE), ("small phone", SMALL_PHONE)]:
            fits["wari", name] = await page.assert_fits("Wari · game #1", size)
            if name == "phone":
                await page.bring_into_view("Wari · game #1")
            if name != "small phone":
                shots[name] = await page.screenshot()
        assert "12 11 10  9  8  7" in fits["wari", "phone"]["drawing"]  # wari lies across

        # Kalah with ten houses of ten seeds is drawn upright, and fits a phone too. The channel
        # holds one game at a time: Kofi gives up, and Ama plays the bot.
        async with sandbox.hold_clock():
            gave_up = await surrender(sandbox.kofi, sandbox.channel)
            assert gave_up.content.startswith(f"🏳️ {shown(sandbox.kofi)} surrendered."), gave_up.content
            kalah = await sandbox.ama.slash(
                sandbox.channel, "wari play", variant="kalah", houses=10, seeds=10, first="me"
            )
            assert kalah.acknowledged and not kalah.ephemeral, kalah.response.content
        await page.click("#refresh", "Refresh")  # what was done outside the page is shown on demand
        await page.until("document.body.innerText.includes('Kalah 10x10 · game #2')", "the kalah board")
        for name, size in [("phone", PHONE), ("small phone", SMALL_PHONE)]:
            fits["kalah", name] = await page.assert_fits("Kalah 10x10 · game #2", size)
        assert fits["kalah", "phone"]["drawing"].count("\n") >= 10 + 3  # upright: a line a house
        await page.bring_into_view("Kalah 10x10 · game #2")
        shots["kalah-phone"] = await page.screenshot()

    keep = os.environ.get(SCREENSHOT_ENV)
    for name, png in shots.items():
        (tmp_path / f"sandbox-{name}.png").write_bytes(png)
        if keep and name in ("desktop", "phone"):
            (Path(keep) / f"sandbox-{name}.png").write_bytes(png)
    print({f"{board} at {size}": (fit["blocks"], fit["text_width"]) for (board, size), fit in fits.items()})
    games = stored_games(database_path)
    four_moves_and_surrender = from_record(games[0]["record"])[0].moves
    assert games[0]["status"] == "finished" and len(four_moves_and_surrender) == 5
    assert four_moves_and_surrender[-1].ending.value == "surrender"
    assert games[1]["status"] == "live" and games[1]["player_b"] == sandbox.bot_user.id


async def type_command(page, typed: str, command: str) -> None:
    """Type ``typed`` in the message box and pick ``command`` among the suggestions."""
    await page.idle()
    await page.js("document.querySelector('textarea').focus()")
    await page.call("Input.insertText", text=typed)
    await page.until("!!document.querySelector('.command-entry')", "the command suggestions")
    await page.click(".command-entry", command)


async def pick_option(page, option: str, value: str) -> None:
    """Add the option ``option`` to the command being typed, with the suggested ``value``."""
    offered = (
        "[...document.querySelectorAll('[role=option]')]"
        f".some(e => (e.querySelector('.command-suggestion-label') || e).innerText.trim() === {json.dumps(option)})"
    )
    if not await page.js(offered):
        await page.click(".command-ghost", "+")  # "+N more": the other options
        await page.until(offered, f"the option {option}")
    await page.click("[role=option]", option)
    value_offered = (
        f"[...document.querySelectorAll('[role=option]')].some(e => e.innerText.startsWith({json.dumps(value)}))"
    )
    await page.until(value_offered, f"the values of {option}")
    await page.click("[role=option]", value)


async def test_a_game_in_a_thread_is_followed_and_played_there_in_the_page(database_path, tmp_path):
    async with (
        open_sandbox(database_path, rng=random.Random(7)) as sandbox,
        browser_page(tmp_path, sandbox.url) as page,
    ):
        # Ama challenges Kofi in a thread of its own, from the message box.
        await type_command(page, "/wari chal", "/wari challenge")
        await pick_option(page, "opponent", "Kofi")
        await pick_option(page, "thread", "True")
        await page.click("button.send-message", "")

        # The page follows the challenge into the thread the bot opened, and says so.
        picker = "document.getElementById('sandbox-channel-picker')"
        await page.until(f"{picker}?.options.length === 3", "the thread in the channel picker")
        (thread,) = sandbox.channel.threads
        assert thread.name.startswith("Ama vs Kofi")
        await page.until(f"{picker}?.value === {json.dumps(str(thread.id))}", "the thread to be shown")
        await page.until("document.body.innerText.includes('you have been challenged')", "the challenge in the thread")
        assert await page.js("document.getElementById('channel-name').innerText") == thread.name
        assert thread.name in await page.js("document.getElementById('sandbox-notice').innerText")
        # #games first, then its threads, newest first, then Ama's DM with the bot.
        options = await page.js(f"[...{picker}.options].map(o => [o.value, o.text])")
        assert options == [
            [str(sandbox.channel.id), "# games"],
            [str(thread.id), f"🧵 {thread.name}"],
            [str(sandbox.dm.id), f"✉️ {DM_NAME}"],
        ]

        # Back to #games and into the thread again, with the picker.
        for channel in (sandbox.channel, thread):
            await page.idle()
            await page.js(
                f"(s => {{ s.value = {json.dumps(str(channel.id))};"
                " s.dispatchEvent(new Event('change', {bubbles: true})) })"
                f"({picker})"
            )
            await page.until(
                f"document.getElementById('channel-name').innerText === {json.dumps(channel.name)}",
                f"#{channel.name} to be shown",
            )
        assert sandbox.preview.channel.id == thread.id

        # Kofi accepts there, and presses a cup: the board in the thread changes.
        await page.view_as("Kofi")
        await page.click("button.component-button", "Accept")
        await page.until("document.body.innerText.includes('No move yet')", "the board")
        board = board_in(thread)
        await page.view_as(mover(sandbox, board).user.global_name)
        await page.click("button.component-button", "")
        await page.until("document.body.innerText.includes('Move 1')", "move 1")
        assert board_footer(board_in(thread)) == "Move 1"
        assert not [m for m in sandbox.channel.history() if texts(m) and "· game #" in board_title(m)]


def relative(seconds: float) -> str:
    """What Discord (and SimCord's page) shows for ``<t:…:R>`` that far ahead, in English
    (minutes and hours only: what the tests need)."""
    if abs(seconds) < 3600:
        amount, unit = round(seconds / 60), "minute"
    else:
        amount, unit = round(seconds / 3600), "hour"
    return f"in {amount} {unit}{'' if amount == 1 else 's'}"


TIMESTAMPS = "[...document.querySelectorAll('time.discord-timestamp')].map(t => t.innerText)"


async def test_relative_times_on_the_page_follow_the_sandboxs_clock(database_path, tmp_path):
    async with (
        open_sandbox(database_path, real_time=False) as sandbox,
        browser_page(tmp_path, sandbox.url) as page,
    ):
        challenge = await sandbox.ama.slash(sandbox.channel, "wari challenge", opponent=sandbox.kofi)
        await page.click("#refresh", "Refresh")
        # The challenge's deadline, as its message gives it to Discord (to the second).
        (unix,) = re.findall(r"<t:([0-9]+):R>", json.dumps(challenge.response.embeds[0].to_dict()))
        expires = datetime.fromtimestamp(int(unix), UTC)
        expected = relative((expires - sandbox.env.now()).total_seconds())
        assert expected == "in 10 minutes"
        await page.until(f"JSON.stringify({TIMESTAMPS}) === {json.dumps(json.dumps([expected]))}", expected)

        # The sandbox's clock moves (here by hand: it stands still otherwise); the page, not
        # reloaded nor refreshed, says so within a second or two, as the server would format it.
        for seconds in (140, 125):
            await sandbox.env.advance_time(seconds)
            expected = relative((expires - sandbox.env.now()).total_seconds())
            await page.until(
                f"JSON.stringify({TIMESTAMPS}) === {json.dumps(json.dumps([expected]))}", expected, timeout=5
            )
        assert expected == "in 6 minutes"
        server_now = await page.js("window.sandboxPage.serverNow()")
        assert abs(server_now / 1000 - sandbox.env.now().timestamp()) < 0.01  # a still clock, sent as is


async def test_times_are_shown_in_the_viewers_language(database_path, tmp_path):
    async with (
        open_sandbox(database_path, real_time=False) as sandbox,
        browser_page(tmp_path, sandbox.url) as page,
    ):
        await sandbox.kofi.slash(sandbox.channel, "wari settings", language="fr")
        await sandbox.ama.slash(sandbox.channel, "wari challenge", opponent=sandbox.kofi)
        await page.click("#refresh", "Refresh")
        await page.until(f"JSON.stringify({TIMESTAMPS}) === '[\"in 10 minutes\"]'", "English for Ama")
        # Kofi reads French: so do his times, as his Discord would show them.
        await page.view_as("Kofi")
        await page.until(f"JSON.stringify({TIMESTAMPS}) === '[\"dans 10 minutes\"]'", "French for Kofi")
        assert await page.js("document.querySelector('time.discord-timestamp').lang") == "fr"
        title = await page.js("document.querySelector('time.discord-timestamp').title")
        assert re.search(r"\b(lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)\b", title), title
        # The server speaks French too: Ama, who chose no language, reads French then.
        await sandbox.ama.slash(sandbox.channel, "wari-mod settings", language="fr")
        await page.view_as("Ama")
        await page.until(f"JSON.stringify({TIMESTAMPS}) === '[\"dans 10 minutes\"]'", "French for Ama")
        formatted = await page.js(
            "['f', 'T'].map(s => window.sandboxPage.formatTimestamp(1800000000, s, window.sandboxPage.viewerLocale(),"
            " 'UTC', 0))"
        )
        assert formatted == ["15 janv. 2027, 8:00", "8:00:00"], formatted


async def test_the_page_shows_the_bot_thinking_before_its_move(database_path, tmp_path):
    async with (
        open_sandbox(database_path) as sandbox,
        browser_page(tmp_path, sandbox.url) as page,
    ):
        async with sandbox.hold_clock():
            started = await sandbox.ama.slash(sandbox.channel, "wari challenge", opponent=sandbox.bot_user, first="me")
            assert started.acknowledged and not started.ephemeral
        await page.click("#refresh", "Refresh")
        await page.until("document.body.innerText.includes('No move yet')", "the board")
        # Every change of the messages is looked at, as the page shows it.
        await page.js(
            "window.seen = []; new MutationObserver(() => { const t = document.getElementById('channel-message-list')"
            ".innerText; const s = t.includes('is thinking') ? 'thinking' : t.includes('Move 2') ? 'answered' : null;"
            " if (s && window.seen.at(-1) !== s) window.seen.push(s) })"
            ".observe(document.body, {childList: true, subtree: true, characterData: true})"
        )
        await page.click("button.component-button", "")
        await page.until("document.body.innerText.includes('Move 2')", "the bot's answer")
        assert await page.js("window.seen") == ["thinking", "answered"]
        assert status_line(started.response).startswith(f"**{shown(sandbox.ama)}**, your move")
