"""Seasons (:mod:`bot.seasons`): a server's season leaderboard (``/wari leaderboard scope: This
season``), a player's season recap (``/wari recap``: a picture, its facts in words too), the post
of each season's podium once it ends (a part of the sweep), and ``/wari-mod season settings``
(its length, the channel of its podiums)."""

from __future__ import annotations

import asyncio
import io
import logging
from datetime import timedelta

import discord
from babel.dates import format_date
from discord import app_commands
from discord.utils import format_dt
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.engine.notation import parse_rules_code
from bot.i18n import LOCALES, N_, _, current_language, labelled, n_
from bot.names import FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE, markdown_name, plain_name
from bot.pictures.recap import RecapCard, Tile, recap_png
from bot.seasons import MEDALS
from bot.service import Refusal
from bot.service.seasons import ClosedSeason, Recap, SeasonService
from bot.storage import SeasonRow, SeasonStanding, shown_name

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
#: Which season ``/wari recap`` shows: the one under way (the default) or the latest that ended.
SEASON_CHOICES = [
    app_commands.Choice(name=N_("This season"), value="current"),
    app_commands.Choice(name=N_("Last season"), value="last"),
]
#: A recap of a player with no rated game in the season (in the rule set asked, or any).
NO_GAME_NOW = N_("{name} has played no rated game ({rules}) in this server this season.")
NO_GAME_LAST = N_("{name} played no rated game ({rules}) in this server's last season.")
#: A figure there is none of (no win, no analysed game, no puzzle rating, no badge).
NONE = "—"
#: The longest alt text Discord keeps for an attachment.
DESCRIPTION_MOST = 1024


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


def season_days(season: SeasonRow) -> str:
    """A season's first and last days (UTC), as the reader's language writes dates: ``Jan 1,
    2026 – Jan 31, 2026`` (plain text: the same on the picture, in its alt text, and for every
    reader's time zone)."""
    last_day = (season.ends_at - timedelta(microseconds=1)).date()  # it ends at the next one's first instant
    days = (season.starts_at.date(), last_day)
    return " – ".join(format_date(day, "medium", locale=LOCALES[current_language()]) for day in days)


def badge_lines(recap: Recap) -> tuple[str, ...]:
    """The badges earned in the season, a short line each (words only: the picture's font has no emoji)."""
    badges = recap.badges
    lines = [_("Podium: place {place}", place=place) for place in badges.podiums]
    if badges.tournament_wins:
        wins = badges.tournament_wins
        lines.append(n_("{count} tournament won", "{count} tournaments won", wins, count=wins))
    if badges.beat_the_expert:
        lines.append(_("Beat the Expert"))
    return tuple(lines)


def recap_tiles(recap: Recap, best_win_name: str) -> tuple[Tile, ...]:
    """The figures of a player's season, each with its label and a line or two about it."""
    standing, win, puzzles = recap.standing, recap.best_win, recap.puzzles
    record = _(
        "{wins} W · {draws} D · {losses} L",
        wins=recap.count("win"),
        draws=recap.count("draw"),
        losses=recap.count("loss"),
    )
    rating = f"{round(recap.rating_before)} → {round(recap.rating_after)}"
    place = _("place {place} of {size}", place=standing.place, size=recap.players)
    if win is not None:
        best = Tile(
            _("Best win"), f"{round(win.opponent_rating)}", (best_win_name, _("game #{number}", number=win.game_id))
        )
    else:
        best = Tile(_("Best win"), NONE)
    if recap.accuracy is not None:
        analysed = n_("over {count} analysed game", "over {count} analysed games", recap.analysed, count=recap.analysed)
        accuracy = Tile(_("Accuracy"), f"{round(recap.accuracy)}", (analysed,))
    else:
        accuracy = Tile(_("Accuracy"), NONE, (_("No game analysed"),))
    solved = n_("{count} solved", "{count} solved", puzzles.solved, count=puzzles.solved)
    shown_rating = NONE if puzzles.rating is None else f"{round(puzzles.rating)}"
    badges, earned = badge_lines(recap), recap.badges
    count = len(earned.podiums) + earned.tournament_wins + earned.beat_the_expert
    return (
        Tile(_("Rated games"), f"{len(recap.games)}", (record,)),
        Tile(_("Rating points"), standing.points, (rating, place)),
        best,
        accuracy,
        Tile(_("Puzzle rating"), shown_rating, (solved, _("best streak {count}", count=puzzles.best_streak))),
        Tile(_("Badges"), f"{count}" if count else NONE, badges),
    )


def picture_name(name: str) -> str:
    """A name on a picture: on one line, without direction controls (Pillow draws no isolate)."""
    return plain_name(name).strip(FIRST_STRONG_ISOLATE + POP_DIRECTIONAL_ISOLATE)


def recap_card(recap: Recap, name: str, server: str | None) -> RecapCard:
    """The card of a player's season: their name, the season's days and rule set, the server and
    whether the season is over, and its figures."""
    status = _("Season over") if recap.over else _("Season under way")
    opponent = picture_name(recap.best_win.opponent_name or "?") if recap.best_win else ""
    return RecapCard(
        picture_name(name),
        (
            f"{season_days(recap.season)} · {variant_label(recap.variant)}",
            " · ".join(filter(None, (server and picture_name(server), status))),
        ),
        recap_tiles(recap, opponent),
    )


def recap_words(card: RecapCard) -> str:
    """Everything the card shows, as text (the picture's alt text: a screen reader loses nothing)."""
    parts = [_("{name}'s season recap", name=card.name), *card.lines]
    parts += [labelled(tile.label, ", ".join((tile.value, *tile.notes))) for tile in card.tiles]
    return ". ".join(parts)[:DESCRIPTION_MOST]


def recap_line(recap: Recap, name: str) -> str:
    """The message's short line: whose season, when, and its main figures."""
    games = len(recap.games)
    return _(
        "📅 **{name}** · {rules} · {days}: {games} · {points} points, place {place} of {size}",
        name=markdown_name(name),
        rules=variant_label(recap.variant),
        days=season_days(recap.season),
        games=n_("{count} rated game", "{count} rated games", games, count=games),
        points=recap.standing.points,
        place=recap.standing.place,
        size=recap.players,
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

    async def recap(
        self,
        interaction: discord.Interaction,
        member: discord.User | None,
        season: str,
        variant: str | None,
        public: bool,
    ) -> None:
        """``/wari recap``: a player's season here as a picture (drawn in a thread: it takes a
        moment of the CPU), with its facts in words; no rated game in it, a private answer.

        Which season it is comes first, in two short reads (a refusal is private); then Discord
        is told to wait ("thinking…", where the answer will be), as the season's games, analyses
        and tournaments take longer to read than the 3 seconds it waits for a first answer."""
        guild_id = server_here(interaction)
        who = member or interaction.user
        last, moment = season == "last", now()
        scope = await self.service.recap_scope(guild_id, who.id, moment=moment, last=last, variant=variant)
        recap = None
        if scope is not None:
            await self.presenter.acknowledge(interaction, thinking=True, private=not public)
            recap = await self.service.recap(scope, who.id, moment=moment)
        if recap is None:
            rules = variant_label(variant) if variant else _("any rule set")
            raise Refusal(NO_GAME_LAST if last else NO_GAME_NOW, name=markdown_name(who.display_name), rules=rules)
        card = recap_card(recap, who.display_name, interaction.guild.name if interaction.guild else None)
        picture = await asyncio.to_thread(recap_png, card)
        file = discord.File(io.BytesIO(picture), filename="recap.png", description=recap_words(card))
        message = Message(content=recap_line(recap, who.display_name), files=[file])
        await self.presenter.answer(interaction, message, private=not public)

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
