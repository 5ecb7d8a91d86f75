"""Values of every legal move of a position: the search and the tables behind the puzzles.

A move's :class:`Value` is what the position is worth to the player who made it once the move is
played and both sides then play on well: the compiled expert search of the position after the move
(with a node budget, so it is deterministic), or the endgame tables' exact final margin where the
position is in them. Scores are the search's: about 4 a seed ahead for an estimate, ``±1000 +
margin`` for a won or lost game (:data:`bot.ai.search.WIN`).

A position is a *puzzle* when one move's value beats every other move's by a margin
(:func:`unique_best`): by :data:`SEARCH_MARGIN` seeds where the values are searched, by
:data:`EXACT_MARGIN` where both are exact, or by a change of result (a win against no win, a
draw against a loss).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.engine import Game
from bot.engine.core import CompiledMachine, Machine, State, _core, machine_for

from ..search import WIN, final_score
from ..tables import Table

#: Seeds by which the solution's searched value must beat every other move's.
SEARCH_MARGIN = 3
#: The same where both values are exact (tables or a proven search): exact values do not move.
EXACT_MARGIN = 2
#: A move whose estimate is at most this many seeds ahead is "no win" against a proven win (and
#: one at most this many behind "no loss" against a proven loss).
NO_WIN_ESTIMATE = 4
#: Scores beyond this are won or lost games (a found win may be a lower bound of its margin).
DECIDED = WIN - 100


@dataclass(frozen=True)
class Value:
    """A move's worth to the player who made it."""

    #: The search's score (about 4 a seed; ``±WIN + margin`` for a decided game, 0 a draw).
    score: int
    #: Proven (tables, a finished game, or a search that reached every end).
    exact: bool
    #: The best line after the move (the opponent's reply first, unless the mover plays again).
    line: tuple[int, ...] = ()
    #: "tables", "search" or "end" (the move ends the game).
    source: str = "search"

    @property
    def result(self) -> int:
        """1 a win, -1 a loss, 0 a draw or an estimate."""
        if self.score > DECIDED:
            return 1
        if self.score < -DECIDED:
            return -1
        return 0

    @property
    def seeds(self) -> float:
        """The value in seeds: the final margin of a decided game, else the estimate over 4."""
        if self.result:
            return self.score - WIN * self.result
        return self.score / 4


def compiled_machine(game: Game) -> CompiledMachine:
    machine = machine_for(game.rules)
    if not isinstance(machine, CompiledMachine) or _core is None:
        raise RuntimeError("puzzles need the compiled core (pip install -e . with a C compiler)")
    return machine


def state_value(
    machine: Machine, state: State, mover: int, history: Iterable[State], nodes: int, table: Table | None
) -> Value:
    """The value of ``state`` for ``mover`` (who may or may not be the one to move there).

    ``history`` holds the states before it on the way (a repetition of one of them ends the game).
    """
    assert _core is not None and isinstance(machine, CompiledMachine)
    path = list(history)
    forced: list[int] = []
    while True:
        if machine.majority(state):
            return Value(final_score(machine, state, mover), True, tuple(forced), "end")
        if machine.rules.detects_cycles and state in path:
            return Value(final_score(machine, machine.share_rows(state), mover), True, tuple(forced), "end")
        moves = machine.legal(state)
        if not moves:
            return Value(final_score(machine, machine.settle(state), mover), True, tuple(forced), "end")
        if len(moves) > 1:
            break
        # One legal move: play it (the search answers no score for a single move).
        path.append(state)
        forced.append(moves[0] + 1)
        state = machine.play(state, moves[0])[0]
    sign = 1 if state[machine.turn] == mover else -1
    if table is not None and sum(state[: machine.pits]) <= table.seeds and not state[machine.extra]:
        exact = table.value(state)
        if exact is not None:
            score = 0 if exact == 0 else (WIN + exact if exact > 0 else -WIN + exact)
            return Value(sign * score, True, tuple(forced), "tables")
    known = (table.data, table.seeds) if table else ()
    _, _, score, pv, _, exact = _core.search(*machine.key, state, path, 1e9, nodes, 64, None, *known)
    return Value(sign * score, bool(exact), (*forced, *pv), "search")  # the core's line is in houses already


def move_values(game: Game, nodes: int, table: Table | None = None, history: Sequence[State] = ()) -> dict[int, Value]:
    """Every legal move of ``game`` and its value for the player to move, each searched with ``nodes``."""
    machine = compiled_machine(game)
    state, mover = game.state, game.state[machine.turn]
    before = [*history, state]
    values = {}
    for house in game.legal_moves:
        after = machine.play(state, house - 1)[0]
        values[house] = state_value(machine, after, mover, before, nodes, table)
    return values


def unique_best(values: dict[int, Value]) -> int | None:
    """The move that beats every other by the margin (see the module), or ``None``."""
    if len(values) < 2:
        return None
    ranked = sorted(values, key=lambda house: values[house].score, reverse=True)
    best = values[ranked[0]]
    for house in ranked[1:]:
        if not beats(best, values[house]):
            return None
    return ranked[0]


def beats(best: Value, other: Value) -> bool:
    """Whether ``best`` is clearly better than ``other``: by a result or by the margin."""
    if best.result == 1 and other.result < 1:
        # A proven win against no win: the other must not be a win beyond its horizon either.
        return other.exact or other.result == -1 or other.seeds <= NO_WIN_ESTIMATE
    if best.result == 0 and other.result == -1:
        # A draw or an estimate against a loss: the estimate must not be a loss beyond its horizon
        # either (oware-0089 and oware-0900 were "saved" by moves that lose as well).
        return best.exact or best.seeds >= -NO_WIN_ESTIMATE
    if best.result < other.result:
        return False
    margin = EXACT_MARGIN if best.exact and other.exact else SEARCH_MARGIN
    if best.result == 1 and other.result == 1 and not other.exact:
        return False  # a win's margin found at a horizon may still grow
    if best.result == -1 and not best.exact:
        return False  # a loss's margin found at a horizon may still grow (oware-0089)
    return best.seeds - other.seeds >= margin


def margin_over_rest(values: dict[int, Value], best: int) -> float:
    """Seeds by which ``best`` beats the next move (results compared first, 99 for a result change)."""
    rest = [value for house, value in values.items() if house != best]
    if not rest:
        return 0.0
    top = max(rest, key=lambda value: value.score)
    if values[best].result != top.result:
        return 99.0
    return values[best].seeds - top.seeds


def first_stable_depth(game: Game, solution: int, most: int = 12, nodes: int = 1_000_000) -> int:
    """The search depth from which the plain search (no tables) picks ``solution`` at every depth up
    to ``most``; ``most + 1`` if it never settles within the budget."""
    machine = compiled_machine(game)
    assert _core is not None
    if len(game.legal_moves) < 2:
        return 1
    stable = most + 1
    picks: list[int] = []
    for depth in range(1, most + 1):
        move, reached, _, _, _, exact = _core.search(*machine.key, game.state, [], 1e9, nodes, depth, None)
        if reached < depth and not exact:
            break  # out of nodes: deeper depths unknown
        picks.append(move + 1)
        if exact:
            break
    for depth in range(len(picks), 0, -1):
        if picks[depth - 1] != solution:
            break
        stable = depth
    return stable
