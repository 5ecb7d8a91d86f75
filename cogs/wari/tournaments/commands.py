"""The tournament commands: ``/wari tournament ...`` for everyone and ``/wari-mod tournament ...``
for moderators, two sub-groups the cog adds to its groups. Each command hands its options to
its feature (:mod:`.feature`, :mod:`.moderation`) through :class:`Answering`."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.clock import CLOCKS
from bot.i18n import N_

from ..answering import Answering
from ..cooldowns import limited
from ..options import VARIANT_CHOICES
from ..permissions import check_in_server
from .feature import Tournaments
from .moderation import TournamentModeration
from .schedules import ScheduleModeration

NUMBER = N_("The tournament's number (default: the one under way here)")
FORMAT_CHOICES = [
    app_commands.Choice(name=N_("Swiss"), value="swiss"),
    app_commands.Choice(name=N_("Round-robin"), value="round-robin"),
    app_commands.Choice(name=N_("Arena"), value="arena"),
]
CLOCK_CHOICES = [app_commands.Choice(name=code, value=code) for code in CLOCKS]
REPEAT_CHOICES = [
    app_commands.Choice(name=N_("daily"), value="daily"),
    app_commands.Choice(name=N_("weekly"), value="weekly"),
    app_commands.Choice(name=N_("monthly"), value="monthly"),
]
REPEAT = N_("Make it come back: a new edition each day, week or month (default: once)")
EDITIONS = N_("Recurring: how many editions in all (default: until stopped)")
UNTIL = N_("Recurring: no edition starts after this date, e.g. `2026-12-31`")
TITLE = N_("Recurring: a title its winner takes, passed on at each edition (e.g. Oware Shield)")
TEAM = N_("A team: the role its players hold")
MORE_TEAM = N_("Another team (optional)")
RESULT_CHOICES = [
    app_commands.Choice(name=N_("win"), value="win"),
    app_commands.Choice(name=N_("draw"), value="draw"),
    app_commands.Choice(name=N_("loss"), value="loss"),
]
Number = app_commands.Range[int, 1, None]
Suggestions = list[app_commands.Choice[int]]


class TournamentCommands(app_commands.Group):
    """``/wari tournament``."""

    def __init__(self, answering: Answering, tournaments: Tournaments) -> None:
        super().__init__(name="tournament", description=N_("Tournaments: join, leave, standings, results"))
        self.answering = answering
        self.tournaments = tournaments

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """A tournament is a server's: elsewhere every one of these commands says where they work."""
        return check_in_server(interaction)

    @app_commands.command(name="join", description=N_("Join a tournament"))
    @app_commands.describe(tournament=NUMBER)
    async def join(self, interaction: discord.Interaction, tournament: Number | None = None) -> None:
        await self.answering.command(interaction, self.tournaments.join, tournament, private=True)

    @app_commands.command(name="leave", description=N_("Leave a tournament (after its start: withdraw)"))
    @app_commands.describe(tournament=NUMBER)
    async def leave(self, interaction: discord.Interaction, tournament: Number | None = None) -> None:
        await self.answering.command(interaction, self.tournaments.leave, tournament, private=True)

    @app_commands.command(name="standings", description=N_("A tournament's standings and crosstable"))
    @app_commands.describe(tournament=NUMBER, public=N_("Show them to the channel"))
    @limited("look", "post")
    async def standings(
        self, interaction: discord.Interaction, tournament: Number | None = None, public: bool = False
    ) -> None:
        args = (tournament, public)
        await self.answering.command(interaction, self.tournaments.standings, *args, private=not public)

    @app_commands.command(name="results", description=N_("Every round's pairings and results, as a file"))
    @app_commands.describe(tournament=NUMBER)
    @limited("look")
    async def results(self, interaction: discord.Interaction, tournament: Number | None = None) -> None:
        await self.answering.command(interaction, self.tournaments.results, tournament, private=True)

    @app_commands.command(name="list", description=N_("This server's tournaments, under way and past"))
    async def list(self, interaction: discord.Interaction) -> None:
        await self.answering.command(interaction, self.tournaments.list, private=True)

    @join.autocomplete("tournament")
    @leave.autocomplete("tournament")
    @standings.autocomplete("tournament")
    @results.autocomplete("tournament")
    async def tournament_numbers(self, interaction: discord.Interaction, current: str) -> Suggestions:
        return await self.tournaments.suggestions(interaction, current)


class TournamentModerationCommands(app_commands.Group):
    """``/wari-mod tournament``."""

    def __init__(self, answering: Answering, moderation: TournamentModeration) -> None:
        super().__init__(name="tournament", description=N_("Moderators: run tournaments"))
        self.answering = answering
        self.moderation = moderation

    @app_commands.command(name="create", description=N_("Make a tournament in this channel"))
    @app_commands.describe(
        name=N_("Its name"),
        format=N_("Swiss, Round-robin or Arena"),
        starts=N_("When: `in 30 minutes`, `20:00` (UTC), `2026-12-01 18:30`"),
        variant=N_("Rule set (default: wari)"),
        clock=N_("Every game's clock (default: 10+5)"),
        rounds=N_("Swiss: how many rounds (default: 5)"),
        max_players=N_("At most this many players (default: no limit)"),
        rated=N_("Games change ratings (default: yes)"),
        duration=N_("Arena: its length in minutes (default: 30)"),
        double=N_("Round-robin: every pair plays twice (default: no)"),
        repeat=REPEAT,
        editions=EDITIONS,
        until=UNTIL,
        title=TITLE,
    )
    @app_commands.choices(format=FORMAT_CHOICES, variant=VARIANT_CHOICES, clock=CLOCK_CHOICES, repeat=REPEAT_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60],
        format: str,
        starts: app_commands.Range[str, 1, 60],
        variant: str = "wari",
        clock: str = "10+5",
        rounds: app_commands.Range[int, 1, 20] | None = None,
        max_players: app_commands.Range[int, 2, 1000] | None = None,
        rated: bool = True,
        duration: app_commands.Range[int, 5, 24 * 60] | None = None,
        double: bool = False,
        repeat: str | None = None,
        editions: app_commands.Range[int, 2, 1000] | None = None,
        until: app_commands.Range[str, 1, 60] | None = None,
        title: app_commands.Range[str, 1, 60] | None = None,
    ) -> None:
        await self.answering.command(
            interaction,
            self.moderation.create,
            private=False,
            name=name,
            format=format,
            starts=starts,
            variant=variant,
            clock=clock,
            rounds=rounds,
            max_players=max_players,
            rated=rated,
            duration=duration,
            cycles=2 if double else 1,
            repeat=repeat,
            editions=editions,
            until=until,
            title=title,
        )

    @app_commands.command(name="battle", description=N_("Make a team battle here: an arena where roles play as teams"))
    @app_commands.describe(
        name=N_("Its name"),
        starts=N_("When: `in 30 minutes`, `20:00` (UTC), `2026-12-01 18:30`"),
        team1=TEAM,
        team2=TEAM,
        team3=MORE_TEAM,
        team4=MORE_TEAM,
        team5=MORE_TEAM,
        team6=MORE_TEAM,
        leaders=N_("How many of each team's best players score (default: 3)"),
        variant=N_("Rule set (default: wari)"),
        clock=N_("Every game's clock (default: 10+5)"),
        duration=N_("Arena: its length in minutes (default: 30)"),
        max_players=N_("At most this many players (default: no limit)"),
        rated=N_("Games change ratings (default: yes)"),
        repeat=REPEAT,
        editions=EDITIONS,
        until=UNTIL,
        title=TITLE,
    )
    @app_commands.choices(variant=VARIANT_CHOICES, clock=CLOCK_CHOICES, repeat=REPEAT_CHOICES)
    async def battle(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60],
        starts: app_commands.Range[str, 1, 60],
        team1: discord.Role,
        team2: discord.Role,
        team3: discord.Role | None = None,
        team4: discord.Role | None = None,
        team5: discord.Role | None = None,
        team6: discord.Role | None = None,
        leaders: app_commands.Range[int, 1, 20] | None = None,
        variant: str = "wari",
        clock: str = "10+5",
        duration: app_commands.Range[int, 5, 24 * 60] | None = None,
        max_players: app_commands.Range[int, 2, 1000] | None = None,
        rated: bool = True,
        repeat: str | None = None,
        editions: app_commands.Range[int, 2, 1000] | None = None,
        until: app_commands.Range[str, 1, 60] | None = None,
        title: app_commands.Range[str, 1, 60] | None = None,
    ) -> None:
        teams = [role for role in (team1, team2, team3, team4, team5, team6) if role is not None]
        await self.answering.command(
            interaction,
            self.moderation.battle,
            teams,
            private=False,
            name=name,
            starts=starts,
            leaders=leaders,
            variant=variant,
            clock=clock,
            rounds=None,
            max_players=max_players,
            rated=rated,
            duration=duration,
            cycles=1,
            repeat=repeat,
            editions=editions,
            until=until,
            title=title,
        )

    @app_commands.command(name="start", description=N_("Start a tournament now, or its next round"))
    @app_commands.describe(tournament=NUMBER)
    async def start(self, interaction: discord.Interaction, tournament: Number | None = None) -> None:
        await self.answering.command(interaction, self.moderation.start, tournament, private=True)

    @app_commands.command(name="pause", description=N_("Start no new round until resumed"))
    @app_commands.describe(tournament=NUMBER)
    async def pause(self, interaction: discord.Interaction, tournament: Number | None = None) -> None:
        await self.answering.command(interaction, self.moderation.set_status, tournament, "pause", private=False)

    @app_commands.command(name="resume", description=N_("Go on with a paused tournament"))
    @app_commands.describe(tournament=NUMBER)
    async def resume(self, interaction: discord.Interaction, tournament: Number | None = None) -> None:
        await self.answering.command(interaction, self.moderation.set_status, tournament, "resume", private=False)

    @app_commands.command(name="cancel", description=N_("Call a tournament off: unfinished games are aborted"))
    @app_commands.describe(tournament=NUMBER)
    async def cancel(self, interaction: discord.Interaction, tournament: Number | None = None) -> None:
        await self.answering.command(interaction, self.moderation.set_status, tournament, "cancel", private=False)

    @app_commands.command(name="kick", description=N_("Remove a player: a game under way is lost by forfeit"))
    @app_commands.describe(member=N_("Who"), tournament=NUMBER)
    async def kick(
        self, interaction: discord.Interaction, member: discord.User, tournament: Number | None = None
    ) -> None:
        await self.answering.command(interaction, self.moderation.kick, tournament, member, private=True)

    @app_commands.command(name="result", description=N_("Set a player's game result by hand, with a reason"))
    @app_commands.describe(
        member=N_("Whose game"), result=N_("Their result"), reason=N_("Why (kept)"), tournament=NUMBER
    )
    @app_commands.choices(result=RESULT_CHOICES)
    async def result(
        self,
        interaction: discord.Interaction,
        member: discord.User,
        result: str,
        reason: app_commands.Range[str, 1, 200],
        tournament: Number | None = None,
    ) -> None:
        args = (tournament, member, result, reason)
        await self.answering.command(interaction, self.moderation.result, *args, private=True)

    @start.autocomplete("tournament")
    @pause.autocomplete("tournament")
    @resume.autocomplete("tournament")
    @cancel.autocomplete("tournament")
    @kick.autocomplete("tournament")
    @result.autocomplete("tournament")
    async def tournament_numbers(self, interaction: discord.Interaction, current: str) -> Suggestions:
        return await self.moderation.players.suggestions(interaction, current)


class ScheduleCommands(app_commands.Group):
    """``/wari-mod schedule``: recurring tournaments (a sub-group of its own: ``/wari-mod tournament``
    is one already, and Discord nests no deeper)."""

    def __init__(self, answering: Answering, schedules: ScheduleModeration) -> None:
        super().__init__(name="schedule", description=N_("Moderators: recurring tournaments"))
        self.answering = answering
        self.schedules = schedules

    @app_commands.command(name="list", description=N_("This server's recurring tournaments"))
    async def list(self, interaction: discord.Interaction) -> None:
        await self.answering.command(interaction, self.schedules.list, private=True)

    @app_commands.command(name="edit", description=N_("Change a recurring tournament from its next edition on"))
    @app_commands.describe(
        schedule=N_("The schedule's number (`/wari-mod schedule list`)"),
        name=N_("Its name"),
        clock=N_("Every game's clock"),
        rounds=N_("Swiss: how many rounds"),
        duration=N_("Arena: its length in minutes"),
        max_players=N_("At most this many players"),
        repeat=REPEAT,
        editions=EDITIONS,
        until=UNTIL,
        title=TITLE,
    )
    @app_commands.choices(clock=CLOCK_CHOICES, repeat=REPEAT_CHOICES)
    async def edit(
        self,
        interaction: discord.Interaction,
        schedule: Number,
        name: app_commands.Range[str, 1, 60] | None = None,
        clock: str | None = None,
        rounds: app_commands.Range[int, 1, 20] | None = None,
        duration: app_commands.Range[int, 5, 24 * 60] | None = None,
        max_players: app_commands.Range[int, 2, 1000] | None = None,
        repeat: str | None = None,
        editions: app_commands.Range[int, 2, 1000] | None = None,
        until: app_commands.Range[str, 1, 60] | None = None,
        title: app_commands.Range[str, 1, 60] | None = None,
    ) -> None:
        options = {
            "name": name,
            "clock": clock,
            "rounds": rounds,
            "duration": duration,
            "max_players": max_players,
            "repeat": repeat,
            "editions": editions,
            "until": until,
            "title": title,
        }
        await self.answering.command(interaction, self.schedules.edit, schedule, private=True, **options)

    @app_commands.command(name="stop", description=N_("Make no further edition of a recurring tournament"))
    @app_commands.describe(schedule=N_("The schedule's number (`/wari-mod schedule list`)"))
    async def stop(self, interaction: discord.Interaction, schedule: Number) -> None:
        await self.answering.command(interaction, self.schedules.stop, schedule, private=True)
