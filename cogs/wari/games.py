"""Playing a game: cup presses, an exhibition's Next move, ``/wari board`` and ``/wari rules``."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import discord
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.i18n import N_, _, speaking
from bot.render import rules_text
from bot.service import Computer, Refusal, StaleBoard, Table, WariService

from .boards import Boards
from .buttons import NOT_ON_THIS_MESSAGE
from .followup import Followup
from .languages import Languages
from .options import rules_of
from .presenter import Message, Presenter, channel_of
from .reach import through_interactions
from .views import board_link

#: Seconds a press's work may take before the press is deferred (Discord waits 3 s for an answer).
DEFER_AFTER = 1.5
#: How many games a spectator's ``/wari board`` lists (a message holds 2,000 characters).
GAMES_LISTED = 10


def games_here(tables: list[Table]) -> str:
    """The games a tournament's thread holds, each with a link to its board (names, no mentions)."""
    lines = [_("**{count} games** are played in this thread:", count=len(tables))]
    for table in tables[:GAMES_LISTED]:
        a, b = table.row.names
        link = f" → {board_link(table.row)}" if table.row.message_id is not None else ""
        lines.append(_("#{number} {a} vs {b}", number=table.row.id, a=a, b=b) + link)
    if len(tables) > GAMES_LISTED:
        lines.append(_("…and {count} more", count=len(tables) - GAMES_LISTED))
    return "\n".join(lines)[:2000]


class Games:
    """Moves, boards and the rules."""

    def __init__(
        self,
        service: WariService,
        presenter: Presenter,
        languages: Languages,
        boards: Boards,
        followup: Followup,
        computer: Computer,
    ) -> None:
        self.service = service
        self.presenter = presenter
        self.languages = languages
        self.boards = boards
        self.followup = followup
        self.computer = computer

    async def press_cup(self, interaction: discord.Interaction, game_id: int, ply: int, house: int) -> None:
        """A cup button: play the move and redraw the board in place, as the press's answer."""
        message = interaction.message
        assert message is not None  # a press comes from a message
        try:
            async with self.answering_in_time(interaction):
                table, _move = await self.service.games.play(
                    channel_id=channel_of(interaction),
                    game_id=game_id,
                    ply=ply,
                    message_id=message.id,
                    user_id=interaction.user.id,
                    house=house,
                    now=now(),
                )
        except StaleBoard as stale:
            await self.boards.refuse_stale(interaction, stale)
            return
        await self.boards.show_move(interaction, table)
        await self.followup.game_changed(table, interaction)

    async def next_move(self, interaction: discord.Interaction, game_id: int, ply: int) -> None:
        """An exhibition's Next move button: one computer move, shown in place."""
        await self.presenter.acknowledge(interaction)
        message = interaction.message
        assert message is not None  # a press comes from a message
        table = await self.service.tables.table(channel_of(interaction), game_id=game_id)
        if table is not None and table.row.id == game_id and not table.paced_by_button:
            raise Refusal(NOT_ON_THIS_MESSAGE)  # a forged id: only an exhibition's board has the button
        if table is None or table.row.id != game_id or table.game.ply != ply or table.row.message_id != message.id:
            await self.boards.refuse_stale(interaction, StaleBoard(N_("This board is out of date."), table))
            return
        moved = await self.computer.play_one(table)
        if moved is not None:
            await self.boards.show_move(interaction, moved)
            await self.followup.game_changed(moved, interaction)

    @contextlib.asynccontextmanager
    async def answering_in_time(self, interaction: discord.Interaction) -> AsyncIterator[None]:
        """Let a press's work answer it itself, in one call (its redrawn message), unless the work
        takes longer than :data:`DEFER_AFTER`: the press is then deferred meanwhile, so Discord
        (which waits 3 s for a first answer) keeps waiting."""
        deferring: list[asyncio.Task] = []
        timer = asyncio.get_running_loop().call_later(
            DEFER_AFTER, lambda: deferring.append(asyncio.ensure_future(self.presenter.acknowledge(interaction)))
        )
        try:
            yield
        finally:
            timer.cancel()
            if deferring:
                await deferring[0]  # the answer waits until Discord has the deferral

    async def board(self, interaction: discord.Interaction) -> None:
        """``/wari board``: the channel's game posted anew at the bottom of the channel; in a
        tournament's thread, the asker's own game there, or for a spectator the list of its games.
        Where the bot only answers interactions, a time-out the game is due is applied first."""
        channel = channel_of(interaction)
        table = await self.service.tables.table(channel, user_id=interaction.user.id)
        if table is None:
            games = await self.service.tables.live_tables(channel)
            if len(games) > 1:
                with speaking(await self.languages.of_reader(interaction)):  # only the asker sees it
                    listed = Message(content=games_here(games))
                await self.presenter.answer(interaction, listed, private=True)
                return
            table = await self.service.tables.live_table(channel)
        if through_interactions(table.row) and table.row.deadline is not None and table.row.deadline <= now():
            ended = await self.service.games.time_out(table.row, now())
            if ended is not None:
                await self.followup.ended_on_time(ended, interaction)
                return
        posted = await self.boards.post(interaction, table)
        if posted is None:
            raise Refusal(N_("Discord did not let me post the board. Please try again in a moment."))
        self.computer.schedule(posted, self.followup.shown_through(interaction))

    async def rules(self, interaction: discord.Interaction, variant: str | None) -> None:
        """The rules of ``variant``, else of the channel's game, else of wari: only the asker sees them."""
        table = None
        if variant is None:  # in a tournament's thread, the rules of the asker's own game there
            channel, tables = channel_of(interaction), self.service.tables
            table = await tables.table(channel, user_id=interaction.user.id) or await tables.table(channel)
        rules = table.game.rules if table else rules_of(variant or "wari", None, None)
        with speaking(await self.languages.of_reader(interaction)):  # only the asker sees it
            title = _("How to play {variant}", variant=f"{rules.label[0].upper()}{rules.label[1:]}")
            embed = discord.Embed(title=title, description=rules_text(rules), colour=discord.Colour.blurple())
            if table is not None:
                embed.set_footer(
                    text=_(
                        "These are the rules of game #{number}, in play here: /wari board shows it", number=table.row.id
                    )
                )
            else:
                embed.set_footer(text=_("Start a game with /wari challenge @someone, or play me with /wari play"))
        await self.presenter.answer(interaction, Message(embeds=[embed]), private=True)
