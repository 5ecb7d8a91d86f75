"""The Apps menus (Discord's context menus): "Challenge to Wari" on a member, "Analyse this game"
on a board. Each is a shortcut to its slash command, with the same checks and the same answers:

- "Challenge to Wari" is ``/wari challenge opponent: <the member>`` with every other option left
  at its default (:class:`.options.GameOptions`): the bot may host a game in the channel
  (:class:`.permissions.Hosting`), the ``game`` and ``post`` cooldowns are spent, and the
  challenges feature refuses what it refuses (yourself, a bot, a busy channel);
- "Analyse this game" is ``/wari analyse game: <its number>``: the number is read from the
  custom ids of the buttons of the board it is used on (every button of a game carries its
  number), and a message with none, or not the bot's, is told so privately; a live game's board
  is refused by the analyses as the command is.

Discord.py cannot declare a context menu inside a cog, so the cog builds them here and adds them
to the command tree when it loads (:meth:`ContextMenus.add_to`). Their names are translated
(:mod:`.translator`): a menu's name is all its reader sees of it.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord
from discord import app_commands

from bot.i18n import N_
from bot.service import Refusal

from .analyses.feature import Analyses
from .answering import Answering
from .buttons import PersistentButton, custom_ids, read_number, recognise
from .challenges import Challenges
from .cooldowns import charge
from .options import GameOptions
from .permissions import EVERY_INSTALL, EVERYWHERE, Hosting

CHALLENGE_MENU = N_("Challenge to Wari")
ANALYSE_MENU = N_("Analyse this game")
NOT_A_BOARD = N_(
    "This message is not a Wari board. Use “Analyse this game” on the board of a finished game, "
    "or `/wari analyse` with its number."
)
#: Where "Challenge to Wari" is offered (installed to a server or a user, as every command): where
#: there is somebody else to challenge. "Analyse this game" is offered everywhere, the bot's DM too.
CHALLENGE_CONTEXTS = app_commands.AppCommandContext(guild=True, private_channel=True)


def game_shown(message: discord.Message, me: discord.abc.Snowflake, classes: Iterable[type[PersistentButton]]) -> int:
    """The number of the game whose buttons ``message`` carries, if it is one of ``me``'s (the
    bot's) messages; else a :class:`bot.service.Refusal` saying it is no board."""
    if message.author.id == me.id:
        for custom_id in custom_ids(message):  # in its rows, or nested in a V2 layout
            found = recognise(custom_id, classes)
            if found is not None and "game" in found[1].groupdict():
                return read_number(found[1]["game"])
    raise Refusal(NOT_A_BOARD)


class ContextMenus:
    """The two menus, built for one cog with the features they hand over to."""

    def __init__(
        self,
        answering: Answering,
        challenges: Challenges,
        analyses: Analyses,
        hosting: Hosting,
        classes: Iterable[type[PersistentButton]],
    ) -> None:
        self.answering = answering
        self.challenges = challenges
        self.analyses = analyses
        self.hosting = hosting
        #: The button classes whose custom ids a board's game number is read from.
        self.classes = tuple(classes)
        self.menus = (
            app_commands.ContextMenu(
                name=CHALLENGE_MENU,
                callback=self.challenge,
                allowed_installs=EVERY_INSTALL,
                allowed_contexts=CHALLENGE_CONTEXTS,
            ),
            app_commands.ContextMenu(
                name=ANALYSE_MENU,
                callback=self.analyse,
                allowed_installs=EVERY_INSTALL,
                allowed_contexts=EVERYWHERE,
            ),
        )

    def add_to(self, tree: app_commands.CommandTree) -> None:
        for menu in self.menus:
            tree.add_command(menu)

    def remove_from(self, tree: app_commands.CommandTree) -> None:
        for menu in self.menus:
            tree.remove_command(menu.name, type=menu.type)

    async def challenge(self, interaction: discord.Interaction, member: discord.User) -> None:
        await self.answering.command(interaction, self._challenge, member, private=False)

    async def analyse(self, interaction: discord.Interaction, message: discord.Message) -> None:
        await self.answering.command(interaction, self._analyse, message, private=False)

    async def _challenge(self, interaction: discord.Interaction, member: discord.User) -> None:
        # In the order of the slash command's checks: the channel, then the cooldowns.
        await self.hosting.check(interaction)
        charge(interaction, "game", "post")
        await self.challenges.challenge(interaction, member, GameOptions())

    async def _analyse(self, interaction: discord.Interaction, message: discord.Message) -> None:
        assert interaction.client.user is not None  # logged in: it receives interactions
        number = game_shown(message, interaction.client.user, self.classes)
        charge(interaction, "look", "post")
        await self.analyses.analyse(interaction, number, False)
