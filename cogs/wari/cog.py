"""The Wari cog: every ``/wari`` command and button, put together from one mixin per feature."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.i18n import N_
from bot.storage import StorageError

from . import records, standings
from .base import CogBase, log, now, wari, wari_mod
from .challenges import ChallengeCommands
from .clocks import ClockSweeps
from .computer import Computer
from .draws import DrawCommands
from .games import GameCommands
from .records import RecordCommands
from .settings import SettingsCommands
from .standings import StandingsCommands
from .views import ChallengeButton, CupButton, DrawButton, NextMoveButton, RematchButton, custom_ids

#: Every button that outlives the process: found again from its custom id after a restart.
BUTTONS = (CupButton, ChallengeButton, NextMoveButton, RematchButton, DrawButton, *records.BUTTONS, *standings.BUTTONS)

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
    wari_mod = wari_mod

    def __init__(self, bot: WariBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.known_settings = {}

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
            try:
                await self.redraw(table)
            except Exception:
                log.exception("could not redraw game %s after the outage", table.row.id)
        try:
            await self.computer.resume()
        except StorageError as exc:
            log.error("could not resume the computer's games: %s", exc)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer the presses discord.py drops: a button a redraw removed between the click and
        its arrival (a double click, two players racing) is no longer on the message Discord
        sends with the press, so no item is made for it. Every ``wari:`` press gets an answer."""
        data = interaction.data  # a component interaction always has its data
        if interaction.type is not discord.InteractionType.component or interaction.message is None or data is None:
            return
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith("wari:") or custom_id in custom_ids(interaction.message):
            return  # not ours, or discord.py dispatches it
        for button in BUTTONS:
            match = button.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match is not None:
                item = await button.from_custom_id(interaction, None, match)
                await item.callback(interaction)
                return
        await self.tell(
            interaction, N_("This button is from an older version of the bot and no longer works. Use `/wari board`.")
        )
