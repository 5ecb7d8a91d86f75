"""How a tournament shows itself: its sign-up message with Join and Leave, a round's pairings
and the list of a server's events (its standings and podium: :mod:`.standings`); in a team
battle, the private choice of a team for a member who holds several teams' roles. Each message is
drawn from an :class:`~bot.service.tournaments.Event` as read, so any of them can be redrawn."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

from bot.clock import Clock
from bot.engine.notation import parse_rules_code
from bot.i18n import N_, _, n_
from bot.names import markdown_name, plain_name
from bot.service.schedules import Schedule
from bot.service.tournaments import Advance, Event
from bot.storage import EntrantRow, PairingRow, TournamentRow, shown_name
from bot.storage.tournaments import TeamRow
from bot.tournament import MAX_TEAMS, MIN_TEAMS, fewest_players

from ..buttons import PersistentButton, read_number
from ..presenter import Message
from ..views import CHALLENGE_COLOUR, LIVE_COLOUR, OVER_COLOUR

FORMAT_NAMES = {"swiss": N_("Swiss"), "round-robin": N_("Round-robin"), "arena": N_("Arena")}
#: How many players the sign-up message lists at most (fewer if their lines are long: an embed's
#: description holds 4,096 characters, :data:`EMBED_TEXT`).
SIGNUP_ROWS = 60
EMBED_TEXT = 4000


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


class TeamButton(PersistentButton, template=r"wari:tour:(?P<id>[0-9]+):team:(?P<team>[0-9]+)"):
    """One team of a battle, on the private choice shown to a member who holds several teams' roles."""

    KIND, BELONGS = "team", ("tournament", "id")
    FIELDS = {"id": read_number, "team": lambda text: read_number(text, least=1, most=MAX_TEAMS)}

    def __init__(self, tournament_id: int, team: int, name: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=plain_name(name)[:80] or str(team),
                style=discord.ButtonStyle.primary,
                custom_id=f"wari:tour:{tournament_id}:team:{team}",
            ),
            tournament_id,
            team,
        )


def team_choice(row: TournamentRow, teams: list[TeamRow]) -> Message:
    """The private question to a member who holds the roles of several teams of a battle: which
    one they play for (a button each); they are in once they press one."""
    text = _(
        "**{name}** is a team battle, and you hold the roles of several of its teams. "
        "Which team do you play for? It stays yours for the whole battle.",
        name=markdown_name(row.name),
    )
    view = discord.ui.View(timeout=None)
    for team in teams:
        view.add_item(TeamButton(row.id, team.team, team.name))
    return Message(content=text, view=view)


def describe(row: TournamentRow) -> str:
    """The event in words: format (a team battle says so), rule set, clock, rounds or length,
    rated or not."""
    parts = [_(FORMAT_NAMES[row.format]), parse_rules_code(row.variant).label, Clock.parse(row.clock).describe()]
    if row.leaders is not None:
        parts.insert(1, _("team battle"))
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


def fitted(
    head: Sequence[str],
    rows: Sequence[str],
    limit: int,
    rest: Callable[[int], str],
    *,
    total: int | None = None,
    tail: Sequence[str] = (),
) -> str:
    """``head``, then as many of ``rows`` as fit in ``limit`` characters with ``tail`` after them,
    in whole lines (a line cut short could break its markup, a ``**`` left open); the rows left
    out are counted by ``rest`` (``total``: how many rows there are in all, if more than given)."""
    total = len(rows) if total is None else total
    kept = list(rows)
    while True:
        left = total - len(kept)
        text = "\n".join([*head, *kept, *([rest(left)] if left else []), *tail])
        if len(text) <= limit or not kept:
            return text
        kept.pop()


def more_players(count: int) -> str:
    """The line after the players a sign-up message lists, for those it does not."""
    return _("…and {count} more", count=count)


def signup_message(event: Event) -> Message:
    """The sign-up message: the event, its start, its players with their ratings, Join/Leave."""
    row = event.row
    lines = [describe(row), *rounds_warning(event), *battle_lines(event)]
    if row.status == "open":
        lines.append(_("Starts {when}.", when=discord.utils.format_dt(row.starts_at, "R")))
    else:
        lines.append(_("Started {when}.", when=discord.utils.format_dt(row.starts_at, "f")))
    count = len(event.active)
    limit = f"/{row.max_players}" if row.max_players else ""
    lines.append("")
    lines.append(_("**Players** ({count}):", count=f"{count}{limit}"))
    shown = [f"{n}. {player_text(event, e)}" for n, e in enumerate(event.active[:SIGNUP_ROWS], start=1)]
    rows = shown or [_("nobody yet")]
    text = fitted(lines, rows, EMBED_TEXT, more_players, total=max(count, len(rows)))
    colour = OVER_COLOUR if row.over else CHALLENGE_COLOUR if row.status == "open" else LIVE_COLOUR
    embed = discord.Embed(title=title(row), description=text[:EMBED_TEXT], colour=colour)
    if row.over:
        return Message(content=None, embeds=[embed], view=None)
    view = discord.ui.View(timeout=None)
    view.add_item(TournamentButton(row.id, "join"))
    view.add_item(TournamentButton(row.id, "leave"))
    return Message(content=None, embeds=[embed], view=view)


def teams_heading(event: Event) -> str:
    """``**Teams** (best 2 of each count)``: a battle's rule, over its teams wherever
    they are shown (its sign-up message, standings and podium)."""
    return n_(
        "**Teams** (best player of each counts)",
        "**Teams** (best {count} of each count)",
        event.row.leaders or 1,
        count=event.row.leaders,
    )


def battle_lines(event: Event) -> list[str]:
    """A team battle's rule and teams, for its sign-up message: ``Lions (3) · Tigers (2)``; while
    it is to start with fewer than two teams left (their roles were deleted), a warning."""
    if not event.battle:
        return []
    players = [e.team for e in event.active]
    teams = " · ".join(f"{markdown_name(team.name)} ({players.count(team.team)})" for team in event.teams)
    rule = n_(
        "Each team scores the points of its best player; you play for the team whose role you hold.",
        "Each team scores the points of its best {count} players; you play for the team whose role you hold.",
        event.row.leaders or 1,
        count=event.row.leaders,
    )
    lines = [teams_heading(event), *([teams] if teams else []), rule]
    if event.row.status == "open" and len(event.teams) < MIN_TEAMS:
        lines.append(_("⚠️ Fewer than two teams are left (their roles were deleted): it will be called off."))
    return lines


def called_off_text(step: Advance) -> str:
    """Why an event was called off at its start; for a recurring battle left with fewer than two
    teams, that it comes back no more."""
    name = markdown_name(step.event.row.name)
    if not step.event.battle:
        return _("🏁 **{name}** was called off: too few players joined.", name=name)
    text = _("🏁 **{name}** was called off: a team battle needs players of at least two teams.", name=name)
    if step.schedule_stopped:
        stopped = _("Fewer than two of its teams' roles are left, so it comes back no more: its schedule is stopped.")
        text = f"{text}\n{stopped}"
    return text


def team_name(event: Event, user_id: int) -> str | None:
    """A battle player's team's name, as text that can do nothing else (``None`` outside a battle)."""
    entrant = event.entrant(user_id)
    team = event.team(entrant.team) if entrant is not None else None
    return markdown_name(team.name) if team is not None else None


def player_text(event: Event, entrant: EntrantRow) -> str:
    """``Ama (1500)``, and in a battle her team: ``Ama (1500) · Lions``."""
    text = f"{entrant.shown} ({rating_text(event, entrant)})"
    team = team_name(event, entrant.user_id)
    return f"{text} · {team}" if team else text


def rating_text(event: Event, entrant: EntrantRow) -> str:
    """An entrant's rating as ratings read everywhere: whole points, ``?`` while provisional."""
    return f"{round(entrant.rating)}{'?' if entrant.user_id in event.provisional else ''}"


def rounds_warning(event: Event) -> list[str]:
    """A Swiss with more rounds than its players can be paired in says so: before its start, while
    fewer have joined than its rounds need (the rule, so the moderator can shorten it or wait for
    more); once started, how many rounds its players can play at most."""
    row = event.row
    if row.format != "swiss" or row.over:
        return []
    if row.status == "open":
        needed = fewest_players(row.rounds or 0)
        if len(event.active) >= needed:
            return []
        return [
            _(
                "⚠️ {rounds} rounds need at least {players} players (nobody meets anyone twice): "
                "with fewer, it ends when no pairing is left.",
                rounds=row.rounds,
                players=needed,
            )
        ]
    most = event.pairable_rounds
    if most is None:
        return []
    return [
        _(
            "⚠️ {players} players can play at most {most} rounds without meeting twice: "
            "it ends after round {most} at the latest, not {rounds}.",
            players=len(event.active),
            most=most,
            rounds=row.rounds,
        )
    ]


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
    opening = [heading]
    warning = rounds_warning(event) if row.round == 1 and row.format == "swiss" else []
    if warning:  # told once, as the first round starts, to the channel and the moderator who made it
        opening += [*warning, f"<@{row.created_by}>"]
    chunks = [pairings[i : i + PAIRINGS_PER_MESSAGE] for i in range(0, len(pairings), PAIRINGS_PER_MESSAGE)]
    return [
        _round_message(
            event, opening if n == 0 else [], chunk, links, also=[row.created_by] if warning and n == 0 else []
        )
        for n, chunk in enumerate(chunks)
    ]


def _round_message(
    event: Event, lines: list[str], pairings: list[PairingRow], links: dict[int, str], also: list[int]
) -> Message:
    """``also``: who is pinged besides the players (named in ``lines``)."""
    players = sorted({u for p in pairings for u in (p.first_id, p.second_id) if u is not None})
    lines = [*lines, *(pairing_line(event, p, links) for p in pairings)]
    calls = " ".join(f"<@{user}>" for user in players)
    text = "\n".join(lines)[: MESSAGE_LIMIT - len(calls) - 1]  # the calls are never cut
    mentions = discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        # Once each: Discord refuses a message that lists a user twice (the moderator may play).
        users=[discord.Object(user) for user in dict.fromkeys([*players, *also])],
    )
    return Message(content=f"{text}\n{calls}", allowed_mentions=mentions)


def shield_text(schedule: Schedule) -> str:
    """A recurring event's shield and who holds it: ``🛡️ Oware Shield (held by Ama)``."""
    title = markdown_name(schedule.row.title or "")
    if not schedule.holders:
        return _("🛡️ {title} (not won yet)", title=title)
    holders = ", ".join(shown_name(holder.user_id, holder.name) for holder in schedule.holders)
    return _("🛡️ {title} (held by {players})", title=title, players=holders)


def list_message(running: list[TournamentRow], past: list[TournamentRow], shields: dict[int, str]) -> str:
    """A server's events: those open or under way, then the past ones; a recurring event's shield
    (``shields``, by schedule) beside each of its editions."""
    lines = [_("**Tournaments**")]

    def line(row: TournamentRow, *more: str) -> str:
        shield = shields.get(row.schedule_id or 0)
        parts = [f"#{row.id} {markdown_name(row.name)}", describe(row), f"`{row.status}`", *more]
        return " · ".join([*parts, shield] if shield else parts)

    for row in running:
        lines.append(line(row))
    if past:
        lines.append(_("**Past**"))
        for row in past:
            lines.append(line(row, discord.utils.format_dt(row.finished_at or row.starts_at, "d")))
    if len(lines) == 1:
        lines.append(_("None yet. A moderator makes one with `/wari-mod tournament create`."))
    return "\n".join(lines)[:2000]
