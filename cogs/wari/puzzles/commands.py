"""The puzzle commands: ``/wari puzzle next|daily`` for everyone and ``/wari-mod puzzle daily``
for moderators, two sub-groups the cog adds to its groups.
Each hands its options to its feature through :class:`Answering`."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import N_

from ..answering import Answering
from ..cooldowns import limited
from ..options import VARIANT_CHOICES
from .feature import DailyPuzzles, Puzzles


class PuzzleCommands(app_commands.Group):
    """``/wari puzzle``."""

    def __init__(self, answering: Answering, puzzles: Puzzles, dailies: DailyPuzzles) -> None:
        super().__init__(name="puzzle", description=N_("Puzzles: find the best move, keep your streak"))
        self.answering = answering
        self.puzzles = puzzles
        self.dailies = dailies

    @app_commands.command(name="next", description=N_("A puzzle near your puzzle rating (only you see it)"))
    @app_commands.describe(
        variant=N_("Rule set (default: wari)"), public=N_("Solve it where the channel can watch (default: no)")
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    @limited("look", "post")
    async def next(self, interaction: discord.Interaction, variant: str = "wari", public: bool = False) -> None:
        await self.answering.command(interaction, self.puzzles.next, variant, public, private=not public)

    @app_commands.command(name="daily", description=N_("This server's puzzle of the day: one try each"))
    @limited("look")
    async def daily(self, interaction: discord.Interaction) -> None:
        await self.answering.command(interaction, self.dailies.play, private=True)


class PuzzleModerationCommands(app_commands.Group):
    """``/wari-mod puzzle``."""

    def __init__(self, answering: Answering, dailies: DailyPuzzles) -> None:
        super().__init__(name="puzzle", description=N_("Moderators: this server's daily puzzle"))
        self.answering = answering
        self.dailies = dailies

    @app_commands.command(
        name="daily", description=N_("Post the puzzle of the day in a channel at an hour (Manage Server)")
    )
    @app_commands.describe(
        channel=N_("Where to post it"),
        hour=N_("At which hour, UTC, 0 to 23 (default: 12)"),
        off=N_("Stop posting it"),
    )
    async def daily(
        self,
        interaction: discord.Interaction,
        channel: discord.TextChannel | None = None,
        hour: app_commands.Range[int, 0, 23] | None = None,
        off: bool = False,
    ) -> None:
        await self.answering.command(interaction, self.dailies.setting, channel, hour, off, private=True)
