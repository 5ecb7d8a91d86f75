"""Every interaction gets an answer, in the right language.

The cog hands each command and each press to :class:`Answering`, which runs the feature's
handler in the language of whoever will read the answer and turns what it raises into an answer:
a :class:`bot.service.Refusal` or a database failure into a clear ephemeral message, a press on
something that closed into that message telling so, a game found lost on time into the
announcement of its end, and a bug into an apology (and a log line with its traceback).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.i18n import speaking
from bot.service import Closed, Table, TimeUp
from bot.storage import StorageError

from .buttons import custom_ids
from .languages import Languages
from .presenter import Message, Presenter
from .reach import through_interactions
from .views import closed_embeds


class Answering:
    """Runs handlers so that every interaction is answered (see the module's documentation)."""

    def __init__(
        self,
        presenter: Presenter,
        languages: Languages,
        on_time_up: Callable[[Table, discord.Interaction], Awaitable[None]],
    ) -> None:
        self.presenter = presenter
        self.languages = languages
        #: Says that a game ended on time (a press or command found its clock run out), given the
        #: interaction that found it (where the bot only answers interactions, it says it through it).
        self.on_time_up = on_time_up

    async def command(
        self,
        interaction: discord.Interaction,
        handler: Callable[..., Awaitable[None]],
        *args: Any,
        private: bool,
        **options: Any,
    ) -> None:
        """Run a command's handler; ``private``: only the asker sees the answer (their language),
        else the channel does (the server's)."""
        try:
            if private:
                language = await self.languages.of_reader(interaction)
            else:
                language = await self.languages.of_channel(interaction)
        except StorageError as error:
            await self.presenter.report(interaction, error)
            return
        with speaking(language):
            try:
                await handler(interaction, *args, **options)
            except TimeUp as up:
                if not through_interactions(up.table.row):  # told first; the channel hears it from the bot
                    await self.presenter.report(interaction, up)
                await self.on_time_up(up.table, interaction)  # else said through the interaction itself
                if not self.presenter.answered(interaction):
                    await self.presenter.report(interaction, up)
            except Closed as closed:
                await self.close_pressed(interaction, closed)
            except Exception as error:  # a refusal, the database, or a bug: answered all the same
                await self.presenter.report(interaction, error)

    async def press(
        self, interaction: discord.Interaction, handler: Callable[..., Awaitable[None]], *args: Any
    ) -> None:
        """Run a button's handler: answered in the reader's language on a message only they see,
        else in the server's; a press whose work was done by other calls is still acknowledged."""
        private = interaction.message is not None and interaction.message.flags.ephemeral
        await self.command(interaction, handler, *args, private=private)
        if not self.presenter.answered(interaction):
            await self.presenter.acknowledge(interaction)

    async def close_pressed(self, interaction: discord.Interaction, closed: Closed) -> None:
        """A button of something closed was pressed: its message says why and loses its buttons,
        unless it was redrawn into something else meanwhile (then only the presser is told). A
        message laid out in components (a board: its presses end on a stale board, not here) is
        left as it is: its words are not content and embeds to close."""
        message = interaction.message
        pressed = interaction.data.get("custom_id") if interaction.data is not None else None
        if message is not None and pressed in custom_ids(message) and not message.flags.components_v2:
            closing = Message(content=str(closed), embeds=closed_embeds(message), view=None)
            if await self.presenter.update_pressed(interaction, closing):
                return
        await self.presenter.tell(interaction, closed)
