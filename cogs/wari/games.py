"""Playing a game: cup presses, the board message, surrender, abort, rules, and what follows
every change of a game (the next ping, a lapsed draw offer, the end of a game's thread)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.engine import rules_for
from bot.render import rules_text
from bot.service import Refusal, StaleBoard, Table

from .base import CogBase, answering, log, now, wari
from .options import VARIANT_CHOICES
from .views import board_message, offer_closed


class GameCommands(CogBase):
    @answering
    async def press_cup(self, interaction: discord.Interaction, game_id: int, ply: int, house: int) -> None:
        """A cup button: play the move and redraw the board in place."""
        await interaction.response.defer()
        try:
            table, _ = await self.service.play(
                channel_id=interaction.channel_id,
                game_id=game_id,
                ply=ply,
                message_id=interaction.message.id,
                user_id=interaction.user.id,
                house=house,
                now=now(),
            )
        except StaleBoard as stale:
            await self.refuse_stale(interaction, stale)
            return
        await self.show_move(interaction, table)
        await self.game_changed(table)

    @answering
    async def next_move(self, interaction: discord.Interaction, game_id: int, ply: int) -> None:
        """An exhibition's Next move button: one computer move, shown in place."""
        await interaction.response.defer()
        table = await self.service.table(interaction.channel_id)
        if table is None or table.row.id != game_id or table.game.ply != ply or table.row.message_id != interaction.message.id:
            await self.refuse_stale(interaction, StaleBoard("This board is out of date.", table))
            return
        moved = await self.computer.play_one(table)
        if moved is not None:
            await self.show_move(interaction, moved)
            await self.game_changed(moved)

    async def show_move(self, interaction: discord.Interaction, table: Table) -> None:
        """Redraw the pressed board; if Discord refuses, say that the move counts all the same."""
        try:
            await interaction.edit_original_response(**board_message(table))
        except discord.HTTPException as exc:
            move = table.game.moves[-1]
            log.warning("move %s in game %s saved, but the board could not be redrawn: %s", move, table.row.id, exc)
            await self.tell(
                interaction,
                f"The move `{move}` was played, but I couldn't redraw the board. Press any button or use `/wari board` to see it.",
            )

    async def refuse_stale(self, interaction: discord.Interaction, stale: StaleBoard) -> None:
        table = stale.table
        if table is None:
            await self.tell(interaction, "This game is over. Start a new one with `/wari challenge`.")
        elif table.row.message_id == interaction.message.id:
            # This is the board message, but an earlier redraw failed: bring it up to date.
            await interaction.edit_original_response(**board_message(table))
            await self.tell(interaction, "This board was behind and now shows the current position. Have another look!")
        else:
            link = interaction.channel.get_partial_message(table.row.message_id).jump_url if table.row.message_id else None
            where = f": the game goes on here {link}" if link else ": use `/wari board` to see the current one"
            await self.tell(interaction, f"This board is out of date{where}")

    async def redraw(self, table: Table) -> None:
        await self.edit_message(table.row.channel_id, table.row.message_id, board_message(table))

    async def board_changed(self, table: Table) -> None:
        """A change made away from the board (the computer's move, a sweep): redraw, then follow up."""
        await self.redraw(table)
        await self.game_changed(table)

    async def game_changed(self, table: Table) -> None:
        """What follows any change of a game: a draw offer a move made lapse is closed, the
        person to move is pinged, the computer thinks if it is its turn; a game that ended loses
        its last ping, archives its thread and stops the computer.

        The change itself is saved (and drawn) already: a failure here is logged, never
        reported to the user as if nothing had happened; the sweep retries a ping.
        """
        row = table.row
        try:
            if table.lapsed_offer is not None and row.reason != "agreement":
                why = "a move was played" if row.live else "the game is over"
                await self.edit_message(row.channel_id, table.lapsed_offer, offer_closed(f"This draw offer lapsed: {why}."))
            if row.live:
                self.computer.schedule(table)
                await self.deliver_ping(row.id, row.channel_id, now())
            elif table.just_ended:
                await self.forget_ping(table)
                if row.thread:
                    await self.archive_thread(row.channel_id)
                self.computer.cancel(row.channel_id)  # last: this may be the computer's own task
        except Exception:
            log.exception("game %s changed, but what follows failed", row.id)

    async def announce_end(self, table: Table, text: str) -> None:
        """A game ended away from a command (on time, say): redraw it and say so in a new message."""
        await self.redraw(table)
        try:
            await self.bot.get_partial_messageable(table.row.channel_id).send(text)
        except discord.HTTPException as exc:
            log.warning("could not announce the end of game %s: %s", table.row.id, exc)
        await self.game_changed(table)

    @staticmethod
    def time_out_text(table: Table) -> str:
        loser = table.game.moves[-1].player
        return f"⏰ <@{table.user(loser)}> ran out of time. <@{table.user(loser.other)}> wins game #{table.row.id}!"

    @wari.command(name="board", description="Show this channel's game again at the bottom of the channel")
    @answering
    async def board(self, interaction: discord.Interaction) -> None:
        table = await self.service.live_table(interaction.channel_id)
        self.computer.schedule(await self.post_board(interaction, table))

    async def post_board(self, interaction: discord.Interaction, table: Table, where: discord.abc.Messageable | None = None) -> Table:
        """Post the board as a new message (the answer, or in ``where``): the game's board from now on."""
        message = await self.respond(interaction, where, **board_message(table))
        current = await self.service.moved_board(table, message.id, now())
        if current.game.ply != table.game.ply:  # the computer moved while we were posting
            await message.edit(**board_message(current))
        return current

    @wari.command(name="surrender", description="Give up this channel's game: your opponent wins")
    @answering
    async def surrender(self, interaction: discord.Interaction) -> None:
        table = await self.service.surrender(interaction.channel_id, interaction.user.id, now())
        winner = table.user(table.game.outcome.winner)
        # Answer first: the redraw is a separate REST call that may be slow.
        await self.announce(interaction, f"🏳️ <@{interaction.user.id}> surrendered. <@{winner}> wins game #{table.row.id}!")
        await self.board_changed(table)

    @wari.command(name="abort", description="Moderators: end this channel's stuck game with no winner")
    @answering
    async def abort(self, interaction: discord.Interaction) -> None:
        if not interaction.permissions.manage_messages:
            raise Refusal("Only members with the Manage Messages permission in this channel can abort a game.")
        table = await self.service.abort(interaction.channel_id, now())
        await self.announce(interaction, f"🛑 <@{interaction.user.id}> aborted game #{table.row.id}. No winner.")
        await self.board_changed(table)

    @wari.command(name="rules", description="How to play (only you see the answer)")
    @app_commands.describe(variant="Rule set (default: this channel's game, else wari)")
    @app_commands.choices(variant=VARIANT_CHOICES)
    @answering
    async def rules(self, interaction: discord.Interaction, variant: str | None = None) -> None:
        table = await self.service.table(interaction.channel_id) if variant is None else None
        rules = table.game.rules if table else rules_for(variant or "wari")
        embed = discord.Embed(title=f"How to play {rules.label}", description=rules_text(rules), colour=discord.Colour.blurple())
        embed.set_footer(text="Start a game with /wari challenge @someone")
        await interaction.response.send_message(embed=embed, ephemeral=True)
