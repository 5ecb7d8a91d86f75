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

The app is installed to users as well as servers, so a command may come from elsewhere than a
server that added the bot (:func:`venue_of`): the bot's own DM, where it may always post, needs no
permission; a group DM, or a server that did not add the bot, gets only what interactions carry.
What needs a server that added the bot (its queue, its tournaments, its daily puzzle, its
settings) is marked :func:`server_only` and answers elsewhere with :data:`SERVER_ONLY`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.i18n import N_, _
from bot.service import PlayerService, Refusal
from bot.storage import DM, INTERACTION, NO_SERVER, SERVER, NumberScope, StorageError

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
#: The answer of a command that needs a server that added the bot, used anywhere else.
SERVER_ONLY = N_(
    "This works only in a server that has added me. In a DM with me you can play me (`/wari play`), "
    "solve puzzles (`/wari puzzle next`) and see your `/wari stats` and `/wari history`: `/wari help` tells more."
)
#: The answer to a game started where Discord would show the bot's answers to the asker alone.
EXTERNAL_APPS_OFF = N_(
    "This server does not let members' own apps answer for everyone here (its **Use External Apps** "
    "permission is off), so only you would see a game and your opponent could never play it. Play in "
    "a channel that allows it, in a group DM, or against me in our DM (`/wari play`)."
)
#: Discord's key of a server install among an interaction's authorising integration owners.
GUILD_INSTALL = "0"
#: How the app's commands and menus may be installed (to a server, or to a user) and where they
#: may be used (a server, the bot's DM, a group DM); what needs a server that added the bot says so.
EVERY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)
EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)


def venue_of(interaction: discord.Interaction[Any]) -> str:
    """Where ``interaction`` comes from, as a game there is stored (:data:`bot.storage.SERVER`...):
    the bot's DM; a group DM; a server channel, as a server that added the bot unless Discord says
    the command was authorised by a user's install alone (no owners given: a server install,
    as Discord sent before user installs, and as a simulated Discord sends)."""
    if interaction.context.dm_channel:
        return DM
    if interaction.context.private_channel or interaction.guild_id is None:
        return INTERACTION
    # discord.py keeps the owners to itself (2.7: "unsure how to expose it"); its
    # is_guild_integration() cannot tell "a user's install only" from "no owners given".
    owners = {str(kind) for kind in interaction._integration_owners}
    return SERVER if not owners or GUILD_INSTALL in owners else INTERACTION


def answers_forced_private(interaction: discord.Interaction[Any]) -> bool:
    """Whether Discord makes every answer to ``interaction`` private: in a server that did not add
    the bot, when the server does not grant its member Use External Apps there (Discord: "when
    disabled, users will still be allowed to use their apps but the responses will be
    ephemeral"). A game shown only to the one who asked could never be answered."""
    return (
        interaction.guild_id is not None
        and venue_of(interaction) == INTERACTION
        and not interaction.permissions.use_external_apps
    )


def where_and_who(interaction: discord.Interaction[Any]) -> tuple[int | None, int | None, int]:
    """The channel, server and user of ``interaction``, for a log line."""
    return interaction.channel_id, interaction.guild_id, interaction.user.id


def server_of(interaction: discord.Interaction[Any]) -> int:
    """The ``guild_id`` a game or challenge of ``interaction`` is stored with: its server's, or
    :data:`bot.storage.NO_SERVER` outside any."""
    return NO_SERVER if interaction.guild_id is None else interaction.guild_id


def check_in_server(interaction: discord.Interaction[Any]) -> bool:
    """The check of a :func:`server_only` command.

    :raises app_commands.NoPrivateMessage: anywhere but a server that added the bot (answered with
        :data:`SERVER_ONLY`)."""
    if venue_of(interaction) != SERVER:
        raise app_commands.NoPrivateMessage(SERVER_ONLY)
    return True


def server_here(interaction: discord.Interaction[Any]) -> int:
    """The server of ``interaction`` whose own lists or posts it reads (a leaderboard's, a daily
    puzzle's): one that added the bot.

    :raises app_commands.NoPrivateMessage: anywhere else (answered with :data:`SERVER_ONLY`)."""
    check_in_server(interaction)
    assert interaction.guild_id is not None  # a server that added the bot
    return interaction.guild_id


def number_scope(interaction: discord.Interaction[Any]) -> NumberScope:
    """The games a number given in ``interaction`` may show (see :class:`bot.storage.NumberScope`):
    all the asker's in the bot's DM, the server's in a server that added it, else the channel's."""
    user_id = interaction.user.id
    venue = venue_of(interaction)
    if venue == DM:
        return NumberScope(user_id)
    if venue == SERVER:
        return NumberScope(user_id, guild_id=server_here(interaction))
    return NumberScope(user_id, guild_id=server_of(interaction), channel_id=interaction.channel_id)


def server_only() -> Callable[[T], T]:
    """Mark a command (or a group of them) that needs a server that added the bot. Discord lets a
    top-level command choose its contexts, not a subcommand: the check answers elsewhere."""
    return app_commands.check(check_in_server)


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
        of ``interaction`` to host a game there: none outside a server that added it (it may
        always post in its own DM; elsewhere its games live on interactions alone)."""
        if venue_of(interaction) != SERVER:
            return []
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
        """:raises app_commands.BotMissingPermissions: naming what the bot lacks to host a game here.
        :raises Refusal: in a server that did not add the bot and does not let its members' own
            apps answer for everyone (:data:`EXTERNAL_APPS_OFF`)."""
        if answers_forced_private(interaction):
            log.info("external apps are off in channel %s of server %s: told %s", *where_and_who(interaction))
            raise Refusal(EXTERNAL_APPS_OFF)
        missing = await self.missing(interaction)
        if missing:
            log.warning(
                "missing permissions %s in channel %s of server %s: told %s",
                ", ".join(missing),
                *where_and_who(interaction),
            )
            raise app_commands.BotMissingPermissions(missing)

    async def check_command(self, interaction: discord.Interaction[Any]) -> None:
        """:meth:`check` before a command marked :func:`hosting` does anything.

        The check reads the server's board style, which a server's first command finds in the
        database: if it cannot be read, the failure goes on as the command's own, as a refusal does (a check that
        raised anything but an ``AppCommandError`` would reach no error handler, and the command
        would never be answered)."""
        try:
            await self.check(interaction)
        except (StorageError, Refusal) as error:
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
