"""Settings: ``/wari settings`` for what each player chooses for themselves (turn pings, the
language of what only they read), ``/wari-mod settings`` for a server's (the language of its
boards and announcements, text or picture boards)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import LANGUAGE_NAMES, N_, _, speaking
from bot.service import Refusal

from .base import CogBase, answering, wari, wari_mod

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


class SettingsCommands(CogBase):
    @wari.command(name="settings", description=N_("Your Wari settings (only you see the answer)"))
    @app_commands.describe(
        pings=N_("Be mentioned in a new message when it is your move (default: on)"),
        language=N_("The language of what only you see (default: your Discord's)"),
    )
    @app_commands.choices(
        pings=[app_commands.Choice(name=N_("on"), value="on"), app_commands.Choice(name=N_("off"), value="off")],
        language=LANGUAGE_CHOICES,
    )
    @answering
    async def settings(
        self, interaction: discord.Interaction, pings: str | None = None, language: str | None = None
    ) -> None:
        store, user = self.bot.store, interaction.user.id
        if pings is not None:
            await store.set_pings(user, pings == "on")
        if language is not None:
            await store.set_user_language(user, None if language == "auto" else self.checked_language(language))
        with speaking(await self.reader_language(interaction)):
            lines = [
                _(PINGS_ON if await store.pings_enabled(user) else PINGS_OFF),
                self.language_line(await store.user_language(user)),
            ]
        await self.tell(interaction, "\n".join(lines))  # saved already: told even if the first answer fails

    @wari_mod.command(name="settings", description=N_("This server's Wari settings (Manage Server)"))
    @app_commands.describe(
        language=N_("The language of boards and announcements here (default: the server's)"),
        board=N_("Draw boards as text or as a picture (default: text)"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES, board=BOARD_CHOICES)
    @answering
    async def server_settings_command(
        self, interaction: discord.Interaction, language: str | None = None, board: str | None = None
    ) -> None:
        guild = interaction.guild_id
        if guild is None:  # the group is guild-only: Discord does not offer it in direct messages
            raise app_commands.NoPrivateMessage()
        if (language or board) and not interaction.permissions.manage_guild:
            raise Refusal(N_("Only members with the Manage Server permission can change this server's settings."))
        store = self.bot.store
        if language is not None:
            await store.set_server_language(guild, None if language == "auto" else self.checked_language(language))
        if board is not None:
            await store.set_board_style(guild, board if board in ("text", "image") else "text")
        self.forget_server_settings(guild)
        chosen, style = await self.server_settings(guild)
        with speaking(await self.reader_language(interaction)):
            here = LANGUAGE_NAMES[await self.server_language(guild)]
            lines = [
                _("🌍 Boards and announcements here are in **{language}**.", language=here)
                + (" " + _("(the server's own language: choose one with `language`)") if chosen is None else ""),
                _("🖼️ Boards are drawn as a **picture**.")
                if style == "image"
                else _("🔤 Boards are drawn as **text**."),
            ]
        await self.tell(interaction, "\n".join(lines))  # saved already: told even if the first answer fails

    @staticmethod
    def checked_language(language: str) -> str:
        if language not in LANGUAGE_NAMES:
            raise Refusal(N_("I speak {languages}."), languages=", ".join(LANGUAGE_NAMES.values()))
        return language

    @staticmethod
    def language_line(chosen: str | None) -> str:
        if chosen is None:
            return _("🌍 I answer you in your Discord's language (English, French and Portuguese are spoken here).")
        return _("🌍 I answer you in **{language}**.", language=LANGUAGE_NAMES[chosen])
