"""Draw offers: ``/wari draw``, the answers to an offer (its message and buttons are in
:mod:`cogs.wari.views`), and the computer's answer from its own evaluation. An offer lapses
at the next move."""

from __future__ import annotations

import discord

from bot.engine import Player
from bot.i18n import N_, Text, _
from bot.names import markdown_name
from bot.service import Refusal, Table, TimeUp
from bot.storage import StorageError

from .base import CogBase, answering, log, now, wari
from .views import offer_closed, offer_message


def evaluation_words(score: float) -> str:
    """The computer's evaluation (about 4 a seed; beyond ±1000 a proven result) in words."""
    if abs(score) >= 1000:
        return _("I see a forced win") if score > 0 else _("I see a forced loss")
    return _("my evaluation: {seeds} seeds", seeds=f"{score / 4:+.1f}")


class DrawCommands(CogBase):
    @wari.command(name="draw", description=N_("Offer your opponent a draw"))
    @answering
    async def draw(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None  # a command is used in a channel
        offered = await self.service.offer_draw(interaction.channel_id, interaction.user.id, now())
        assert offered.row.draw_by is not None  # the offer just made names its side
        offerer = Player[offered.row.draw_by]
        if offered.level(offerer.other) is not None:
            await self.ask_the_computer(interaction, offered)
            return
        try:
            message = await self.respond(interaction, None, **offer_message(offered))
        except discord.HTTPException as exc:
            log.warning("could not post the draw offer in game %s: %s", offered.row.id, exc)
            await self.service.cancel_draw(offered, now())
            raise Refusal(
                N_("Discord did not let me post your offer, so no draw was offered. Try again in a moment.")
            ) from None
        try:
            await self.service.set_draw_message(offered, message.id, now())
        except StorageError as exc:  # the offer stands and can be answered; only its lapse cannot close its message
            log.error("draw offer in game %s is posted, but its message could not be saved: %s", offered.row.id, exc)

    async def ask_the_computer(self, interaction: discord.Interaction, offered: Table) -> None:
        """The computer answers at once from its own evaluation of the position."""
        await self.acknowledge(interaction, thinking=True)
        try:
            accepts, score = await self.computer.judge_draw(offered)
        except BaseException:
            await self.service.cancel_draw(offered, now())  # no answer: no offer left standing
            raise
        assert self.bot.user is not None  # logged in: it is answering a command
        try:
            table = await self.service.answer_draw(
                channel_id=offered.row.channel_id,
                game_id=offered.row.id,
                ply=offered.game.ply,
                user_id=self.bot.user.id,
                accept=accepts,
                now=now(),
            )
        except TimeUp:
            raise
        except Refusal:  # the "thinking…" answer is public (its defer decided): so is this one
            await self.announce(
                interaction,
                _("Your draw offer lapsed: a move was played while I was thinking about it."),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        if accepts:
            await self.announce(
                interaction,
                _(
                    "🤝 {name} offered a draw and I accept: game #{number} is drawn.",
                    name=markdown_name(interaction.user.display_name),
                    number=table.row.id,
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await self.board_changed(table)
        else:
            await self.announce(
                interaction,
                _(
                    "🤖 {name} offered a draw; I decline, I like my position ({why}).",
                    name=markdown_name(interaction.user.display_name),
                    why=evaluation_words(score),
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )

    @answering
    async def answer_draw(self, interaction: discord.Interaction, game_id: int, ply: int, action: str) -> None:
        """Accept or Decline pressed on an offer."""
        assert interaction.channel_id is not None  # a press comes from a message in a channel
        table = await self.service.answer_draw(
            channel_id=interaction.channel_id,
            game_id=game_id,
            ply=ply,
            user_id=interaction.user.id,
            accept=action == "accept",
            now=now(),
        )
        if action == "accept":
            closing = Text(
                N_("🤝 {name} accepted: game #{number} is drawn."),
                name=markdown_name(interaction.user.display_name),
                number=game_id,
            )
        else:
            closing = Text(
                N_("{name} declined the draw offer. Play on!"), name=markdown_name(interaction.user.display_name)
            )
        if not await self.update_pressed(interaction, offer_closed(str(closing))):
            await self.tell(
                interaction, N_("{closing} (Discord did not let me update the offer's message.)"), closing=closing
            )
        if action == "accept":
            await self.board_changed(table)
