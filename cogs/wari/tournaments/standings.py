"""A tournament's standings (kept current after every result), its crosstable and its podium.
Each is drawn from an :class:`~bot.service.tournaments.Event` as read, so it can be redrawn.

They are made to be read on a phone: a line per player, points first, and a tie-break only where
it put a player ahead of the next one level on points, in words ("ahead of Kofi on Buchholz
cut-1 (7 to 6)"); the crosstable no wider than an embed shows on a phone (:data:`~bot.render.PHONE_COLUMNS`),
or a picture. The whole table, every tie-break in columns, is the results file's
(:func:`results_table`). A team battle's teams come first, each with its score and the players
whose points count (:func:`team_lines`), then the players, each with their team."""

from __future__ import annotations

import io

import discord

from bot.i18n import N_, _, n_
from bot.names import markdown_name, plain_name
from bot.render import PHONE_COLUMNS
from bot.service.tournaments import Event
from bot.tournament import (
    ARENA_TIEBREAKS,
    SWISS_TIEBREAKS,
    Lead,
    Standing,
    TeamStanding,
    crosstable_text,
    tiebreak_leads,
)
from bot.tournament.crosstable import Words, number_text

from ..presenter import Message
from ..views import LIVE_COLOUR, OVER_COLOUR
from .views import fitted, team_name, teams_heading

MEDALS = ("🥇", "🥈", "🥉")
#: The tie-breaks' names (:mod:`bot.tournament`'s), marked for translation here.
TIEBREAK_NAMES = (
    N_("Buchholz cut-1"),
    N_("Sonneborn-Berger"),
    N_("Wins"),
    N_("Direct encounter"),
    N_("Performance"),
)
#: The crosstable's words (:mod:`bot.tournament.crosstable`'s, in English), marked for translation here.
CROSSTABLE_NAME, CROSSTABLE_POINTS = N_("Name"), N_("Pts")
CROSSTABLE_KEY = (
    N_("+ won"),
    N_("= drawn"),
    N_("- lost"),
    N_("> ~ < by forfeit"),
    N_("B bye"),
    N_(". not paired"),
    N_("* being played"),
)
CROSSTABLE_ARENA_KEY = N_("each game's arena points, in order")
#: How many standings rows a message shows (the crosstable and `/wari tournament results` have all).
STANDINGS_ROWS = 20
CROSSTABLE_FILE = "crosstable.png"
#: The longest text crosstable an embed shows (longer ones are in the results file, and the picture).
CROSSTABLE_TEXT = 2500
EMBED_LIMIT = 4000
#: A message's length limit (the podium's).
MESSAGE_LIMIT = 2000
#: Room kept in the standings embed, after its players, for the crosstable's notice and the thread's link.
STANDINGS_END = 200
#: How many of a team's counting players a message names (the others are counted: ``+2``); the
#: results file names them all.
TEAM_NAMED = 3


def standing_line(
    standing: Standing,
    lead: Lead | None,
    names: tuple[str, ...],
    playing: str | None,
    place: str | None = None,
    team: str | None = None,
) -> str:
    """``1\\. Ama · **3½** pts``, then the tie-break that put the player ahead of the next one level
    on points (``lead``), if any, and the game they are playing, if any. ``place``: what comes
    before the name instead of the rank (a medal); ``team``: a battle player's team, after the name."""
    # "2\." : a line that starts "2. " is a numbered list to Discord, which renumbers shared ranks 2, 3.
    place = f"{standing.rank}\\." if place is None else place
    parts = [f"{place} {markdown_name(standing.name)}", *([team] if team else []), points_text(standing.points)]
    if lead is not None:
        parts.append(lead_text(lead, names))
    return " · ".join([*parts, playing] if playing else parts)


def points_text(points: float, *, bold: bool = True) -> str:
    """``**3½** pts``: halves as the crosstable writes them; a whole number of points takes the
    language's singular or plural, a fraction the plural (``bold``: not in a plain text file)."""
    count = int(points) if points == int(points) else 2
    number = number_text(points)
    return n_("{points} pt", "{points} pts", count, points=f"**{number}**" if bold else number)


def lead_text(lead: Lead, names: tuple[str, ...]) -> str:
    """``ahead of Kofi on Buchholz cut-1 (7 to 6)``."""
    return _(
        "ahead of {name} on {tiebreak} ({ahead} to {behind})",
        name=markdown_name(lead.behind.name),
        tiebreak=_(names[lead.tiebreak]),
        ahead=number_text(lead.ahead_value),
        behind=number_text(lead.behind_value),
    )


def team_line(team: TeamStanding, place: str | None = None, *, plain: bool = False) -> str:
    """``1\\. Lions · **16** pts · Ama 10, Esi 6, Kofi 5 +2``: a team's place (or a medal), its
    score, and the players whose points count with their points, the first :data:`TEAM_NAMED`
    of them named (so six teams of many fit a message). ``plain``: for the results file, plain
    text naming them all (``1. Lions · 16 pts · Ama 10, Esi 6, Kofi 5, Yaw 3, Abena 2``)."""
    name = plain_name if plain else markdown_name
    place = (f"{team.rank}." if plain else f"{team.rank}\\.") if place is None else place
    named = team.leaders if plain else team.leaders[:TEAM_NAMED]
    counted = ", ".join(f"{name(s.name)} {number_text(s.points)}" for s in named)
    if len(team.leaders) > len(named):
        counted += f" +{len(team.leaders) - len(named)}"
    parts = [f"{place} {name(team.name)}", points_text(team.score, bold=not plain)]
    return " · ".join([*parts, counted] if counted else parts)


def team_lines(event: Event, standings: list[Standing], medals: bool = False) -> list[str]:
    """A battle's teams, best first, under a heading saying how many players count (none outside
    a battle); ``medals``: the first three places as medals (the podium)."""
    if not event.battle:
        return []
    teams = event.team_standings(standings)
    return [
        teams_heading(event),
        *(team_line(t, MEDALS[t.rank - 1] if medals and t.rank <= len(MEDALS) else None) for t in teams),
        _("**Players**"),
    ]


def tiebreak_names(event: Event) -> tuple[str, ...]:
    return ARENA_TIEBREAKS if event.row.format == "arena" else SWISS_TIEBREAKS


def standings_message(event: Event, links: dict[int, str], picture: bytes | None = None) -> Message:
    """The standings, kept current after every result: points, the tie-break that put a player
    ahead of the next one level on points, each player's game under way; and the crosstable, for
    the rounds: as text no wider than a board, or as ``picture`` (its PNG) where the server's
    boards are pictures, or, too long for the message, a word that the results file has it."""
    row = event.row
    names = tiebreak_names(event)
    standings = event.standings()
    leads = tiebreak_leads(standings)
    rows = []
    for standing in standings[:STANDINGS_ROWS]:
        pairing = event.current_pairing(standing.user_id)
        playing = links.get(pairing.game_id or 0) if pairing else None
        lead, team = leads.get(standing.user_id), team_name(event, standing.user_id)
        rows.append(standing_line(standing, lead, names, playing and _("playing {link}", link=playing), team=team))
    text = fitted(team_lines(event, standings), rows, EMBED_LIMIT - STANDINGS_END, more_in_file, total=len(standings))
    lines = text.split("\n") if text else []
    if row.format != "arena" and event.pairings and picture is None:
        table = crosstable(event, standings)
        if len(table) <= CROSSTABLE_TEXT and len("\n".join(lines)) + len(table) < EMBED_LIMIT - 16:
            lines.append(f"```\n{table}\n```")  # whole, or not at all: a cut code block breaks
        else:
            lines.append(_("The crosstable is too long for this message: `/wari tournament results` has it."))
    if row.thread_id is not None and row.status == "running":  # a channel's link: it pings nobody
        lines.append(_("🧵 The games are played in <#{thread}>.", thread=row.thread_id))
    embed = discord.Embed(
        title=_("📊 {name} · standings", name=markdown_name(row.name)),
        description="\n".join(lines)[:4000] or _("No results yet."),
        colour=OVER_COLOUR if row.over else LIVE_COLOUR,
    )
    embed.set_footer(text=standings_status(event))
    if picture is None:
        return Message(content=None, embeds=[embed], view=None)
    embed.set_image(url=f"attachment://{CROSSTABLE_FILE}")
    return Message(content=None, embeds=[embed], view=None, files=[discord.File(io.BytesIO(picture), CROSSTABLE_FILE)])


def more_in_file(count: int) -> str:
    """The line after the players a message shows, for those it does not."""
    return _("…and {count} more: `/wari tournament results`", count=count)


def standings_status(event: Event) -> str:
    """Where the event stands: ``Round 2 of 4``, ``Final standings``…"""
    row = event.row
    if row.status == "running":
        return _("Round {number} of {total}", number=row.round, total=row.rounds) if row.rounds else _("Running")
    return {
        "open": _("Not started"),
        "paused": _("Paused"),
        "finished": _("Final standings"),
        "cancelled": _("Cancelled"),
    }[row.status]


def crosstable(event: Event, standings: list[Standing] | None = None) -> str:
    """The event's crosstable as a phone shows it (as text, or as the picture of this text): no
    wider than a board, without tie-break columns (the standings' lines say which tie-break put
    whom ahead). ``standings``: as computed already, else computed here."""
    standings = event.standings() if standings is None else standings
    return crosstable_text(
        event.model_entrants,
        event.model_pairings,
        standings,
        tiebreak_names=tiebreak_names(event),
        width=PHONE_COLUMNS,
        tiebreak_columns=False,
        words=crosstable_words(),
    )


def crosstable_words() -> Words:
    """The crosstable's words in the language of the moment."""
    return Words(
        name=_(CROSSTABLE_NAME),
        points=_(CROSSTABLE_POINTS),
        key=tuple(_(item) for item in CROSSTABLE_KEY),
        arena_key=_(CROSSTABLE_ARENA_KEY),
        tiebreaks={name: _(name) for name in TIEBREAK_NAMES},
    )


def results_table(event: Event) -> str:
    """The results file's table: the event's name and state, then the crosstable with every
    tie-break in columns, 40 columns wide (what a phone's file viewer shows without scrolling)."""
    standings = event.standings()
    crosstable_whole = crosstable_text(
        event.model_entrants,
        event.model_pairings,
        standings,
        tiebreak_names=tiebreak_names(event),
        words=crosstable_words(),
    )
    teams = "".join(f"{team_line(team, plain=True)}\n" for team in event.team_standings(standings))
    teams += "\n" if teams else ""
    return f"{plain_name(event.row.name)}\n{standings_status(event)}\n\n{teams}{crosstable_whole}\n"


def podium_message(event: Event) -> Message:
    """The end: medals for the first three (shared ranks share medals), points, and the tie-break
    that decided a medal where one did."""
    row = event.row
    names = tiebreak_names(event)
    head = [_("🏁 **{name}** is over.", name=markdown_name(row.name))]
    standings = event.standings()
    leads = tiebreak_leads(standings)
    rows = team_lines(event, standings, medals=True)  # a battle: the winning team first
    for standing in standings:
        if standing.rank > len(MEDALS):
            break
        lead, team = leads.get(standing.user_id), team_name(event, standing.user_id)
        rows.append(standing_line(standing, lead, names, None, place=MEDALS[standing.rank - 1], team=team))
    tail = [*shield_lines(event, standings)]
    tail.append(_("Every game is in the players' `/wari history`; `/wari tournament results` has them all."))
    # The medallists are named, not pinged; only the moderator who made an event that ended early
    # is called, once (Discord refuses a message that lists a user twice among those it may ping).
    called = []
    if event.unpaired_round is not None:
        head.append(f"{ended_early(event)} <@{row.created_by}>")
        called.append(discord.Object(row.created_by))
    mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=called)
    text = fitted(head, rows, MESSAGE_LIMIT, more_in_file, tail=tail)  # whole lines: the shield's is kept
    return Message(content=text[:MESSAGE_LIMIT], allowed_mentions=mentions)


def shield_lines(event: Event, standings: list[Standing]) -> list[str]:
    """Who takes a recurring event's title (:meth:`~bot.service.event.Event.champions`): in a
    battle, the winning team's best player, and the podium says of which team."""
    champions = ", ".join(markdown_name(s.name) for s in event.champions(standings))
    if not event.title or not champions:
        return []
    title = markdown_name(event.title)
    if not event.battle:
        return [_("🛡️ The **{title}** passes to {players}.", title=title, players=champions)]
    winning = [t for t in event.team_standings(standings) if t.rank == 1]
    teams = ", ".join(f"**{markdown_name(t.name)}**" for t in winning)
    words = n_(
        "🛡️ The **{title}** passes to {players}, of the winning team {teams}.",
        "🛡️ The **{title}** passes to {players}, of the winning teams {teams}.",
        len(winning),
        title=title,
        players=champions,
        teams=teams,
    )
    return [words]


def ended_early(event: Event) -> str:
    """Why a Swiss ended before the rounds it announced, for its podium."""
    row = event.row
    return _(
        "Round {number} could not be paired: every pairing left would make two players meet again "
        "(or give the bye to someone who has had one or won by forfeit), so it ended after round {played} "
        "of {rounds}.",
        number=event.unpaired_round,
        played=row.round,
        rounds=row.rounds,
    )
