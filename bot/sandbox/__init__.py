"""The sandbox: play the real bot in a local browser page, without Discord (``make sandbox``,
``python -m bot.sandbox``: its command line is :mod:`.__main__`).

The bot is built exactly as production builds it (:func:`bot.client.create_bot`, a real SQLite
file) and attached to SimCord's simulated Discord, whose *Preview* serves one channel as a
Discord-like page on 127.0.0.1: its messages, a composer for slash commands, clickable buttons
and a picker to act as either member. No token, no network beyond loopback.

The simulated server is made anew at every start, always the same: the server "Wari Sandbox"
with the channel #games, the members Ama (its owner, so ``/wari-mod abort`` can be tried too) and
Kofi, and the bot itself, named Wari; and Ama's direct messages with the bot, where she can play
it, solve puzzles and read her stats as a player who installed the app does (the page shows it to
her alone, as Discord does). Games are stored by channel and member ids, so those
ids must not change from one run to the next: the server's id is pinned, and the channel and
members are made before the bot starts, in a fixed order, while SimCord's virtual
clock still stands at its fixed starting instant; SimCord draws ids from that clock, so they
come out the same every time. The clock is then moved to the wall-clock time, so messages get
real timestamps and ids never used by an earlier run. The ids are also recorded in the
database, and a change (say, after a SimCord upgrade) is reported at start.

SimCord's clock does not follow real time by itself, so while the sandbox runs it is moved on
about every second by the real time that passed: challenges expire, and the bot's timed work
runs, as on Discord. Each step is one SimCord operation, and SimCord refuses overlapping ones:
the page's actions wait for a step to end, and Python code driving the members meanwhile does
so inside :meth:`Sandbox.hold_clock` (or opens the sandbox with ``real_time=False``, a still
clock).

A game that was going on when the sandbox stopped continues: at start one of its players
runs ``/wari board``, which posts the board again (the old message went with the old run). The
ids of the earlier run's messages are forgotten first, so the bot tries to edit none of them.

The page is SimCord's, served with the sandbox's additions (:mod:`.page`, its files in
``static/``): a channel picker, for the threads where games with ``thread: True`` are played (the
page follows a thread the bot opens), and Discord timestamps (``<t:…:R>``…) kept up to date against the sandbox's
clock, in the language of the member the page is shown to. When the bot plays, the page shows
its board "thinking" before its move (:func:`_show_thinking`), and an analysis runs on after
the command that asked for it is answered, its progress moving on the page
(:func:`_analyse_between_actions`).

The database is ``data/sandbox.sqlite3`` by default, never the production one.
:func:`open_sandbox` starts everything from Python (the tests drive it that way).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import logging
import random
import sqlite3
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..client import WariBot, create_bot
from ..config import PROJECT_ROOT
from ..storage import StorageError

if TYPE_CHECKING:
    import simcord
    from simcord.builders import ChannelHandle, GuildHandle, UserHandle
    from simcord.preview import Preview

log = logging.getLogger(__name__)

DEFAULT_DATABASE = PROJECT_ROOT / "data" / "sandbox.sqlite3"

#: The simulated server's id, pinned (a snowflake of 2025; SimCord's own ids are of 2026 on).
GUILD_ID = 1_325_000_000_000_000_001
GUILD_NAME = "Wari Sandbox"
CHANNEL_NAME = "games"
CHANNEL_TOPIC = "Type /wari to see the commands: challenge a member, read the rules, …"
#: (username, display name) of the two members; the first owns the server.
MEMBERS = (("ama", "Ama"), ("kofi", "Kofi"))
BOT_NAME = "Wari"
#: How the page names Ama's direct messages with the bot.
DM_NAME = "Ama and Wari"
#: Meta key under which the ids of the simulated server are recorded in the database.
WORLD_KEY = "sandbox_world"
#: How often (seconds) the virtual clock is moved on to the real time.
TICK_SECONDS = 1.0
#: The most one step moves the clock (seconds): after the machine slept, it catches up in steps
#: (without pause between them), each short enough for the bot's timed work to settle in time.
MAX_STEP_SECONDS = 60.0

#: The least time (seconds) the page shows the bot "thinking" before its move appears: the page
#: reads what was published every half second, and the simple levels answer at once.
VISIBLE_THINKING_SECONDS = 1.0

#: What ``pip install "simcord[preview]"`` brings that the sandbox needs at run time.
NEEDED_MODULES = ("simcord", "aiohttp", "markdown_it", "linkify_it", "regex", "PIL")
INSTALL_HINT = "run `make sandbox`, or `pip install -e '.[sandbox]'`"


class SandboxUnavailable(RuntimeError):
    """A module the sandbox needs is not installed; ``str()`` says which and what to do."""


def missing_modules() -> list[str]:
    """The modules of :data:`NEEDED_MODULES` that cannot be imported."""
    missing = []
    for name in NEEDED_MODULES:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(name)
    return missing


def require_sandbox() -> None:
    """:raises SandboxUnavailable: if ``simcord[preview]`` is not (fully) installed."""
    missing = missing_modules()
    if missing:
        raise SandboxUnavailable(f"the sandbox needs simcord[preview] (missing: {', '.join(missing)}): {INSTALL_HINT}")
    try:
        import simcord  # noqa: F401  (it checks the discord.py version on import)
    except ImportError as exc:
        raise SandboxUnavailable(f"the sandbox cannot load SimCord ({exc}): {INSTALL_HINT}") from exc


@dataclass
class Sandbox:
    """A running sandbox: the simulated Discord, the bot in it, and the browser page."""

    env: simcord.Env
    bot: WariBot
    guild: GuildHandle
    channel: ChannelHandle
    ama: simcord.MemberActor
    kofi: simcord.MemberActor
    database_path: Path
    #: The board of a game from an earlier run, posted again at start (a live message), if any.
    resumed_board: simcord.ResponseMessage | None = None
    #: Whether the clock moves on with real time (see :func:`open_sandbox`).
    real_time: bool = True
    #: Ama's direct messages with the bot (see the module docstring).
    dm: ChannelHandle | None = None
    #: The browser page's session (set once it serves).
    preview: Preview = field(init=False, repr=False)
    #: Held by each step of the clock, each action from the page, and :meth:`hold_clock`.
    _clock_lock: asyncio.Lock = field(default_factory=asyncio.Lock, init=False, repr=False)
    #: How long SimCord's transcript (every gateway event and REST call) was when the page last
    #: showed it all: after a step of the clock, or an action from the page (which shows its own).
    _shown: int = field(default=0, init=False, repr=False)

    @property
    def url(self) -> str:
        """The page's address; its ``#fragment`` is the session's key (loopback only)."""
        return self.preview.url

    @property
    def members(self) -> tuple[simcord.MemberActor, simcord.MemberActor]:
        return (self.ama, self.kofi)

    @property
    def ama_user(self) -> UserHandle:
        """Ama as a user, outside the server: who acts in her DM with the bot."""
        from simcord.builders import UserHandle

        return UserHandle(self.env, self.env.backend.get_user(self.ama.id))

    @property
    def bot_user(self) -> UserHandle:
        """The bot's own user, to pick as the ``opponent`` option."""
        from simcord.builders import UserHandle

        return UserHandle(self.env, self.env.backend.bot_user)

    @contextlib.asynccontextmanager
    async def hold_clock(self) -> AsyncIterator[None]:
        """Keep the clock still meanwhile (after a step under way ends): act from Python inside it.

        SimCord refuses an operation (a member's slash command or click, ``env.settle()``, the
        Preview's ``snapshot()``…) that overlaps another, such as a step of the clock. Not
        reentrant; needless with ``real_time=False``.
        """
        async with self._clock_lock:
            yield

    def page_channels(self) -> list[ChannelHandle]:
        """What the page can show: #games, then its threads (where games with ``thread: True``
        are played), newest first, then Ama's DM with the bot."""
        threads = sorted(self.channel.threads, key=lambda thread: thread.id, reverse=True)  # ids grow with time
        return [self.channel, *threads, *([self.dm] if self.dm is not None else [])]

    async def show_channel(self, channel_id: int) -> bool:
        """Show #games or one of its threads on every page of the session (as if each person
        clicked it in Discord's channel list); ``False`` if it is neither.

        SimCord's Preview presents one channel, and runs the page's slash commands there: it
        is switched as a whole, between two steps of the clock and the page's actions. A DM is
        shown to its owner alone (SimCord's rule, and Discord's): the page's viewers become Ama
        as a user there, and the two members again back in the server.
        """
        wanted = next((channel for channel in self.page_channels() if channel.id == channel_id), None)
        if wanted is None:
            return False
        async with self._clock_lock:
            preview = self.preview
            if preview.channel.id == channel_id:
                return True
            # SimCord internals (simcord is pinned to 3.x): what its own "viewer" action does to
            # a page, with the channel changed instead of the viewer.
            preview.channel = wanted
            in_dm = wanted is self.dm
            preview.viewers = (self.ama_user,) if in_dm else self.members
            for page in tuple(preview._pages.values()):
                preview._clear_page_assets(page)
                if in_dm:
                    page.viewer = self.ama_user
                elif all(page.viewer is not member for member in self.members):  # Ama, back from her DM
                    page.viewer = self.ama
                page.channel_id = channel_id
                page.generation += 1
                preview._reset_queries(page)
                page.target_id = preview._initial_target(page.viewer, channel_id)
                page.window_end_id = page.target_id if page.layout == "channel" else page.window_end_id
                page.modal = None
                page.modal_handle = None
                preview._publish(page, reason="navigation")
        log.info("the page shows #%s", wanted.name)
        return True

    async def page_state(self) -> dict[str, Any]:
        """What the page's own script needs (``GET /sandbox/state``): the clock, the channels,
        and each member's language."""
        store = self.bot.store
        languages: dict[str, str | None] = {}
        try:
            server_language, _style = await store.settings.server_settings(self.guild.id)
            for member in self.members:
                languages[str(member.id)] = await store.settings.user_language(member.id) or server_language
        except StorageError as exc:
            log.warning("could not read the members' languages: %s", exc)
        return {
            "now": self.env.now().timestamp() * 1000,
            "running": self.real_time,
            "channel": str(self.preview.channel.id),
            "channels": [
                {
                    "id": str(channel.id),
                    "name": DM_NAME if channel is self.dm else channel.name,
                    "thread": channel.id != self.channel.id and channel is not self.dm,
                    "dm": channel is self.dm,
                }
                for channel in self.page_channels()
            ],
            "languages": languages,
        }

    def world_ids(self) -> dict[str, Any]:
        return {
            "guild": self.guild.id,
            "channel": self.channel.id,
            "members": [member.id for member in self.members],
            "bot": self.bot_user.id,
            "dm": self.dm.id if self.dm is not None else None,
        }


#: The columns of the database that hold ids of the bot's messages, by table (and which rows).
MESSAGE_COLUMNS = {
    "games": (("message_id", "ping_message_id", "draw_message_id"), "status = 'live'"),
    "challenges": (("message_id",), "1"),
    "seeks": (("message_id",), "1"),
}


def _forget_messages_of_earlier_runs(database_path: Path) -> None:
    """Forget the ids of the bot's messages of an earlier run, before the bot starts.

    The simulated Discord is new at every start, so they are gone: a board, a challenge, a
    ping or a draw offer of an earlier run is not there to edit or delete. The bot, which
    knows only the real Discord, would try (and log "404 Unknown Message") when it shows a
    resumed game's board again, moving it from its old message, or when an earlier challenge
    expires. Without an id, it posts the board anew and leaves the rest, as for a message that
    was never posted. Nothing happens to a database that does not exist yet.
    """
    if not database_path.exists():
        return
    try:
        with contextlib.closing(sqlite3.connect(database_path)) as db, db:
            for table, (columns, rows) in MESSAGE_COLUMNS.items():
                present = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}  # an older schema lacks some
                wanted = [column for column in columns if column in present]
                if wanted:
                    assignments = ", ".join(f"{column} = NULL" for column in wanted)
                    db.execute(f"UPDATE {table} SET {assignments} WHERE {rows}")  # noqa: S608 (constants only)
    except sqlite3.Error as exc:
        raise StorageError(f"cannot open the database {database_path}: {exc}") from exc


def _build_world(
    env: simcord.Env,
) -> tuple[GuildHandle, ChannelHandle, simcord.MemberActor, simcord.MemberActor, ChannelHandle]:
    """The server, channel and members, then Ama's DM with the bot, always in this order (see
    the module docstring): the DM, made last, leaves the ids of an earlier version's world as
    they were."""
    (ama_name, ama_display), (kofi_name, kofi_display) = MEMBERS
    ama_user = env.create_user(ama_name, global_name=ama_display)
    # Ama owns the server (so she may /wari-mod abort), rather than a third, synthetic owner.
    guild = env.create_guild(GUILD_NAME, id=GUILD_ID, owner=ama_user)
    channel = guild.create_text_channel(CHANNEL_NAME, topic=CHANNEL_TOPIC)
    ama = guild.add_member(ama_user)  # the owner is a member already: this only gives us her actor
    kofi = guild.add_member(env.create_user(kofi_name, global_name=kofi_display))
    # Backend methods are SimCord internals (simcord is pinned to 3.x in pyproject.toml).
    env.backend.edit_bot_profile(BOT_NAME)
    return guild, channel, ama, kofi, ama_user.dm_channel


def _set_clock_to_now(env: simcord.Env) -> None:
    """Move the virtual clock (still at SimCord's fixed start) to the wall-clock time.

    Done before the bot starts, so no timer sees the jump.
    """
    ahead = (datetime.now(UTC) - env.now()).total_seconds()
    if ahead > 0:
        env.backend.advance_clock(ahead)


async def _move_clock_on(sandbox: Sandbox) -> None:
    """Move the virtual clock on with real time, every :data:`TICK_SECONDS`, until cancelled.

    A step moves it by the real time that passed since the previous step (``time.monotonic()``,
    which a change of the system clock does not disturb), less what something else moved it
    meanwhile, or up to the wall-clock time if that is further (the monotonic clock stops
    while the machine sleeps). It never moves back. A step is skipped while another SimCord
    operation is under way, and made up by the next one; a failure is logged, and the next
    step tries again. If the bot acted since the last step (during it, or in work that went on
    between steps, as an analysis does), the page is published again to show it.
    """
    env = sandbox.env
    mark_real, mark_virtual = time.monotonic(), env.now()  # this real instant is that virtual one
    sandbox._shown = len(env.backend.transcript)
    failing = False
    delay = TICK_SECONDS
    while True:
        await asyncio.sleep(delay)
        delay = TICK_SECONDS
        async with sandbox._clock_lock:
            try:
                # A SimCord internal (simcord is pinned to 3.x): an operation not run through the
                # lock (Python code outside hold_clock) is under way; advance_time would refuse.
                if getattr(env, "_operation_task", None) is not None:
                    continue
                real, virtual = time.monotonic(), env.now()
                behind = (real - mark_real) - (virtual - mark_virtual).total_seconds()
                step = min(max(behind, (datetime.now(UTC) - virtual).total_seconds()), MAX_STEP_SECONDS)
                if step > 0:
                    await env.advance_time(step)
                    mark_real, mark_virtual = real - max(0.0, behind - step), env.now()
                    if len(env.backend.transcript) != sandbox._shown:
                        await sandbox.preview.refresh()
                    sandbox._shown = len(env.backend.transcript)
                    if step == MAX_STEP_SECONDS:
                        delay = 0  # still behind: catch up at once (page actions may come in between)
            except Exception:
                log.log(
                    logging.DEBUG if failing else logging.WARNING,
                    "the simulated clock could not move on; trying again in %g s",
                    TICK_SECONDS,
                    exc_info=True,
                )
                failing = True
            else:
                if failing:
                    log.info("the simulated clock moves on again")
                failing = False


@contextlib.asynccontextmanager
async def _clock_running(sandbox: Sandbox) -> AsyncIterator[None]:
    """Run :func:`_move_clock_on` meanwhile, with the page's actions kept between its steps."""
    preview = sandbox.preview
    act = preview._action  # a SimCord internal: what serves each action the page posts

    async def act_between_steps(context_id: str | None, body: Any) -> dict[str, Any]:
        # Otherwise an action overlapping a step would be refused ("context-unavailable").
        async with sandbox._clock_lock:
            try:
                return await act(context_id, body)
            finally:
                # What the action did, the page shows with its answer: the next step need not
                # refresh for it (a refresh overlapping the page's next action made SimCord drop
                # that action on a busy machine: "Action was not completed.").
                sandbox._shown = len(sandbox.env.backend.transcript)

    preview._action = act_between_steps  # type: ignore[method-assign]
    clock = asyncio.create_task(_move_clock_on(sandbox), name="wari-sandbox-clock")
    try:
        yield
    finally:
        try:
            async with sandbox._clock_lock:  # so that no step is cut short
                clock.cancel()
        finally:
            clock.cancel()  # at once if this task is cancelled while it waits for the lock
            del preview._action
        await asyncio.wait({clock})
        if not clock.cancelled() and (error := clock.exception()) is not None:
            log.error("the simulated clock stopped", exc_info=error)


def _show_thinking(sandbox: Sandbox) -> None:
    """Let the page show the board "🤖 Wari is thinking…" while the bot searches its move.

    SimCord's page shows what was published, and an action (a press on a cup) is published as it
    ends, once the bot is done: after the bot's reply, then. So when the bot starts to search
    (its board already says it is thinking), the pages are published, and the search lasts at
    least :data:`VISIBLE_THINKING_SECONDS` of real time, for the page to read it.
    """
    computer = getattr(sandbox.bot.get_cog("Wari"), "computer", None)
    if computer is None:
        log.warning("the bot has no computer player: the page cannot show it thinking")
        return
    search = computer._search

    async def search_in_view(level: str, record_text: str, seconds: float, seed: int) -> int:
        started = time.perf_counter()  # real time: SimCord's clock may stand still meanwhile
        preview = sandbox.preview
        if preview._active:  # SimCord internals (simcord is pinned to 3.x), as Preview.refresh does
            preview._advance_presentation_time()
            for page in tuple(preview._pages.values()):
                if page.id in preview._pages:
                    preview._publish(page, reason="refresh")
        house = await search(level, record_text, seconds, seed)
        rest = VISIBLE_THINKING_SECONDS - (time.perf_counter() - started)
        if rest > 0:
            await asyncio.to_thread(time.sleep, rest)  # not asyncio.sleep, which SimCord may make virtual
        return house

    computer._search = search_in_view


def _analyse_between_actions(sandbox: Sandbox) -> None:
    """Let an analysis run on after the command or the button that asked for it has its answer.

    SimCord ends an action (a slash command, a click) once the bot's work has settled, and
    waits for it at most a few seconds: an analysis, which judges position after position in
    the computer's workers for up to half a minute, would outlast it, and the page would say
    "Action outcome uncertain" although the bot answered at once with the analysis's progress.
    Its waits for a worker are declared to SimCord as waits for external input, which
    settling does not wait for: the action ends with that answer, and the analysis goes on
    between the clock's steps, which show its progress and its result (:func:`_move_clock_on`;
    with a still clock, ``real_time=False``, the page shows them when refreshed).
    """
    computer = getattr(sandbox.bot.get_cog("Wari"), "computer", None)
    if computer is None:
        log.warning("the bot has no computer player: an analysis would hold the page's action")
        return
    in_background = computer.in_background
    env = sandbox.env

    async def outside_actions(function: Any, *args: object) -> Any:
        return await env.external_wait(in_background(function, *args), reason="an analysis in a worker process")

    computer.in_background = outside_actions


async def _restore_commands(sandbox: Sandbox) -> None:
    """Register the bot's slash commands if this run's simulated Discord lacks them.

    Discord keeps a bot's global commands between runs, and the bot syncs them only when they
    changed (it keeps a digest in the database). SimCord's Discord is new at every start, so
    after a restart it has none although the bot rightly thinks they are synced: the sandbox
    plays Discord's memory here and registers the bot's own command tree.
    """
    if not sandbox.ama.available_commands(sandbox.channel):
        await sandbox.bot.tree.sync()
        log.info("slash commands registered again in the simulated Discord (it starts empty at every run)")


async def _check_world(sandbox: Sandbox) -> None:
    """Record the simulated server's ids in the database, or say if they changed."""
    store = sandbox.bot.store
    ids = sandbox.world_ids()
    text = await store.get_meta(WORLD_KEY)
    recorded = json.loads(text) if text is not None else None
    if recorded != ids:
        # An id an earlier version did not record (the DM's) is no change.
        if recorded is not None and any(ids.get(key) != value for key, value in recorded.items()):
            log.warning(
                "the simulated server's ids differ from those recorded in %s (was SimCord upgraded?): "
                "games of earlier runs are out of reach; delete the file to start afresh",
                sandbox.database_path,
            )
        await store.set_meta(WORLD_KEY, json.dumps(ids, sort_keys=True))


async def _resume(sandbox: Sandbox) -> None:
    """Post the board of a game from an earlier run again (in #games, and in Ama's DM), and
    mention a challenge still open."""
    if sandbox.dm is not None and await sandbox.bot.service.tables.table(sandbox.dm.id) is not None:
        result = await sandbox.ama_user.slash("wari board")
        if not (result.acknowledged and result.response is not None and not result.response.ephemeral):
            log.warning("Ama's game in her DM is live, but /wari board did not show it")
    by_id = {member.id: member for member in sandbox.members}
    table = await sandbox.bot.service.tables.table(sandbox.channel.id)
    if table is not None:
        candidates = (table.user_to_move, table.row.player_a, table.row.player_b)
        actor = next((by_id[user] for user in candidates if user in by_id), sandbox.ama)
        result = await actor.slash(sandbox.channel, "wari board")
        if result.acknowledged and result.response is not None and not result.response.ephemeral:
            sandbox.resumed_board = result.response
            log.info("game #%s of an earlier run continues: %s ran /wari board to show it", table.row.id, actor.name)
        else:
            log.warning("game #%s of an earlier run is live, but /wari board did not show it", table.row.id)
    challenge = await sandbox.bot.store.games.challenge_in(sandbox.channel.id)
    if challenge is not None:
        log.info(
            "a challenge of an earlier run is still open, but its message went with that run: "
            "#%s takes no new challenge until it expires at %s UTC",
            sandbox.channel.name,
            challenge.expires_at.astimezone(UTC).strftime("%H:%M:%S"),
        )


async def _cup_pictures(sandbox: Sandbox) -> dict[str, tuple[str, bytes]]:
    """The pictures of the cup emojis the bot uploaded at start (:mod:`bot.emojis`), by their
    addresses, for the page to show them: SimCord's Discord keeps an uploaded emoji's name, not
    its picture. Empty if the bot has none (the cups then show as text, as on Discord)."""
    from simcord.backend.cdn import CDN_BASE

    from ..emojis import drawn_cups

    cups = sandbox.bot.cup_emojis
    if cups is None or cups.task is None:
        return {}
    await asyncio.gather(cups.task, return_exceptions=True)  # its failures are logged by it
    pictures = dict((await asyncio.to_thread(drawn_cups)).values())
    return {
        f"{CDN_BASE}/emojis/{emoji.id}.png": (f"{emoji.name}.png", pictures[emoji.name])
        for emoji in sandbox.env.backend.application_emojis.values()  # a SimCord internal
        if emoji.name in pictures
    }


def _page(sandbox: Sandbox, port: int | None, assets: dict[str, tuple[str, bytes]]) -> Preview:
    """SimCord's Preview of #games for both members, served with the sandbox's additions
    (:mod:`.page`: threads, live timestamps in the viewer's language), showing ``assets``
    (pictures by address) as Discord's CDN would."""
    from .page import SandboxServer

    preview = sandbox.env.preview(
        sandbox.channel, viewers=list(sandbox.members), layout="channel", port=port, assets=assets
    )
    # A SimCord internal (simcord is pinned to 3.x): the server is made with the Preview, and
    # started when it is entered.
    preview._server = SandboxServer(preview, port or 0, sandbox)
    return preview


@contextlib.asynccontextmanager
async def open_sandbox(
    database_path: str | Path = DEFAULT_DATABASE,
    *,
    port: int | None = None,
    check_errors: bool = True,
    rng: random.Random | None = None,
    challenge_timeout: int = 600,
    real_time: bool = True,
) -> AsyncIterator[Sandbox]:
    """Start the bot in SimCord's simulated Discord with its browser Preview; stop it on exit.

    ``port`` pins the page's loopback port (default: any free one). ``rng`` is the bot's (it
    draws random first players; tests pass a seeded one), and so is ``challenge_timeout``
    (seconds). With ``check_errors``, errors the bot raised in SimCord are raised as an
    ``ExceptionGroup`` on a clean exit. With ``real_time`` (the default) the clock moves on
    with real time while the sandbox is open: drive the members from Python inside
    :meth:`Sandbox.hold_clock` then; without, it stands still (unless ``env.advance_time()``).
    Only one sandbox (one SimCord ``Env``) may run per event loop.

    :raises SandboxUnavailable: if ``simcord[preview]`` is missing.
    :raises StorageError: if the database cannot be opened.
    """
    require_sandbox()
    import simcord

    database_path = Path(database_path)
    try:
        database_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageError(f"cannot open the database {database_path}: {exc.strerror or exc}") from exc
    _forget_messages_of_earlier_runs(database_path)
    bot = create_bot(database_path, rng=rng, challenge_timeout=challenge_timeout, cup_emojis=True)
    env = simcord.Env(bot, check_errors=check_errors)
    guild, channel, ama, kofi, dm = _build_world(env)
    _set_clock_to_now(env)
    started = False
    try:
        await env.start()
        started = True
        with env.time_context():
            sandbox = Sandbox(env, bot, guild, channel, ama, kofi, database_path, real_time=real_time, dm=dm)
            await _restore_commands(sandbox)
            await _check_world(sandbox)
            await _resume(sandbox)
            async with _page(sandbox, port, await _cup_pictures(sandbox)) as preview:
                sandbox.preview = preview
                _show_thinking(sandbox)
                _analyse_between_actions(sandbox)
                if real_time:
                    async with _clock_running(sandbox):
                        yield sandbox
                else:
                    yield sandbox
            if check_errors:
                env.raise_errors()
    finally:
        try:
            if started:
                await env.shutdown()
        finally:
            # SimCord detaches the bot but does not close it: close it as a stopping process
            # would (its cogs are unloaded and the database is closed).
            await bot.close()
