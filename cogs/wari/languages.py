"""Which language the bot writes in: a server's for what its channels show, a player's for what
only they read (see :mod:`bot.i18n`)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import discord

from bot.i18n import language_of, speaking
from bot.service import PlayerService


class Languages:
    """The language of each message, from the choices stored by :class:`bot.service.PlayerService`
    and the locales Discord reports."""

    def __init__(self, client: discord.Client, players: PlayerService) -> None:
        self.client = client
        self.players = players

    async def of_server(self, guild_id: int | None) -> str:
        """The language of a server's public messages: its choice (``/wari-mod settings``), else its
        Discord locale, else English."""
        if guild_id is None:
            return "en"
        chosen, _style = await self.players.server_settings(guild_id)
        guild = self.client.get_guild(guild_id)
        return chosen or (guild and language_of(guild.preferred_locale)) or "en"

    async def of_reader(self, interaction: discord.Interaction) -> str:
        """The language of what only ``interaction``'s user reads: their choice (``/wari settings``),
        else their Discord's language, else the server's."""
        chosen = await self.players.user_language(interaction.user.id)
        return chosen or language_of(interaction.locale) or await self.of_server(interaction.guild_id)

    @contextlib.asynccontextmanager
    async def public(self, guild_id: int | None) -> AsyncIterator[None]:
        """Write what a server's channel shows, in the server's language."""
        with speaking(await self.of_server(guild_id)):
            yield
