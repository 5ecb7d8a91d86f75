"""What follows every change of a game, whoever made it (a press, a command, the computer, a
sweep): the board redrawn, a draw offer a move made lapse closed, the person to move pinged, the
computer set thinking if it is its turn; a game that ended loses its last ping, archives its
thread and stops the computer."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.engine import Player
from bot.i18n import _
from bot.service import Computer, Table

from .boards import Boards
from .languages import Languages
from .pings import Pings
from .presenter import Message, Presenter
from .views import mention, notify, offer_closed

log = logging.getLogger("cogs.wari")


def time_out_text(table: Table) -> str:
    """The announcement of a game lost on time: it notifies both people."""
    last_move = table.game.last_move
    assert last_move is not None  # a game lost on time ends with a ply that says so
    loser = last_move.player
    return _(
        "⏰ {loser} ran out of time. {winner} wins game #{number}!",
        loser=mention(table, loser),
        winner=mention(table, loser.other),
        number=table.row.id,
    )


class Followup:
    """Runs what follows a change of a game (see the module's documentation)."""

    def __init__(
        self, presenter: Presenter, languages: Languages, boards: Boards, pings: Pings, computer: Computer
    ) -> None:
        self.presenter = presenter
        self.languages = languages
        self.boards = boards
        self.pings = pings
        self.computer = computer
        #: Called once a game has ended (a tournament moves on), after what follows any end.
        self.on_end: Callable[[Table], Awaitable[None]] | None = None

    async def game_changed(self, table: Table) -> None:
        """What follows any change of a game besides redrawing its board.

        The change itself is saved (and drawn) already: a failure here is logged, never
        reported to the user as if nothing had happened; the sweep retries a ping.
        """
        row = table.row
        try:
            if table.lapsed_offer is not None and row.reason != "agreement":
                if row.live:
                    lapsed = _("This draw offer lapsed: a move was played.")
                else:
                    lapsed = _("This draw offer lapsed: the game is over.")
                await self.presenter.edit(row.channel_id, table.lapsed_offer, offer_closed(lapsed))
            if row.live:
                self.computer.schedule(table)
                await self.pings.deliver(row.id, row.channel_id)
                await self.pings.take_back_passed(table)
            elif table.just_ended:
                await self.pings.forget(table)
                if row.thread:
                    await self.presenter.archive_thread(row.channel_id)
                if self.on_end is not None:
                    await self.on_end(table)
                self.computer.cancel(row.channel_id)  # last: this may be the computer's own task
        except Exception:
            log.exception("game %s changed, but what follows failed", row.id)

    async def board_changed(self, table: Table) -> None:
        """A change made away from the board (the computer's move, a command, a sweep): redraw, then follow up."""
        shown = await self.boards.redraw(table) or table
        async with self.languages.public(table.row.guild_id):
            await self.game_changed(shown)

    async def ended_on_time(self, table: Table) -> None:
        """A game ended on time away from a press of its board: redraw it and say so in a new
        message that notifies both people."""
        shown = await self.boards.redraw(table) or table
        async with self.languages.public(table.row.guild_id):
            text = time_out_text(table)
        await self.presenter.post(table.row.channel_id, Message(content=text, allowed_mentions=notify(table, *Player)))
        async with self.languages.public(table.row.guild_id):
            await self.game_changed(shown)
