"""What every part of the Wari cog shares: the ``/wari`` group, answering users, editing messages.

The cog is split by feature into mixins (challenges, games, clocks, draws, settings), each
adding its commands to the one :data:`wari` group; :class:`cogs.wari.cog.WariCog` puts them
together. Imports go one way: the features import this module, the cog imports the features.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
from collections.abc import AsyncIterator
from datetime import datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.board_image import board_png
from bot.i18n import N_, Text, _, language_of, speaking
from bot.service import Closed, Refusal, TimeUp
from bot.storage import StorageError

from .views import board_message, closed_embeds, custom_ids, for_send

if TYPE_CHECKING:
    from bot.client import WariBot
    from bot.service import Table, WariService

    from .computer import Computer

log = logging.getLogger("cogs.wari")

#: The command group for players: every feature adds its subcommands here.
wari = app_commands.Group(name="wari", description=N_("Play Wari, the West African sowing game"), guild_only=True)
#: The moderators' commands, a group of their own: Discord hides it from members without Manage
#: Messages (a subcommand cannot have permissions of its own), and server admins may change who sees it.
wari_mod = app_commands.Group(
    name="wari-mod",
    description=N_("Moderators: look after this server's Wari games"),
    guild_only=True,
    default_permissions=discord.Permissions(manage_messages=True),
)

DATABASE_TROUBLE = N_("I can't reach my game database right now, so nothing was changed. Please try again in a moment.")
#: For a bug: what it left undone is not known, so the answer claims nothing and names what shows the truth.
UNEXPECTED = N_(
    "Something went wrong on my side. `/wari board` shows where this channel's game stands; please try again."
)


def now() -> datetime:
    return discord.utils.utcnow()


def answering(callback):
    """Answer a :class:`Refusal` or a database failure with an ephemeral message.

    They are expected outcomes, not bugs, so they never reach the command tree's error
    handler; anything else still does (and :meth:`CogBase.report` answers it there). A
    :class:`TimeUp` also tells the channel that the game ended on time.
    """

    public_default = inspect.signature(callback).parameters.get("public")

    @functools.wraps(callback)
    async def wrapper(self: CogBase, interaction: discord.Interaction, *args, **kwargs) -> None:
        # What the channel sees is in the server's language; an answer only the asker sees (a
        # command with ``public`` off, a page of such an answer) in theirs.
        if public_default is not None:
            private = not kwargs.get("public", public_default.default)
        else:
            private = interaction.message is not None and interaction.message.flags.ephemeral
        language = (
            await self.reader_language(interaction) if private else await self.server_language(interaction.guild_id)
        )
        with speaking(language):
            try:
                await callback(self, interaction, *args, **kwargs)
            except TimeUp as up:
                await self.report(interaction, up)
                await self.announce_end(up.table, self.time_out_text(up.table))
            except Closed as closed:
                await self.close_pressed(interaction, closed)
            except (Refusal, StorageError) as error:
                await self.report(interaction, error)

    return wrapper


class CogBase:
    """Answers and message edits, for every feature of the cog."""

    bot: WariBot
    service: WariService
    computer: Computer
    #: Each server's settings as read from the database (:meth:`server_settings`).
    known_settings: dict[int, tuple[str | None, str]]

    async def server_language(self, guild_id: int | None) -> str:
        """The language of a server's public messages: its choice (``/wari-mod settings``), else its
        Discord locale, else English."""
        if guild_id is None:
            return "en"
        chosen, _style = await self.server_settings(guild_id)
        guild = self.bot.get_guild(guild_id)
        return chosen or (guild and language_of(guild.preferred_locale)) or "en"

    async def server_settings(self, guild_id: int) -> tuple[str | None, str]:
        """A server's chosen language and board style, read once per process (they change here only)."""
        if guild_id not in self.known_settings:
            self.known_settings[guild_id] = await self.bot.store.server_settings(guild_id)
        return self.known_settings[guild_id]

    def forget_server_settings(self, guild_id: int) -> None:
        self.known_settings.pop(guild_id, None)

    async def reader_language(self, interaction: discord.Interaction) -> str:
        """The language of what only ``interaction``'s user reads: their choice (``/wari settings``),
        else their Discord's language, else the server's."""
        chosen = await self.bot.store.user_language(interaction.user.id)
        return chosen or language_of(interaction.locale) or await self.server_language(interaction.guild_id)

    @contextlib.asynccontextmanager
    async def public(self, guild_id: int | None) -> AsyncIterator[None]:
        """Write what a server's channel shows, in the server's language."""
        with speaking(await self.server_language(guild_id)):
            yield

    async def tell(self, interaction: discord.Interaction, message: str | Text | Refusal, **params: object) -> None:
        """An ephemeral answer, whether or not the interaction was already acknowledged, in the
        reader's language: ``message`` is English text with ``{placeholders}`` (or a text made
        earlier, a refusal) that is translated here.

        Tried twice: only the asker can see it, so nothing else would tell them.
        """
        language: str | None
        try:
            language = await self.reader_language(interaction)
        except StorageError:
            language = language_of(interaction.locale)
        with speaking(language):
            text = _(message, **params) if isinstance(message, str) else str(message)
        for attempt in range(2):
            try:
                if interaction.response.is_done():
                    await interaction.followup.send(text, ephemeral=True)
                else:
                    await interaction.response.send_message(text, ephemeral=True)
                return
            except discord.HTTPException as exc:
                log.warning("could not answer interaction %s (attempt %d): %s", interaction.id, attempt + 1, exc)

    async def acknowledge(self, interaction: discord.Interaction, *, thinking: bool = False) -> None:
        """Tell Discord the press is being handled (so it waits for the answer). If Discord
        refuses, the press is handled all the same: its answers fall back on other calls."""
        try:
            await interaction.response.defer(thinking=thinking)
        except discord.HTTPException as exc:
            log.warning("could not acknowledge interaction %s: %s", interaction.id, exc)

    async def report(self, interaction: discord.Interaction, error: BaseException) -> None:
        """Turn any failure into a clear ephemeral answer; log what is ours to fix."""
        if isinstance(error, app_commands.CommandInvokeError):
            error = error.original
        message: str | Refusal
        if isinstance(error, Refusal):
            message = error
        elif isinstance(error, StorageError):
            log.error("%s", error)
            message = DATABASE_TROUBLE
        elif isinstance(error, app_commands.NoPrivateMessage):
            message = N_("Wari is played in server channels, not in direct messages.")
        else:
            log.error("unexpected error in interaction %s", interaction.id, exc_info=error)
            message = UNEXPECTED
        await self.tell(interaction, message)

    async def close_pressed(self, interaction: discord.Interaction, closed: Refusal) -> None:
        """A button of something closed was pressed: its message says why and loses its buttons,
        unless it was redrawn into something else meanwhile (then only the presser is told)."""
        message, data = interaction.message, interaction.data
        if message is not None and data is not None and data.get("custom_id") in custom_ids(message):
            fields = {
                "content": str(closed),
                "embeds": closed_embeds(message),
                "view": None,
                "allowed_mentions": discord.AllowedMentions.none(),
            }
            if await self.update_pressed(interaction, fields):
                return
        await self.tell(interaction, closed)

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await self.report(interaction, error)

    async def edit_message(self, channel_id: int, message_id: int | None, fields: dict) -> bool:
        """Edit one of our messages by id; ``False`` (and a log line) if Discord refuses."""
        if message_id is None:
            return False
        for file in fields.get("attachments", ()):  # a picture read by a failed call before
            file.reset(seek=True)
        try:
            await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(**fields)
        except discord.HTTPException as exc:
            log.warning("could not edit message %s in channel %s: %s", message_id, channel_id, exc)
            return False
        return True

    async def delete_message(self, channel_id: int, message_id: int | None) -> None:
        """Delete one of our messages by id; one already gone is fine, other failures are logged."""
        if message_id is None:
            return
        try:
            await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).delete()
        except discord.NotFound:
            pass
        except discord.HTTPException as exc:
            log.warning("could not delete message %s in channel %s: %s", message_id, channel_id, exc)

    async def archive_thread(self, channel_id: int, archived: bool = True) -> None:
        """Archive (or reopen) a thread the bot made for a game; failures are only logged."""
        try:
            thread = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
            if isinstance(thread, discord.Thread) and thread.archived != archived:
                await thread.edit(archived=archived)
        except discord.HTTPException as exc:
            log.warning("could not %s thread %s: %s", "archive" if archived else "reopen", channel_id, exc)

    # What one feature offers the others, declared here so that every feature may call them;
    # the features define them (games: boards and endings; challenges; clocks: pings).

    async def post_board(
        self, interaction: discord.Interaction | None, table: Table, where: discord.abc.Messageable | None = None
    ) -> Table | None:
        """Post ``table``'s board as a new message, which becomes the game's board (``None``:
        Discord refused)."""
        raise NotImplementedError

    async def game_changed(self, table: Table) -> None:
        """Everything that follows a change of a game besides redrawing its board."""
        raise NotImplementedError

    async def board_changed(self, table: Table) -> None:
        """Redraw a changed game's board, then :meth:`game_changed`."""
        raise NotImplementedError

    async def redraw(self, table: Table) -> Table | None:
        """Draw ``table`` on its board message, or post it anew (``None``: Discord refused both)."""
        raise NotImplementedError

    @staticmethod
    def where_shown(shown: Table | None) -> Text:
        """Where to find a board that had to be posted anew (``None``: it could not be)."""
        raise NotImplementedError

    async def announce_end(self, table: Table, text: str) -> None:
        """A game ended away from any command: redraw it and say ``text`` in a new message."""
        raise NotImplementedError

    def time_out_text(self, table: Table) -> str:
        """The announcement of a game lost on time (the games feature)."""
        raise NotImplementedError

    async def close_expired_challenges(self) -> None:
        """Close the challenges past their time (the challenges feature)."""
        raise NotImplementedError

    async def deliver_ping(self, game_id: int, channel_id: int, moment: datetime) -> None:
        """Post the ping the game is due, if any (the clocks feature)."""
        raise NotImplementedError

    async def forget_ping(self, table: Table) -> None:
        """Delete the last ping of a game that ended (the clocks feature)."""
        raise NotImplementedError

    async def announce(self, interaction: discord.Interaction, text: str, **fields) -> None:
        """Say ``text`` in the channel as the answer to ``interaction``; if Discord refuses the
        answer, as a message of its own (what it says has happened: it must be seen)."""
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, **fields)
            else:
                await interaction.response.send_message(text, **fields)
            return
        except discord.HTTPException as exc:
            log.warning("could not answer interaction %s (%s); posting instead", interaction.id, exc)
        assert interaction.channel_id is not None  # the cog's commands and buttons are in server channels
        try:
            await self.bot.get_partial_messageable(interaction.channel_id).send(text, **fields)
        except discord.HTTPException as exc:
            log.warning("could not post in channel %s either: %s", interaction.channel_id, exc)
        if not interaction.response.is_done():  # the command still needs its answer
            await self.tell(interaction, text)  # already written: no placeholders to fill

    async def update_pressed(self, interaction: discord.Interaction, fields: dict) -> bool:
        """Redraw the message whose button was pressed, after a change was saved: if Discord
        refuses the answer, edit the message by id. ``False`` if that failed too (the caller
        repairs the view or says so)."""
        try:
            await interaction.response.edit_message(**fields)
            return True
        except discord.HTTPException as exc:
            log.warning(
                "could not answer interaction %s with an edit (%s); editing the message instead", interaction.id, exc
            )
        # A pressed button's message, in a server channel.
        assert interaction.channel_id is not None and interaction.message is not None
        if not await self.edit_message(interaction.channel_id, interaction.message.id, fields):
            return False
        await self.acknowledge(interaction)  # the press still needs its answer
        return True

    async def board_fields(self, table: Table) -> dict:
        """The board message's fields, as the server wants its boards: text, or a picture drawn
        in a worker thread (Pillow releases the GIL; the event loop goes on meanwhile)."""
        _language, style = await self.server_settings(table.row.guild_id)
        if style != "image":
            return board_message(table)
        return board_message(table, await asyncio.to_thread(board_png, table.game, last_move=table.game.last_move))

    async def respond(
        self, interaction: discord.Interaction | None, where: discord.abc.Messageable | None, **fields
    ) -> discord.Message:
        """Post a new message: the answer to ``interaction``, or (``where`` given) a message there.

        The answer's message comes back with Discord's reply to the answer itself: no second
        call to read it back, which could fail after the message was already shown.
        """
        fields = for_send(fields)
        if where is not None:
            return await where.send(**fields)
        if interaction is None:
            raise ValueError("respond needs an interaction to answer or a place to post")
        callback = await interaction.response.send_message(**fields)
        if isinstance(callback.resource, discord.InteractionMessage):
            return callback.resource
        return await interaction.original_response()  # not sent back: read it (discord.py asks for it)
