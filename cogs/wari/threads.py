"""A game in a thread of its own (``thread: True``): the thread opened for it from a message in
the channel, and archived again when the game could not start."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Final

import discord

from bot.engine import Rules
from bot.i18n import N_, _
from bot.names import markdown_name, plain_name
from bot.service import Refusal

from .presenter import Message, Presenter

log = logging.getLogger("cogs.wari")

#: Thread auto-archive after a week without messages: long enough for a 3-day move.
THREAD_ARCHIVE_MINUTES: Final = 10080


class GameThreads:
    """Opens a thread for a game that asks for one."""

    def __init__(self, presenter: Presenter) -> None:
        self.presenter = presenter

    async def open(
        self, wanted: bool, interaction: discord.Interaction, players: tuple[str, str], rules: Rules, intro: str
    ) -> discord.Thread | None:
        """If ``wanted``, answer in this channel with ``intro`` (its ``{title}``: who plays what)
        and open a public thread from that message, named after the game: the game's channel.
        ``None`` if not wanted."""
        if not wanted:
            return None
        (a, b), title = players, N_("{a} vs {b} · {variant}")
        variant = rules.label.capitalize()  # as the board's title names it
        intro = _(intro, title=_(title, a=markdown_name(a), b=markdown_name(b), variant=variant))
        name = _(title, a=plain_name(a), b=plain_name(b), variant=variant)  # a thread's name is not markdown
        if not isinstance(interaction.channel, discord.TextChannel):
            raise Refusal(
                N_("`thread: True` works in a text channel, not inside a thread or a forum. Leave it off here.")
            )
        permissions = interaction.app_permissions
        if not (permissions.create_public_threads and permissions.send_messages_in_threads):
            raise Refusal(
                N_(
                    "I need the **Create Public Threads** and **Send Messages in Threads** permissions in this channel "
                    "to start a game in a thread. Ask a moderator to grant them, or leave `thread` off."
                )
            )
        try:
            starter = await self.presenter.respond(interaction, None, Message(content=intro))
        except discord.HTTPException as exc:
            log.warning("could not answer interaction %s: %s", interaction.id, exc)
            raise Refusal(N_("Discord did not let me answer, so no game was started. Please try again.")) from None
        try:
            return await starter.create_thread(name=name[:100], auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.HTTPException as exc:
            log.warning("could not open a thread in channel %s: %s", interaction.channel_id, exc)
            await self.presenter.edit(
                starter.channel.id,
                starter.id,
                Message(content=_("~~{intro}~~ I couldn't open a thread here.", intro=intro)),
            )
            raise Refusal(
                N_(
                    "Discord did not let me open a thread here, so no game was started. "
                    "Try again, or leave `thread` off."
                )
            ) from None

    @contextlib.asynccontextmanager
    async def closing_on_failure(self, thread: discord.Thread | None) -> AsyncIterator[None]:
        """A thread just opened for a game that could not be started is archived again."""
        try:
            yield
        except BaseException:
            if thread is not None:
                await self.presenter.archive_thread(thread.id)
            raise
