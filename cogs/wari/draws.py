"""Draw offers: ``/wari draw``, the offer message with Accept and Decline for the opponent, and
the computer's answer from its own evaluation. An offer lapses at the next move."""

from __future__ import annotations

from typing import Any

import discord

from bot.engine import Player
from bot.service import Refusal, Table

from .base import CogBase, answering, now, wari
from .views import OVER_COLOUR, _cog, _safely, mention_only

OFFER_COLOUR = discord.Colour.blurple()


class DrawButton(discord.ui.DynamicItem[discord.ui.Button], template=r"wari:draw:(?P<game>[0-9]+):(?P<ply>[0-9]+):(?P<action>accept|decline)"):
    """Accept or Decline a draw offered in game ``game`` after move ``ply`` (only the opponent may)."""

    STYLES = {"accept": discord.ButtonStyle.success, "decline": discord.ButtonStyle.danger}

    def __init__(self, game_id: int, ply: int, action: str) -> None:
        super().__init__(
            discord.ui.Button(label=action.capitalize(), style=self.STYLES[action], custom_id=f"wari:draw:{game_id}:{ply}:{action}")
        )
        self.game_id, self.ply, self.action = game_id, ply, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /) -> DrawButton:
        return cls(int(match["game"]), int(match["ply"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _safely(interaction, _cog(interaction).answer_draw(interaction, self.game_id, self.ply, self.action))


def offer_message(table: Table) -> dict[str, Any]:
    """The offer, pinging the opponent (a new message, so they are notified)."""
    offerer = Player[table.row.draw_by]
    opponent = table.user(offerer.other)
    embed = discord.Embed(
        title=f"🤝 Draw offer · game #{table.row.id}",
        description=f"<@{table.user(offerer)}> offers a draw. It stands until it is answered or a move is played.",
        colour=OFFER_COLOUR,
    )
    view = discord.ui.View(timeout=None)
    for action in DrawButton.STYLES:
        view.add_item(DrawButton(table.row.id, table.game.ply, action))
    return {
        "content": f"<@{opponent}>, your opponent offers a draw.",
        "embed": embed,
        "view": view,
        "allowed_mentions": mention_only(opponent),
    }


def offer_closed(text: str) -> dict[str, Any]:
    """An offer's message once it is answered or lapsed: its words, no buttons."""
    embed = discord.Embed(title="🤝 Draw offer", description=text, colour=OVER_COLOUR)
    return {"content": None, "embed": embed, "view": None, "allowed_mentions": discord.AllowedMentions.none()}


class DrawCommands(CogBase):
    @wari.command(name="draw", description="Offer your opponent a draw")
    @answering
    async def draw(self, interaction: discord.Interaction) -> None:
        offered = await self.service.offer_draw(interaction.channel_id, interaction.user.id, now())
        offerer = Player[offered.row.draw_by]
        if offered.level(offerer.other) is not None:
            await self.ask_the_computer(interaction, offered)
            return
        message = await self.respond(interaction, None, **offer_message(offered))
        await self.service.set_draw_message(offered, message.id, now())

    async def ask_the_computer(self, interaction: discord.Interaction, offered: Table) -> None:
        """The computer answers at once from its own evaluation of the position."""
        await interaction.response.defer(thinking=True)
        accepts, score = await self.computer.judge_draw(offered)
        try:
            table = await self.service.answer_draw(
                channel_id=offered.row.channel_id, game_id=offered.row.id, ply=offered.game.ply,
                user_id=self.bot.user.id, accept=accepts, now=now(),
            )
        except Refusal:
            await interaction.followup.send("Your draw offer lapsed: a move was played while I was thinking about it.")
            return
        if accepts:
            await interaction.followup.send(f"🤝 <@{interaction.user.id}> offered a draw and I accept: game #{table.row.id} is drawn.")
            await self.board_changed(table)
        else:
            await interaction.followup.send(
                f"🤖 <@{interaction.user.id}> offered a draw; I decline, I like my position (my evaluation: {score / 4:+.1f} seeds).",
                allowed_mentions=discord.AllowedMentions.none(),
            )

    @answering
    async def answer_draw(self, interaction: discord.Interaction, game_id: int, ply: int, action: str) -> None:
        """Accept or Decline pressed on an offer."""
        table = await self.service.answer_draw(
            channel_id=interaction.channel_id, game_id=game_id, ply=ply, user_id=interaction.user.id, accept=action == "accept", now=now()
        )
        if action == "accept":
            await interaction.response.edit_message(**offer_closed(f"🤝 <@{interaction.user.id}> accepted: game #{game_id} is drawn."))
            await self.board_changed(table)
        else:
            await interaction.response.edit_message(**offer_closed(f"<@{interaction.user.id}> declined the draw offer. Play on!"))
