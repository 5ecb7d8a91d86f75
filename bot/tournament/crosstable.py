"""A crosstable as plain text, no wider than ``width`` columns: 40 (:data:`WIDTH`) for a file a
phone's viewer reads, 26 for a Discord code block on a 360-pixel phone (the board's width).

Each player takes two lines or more: their standing (rank, name, points, the tie-breaks that fit,
or none: ``tiebreak_columns=False``), then, indented, one cell per round: the opponent's rank and
the result, wrapped at ``width`` (a one-line row with a column per round would leave no room for
names past a few rounds); a key to the headings and the symbols ends it.

A cell reads ``3+``: against the player ranked 3rd, won (``=`` drawn, ``-`` lost; ``>``, ``~``,
``<``: won, drawn, lost by forfeit). ``B+`` is a bye, ``.`` a round not paired, ``3*`` a game
being played. In an arena (``tiebreak_names`` is :data:`~bot.tournament.ARENA_TIEBREAKS`) the
cells are the arena points of each game instead, in order: ``2 2 4 2 0 2``.

Its words (the headings, the key) are English unless the caller gives them translated
(:class:`Words`); the symbols and the tie-breaks' short headings are the same in every language.

Halves and quarters are written ``½``, ``¼``, ``¾``. Names are cut to fit (``…``), counting the
columns a monospace font gives them: two for wide characters (CJK, most emoji), none for
combining marks; control and format characters (newlines, bidirectional overrides, zero-width
joiners) are dropped and a backtick becomes ``'``, so that no name can break the code block.

>>> from bot.tournament import SWISS_TIEBREAKS, swiss_standings
>>> entrants = [Entrant(1, "Ama", 1800), Entrant(2, "Kofi", 1700), Entrant(3, "Esi", 1600)]
>>> games = [Pairing(1, 1, 2, 1.0), Pairing(1, 3, None), Pairing(2, 3, 1, 0.5), Pairing(2, 2, None)]
>>> print(crosstable_text(entrants, games, swiss_standings(entrants, games), tiebreak_names=SWISS_TIEBREAKS))
# Name                   Pts BH1 SB W DE
1 Esi                     1½  1½ 2¼ 0  0
  B+ 2=
2 Ama                     1½   1  1 1  0
  3+ 1=
3 Kofi                     1  1½  1 0  0
  2- B+
BH1 Buchholz cut-1, SB Sonneborn-Berger,
W Wins, DE Direct encounter
+ won, = drawn, - lost,
> ~ < by forfeit, B bye, . not paired,
* being played

On a phone, without the tie-break columns:

>>> print(crosstable_text(entrants, games, swiss_standings(entrants, games), tiebreak_names=SWISS_TIEBREAKS,
...                       width=26, tiebreak_columns=False))
# Name                 Pts
1 Esi                   1½
  B+ 2=
2 Ama                   1½
  3+ 1=
3 Kofi                   1
  2- B+
+ won, = drawn, - lost,
> ~ < by forfeit, B bye,
. not paired,
* being played
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .arena import arena_scores
from .model import Entrant, Pairing, by_player, last_round
from .standings import ARENA_TIEBREAKS, Standing, both_results

#: The widest line of a crosstable in a file: what a phone's file viewer shows without scrolling.
WIDTH = 40
#: Tie-break columns are left out, last first, rather than cut names below this.
MIN_NAME = 8
#: Short column headings of the known tie-breaks (others: their initials).
ABBREVIATIONS = {
    "Buchholz cut-1": "BH1",
    "Sonneborn-Berger": "SB",
    "Wins": "W",
    "Direct encounter": "DE",
    "Performance": "Perf",
}
#: A result's symbol: over the board, and by forfeit.
PLAYED = {1.0: "+", 0.5: "=", 0.0: "-"}
FORFEITED = {1.0: ">", 0.5: "~", 0.0: "<"}
KEY = ("+ won", "= drawn", "- lost", "> ~ < by forfeit", "B bye", ". not paired", "* being played")
ARENA_KEY = "each game's arena points, in order"
FRACTIONS = {0.0: "", 0.25: "¼", 0.5: "½", 0.75: "¾"}
#: Characters a code block must not show: control, format (bidi overrides, joiners), separators.
DROPPED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


@dataclass(frozen=True)
class Words:
    """The crosstable's words: its headings, its key (each item kept whole on a line), the line
    that says what an arena's cells are (broken between words), and the tie-breaks' names."""

    name: str = "Name"
    points: str = "Pts"
    key: tuple[str, ...] = KEY
    arena_key: str = ARENA_KEY
    #: A tie-break's name as its heading's legend says it (by its English name; else that name).
    tiebreaks: Mapping[str, str] = field(default_factory=dict)


def crosstable_text(
    entrants: Sequence[Entrant],
    pairings: Sequence[Pairing],
    standings: Sequence[Standing],
    *,
    tiebreak_names: Sequence[str],
    width: int = WIDTH,
    tiebreak_columns: bool = True,
    words: Words = Words(),
) -> str:
    """The crosstable (see the module's docstring): the standings in order, each with its rounds.
    ``entrants`` are those of the standings (the crosstable takes names from the standings)."""
    layout = Layout.fit(standings, tiebreak_names if tiebreak_columns else (), width, words)
    arena = tuple(tiebreak_names) == ARENA_TIEBREAKS
    ranks = {s.user_id: s.rank for s in standings}
    scores = (
        arena_scores([r for g in pairings if not g.is_bye and g.result is not None for r in both_results(g)])
        if arena
        else {}
    )
    rounds = last_round(pairings)
    index = by_player(pairings)
    lines = [layout.heading()]
    for s in standings:
        lines.append(layout.row(s))
        if arena:
            cells = [str(points) for points in scores.get(s.user_id, [])]
        else:
            mine = rounds_of(index.get(s.user_id, []), rounds)
            cells = [cell(p, s.user_id, ranks, layout.rank_width) for p in mine]
        lines += wrap(cells, width, indent=" " * (layout.rank_width + 1))
    legend = [f"{ABBREVIATIONS.get(n, initials(n))} {words.tiebreaks.get(n, n)}" for n in layout.shown]
    lines += wrap(legend, width, separator=", ")
    lines += wrap(words.arena_key.split(), width) if arena else wrap(words.key, width, separator=", ")
    return "\n".join(line.rstrip() for line in lines)


@dataclass(frozen=True)
class Layout:
    """The columns of the standing lines: rank, name, points, and the tie-breaks that fit."""

    width: int
    rank_width: int
    points_width: int
    #: Each shown tie-break: its heading and its column's width.
    tiebreaks: tuple[tuple[str, int], ...]
    #: The names of the shown tie-breaks.
    shown: tuple[str, ...]
    words: Words = Words()

    @classmethod
    def fit(cls, standings: Sequence[Standing], names: Sequence[str], width: int, words: Words) -> Layout:
        """Every tie-break column that leaves the names :data:`MIN_NAME` columns, from the first,
        on lines of ``width`` columns."""
        rank_width = len(str(max((s.rank for s in standings), default=1)))
        points_width = max([display_width(words.points)] + [len(number_text(s.points)) for s in standings])
        columns = []
        for index, name in enumerate(names):
            heading = ABBREVIATIONS.get(name, initials(name))
            values = [number_text(s.tiebreaks[index]) for s in standings if index < len(s.tiebreaks)]
            columns.append((heading, max(len(v) for v in [heading, *values])))
        while columns and cls(width, rank_width, points_width, tuple(columns), ()).name_width < MIN_NAME:
            columns.pop()
        return cls(width, rank_width, points_width, tuple(columns), tuple(names[: len(columns)]), words)

    @property
    def name_width(self) -> int:
        return self.width - self.rank_width - self.points_width - 2 - sum(width + 1 for _, width in self.tiebreaks)

    def line(self, rank: str, name: str, points: str, tiebreaks: Sequence[str]) -> str:
        cells = [f"{rank:>{self.rank_width}}", fit(name, self.name_width), f"{points:>{self.points_width}}"]
        cells += [f"{text:>{width}}" for text, (_, width) in zip(tiebreaks, self.tiebreaks, strict=False)]
        return " ".join(cells)

    def heading(self) -> str:
        return self.line("#", self.words.name, self.words.points, [heading for heading, _ in self.tiebreaks])

    def row(self, standing: Standing) -> str:
        tiebreaks = [number_text(value) for value in standing.tiebreaks]
        return self.line(str(standing.rank), standing.name, number_text(standing.points), tiebreaks)


def rounds_of(mine: Sequence[Pairing], rounds: int) -> list[Pairing | None]:
    """A player's pairing in each round 1 to ``rounds`` (``None``: not paired), from ``mine``."""
    by_round = {p.round: p for p in mine}
    return [by_round.get(number) for number in range(1, rounds + 1)]


def cell(pairing: Pairing | None, user: int, ranks: dict[int, int], rank_width: int) -> str:
    """One round of a player: the opponent's rank and the result's symbol.

    >>> cell(Pairing(1, 5, 6, 0.0), 6, {5: 12}, 2), cell(Pairing(2, 5, None), 5, {}, 2), cell(None, 5, {}, 2)
    ('12+', ' B+', '  .')
    >>> cell(Pairing(3, 5, 6, 1.0, forfeit=True), 5, {6: 3}, 2), cell(Pairing(4, 5, 6), 6, {5: 1}, 1)
    (' 3>', '1*')
    """
    if pairing is None:
        return " " * rank_width + "."
    opponent = pairing.opponent_of(user)
    who = "B" if opponent is None else str(ranks.get(opponent, "?"))
    points = pairing.points_of(user)
    if points is None:
        symbol = "*"
    elif opponent is None:
        symbol = "+"
    else:
        symbol = (PLAYED if pairing.played else FORFEITED).get(points, "?")
    return f"{who:>{rank_width}}{symbol}"


def wrap(cells: Sequence[str], width: int = WIDTH, *, indent: str = "", separator: str = " ") -> list[str]:
    """``cells`` joined by ``separator`` on lines of at most ``width`` columns, each indented
    (a line broken after a ``", "`` keeps its comma, and the room for it).

    >>> wrap(["12+", " 3=", " 7-"] * 4, indent="   ")
    ['   12+  3=  7- 12+  3=  7- 12+  3=  7-', '   12+  3=  7-']
    """
    end = separator.rstrip()
    lines: list[str] = []
    line, used = "", 0
    for text in cells:
        size = display_width(text)
        if line and used + len(separator) + size + len(end) > width:
            lines.append(line + end)
            line = ""
        if line:
            line, used = line + separator + text, used + len(separator) + size
        else:
            line, used = indent + text, len(indent) + size
    return [*lines, line] if line else lines


def number_text(value: float) -> str:
    """A number as short as it can be written: halves and quarters as ``½ ¼ ¾``, else rounded.

    >>> [number_text(v) for v in (0.0, 0.5, 3.0, 3.5, 12.25, 2.75, 1867.0, 4.4, -1.5)]
    ['0', '½', '3', '3½', '12¼', '2¾', '1867', '4', '-1½']
    """
    if value < 0:
        return "-" + number_text(-value)
    whole, part = divmod(value, 1)
    if part not in FRACTIONS:
        return str(round(value))
    return (str(int(whole)) if whole or not part else "") + FRACTIONS[part]


def initials(name: str) -> str:
    """A heading for a tie-break without an abbreviation: its words' initials.

    >>> initials("Average rating of opponents")
    'Aroo'
    """
    words = name.split()
    return words[0][:1].upper() + "".join(word[:1] for word in words[1:])


def clean(name: str) -> str:
    """A name as a code block can show it, on one line: white space of any kind (newlines, tabs)
    becomes one space; control and format characters go; a backtick becomes ``'``.

    >>> clean("  Ama\\n\\tMensah ``x`` \\u202e")
    "Ama Mensah ''x''"
    """
    kept = "".join(" " if c.isspace() else c for c in name if c.isspace() or unicodedata.category(c) not in DROPPED)
    return " ".join(kept.replace("`", "'").split())


def char_width(c: str) -> int:
    """The columns a monospace font gives a character: 0 for combining marks, 2 for wide ones."""
    if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me"):
        return 0
    return 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1


def display_width(text: str) -> int:
    return sum(char_width(c) for c in text)


def fit(name: str, width: int) -> str:
    r"""``name`` cleaned, cut to ``width`` columns with ``…`` if it is longer, padded to ``width``.

    >>> [fit(n, 6) for n in ("Ama", "Kwabena Mensah", "李小龍李小龍", "a\u202eb`\n")]
    ['Ama   ', 'Kwabe…', '李小… ', "ab'   "]
    >>> fit("e\u0301e\u0301", 3) == "e\u0301e\u0301 "  # é written e and a combining accent
    True
    """
    text = clean(name)
    if display_width(text) > width:
        kept = ""
        for c in text:
            if display_width(kept + c) > width - 1:
                break
            kept += c
        text = kept + "…"
    return text + " " * (width - display_width(text))
