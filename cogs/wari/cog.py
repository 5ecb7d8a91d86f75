"""The Wari cog: every ``/wari`` command and button, put together from one mixin per feature."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from discord.ext import commands

from bot.storage import StorageError

from .base import CogBase, log, now, wari
from .challenges import ChallengeCommands
from .clocks import ClockSweeps
from .computer import Computer
from .draws import DrawCommands
from .games import GameCommands
from .records import RecordCommands
from .settings import SettingsCommands
from .standings import StandingsCommands

if TYPE_CHECKING:
    from bot.client import WariBot


class WariCog(
    ChallengeCommands,
    GameCommands,
    DrawCommands,
    ClockSweeps,
    StandingsCommands,
    RecordCommands,
    SettingsCommands,
    CogBase,
    commands.Cog,
    name="Wari",
):
    """Challenges, boards with cup buttons, clocks and pings, draws, rematches, settings and moderation."""

    wari = wari

    def __init__(self, bot: WariBot) -> None:
        self.bot = bot
        self.service = bot.service

    async def cog_load(self) -> None:
        self.computer = Computer(self.bot, on_move=self.board_changed)
        # Before the gateway connects, so that no press meets a deadline the outage ran out.
        try:
            self._paused = (await self.service.credit_downtime(now()))[1]
        except StorageError as exc:
            log.error("could not check the clocks at start: %s", exc)
            self._paused = []
        self.sweep.start()
        self.heartbeat.start()
        self._resuming = asyncio.get_running_loop().create_task(self._resume_computer())

    async def cog_unload(self) -> None:
        self.sweep.cancel()
        self.heartbeat.cancel()
        self._resuming.cancel()
        self.computer.close()

    async def _resume_computer(self) -> None:
        await self.bot.wait_until_ready()
        for table in self._paused:  # their deadlines moved while nobody could see
            await self.redraw(table)
        try:
            await self.computer.resume()
        except StorageError as exc:
            log.error("could not resume the computer's games: %s", exc)
