"""What an analysis looks like on Discord: its progress, its result, and the Analyse button.

The result names each player's accuracy, their count of inaccuracies ``?!``, mistakes ``?`` and
blunders ``??`` and their worst moves, each with the engine's better move and what it would have
won, over a picture of the advantage through the game (:mod:`bot.pictures.analysis_chart`). The replay
(:mod:`cogs.wari.records`) then shows every move's mark and evaluation.
"""

from __future__ import annotations

import io
import math

import discord

from bot.ai.analysis import GameAnalysis, MoveVerdict
from bot.ai.analysis.model import is_proven, margin
from bot.i18n import N_, _, n_
from bot.pictures.analysis_chart import advantage_chart
from bot.storage import AnalysisRow, GameRow

from ..buttons import PersistentButton, read_number
from ..presenter import Message

ANALYSIS_COLOUR = discord.Colour.from_rgb(88, 101, 242)
#: The name of the advantage chart's attachment, which the result's embed shows.
CHART = "analysis.png"
#: Cells of the progress bar.
BAR = 10
#: How a depth reads on the result.
DEPTH_WORDS = {"default": N_("full depth"), "quick": N_("quick")}
MARK_WORDS = {"??": N_("blunder"), "?": N_("mistake"), "?!": N_("inaccuracy")}


class AnalyseButton(PersistentButton, template=r"wari:analyse:(?P<game>[0-9]+)"):
    """Under a finished game: anyone may ask for its analysis (shown in the channel)."""

    KIND, BELONGS = "analyse", ("board", "game")
    FIELDS = {"game": read_number}

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Analyse"), emoji="🔬", style=discord.ButtonStyle.secondary, custom_id=f"wari:analyse:{game_id}"
            ),
            game_id,
        )


def progress_bar(done: int, total: int) -> str:
    """``▰▰▰▰▱▱▱▱▱▱``: ``done`` of ``total`` in :data:`BAR` cells.

    >>> progress_bar(48, 100), progress_bar(0, 10), progress_bar(10, 10)
    ('▰▰▰▰▰▱▱▱▱▱', '▱▱▱▱▱▱▱▱▱▱', '▰▰▰▰▰▰▰▰▰▰')
    """
    filled = round(BAR * done / total) if total else BAR
    return "▰" * filled + "▱" * (BAR - filled)


def progress_message(row: AnalysisRow, done: int, total: int, ahead: int = 0) -> Message:
    """The analysis under way: a bar, the share done and the move reached; or its place in the queue."""
    if ahead:
        text = n_(
            "🔬 Game #{number} will be analysed as soon as {count} analysis ahead of it is done.",
            "🔬 Game #{number} will be analysed as soon as {count} analyses ahead of it are done.",
            ahead,
            number=row.game_id,
            count=ahead,
        )
    else:
        share = round(100 * done / total) if total else 0
        text = _(
            "🔬 Analysing game #{number} {bar} {share}% · move {move} of {moves}",
            number=row.game_id,
            bar=progress_bar(done, total),
            share=share,
            move=max(0, done - 1),
            moves=max(0, total - 1),
        )
    return Message(content=text, embeds=[], view=None, files=[])


def failed_message(row: AnalysisRow) -> Message:
    return Message(
        content=_(
            "🔬 The analysis of game #{number} could not be finished. `/wari analyse game: {number}` tries again.",
            number=row.game_id,
        ),
        embeds=[],
        view=None,
        files=[],
    )


def evaluation_text(value: float, names: tuple[str, str], player: int, exact: bool = False) -> str:
    """An evaluation for ``player`` (0 for A, whose name is ``names[0]``), as players read it: a
    proven result, or who is ahead and by about how many seeds (never a bare "+0.2").

    >>> evaluation_text(9, ("Ama", "Kofi"), 0), evaluation_text(9, ("Ama", "Kofi"), 1)
    ('Ama ahead by about 2 seeds', 'Kofi ahead by about 2 seeds')
    >>> evaluation_text(-4, ("Ama", "Kofi"), 0), evaluation_text(1, ("Ama", "Kofi"), 1)
    ('Kofi ahead by about 1 seed', 'even')
    """
    name = names[player]
    if is_proven(value):
        seeds = int(abs(margin(value)))
        if value > 0:
            return n_("{name} wins by {count} seed", "{name} wins by {count} seeds", seeds, name=name, count=seeds)
        return n_("{name} loses by {count} seed", "{name} loses by {count} seeds", seeds, name=name, count=seeds)
    if exact and value == 0:
        return _("a draw")
    seeds = math.floor(abs(margin(value)) + 0.5)  # to the nearest seed, a half up
    if seeds == 0:
        return _("even")
    ahead = names[player] if value > 0 else names[1 - player]
    return n_(
        "{name} ahead by about {count} seed", "{name} ahead by about {count} seeds", seeds, name=ahead, count=seeds
    )


def better_text(verdict: MoveVerdict) -> str:
    """What the engine would have played instead, and what it would have won (whole seeds where
    the tables prove it, else an estimate to a tenth of a seed)."""
    if verdict.exact:
        whole = round(verdict.seeds_lost)
        gain = n_("{count} seed more, proven", "{count} seeds more, proven", whole, count=whole)
    else:
        tenths = round(verdict.seeds_lost, 1)
        shown = f"{tenths:.1f}".removesuffix(".0")
        gain = n_("about {count} seed more", "about {count} seeds more", 1 if tenths == 1 else 2, count=shown)
    return _("better: house {house} ({gain})", house=verdict.best, gain=gain)


def worst_line(verdict: MoveVerdict) -> str:
    """``Move 23: house 4 ?? (blunder) · better: house 2 (about 5 seeds more)``."""
    return _(
        "Move {number}: house {house} {mark} ({kind}) · {better}",
        number=verdict.ply,
        house=verdict.house,
        mark=verdict.mark,
        kind=_(MARK_WORDS[verdict.mark]),
        better=better_text(verdict),
    )


def player_summary(analysis: GameAnalysis, player: int) -> str:
    counts = analysis.counts(player)
    lines = [
        _("Accuracy **{accuracy}**", accuracy=round(analysis.accuracy(player))),
        _(
            "{inaccuracies} ?! · {mistakes} ? · {blunders} ??",
            inaccuracies=counts["?!"],
            mistakes=counts["?"],
            blunders=counts["??"],
        ),
    ]
    worst = analysis.worst(player)
    lines += [worst_line(verdict) for verdict in worst] or [_("No mistakes found.")]
    return "\n".join(lines)


def result_message(row: GameRow, analysis: GameAnalysis, names: tuple[str, str]) -> Message:
    """The finished analysis: each player's accuracy and worst moves, over the advantage chart."""
    embed = discord.Embed(
        title=_("🔬 Analysis of game #{number}", number=row.id),
        description=_("{a} against {b} · {depth}", a=names[0], b=names[1], depth=_(DEPTH_WORDS[analysis.depth])),
        colour=ANALYSIS_COLOUR,
    )
    for player in (0, 1):
        embed.add_field(name=names[player], value=player_summary(analysis, player), inline=False)
    embed.set_image(url=f"attachment://{CHART}")
    embed.set_footer(text=_("Every move's mark and evaluation: /wari replay game: {number}", number=row.id))
    chart = discord.File(io.BytesIO(advantage_chart(analysis, names, _("seeds ahead"))), filename=CHART)
    return Message(content=None, embeds=[embed], view=None, files=[chart])
