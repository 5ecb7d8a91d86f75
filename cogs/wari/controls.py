"""A live game's controls on its board (:class:`cogs.wari.views.ControlButton`): Take back, Offer
draw, Abort and Surrender, so that a player on a phone need not type a slash command mid-game.

A press does what the slash command does, through the same feature (:mod:`.takebacks`,
:mod:`.draws`, :mod:`.endings`), which refuses what its rules refuse; here is only checked that
the presser plays the pressed board's game (a tournament's thread holds several games, and a
command finds the asker's own, which may not be the pressed one).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from bot.i18n import N_, speaking
from bot.service import Refusal, StaleBoard, WariService

from .boards import Boards
from .draws import Draws
from .endings import Endings
from .languages import Languages
from .permissions import number_scope
from .presenter import channel_of
from .takebacks import Takebacks

#: A press on the board of a game the presser does not play.
NOT_YOUR_BOARD = N_("Only the players of game #{number} can use its buttons.")


class Controls:
    """The presses of a board's controls, each handed to the feature of its slash command."""

    def __init__(
        self,
        service: WariService,
        languages: Languages,
        boards: Boards,
        takebacks: Takebacks,
        draws: Draws,
        endings: Endings,
    ) -> None:
        self.service = service
        self.languages = languages
        self.boards = boards
        self.endings = endings
        self.commands: dict[str, Callable[[discord.Interaction], Awaitable[None]]] = {
            "takeback": takebacks.take_back,
            "draw": draws.offer,
            "abort": endings.abort,
            "surrender": self.ask_surrender,
        }

    async def press(self, interaction: discord.Interaction, game_id: int, action: str) -> None:
        """A control pressed on game ``game_id``'s board: refused to anyone but its players; on a
        board the game left behind (it ended meanwhile) the board is brought up to date instead."""
        pressed = await self.service.tables.game_shown(game_id, number_scope(interaction))
        if pressed.player(interaction.user.id) is None or pressed.row.channel_id != channel_of(interaction):
            raise Refusal(NOT_YOUR_BOARD, number=game_id)
        if not pressed.row.live:
            await self.boards.refuse_stale(interaction, StaleBoard(N_("This game is over."), pressed))
            return
        # The command finds the presser's live game in the channel: the pressed one, checked above.
        await self.commands[action](interaction)

    async def ask_surrender(self, interaction: discord.Interaction) -> None:
        """Surrender asks first, privately, as ``/wari surrender`` does: in the presser's language."""
        with speaking(await self.languages.of_reader(interaction)):
            await self.endings.ask_surrender(interaction)
