"""``/wari settings``: what each player chooses for themselves (turn pings on or off)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import N_

from .base import CogBase, answering, wari

PINGS_ON = (
    "🔔 Turn pings are **on**: when it is your move I post a message that mentions you, and a reminder "
    "when a quarter of a per-move clock is left. Turn them off with `/wari settings pings: off`."
)
PINGS_OFF = (
    "🔕 Turn pings are **off**: I won't mention you when it is your move; keep an eye on your boards "
    "and their deadlines. Turn them on with `/wari settings pings: on`."
)


class SettingsCommands(CogBase):
    @wari.command(name="settings", description=N_("Your Wari settings (only you see the answer)"))
    @app_commands.describe(pings=N_("Be mentioned in a new message when it is your move (default: on)"))
    @app_commands.choices(pings=[app_commands.Choice(name=N_("on"), value="on"), app_commands.Choice(name=N_("off"), value="off")])
    @answering
    async def settings(self, interaction: discord.Interaction, pings: str | None = None) -> None:
        store = self.bot.store
        if pings is not None:
            await store.set_pings(interaction.user.id, pings == "on")
        enabled = await store.pings_enabled(interaction.user.id)
        await interaction.response.send_message(PINGS_ON if enabled else PINGS_OFF, ephemeral=True)
