"""Ending a game before its end: ``/wari surrender`` (confirmed with a button), ``/wari abort``
(either player, before both sides have moved: unrated) and ``/wari-mod abort``.

A surrender is final and costs rating, and ``/wari surrender`` sits among harmless commands in
Discord's list: it only asks, privately, and the Surrender button on that answer does it.
"""

from __future__ import annotations

import discord
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.engine import Player
from bot.i18n import N_, _
from bot.names import markdown_name
from bot.service import Refusal, Table, WariService

from .buttons import PersistentButton, read_number
from .followup import Followup
from .languages import Languages
from .presenter import Message, Presenter, channel_of
from .reach import publish
from .views import mention, notify


class SurrenderButton(PersistentButton, template=r"wari:surrender:(?P<game>[0-9]+)"):
    """On the private answer to ``/wari surrender``: give up game ``game`` for good."""

    KIND, BELONGS = "surrender", ("surrender", "game")
    FIELDS = {"game": read_number}

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Surrender"),
                emoji="🏳️",
                style=discord.ButtonStyle.danger,
                custom_id=f"wari:surrender:{game_id}",
            ),
            game_id,
        )


class Endings:
    """Surrenders and aborts."""

    def __init__(self, service: WariService, presenter: Presenter, languages: Languages, followup: Followup) -> None:
        self.service = service
        self.presenter = presenter
        self.languages = languages
        self.followup = followup

    async def ask_surrender(self, interaction: discord.Interaction) -> None:
        """``/wari surrender``: ask the player, privately, with a Surrender button."""
        table, side = await self.service.games.seat(channel_of(interaction), interaction.user.id, now())
        opponent = table.row.names[side.other]
        text = _(
            "Give up game #{number}? {opponent} wins, and this cannot be undone.",
            number=table.row.id,
            opponent=opponent,
        )
        if table.abortable:
            text += "\n" + _("Not everyone has moved yet: `/wari abort` calls the game off instead, unrated.")
        view = discord.ui.View(timeout=None)
        view.add_item(SurrenderButton(table.row.id))
        await self.presenter.answer(interaction, Message(content=text, view=view), private=True)

    async def surrender(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Surrender button: the game ends, the asker is answered in place, the channel told."""
        table = await self.service.games.surrender(channel_of(interaction), interaction.user.id, now(), game_id=game_id)
        done = Message(content=_("🏳️ You surrendered game #{number}.", number=table.row.id), view=None)
        await self.presenter.update_pressed(interaction, done)
        outcome = table.game.outcome
        assert outcome is not None and outcome.winner is not None  # a surrender ends the game: the opponent wins
        async with self.languages.of_board(table.row):
            text = _(
                "🏳️ {name} surrendered. {winner} wins game #{number}!",
                name=markdown_name(interaction.user.display_name),
                winner=mention(table, outcome.winner),
                number=table.row.id,
            )
        # A new message: the winner is notified, everyone watching sees it.
        await publish(
            self.presenter,
            interaction,
            table.row,
            Message(content=text, allowed_mentions=notify(table, outcome.winner)),
        )
        await self.followup.board_changed(table, interaction)

    async def abort(self, interaction: discord.Interaction) -> None:
        """``/wari abort``: a player calls the game off before both sides have moved."""
        table = await self.service.games.abort_early(channel_of(interaction), interaction.user.id, now())
        side = table.player(interaction.user.id)
        assert side is not None  # abort_early seats the asker
        text = _(
            "🛑 {name} called off game #{number} against {opponent} before both sides had moved: "
            "no winner, and no rating changes.",
            name=markdown_name(interaction.user.display_name),
            number=table.row.id,
            opponent=mention(table, side.other),
        )
        await self._announce_abort(interaction, table, text)

    async def moderator_abort(self, interaction: discord.Interaction) -> None:
        """``/wari-mod abort``: a moderator ends a stuck game with no winner."""
        if not interaction.permissions.manage_messages:
            raise Refusal(N_("Only members with the Manage Messages permission in this channel can abort a game."))
        table = await self.service.games.abort(channel_of(interaction), now())
        text = _(
            "🛑 {name} aborted game #{number} between {a} and {b}. No winner.",
            name=markdown_name(interaction.user.display_name),
            number=table.row.id,
            a=mention(table, Player.A),
            b=mention(table, Player.B),
        )
        await self._announce_abort(interaction, table, text)

    async def _announce_abort(self, interaction: discord.Interaction, table: Table, text: str) -> None:
        # Both players hear of it (the one who aborted too: harmless, and one rule for everyone).
        await self.presenter.announce(interaction, Message(content=text, allowed_mentions=notify(table, *Player)))
        await self.followup.board_changed(table, interaction)
