"""Everything the bot shows goes through one :class:`Presenter`, as a :class:`Message`: no
feature touches ``interaction.response`` or ``interaction.followup`` (whether an interaction was
answered already, and so whether the next words are its answer or a follow-up, is known here).

The database is the truth and every Discord message a view of it, and any Discord call can
fail. The rules for when it does live here, once:

- an answer only the asker sees (:meth:`Presenter.tell`) is tried twice: nothing else would tell them;
- what has happened is said in the channel even if the interaction's answer is refused
  (:meth:`Presenter.announce` posts it instead);
- a pressed message is redrawn as the press's answer, or else by its id
  (:meth:`Presenter.update_pressed`), and the caller hears whether either worked;
- a message that is the answer itself (:meth:`Presenter.answer`: a board, a page, a file) is
  sent once, and Discord's refusal raised: the handler's caller reports it;
- an edit, a deletion or a thread's archiving that Discord refuses is logged, never raised:
  the stored game stays the truth and the next redraw repairs the view.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from enum import Enum
from typing import Any

import discord
from discord import app_commands

from bot.i18n import N_, Text, _, language_of, speaking
from bot.service import Refusal
from bot.storage import INTERACTION, StorageError
from bot.storage.sqlite import StorageFull

from .cooldowns import ServerOnCooldown
from .languages import Languages
from .permissions import SERVER_ONLY, PermissionList, venue_of

log = logging.getLogger("cogs.wari")

DATABASE_TROUBLE = N_("I can't reach my game database right now, so nothing was changed. Please try again in a moment.")
#: A full disk (a :class:`StorageFull`): the wait is longer than a moment, until space is freed.
STORAGE_FULL = N_("My storage is full, so nothing was changed. Please try again later.")
#: A press that changed nothing stored (a page turned) and whose message Discord would not redraw.
NOT_REDRAWN = N_("Discord did not let me change this message. Please try again in a moment.")
#: For a bug: what it left undone is not known, so the answer claims nothing and names what shows the truth.
UNEXPECTED = N_(
    "Something went wrong on my side. `/wari board` shows where this channel's game stands; please try again."
)


class Unexpected(Exception):
    """A bug met by a feature whose user looks elsewhere than at a channel's game to see what
    stands: answered with its ``words`` (English text, translated when told) instead of
    :data:`UNEXPECTED`. The bug is its cause, logged with it."""

    def __init__(self, words: str) -> None:
        super().__init__(words)
        self.words = words


class Keep(Enum):
    """A field a :class:`Message` leaves as it is when it edits a message."""

    KEEP = "keep"


KEEP = Keep.KEEP


def channel_of(interaction: discord.Interaction) -> int:
    """The channel of a command or press (the cog's commands are guild-only, its buttons on channel messages)."""
    assert interaction.channel_id is not None
    return interaction.channel_id


def mention_only(user_id: int) -> discord.AllowedMentions:
    """Allowed mentions that notify ``user_id`` and nobody else."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=[discord.Object(user_id)])


@dataclass(frozen=True)
class Message:
    """What a message shows: its text, embeds, buttons and attached files, and whom it may notify
    (nobody unless said). A field left :data:`KEEP` is not changed by an edit, and not sent with
    a new message.

    A ``view`` may be a :class:`discord.ui.LayoutView` (Components V2: a game's board), which
    holds all the message shows, its text too: such a message has no content and no embeds of its
    own (Discord refuses them), and an edit clears those an older message had (the edit makes it
    a V2 message: Discord allows that, and refuses the way back). Its files are the attachments
    its components show (``attachment://name``)."""

    content: str | None | Keep = KEEP
    embeds: Sequence[discord.Embed] | Keep = KEEP
    view: discord.ui.View | discord.ui.LayoutView | None | Keep = KEEP
    #: Attached files (a picture board): an edit replaces the message's attachments with these.
    files: Sequence[discord.File] | Keep = KEEP
    allowed_mentions: discord.AllowedMentions = field(default_factory=discord.AllowedMentions.none)

    def __post_init__(self) -> None:
        if self.laid_out and (self.content is not KEEP or self.embeds is not KEEP):
            raise ValueError("a message laid out in components (a LayoutView) has no content or embeds of its own")

    @property
    def laid_out(self) -> bool:
        """Whether the message is laid out in Components V2 (its view holds everything it shows)."""
        return isinstance(self.view, discord.ui.LayoutView)

    def for_edit(self) -> dict[str, Any]:
        """Keyword arguments for ``edit`` (of a message, or of an interaction's message)."""
        fields: dict[str, Any] = {"allowed_mentions": self.allowed_mentions}
        if self.laid_out:  # what an older message showed outside its components goes
            fields["content"], fields["embeds"] = None, []
        if self.content is not KEEP:
            fields["content"] = self.content
        if self.embeds is not KEEP:
            fields["embeds"] = list(self.embeds)
        if self.view is not KEEP:
            fields["view"] = self.view
        if self.files is not KEEP:
            for file in self.files:  # a picture read by a failed call before is read again
                file.reset(seek=True)
            fields["attachments"] = list(self.files)
        return fields

    def for_send(self) -> dict[str, Any]:
        """Keyword arguments for ``send`` (in a channel, or as an interaction's answer)."""
        fields = self.for_edit()
        if "attachments" in fields:
            fields["files"] = fields.pop("attachments")
        if fields.get("view", True) is None:
            del fields["view"]  # a new message without buttons: nothing to say
        if fields.get("content", True) is None:
            del fields["content"]
        if fields.get("embeds", True) == []:
            del fields["embeds"]  # a new message has none to clear
        return fields


class Presenter:
    """The bot's verbs for Discord: answer an interaction (or acknowledge it), tell the asker
    privately, announce in the channel, redraw a pressed message or one by id, post a message,
    ping one member, delete, archive a thread."""

    def __init__(self, client: discord.Client, languages: Languages) -> None:
        self.client = client
        self.languages = languages

    async def tell(self, interaction: discord.Interaction, message: str | Text | Refusal, **params: object) -> None:
        """An ephemeral answer, whether or not the interaction was already acknowledged, in the
        reader's language: ``message`` is English text with ``{placeholders}`` (or a text made
        earlier, a refusal) that is translated here.

        Tried twice: only the asker can see it, so nothing else would tell them. If Discord refuses
        both, the last resort is a message in the channel that names them (these answers are
        refusals and notes, nothing private), so that they are never left with "This interaction
        failed" and no word.
        """
        language: str | None
        try:
            language = await self.languages.of_reader(interaction)
        except StorageError:
            language = language_of(interaction.locale)
        with speaking(language or "en"):
            text = _(message, **params) if isinstance(message, str) else str(message)
        for attempt in range(2):
            try:
                await self.answer(interaction, Message(content=text), private=True)
                return
            except discord.HTTPException as exc:
                log.warning("could not answer interaction %s (attempt %d): %s", interaction.id, attempt + 1, exc)
        if interaction.channel_id is not None and venue_of(interaction) != INTERACTION:  # else it may not post
            user = interaction.user.id
            await self.notify(interaction.channel_id, f"<@{user}> {text}", user)

    @staticmethod
    def answered(interaction: discord.Interaction) -> bool:
        """Whether ``interaction`` has had its answer (or was acknowledged): what follows is a follow-up."""
        return interaction.response.is_done()

    @staticmethod
    async def answer(
        interaction: discord.Interaction, message: Message, *, private: bool = False
    ) -> discord.Message | None:
        """``message`` as the answer to ``interaction``, or as a follow-up once it was answered
        or acknowledged; ``private``: only the asker sees it. Discord's refusal is raised: the
        caller decides what a message never shown means (a command's handler leaves it to
        :meth:`report`). The message comes back when Discord sends it with its reply.

        A static method, as it needs nothing of the bot: the buttons' registry answers with it
        while the cog is away (being reloaded)."""
        fields = message.for_send()
        if Presenter.answered(interaction):
            return await interaction.followup.send(**fields, ephemeral=private)
        callback = await interaction.response.send_message(**fields, ephemeral=private)
        return callback.resource if isinstance(callback.resource, discord.InteractionMessage) else None

    async def acknowledge(
        self, interaction: discord.Interaction, *, thinking: bool = False, private: bool = False
    ) -> None:
        """Tell Discord the interaction is being handled (so it waits for the answer; ``thinking``:
        showing "thinking…", to the asker alone if ``private``). If Discord refuses, it is handled
        all the same: its answer comes as the interaction's own (see :meth:`answer`)."""
        try:
            await interaction.response.defer(thinking=thinking, ephemeral=private)
        except discord.HTTPException as exc:
            log.warning("could not acknowledge interaction %s: %s", interaction.id, exc)

    async def report(self, interaction: discord.Interaction, error: BaseException) -> None:
        """Turn any failure into a clear ephemeral answer; log what is ours to fix."""
        if isinstance(error, app_commands.CommandInvokeError):
            error = error.original
        message: str | Refusal
        params: dict[str, object] = {}
        if isinstance(error, Refusal):
            message, kind = error, "refusal"
        elif isinstance(error, app_commands.CommandOnCooldown):
            kind = "cooldown"
            # Discord shows the time in the reader's language, counting down ("in 12 seconds").
            again = interaction.created_at + timedelta(seconds=math.ceil(error.retry_after))
            params["when"] = discord.utils.format_dt(again, "R")
            if isinstance(error, ServerOnCooldown):
                message = N_("Many people here are using this right now. Please try again {when}.")
            else:
                message = N_("You are using these commands a lot. Please try again {when}.")
        elif isinstance(error, StorageError):
            kind = "database"
            log.error("%s", error)
            message = STORAGE_FULL if isinstance(error, StorageFull) else DATABASE_TROUBLE
        elif isinstance(error, app_commands.BotMissingPermissions):  # logged where it was found
            kind, params["permissions"] = "permissions", PermissionList(error.missing_permissions)
            message = N_(
                "I need these permissions in this channel to host a game here: {permissions}. "
                "Ask a moderator to grant them."
            )
        elif isinstance(error, app_commands.NoPrivateMessage):
            message, kind = SERVER_ONLY, "refusal"
        else:
            log.error("unexpected error in interaction %s", interaction.id, exc_info=error)
            message, kind = error.words if isinstance(error, Unexpected) else UNEXPECTED, "unexpected"
        if (metrics := getattr(self.client, "metrics", None)) is not None:
            metrics.count_error(interaction, kind)
        await self.tell(interaction, message, **params)

    async def announce(self, interaction: discord.Interaction, message: Message) -> None:
        """Say ``message`` in the channel as the answer to ``interaction``; if Discord refuses the
        answer, as a message of its own (what it says has happened: it must be seen)."""
        try:
            await self.answer(interaction, message)
            return
        except discord.HTTPException as exc:
            log.warning("could not answer interaction %s (%s); posting instead", interaction.id, exc)
        assert interaction.channel_id is not None  # the cog's commands and buttons are in channels
        if venue_of(interaction) != INTERACTION:  # where the bot only answers interactions, it may not post
            await self.post(interaction.channel_id, message)
        if not self.answered(interaction):  # the command still needs its answer
            await self.tell(interaction, message.content if isinstance(message.content, str) else "…")

    async def post(self, channel_id: int, message: Message) -> discord.Message | None:
        """A new message in a channel (``None``, and a log line, if Discord refuses)."""
        try:
            return await self.client.get_partial_messageable(channel_id).send(**message.for_send())
        except discord.HTTPException as exc:
            log.warning("could not post in channel %s: %s", channel_id, exc)
            return None

    async def respond(
        self, interaction: discord.Interaction | None, where: discord.abc.Messageable | None, message: Message
    ) -> discord.Message:
        """Post a new message: the answer to ``interaction``, or (``where`` given) a message there.
        Discord's refusal is raised: the caller decides what a message that was never shown means.

        The answer's message comes back with Discord's reply to the answer itself: no second
        call to read it back, which could fail after the message was already shown.
        """
        if where is not None:
            return await where.send(**message.for_send())
        if interaction is None:
            raise ValueError("respond needs an interaction to answer or a place to post in")
        shown = await self.answer(interaction, message)
        # Not sent back: read it (discord.py asks for it).
        return shown if shown is not None else await interaction.original_response()

    async def ping(self, channel_id: int, text: str, user_id: int) -> discord.Message | None:
        """A new message that notifies ``user_id`` alone (Discord notifies nobody of a mention added
        by an edit). ``None`` if Discord refused for good (no access to the channel); a refusal
        that may pass is raised, for the caller to try again later."""
        try:
            return await self.client.get_partial_messageable(channel_id).send(
                text, allowed_mentions=mention_only(user_id)
            )
        except (discord.Forbidden, discord.NotFound) as exc:
            log.warning("cannot ping in channel %s, and will not retry: %s", channel_id, exc)
            return None

    async def notify(self, channel_id: int, text: str, user_id: int) -> None:
        """A new message that notifies ``user_id`` of something done already (a declined challenge,
        an answered offer): a failure is only logged, since what it tells stands anyway."""
        try:
            await self.ping(channel_id, text, user_id)
        except discord.HTTPException as exc:
            log.warning("could not notify user %s in channel %s: %s", user_id, channel_id, exc)

    async def update_pressed(self, interaction: discord.Interaction, message: Message) -> bool:
        """Redraw the message whose button was pressed, as the press's answer, after a change was
        saved. If Discord refuses the answer, edit the message by id; a press already deferred is
        answered through its original response. ``False`` if that failed (the caller repairs the
        view or says so)."""
        if self.answered(interaction):
            try:
                await interaction.edit_original_response(**message.for_edit())
            except discord.HTTPException as exc:
                log.warning("could not redraw the message of interaction %s: %s", interaction.id, exc)
                return False
            return True
        try:
            await interaction.response.edit_message(**message.for_edit())
            return True
        except discord.HTTPException as exc:
            log.warning(
                "could not answer interaction %s with an edit (%s); editing the message instead", interaction.id, exc
            )
        pressed, channel_id = interaction.message, interaction.channel_id
        assert pressed is not None and channel_id is not None  # a press comes from a message in a channel
        if venue_of(interaction) == INTERACTION:  # the bot may not edit by id where it only answers interactions
            return False
        if not await self.edit(channel_id, pressed.id, message):
            return False
        await self.acknowledge(interaction)  # the press still needs its answer
        return True

    async def show_pressed(self, interaction: discord.Interaction, message: Message) -> None:
        """Show ``message`` on the pressed message for a press that changed nothing stored (a page
        turned, a replay stepped): redrawn as :meth:`update_pressed` does, and if Discord refuses
        every way the presser is told so (pressing again is all there is to do)."""
        if not await self.update_pressed(interaction, message):
            await self.tell(interaction, NOT_REDRAWN)

    async def edit(self, channel_id: int, message_id: int | None, message: Message) -> bool:
        """Edit one of our messages by id; ``False`` (and a log line) if Discord refuses."""
        if message_id is None:
            return False
        try:
            await (
                self.client.get_partial_messageable(channel_id)
                .get_partial_message(message_id)
                .edit(**message.for_edit())
            )
        except discord.HTTPException as exc:
            log.warning("could not edit message %s in channel %s: %s", message_id, channel_id, exc)
            return False
        return True

    async def delete(self, channel_id: int, message_id: int | None) -> None:
        """Delete one of our messages by id; one already gone is fine, other failures are logged."""
        if message_id is None:
            return
        try:
            await self.client.get_partial_messageable(channel_id).get_partial_message(message_id).delete()
        except discord.NotFound:
            pass
        except discord.HTTPException as exc:
            log.warning("could not delete message %s in channel %s: %s", message_id, channel_id, exc)

    async def archive_thread(self, channel_id: int, archived: bool = True) -> None:
        """Archive (or reopen) a thread the bot made for a game; failures are only logged."""
        try:
            thread = self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)
            if isinstance(thread, discord.Thread) and thread.archived != archived:
                await thread.edit(archived=archived)
        except discord.HTTPException as exc:
            log.warning("could not %s thread %s: %s", "archive" if archived else "reopen", channel_id, exc)
