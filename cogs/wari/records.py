"""Game records: ``/wari record`` (the record as a file) and ``/wari replay`` (step through it).

The file is the engine's ``wari-record/1`` record (:func:`bot.engine.notation.record`) with more
tags: where and when the game was played, its clock, and the players' names and Discord ids
(``docs/record-format.md`` is the specification). :func:`bot.engine.notation.from_record`, the
engine's ``replay`` command and ``wari --replay`` read it back.

A replay is a message anyone may step through with ⏮ ◀ ▶ ⏭. Its buttons carry the game and the
move to show in their custom ids and the position is replayed from the stored record at each
press, so they keep working after a restart and need nothing kept in memory.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime

import discord

from bot.ai.analysis import GameAnalysis, MoveVerdict
from bot.engine import Game
from bot.engine.notation import from_record, parse_rules_code, record
from bot.i18n import N_, _, n_
from bot.render import describe_move, result_text
from bot.service import WariService
from bot.service.analyses import AnalysisService
from bot.storage import GameRow

from .analyses.views import better_text, evaluation_text
from .buttons import PersistentButton, read_number
from .permissions import number_scope
from .presenter import Message, Presenter
from .views import OVER_COLOUR, aborted_text, position_lines, side_names

#: The ``Event`` tag of every record the bot writes.
EVENT = "Wari for Discord"
#: How the computer's side is named in a record, with its level: ``Wari bot (expert)``. The
#: record file is not translated: its tags and names stay as written here.
COMPUTER = "Wari bot"
REPLAY_COLOUR = OVER_COLOUR
#: How a record's message says where a game that has no outcome stands, by its status.
STANDING_WORDS = {"live": N_("still being played"), "aborted": N_("aborted")}
NOT_FINISHED = N_("not finished")
#: The replay buttons, in their order on the message.
WAYS = {"first": "⏮️", "prev": "◀️", "next": "▶️", "last": "⏭️"}


class ReplayButton(
    PersistentButton, template=r"wari:replay:(?P<game>[0-9]+):(?P<ply>[0-9]+):(?P<way>first|prev|next|last)"
):
    """⏮ ◀ ▶ ⏭ under a replay: show game ``game`` after ``ply`` moves. ``way`` tells the four
    buttons apart (two of them may lead to the same move); ⏭ always goes to the latest move."""

    KIND, BELONGS = "replay", ("replay", "game")
    FIELDS = {"game": read_number, "ply": read_number, "way": str}

    def __init__(self, game_id: int, ply: int, way: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                emoji=WAYS[way],
                style=discord.ButtonStyle.secondary,
                custom_id=f"wari:replay:{game_id}:{ply}:{way}",
                disabled=disabled,
            ),
            game_id,
            ply,
            way,
        )


#: This feature's persistent buttons (registered by the extension's setup).
BUTTONS: tuple = (ReplayButton,)


# -- the record file ----------------------------------------------------------------------------


def utc_text(moment: datetime | None) -> str:
    """A moment as the record writes it: ISO 8601 in UTC to the second, ``-`` for none.

    >>> from datetime import timezone, timedelta
    >>> utc_text(datetime(2026, 11, 24, 20, 2, 3, 999, tzinfo=timezone(timedelta(hours=1))))
    '2026-11-24T19:02:03Z'
    >>> utc_text(None)
    '-'
    """
    if moment is None:
        return "-"
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def record_tags(row: GameRow) -> dict[str, str]:
    """The tags a downloaded record adds to the engine's own (see ``docs/record-format.md``)."""
    tags = {
        "Event": EVENT,
        "Game": str(row.id),
        "Date": utc_text(row.created_at),
        "Finished": utc_text(row.finished_at),
        "Status": row.status,
        "Clock": row.clock or "-",
        "PlayerAId": str(row.player_a),
        "PlayerBId": str(row.player_b),
    }
    for side, level in (("A", row.level_a), ("B", row.level_b)):
        if level is not None:
            tags[f"Level{side}"] = level
    return tags


def portable_record(row: GameRow, names: tuple[str, str]) -> str:
    """The record of ``row`` to download: the stored moves, ``names`` as the players, more tags."""
    game, _tags = from_record(row.record)
    return record(game, names[0], names[1], tags=record_tags(row))


# -- the replay message ---------------------------------------------------------------------------


def sowings(game: Game) -> int:
    """The moves of ``game`` as its board counts them: a surrender, a loss on time or a draw agreed
    ends the game with a ply of its own, but is no move (the board says 40, so must the record)."""
    return sum(1 for move in game.moves if move.sows)


def position_after(game: Game, ply: int) -> Game:
    """A fresh game from ``game``'s start with its first ``ply`` moves played again."""
    shown = Game.from_state(game.rules, game.start_state)
    for move in game.moves[:ply]:
        shown.replay(move)
    return shown


def replay_view(game_id: int, ply: int, total: int) -> discord.ui.View:
    """⏮ ◀ ▶ ⏭ for the replay shown after ``ply`` of ``total`` moves; the useless ones disabled."""
    view = discord.ui.View(timeout=None)
    targets = {"first": 0, "prev": max(ply - 1, 0), "next": min(ply + 1, total), "last": total}
    for way, target in targets.items():
        at_end = ply == 0 if way in ("first", "prev") else ply >= total
        view.add_item(ReplayButton(game_id, target, way, disabled=at_end))
    return view


def ending_line(row: GameRow, game: Game, names: tuple[str, str]) -> str:
    """How the game stands after its last recorded move."""
    if game.outcome is not None:
        return "🏁 " + result_text(game.outcome, names)
    if row.status == "aborted":
        return "🏁 " + aborted_text(row)
    return _("⏳ The game goes on: this is its latest move.")


def replay_message(row: GameRow, ply: int, analysis: GameAnalysis | None = None) -> Message:
    """Game ``row`` after ``ply`` moves (clamped to the moves it has), with its replay buttons;
    with the game's ``analysis``, the move's mark, the evaluation and the better move."""
    full, _tags = from_record(row.record)
    total = sowings(full)  # an ending without sowing is told by the ending line, not as a move
    ply = max(0, min(ply, total))
    game = position_after(full, ply)
    names = side_names(row)
    rules = game.rules
    lines = position_lines(game, names)
    verdict = analysis.moves[ply - 1] if analysis is not None and 0 < ply <= len(analysis.moves) else None
    if ply:
        move = game.moves[-1]
        said = describe_move(move, names[move.player], rules)
        if verdict is not None and verdict.mark:
            said = f"{said} **{verdict.mark}**"
        lines.append(_("**Move {number}:** {move}", number=ply, move=said))
    else:
        mover = game.to_move
        lines.append(_("**Start:** {name} moves first.", name=names[mover]) if mover is not None else _("**Start.**"))
    if verdict is not None:
        lines.append(analysis_line(verdict, names))
    if ply == total:
        lines.append(ending_line(row, full, names))
    embed = discord.Embed(
        title=_("🎞️ {variant} · game #{number} · replay", variant=rules.label.capitalize(), number=row.id),
        description="\n".join(lines),
        colour=REPLAY_COLOUR,
    )
    embed.set_footer(text=_("Move {number} of {total} · ⏮ ◀ ▶ ⏭ step through the game", number=ply, total=total))
    return Message(content=None, embeds=[embed], view=replay_view(row.id, ply, total))


def analysis_line(verdict: MoveVerdict, names: tuple[str, str]) -> str:
    """``🔬 Ama ahead by about 2 seeds · better: house 2 (about 3 seeds more)``: the evaluation
    after the move, and the engine's better move when it was not played."""
    parts = [evaluation_text(verdict.value_played, names, verdict.player, verdict.exact)]
    if verdict.house != verdict.best:
        parts.append(better_text(verdict))
    return "🔬 " + " · ".join(parts)


# -- the commands -------------------------------------------------------------------------------


class Records:
    """``/wari record`` and ``/wari replay``, and the replay's buttons."""

    def __init__(
        self, client: discord.Client, service: WariService, analyses: AnalysisService, presenter: Presenter
    ) -> None:
        self.client = client
        self.service = service
        self.analyses = analyses
        self.presenter = presenter

    async def game_shown_here(self, interaction: discord.Interaction, number: int) -> GameRow:
        """Game ``number`` if it may be shown where ``interaction`` asks (this server's, this
        conversation's, or in the bot's DM the asker's own); else a refusal (see
        :meth:`bot.service.base.Tables.game_shown`)."""
        return (await self.service.tables.game_shown(number, number_scope(interaction))).row

    async def display_name(self, user_id: int, level: str | None) -> str:
        """How a record names a player: the computer with its level, a person by their Discord
        display name (their id if Discord cannot say)."""
        if level is not None:
            return f"{COMPUTER} ({level})"
        user = self.client.get_user(user_id)
        if user is None:
            try:
                user = await self.client.fetch_user(user_id)
            except discord.HTTPException:
                return str(user_id)
        return user.display_name

    async def download(self, interaction: discord.Interaction, game: int, public: bool) -> None:
        row = await self.game_shown_here(interaction, game)
        # Names may take Discord a while.
        await self.presenter.acknowledge(interaction, thinking=True, private=not public)
        names = (await self.display_name(row.player_a, row.level_a), await self.display_name(row.player_b, row.level_b))
        text = portable_record(row, names)
        replayed, _tags = from_record(text)
        how = _(STANDING_WORDS.get(row.status, NOT_FINISHED))
        if replayed.outcome is not None:
            how = result_text(replayed.outcome, side_names(row)).rstrip(".")
        label = parse_rules_code(row.variant).label
        a, b = side_names(row)
        summary = n_(
            "📄 The record of game #{number} ({variant}): {a} against {b}, {moves} move, {how}.",
            "📄 The record of game #{number} ({variant}): {a} against {b}, {moves} moves, {how}.",
            sowings(replayed),
            number=row.id,
            variant=label,
            a=a,
            b=b,
            moves=sowings(replayed),
            how=how,
        )
        content = (
            summary
            + "\n"
            + _(
                "Step through it here with `/wari replay game: {number}`; the file is plain text, "
                "for any text editor or game archive.",
                number=row.id,
            )
        )
        file = discord.File(io.BytesIO(text.encode("utf-8")), filename=f"wari-game-{row.id}.txt")
        await self.presenter.answer(interaction, Message(content=content, files=[file]), private=not public)

    async def replay(self, interaction: discord.Interaction, game: int, public: bool) -> None:
        row = await self.game_shown_here(interaction, game)
        shown = replay_message(row, 1 << 30, await self.analyses.finished(row.id))
        await self.presenter.answer(interaction, shown, private=not public)

    async def step(self, interaction: discord.Interaction, game_id: int, ply: int, way: str) -> None:
        """⏮ ◀ ▶ ⏭ pressed: show the game after ``ply`` moves (⏭: its latest), in place."""
        row = await self.game_shown_here(interaction, game_id)
        shown = replay_message(row, 1 << 30 if way == "last" else ply, await self.analyses.finished(row.id))
        await self.presenter.show_pressed(interaction, shown)
