"""The sowing machine: legal moves and their effects on a compact position tuple.

This module is the one place where the rules of ``docs/RULES.md`` are turned into code; the
friendly :class:`bot.engine.game.Game`, the perft counter and the computer players all call it.

A *state* is a plain tuple, so it is hashable (cycle detection, transposition tables) and cheap
to copy::

    (house_0, ..., house_2n-1, store_A, store_B, to_move, extra)

Houses are 0-based here (house number ``i + 1`` in the rules' numbering); ``to_move`` is 0 for A
and 1 for B; ``extra`` is 1 while an Ouril player owes the extra move after a grand slam.

Speed comes from precomputed sowing tables: for every house and every seed count,
``delta[i][k]`` is the tuple to add to the state (seeds taken out, seeds dropped, the turn
passed on), so a whole sowing is one ``tuple(map(add, state, delta))`` in C.

The same rules also exist compiled (``bot/engine/_core.c``, built by ``pip install``): a
:class:`CompiledMachine` answers ``legal``, ``play`` and ``perft`` from C, and the expert searches
there. This module stays the reference the compiled core is tested against; when the extension
was not built (or ``WARI_PURE_PYTHON=1`` is set), :func:`machine_for` hands out the pure-Python
:class:`Machine` and everything still works, only slower.
"""

from __future__ import annotations

import os
import warnings
from functools import cache
from operator import add
from types import ModuleType
from typing import NamedTuple

from .rules import GrandSlam, Mechanics, Rules

#: The interface of ``_core.c`` this module speaks (its ``INTERFACE``).
INTERFACE = 4

#: The compiled core (its types: ``_core.pyi``), or ``None`` where it was not built.
_core: ModuleType | None
try:
    from . import _core
except ImportError:  # not built on this machine: the pure-Python engine does everything
    _core = None
if _core is not None and getattr(_core, "INTERFACE", None) != INTERFACE:
    warnings.warn(
        "bot/engine/_core was built from older sources: pip install -e . rebuilds it; using the pure-Python engine",
        stacklevel=1,
    )
    _core = None

__all__ = ["BACKENDS", "CompiledMachine", "Effect", "Machine", "compiled_code", "default_backend", "machine_for"]

#: Where the rules run: ``"compiled"`` (the C extension) or ``"python"`` (this module).
BACKENDS = ("compiled", "python")

State = tuple[int, ...]


class Effect(NamedTuple):
    """What one sowing did, beyond the new state."""

    #: (house index, seeds) for every house emptied into the mover's store, in board order.
    captures: tuple[tuple[int, int], ...]
    #: The move would have taken every seed of the opponent's row (captured or not).
    grand_slam: bool
    #: The same player moves again (Kalah's last seed in the store, Ouril's grand slam).
    extra_turn: bool
    #: House index where the last seed fell (for Kalah, -1 for the store).
    last: int


class Machine:
    """Move generation and sowing for one :class:`Rules`. Get one with :func:`machine_for`."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n = self.n = rules.houses
        self.pits = 2 * n
        self.store = (2 * n, 2 * n + 1)
        self.turn = 2 * n + 2
        self.extra = 2 * n + 3
        self.half = rules.total_seeds // 2
        self.most_captured = 3 * n  # a capture takes at most 3 seeds a house
        self.rows = (range(n), range(n, 2 * n))
        # The rules' flags, read once: they are looked at on every move.
        self.kalah = rules.stores_on_path
        self.single_seed = rules.single_seed_rule
        self.slam = rules.grand_slam
        self.stranded_to_opponent = rules.stranded_seeds_to_opponent
        self._build_tables(rules.total_seeds)

    # -- tables ------------------------------------------------------------------------------

    def _path(self, i: int) -> list[int]:
        """The slots seeds from house ``i`` are dropped into, in order, for one lap."""
        mover = 0 if i < self.n else 1
        if self.kalah:
            own, other = self.rows[mover], self.rows[1 - mover]
            lap = [*own, self.store[mover], *other]
            start = lap.index(i)
            return lap[start + 1 :] + lap[: start + 1]
        # Capture games skip the emptied house on every lap.
        return [(i + step) % self.pits for step in range(1, self.pits)]

    def _build_tables(self, most: int) -> None:
        width = self.pits + 4
        self.delta: list[list[State]] = []
        self.land: list[list[int]] = []
        #: Seeds a sowing drops into the opponent's row.
        self.fed: list[list[int]] = []
        for i in range(self.pits):
            mover = 0 if i < self.n else 1
            path = self._path(i)
            deltas: list[State] = [()]
            lands, feds = [i], [0]
            for k in range(1, most + 1):
                d = [0] * width
                d[i] -= k
                for step in range(k):
                    d[path[step % len(path)]] += 1
                last = path[(k - 1) % len(path)]
                if last != self.store[mover]:  # a seed that ends in one's own store plays again
                    d[self.turn] = 1 if mover == 0 else -1
                deltas.append(tuple(d))
                lands.append(last)
                feds.append(sum(d[j] for j in self.rows[1 - mover]))
            self.delta.append(deltas)
            self.land.append(lands)
            self.fed.append(feds)

    # -- positions ---------------------------------------------------------------------------

    def start(self, first: int = 0) -> State:
        """The opening position with ``first`` (0 = A, 1 = B) to move."""
        return (self.rules.seeds,) * self.pits + (0, 0, first, 0)

    def majority(self, state: State) -> bool:
        """Whether a player already holds more than half of all seeds (the game is won)."""
        return state[self.store[0]] > self.half or state[self.store[1]] > self.half

    # -- move generation -----------------------------------------------------------------------

    def legal(self, state: State) -> list[int]:
        """House indices the player to move may empty. Empty when the player cannot move.

        This does not look at majority or repetition: the caller knows the game history.
        """
        mover = state[self.turn]
        own, opponent = self.rows[mover], self.rows[1 - mover]
        moves = [i for i in own if state[i]]
        if self.kalah or not moves:
            return moves
        if self.single_seed and max(state[own.start : own.stop]) > 1:
            moves = [i for i in moves if state[i] > 1]
        waiting = sum(state[opponent.start : opponent.stop])
        slam = self.slam
        if slam is GrandSlam.NO_CAPTURE or (slam is GrandSlam.CAPTURE_AND_REPLAY and not state[self.extra]):
            if waiting:  # must feed: only an empty opponent's row restricts the choice
                return moves
            fed = self.fed
            return [i for i in moves if fed[i][state[i]]]
        keep = [i for i in moves if self._leaves_opponent_seeds(state, i, opponent, waiting)]
        if not keep and slam is GrandSlam.FORCED_ONLY:
            return moves
        return keep

    def _leaves_opponent_seeds(self, state: State, i: int, opponent: range, waiting: int) -> bool:
        """Whether emptying house ``i`` leaves the opponent (``waiting`` seeds now) any seed."""
        k = state[i]
        after = waiting + self.fed[i][k]
        if after > self.most_captured or self.land[i][k] not in opponent:
            return after > 0
        sown = tuple(map(add, state, self.delta[i][k]))
        return after > sum(seeds for _, seeds in self._chain(sown, self.land[i][k], opponent))

    def _chain(self, sown: State, last: int, opponent: range) -> list[tuple[int, int]]:
        """Houses of 2 or 3 seeds taken by a last seed in ``last``, walking back (rule 2)."""
        taken = []
        j = last
        while j in opponent and sown[j] in (2, 3):
            taken.append((j, sown[j]))
            j -= 1
        taken.reverse()
        return taken

    # -- playing ------------------------------------------------------------------------------

    def play(self, state: State, i: int) -> tuple[State, Effect]:
        """Empty house ``i`` (assumed legal) and return the new state and what happened."""
        if self.kalah:
            return self._play_kalah(state, i)
        k = state[i]
        mover = state[self.turn]
        last = self.land[i][k]
        sown = tuple(map(add, state, self.delta[i][k]))
        opponent = self.rows[1 - mover]
        taken = self._chain(sown, last, opponent) if last in opponent else []
        slam = bool(taken) and sum(s for _, s in taken) == sum(sown[j] for j in opponent)
        replay = False
        if slam and self.slam is GrandSlam.NO_CAPTURE:
            taken = []
        if not taken and not state[self.extra]:
            return sown, Effect((), slam, False, last)
        board = list(sown)
        for j, _ in taken:
            board[j] = 0
        board[self.store[mover]] += sum(s for _, s in taken)
        board[self.extra] = 0
        if slam and self.slam is GrandSlam.CAPTURE_AND_REPLAY and board[self.store[mover]] <= self.half:
            board[self.turn] = mover
            board[self.extra] = 1
            replay = True
        return tuple(board), Effect(tuple(taken), slam, replay, last)

    def _play_kalah(self, state: State, i: int) -> tuple[State, Effect]:
        k = state[i]
        mover = state[self.turn]
        last = self.land[i][k]
        sown = tuple(map(add, state, self.delta[i][k]))
        if last == self.store[mover]:
            return sown, Effect((), False, True, -1)
        if last in self.rows[mover] and sown[last] == 1:
            facing = self.pits - 1 - last
            board = list(sown)
            board[self.store[mover]] += 1 + board[facing]
            taken = ((last, 1), (facing, board[facing])) if last < facing else ((facing, board[facing]), (last, 1))
            board[last] = board[facing] = 0
            return tuple(board), Effect(taken, False, False, last)
        return sown, Effect((), False, False, last)

    def settle(self, state: State) -> State:
        """The final state when the player to move cannot move: the remaining seeds are shared out.

        Awari gives everything left to the opponent of the stranded player; every other
        variant lets each player take the seeds of their own row (in Wari, Oware and Ouril the
        player who cannot feed takes their own row, and the opponent's row is empty then; in
        Kalah the player to move has nothing left and the opponent sweeps their row).
        """
        if not self.stranded_to_opponent:
            return self.share_rows(state)
        board = list(state)
        board[self.store[1 - state[self.turn]]] += sum(state[: self.pits])
        board[: self.pits] = [0] * self.pits
        board[self.extra] = 0
        return tuple(board)

    def share_rows(self, state: State) -> State:
        """Each player takes the seeds of their own row (the end of a cycle, or of a stuck game)."""
        board = list(state)
        for player in (0, 1):
            board[self.store[player]] += sum(state[j] for j in self.rows[player])
        board[: self.pits] = [0] * self.pits
        board[self.extra] = 0
        return tuple(board)

    # -- perft --------------------------------------------------------------------------------

    def perft(self, state: State, depth: int, seen: set[State] | None = None) -> int:
        """Number of move sequences of length ``depth`` from ``state``.

        A game that ends (majority, no legal move, a repeated position) contributes nothing
        deeper. ``seen`` holds the positions of the game so far, for repetitions; the count at
        the last ply is the number of legal moves (bulk counting, as chess perft tools do).
        """
        if depth == 0:
            return 1
        if seen is None:
            seen = {state}
        moves = self.legal(state)
        if depth == 1:
            return len(moves)
        total = 0
        play, cycles = self.play, not self.kalah
        store_a, store_b, half = self.store[0], self.store[1], self.half
        for i in moves:
            child = play(state, i)[0]
            if child[store_a] > half or child[store_b] > half:  # majority: the game is over
                continue
            if cycles:
                if child in seen:
                    continue
                seen.add(child)
                total += self.perft(child, depth - 1, seen)
                seen.discard(child)
            else:
                total += self.perft(child, depth - 1, seen)
        return total


def compiled_code(mechanics: Mechanics) -> int:
    """A variant's :class:`~bot.engine.rules.Mechanics` in the one number ``_core.c`` reads.

    What a grand slam does (its place in :class:`GrandSlam`) in the low three bits, then one bit
    each for the single-seed rule, stranded seeds going to the opponent and stores on the path:
    ``make_rules`` in ``_core.c`` unpacks them, and its ``mechanics`` says what it read
    (``tests/engine/test_registry.py`` compares that with the registry, variant by variant).

    >>> from .rules import REGISTRY
    >>> [compiled_code(variant.mechanics) for variant in REGISTRY]  # wari, oware, awari, ouril, kalah
    [0, 1, 18, 11, 36]
    """
    return (
        list(GrandSlam).index(mechanics.grand_slam)
        | mechanics.single_seed_rule << 3
        | mechanics.stranded_seeds_to_opponent << 4
        | mechanics.stores_on_path << 5
    )


class CompiledMachine(Machine):
    """A :class:`Machine` whose move generation, sowing and perft run in the C extension.

    Same answers, same types: the tests run the rules and perft against both and compare.
    """

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        #: The leading arguments of every ``_core`` call for these rules.
        self.key = (compiled_code(rules.mechanics), rules.houses, rules.seeds)

    def legal(self, state: State) -> list[int]:
        assert _core is not None  # machine_for makes a CompiledMachine only where the core was built
        return _core.legal(*self.key, state)

    def play(self, state: State, i: int) -> tuple[State, Effect]:
        assert _core is not None  # as in legal
        after, captures, grand_slam, extra_turn, last = _core.play(*self.key, state, i)
        return after, Effect(captures, grand_slam, extra_turn, last)

    def perft(self, state: State, depth: int, seen: set[State] | None = None) -> int:
        if seen is not None:  # a game's history: only the reference takes one
            return super().perft(state, depth, seen)
        assert _core is not None  # as in legal
        return _core.perft(*self.key, state, depth)


def default_backend() -> str:
    """``"compiled"`` when the extension was built and ``WARI_PURE_PYTHON`` is not set."""
    if _core is None or os.environ.get("WARI_PURE_PYTHON", "") not in ("", "0"):
        return "python"
    return "compiled"


def machine_for(rules: Rules, backend: str | None = None) -> Machine:
    """The (shared, immutable) machine for ``rules``; its tables are built once.

    ``backend`` is ``"compiled"`` or ``"python"``; by default the compiled one when it exists.
    """
    return _machine(rules, backend or default_backend())


@cache
def _machine(rules: Rules, backend: str) -> Machine:
    if backend == "compiled":
        if _core is None:
            raise RuntimeError("the compiled core was not built: pip install -e . with a C compiler")
        return CompiledMachine(rules)
    if backend != "python":
        raise ValueError(f"backend is one of {', '.join(BACKENDS)}, not {backend!r}")
    return Machine(rules)
