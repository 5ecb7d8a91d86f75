"""How a tournament shows itself: its sign-up message with Join and Leave, a round's pairings,
its standings with a crosstable, its podium, and the list of a server's events. Each message is
drawn from an :class:`~bot.service.tournaments.Event` as read, so any of them can be redrawn."""

from __future__ import annotations

import io

import discord

from bot.clock import Clock
from bot.engine.notation import parse_rules_code
from bot.i18n import N_, _, labelled
from bot.names import markdown_name
from bot.service.tournaments import Event
from bot.storage import PairingRow, TournamentRow
from bot.tournament import ARENA_TIEBREAKS, SWISS_TIEBREAKS, Standing, crosstable_text

from ..buttons import PersistentButton, read_number
from ..presenter import Message
from ..views import CHALLENGE_COLOUR, LIVE_COLOUR, OVER_COLOUR

FORMAT_NAMES = {"swiss": N_("Swiss"), "round-robin": N_("round-robin"), "arena": N_("arena")}
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
#: How many players the sign-up message lists (an embed holds 4,096 characters).
SIGNUP_ROWS = 60
#: The longest text crosstable an embed shows (longer ones are in the results file and the picture).
CROSSTABLE_TEXT = 2500
EMBED_LIMIT = 4000


class TournamentButton(PersistentButton, template=r"wari:tour:(?P<id>[0-9]+):(?P<action>join|leave)"):
    """Join or Leave on a tournament's sign-up message."""

    KIND, BELONGS = "tournament", ("tournament", "id")
    FIELDS = {"id": read_number, "action": str}

    LABELS = {"join": N_("Join"), "leave": N_("Leave")}
    STYLES = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary}

    def __init__(self, tournament_id: int, action: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=_(self.LABELS[action]), style=self.STYLES[action], custom_id=f"wari:tour:{tournament_id}:{action}"
            ),
            tournament_id,
            action,
        )


def describe(row: TournamentRow) -> str:
    """The event in words: format, rule set, clock, rounds or length, rated or not."""
    parts = [_(FORMAT_NAMES[row.format]), parse_rules_code(row.variant).label, Clock.parse(row.clock).describe()]
    if row.format == "swiss":
        parts.append(_("{count} rounds", count=row.rounds))
    elif row.format == "round-robin":
        parts.append(_("double round-robin") if row.cycles == 2 else _("every player meets every other once"))
    else:
        parts.append(_("{minutes} minutes", minutes=row.duration))
    parts.append(_("rated") if row.rated else _("unrated"))
    return " · ".join(parts)


def title(row: TournamentRow) -> str:
    return _("🏆 {name} · tournament #{number}", name=markdown_name(row.name), number=row.id)


def signup_message(event: Event) -> Message:
    """The sign-up message: the event, its start, its players with their ratings, Join/Leave."""
    row = event.row
    lines = [describe(row)]
    if row.status == "open":
        lines.append(_("Starts {when}.", when=discord.utils.format_dt(row.starts_at, "R")))
    else:
        lines.append(_("Started {when}.", when=discord.utils.format_dt(row.starts_at, "f")))
    count = len(event.active)
    limit = f"/{row.max_players}" if row.max_players else ""
    lines.append("")
    lines.append(_("**Players** ({count}):", count=f"{count}{limit}"))
    shown = event.active[:SIGNUP_ROWS]
    lines += [f"{n}. {e.shown} ({round(e.rating)})" for n, e in enumerate(shown, start=1)] or [_("nobody yet")]
    if count > len(shown):
        lines.append(_("…and {count} more", count=count - len(shown)))
    colour = OVER_COLOUR if row.over else CHALLENGE_COLOUR if row.status == "open" else LIVE_COLOUR
    embed = discord.Embed(title=title(row), description="\n".join(lines)[:4000], colour=colour)
    if row.over:
        return Message(content=None, embeds=[embed], view=None)
    view = discord.ui.View(timeout=None)
    view.add_item(TournamentButton(row.id, "join"))
    view.add_item(TournamentButton(row.id, "leave"))
    return Message(content=None, embeds=[embed], view=view)


def pairing_line(event: Event, pairing: PairingRow, links: dict[int, str]) -> str:
    first = event.entrant(pairing.first_id)
    first_name = first.shown if first else f"<@{pairing.first_id}>"
    if pairing.second_id is None:
        return _("{player}: a bye (a win)", player=first_name)
    second = event.entrant(pairing.second_id)
    line = _(
        "**{board}.** {first} vs {second}",
        board=pairing.board,
        first=first_name,
        second=second.shown if second else f"<@{pairing.second_id}>",
    )
    link = links.get(pairing.game_id or 0)
    return f"{line} → {link}" if link else line


#: A message's length limit, less room for the line of mentions after the pairings.
MESSAGE_LIMIT = 2000
PAIRINGS_PER_MESSAGE = 12


def round_messages(event: Event, pairings: list[PairingRow], links: dict[int, str]) -> list[Message]:
    """A round's pairings (an arena's new games) with links to their games, in as many messages
    as they need; each pings the players of its pairings once (the games themselves ping nobody
    at their start)."""
    row = event.row
    if row.format == "arena":
        heading = _("⚔️ {name}: new games", name=markdown_name(row.name))
    else:
        heading = _("⚔️ {name}: round {number}", name=markdown_name(row.name), number=row.round)
    chunks = [pairings[i : i + PAIRINGS_PER_MESSAGE] for i in range(0, len(pairings), PAIRINGS_PER_MESSAGE)]
    return [_round_message(event, [heading] if n == 0 else [], chunk, links) for n, chunk in enumerate(chunks)]


def _round_message(event: Event, lines: list[str], pairings: list[PairingRow], links: dict[int, str]) -> Message:
    players = sorted({u for p in pairings for u in (p.first_id, p.second_id) if u is not None})
    lines = [*lines, *(pairing_line(event, p, links) for p in pairings)]
    calls = " ".join(f"<@{user}>" for user in players)
    text = "\n".join(lines)[: MESSAGE_LIMIT - len(calls) - 1]  # the calls are never cut
    mentions = discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(user) for user in players]
    )
    return Message(content=f"{text}\n{calls}", allowed_mentions=mentions)


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
    mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=players)
    return Message(content="\n".join(lines)[:2000], allowed_mentions=mentions)


def list_message(running: list[TournamentRow], past: list[TournamentRow]) -> str:
    """A server's events: those open or under way, then the past ones."""
    lines = [_("**Tournaments**")]
    for row in running:
        lines.append(f"#{row.id} {markdown_name(row.name)} · {describe(row)} · `{row.status}`")
    if past:
        lines.append(_("**Past**"))
        for row in past:
            when = discord.utils.format_dt(row.finished_at or row.starts_at, "d")
            lines.append(f"#{row.id} {markdown_name(row.name)} · {describe(row)} · `{row.status}` {when}")
    if len(lines) == 1:
        lines.append(_("None yet. A moderator makes one with `/wari-mod tournament create`."))
    return "\n".join(lines)[:2000]
