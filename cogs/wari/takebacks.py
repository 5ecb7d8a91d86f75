"""``/wari takeback``: against the computer, take back your last move (and its answers) and
think again. The computer grants it at once: a game against it is practice, never rated."""

from __future__ import annotations

import discord
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.i18n import _
from bot.names import markdown_name
from bot.service import Computer, WariService

from .followup import Followup
from .presenter import Message, Presenter


class Takebacks:
    """Taking back a move against the computer."""

    def __init__(self, service: WariService, presenter: Presenter, followup: Followup, computer: Computer) -> None:
        self.service = service
        self.presenter = presenter
        self.followup = followup
        self.computer = computer

    async def take_back(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None  # a command is used in a channel
        table, undone = await self.service.take_back(interaction.channel_id, interaction.user.id, now())
        self.computer.cancel(interaction.channel_id)  # an answer it was searching for is no longer wanted
        moves = " ".join(f"`{move}`" for move in reversed(undone))
        text = _(
            "↩️ {name} took back {moves} in game #{number}: your move again.",
            name=markdown_name(interaction.user.display_name),
            moves=moves,
            number=table.row.id,
        )
        await self.presenter.announce(interaction, Message(content=text))
        await self.followup.board_changed(table)
