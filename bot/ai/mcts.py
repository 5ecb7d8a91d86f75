"""``mcts``: Monte-Carlo tree search (UCT) with uniformly random playouts.

Each iteration walks down the tree choosing children by UCB1, adds one node, plays the game
out at random (in C when the compiled core is built) and backs the result up (1 for a win, ½ for a
draw, 0 for a loss, from the side that moved into each node). The move played is the most visited
child of the root.
"""

from __future__ import annotations

import math
import time

from bot.engine import Game
from bot.engine.core import CompiledMachine, Machine, State, _core, machine_for

from .base import Decision, Progress, Strategy
from .search import ended

EXPLORATION = 1.4
#: A playout that runs this long is scored by the seeds captured so far.
PLAYOUT_LIMIT = 300


class _Node:
    __slots__ = ("state", "mover", "children", "untried", "visits", "wins", "final")

    def __init__(self, state: State, mover: int, moves: list[int], final: State | None) -> None:
        self.state = state
        self.mover = mover  # the player who moved into this node
        self.children: dict[int, _Node] = {}
        self.untried = list(moves)
        self.visits = 0
        self.wins = 0.0
        self.final = final  # the final state if the game is over here


class MctsPlayer(Strategy):
    name = "mcts"
    summary = "Monte-Carlo tree search (UCT) with random playouts"

    def __init__(self, seed: int | None = None, *, max_iterations: int | None = None) -> None:
        super().__init__(seed)
        #: With an iteration budget instead of a clock, the search is fully deterministic.
        self.max_iterations = max_iterations

    def choose(self, game: Game, seconds: float = 1.0, progress: Progress | None = None) -> Decision:
        machine = machine_for(game.rules)
        legal = [house - 1 for house in game.legal_moves]
        if len(legal) == 1:
            return Decision(legal[0] + 1)
        began = time.perf_counter()
        deadline = began + 0.95 * seconds  # the rest for letting go of the tree (up to 9% at 0.5 s)
        root = _Node(game.state, 1 - game.state[machine.turn], legal, None)
        self.rng.shuffle(root.untried)
        history = game.seen_positions
        iterations = 0
        while True:
            if self.max_iterations is not None:
                if iterations >= self.max_iterations:
                    break
            elif time.perf_counter() >= deadline:  # every iteration: a playout takes microseconds
                break
            expanded = len(root.children)
            self._iterate(machine, root, history)
            iterations += 1
            if progress and (len(root.children) > expanded or iterations % 1000 == 0):
                progress()  # each root move's first look, then a dot per thousand playouts
        best = max(root.children.items(), key=lambda item: item[1].visits)
        move, child = best
        return Decision(
            move + 1,
            depth=iterations,
            score=round(child.wins / max(child.visits, 1), 3),
            pv=self._pv(root),
            nodes=iterations,
            seconds=time.perf_counter() - began,
        )

    def _pv(self, root: _Node) -> tuple[int, ...]:
        line: list[int] = []
        node = root
        while node.children and len(line) < 12:
            move, node = max(node.children.items(), key=lambda item: item[1].visits)
            line.append(move + 1)
        return tuple(line)

    def _iterate(self, machine: Machine, root: _Node, history: frozenset[State]) -> None:
        node, path = root, [root]
        seen = set(history)
        # Selection.
        while not node.untried and node.children and node.final is None:
            log_visits = math.log(node.visits)
            node = max(
                node.children.values(),
                key=lambda c: c.wins / c.visits + EXPLORATION * math.sqrt(log_visits / c.visits),
            )
            seen.add(node.state)
            path.append(node)
        # Expansion.
        if node.untried and node.final is None:
            move = node.untried.pop()
            state = node.state
            child_state = machine.play(state, move)[0]
            final = ended(machine, child_state, seen)
            moves = [] if final is not None else machine.legal(child_state)
            if final is None and not moves:
                final = machine.settle(child_state)
            child = _Node(child_state, state[machine.turn], moves, final)
            self.rng.shuffle(child.untried)
            node.children[move] = child
            seen.add(child_state)
            node = child
            path.append(node)
        # Simulation.
        if node.final is not None:
            a, b = node.final[machine.store[0]], node.final[machine.store[1]]
        else:
            a, b = self._playout(machine, node.state, seen)
        # Backpropagation.
        for visited in path:
            visited.visits += 1
            mine, theirs = (a, b) if visited.mover == 0 else (b, a)
            visited.wins += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0

    def _playout(self, machine: Machine, state: State, seen: set[State]) -> tuple[int, int]:
        """Play on at random from ``state``; the stores (A, B) at the end."""
        if isinstance(machine, CompiledMachine):  # the same, in C
            assert _core is not None  # there is a CompiledMachine only where the core was built
            return _core.playout(*machine.key, state, seen, self.rng.getrandbits(63), PLAYOUT_LIMIT)
        rng, play, legal = self.rng, machine.play, machine.legal
        seen = set(seen)
        for _ in range(PLAYOUT_LIMIT):
            moves = legal(state)
            if not moves:
                state = machine.settle(state)
                break
            state = play(state, moves[int(rng.random() * len(moves))])[0]
            final = ended(machine, state, seen)
            if final is not None:
                state = final
                break
            seen.add(state)
        return state[machine.store[0]], state[machine.store[1]]
