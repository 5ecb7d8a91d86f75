"""A tournament's standings (kept current after every result), its crosstable and its podium.
Each is drawn from an :class:`~bot.service.tournaments.Event` as read, so it can be redrawn.

They are made to be read on a phone: a line per player, points first, and a tie-break only where
it put a player ahead of the next one level on points, in words ("ahead of Kofi on Buchholz
cut-1 (7 to 6)"); the crosstable no wider than an embed shows on a phone (:data:`~bot.render.PHONE_COLUMNS`),
or a picture. The whole table, every tie-break in columns, is the results file's
(:func:`results_table`)."""

from __future__ import annotations

import io

import discord

from bot.i18n import N_, _, n_
from bot.names import markdown_name, plain_name
from bot.render import PHONE_COLUMNS
from bot.service.tournaments import Event
from bot.tournament import ARENA_TIEBREAKS, SWISS_TIEBREAKS, Lead, Standing, crosstable_text, tiebreak_leads
from bot.tournament.crosstable import Words, number_text

from ..presenter import Message
from ..views import LIVE_COLOUR, OVER_COLOUR

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


def standing_line(
    standing: Standing, lead: Lead | None, names: tuple[str, ...], playing: str | None, place: str | None = None
) -> str:
    """``1\\. Ama · **3½** pts``, then the tie-break that put the player ahead of the next one level
    on points (``lead``), if any, and the game they are playing, if any. ``place``: what comes
    before the name instead of the rank (a medal)."""
    # "2\." : a line that starts "2. " is a numbered list to Discord, which renumbers shared ranks 2, 3.
    place = f"{standing.rank}\\." if place is None else place
    parts = [f"{place} {markdown_name(standing.name)}", points_text(standing.points)]
    if lead is not None:
        parts.append(lead_text(lead, names))
    return " · ".join([*parts, playing] if playing else parts)


def points_text(points: float) -> str:
    """``**3½** pts``: halves as the crosstable writes them; a whole number of points takes the
    language's singular or plural, a fraction the plural."""
    count = int(points) if points == int(points) else 2
    bold = "**" + number_text(points) + "**"
    return n_("{points} pt", "{points} pts", count, points=bold)


def lead_text(lead: Lead, names: tuple[str, ...]) -> str:
    """``ahead of Kofi on Buchholz cut-1 (7 to 6)``."""
    return _(
        "ahead of {name} on {tiebreak} ({ahead} to {behind})",
        name=markdown_name(lead.behind.name),
        tiebreak=_(names[lead.tiebreak]),
        ahead=number_text(lead.ahead_value),
        behind=number_text(lead.behind_value),
    )


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
    lines = []
    for standing in standings[:STANDINGS_ROWS]:
        pairing = event.current_pairing(standing.user_id)
        playing = links.get(pairing.game_id or 0) if pairing else None
        lines.append(
            standing_line(standing, leads.get(standing.user_id), names, playing and _("playing {link}", link=playing))
        )
    if len(standings) > STANDINGS_ROWS:
        lines.append(_("…and {count} more: `/wari tournament results`", count=len(standings) - STANDINGS_ROWS))
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
    crosstable_whole = crosstable_text(
        event.model_entrants,
        event.model_pairings,
        event.standings(),
        tiebreak_names=tiebreak_names(event),
        words=crosstable_words(),
    )
    return f"{plain_name(event.row.name)}\n{standings_status(event)}\n\n{crosstable_whole}\n"


def podium_message(event: Event) -> Message:
    """The end: medals for the first three (shared ranks share medals), points, and the tie-break
    that decided a medal where one did."""
    row = event.row
    names = tiebreak_names(event)
    lines = [_("🏁 **{name}** is over.", name=markdown_name(row.name))]
    standings = event.standings()
    leads = tiebreak_leads(standings)
    for standing in standings:
        if standing.rank > len(MEDALS):
            break
        lead = leads.get(standing.user_id)
        lines.append(standing_line(standing, lead, names, None, place=MEDALS[standing.rank - 1]))
    champions = [markdown_name(s.name) for s in standings if s.rank == 1]
    if event.title and champions:
        lines.append(
            _("🛡️ The **{title}** passes to {players}.", title=markdown_name(event.title), players=", ".join(champions))
        )
    lines.append(_("Every game is in the players' `/wari history`; `/wari tournament results` has them all."))
    # The medallists are named, not pinged; only the moderator who made an event that ended early
    # is called, once (Discord refuses a message that lists a user twice among those it may ping).
    called = []
    if event.unpaired_round is not None:
        lines.insert(1, f"{ended_early(event)} <@{row.created_by}>")
        called.append(discord.Object(row.created_by))
    mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=called)
    return Message(content="\n".join(lines)[:2000], allowed_mentions=mentions)


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
