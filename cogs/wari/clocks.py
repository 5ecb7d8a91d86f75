"""Keeping games moving: turn pings and reminders, time-outs, expired challenges, and clocks
paused while the bot was down. One sweep every :data:`SWEEP_SECONDS` does it all, reading only
the due rows (indexed), so it stays cheap with thousands of live games; a heartbeat of its own
notes that the bot is alive.

Every deadline and every due ping is stored, so nothing here is lost or doubled by a restart:
a ping stays due until it is recorded as posted (a compare-and-set: a ping posted for a game
that moved on meanwhile is taken back), and a time-out is a versioned write like a move.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime

import discord
from discord.ext import tasks
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.clock import duration
from bot.service import HEARTBEAT, Computer, Table, WariService
from bot.storage import StorageError

from .boards import Boards
from .followup import Followup
from .pings import Pings

log = logging.getLogger("cogs.wari")

SWEEP_SECONDS = 30


class Clocks:
    """The sweep and the heartbeat, and what the bot does when it starts and when its
    connection to Discord comes and goes."""

    def __init__(
        self,
        client: discord.Client,
        service: WariService,
        boards: Boards,
        pings: Pings,
        followup: Followup,
        computer: Computer,
        closers: Sequence[Callable[[], Awaitable[None]]],
    ) -> None:
        self.client = client
        self.service = service
        self.boards = boards
        self.pings = pings
        self.followup = followup
        self.computer = computer
        #: What ends the things that wait past their time (challenges, searches for a game).
        self.closers = tuple(closers)
        #: When the gateway connection was lost, while it is (``None`` while connected).
        self.offline_since: datetime | None = None
        #: Games whose clocks were paused at start-up, to redraw once connected.
        self._paused: list[Table] = []
        #: When the bot last noted that it is alive (``None``: not since it started).
        self._noted_at: datetime | None = None
        #: The sweep's checkpoints are failing (said once, and once more when they work again).
        self._checkpoints_failing = False

    async def start(self) -> None:
        """Before the gateway connects: credit an outage, so that no press meets a deadline the
        outage ran out; then start the loops."""
        try:
            self._paused = (await self.service.games.credit_downtime(now()))[1]
            self._noted_at = now()
        except StorageError as exc:
            log.error("could not check the clocks at start: %s", exc)
        self.sweep.start()
        self.heartbeat.start()

    async def resume(self) -> None:
        """Once connected after a start: redraw the games paused meanwhile, and let the computer
        think again where it is its turn."""
        await self.client.wait_until_ready()
        for table in self._paused:  # their deadlines moved while nobody could see
            try:
                await self.boards.redraw(table)
            except Exception:
                log.exception("could not redraw game %s after the outage", table.row.id)
        await self.redraw_boards_behind()
        try:
            await self.computer.resume(self.followup.board_changed)
        except StorageError as exc:
            log.error("could not resume the computer's games: %s", exc)

    async def redraw_boards_behind(self) -> None:
        """Redraw every live board that shows an older state than the stored game (the process
        died, or Discord failed, between a change and its redraw), the longest unchanged first,
        one at a time: discord.py paces the edits within Discord's rate limits."""
        try:
            behind = await self.service.games.boards_behind()
        except StorageError as exc:
            log.error("could not look for boards left behind: %s", exc)
            return
        if behind:
            log.info("redrawing %d board(s) left behind their games", len(behind))
        for table in behind:
            try:
                await self.boards.redraw(table)
            except Exception:
                log.exception("could not redraw the board of game %s", table.row.id)
        await self.note_shown()  # redrawn: not behind any more

    async def note_shown(self) -> None:
        """Write the marks of the boards drawn lately, kept in memory until now, all at once
        (:meth:`bot.service.games.GameService.note_shown`): by the sweep, and when the bot stops."""
        await self.service.games.note_shown()

    async def checkpoint(self) -> None:
        """Copy the database's log into its file, last: after everything the sweep wrote. A
        failure (a full disk) loses nothing: the log waits for the next sweep; it is said once,
        and once more when checkpoints work again."""
        try:
            await self.service.checkpoint()
        except StorageError as exc:
            if not self._checkpoints_failing:
                log.warning("could not copy the database's log into its file; the next sweeps try again: %s", exc)
            self._checkpoints_failing = True
            return
        if self._checkpoints_failing:
            log.info("the database's log is copied into its file again")
        self._checkpoints_failing = False

    def stop(self) -> None:
        self.sweep.cancel()
        self.heartbeat.cancel()

    @tasks.loop(seconds=SWEEP_SECONDS)
    async def sweep(self) -> None:
        """Everything time brings, each part on its own so that one failure does not stop the rest."""
        if self.offline_since is not None:
            return  # nobody can press while Discord is away: no time-outs, no pings meanwhile
        parts = [*self.closers, self.send_due_pings, self.note_shown, self.checkpoint]
        if await self._clocks_current():
            parts.insert(len(self.closers), self.end_games_on_time)
        for part in parts:
            try:
                await part()
            except Exception:
                log.exception("the sweep could not %s; will try again", part.__name__.replace("_", " "))

    @tasks.loop(seconds=HEARTBEAT.total_seconds())
    async def heartbeat(self) -> None:
        """Note that the bot is alive, in a loop of its own so that a slow sweep never looks
        like an outage; after one, pause every running clock for its length.

        Players cannot move while the bot (or its connection to Discord) is down, so that time
        is not theirs to lose: each deadline moves on by the length of the outage, once, and the
        board says so.
        """
        if self.offline_since is None:
            await self._note_alive()

    async def _clocks_current(self) -> bool:
        """Whether the clocks may end games on time now. Nobody could move while the database was
        away either (every press was refused): if the bot could not note that it is alive for
        longer than a heartbeat, the outage is credited first, as a stop of the bot's would be;
        while the database is still away, no game ends on time."""
        if self._noted_at is not None and now() - self._noted_at <= 2 * HEARTBEAT:
            return True
        return await self._note_alive()

    async def _note_alive(self) -> bool:
        """Note that the bot is alive; if it was away, pause the running clocks for as long.
        ``False`` if the database could not be reached."""
        try:
            gap, tables = await self.service.games.credit_downtime(now())
        except StorageError as exc:  # the database is away or its disk full: no bug, no traceback
            log.error("could not note that the bot is alive; will try again: %s", exc)
            return False
        except Exception:
            log.exception("could not note that the bot is alive; will try again")
            return False
        self._noted_at = now()
        if tables:
            log.info("the bot was away for %s: paused the clocks of %d games", duration(gap), len(tables))
        for table in tables:
            try:
                await self.boards.redraw(table)
            except Exception:  # an uncaught error would stop this loop for good
                log.exception("could not redraw game %s after the outage", table.row.id)
        return True

    @sweep.before_loop
    @heartbeat.before_loop
    async def _wait_until_ready(self) -> None:
        await self.client.wait_until_ready()

    def went_offline(self) -> None:
        """The gateway connection dropped: clocks wait until it is back."""
        if self.offline_since is None:
            self.offline_since = now()
            log.warning("lost the connection to Discord: clocks wait until it is back")

    async def back_online(self) -> None:
        """Credit the outage, if it was one, then let the sweeps run again: in that order, so that
        no sweep ends a game on time in between."""
        if self.offline_since is not None:
            try:
                await self._note_alive()
            finally:
                self.offline_since = None
            await self.redraw_boards_behind()  # edits refused while Discord was away

    async def end_games_on_time(self) -> None:
        """End every game whose player to move let the deadline pass: the opponent wins."""
        moment = now()
        for row in await self.service.pings.games_past_deadline(moment):
            try:
                table = await self.service.games.time_out(row, moment)
                if table is not None:
                    await self.followup.ended_on_time(table)
            except Exception:
                log.exception("could not end game %s on time; will try again", row.id)

    async def send_due_pings(self) -> None:
        for row in await self.service.pings.games_due_a_ping(now()):
            try:
                await self.pings.deliver(row.id, row.channel_id)
            except Exception:
                log.exception("could not ping in game %s; will try again", row.id)
