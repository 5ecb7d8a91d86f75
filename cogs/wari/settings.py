"""Settings: ``/wari settings`` for what each player chooses for themselves (turn pings, the
language of what only they read), ``/wari-mod settings`` for a server's (the language of its
boards and announcements, text or picture boards)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import LANGUAGE_NAMES, N_, _, language_name, speaking
from bot.service import PlayerService, Refusal

from .languages import Languages
from .presenter import Presenter

PINGS_ON = N_(
    "🔔 Turn pings are **on**: when it is your move I post a message that mentions you, and a reminder "
    "when a quarter of a per-move clock is left. Turn them off with `/wari settings pings: off`."
)
PINGS_OFF = N_(
    "🔕 Turn pings are **off**: I won't mention you when it is your move; keep an eye on your boards "
    "and their deadlines. Turn them on with `/wari settings pings: on`."
)
#: "auto": no choice of one's own (Discord's language for a player, the server's locale for a server).
LANGUAGE_CHOICES = [app_commands.Choice(name=N_("Automatic"), value="auto")] + [
    app_commands.Choice(name=name, value=code) for code, name in LANGUAGE_NAMES.items()
]
BOARD_CHOICES = [
    app_commands.Choice(name=N_("Text drawing"), value="text"),
    app_commands.Choice(name=N_("Picture"), value="image"),
]


class Settings:
    """``/wari settings`` (a player's own) and ``/wari-mod settings`` (a server's)."""

    def __init__(self, players: PlayerService, presenter: Presenter, languages: Languages) -> None:
        self.players = players
        self.presenter = presenter
        self.languages = languages

    async def player(self, interaction: discord.Interaction, pings: str | None, language: str | None) -> None:
        user = interaction.user.id
        if pings is not None:
            await self.players.set_pings(user, pings == "on")
        if language is not None:
            await self.players.set_user_language(user, None if language == "auto" else self.checked_language(language))
        with speaking(await self.languages.of_reader(interaction)):
            lines = [
                _(PINGS_ON if await self.players.pings_enabled(user) else PINGS_OFF),
                self.language_line(await self.players.user_language(user)),
            ]
        await self.presenter.tell(interaction, "\n".join(lines))  # saved already: told even if the first answer fails

    async def server(self, interaction: discord.Interaction, language: str | None, board: str | None) -> None:
        guild = interaction.guild_id
        if guild is None:  # the group is guild-only: Discord does not offer it in direct messages
            raise app_commands.NoPrivateMessage()
        if (language or board) and not interaction.permissions.manage_guild:
            raise Refusal(N_("Only members with the Manage Server permission can change this server's settings."))
        await self.players.set_server_settings(
            guild,
            language=None if language is None else language if language == "auto" else self.checked_language(language),
            board=board if board in (None, "text", "image") else "text",
        )
        chosen, style = await self.players.server_settings(guild)
        with speaking(await self.languages.of_reader(interaction)):
            here = language_name(await self.languages.of_server(guild))
            lines = [
                _("🌍 Boards and announcements here are in **{language}**.", language=here)
                + (" " + _("(the server's own language: choose one with `language`)") if chosen is None else ""),
                _("🖼️ Boards are drawn as a **picture**.")
                if style == "image"
                else _("🔤 Boards are drawn as **text**."),
            ]
        await self.presenter.tell(interaction, "\n".join(lines))  # saved already: told even if the first answer fails

    @staticmethod
    def checked_language(language: str) -> str:
        if language not in LANGUAGE_NAMES:
            raise Refusal(N_("I speak {languages}."), languages=", ".join(map(language_name, LANGUAGE_NAMES)))
        return language

    @staticmethod
    def language_line(chosen: str | None) -> str:
        if chosen is None:
            return _("🌍 I answer you in your Discord's language (English, French and Portuguese are spoken here).")
        return _("🌍 I answer you in **{language}**.", language=language_name(chosen))
