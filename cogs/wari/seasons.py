"""Seasons (:mod:`bot.seasons`): a server's season leaderboard (``/wari leaderboard scope: This
season``), the post of each season's podium once it ends (a part of the sweep), and
``/wari-mod season settings`` (its length, the channel of its podiums)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.utils import format_dt
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.engine.notation import parse_rules_code
from bot.i18n import N_, _, n_
from bot.seasons import MEDALS
from bot.service import Refusal
from bot.service.seasons import ClosedSeason, SeasonService
from bot.storage import SeasonStanding, shown_name

from .answering import Answering
from .languages import Languages
from .permissions import server_here
from .presenter import Message, Presenter

log = logging.getLogger("cogs.wari")

SEASON_COLOUR = discord.Colour.gold()
LENGTH_CHOICES = [
    app_commands.Choice(name=N_("weekly"), value="weekly"),
    app_commands.Choice(name=N_("monthly"), value="monthly"),
    app_commands.Choice(name=N_("quarterly"), value="quarterly"),
]
LENGTH_WORDS = {str(choice.value): choice.name for choice in LENGTH_CHOICES}
MANAGE_SERVER = N_("Only members with the Manage Server permission can change this server's settings.")


def variant_label(variant: str) -> str:
    return parse_rules_code(variant).label.capitalize()


def season_line(row: SeasonStanding) -> str:
    """A player in a season: ``alice +86 · 3 games``, in the language of the moment."""
    return n_(
        "{name} {points} · {games} game",
        "{name} {points} · {games} games",
        row.games,
        name=shown_name(row.user_id, row.name),
        points=row.points,
        games=row.games,
    )


def podium_message(closed: ClosedSeason) -> Message:
    """The post of a season's end: each rule set's podium, medal, name and points gained."""
    season = closed.season
    parts = [
        _(
            "From {start} to {end} · rating points gained in this server's rated games",
            start=format_dt(season.starts_at, "D"),
            end=format_dt(season.ends_at, "D"),
        )
    ]
    for variant, podium in closed.podiums.items():
        lines = [f"{medal} {season_line(row)}" for medal, row in zip(MEDALS, podium, strict=False)]
        parts.append(f"**{variant_label(variant)}**\n" + "\n".join(lines))
    embed = discord.Embed(title=_("🏁 The season is over"), description="\n\n".join(parts), colour=SEASON_COLOUR)
    embed.set_footer(text=_("A new season has begun: /wari leaderboard scope: This season"))
    return Message(embeds=[embed])


class Seasons:
    """A server's season leaderboard, the podium posts, and the moderators' setting."""

    def __init__(self, service: SeasonService, presenter: Presenter, languages: Languages) -> None:
        self.service = service
        self.presenter = presenter
        self.languages = languages

    async def board(
        self, interaction: discord.Interaction, variant: str, asker: int, page: int, size: int
    ) -> tuple[discord.Embed, bool]:
        """A page of the server's season under way (from :meth:`cogs.wari.standings.Standings.ranks_page`),
        and whether a next page exists."""
        guild_id = server_here(interaction)
        board = await self.service.board_page(guild_id, variant, moment=now(), asker=asker, page=page, size=size)
        lines = [f"**{row.place}.** {season_line(row)}" for row in board.rows]
        heading = _(
            "From {start} to {end} · rating points gained in this server's rated games",
            start=format_dt(board.starts_at, "D"),
            end=format_dt(board.ends_at, "D"),
        )
        embed = discord.Embed(
            title=_("🏆 {variant} leaderboard · this season", variant=variant_label(variant)),
            description=heading + "\n\n" + ("\n".join(lines) or _("Nobody has played a rated game here this season.")),
            colour=SEASON_COLOUR,
        )
        mine = board.mine
        if mine is None:
            own = _("Not in this season yet") if interaction.user.id == asker else _("The asker is not in it yet")
        elif interaction.user.id == asker:
            own = _("Your place: {place} of {size} ({points})", place=mine.place, size=board.size, points=mine.points)
        else:
            own = _(
                "The asker's place: {place} of {size} ({points})", place=mine.place, size=board.size, points=mine.points
            )
        embed.set_footer(text=_("{own} · page {page}", own=own, page=page + 1))
        return embed, board.more

    async def close_due(self) -> None:
        """The sweep's part: close each season that ended, once, and post its podium."""
        moment = now()
        for season in await self.service.due(moment):
            try:
                closed = await self.service.close(season, moment)
                if closed is not None:
                    await self.post(closed)
            except Exception:
                log.exception("could not close the season of server %s; will try again", season.guild_id)

    async def post(self, closed: ClosedSeason) -> None:
        """Post a closed season's podium (once: the close was claimed; a refused post is logged, not retried)."""
        if not closed.podiums or closed.channel_id is None:
            log.info("the season of server %s closed with no channel to post its podium in", closed.season.guild_id)
            return
        async with self.languages.public(closed.season.guild_id):
            message = podium_message(closed)
        posted = await self.presenter.post(closed.channel_id, message)
        if posted is not None:
            await self.service.note_post(closed.season, posted.id)

    async def setting(
        self, interaction: discord.Interaction, length: str | None, channel: discord.abc.GuildChannel | None, here: bool
    ) -> None:
        """``/wari-mod season settings``: the seasons' length and where their podiums are posted."""
        guild_id = server_here(interaction)
        if length is None and channel is None and not here:
            current = await self.service.settings(guild_id)
        elif not interaction.permissions.manage_guild:
            raise Refusal(MANAGE_SERVER)
        else:
            chosen = 0 if here else (channel.id if channel is not None else None)
            current = await self.service.change_settings(guild_id, length=length, channel_id=chosen)
        await self.presenter.tell(interaction, self.setting_words(*current))

    @staticmethod
    def setting_words(length: str, channel_id: int | None) -> str:
        where = f"<#{channel_id}>" if channel_id is not None else _("the channel of the season's latest rated game")
        return _(
            "🏅 Seasons here are **{length}** (a change applies from the next season). "
            "Each season's podium is posted in {where}.",
            length=_(LENGTH_WORDS[length]),
            where=where,
        )


class SeasonModerationCommands(app_commands.Group):
    """``/wari-mod season``."""

    def __init__(self, answering: Answering, seasons: Seasons) -> None:
        super().__init__(name="season", description=N_("Moderators: this server's seasons"))
        self.answering = answering
        self.seasons = seasons

    @app_commands.command(
        name="settings", description=N_("How long seasons last and where their podiums go (Manage Server)")
    )
    @app_commands.describe(
        length=N_("Weekly, monthly (default) or quarterly; from the next season"),
        channel=N_("Where each season's podium is posted"),
        latest_game=N_("Post podiums where the season's latest rated game was played (the default)"),
    )
    @app_commands.choices(length=LENGTH_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction,
        length: str | None = None,
        channel: discord.TextChannel | None = None,
        latest_game: bool = False,
    ) -> None:
        args = (length, channel, latest_game)
        await self.answering.command(interaction, self.seasons.setting, *args, private=True)
