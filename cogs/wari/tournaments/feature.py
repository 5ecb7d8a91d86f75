"""Tournaments as players see them: ``/wari tournament join|leave|standings|results|list`` and the
Join/Leave buttons of an event's sign-up message; in a team battle, the team a member joins for
(the one whose role they hold; asked privately if they hold several). The moderators' side is in
:mod:`.moderation`, the events' running in :mod:`.runs`."""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.i18n import N_, _, speaking
from bot.names import markdown_name
from bot.service import Refusal
from bot.service.teams import ChooseTeam
from bot.service.tournaments import Event, TournamentService
from bot.storage import StorageError
from bot.tournament import tournament_trf

from ..presenter import Message, Presenter
from .runs import TournamentRunner
from .standings import results_table
from .views import list_message, shield_text, signup_message, team_choice, team_name

log = logging.getLogger("cogs.wari")
#: Discord shows at most 25 suggestions.
SUGGESTIONS = 25


class Tournaments:
    """Joining, leaving and reading events."""

    def __init__(self, tournaments: TournamentService, runner: TournamentRunner, presenter: Presenter) -> None:
        self.tournaments = tournaments
        self.runner = runner
        self.presenter = presenter

    async def find(self, interaction: discord.Interaction, number: int | None) -> Event:
        """Event ``number`` of this server; without a number, the one of this channel (or of its
        parent, from a game's thread): the newest not over, else the newest; else the newest
        not over in the server."""
        assert interaction.guild_id is not None  # guild_only
        if number is not None:
            return await self.tournaments.in_server(interaction.guild_id, number)
        here = {interaction.channel_id, getattr(interaction.channel, "parent_id", None)}
        running = await self.tournaments.of_server(interaction.guild_id, over=False)
        past = await self.tournaments.of_server(interaction.guild_id, over=True)
        mine = [row for row in [*running, *past] if row.channel_id in here]
        chosen = mine[0] if mine else running[0] if running else None
        if chosen is None:
            raise Refusal(N_("There is no tournament here. `/wari tournament list` shows this server's."))
        return await self.tournaments.event(chosen.id)

    async def suggestions(self, interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[int]]:
        """The server's events for the ``tournament`` option, newest first, whose number starts
        with what was typed or whose name holds it. Suggestions are a help, not an answer: none
        while the database is away."""
        if interaction.guild_id is None:
            return []
        try:
            rows = [
                *await self.tournaments.of_server(interaction.guild_id, over=False),
                *await self.tournaments.of_server(interaction.guild_id, over=True),
            ]
        except StorageError as error:
            log.warning("no tournaments to suggest: %s", error)
            return []
        typed = typed.strip().lstrip("#").casefold()
        chosen = [r for r in rows if str(r.id).startswith(typed) or typed in r.name.casefold()]
        chosen.sort(key=lambda row: row.id, reverse=True)
        return [app_commands.Choice(name=f"#{r.id} {r.name}"[:100], value=r.id) for r in chosen[:SUGGESTIONS]]

    async def join(self, interaction: discord.Interaction, number: int | None) -> None:
        event = await self._join(interaction, (await self.find(interaction, number)).row.id)
        if event is None:
            return  # asked which team first
        await self.presenter.edit(event.row.channel_id, event.row.message_id, signup_message(event))
        await self.tell_joined(interaction, event)

    async def tell_joined(self, interaction: discord.Interaction, event: Event) -> None:
        words, params = joined(event, interaction.user.id)
        await self.presenter.tell(interaction, words, **params)

    async def choose_team(self, interaction: discord.Interaction, tournament_id: int, team: int) -> None:
        """A team pressed on the private choice of a member who holds several teams' roles: they are
        in, for it (if they still hold its role), and the choice says so."""
        assert interaction.guild_id is not None  # a team battle is a server's
        await self.tournaments.row_in_server(interaction.guild_id, tournament_id)  # the event is read once, joined
        event = await self._join(interaction, tournament_id, team)
        assert event is not None  # a team chosen is never asked again
        await self.presenter.edit(event.row.channel_id, event.row.message_id, signup_message(event))
        words, params = joined(event, interaction.user.id)
        if not await self.presenter.update_pressed(interaction, Message(content=_(words, **params), view=None)):
            await self.tell_joined(interaction, event)

    async def leave(self, interaction: discord.Interaction, number: int | None) -> None:
        event = await self._leave(interaction, (await self.find(interaction, number)).row.id)
        await self.presenter.edit(event.row.channel_id, event.row.message_id, signup_message(event))
        await self.presenter.tell(interaction, N_("You left **{name}**."), name=markdown_name(event.row.name))

    async def press(self, interaction: discord.Interaction, tournament_id: int, action: str) -> None:
        """Join or Leave on the sign-up message: the message is redrawn as the answer. The event
        must be this server's: a custom id naming another's is refused as if it did not exist."""
        assert interaction.guild_id is not None  # a sign-up message is in a server channel
        await self.tournaments.row_in_server(interaction.guild_id, tournament_id)
        event = await (self._join if action == "join" else self._leave)(interaction, tournament_id)
        if event is None:
            return  # asked which team first
        if not await self.presenter.update_pressed(interaction, signup_message(event)):
            await self.presenter.tell(interaction, N_("Done."))

    async def _join(
        self, interaction: discord.Interaction, tournament_id: int, team: int | None = None
    ) -> Event | None:
        """Join for the asker; ``None`` if a team battle must first ask them which team (they hold
        several teams' roles): the question is their private answer."""
        roles = {role.id for role in getattr(interaction.user, "roles", [])}
        try:
            return await self.tournaments.join(
                tournament_id,
                user_id=interaction.user.id,
                name=interaction.user.display_name,
                now=now(),
                roles=roles,
                team=team,
            )
        except ChooseTeam as choice:
            assert interaction.guild_id is not None  # a team battle is a server's
            row = await self.tournaments.row_in_server(interaction.guild_id, tournament_id)
            with speaking(await self.presenter.languages.of_reader(interaction)):
                question = team_choice(row, choice.teams)
            await self.presenter.answer(interaction, question, private=True)
            return None

    async def _leave(self, interaction: discord.Interaction, tournament_id: int) -> Event:
        return await self.tournaments.leave(tournament_id, interaction.user.id)

    async def standings(self, interaction: discord.Interaction, number: int | None, public: bool) -> None:
        event = await self.find(interaction, number)
        message = await self.runner.standings(event, await self.runner.links(event))
        await self.presenter.answer(interaction, message, private=not public)

    async def results(self, interaction: discord.Interaction, number: int | None) -> None:
        """The standings and every round's results as a table a person reads (a ``.txt``, 40
        columns: a phone's file viewer shows it whole), beside the same as a TRF16 file (FIDE's
        tournament report format, which pairing programs and rating officers read)."""
        event = await self.find(interaction, number)
        row = event.row
        end = (row.finished_at or now()).date()
        text = tournament_trf(
            row.name, row.starts_at.date(), end, event.model_entrants, event.model_pairings, rounds=row.round
        )
        content = _(
            "📄 **{name}**: the standings and every round's results, as a table to read (.txt) and in TRF16 "
            "(the format pairing programs read).",
            name=markdown_name(row.name),
        )
        files = [
            discord.File(io.BytesIO(text.encode("utf-8")), filename=f"wari-tournament-{row.id}.trf"),
            discord.File(io.BytesIO(results_table(event).encode("utf-8")), filename=f"wari-tournament-{row.id}.txt"),
        ]
        await self.presenter.answer(interaction, Message(content=content, files=files), private=True)

    async def list(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None  # guild_only
        running = await self.tournaments.of_server(interaction.guild_id, over=False)
        past = await self.tournaments.of_server(interaction.guild_id, over=True)
        schedules = {row.schedule_id for row in [*running, *past] if row.schedule_id is not None}
        read = [await self.tournaments.schedules.in_server(interaction.guild_id, number) for number in schedules]
        shields = {schedule.row.id: shield_text(schedule) for schedule in read if schedule.row.title}
        await self.presenter.tell(interaction, list_message(running, past, shields))


def joined(event: Event, user_id: int) -> tuple[str, dict[str, object]]:
    """What a player who just joined is told (English, to translate), with its values: in a team
    battle, their team too."""
    name, team = markdown_name(event.row.name), team_name(event, user_id)
    if team is None:
        return N_("You are in **{name}**. Your games will be called here when they start."), {"name": name}
    words = N_("You are in **{name}**, for team **{team}**. Your games will be called here when they start.")
    return words, {"name": name, "team": team}
