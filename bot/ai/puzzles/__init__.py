"""Puzzles found in the project's own games: a position, one clearly best line, a goal and a theme.

A puzzle is a position (the *solver* to move) where one move wins, or wins clearly more seeds than
any other, verified by the endgame tables or by a deep search with a margin (see
:mod:`.solver` and ``docs/puzzles.md``). Its solution alternates the solver's moves with the
opponent's best replies (in Kalah a move ending in the store is followed by the solver's next
move), solver first, one to three solver moves.

>>> puzzle = puzzle_by_id("wari-0001")
>>> puzzle.game().to_move.name in "AB"
True
>>> step = puzzle.check(puzzle.solution[:1])
>>> step.correct
True

The shipped puzzles live in ``data/<variant>.txt`` beside this module, one line each (see
:func:`parse_line`); ``python -m bot.ai.puzzles build`` finds more (:mod:`.generate`).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path
from typing import NamedTuple

from bot.engine import VARIANTS, Game
from bot.engine.notation import from_position

__all__ = [
    "DATA_DIR",
    "GOALS",
    "THEMES",
    "Goal",
    "Puzzle",
    "Refutation",
    "Step",
    "daily",
    "explain",
    "format_line",
    "parse_line",
    "pick",
    "puzzle_by_id",
    "puzzles_for",
    "refutation",
]

#: Where the shipped puzzle files are: ``<variant>.txt``.
DATA_DIR = Path(__file__).resolve().parent / "data"

#: The goal kinds, for the Discord side to translate (``n`` is the goal's number of seeds).
GOALS = {
    "win": "win the game by at least n seeds (proven by the tables or a complete search)",
    "draw": "save the game: every other move loses (proven); n is 0",
    "capture": "capture at least n seeds with your moves of the line",
    "best": "find the best move: every other move is at least n seeds worse",
}

#: The themes, one main theme a puzzle, in the order the generator tries them.
THEMES = {
    "extra_turn": "Kalah: the solution's first move ends in your own store and you move again",
    "feeding": "the opponent has no seeds: the move must feed them, and only one feeds well",
    "grand_slam": "the grand-slam rule matters: the best move avoids (or in Ouril and Awari makes) a grand slam",
    "starving": "the line leaves the opponent without a move, or forces them to run out of seeds",
    "multiple_capture": "one sowing of the line captures from several houses",
    "endgame": "few seeds left, counted exactly by the endgame tables or a complete search",
    "capture": "the line wins seeds by capturing",
    "defense": "a quiet move: the only one that does not lose seeds",
}


class Goal(NamedTuple):
    """What the solver aims for: a kind of :data:`GOALS` and a number of seeds."""

    kind: str
    seeds: int

    def __str__(self) -> str:
        return f"{self.kind}:{self.seeds}"

    @classmethod
    def parse(cls, text: str) -> Goal:
        kind, _, seeds = text.partition(":")
        if kind not in GOALS:
            raise ValueError(f"unknown goal {text!r}")
        return cls(kind, int(seeds or 0))


@dataclass(frozen=True)
class Step:
    """The answer of :meth:`Puzzle.check` to the solver's moves so far."""

    #: Every solver move so far is the solution's.
    correct: bool
    #: The whole line has been played.
    solved: bool
    #: The opponent's moves to play now, before the solver's next one (the solution's replies:
    #: one house, or more when a Kalah reply ends in the opponent's store); empty when solved or wrong.
    replies: tuple[int, ...] = ()
    #: When the last move was wrong: the move the solution wanted there.
    expected: int | None = None

    @property
    def reply(self) -> int | None:
        """The opponent's next move, if any."""
        return self.replies[0] if self.replies else None


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: a position, its solution line, goal, theme and difficulty (Glicko-style)."""

    id: str
    position: str
    #: Houses, solver first; the owner of each house says who plays it.
    solution: tuple[int, ...]
    goal: Goal
    theme: str
    difficulty: int
    #: Search depth from which the plain search settles on the first move (the difficulty's base).
    depth: int = 0
    #: Seeds by which the first move beats the next best (99: a change of result).
    margin: float = 0.0
    #: How the first move was verified: ``tables`` or ``search`` (with the generator's budget).
    verified: str = "search"

    @property
    def variant(self) -> str:
        return self.position.split()[1].partition("/")[0]

    @property
    def solver(self) -> int:
        """0 when A is to move (and solves), 1 for B."""
        return 0 if self.position.split()[4].startswith("A") else 1

    def game(self) -> Game:
        """A fresh game at the puzzle's position (no history)."""
        return from_position(self.position)

    def solver_moves(self) -> tuple[int, ...]:
        """The solution's moves for the solver only."""
        game = self.game()
        return tuple(house for house in self.solution if game.rules.owner(house) == self.solver)

    def check(self, played: Sequence[int]) -> Step:
        """Judge the solver's moves so far (the opponent's replies come from the solution).

        :raises ValueError: when ``played`` goes on past a wrong move or past the solution's end.
        """
        owner = self.game().rules.owner
        index = 0
        for number, house in enumerate(played):
            while index < len(self.solution) and owner(self.solution[index]) != self.solver:
                index += 1  # an opponent reply, played for them
            if index == len(self.solution):
                raise ValueError(f"the solution has only {number} moves for the solver")
            if house != self.solution[index]:
                if number != len(played) - 1:
                    raise ValueError("moves after a wrong one")
                return Step(False, False, (), self.solution[index])
            index += 1
        replies = []
        while index < len(self.solution) and owner(self.solution[index]) != self.solver:
            replies.append(self.solution[index])
            index += 1
        if index == len(self.solution):
            return Step(True, True, ())
        return Step(True, False, tuple(replies))

    def line_before(self, played_before: Sequence[int]) -> list[int]:
        """The solution's moves (both sides) up to the solver's next move after ``played_before``."""
        step = self.check(played_before)
        if not step.correct:
            raise ValueError("played_before must follow the solution")
        owner = self.game().rules.owner
        line: list[int] = []
        solver_moves = 0
        for house in self.solution:
            if owner(house) == self.solver:
                if solver_moves == len(played_before):
                    break
                solver_moves += 1
            line.append(house)
        return line


# -- the data files -----------------------------------------------------------------------------


def format_line(puzzle: Puzzle) -> str:
    """One line of a data file: id, position, solution, goal, theme, difficulty, depth, margin,
    verification, separated by tabs."""
    return "\t".join(
        (
            puzzle.id,
            puzzle.position,
            ",".join(map(str, puzzle.solution)),
            str(puzzle.goal),
            puzzle.theme,
            str(puzzle.difficulty),
            str(puzzle.depth),
            f"{puzzle.margin:g}",
            puzzle.verified,
        )
    )


def parse_line(line: str) -> Puzzle:
    """The :class:`Puzzle` of one data line (:func:`format_line`)."""
    fields = line.rstrip("\n").split("\t")
    if len(fields) != 9:
        raise ValueError(f"a puzzle line has 9 tab-separated fields, not {len(fields)}: {line!r}")
    ident, position, solution, goal, theme, difficulty, depth, margin, verified = fields
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}")
    return Puzzle(
        ident,
        position,
        tuple(int(house) for house in solution.split(",")),
        Goal.parse(goal),
        theme,
        int(difficulty),
        int(depth),
        float(margin),
        verified,
    )


def data_file(variant: str) -> Path:
    return DATA_DIR / f"{variant}.txt"


def read_file(path: Path) -> tuple[Puzzle, ...]:
    if not path.exists():
        return ()
    with open(path, encoding="utf-8") as handle:
        return tuple(parse_line(line) for line in handle if line.strip() and not line.startswith("#"))


@cache
def puzzles_for(variant: str) -> tuple[Puzzle, ...]:
    """The shipped puzzles of ``variant`` in file order (empty for a variant without any)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}: choose one of {', '.join(VARIANTS)}")
    return read_file(data_file(variant))


@cache
def _by_id(variant: str) -> dict[str, Puzzle]:
    return {puzzle.id: puzzle for puzzle in puzzles_for(variant)}


def puzzle_by_id(ident: str) -> Puzzle | None:
    """The shipped puzzle with this id (``wari-0042``), or ``None``."""
    variant = ident.partition("-")[0]
    if variant not in VARIANTS:
        return None
    return _by_id(variant).get(ident)


# -- choosing -----------------------------------------------------------------------------------

#: Width of a difficulty band for :func:`pick`.
BAND = 100


def pick(
    puzzles: Sequence[Puzzle], rating: float, rng: random.Random, exclude: Collection[str] = frozenset()
) -> Puzzle:
    """A puzzle near ``rating``: from the nearest band of :data:`BAND` points holding one not in
    ``exclude`` (ids), at random within it.

    :raises LookupError: when every puzzle is excluded (or there are none).
    """
    bands: dict[int, list[Puzzle]] = {}
    for puzzle in puzzles:
        if puzzle.id not in exclude:
            bands.setdefault(puzzle.difficulty // BAND, []).append(puzzle)
    if not bands:
        raise LookupError("no puzzle left to pick")
    wanted = rating / BAND - 0.5  # the band whose centre is nearest
    nearest = min(bands, key=lambda band: (abs(band - wanted), band))
    return rng.choice(bands[nearest])


#: The daily puzzle's rating by weekday: easy on Monday, hardest on Sunday.
DAILY_RATINGS = (1000, 1150, 1300, 1450, 1600, 1750, 1900)


def daily(variant: str, day: date) -> Puzzle:
    """The puzzle of the day for ``variant``: the same for a given date and set of puzzles."""
    puzzles = puzzles_for(variant)
    digest = hashlib.sha256(f"{variant}:{day.isoformat()}".encode()).digest()
    return pick(puzzles, DAILY_RATINGS[day.weekday()], random.Random(int.from_bytes(digest[:8], "big")))


# -- wrong moves --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Refutation:
    """What a wrong move costs: the best line after it and the seeds lost against the solution."""

    #: The moves after the wrong one, best play by both (the opponent's reply first, unless the
    #: wrong move gave the solver another turn), as far as the opponent's first capture and at
    #: most :data:`TOLD_PLIES` of them: what a player reads on a phone.
    line: tuple[int, ...]
    #: Seeds the wrong move gives away against the solution's move (searched; at least 0).
    cost: int
    #: Seeds the opponent captures at the end of ``line`` (0 if it ends without a capture).
    captured: int


#: The most moves a refutation tells: a reply and its follow-up, twice.
TOLD_PLIES = 4
#: The node budget of :func:`refutation`: about 0.05 s of search a move.
REFUTATION_NODES = 150_000


def explain(
    puzzle: Puzzle, played_before: Sequence[int], wrong_house: int, nodes: int = REFUTATION_NODES
) -> Refutation:
    """The refutation of ``wrong_house``, played after the solver's correct ``played_before``."""
    from bot.engine.core import machine_for

    from ..tables import Table
    from .solver import Value, state_value

    game = puzzle.game()
    history = [game.state]
    for house in puzzle.line_before(played_before):
        game.play(house)
        history.append(game.state)
    if not game.is_legal(wrong_house):
        raise ValueError(f"house {wrong_house} is not a legal move here: {game.why_illegal(wrong_house)}")
    table = Table.for_variant(game.rules.name)
    machine = machine_for(game.rules)
    solver = puzzle.solver

    def value_of(house: int) -> Value:
        after = machine.play(game.state, house - 1)[0]
        return state_value(machine, after, solver, history, nodes, table)

    right = puzzle.solution[len(puzzle.line_before(played_before))]
    wrong_value, right_value = value_of(wrong_house), value_of(right)
    trial = game.copy()
    trial.play(wrong_house)
    line, replay, captured = [], trial, 0
    for house in _legal_prefix(trial.copy(), wrong_value.line)[:TOLD_PLIES]:
        record = replay.play(house)
        line.append(house)
        if record.player != solver and record.captured:  # the punishment: told, and the line ends
            captured = record.captured
            break
    cost = max(0, round(right_value.seeds - wrong_value.seeds))
    return Refutation(tuple(line), cost, captured)


def refutation(
    puzzle: Puzzle, played_before: Sequence[int], wrong_house: int, nodes: int = REFUTATION_NODES
) -> tuple[int, ...]:
    """The best line after the wrong move ``wrong_house`` (see :func:`explain`, which also says
    what it costs)."""
    return explain(puzzle, played_before, wrong_house, nodes).line


def _legal_prefix(game: Game, line: Sequence[int]) -> tuple[int, ...]:
    """The longest start of ``line`` that is legal from ``game`` (a search's line may stop early)."""
    trial, kept = game.copy(), []
    for house in line[:8]:
        if not trial.is_legal(house):
            break
        trial.play(house)
        kept.append(house)
    return tuple(kept)
