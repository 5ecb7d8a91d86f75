"""``expert``: iterative-deepening alpha-beta (negamax) with a transposition table.

It searches raw states (:mod:`bot.engine.core`) until its time budget runs out and plays the
best move of the deepest completed iteration. What makes it strong:

- **Move ordering**: the transposition table's best move first, then captures (largest
  first), then the rest by the seeds they sow; in C also the killers (quiet moves that cut
  off at the same ply) and the history (quiet moves that cut off anywhere) before the rest.
- **Reductions** (in C): late quiet moves are searched a ply or two shallower first, and in
  full only if they look better than the best so far.
- **A kept table** (in C): a search on a clock leaves its transposition table to the next one,
  which starts a ply or so deeper (a value that rests on a repetition of the game's history
  goes to it only as a move to try first: that history has changed); its entries come in pairs
  (**buckets**), one keeping the deepest result of the current search, the other the newest, so
  deep results are not lost to the many shallow ones written after them.
- **Cycles** (in C): a value that rests on a repetition of a position higher up the line
  searched belongs to that line; another line reaching the same position takes only its move
  from the table.

  :data:`TECHNIQUES` names these techniques; each was kept because a match showed it gains
  (``python -m bot.ai.tune match --a-without ...``; cycles, against Aalina at 1 s and 3 s a move),
  where principal-variation search and aspiration windows did not.
- **Transposition table** keyed by the state tuple, storing depth, bound type and best move.
- **Evaluation** (from the mover's side): captured-seed margin, with smaller terms for seeds
  on one's own side (material in play, the Kalah end sweep), mobility, and houses of 12+
  seeds (a *kroo*, the classic build-up that captures on the second lap), and vulnerable
  houses of 1-2 seeds on the opponent's side that a last seed can turn into a capture. That is
  the hand-set evaluation; a weighted sum of :data:`FEATURES` (weights fitted by :mod:`.tune`
  to what deeper searches say, kept in ``weights.json``) replaces it where the file says so:
  ten named features, then house tables (what so many seeds in a given house are worth).
- **Opening book** (:mod:`.book`): in the first plies of oware and wari, the move a search
  of millions of nodes chose, played at once.
- **Endgame tables** (:mod:`.tables`): where the position is in them, the move comes from
  there, exact in result and margin, without a search; inside the (compiled) search, a position
  in them is a leaf with its exact value.
- **Exact endgames**: game ends are scored as ±1000 + margin. The search stops early only when
  an iteration reached the end of every line (no estimate anywhere under the root): then the
  score is the game's value, margin included. A win found before that is a lower bound (the
  margin may grow deeper), so the search goes on looking for a larger one.

Repetitions are handled along the search path (a repeated position ends the game as in the
rules); the table ignores the path, the usual approximation.

The search runs in C (``bot/engine/_core.c``, about 2-4 million nodes a second) when the
extension was built; the class :class:`_Search` below is the same algorithm in Python, the
readable reference and the fallback, without the pruning techniques.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

from bot.engine import Game
from bot.engine.core import CompiledMachine, Machine, State, _core, machine_for

from .base import Decision, Progress, Strategy
from .book import Book
from .search import ended, final_score
from .tables import Table, best_move

EXACT, LOWER, UPPER = 0, 1, 2
INFINITY = 10**6
#: Game ends score +-WIN + margin; evaluations stay strictly inside.
WIN = 1000
#: How many capture-only plies the search follows past its horizon.
QUIESCENCE_PLIES = 6


#: The evaluation's named features, for the player to move (see :func:`features`)...
NAMED = ("margin", "seeds", "kroo", "weak", "mobility", "empty", "reach", "capture", "threat", "back")
#: ... then its house tables, in rows of this many houses: a feature for each house of each
#: row (the mover's, then the other's, each from its first house) and each count of seeds in it,
#: up to this many or more...
TABLE_HOUSES, TABLE_SEEDS = 6, 12
#: ... named ``own 1=0`` to ``own 6=12+``, then ``theirs 1=0`` to ``theirs 6=12+``.
FEATURES = NAMED + tuple(
    f"{side} {house}={seeds}{'+' if seeds == TABLE_SEEDS else ''}"
    for side in ("own", "theirs")
    for house in range(1, TABLE_HOUSES + 1)
    for seeds in range(TABLE_SEEDS + 1)
)
#: Weights are kept in 1/64 of a quarter seed (integers: the C core computes the same sum).
WEIGHT_ONE = 64
#: The compiled search's techniques, as bits of ``search``'s ``techniques`` in ``_core.c``.
TECHNIQUES = {"killers": 1, "history": 2, "reductions": 4, "keep": 8, "buckets": 16, "cycles": 32}
#: What an expert can be asked to play without: a technique, or its opening book.
OPTIONAL = (*TECHNIQUES, "book")
#: The weights file :mod:`.tune` writes: which set the expert plays, and the fitted sets.
WEIGHTS_PATH = Path(__file__).with_name("weights.json")
#: A variant's weights as the search takes them (``None``: the hand-set evaluation).
Weights = tuple[int, ...] | None


class OutOfTime(Exception):
    pass


def load_weights(path: Path | None = None) -> dict:
    """The weights file: ``{"default": {variant: "hand" | "tuned"}, "tuned": {variant: [floats]}, ...}``
    (``default`` may also be one choice for every variant; a variant it leaves out is hand-set).
    A file from before the house tables, of the named features alone, reads with the tables at 0:
    the evaluation it was fitted for."""
    path = path or WEIGHTS_PATH
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise FileNotFoundError(
            f"the expert's weights file {path} is missing (python -m bot.ai.tune fit writes it)"
        ) from None
    if data.get("features") == list(NAMED):
        tables = [0.0] * (len(FEATURES) - len(NAMED))
        data["tuned"] = {variant: [*values, *tables] for variant, values in data.get("tuned", {}).items()}
        data["features"] = list(FEATURES)
    if data.get("features") != list(FEATURES):
        raise ValueError(f"{path}: its features {data.get('features')} are not the expert's {list(FEATURES)}")
    return data


def weights_for(variant: str, choice: str = "default", path: Path | None = None) -> Weights:
    """The weights the expert plays ``variant`` with: ``choice`` is ``"default"`` (what the file
    names), ``"hand"`` (the hand-set evaluation) or ``"tuned"`` (the fitted set, if any)."""
    if choice == "hand":
        return None
    data = load_weights(path)
    if choice == "default":
        default = data.get("default", "hand")
        choice = default.get(variant, "hand") if isinstance(default, dict) else default
    if choice == "hand":
        return None
    if choice != "tuned":
        raise ValueError(f"weights are default, hand or tuned, not {choice!r}")
    values = data.get("tuned", {}).get(variant)
    if values is None:
        return None  # no fitted set for this variant (Kalah, say): the hand-set evaluation
    if len(values) != len(FEATURES):
        raise ValueError(f"weights for {variant}: {len(FEATURES)} numbers, not {len(values)}")
    return tuple(round(WEIGHT_ONE * float(value)) for value in values)


class ExpertPlayer(Strategy):
    name = "expert"
    summary = "iterative-deepening alpha-beta with a transposition table; exact in endgames it can see"

    def __init__(
        self,
        seed: int | None = None,
        *,
        max_depth: int = 64,
        max_nodes: int | None = None,
        weights: str = "default",
        without: frozenset[str] = frozenset(),
        weights_file: Path | None = None,
    ) -> None:
        super().__init__(seed)
        self.max_depth = max_depth
        #: With a node budget instead of a clock, the search is fully deterministic.
        self.max_nodes = max_nodes
        #: Which evaluation: ``"default"`` (as ``weights.json`` says), ``"hand"`` or ``"tuned"``...
        self.weights = weights
        #: ... from this weights file (``None``: the project's, :data:`WEIGHTS_PATH`).
        self.weights_file = weights_file
        unknown = without - set(OPTIONAL)
        if unknown:
            raise ValueError(f"an expert cannot play without {', '.join(sorted(unknown))} (only {', '.join(OPTIONAL)})")
        #: The compiled search's techniques in use: all but those named in ``without``.
        self.techniques = sum(bit for name, bit in TECHNIQUES.items() if name not in without)
        #: Whether the opening book answers where it can.
        self.book = "book" not in without

    def choose(self, game: Game, seconds: float = 1.0, progress: Progress | None = None) -> Decision:
        began = time.perf_counter()
        known = best_move(game)  # endgame tables first: an exact answer at once
        if known is not None:
            return replace(known, seconds=time.perf_counter() - began)
        book = Book.for_variant(game.rules.name) if self.book else None
        if book is not None and (opening := book.move(game)) is not None:
            house = opening.house
            return Decision(
                house, opening.depth, opening.score, (house,), seconds=time.perf_counter() - began, notes={"book": True}
            )
        machine = machine_for(game.rules)
        weights = weights_for(game.rules.name, self.weights, self.weights_file)
        # The search gets what is left: a first move also opens the tables and the book.
        left = max(0.0, seconds - (time.perf_counter() - began))
        if isinstance(machine, CompiledMachine):
            decision = compiled_search(
                machine, game, left, self.max_nodes, self.max_depth, progress, weights, self.techniques
            )
        else:
            decision = _Search(machine, game.seen_positions, left, self.max_nodes, progress, weights).run(
                game.state, self.max_depth, game.legal_moves
            )
        return replace(decision, seconds=time.perf_counter() - began)


def compiled_search(
    machine: CompiledMachine,
    game: Game,
    seconds: float,
    max_nodes: int | None,
    max_depth: int,
    progress: Progress | None,
    weights: Weights = None,
    techniques: int = sum(TECHNIQUES.values()),
) -> Decision:
    """The same search as :class:`_Search`, run by the C core (see ``search`` in ``_core.c``)."""
    began = time.perf_counter()
    legal = game.legal_moves
    if len(legal) == 1:
        return Decision(legal[0], 0, 0.0, (legal[0],), seconds=time.perf_counter() - began)
    budget = 1e9 if max_nodes is not None else seconds
    table = Table.for_variant(game.rules.name)  # positions in the tables are not searched
    known = (table.data, table.seeds) if table else (None, -1)
    assert _core is not None  # there is a CompiledMachine only where the core was built
    move, depth, score, pv, nodes, exact = _core.search(
        *machine.key,
        game.state,
        game.seen_positions,
        budget,
        max_nodes or 0,
        max_depth,
        progress,
        *known,
        weights,
        techniques,
    )
    return Decision(move + 1, depth, score, pv, nodes, time.perf_counter() - began, exact)


def threat(m: Machine, state: State, player: int) -> int:
    """The seeds ``player``'s last seed would take if ``player`` moved now, at best: sowings of
    less than a lap, houses of 1-2 seeds it makes 2-3, walking back (the ``capture`` and
    ``threat`` features; grand slams and must-feed aside)."""
    best, opponent = 0, m.rows[1 - player]
    for i in m.rows[player]:
        k = state[i]
        if not k or k >= m.pits - 1:
            continue
        last, taken = (i + k) % m.pits, 0
        if last not in opponent:
            continue
        while last >= opponent.start and state[last] in (1, 2):
            taken += state[last] + 1
            last -= 1
        best = max(best, taken)
    return best


def features(m: Machine, state: State, mobility: int) -> list[int]:
    """The evaluation's :data:`FEATURES` for the player to move, who has ``mobility`` moves.

    margin (captured seeds, own less the opponent's), seeds on the board, kroos (houses of 12+),
    weak houses (1-2 seeds: the opponent's less one's own), mobility, empty houses (the
    opponent's less one's own), houses that reach the opponent's row, the best capture now, the
    opponent's best capture if they moved now, and seeds in the back half of the row (far from
    the opponent). Each "own less the opponent's" but the three counts of the mover alone. Then,
    on a board of :data:`TABLE_HOUSES` houses a row, the house tables: 1 for each house's count
    of seeds (its weight says what that many seeds there are worth), 0 for the other counts.
    """
    f = named_features(m, state, mobility) + [0] * (len(FEATURES) - len(NAMED))
    for index in table_features(m, state):
        f[index] = 1
    return f


def named_features(m: Machine, state: State, mobility: int) -> list[int]:
    """The first :data:`NAMED` of :func:`features`."""
    mover = state[m.turn]
    f = [0] * len(NAMED)
    f[0] = state[m.store[mover]] - state[m.store[1 - mover]]
    f[4] = mobility
    for player, sign in ((mover, 1), (1 - mover, -1)):
        row = m.rows[player]
        n = len(row)
        for q, i in enumerate(row):
            seeds = state[i]
            f[1] += sign * seeds
            f[2] += sign * (seeds >= 12)
            f[3] -= sign * (0 < seeds < 3)
            f[5] -= sign * (seeds == 0)
            f[6] += sign * (seeds >= n - q)
            if 2 * q < n:
                f[9] += sign * seeds
    f[7] = threat(m, state, mover)
    f[8] = threat(m, state, 1 - mover)
    return f


def table_features(m: Machine, state: State) -> list[int]:
    """Where :func:`features` has its house tables' 1s: a house's, at its count of seeds (none
    on a board of other than :data:`TABLE_HOUSES` houses a row)."""
    mover = state[m.turn]
    if len(m.rows[0]) != TABLE_HOUSES:
        return []
    return [
        len(NAMED) + (side * TABLE_HOUSES + q) * (TABLE_SEEDS + 1) + min(state[i], TABLE_SEEDS)
        for side, player in enumerate((mover, 1 - mover))
        for q, i in enumerate(m.rows[player])
    ]


def weighted(m: Machine, state: State, mobility: int, weights: tuple[int, ...]) -> int:
    """The weighted evaluation in quarter seeds (rounded down, as in C), within +-999."""
    total = sum(w * f for w, f in zip(weights[: len(NAMED)], named_features(m, state, mobility), strict=True))
    total += sum(weights[index] for index in table_features(m, state))
    return max(-WIN + 1, min(WIN - 1, total // WEIGHT_ONE))


class _Search:
    def __init__(
        self,
        machine: Machine,
        seen: frozenset[State],
        seconds: float,
        max_nodes: int | None,
        progress: Progress | None,
        weights: Weights = None,
    ):
        self.m = machine
        self.weights = None if machine.rules.stores_on_path else weights
        self.path = set(seen)
        self.deadline = time.perf_counter() + seconds
        self.max_nodes = max_nodes
        self.progress = progress
        self.nodes = 0
        #: state -> (depth, flag, score, move, proven)
        self.table: dict[State, tuple[int, int, int, int, bool]] = {}
        self.reached_horizon = False

    # -- driver ------------------------------------------------------------------------------

    def run(self, root: State, max_depth: int, legal: list[int]) -> Decision:
        began = time.perf_counter()
        best = Decision(legal[0], 0, 0.0, (legal[0],))
        if len(legal) == 1:
            return Decision(legal[0], 0, 0.0, (legal[0],), seconds=time.perf_counter() - began)
        for depth in range(1, max_depth + 1):
            self.reached_horizon = False
            try:
                score, move = self.root(root, depth)
            except OutOfTime:
                break
            # Proven only when no line met the horizon: a win found earlier may grow deeper.
            exact = not self.reached_horizon
            best = Decision(move + 1, depth, score, self.pv(root, move), self.nodes, time.perf_counter() - began, exact)
            if exact:
                break  # proven, margin included: deeper search cannot change the result
        return Decision(
            best.house, best.depth, best.score, best.pv, self.nodes, time.perf_counter() - began, best.exact
        )

    def pv(self, root: State, first: int) -> tuple[int, ...]:
        line, state, seen = [first + 1], self.m.play(root, first)[0], {root}
        while len(line) < 24 and state not in seen:
            seen.add(state)
            entry = self.table.get(state)
            if entry is None or entry[3] < 0 or entry[3] not in self.m.legal(state):
                break
            line.append(entry[3] + 1)
            state = self.m.play(state, entry[3])[0]
        return tuple(line)

    def root(self, state: State, depth: int) -> tuple[int, int]:
        alpha, best_move = -INFINITY, -1
        for move in self.ordered(state, self.m.legal(state)):
            child = self.m.play(state, move)[0]
            score = self.child_score(state, child, depth, alpha, INFINITY)
            if self.progress:
                self.progress()
            if score > alpha:
                alpha, best_move = score, move
        self.table[state] = (depth, EXACT, alpha, best_move, not self.reached_horizon)
        return alpha, best_move

    def child_score(self, state: State, child: State, depth: int, alpha: int, beta: int) -> int:
        """The child's value from ``state``'s mover's side (the mover may move again)."""
        turn = self.m.turn
        self.path.add(state)
        try:
            if child[turn] == state[turn]:  # an extra turn: the same side moves again
                return self.negamax(child, depth - 1, alpha, beta)
            return -self.negamax(child, depth - 1, -beta, -alpha)
        finally:
            self.path.discard(state)

    # -- the search -------------------------------------------------------------------------

    def negamax(self, state: State, depth: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.nodes & 1023 == 0:
            self.check_budget()
        m = self.m
        mover = state[m.turn]
        final = ended(m, state, self.path)
        if final is not None:
            return final_score(m, final, mover)
        moves = m.legal(state)
        if not moves:
            return final_score(m, m.settle(state), mover)
        if depth <= 0:
            self.reached_horizon = True
            return self.quiesce(state, moves, alpha, beta, QUIESCENCE_PLIES)
        entry = self.table.get(state)
        hint = -1
        if entry is not None:
            e_depth, flag, score, hint, proven = entry
            usable = flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha)
            if usable and (e_depth >= depth or proven):
                self.reached_horizon |= not proven  # an estimate stands in for the subtree
                return score
        original_alpha, best, best_move = alpha, -INFINITY, -1
        outer, self.reached_horizon = self.reached_horizon, False
        for move in self.ordered(state, moves, hint):
            score = self.child_score(state, m.play(state, move)[0], depth, alpha, beta)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        # Proven: no line under this node met the horizon, so the value holds at any depth.
        self.table[state] = (depth, flag, best, best_move, not self.reached_horizon)
        self.reached_horizon |= outer
        return best

    def quiesce(self, state: State, moves: list[int], alpha: int, beta: int, plies: int) -> int:
        """Past the horizon, follow captures only, so no exchange is cut off half-way.

        The side to move may also stop ("stand pat") at the static evaluation.
        """
        stand = self.evaluate(state, moves)
        if stand >= beta or plies == 0:
            return stand
        alpha = max(alpha, stand)
        m = self.m
        mover, turn = state[m.turn], m.turn
        store = m.store[mover]
        for move in moves:
            child = m.play(state, move)[0]
            if child[store] == state[store]:
                continue  # not a capture
            self.nodes += 1
            final = ended(m, child, self.path)
            if final is not None:
                score = final_score(m, final, mover)
            else:
                replies = m.legal(child)
                if not replies:
                    score = final_score(m, m.settle(child), mover)
                elif child[turn] == mover:
                    score = self.quiesce(child, replies, alpha, beta, plies - 1)
                else:
                    score = -self.quiesce(child, replies, -beta, -alpha, plies - 1)
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
        return alpha

    def check_budget(self) -> None:
        if self.max_nodes is not None:
            if self.nodes >= self.max_nodes:
                raise OutOfTime
        elif time.perf_counter() >= self.deadline:
            raise OutOfTime

    def ordered(self, state: State, moves: list[int], hint: int = -1) -> list[int]:
        """Table move first, then captures by size, then the rest (bigger houses first)."""
        m = self.m
        mover = state[m.turn]
        store = m.store[mover]

        def key(move: int) -> tuple[int, int, int]:
            child = m.play(state, move)[0]
            gain = child[store] - state[store]
            again = 1 if child[m.turn] == mover else 0
            return (move == hint, gain * 2 + again, state[move])

        return sorted(moves, key=key, reverse=True)

    def evaluate(self, state: State, moves: list[int]) -> int:
        """Estimated value for the player to move, in quarter seeds (within +-999)."""
        m = self.m
        if self.weights is not None:
            return weighted(m, state, len(moves), self.weights)
        mover = state[m.turn]
        own, other = m.rows[mover], m.rows[1 - mover]
        margin = state[m.store[mover]] - state[m.store[1 - mover]]
        own_seeds = sum(state[own.start : own.stop])
        other_seeds = sum(state[other.start : other.stop])
        kroo = sum(1 for i in own if state[i] >= 12) - sum(1 for i in other if state[i] >= 12)
        if m.rules.stores_on_path:
            # Seeds left on one's side end in one's store; being able to move again matters.
            value = 4 * margin + 2 * (own_seeds - other_seeds) + len(moves)
        else:
            weak = sum(1 for i in other if 0 < state[i] < 3) - sum(1 for i in own if 0 < state[i] < 3)
            value = 4 * margin + (own_seeds - other_seeds) // 2 + 2 * kroo + weak + len(moves) // 2
        return max(-WIN + 1, min(WIN - 1, value))
