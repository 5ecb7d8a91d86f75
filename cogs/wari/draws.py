"""Draw offers: ``/wari draw``, the answers to an offer (its message and buttons are in
:mod:`cogs.wari.views`), and the computer's answer from its own evaluation. An offer lapses
at the next move."""

from __future__ import annotations

import logging

import discord
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.engine import Player
from bot.i18n import N_, Text, _
from bot.names import markdown_name
from bot.service import Computer, Refusal, Table, TimeUp, WariService
from bot.storage import StorageError

from .followup import Followup
from .presenter import Message, Presenter
from .reach import notify_through
from .views import offer_closed, offer_message

log = logging.getLogger("cogs.wari")


def evaluation_words(score: float) -> str:
    """The computer's evaluation (about 4 a seed; beyond ±1000 a proven result) in words."""
    if abs(score) >= 1000:
        return _("I see a forced win") if score > 0 else _("I see a forced loss")
    return _("my evaluation: {seeds} seeds", seeds=f"{score / 4:+.1f}")


class Draws:
    """Offers of a draw and their answers, by a person or by the computer."""

    def __init__(
        self,
        client: discord.Client,
        service: WariService,
        presenter: Presenter,
        followup: Followup,
        computer: Computer,
    ) -> None:
        self.client = client
        self.service = service
        self.presenter = presenter
        self.followup = followup
        self.computer = computer

    async def offer(self, interaction: discord.Interaction) -> None:
        """``/wari draw``: the offer, pinging the opponent, or the computer's answer at once."""
        assert interaction.channel_id is not None  # a command is used in a channel
        offered = await self.service.games.offer_draw(interaction.channel_id, interaction.user.id, now())
        assert offered.row.draw_by is not None  # the offer just made names its side
        offerer = Player[offered.row.draw_by]
        if offered.level(offerer.other) is not None:
            await self.ask_the_computer(interaction, offered)
            return
        try:
            message = await self.presenter.respond(interaction, None, offer_message(offered))
        except discord.HTTPException as exc:
            log.warning("could not post the draw offer in game %s: %s", offered.row.id, exc)
            await self.service.games.cancel_draw(offered, now())
            raise Refusal(
                N_("Discord did not let me post your offer, so no draw was offered. Try again in a moment.")
            ) from None
        try:
            await self.service.games.set_draw_message(offered, message.id, now())
        except StorageError as exc:  # the offer stands and can be answered; only its lapse cannot close its message
            log.error("draw offer in game %s is posted, but its message could not be saved: %s", offered.row.id, exc)

    async def ask_the_computer(self, interaction: discord.Interaction, offered: Table) -> None:
        """The computer answers at once from its own evaluation of the position."""
        await self.presenter.acknowledge(interaction, thinking=True)
        assert self.client.user is not None  # logged in: it is answering a command
        me = self.client.user.id
        try:
            accepts, score = await self.computer.judge_draw(offered, me)
        except BaseException:
            await self.service.games.cancel_draw(offered, now())  # no answer: no offer left standing
            raise
        try:
            table = await self.service.games.answer_draw(
                channel_id=offered.row.channel_id,
                game_id=offered.row.id,
                ply=offered.game.ply,
                user_id=me,
                accept=accepts,
                now=now(),
            )
        except TimeUp:
            raise
        except Refusal:  # the "thinking…" answer is public (its defer decided): so is this one
            text = _("Your draw offer lapsed: a move was played while I was thinking about it.")
            await self.presenter.announce(interaction, Message(content=text))
            return
        name = markdown_name(interaction.user.display_name)
        if accepts:
            text = _("🤝 {name} offered a draw and I accept: game #{number} is drawn.", name=name, number=table.row.id)
            await self.presenter.announce(interaction, Message(content=text))
            await self.followup.board_changed(table, interaction)
        else:
            why = evaluation_words(score)
            text = _("🤖 {name} offered a draw; I decline, I like my position ({why}).", name=name, why=why)
            await self.presenter.announce(interaction, Message(content=text))

    async def answer(self, interaction: discord.Interaction, game_id: int, ply: int, action: str) -> None:
        """Accept or Decline pressed on an offer."""
        assert interaction.channel_id is not None  # a press comes from a message in a channel
        table = await self.service.games.answer_draw(
            channel_id=interaction.channel_id,
            game_id=game_id,
            ply=ply,
            user_id=interaction.user.id,
            accept=action == "accept",
            now=now(),
        )
        name = markdown_name(interaction.user.display_name)
        if action == "accept":
            closing = Text(N_("🤝 {name} accepted: game #{number} is drawn."), name=name, number=game_id)
        else:
            closing = Text(N_("{name} declined the draw offer. Play on!"), name=name)
        if not await self.presenter.update_pressed(interaction, offer_closed(str(closing))):
            await self.presenter.tell(
                interaction, N_("{closing} (Discord did not let me update the offer's message.)"), closing=closing
            )
        answerer = table.player(interaction.user.id)
        if answerer is not None and table.level(answerer.other) is None:
            # The offerer learns the answer from a message of its own (an edit notifies nobody).
            offerer = table.user(answerer.other)
            if action == "accept":
                text = _(
                    "{player}, {name} accepted your draw offer: game #{number} is drawn.",
                    number=game_id,
                    player=f"<@{offerer}>",
                    name=name,
                )
            else:
                text = _("{player}, {name} declined your draw offer. Play on!", player=f"<@{offerer}>", name=name)
            await notify_through(self.presenter, interaction, table.row, text, offerer)
        if action == "accept":
            await self.followup.board_changed(table, interaction)
