"""``/wari takeback``: take back your last move and think again. Against the computer it is
granted at once (a game against it is practice, never rated); in an unrated game between people
the opponent is asked, with Accept and Decline, and the request lapses once a move is played."""

from __future__ import annotations

import discord
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.engine import MoveRecord, Player
from bot.i18n import _
from bot.names import markdown_name
from bot.service import Computer, Table, WariService

from .buttons import PersistentButton, read_number
from .followup import Followup
from .presenter import Message, Presenter, mention_only
from .reach import notify_through
from .views import OFFER_COLOUR, answer_button


class TakebackButton(
    PersistentButton,
    template=r"wari:takeback:(?P<game>[0-9]+):(?P<ply>[0-9]+):(?P<side>[AB]):(?P<action>accept|decline)",
):
    """Accept or Decline the takeback ``side`` asked for after move ``ply`` (only the opponent may)."""

    KIND, BELONGS = "takeback", ("takeback request", "game", "ply", "side")
    FIELDS = {"game": read_number, "ply": read_number, "side": str, "action": str}
    ACTIONS = ("accept", "decline")

    def __init__(self, game_id: int, ply: int, side: str, action: str) -> None:
        custom_id = f"wari:takeback:{game_id}:{ply}:{side}:{action}"
        super().__init__(answer_button(action, custom_id), game_id, ply, side, action)


def taken_back(moves: list[MoveRecord]) -> str:
    """The moves taken back, in the order they were played: ```A(3,4)` `B(9,5)```."""
    return " ".join(f"`{move}`" for move in reversed(moves))


def request_message(table: Table, side: Player, name: str) -> Message:
    """The request, pinging the opponent (a new message, so they are notified)."""
    opponent = table.user(side.other)
    text = _(
        "↩️ <@{opponent}>, {name} asks to take back their last move in game #{number}.",
        opponent=opponent,
        name=name,
        number=table.row.id,
    )
    embed = discord.Embed(description=_("The request lapses as soon as a move is played."), colour=OFFER_COLOUR)
    view = discord.ui.View(timeout=None)
    for action in TakebackButton.ACTIONS:
        view.add_item(TakebackButton(table.row.id, table.game.ply, side.name, action))
    return Message(content=text, embeds=[embed], view=view, allowed_mentions=mention_only(opponent))


class Takebacks:
    """Taking back a move: granted by the computer, or asked of a person."""

    def __init__(self, service: WariService, presenter: Presenter, followup: Followup, computer: Computer) -> None:
        self.service = service
        self.presenter = presenter
        self.followup = followup
        self.computer = computer

    async def take_back(self, interaction: discord.Interaction) -> None:
        """``/wari takeback``."""
        assert interaction.channel_id is not None  # a command is used in a channel
        table, undone = await self.service.games.take_back(interaction.channel_id, interaction.user.id, now())
        name = markdown_name(interaction.user.display_name)
        if not undone:  # a person is asked
            side = table.player(interaction.user.id)
            assert side is not None  # take_back seats the asker
            await self.presenter.respond(interaction, None, request_message(table, side, name))
            return
        self.computer.cancel(interaction.channel_id)  # an answer it was searching for is no longer wanted
        text = _(
            "↩️ {name} took back {moves} in game #{number}: your move again.",
            name=name,
            moves=taken_back(undone),
            number=table.row.id,
        )
        await self.presenter.announce(interaction, Message(content=text))
        await self.followup.board_changed(table, interaction)

    async def answer(self, interaction: discord.Interaction, game_id: int, ply: int, side: str, action: str) -> None:
        """Accept or Decline pressed on a request."""
        assert interaction.channel_id is not None  # a press comes from a message in a channel
        name = markdown_name(interaction.user.display_name)
        asker = Player[side]
        if action == "accept":
            await self.accept(interaction, interaction.channel_id, game_id, ply, asker, name)
            return
        table = await self.service.games.check_takeback_answer(
            channel_id=interaction.channel_id, game_id=game_id, ply=ply, side=asker, user_id=interaction.user.id
        )
        closing = _("{name} declined: the move stands.", name=name)
        await self.presenter.update_pressed(interaction, Message(content=closing, embeds=[], view=None))
        told = _("<@{player}>, {name} declined your takeback request.", player=table.user(asker), name=name)
        await notify_through(self.presenter, interaction, table.row, told, table.user(asker))  # an edit notifies nobody

    async def accept(
        self, interaction: discord.Interaction, channel_id: int, game_id: int, ply: int, asker: Player, name: str
    ) -> None:
        """Accept pressed: the moves are taken back and the request says so. The asker is notified
        once, by the turn ping the redrawn game posts (a second "agreed" message would only double it)."""
        table, undone = await self.service.games.grant_takeback(
            channel_id=channel_id, game_id=game_id, ply=ply, side=asker, user_id=interaction.user.id, now=now()
        )
        closing = _("✅ {name} agreed: {moves} taken back.", name=name, moves=taken_back(undone))
        await self.presenter.update_pressed(interaction, Message(content=closing, embeds=[], view=None))
        await self.followup.board_changed(table, interaction)
