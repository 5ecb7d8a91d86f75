"""The moderators' side of tournaments (``/wari-mod tournament ...``): making an event (or a team
battle, an arena whose teams are roles of the server), starting it
(or its next round) early, pausing, resuming, cancelling, removing a player, and setting a
game's result by hand with the reason kept."""

from __future__ import annotations

import discord
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.i18n import N_, _
from bot.names import markdown_name
from bot.service import Refusal, WariService
from bot.service.tournaments import Event, TournamentService

from ..followup import Followup
from ..presenter import Message, Presenter
from .feature import Tournaments
from .runs import TournamentRunner
from .views import signup_message

#: A result as a moderator gives it, as the named player's points.
RESULTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


class TournamentModeration:
    """What a moderator does to an event."""

    def __init__(
        self,
        service: WariService,
        tournaments: TournamentService,
        runner: TournamentRunner,
        players: Tournaments,
        presenter: Presenter,
        followup: Followup,
    ) -> None:
        self.service = service
        self.tournaments = tournaments
        self.runner = runner
        self.players = players
        self.presenter = presenter
        self.followup = followup

    @staticmethod
    def check(interaction: discord.Interaction) -> None:
        if not interaction.permissions.manage_messages:
            raise Refusal(N_("Only members with the Manage Messages permission can run tournaments."))

    async def create(self, interaction: discord.Interaction, **options: object) -> None:
        """``/wari-mod tournament create``: the event, and its sign-up message as the answer."""
        self.check(interaction)
        assert interaction.guild_id is not None and interaction.channel_id is not None  # guild_only
        if not isinstance(interaction.channel, discord.TextChannel):
            raise Refusal(N_("A tournament is made in a text channel: its games are played in a thread of it."))
        row = await self.tournaments.create(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            created_by=interaction.user.id,
            now=now(),
            **options,  # type: ignore[arg-type]
        )
        event = await self.tournaments.event(row.id)
        message = await self.presenter.respond(interaction, None, signup_message(event))
        await self.tournaments.set_messages(row.id, message_id=message.id)
        await self.runner.role_calls.tournament_opened(row, message.id)
        async with self.runner.languages.public(row.guild_id):
            listed = await self.runner.calendar.sync(row)
        if not listed:  # told once, to the moderator who made it; the tournament runs all the same
            await self.presenter.tell(
                interaction,
                N_(
                    "**{name}** runs, but it is not in the server's Events: I need the **Manage Events** "
                    "permission to list tournaments there."
                ),
                name=markdown_name(row.name),
            )

    async def battle(self, interaction: discord.Interaction, teams: list[discord.Role], **options: object) -> None:
        """``/wari-mod tournament battle``: an arena whose players score for ``teams`` (roles of the
        server, kept by their id and their name now), made as :meth:`create` makes any event."""
        await self.create(interaction, format="arena", teams=[(role.id, role.name) for role in teams], **options)

    async def start(self, interaction: discord.Interaction, number: int | None) -> None:
        """Start an open event now; during a round-based one, start the next round now: the
        games still being played are adjudicated by the engine and ended."""
        self.check(interaction)
        event = await self.players.find(interaction, number)
        if event.row.status == "open":
            await self.runner.start_now(event.row.id)
            await self.presenter.tell(interaction, N_("**{name}** has started."), name=markdown_name(event.row.name))
            return
        if event.row.status != "running" or event.row.format == "arena":
            raise Refusal(N_("Only a Swiss or round-robin under way can start its next round early."))
        ruled = await self.adjudicate_open_games(event)
        await self.presenter.tell(
            interaction, N_("The next round starts: {count} unfinished games were adjudicated."), count=ruled
        )
        await self.runner.advance(event.row.id)

    async def adjudicate_open_games(self, event: Event) -> int:
        """End every game of the event still being played, each scored as the engine judges it."""
        count = 0
        for pairing in event.open_pairings:
            if pairing.game_id is None:
                continue
            table = await self.service.tables.game(pairing.game_id)
            points = await self.tournaments.rounds.adjudication(table.game)  # side A moves first: the pairing's first
            await self.tournaments.rounds.rule_pairing(pairing, points, N_("adjudicated"), now())
            await self.end_game(pairing.game_id)
            count += 1
        return count

    async def end_game(self, game_id: int | None) -> None:
        """Abort a pairing's game, if it is still being played, whose result was set otherwise
        (it counts as set, not as a draw)."""
        table = await self.service.tables.game(game_id) if game_id is not None else None
        if table is not None and table.row.live:
            aborted = await self.service.games.abort(table.row.channel_id, now(), game_id=table.row.id)
            await self.followup.board_changed(aborted)  # its end moves the event on, as any end does

    async def set_status(self, interaction: discord.Interaction, number: int | None, action: str) -> None:
        """``pause``, ``resume`` or ``cancel``."""
        self.check(interaction)
        event = await self.players.find(interaction, number)
        expect, status = {
            "pause": (("running",), "paused"),
            "resume": (("paused",), "running"),
            "cancel": (("open", "running", "paused"), "cancelled"),
        }[action]
        changed = await self.tournaments.set_status(event.row.id, expect=expect, status=status, now=now())
        if action == "cancel":
            for pairing in changed.open_pairings:
                await self.end_game(pairing.game_id)
        await self.presenter.edit(changed.row.channel_id, changed.row.message_id, signup_message(changed))
        words = {
            "pause": N_("⏸️ **{name}** is paused: games under way go on, no new round starts."),
            "resume": N_("▶️ **{name}** goes on."),
            "cancel": N_("🛑 **{name}** was cancelled: unfinished games were aborted, unrated."),
        }
        await self.presenter.announce(
            interaction, Message(content=_(words[action], name=markdown_name(changed.row.name)))
        )
        await self.runner.moderated(changed)
        if action == "resume":
            await self.runner.advance(changed.row.id)

    async def kick(self, interaction: discord.Interaction, number: int | None, member: discord.User) -> None:
        """Remove a player: they are paired no more, and a game they are playing is lost by forfeit."""
        self.check(interaction)
        event = await self.players.find(interaction, number)
        pairing = event.current_pairing(member.id)
        await self.tournaments.leave(event.row.id, member.id)
        if pairing is not None and not pairing.bye:
            await self.tournaments.rounds.rule(event, user_id=member.id, result=0.0, reason=N_("removed"), now=now())
            await self.end_game(pairing.game_id)
        await self.presenter.tell(
            interaction,
            N_("{player} was removed from **{name}**."),
            player=markdown_name(member.display_name),
            name=markdown_name(event.row.name),
        )
        await self.runner.advance(event.row.id)

    async def result(
        self, interaction: discord.Interaction, number: int | None, member: discord.User, result: str, reason: str
    ) -> None:
        """Set the result of a player's current (or last) game by hand; the reason is kept."""
        self.check(interaction)
        event = await self.players.find(interaction, number)
        pairing = await self.tournaments.rounds.rule(
            event, user_id=member.id, result=RESULTS[result], reason=reason[:200], now=now()
        )
        await self.end_game(pairing.game_id)
        await self.presenter.tell(interaction, N_("The result was set. Reason kept: {reason}"), reason=reason[:200])
        await self.runner.advance(event.row.id)
