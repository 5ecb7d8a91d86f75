"""What follows every change of a game, whoever made it (a press, a command, the computer, a
sweep): the board redrawn, a draw offer a move made lapse closed, the person to move pinged, the
computer set thinking if it is its turn; a game that ended loses its last ping, archives its
thread, lets its tournament move on and stops the computer.

Two layers, so that each is built with all it uses: :class:`Notices`, the messages a change calls
for, which is all a tournament's new game needs (:class:`cogs.wari.tournaments.runs.TournamentRunner`);
and :class:`Followup`, the notices and the computer, and the end of a game told to the runner.
The computer is handed :meth:`Followup.board_changed` each time it is set thinking, to show the
moves it plays on its own.

Where the bot only answers interactions (:mod:`.reach`), what follows a change goes through the
interaction that made it (``via``): the board drawn through it, the next player called in a
follow-up of it, the computer's reply drawn through it; a change with no interaction (the
computer resuming after a restart) is stored only, and its board's next press shows it."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.engine import Player
from bot.i18n import _
from bot.service import Computer, Table

from .boards import Boards
from .languages import Languages
from .pings import Pings
from .presenter import Message, Presenter
from .reach import publish, through_interactions
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


class Notices:
    """The messages a change of a game calls for besides its board: a draw offer the change made
    lapse closed; for a game still on, the player to move pinged (and the passed turn's ping taken
    back); for a game that just ended, its last ping taken back and its thread archived."""

    def __init__(self, presenter: Presenter, pings: Pings) -> None:
        self.presenter = presenter
        self.pings = pings

    async def game_changed(self, table: Table, via: discord.Interaction | None = None) -> None:
        """The notices of a change already saved (and drawn): a failure here is logged, never
        reported to the user as if nothing had happened; the sweep retries a ping. Where the bot
        only answers interactions, the only notice is the call of the player to move, through
        ``via`` (the change's interaction)."""
        row = table.row
        try:
            if through_interactions(row):
                if row.live and via is not None:
                    await self.pings.call_through(via, table)
                return
            if table.lapsed_offer is not None and row.reason != "agreement":
                if row.live:
                    lapsed = _("This draw offer lapsed: a move was played.")
                else:
                    lapsed = _("This draw offer lapsed: the game is over.")
                await self.presenter.edit(row.channel_id, table.lapsed_offer, offer_closed(lapsed))
            if row.live:
                await self.pings.deliver(row.id, row.channel_id, just_saved=True)
                await self.pings.take_back_passed(table)
            elif table.just_ended:
                await self.pings.forget(table)
                if row.thread:
                    await self.presenter.archive_thread(row.channel_id)
        except Exception:
            log.exception("game %s changed, but its notices failed", row.id)


class Followup:
    """Runs what follows a change of a game (see the module's documentation)."""

    def __init__(
        self,
        notices: Notices,
        presenter: Presenter,
        languages: Languages,
        boards: Boards,
        computer: Computer,
        *,
        on_end: Callable[[Table], Awaitable[None]],
    ) -> None:
        self.notices = notices
        self.presenter = presenter
        self.languages = languages
        self.boards = boards
        self.computer = computer
        #: Called once a game has ended (a tournament moves on), after its notices.
        self.on_end = on_end

    async def game_changed(self, table: Table, via: discord.Interaction | None = None) -> None:
        """What follows any change of a game besides redrawing its board (``via``: the change's
        interaction, through which the computer's reply is drawn where the bot only answers them).

        The change itself is saved (and drawn) already: a failure here is logged, never
        reported to the user as if nothing had happened.
        """
        row = table.row
        try:
            if row.live:
                self.computer.schedule(table, self.shown_through(via))
            await self.notices.game_changed(table, via)
            if table.just_ended:
                await self.on_end(table)
                self.computer.cancel(row.channel_id)  # last: this may be the computer's own task
        except Exception:
            log.exception("game %s changed, but what follows failed", row.id)

    async def board_changed(self, table: Table, via: discord.Interaction | None = None) -> None:
        """A change made away from the board (the computer's move, a command, a sweep): redraw
        (through ``via``, the change's interaction, where the bot only answers them), then follow up."""
        shown = await self.boards.redraw(table, via) or table
        async with self.languages.of_board(table.row):
            await self.game_changed(shown, via)

    def shown_through(self, via: discord.Interaction | None) -> Callable[[Table], Awaitable[None]]:
        """How the computer's moves are shown: through ``via`` (the interaction that set it
        thinking: its token lasts 15 minutes, a move a few seconds), else as any change away from the board."""
        if via is None:
            return self.board_changed

        async def through_via(table: Table) -> None:
            await self.board_changed(table, via)

        return through_via

    async def ended_on_time(self, table: Table, via: discord.Interaction | None = None) -> None:
        """A game ended on time away from a press of its board, or found so by ``via``: redraw
        it and say so in a new message that notifies both people (through ``via`` where the bot
        only answers interactions)."""
        shown = await self.boards.redraw(table, via) or table
        async with self.languages.of_board(table.row):
            told = Message(content=time_out_text(table), allowed_mentions=notify(table, *Player))
        if via is not None:
            await publish(self.presenter, via, table.row, told)
        elif not through_interactions(table.row):
            await self.presenter.post(table.row.channel_id, told)
        async with self.languages.of_board(table.row):
            await self.game_changed(shown, via)
