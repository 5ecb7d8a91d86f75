"""What players remember: ``/wari stats``, ``/wari leaderboard`` and ``/wari history``, with
buttons for more pages (they carry what they show in their custom ids, so they work after a
restart)."""

from __future__ import annotations

import io
import re
from dataclasses import astuple, replace
from typing import Any

import discord
from discord import app_commands

from bot.ai import LEVELS
from bot.engine import VARIANTS
from bot.engine.notation import parse_rules_code
from bot.i18n import N_, _, labelled, n_
from bot.names import markdown_name
from bot.pictures.charts import plot_width, rating_chart
from bot.ratings import Rating, outcome_for
from bot.seasons import MEDALS
from bot.service import PlayerService, Refusal
from bot.service.seasons import Badges
from bot.storage import INTERACTION, SERVER, GameRow, Record, shown_name
from bot.storage.puzzles import PuzzleStanding

from .buttons import NUMBER_MAX, ForgedId, PersistentButton, read_number, read_one_of, read_variant
from .options import level_name
from .permissions import SERVER_ONLY, server_here, venue_of
from .presenter import Message, Presenter
from .seasons import Seasons
from .views import board_link, side_names

PAGE = 10
#: Outside a server that added the bot, the history shown is the asker's own.
OWN_GAMES_ONLY = N_("Here I show your own games only: `/wari history` without `member`.")
#: A history asked for everyone where the bot is no member: it lists games from elsewhere.
SHOWN_TO_YOU_ALONE = N_(
    "Shown only to you: your history lists your games from everywhere, not only this conversation's."
)
STANDINGS_COLOUR = discord.Colour.teal()
SCOPES = [
    app_commands.Choice(name=N_("This server"), value="server"),
    app_commands.Choice(name=N_("This season"), value="season"),
    app_commands.Choice(name=N_("Everyone"), value="everyone"),
]


def read_page(text: str) -> int:
    """A page's number: its rows are read from (page × PAGE), which too must be a number the database holds."""
    return read_number(text, most=NUMBER_MAX // PAGE)


class PageButton(
    PersistentButton,
    template=r"wari:page:(?P<kind>ranks|history):(?P<key>[a-z0-9-]+):(?P<page>[0-9]+):(?P<way>prev|next)",
):
    """◀ or ▶ under a leaderboard (key: variant, scope and who asked) or a history (key: the player's id)."""

    KIND, BELONGS = "page", ("pages", "kind", "key")
    #: The key is read again by :meth:`read`, as its kind says.
    FIELDS = {"kind": str, "key": str, "page": read_page, "way": str}

    def __init__(self, kind: str, key: str, page: int, way: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                emoji="◀️" if way == "prev" else "▶️",
                style=discord.ButtonStyle.secondary,
                custom_id=f"wari:page:{kind}:{key}:{page}:{way}",
                disabled=disabled,
            ),
            kind,
            key,
            page,
            way,
        )

    @classmethod
    def read(cls, match: re.Match[str]) -> tuple[Any, ...]:
        """The fields, and the key as its kind makes them (a key is read with the kind's help)."""
        kind, key, page, way = super().read(match)
        return kind, cls.read_key(kind, key), page, way

    @staticmethod
    def read_key(kind: str, key: str) -> str:
        """A key as :meth:`Standings.leaderboard` and :meth:`Standings.history` make them:
        ``variant-scope-asker`` for a leaderboard, a player's id for a history."""
        if kind == "history":
            read_number(key)  # the player's id
            return key
        parts = key.split("-")
        if len(parts) != 3:
            raise ForgedId()
        read_variant(parts[0])
        read_one_of(parts[1], [str(choice.value) for choice in SCOPES])
        read_number(parts[2])  # who asked
        return key


BUTTONS = (PageButton,)


def pages(kind: str, key: str, page: int, more: bool) -> discord.ui.View | None:
    """◀ ▶ under a page, when there is another page to turn to (``None``: it is the only one)."""
    if page == 0 and not more:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(kind, key, max(page - 1, 0), "prev", disabled=page == 0))
    view.add_item(PageButton(kind, key, page + 1, "next", disabled=not more))
    return view


def record_words(record: Record) -> str:
    """Games, wins, draws and losses (and aborted games, if any), in the language of the moment."""
    aborted = record.games - record.wins - record.draws - record.losses
    counts = {"games": record.games, "wins": record.wins, "draws": record.draws, "losses": record.losses}
    if aborted:
        return _("{games} ({wins} W · {draws} D · {losses} L · {aborted} aborted)", aborted=aborted, **counts)
    return _("{games} ({wins} W · {draws} D · {losses} L)", **counts)


#: A game's outcome for a player, as a history line says it.
def level_lines(levels: list[tuple[str, Record]]) -> str:
    """One line per computer level: ``**Casual**: 3 (2 W · 0 D · 1 L)``."""
    return "\n".join(labelled(f"**{level_name(level)}**", record_words(record)) for level, record in levels)


def rating_words(rating: Rating) -> str:
    """A rating in the stats, in the language of the moment: ``1662, provisional after 1 game``."""
    if rating.provisional:
        return n_(
            "{points}, provisional after {games} game",
            "{points}, provisional after {games} games",
            rating.games,
            points=rating.points,
            games=rating.games,
        )
    return n_(
        "{points} after {games} game",
        "{points} after {games} games",
        rating.games,
        points=rating.points,
        games=rating.games,
    )


def puzzle_words(standing: PuzzleStanding) -> str:
    """A puzzle rating and streak in the stats: ``1562? · 7 solved, 2 failed · streak 3 (best 5)``."""
    rating = Rating(standing.rating, standing.rd, standing.volatility, standing.tries)
    # Each count has its own plural ("1 raté", "2 ratés"): one message could agree with one only.
    solved = n_("{count} solved", "{count} solved", standing.solved, count=standing.solved)
    failed = n_("{count} failed", "{count} failed", standing.failed, count=standing.failed)
    return _(
        "**{rating}** · {solved}, {failed} · streak {streak} (best {best})",
        rating=rating,
        solved=solved,
        failed=failed,
        streak=standing.streak,
        best=standing.best_streak,
    )


def badge_words(badges: Badges) -> str:
    """A player's badges on one short line, for a phone: ``🥇×2 🥉×1 in seasons · 🏆 1 tournament won · …``."""
    parts = []
    if badges.podiums:
        medals = " ".join(f"{MEDALS[place - 1]}×{count}" for place, count in badges.podiums.items())
        parts.append(_("{medals} in seasons", medals=medals))
    if badges.tournament_wins:
        wins = badges.tournament_wins
        parts.append(n_("🏆 {count} tournament won", "🏆 {count} tournaments won", wins, count=wins))
    if badges.puzzle_streak:
        parts.append(_("🧩 a puzzle streak of {count}", count=badges.puzzle_streak))
    if badges.beat_the_expert:
        parts.append(_("🤖 beat the Expert"))
    return " · ".join(parts)


OUTCOME_WORDS = {"win": N_("won"), "draw": N_("drew"), "loss": N_("lost"), None: N_("aborted")}
#: Why a finished game ended, as a history line says it (the stored reason, the engine's termination code).
REASON_WORDS = {
    "majority": N_("majority"),
    "no_legal_move": N_("no legal move"),
    "cycle": N_("repetition"),
    "surrender": N_("surrender"),
    "time": N_("on time"),
    "agreement": N_("agreement"),
}


def result_for(row: GameRow, user_id: int) -> str:
    """``won``, ``lost``, ``drew`` or ``aborted``, as ``user_id`` played ``row``, in the language of the moment."""
    return _(OUTCOME_WORDS[outcome_for(row.status, row.result, "A" if row.player_a == user_id else "B")])


class Standings:
    """``/wari stats``, ``/wari leaderboard``, ``/wari history`` and their pages."""

    def __init__(self, players: PlayerService, presenter: Presenter, seasons: Seasons) -> None:
        self.players = players
        self.presenter = presenter
        #: A server's season leaderboard, and players' badges.
        self.seasons = seasons

    async def stats(
        self, interaction: discord.Interaction, member: discord.User | None, variant: str | None, public: bool
    ) -> None:
        who = member or interaction.user
        embed = discord.Embed(
            title=_("📊 {name}'s Wari", name=markdown_name(who.display_name)), colour=STANDINGS_COLOUR
        )
        if who.id == interaction.client.application_id or who == interaction.client.user:
            await self.computer_stats(interaction, embed, variant, public)
            return
        stats = await self.players.player_stats(who.id, variant, chart_points=plot_width())
        people = stats.results.get(None, Record())
        # Against each computer level, easy to hard.
        levels = [(level, stats.results[level]) for level in LEVELS if level in stats.results]
        embed.add_field(name=_("Games against people"), value=record_words(people), inline=False)
        rated = "\n".join(f"**{name}** {rating_words(rating)}" for name, rating in stats.ratings.items()) or _(
            "Not rated yet: finish a game against a person."
        )
        embed.add_field(name=_("Ratings"), value=rated, inline=False)
        if levels:
            embed.add_field(name=_("Against the computer"), value=level_lines(levels), inline=False)
        embed.add_field(name=_("Longest winning streak"), value=str(stats.longest_streak), inline=False)
        if stats.puzzles is not None:
            embed.add_field(name=_("Puzzles"), value=puzzle_words(stats.puzzles), inline=False)
        badges = await self.seasons.service.badges(who.id)
        if badges:
            embed.add_field(name=_("Badges"), value=badge_words(badges), inline=False)
        files = []
        if stats.history is not None:
            charted = next(iter(stats.ratings))
            history, games = stats.history
            files.append(discord.File(io.BytesIO(rating_chart(history, charted, games=games)), filename="rating.png"))
            embed.set_image(url="attachment://rating.png")
        await self.presenter.answer(interaction, Message(embeds=[embed], files=files), private=not public)

    async def computer_stats(
        self, interaction: discord.Interaction, embed: discord.Embed, variant: str | None, public: bool
    ) -> None:
        """The bot's own stats: its games against people, level by level, from its side."""
        stats = await self.players.computer_stats(variant)
        levels = [(level, stats.results[level]) for level in LEVELS if level in stats.results]
        records = [record for _level, record in levels]
        total = Record(*(sum(numbers) for numbers in zip(*(astuple(record) for record in records), strict=True)))
        embed.add_field(name=_("Games against people"), value=record_words(total), inline=False)
        if levels:
            embed.add_field(name=_("By level"), value=level_lines(levels), inline=False)
        embed.set_footer(text=_("I play at six levels and have no rating: /wari play picks one."))
        await self.presenter.answer(interaction, Message(embeds=[embed]), private=not public)

    async def leaderboard(self, interaction: discord.Interaction, variant: str, scope: str, public: bool) -> None:
        if scope == "server" and venue_of(interaction) != SERVER:
            if interaction.namespace.scope is not None:  # asked for: say where it works
                raise app_commands.NoPrivateMessage(SERVER_ONLY)
            scope = "everyone"  # the default, where there is no server's
        key = f"{variant}-{scope}-{interaction.user.id}"
        page = await self.ranks_page(interaction, key, 0)
        await self.presenter.answer(interaction, page, private=not public)

    async def ranks_page(self, interaction: discord.Interaction, key: str, page: int) -> Message:
        """One page of a leaderboard (``key``: variant, scope and who asked: their place is shown,
        whoever turns the pages)."""
        variant, scope, asker = key.split("-")
        if variant not in VARIANTS or scope not in [choice.value for choice in SCOPES]:
            raise ValueError(f"no leaderboard {key!r}")
        if scope == "season":
            embed, more = await self.seasons.board(interaction, variant, int(asker), page, PAGE)
            return Message(embeds=[embed], view=pages("ranks", key, page, more))
        everyone = scope == "everyone"
        guild = None if everyone else server_here(interaction)
        board = await self.players.leaderboard_page(variant, guild_id=guild, asker=int(asker), page=page, size=PAGE)
        lines = [
            n_(
                "**{place}.** {name} {rating} · {games} game",
                "**{place}.** {name} {rating} · {games} games",
                row.rating.games,
                place=row.place,
                name=shown_name(row.user_id, row.name),
                rating=row.rating,
                games=row.rating.games,
            )
            for row in board.rows
        ]
        label = parse_rules_code(variant).label.capitalize()
        if everyone:
            title = _("🏆 {variant} leaderboard · everyone", variant=label)
        else:
            title = _("🏆 {variant} leaderboard · this server", variant=label)
        embed = discord.Embed(
            title=title,
            description="\n".join(lines) or _("Nobody is rated here yet: finish a game against a person."),
            colour=STANDINGS_COLOUR,
        )
        mine, size = board.mine, board.size
        if interaction.user.id == int(asker):
            own = (
                _("Your place: {place} of {size} ({rating})", place=mine.place, size=size, rating=mine.rating)
                if mine
                else _("Your rating is not here yet.")
            )
        elif mine:
            own = _("The asker's place: {place} of {size} ({rating})", place=mine.place, size=size, rating=mine.rating)
        else:
            own = _("The asker's rating is not here yet.")
        embed.set_footer(text=_("{own} · page {page} · ? marks a provisional rating", own=own, page=page + 1))
        return Message(embeds=[embed], view=pages("ranks", key, page, board.more))

    async def history(self, interaction: discord.Interaction, member: discord.User | None, public: bool) -> None:
        """A player's history; outside a server that added the bot, the asker's own, from
        everywhere, so shown to them alone (where others read the answers, saying so)."""
        who = member or interaction.user
        venue = venue_of(interaction)
        if venue != SERVER and who.id != interaction.user.id:
            raise Refusal(OWN_GAMES_ONLY)
        page = await self.history_page(interaction, str(who.id), 0)
        if public and venue == INTERACTION:
            page = replace(page, content=_(SHOWN_TO_YOU_ALONE))
        await self.presenter.answer(interaction, page, private=not public or venue != SERVER)

    async def history_page(self, interaction: discord.Interaction, key: str, page: int) -> Message:
        """One page of a player's archived games (``key``: the player's id), newest first: those
        of the server it is shown in (the interaction's, at each press: never read from the key);
        outside a server that added the bot, all the asker's own games."""
        user_id = int(key)
        if venue_of(interaction) == SERVER:
            guild_id = server_here(interaction)
        elif user_id == interaction.user.id:
            guild_id = None
        else:  # a page of one's own games, pressed by someone else (a group DM)
            raise Refusal(OWN_GAMES_ONLY)
        rows, more = await self.players.archive_page(user_id, guild_id=guild_id, page=page, size=PAGE)
        lines = [self.history_line(row, user_id) for row in rows]
        embed = discord.Embed(
            title=_("🗂️ Latest games"),
            description=f"{self.name_in(rows, user_id)}\n" + ("\n".join(lines) or _("No finished game yet.")),
            colour=STANDINGS_COLOUR,
        )
        embed.set_footer(text=_("page {page} · /wari record and /wari replay take a game's number", page=page + 1))
        return Message(embeds=[embed], view=pages("history", key, page, more))

    @staticmethod
    def name_in(rows: list[GameRow], user_id: int) -> str:
        """A player's name as their latest game on the page knew it."""
        for row in rows:
            return row.names[0 if row.player_a == user_id else 1]
        return shown_name(user_id, None)

    @staticmethod
    def history_line(row: GameRow, user_id: int) -> str:
        other = 1 if row.player_a == user_id else 0
        opponent = side_names(row)[other]
        when = discord.utils.format_dt(row.finished_at or row.updated_at, "d")
        board = board_link(row) if row.message_id else ""
        result = result_for(row, user_id)
        fields = {
            "number": row.id,
            "when": when,
            "opponent": opponent,
            "variant": parse_rules_code(row.variant).label.capitalize(),  # as boards name it, not its code
            "result": result,
            "board": board,
        }
        if row.status == "finished":
            reason = _(REASON_WORDS[row.reason]) if row.reason in REASON_WORDS else row.reason
            return _(
                "**#{number}** {when} · vs {opponent} · {variant} · **{result}** ({reason}) {board}",
                reason=reason,
                **fields,
            ).rstrip()
        return _("**#{number}** {when} · vs {opponent} · {variant} · **{result}** {board}", **fields).rstrip()

    async def turn_page(self, interaction: discord.Interaction, kind: str, key: str, page: int, way: str) -> None:
        """◀ or ▶ pressed (``way``, which the page to show already says): the same message shows it."""
        pager = self.ranks_page if kind == "ranks" else self.history_page
        await self.presenter.show_pressed(interaction, await pager(interaction, key, page))
