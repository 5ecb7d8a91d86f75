"""A tournament's standings (kept current after every result), its crosstable and its podium.
Each is drawn from an :class:`~bot.service.tournaments.Event` as read, so it can be redrawn."""

from __future__ import annotations

import io

import discord

from bot.i18n import N_, _, labelled
from bot.names import markdown_name
from bot.service.tournaments import Event
from bot.tournament import ARENA_TIEBREAKS, SWISS_TIEBREAKS, Standing, crosstable_text

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
#: How many standings rows a message shows (the crosstable and `/wari tournament results` have all).
STANDINGS_ROWS = 20
CROSSTABLE_FILE = "crosstable.png"
#: The longest text crosstable an embed shows (longer ones are in the results file and the picture).
CROSSTABLE_TEXT = 2500
EMBED_LIMIT = 4000


def standing_line(standing: Standing, names: tuple[str, ...], playing: str | None) -> str:
    breaks = ", ".join(
        labelled(_(name), _number(value)) for name, value in zip(names, standing.tiebreaks, strict=False)
    )
    line = f"{standing.rank}. {markdown_name(standing.name)} · **{_number(standing.points)}** ({breaks})"
    return f"{line} · {playing}" if playing else line


def _number(value: float) -> str:
    return f"{value:g}"


def standings_message(event: Event, links: dict[int, str], picture: bytes | None = None) -> Message:
    """The standings, kept current after every result: points, tie-breaks, each player's game
    under way; and the crosstable, for the rounds: as text, or as ``picture`` (its PNG) where
    the server's boards are pictures."""
    row = event.row
    names = ARENA_TIEBREAKS if row.format == "arena" else SWISS_TIEBREAKS
    standings = event.standings()
    lines = []
    for standing in standings[:STANDINGS_ROWS]:
        pairing = event.current_pairing(standing.user_id)
        playing = links.get(pairing.game_id or 0) if pairing else None
        lines.append(standing_line(standing, names, playing and _("playing {link}", link=playing)))
    if len(standings) > STANDINGS_ROWS:
        lines.append(_("…and {count} more: `/wari tournament results`", count=len(standings) - STANDINGS_ROWS))
    if row.format != "arena" and event.pairings and picture is None:
        table = crosstable(event, standings)
        if len(table) <= CROSSTABLE_TEXT and len("\n".join(lines)) + len(table) < EMBED_LIMIT - 16:
            lines.append(f"```\n{table}\n```")  # whole, or not at all: a cut code block breaks
    if row.status == "running":
        status = _("Round {number} of {total}", number=row.round, total=row.rounds) if row.rounds else _("Running")
    else:
        status = {
            "open": _("Not started"),
            "paused": _("Paused"),
            "finished": _("Final standings"),
            "cancelled": _("Cancelled"),
        }[row.status]
    embed = discord.Embed(
        title=_("📊 {name} · standings", name=markdown_name(row.name)),
        description="\n".join(lines)[:4000] or _("No results yet."),
        colour=OVER_COLOUR if row.over else LIVE_COLOUR,
    )
    embed.set_footer(text=status)
    if picture is None:
        return Message(content=None, embeds=[embed], view=None)
    embed.set_image(url=f"attachment://{CROSSTABLE_FILE}")
    return Message(content=None, embeds=[embed], view=None, files=[discord.File(io.BytesIO(picture), CROSSTABLE_FILE)])


def crosstable(event: Event, standings: list[Standing] | None = None) -> str:
    """The event's crosstable, as text (``standings``: as computed already, else computed here)."""
    standings = event.standings() if standings is None else standings
    names = ARENA_TIEBREAKS if event.row.format == "arena" else SWISS_TIEBREAKS
    return crosstable_text(event.model_entrants, event.model_pairings, standings, tiebreak_names=names)


def podium_message(event: Event) -> Message:
    """The end: medals for the first three (shared ranks share medals), points and tie-breaks."""
    row = event.row
    names = ARENA_TIEBREAKS if row.format == "arena" else SWISS_TIEBREAKS
    lines = [_("🏁 **{name}** is over.", name=markdown_name(row.name))]
    standings = event.standings()
    for standing in standings:
        if standing.rank > len(MEDALS):
            break
        lines.append(f"{MEDALS[standing.rank - 1]} {standing_line(standing, names, None)}")
    lines.append(_("Every game is in the players' `/wari history`; `/wari tournament results` has them all."))
    players = [discord.Object(s.user_id) for s in standings[: len(MEDALS)]]
    if event.unpaired_round is not None:  # the moderator who made it learns why it ended early
        lines.insert(1, f"{ended_early(event)} <@{row.created_by}>")
        players.append(discord.Object(row.created_by))
    mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=players)
    return Message(content="\n".join(lines)[:2000], allowed_mentions=mentions)


def ended_early(event: Event) -> str:
    """Why a Swiss ended before the rounds it announced, for its podium."""
    row = event.row
    return _(
        "Round {number} could not be paired: every pairing left would make two players meet again "
        "(or give someone a second bye), so it ended after round {played} of {rounds}.",
        number=event.unpaired_round,
        played=row.round,
        rounds=row.rounds,
    )
