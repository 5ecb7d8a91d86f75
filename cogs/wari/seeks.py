"""Quick pairing: ``/wari seek`` puts the asker in this server's queue (rule set, clock, rating
range); as soon as someone fits, their game starts in a thread, and both are called to it.

The wait is a public message with **Play** (anyone else whom it fits: the game starts at once)
and **Cancel** (its player only), closed when the wait ends: paired (with a link to the game),
cancelled, or expired. A wait (not a seek paired at once) calls the server's seek role, if it
has one, in a new message: at most once per cooldown in a server (:mod:`.roles`).
"""

from __future__ import annotations

import logging

import discord
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.clock import Clock
from bot.engine.notation import parse_rules_code
from bot.i18n import N_, _
from bot.service import SeekService, Table, WariService
from bot.storage import SeekRow

from .boards import Boards, where_shown
from .buttons import PersistentButton, read_number
from .followup import Followup
from .languages import Languages
from .options import rules_of
from .presenter import Message, Presenter
from .roles import RoleCalls
from .threads import GameThreads
from .views import CHALLENGE_COLOUR, OVER_COLOUR

log = logging.getLogger("cogs.wari")


class CancelSeekButton(PersistentButton, template=r"wari:seek:(?P<seek>[0-9]+):(?P<user>[0-9]+)"):
    """Cancel on a wait's message: its player leaves the queue."""

    KIND, BELONGS = "seek", ("seek", "seek")
    FIELDS = {"seek": read_number, "user": read_number}

    def __init__(self, seek_id: int, user_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Cancel"), style=discord.ButtonStyle.secondary, custom_id=f"wari:seek:{seek_id}:{user_id}"
            ),
            seek_id,
            user_id,
        )


class PlaySeekButton(PersistentButton, template=r"wari:seek:(?P<seek>[0-9]+):play"):
    """Play on a wait's message: whoever presses it (and fits) takes the wait, and the game starts."""

    KIND, BELONGS = "seek-play", ("seek", "seek")
    FIELDS = {"seek": read_number}

    def __init__(self, seek_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Play"), emoji="⚔️", style=discord.ButtonStyle.success, custom_id=f"wari:seek:{seek_id}:play"
            ),
            seek_id,
        )


def seek_message(seek: SeekRow, closing: str | None = None) -> Message:
    """A wait as its channel sees it, with Cancel; or (``closing`` given) how it ended."""
    variant = parse_rules_code(seek.variant).label
    lines = [
        _(
            "🔎 **{name}** is looking for a game of **{variant}**, clock **{clock}** ({meaning}).",
            name=seek.name,
            variant=variant,
            clock=seek.clock,
            meaning=Clock.parse(seek.clock).describe(),
        )
    ]
    if seek.within is not None:
        low, high = seek.rating - seek.within, seek.rating + seek.within
        lines.append(_("Opponents rated {low}–{high}.", low=low, high=high))
    if closing is None:
        lines.append(
            _(
                "Press **Play** to take it. The search ends {when}.",
                when=discord.utils.format_dt(seek.expires_at, "R"),
            )
        )
    embed = discord.Embed(description="\n".join(lines), colour=CHALLENGE_COLOUR if closing is None else OVER_COLOUR)
    if closing is not None:
        return Message(content=closing, embeds=[embed], view=None)
    view = discord.ui.View(timeout=None)
    view.add_item(PlaySeekButton(seek.id))
    view.add_item(CancelSeekButton(seek.id, seek.user_id))
    return Message(content=None, embeds=[embed], view=view)


class Seeks:
    """The queue's command, its Cancel button, pairing and expiry."""

    def __init__(
        self,
        seeks: SeekService,
        service: WariService,
        presenter: Presenter,
        languages: Languages,
        boards: Boards,
        followup: Followup,
        threads: GameThreads,
        calls: RoleCalls,
    ) -> None:
        self.seeks = seeks
        self.service = service
        self.presenter = presenter
        self.languages = languages
        self.boards = boards
        self.followup = followup
        self.threads = threads
        #: Calls the server's seek role to a new wait (once per cooldown).
        self.calls = calls

    async def seek(self, interaction: discord.Interaction, variant: str, clock: str, within: int | None) -> None:
        """``/wari seek``: pair with a fitting wait at once, or wait in the queue."""
        assert interaction.guild_id is not None and interaction.channel_id is not None  # guild_only
        rules = rules_of(variant, None, None)
        theirs, mine = await self.seeks.seek(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            user_id=interaction.user.id,
            user_name=interaction.user.display_name,
            rules=rules,
            clock=clock,
            within=within,
            now=now(),
        )
        if theirs is None:
            message = await self.presenter.respond(interaction, None, seek_message(mine))
            await self.seeks.set_message(mine, message.id)
            await self.calls.seek_waiting(mine, message.jump_url)
            return
        await self.pair(interaction, theirs, mine)

    async def play(self, interaction: discord.Interaction, seek_id: int) -> None:
        """**Play** on a wait's message: the presser takes it, if it fits them."""
        assert interaction.guild_id is not None and interaction.channel_id is not None  # a server's message
        theirs, mine, dropped = await self.seeks.take(
            seek_id,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            user_id=interaction.user.id,
            user_name=interaction.user.display_name,
            now=now(),
        )
        try:
            table = await self.pair(interaction, theirs, mine)
        except BaseException:
            if dropped is not None:  # the presser's own wait goes back too
                await self.seeks.requeue(dropped)
            raise
        if dropped is not None:
            await self.close_paired(dropped, table, theirs.name)

    async def pair(self, interaction: discord.Interaction, theirs: SeekRow, mine: SeekRow) -> Table:
        """The game of ``theirs`` (claimed) and ``mine``; ``theirs``'s message closed with its link."""
        try:
            table = await self.start(interaction, theirs, mine)
        except BaseException:
            await self.seeks.requeue(theirs)  # their wait goes back where it was
            raise
        await self.close_paired(theirs, table, mine.name)
        return table

    async def close_paired(self, seek: SeekRow, table: Table, opponent: str) -> None:
        """A wait's message, closed by its game: who with, and a link to the board."""
        async with self.languages.public(seek.guild_id):
            closing = _(
                "🔎 Paired with **{name}**: game #{number} → [board]({url})",
                number=table.row.id,
                name=opponent,
                url=table.row.board_url,
            )
            await self.presenter.edit(seek.channel_id, seek.message_id, seek_message(seek, closing))

    async def start(self, interaction: discord.Interaction, theirs: SeekRow, mine: SeekRow) -> Table:
        """The paired game, in a new thread of this channel, and both players called to it."""
        rules = parse_rules_code(mine.variant)
        players = (theirs.user_name or theirs.name, mine.user_name or mine.name)
        intro = N_("⚔️ {title}: paired by `/wari seek`; the game is in the thread below.")
        thread = await self.threads.open(True, interaction, players, rules, intro)
        assert thread is not None  # asked for
        async with self.threads.closing_on_failure(thread):
            table = await self.service.starts.start_paired(
                guild_id=theirs.guild_id, channel_id=thread.id, seeks=(theirs, mine), rules=rules, now=now()
            )
        shown = await self.boards.post(None, table, thread)
        users = [discord.Object(theirs.user_id), discord.Object(mine.user_id)]
        call = _(
            "<@{a}> <@{b}>: your game is ready. **{first}** moves first.",
            a=theirs.user_id,
            b=mine.user_id,
            first=table.row.names[0],
        )
        mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users)
        await self.presenter.post(thread.id, Message(content=call, allowed_mentions=mentions))
        if shown is None:  # the game stands all the same: the thread's /wari board shows it
            await self.presenter.tell(interaction, where_shown(None))
        await self.followup.game_changed(shown or table)
        return shown or table

    async def cancel(self, interaction: discord.Interaction, seek_id: int, user_id: int) -> None:
        """Cancel on a wait's message."""
        assert interaction.guild_id is not None  # a wait's message is in a server channel
        seek = await self.seeks.cancel(seek_id, user_id, interaction.user.id, interaction.guild_id)
        closing = _("🔎 {name} stopped looking for a game.", name=seek.name)
        if not await self.presenter.update_pressed(interaction, seek_message(seek, closing)):
            await self.presenter.tell(interaction, N_("You left the queue."))

    async def close_expired(self) -> None:
        """End the waits past their time and say so on their messages."""
        for seek in await self.seeks.expire_due(now()):
            async with self.languages.public(seek.guild_id):
                closing = _("⌛ Nobody fitting came: {name}'s search ended.", name=seek.name)
                await self.presenter.edit(seek.channel_id, seek.message_id, seek_message(seek, closing))
