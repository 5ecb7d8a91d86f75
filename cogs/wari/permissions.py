"""What the bot must be allowed in a channel to host a game there, checked before it starts one.

The answer to a command or a press needs no permission in the channel (Discord lets an app
answer its interactions anywhere it is used), but a game lives on in messages the bot posts by
itself: the turn pings and reminders, the call of a challenged member, the announcement of a
game lost on time, a board posted again. Without the permission each of those would fail later,
in silence, where nobody asked. So the commands that start a game (challenge, play, seek,
exhibition, the Rematch button) and ``/wari board`` first read the bot's permissions in the
channel, which Discord sends with every interaction (``app_permissions``), and a missing one
is one clear answer naming it (:meth:`Presenter.report`) and one log line (:class:`Hosting`).

=============================  ==================================================================
permission                     what needs it
=============================  ==================================================================
View Channels                  everything the bot posts in the channel
Send Messages                  pings, calls, announcements, a board posted again (in a channel)
Send Messages in Threads       the same in a thread (and a game started with ``thread: True``)
Embed Links                    the board and every message with an embed
Attach Files                   the picture board (the server's board style ``image``), which is
                               a file posted or edited in
=============================  ==================================================================

Create Public Threads is checked where a thread is made (:mod:`.threads`). The bot edits and
deletes only its own messages and archives only its own threads, which need nothing more.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.i18n import N_, _
from bot.service import PlayerService
from bot.storage import StorageError

log = logging.getLogger("cogs.wari")

T = TypeVar("T")

#: Discord's names of the permissions (as its settings show them, translated with the bot's texts).
PERMISSION_NAMES = {
    "view_channel": N_("View Channels"),
    "send_messages": N_("Send Messages"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "embed_links": N_("Embed Links"),
    "attach_files": N_("Attach Files"),
}
THREADS = (discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread)
#: The mark :func:`hosting` leaves on a command's callback.
HOSTS_GAMES = "__wari_hosts_games__"


class PermissionList:
    """Permissions by name, listed in bold in the language of the moment (where it is shown)."""

    def __init__(self, names: list[str]) -> None:
        self.names = names

    def __str__(self) -> str:
        return ", ".join(f"**{_(PERMISSION_NAMES.get(name, name))}**" for name in self.names)


class Hosting:
    """Whether the bot may host a game in an interaction's channel: the permissions above, with
    Attach Files where the server's boards are pictures (its board style, from the players'
    service)."""

    def __init__(self, players: PlayerService) -> None:
        self.players = players

    async def missing(self, interaction: discord.Interaction[Any]) -> list[str]:
        """The permissions (``discord.Permissions`` attribute names) the bot lacks in the channel
        of ``interaction`` to host a game there."""
        channel = interaction.channel
        in_thread = getattr(channel, "type", None) in THREADS
        wanted = ["view_channel", "send_messages_in_threads" if in_thread else "send_messages", "embed_links"]
        if interaction.guild_id is not None:
            _language, style = await self.players.server_settings(interaction.guild_id)
            if style == "image":
                wanted.append("attach_files")
        granted = interaction.app_permissions
        return [name for name in wanted if not getattr(granted, name)]

    async def check(self, interaction: discord.Interaction[Any]) -> None:
        """:raises app_commands.BotMissingPermissions: naming what the bot lacks to host a game here."""
        missing = await self.missing(interaction)
        if missing:
            log.warning(
                "missing permissions %s in channel %s of server %s: told %s",
                ", ".join(missing),
                interaction.channel_id,
                interaction.guild_id,
                interaction.user.id,
            )
            raise app_commands.BotMissingPermissions(missing)

    async def check_command(self, interaction: discord.Interaction[Any]) -> None:
        """:meth:`check` before a command marked :func:`hosting` does anything.

        The check reads the server's board style, which a server's first command finds in the
        database: if it cannot be read, the failure goes on as the command's own (a check that
        raised anything but an ``AppCommandError`` would reach no error handler, and the command
        would never be answered)."""
        try:
            await self.check(interaction)
        except StorageError as error:
            assert interaction.command is not None  # a check runs for a command
            raise app_commands.CommandInvokeError(interaction.command, error) from error


def hosting() -> Callable[[T], T]:
    """Mark a command that hosts a game in its channel: the cog checks first
    (:meth:`Hosting.check_command`, in its ``interaction_check``, which runs before the command's
    own checks), so a missing permission is answered before the command does anything, even
    spend a cooldown."""

    def mark(callback: T) -> T:
        setattr(callback, HOSTS_GAMES, True)
        return callback

    return mark


def hosts_games(command: object) -> bool:
    """Whether ``command`` (an interaction's) is marked :func:`hosting`."""
    return bool(getattr(getattr(command, "callback", None), HOSTS_GAMES, False))
