"""Slash commands in the reader's language: Discord shows each member the descriptions and
choices of the commands in their own app's language, from what this translator gives for each.

Command and option names stay in English, so that ``/wari challenge`` reads the same in every
server and in the README; descriptions and choices come from the bot's catalogs (:mod:`bot.i18n`),
and so do the names of the Apps menus (:mod:`.menus`), which are all their readers see of them.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import _, language_of, speaking

from .options import choice_name

#: What keeps its English form in every language.
NAMES = (Where.command_name, Where.group_name, Where.parameter_name)


def keeps_english(context: app_commands.TranslationContext) -> bool:
    """Whether what is translated keeps its English form: a name, unless an Apps menu's."""
    return context.location in NAMES and not isinstance(context.data, app_commands.ContextMenu)


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        language = language_of(locale)
        if language in (None, "en") or keeps_english(context):
            return None
        with speaking(language):
            text = choice_name(context.data) if context.location is Where.choice_name else _(string.message)
        return text if text != string.message else None
