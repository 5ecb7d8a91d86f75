"""Playing a game: cup presses, the board message, surrender, abort, rules, and what follows
every change of a game (the next ping, a lapsed draw offer, the end of a game's thread)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import discord
from discord import app_commands

from bot.engine import Player
from bot.i18n import N_, Text, _, speaking
from bot.names import markdown_name
from bot.render import rules_text
from bot.service import Refusal, StaleBoard, Table

from .base import CogBase, answering, log, now, wari, wari_mod
from .options import VARIANT_CHOICES, rules_of
from .views import board_url, offer_closed, replaced_board

#: Seconds a press's work may take before the press is deferred (Discord waits 3 s for an answer).
DEFER_AFTER = 1.5


def pressed_id(interaction: discord.Interaction) -> str:
    """The custom id of the pressed button (every press carries one)."""
    custom_id = interaction.data.get("custom_id") if interaction.data is not None else None
    if not isinstance(custom_id, str):
        raise TypeError(f"interaction {interaction.id} is not a button press")
    return custom_id


class GameCommands(CogBase):
    @answering
    async def press_cup(self, interaction: discord.Interaction, game_id: int, ply: int, house: int) -> None:
        """A cup button: play the move and redraw the board in place, as the press's answer."""
        channel_id, message = interaction.channel_id, interaction.message
        assert channel_id is not None and message is not None  # a press comes from a message in a channel
        try:
            async with self.answering_in_time(interaction):
                table, _move = await self.service.play(
                    channel_id=channel_id,
                    game_id=game_id,
                    ply=ply,
                    message_id=message.id,
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
        await self.acknowledge(interaction)
        channel_id, message = interaction.channel_id, interaction.message
        assert channel_id is not None and message is not None  # a press comes from a message in a channel
        table = await self.service.table(channel_id)
        if table is None or table.row.id != game_id or table.game.ply != ply or table.row.message_id != message.id:
            await self.refuse_stale(interaction, StaleBoard(N_("This board is out of date."), table))
            return
        moved = await self.computer.play_one(table)
        if moved is not None:
            await self.show_move(interaction, moved)
            await self.game_changed(moved)

    @contextlib.asynccontextmanager
    async def answering_in_time(self, interaction: discord.Interaction) -> AsyncIterator[None]:
        """Let a press's work answer it itself, in one call (its redrawn message), unless the work
        takes longer than :data:`DEFER_AFTER`: the press is then deferred meanwhile, so Discord
        (which waits 3 s for a first answer) keeps waiting. After the block, the answer is
        :meth:`redraw_pressed`'s."""
        deferring: list[asyncio.Task] = []
        timer = asyncio.get_running_loop().call_later(
            DEFER_AFTER, lambda: deferring.append(asyncio.ensure_future(self.acknowledge(interaction)))
        )
        try:
            yield
        finally:
            timer.cancel()
            if deferring:
                await deferring[0]  # the answer waits until Discord has the deferral

    async def redraw_pressed(self, interaction: discord.Interaction, fields: dict) -> bool:
        """Redraw the pressed message as the press's answer (through its original response, if
        it was deferred). ``False`` if Discord refused (the caller repairs the view)."""
        if not interaction.response.is_done():
            return await self.update_pressed(interaction, fields)
        try:
            await interaction.edit_original_response(**fields)
        except discord.HTTPException as exc:
            log.warning("could not redraw the message of interaction %s: %s", interaction.id, exc)
            return False
        return True

    async def show_move(self, interaction: discord.Interaction, table: Table) -> None:
        """Redraw the pressed board. If Discord refuses, the board is redrawn by id or posted
        anew (:meth:`redraw`), and the presser is told that the move counts all the same."""
        if await self.redraw_pressed(interaction, await self.board_fields(table)):
            return
        log.warning("game %s moved, but the pressed board could not be redrawn", table.row.id)
        shown = await self.redraw(table)
        if shown is None or shown.row.message_id != table.row.message_id:
            await self.tell(
                interaction,
                N_("The move `{move}` was played. {where}"),
                move=table.game.last_move,
                where=self.where_shown(shown),
            )

    @staticmethod
    def where_shown(shown: Table | None) -> Text:
        """Where to find a board that had to be posted anew (``None``: it could not be)."""
        if shown is None:
            return Text(N_("Discord did not let me show the board: use `/wari board` to see it."))
        return Text(N_("Discord did not let me update the board, so I posted it anew: {url}"), url=board_url(shown.row))

    async def refuse_stale(self, interaction: discord.Interaction, stale: StaleBoard) -> None:
        """A press on a board that is not the game's current view: make the pressed message tell
        the truth (the current position, or a pointer to the board that replaced it), then say why."""
        table = stale.table if stale.table is not None and stale.table.row.id == self.game_of(interaction) else None
        if table is None:  # the game ended: the pressed board shows its end, if it is its board
            table = await self.service.game(self.game_of(interaction))
        assert interaction.message is not None  # a press comes from a message
        if table.row.message_id == interaction.message.id:
            fields, text = await self.board_fields(table), self.stale_reason(table, interaction)
        else:
            fields, text = replaced_board(table), Text(N_("This board was replaced: use the current one, linked here."))
        if not await self.redraw_pressed(interaction, fields):
            log.warning("could not bring a stale board of game %s up to date", table.row.id)
        await self.tell(interaction, text)

    @staticmethod
    def game_of(interaction: discord.Interaction) -> int:
        """The game number a pressed board button carries (``wari:<kind>:<game>:...``)."""
        return int(pressed_id(interaction).split(":")[2])

    @staticmethod
    def stale_reason(table: Table, interaction: discord.Interaction) -> Text:
        """Why a press on the game's own board did nothing: the game ended, or another press came first."""
        if not table.row.live:
            return Text(N_("This game is over: the board now shows how it ended."))
        pressed_ply = int(pressed_id(interaction).split(":")[3])
        if pressed_ply < table.game.ply:
            return Text(
                N_(
                    "Another press came first: move {number} (`{move}`) was played. "
                    "The board now shows the current position."
                ),
                number=table.game.ply,
                move=table.game.last_move,
            )
        return Text(N_("The board now shows the current position. Have another look!"))

    async def redraw(self, table: Table) -> Table | None:
        """Draw ``table`` on its board message; if Discord refuses the edit, post the board anew
        in the channel, which becomes the game's board. The game as shown (its board may have
        moved), or ``None`` if Discord refused both: then the stored game stays the truth, and
        any press on its old board or ``/wari board`` shows it."""
        async with self.public(table.row.guild_id):  # also when the computer or the sweep changed it
            if await self.edit_message(table.row.channel_id, table.row.message_id, await self.board_fields(table)):
                return table
            return await self.post_board(None, table, self.bot.get_partial_messageable(table.row.channel_id))

    async def board_changed(self, table: Table) -> None:
        """A change made away from the board (the computer's move, a sweep): redraw, then follow up."""
        shown = await self.redraw(table) or table
        async with self.public(table.row.guild_id):
            await self.game_changed(shown)

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
                if row.live:
                    lapsed = _("This draw offer lapsed: a move was played.")
                else:
                    lapsed = _("This draw offer lapsed: the game is over.")
                await self.edit_message(row.channel_id, table.lapsed_offer, offer_closed(lapsed))
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
        shown = await self.redraw(table) or table
        try:
            await self.bot.get_partial_messageable(table.row.channel_id).send(text)
        except discord.HTTPException as exc:
            log.warning("could not announce the end of game %s: %s", table.row.id, exc)
        await self.game_changed(shown)

    def time_out_text(self, table: Table) -> str:
        last_move = table.game.last_move
        assert last_move is not None  # a game lost on time ends with a ply that says so
        loser = last_move.player
        return _(
            "⏰ {loser} ran out of time. {winner} wins game #{number}!",
            loser=self.mention(table, loser),
            winner=self.mention(table, loser.other),
            number=table.row.id,
        )

    @wari.command(name="board", description=N_("Show this channel's game again at the bottom of the channel"))
    @answering
    async def board(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None  # a command is used in a channel
        table = await self.service.live_table(interaction.channel_id)
        posted = await self.post_board(interaction, table)
        if posted is None:
            raise Refusal(N_("Discord did not let me post the board. Please try again in a moment."))
        self.computer.schedule(posted)

    async def post_board(
        self, interaction: discord.Interaction | None, table: Table, where: discord.abc.Messageable | None = None
    ) -> Table | None:
        """Post the board as a new message (the answer, or in ``where``): the game's board from
        now on. If Discord refuses the answer, the board is posted in the channel instead;
        ``None`` if Discord refused that too (the game's board did not change)."""
        try:
            message = await self.respond(interaction, where, **await self.board_fields(table))
        except discord.HTTPException as exc:
            log.warning("could not post the board of game %s: %s", table.row.id, exc)
            if where is not None:
                return None
            assert interaction is not None  # without ``where``, the board was its answer
            posted = await self.post_board(None, table, self.bot.get_partial_messageable(table.row.channel_id))
            if posted is not None:  # the command still needs its answer
                await self.tell(
                    interaction,
                    N_("The board of game #{number} is here: {url}"),
                    number=posted.row.id,
                    url=board_url(posted.row),
                )
            return posted
        current = await self.service.moved_board(table, message.id, now())
        if current.game.ply != table.game.ply:  # the computer moved while we were posting
            await self.edit_message(message.channel.id, message.id, await self.board_fields(current))
        if table.row.message_id is not None:  # the old board must not look live
            await self.edit_message(table.row.channel_id, table.row.message_id, replaced_board(current))
        return current

    @wari.command(name="surrender", description=N_("Give up this channel's game: your opponent wins"))
    @answering
    async def surrender(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None  # a command is used in a channel
        table = await self.service.surrender(interaction.channel_id, interaction.user.id, now())
        outcome = table.game.outcome
        assert outcome is not None and outcome.winner is not None  # a surrender ends the game: the opponent wins
        winner = outcome.winner
        # Answer first: the redraw is a separate REST call that may be slow. The winner is told.
        text = _(
            "🏳️ {name} surrendered. {winner} wins game #{number}!",
            name=markdown_name(interaction.user.display_name),
            winner=self.mention(table, winner),
            number=table.row.id,
        )
        await self.announce(interaction, text, allowed_mentions=self.notify(table, winner))
        await self.board_changed(table)

    @wari_mod.command(name="abort", description=N_("End this channel's stuck game with no winner"))
    @answering
    async def abort(self, interaction: discord.Interaction) -> None:
        if not interaction.permissions.manage_messages:
            raise Refusal(N_("Only members with the Manage Messages permission in this channel can abort a game."))
        assert interaction.channel_id is not None  # a command is used in a channel
        table = await self.service.abort(interaction.channel_id, now())
        text = _(
            "🛑 {name} aborted game #{number} between {a} and {b}. No winner.",
            name=markdown_name(interaction.user.display_name),
            number=table.row.id,
            a=self.mention(table, Player.A),
            b=self.mention(table, Player.B),
        )
        await self.announce(interaction, text, allowed_mentions=self.notify(table, *Player))
        await self.board_changed(table)

    @staticmethod
    def mention(table: Table, side: Player) -> str:
        """A side in an announcement: a mention for a person (to notify them), the name for the computer."""
        return table.row.names[side] if table.level(side) is not None else f"<@{table.user(side)}>"

    @staticmethod
    def notify(table: Table, *sides: Player) -> discord.AllowedMentions:
        """Allowed mentions that notify the people among ``sides``, and nobody else."""
        people = [discord.Object(table.user(side)) for side in sides if table.level(side) is None]
        return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=people)

    @wari.command(name="rules", description=N_("How to play (only you see the answer)"))
    @app_commands.describe(variant=N_("Rule set (default: this channel's game, else wari)"))
    @app_commands.choices(variant=VARIANT_CHOICES)
    @answering
    async def rules(self, interaction: discord.Interaction, variant: str | None = None) -> None:
        assert interaction.channel_id is not None  # a command is used in a channel
        table = await self.service.table(interaction.channel_id) if variant is None else None
        rules = table.game.rules if table else rules_of(variant or "wari", None, None)
        with speaking(await self.reader_language(interaction)):  # only the asker sees it
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
        await interaction.response.send_message(embed=embed, ephemeral=True)
