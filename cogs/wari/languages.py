"""Which language the bot writes in: a server's for what its channels show, a player's for what
only they read (see :mod:`bot.i18n`); outside a server (the bot's DM, a group DM) its players'."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import discord

from bot.i18n import language_of, speaking
from bot.service import PlayerService
from bot.storage import SERVER, GameRow

from .permissions import venue_of


class Languages:
    """The language of each message, from the choices stored by :class:`bot.service.PlayerService`
    and the locales Discord reports."""

    def __init__(self, client: discord.Client, players: PlayerService) -> None:
        self.client = client
        self.players = players
        #: Each player's Discord language as their latest interaction gave it, for what the bot
        #: says to them outside a server with no interaction at hand (the computer's move in a DM).
        self._discord_languages: dict[int, str] = {}

    async def of_server(self, guild_id: int | None) -> str:
        """The language of a server's public messages: its choice (``/wari-mod settings``), else its
        Discord locale, else English."""
        if not guild_id:  # none, or a game's outside any server (bot.storage.NO_SERVER)
            return "en"
        chosen, _style = await self.players.server_settings(guild_id)
        guild = self.client.get_guild(guild_id)
        return chosen or (guild and language_of(guild.preferred_locale)) or "en"

    async def of_reader(self, interaction: discord.Interaction) -> str:
        """The language of what only ``interaction``'s user reads: their choice (``/wari settings``),
        else their Discord's language, else the server's."""
        discords = language_of(interaction.locale)
        if discords:
            self._discord_languages[interaction.user.id] = discords
        chosen = await self.players.user_language(interaction.user.id)
        return chosen or discords or await self.of_server(interaction.guild_id)

    async def of_channel(self, interaction: discord.Interaction) -> str:
        """The language of what ``interaction``'s channel shows: a server's (one that added the
        bot, see :func:`.permissions.venue_of`) in its channels, the asker's anywhere else."""
        if venue_of(interaction) == SERVER:
            return await self.of_server(interaction.guild_id)
        return await self.of_reader(interaction)

    async def of_game(self, row: GameRow) -> str:
        """The language of a game's messages: its server's, or outside a server its first
        person's (their choice, else their Discord's as last seen, else English)."""
        if row.venue == SERVER:
            return await self.of_server(row.guild_id)
        person = row.player_b if row.level_a is not None else row.player_a
        chosen = await self.players.user_language(person)
        return chosen or self._discord_languages.get(person) or "en"

    @contextlib.asynccontextmanager
    async def public(self, guild_id: int | None) -> AsyncIterator[None]:
        """Write what a server's channel shows, in the server's language."""
        with speaking(await self.of_server(guild_id)):
            yield

    @contextlib.asynccontextmanager
    async def of_board(self, row: GameRow) -> AsyncIterator[None]:
        """Write what a game's channel shows of it (:meth:`of_game`)."""
        with speaking(await self.of_game(row)):
            yield
