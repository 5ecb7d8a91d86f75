"""Turn pings and reminders: a new message that mentions only the player to move (Discord
notifies nobody of a mention added by an edit) and links the board; the game's previous ping is
deleted, so a channel holds at most one per game. A player who turned pings off gets none.

What is due and what was posted are the service's (:class:`bot.service.pings.PingService`): a ping
stays due until it is recorded as posted, so nothing is lost or doubled by a restart.

Where the bot only answers interactions (:mod:`.reach`), the player to move is called in a
follow-up of the interaction that made the change (:meth:`Pings.call_through`): there is no later
moment to ping in, no reminder, and no ping taken back."""

from __future__ import annotations

import logging

import discord

from bot.clock import duration
from bot.i18n import _
from bot.service import DuePing, Table, WariService
from bot.storage import StorageError

from .languages import Languages
from .presenter import Message, Presenter, mention_only
from .reach import say_through
from .views import board_link

log = logging.getLogger("cogs.wari")


def ping_text(table: Table, kind: str) -> str:
    """A turn ping or a reminder: it mentions the player to move and links the board."""
    row, user = table.row, f"<@{table.user_to_move}>"
    if kind == "turn":
        return _("{player}, your move in game #{number} → {board}", player=user, number=row.id, board=board_link(row))
    assert row.deadline is not None  # a reminder is due only before a deadline
    left = duration(row.deadline - row.ping_at) if row.ping_at else _("little time")
    when = discord.utils.format_dt(row.deadline, "R")
    return _(
        "⏰ {player}, about {left} left for your move in game #{number} (time runs out {when}) → {board}",
        player=user,
        left=left,
        number=row.id,
        when=when,
        board=board_link(row),
    )


class Pings:
    """Posts the pings games are due, and takes back the last one of a game that ended."""

    def __init__(self, service: WariService, presenter: Presenter, languages: Languages) -> None:
        self.service = service
        self.presenter = presenter
        self.languages = languages

    async def deliver(self, game_id: int, channel_id: int, *, just_saved: bool = False) -> None:
        """Post the ping the game is due now, if it is due, then delete its previous ping
        (``just_saved``: after a change this process made, which it knows without a read).

        No lock is held while Discord posts it (:meth:`bot.service.pings.PingService.due_ping`): a
        move or an ending meanwhile makes its record fail, and the ping is taken back.
        """
        now = discord.utils.utcnow()
        async with self.service.pings.due_ping(game_id, channel_id, now, just_saved=just_saved) as due:
            if due is None:
                return
            posted = None
            if due.user_id is not None:
                async with self.languages.of_board(due.table.row):
                    text = ping_text(due.table, due.kind)
                try:
                    posted = await self.presenter.ping(channel_id, text, due.user_id)
                except discord.HTTPException as exc:
                    log.warning("could not ping in game %s (the sweep tries again): %s", game_id, exc)
                    return
            await self.presenter.delete(channel_id, await self._record(due, posted))

    async def _record(self, due: DuePing, posted: discord.Message | None) -> int | None:
        """Record that ``due`` was posted (as ``posted``): the ping message to delete now (see
        :meth:`bot.service.pings.PingService.record_ping`). A ping the database could not record
        is that one: the game does not name it, so nothing would ever take it back, and it is
        still due, so the next sweep posts it again."""
        try:
            return await self.service.pings.record_ping(due, posted.id if posted else None)
        except StorageError as exc:
            log.warning("could not record the ping of game %s, so it is taken back: %s", due.table.row.id, exc)
            return posted.id if posted else None

    async def call_through(self, via: discord.Interaction, table: Table) -> None:
        """Where the bot only answers interactions: call the player to move, if their turn ping
        is due, in a follow-up of ``via`` (the change's own interaction)."""
        user = await self.service.pings.called_now(table)
        if user is None:
            return
        async with self.languages.of_board(table.row):
            text = ping_text(table, "turn")
        await say_through(self.presenter, via, Message(content=text, allowed_mentions=mention_only(user)))

    async def take_back_passed(self, table: Table) -> None:
        """After a move that calls for no ping, delete the ping of the turn that passed."""
        await self.presenter.delete(table.row.channel_id, await self.service.pings.passed_ping(table))

    async def forget(self, table: Table) -> None:
        """Delete the last ping of a game that ended."""
        await self.presenter.delete(table.row.channel_id, await self.service.pings.last_ping(table))
