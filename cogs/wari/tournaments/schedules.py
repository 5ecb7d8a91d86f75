"""Recurring tournaments as moderators look after them (``/wari-mod schedule list|edit|stop``): a
schedule is made by ``/wari-mod tournament create … repeat:``, and each edition makes the next
when it starts (:mod:`bot.service.schedules`)."""

from __future__ import annotations

import discord
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.i18n import N_, _
from bot.names import markdown_name
from bot.service import Refusal
from bot.service.schedules import Schedule
from bot.service.tournaments import TournamentService, parse_start

from ..presenter import Presenter
from .moderation import TournamentModeration
from .runs import TournamentRunner
from .views import shield_text, signup_message

PERIOD_NAMES = {"daily": N_("daily"), "weekly": N_("weekly"), "monthly": N_("monthly")}


def schedule_line(schedule: Schedule) -> str:
    """``#2 weekly · Friday Arena (#7, edition 3) · 8 editions · 🛡️ Oware Shield (held by Ama)``."""
    row, newest = schedule.row, schedule.newest
    parts = [f"#{row.id} {_(PERIOD_NAMES[row.period])}"]
    if newest is not None:
        parts.append(
            _(
                "{name} (#{number}, edition {edition})",
                name=markdown_name(newest.name),
                number=newest.id,
                edition=newest.edition,
            )
        )
    if row.editions is not None:
        parts.append(_("{count} editions in all", count=row.editions))
    if row.until is not None:
        parts.append(_("until {when}", when=discord.utils.format_dt(row.until, "d")))
    if row.title:
        parts.append(shield_text(schedule))
    if row.stopped_at is not None:
        parts.append(_("stopped"))
    elif newest is not None and newest.status == "open":
        parts.append(_("next {when}", when=discord.utils.format_dt(newest.starts_at, "R")))
    return " · ".join(parts)


class ScheduleModeration:
    """Listing, changing and stopping a server's recurring tournaments."""

    def __init__(self, tournaments: TournamentService, runner: TournamentRunner, presenter: Presenter) -> None:
        self.schedules = tournaments.schedules
        self.tournaments = tournaments
        self.runner = runner
        self.presenter = presenter

    async def list(self, interaction: discord.Interaction) -> None:
        TournamentModeration.check(interaction)
        assert interaction.guild_id is not None  # guild_only
        found = await self.schedules.of_server(interaction.guild_id)
        lines = [_("**Recurring tournaments**"), *map(schedule_line, found)]
        if not found:
            lines.append(_("None yet. `/wari-mod tournament create` with `repeat` makes one."))
        await self.presenter.tell(interaction, "\n".join(lines)[:2000])

    async def edit(self, interaction: discord.Interaction, number: int, **options: object) -> None:
        """Change the schedule (``repeat``, ``editions``, ``until``, ``title``) and its next edition's
        settings (``name``, ``clock``, ``rounds``, ``duration``, ``max_players``): the editions after it copy them."""
        TournamentModeration.check(interaction)
        assert interaction.guild_id is not None  # guild_only
        schedule = await self.schedules.in_server(interaction.guild_id, number)
        given = {key: value for key, value in options.items() if value is not None}
        if not given:
            raise Refusal(N_("Nothing to change: give at least one option."))
        changes: dict[str, object] = {}
        for option, column in (("repeat", "period"), ("editions", "editions"), ("title", "title")):
            if option in given:
                changes[column] = given.pop(option)
        if "until" in given:
            changes["until"] = parse_start(str(given.pop("until")), now())
        edited = await self.schedules.edit(schedule, changes=changes, edition_changes=given)
        upcoming = edited.newest
        if given and upcoming is not None and upcoming.status == "open":
            event = await self.tournaments.event(upcoming.id)
            await self.presenter.edit(upcoming.channel_id, upcoming.message_id, signup_message(event))
        await self.presenter.tell(interaction, N_("Schedule changed: {schedule}"), schedule=schedule_line(edited))

    async def stop(self, interaction: discord.Interaction, number: int) -> None:
        """No edition after those already made; the one announced still takes place (a moderator
        may cancel it as any tournament)."""
        TournamentModeration.check(interaction)
        assert interaction.guild_id is not None  # guild_only
        stopped = await self.schedules.stop(await self.schedules.in_server(interaction.guild_id, number), now())
        await self.presenter.tell(
            interaction,
            N_(
                "Schedule #{number} is stopped: no further edition will be made. An edition already "
                "announced still takes place (`/wari-mod tournament cancel` calls it off)."
            ),
            number=stopped.row.id,
        )
