"""Endgame tables against an independent solver written here, on the pure-Python engine.

The solver explores every position reachable from a sampled one (the reference engine's moves,
no C), and computes by plain fixed-point iteration the two bounds the tables are defined by: the
final margin the player to move can force when any cycle counts as lost for them (``lo``), and
when it counts as won (``hi``). Where they meet, that is the value whatever a repetition would
score; the table must hold exactly those values, and of every other position exactly what its
bounds say of the result (a win by at least ``lo``, a loss by at least ``-hi``, at least or at most
a draw); the expert must answer every position of known value with a move that keeps it.
"""

import io
import random
import subprocess
import sys

import pytest

from bot.ai.expert import ExpertPlayer
from bot.ai.tables import Table, best_move, build
from bot.engine import Game, rules_for
from bot.engine.core import machine_for

pytestmark = pytest.mark.compiled_core  # the tables are built by the compiled core

SEEDS = 4
INFINITE = 10**6


def margin(machine, state, mover):
    return state[machine.store[mover]] - state[machine.store[1 - mover]]


def solve(machine, roots):
    """``{state: (lo, hi)}`` for every position reachable from ``roots``."""
    children, finals, todo = {}, {}, list(roots)
    while todo:
        state = todo.pop()
        if state in children or state in finals:
            continue
        moves = machine.legal(state)
        if not moves:
            finals[state] = margin(machine, machine.settle(state), state[machine.turn])
            continue
        children[state] = [machine.play(state, move)[0] for move in moves]
        todo.extend(child for child in children[state] if not machine.majority(child))
    bounds = {state: (value, value) for state, value in finals.items()}
    bounds.update(dict.fromkeys(children, (-INFINITE, INFINITE)))
    changed = True
    while changed:
        changed = False
        for state, kids in children.items():
            mover, options = state[machine.turn], []
            for child in kids:
                if machine.majority(child):
                    options.append((margin(machine, child, mover),) * 2)
                elif child[machine.turn] == mover:  # Ouril's extra move
                    options.append(bounds[child])
                else:
                    lo, hi = bounds[child]
                    options.append((-hi, -lo))
            new = (max(lo for lo, _ in options), max(hi for _, hi in options))
            if new != bounds[state]:
                bounds[state], changed = new, True
    return bounds


def known_of(lo, hi):
    """What the table should say of a position with these solver bounds, as ``Table.bounds``."""
    if lo == hi:
        return lo, hi
    if lo > 0:
        return lo, None
    if hi < 0:
        return None, hi
    return (0 if lo == 0 else None), (0 if hi == 0 else None)


def sample(rules, rng):
    """A position with 1..SEEDS seeds on board, stores short of a majority, either side to move."""
    seeds = rng.randint(1, SEEDS)
    board = [0] * 12
    for _ in range(seeds):
        board[rng.randrange(12)] += 1
    half = rules.total_seeds // 2
    own = rng.randint(half - seeds, half)
    mover = rng.randint(0, 1)
    stores = (own, rules.total_seeds - seeds - own) if mover == 0 else (rules.total_seeds - seeds - own, own)
    return (*board, *stores, mover, 0)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tables")
    for variant in ("wari", "oware", "awari", "ouril"):
        build(variant, SEEDS, folder, out=io.StringIO())
    return folder


@pytest.mark.parametrize("variant", ["wari", "oware", "awari", "ouril"])
def test_tables_hold_exactly_the_solver_values_and_the_expert_keeps_them(variant, tables, monkeypatch):
    monkeypatch.setenv("WARI_TABLES", str(tables))
    rules = rules_for(variant)
    machine = machine_for(rules, "python")
    table = Table.for_variant(variant)
    assert table is not None and table.seeds == SEEDS
    rng = random.Random(variant)
    roots = [root for root in (sample(rules, rng) for _ in range(100)) if machine.legal(root)]
    bounds = solve(machine, roots)
    known = 0
    for root in roots:
        lo, hi = bounds[root]
        assert table.value(root) == (lo if lo == hi else None), root
        assert table.bounds(root) == known_of(lo, hi), root
        if lo != hi:
            continue
        known += 1
        game = Game.from_state(rules, root)
        decision = ExpertPlayer(seed=1).choose(game, seconds=5)
        assert decision.exact and decision.notes == {"tables": SEEDS}
        child = machine.play(root, decision.house - 1)[0]
        if machine.majority(child):
            kept = margin(machine, child, root[machine.turn])
        else:
            c_lo, c_hi = bounds[child]
            kept = c_lo if child[machine.turn] == root[machine.turn] else -c_hi
        assert kept == lo, (root, decision)  # the move keeps the value, margin included
    assert known >= 20


def test_without_tables_the_expert_searches(tmp_path, monkeypatch):
    monkeypatch.setenv("WARI_TABLES", str(tmp_path))  # an empty folder
    game = Game.from_state(rules_for("oware"), (2, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 3, 23, 18, 0, 0))
    assert best_move(game) is None
    decision = ExpertPlayer(seed=1).choose(game, seconds=0.2)
    assert decision.depth > 0 and "tables" not in decision.notes


def test_the_build_command_writes_a_table_per_variant(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "bot.ai.tables", "build", "--seeds", "3", "--dir", str(tmp_path), "--variant", "oware"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert [path.name for path in tmp_path.iterdir()] == ["oware-3.bin"]
    assert " 3 seeds:" in done.stdout and "% exact" in done.stdout


def test_the_search_takes_exact_values_from_the_tables(tables, monkeypatch):
    # 6 seeds on board, more than the tables hold: the search starts above them and ends in them.
    game = Game.from_state(rules_for("oware"), (1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 21, 21, 0, 0))
    without = ExpertPlayer(seed=1, max_depth=12).choose(game, seconds=10)
    monkeypatch.setenv("WARI_TABLES", str(tables))
    probed = ExpertPlayer(seed=1, max_depth=12).choose(game, seconds=10)
    assert "tables" not in probed.notes and probed.depth == 12
    assert without.score < 1000 <= probed.score  # a win the same depth could not see alone


def test_the_search_sees_a_win_the_table_bounds_at_once(tables, monkeypatch, tmp_path):
    """Where repetitions leave the margin open but not the result, a table still knows who wins: a
    search one ply deep sees that win, and does not without those bounds."""
    rules = rules_for("oware")
    machine = machine_for(rules, "python")
    rng = random.Random("bounds")
    roots = [root for root in (sample(rules, rng) for _ in range(300)) if machine.legal(root)]
    bounds = solve(machine, roots)
    # won, margin open, a choice to make (one move is played unsearched), and no capture that
    # wins at once (the search sees those without tables)
    wins = [
        root
        for root in roots
        if 0 < bounds[root][0] < bounds[root][1]
        and len(machine.legal(root)) > 1
        and not any(machine.majority(machine.play(root, house)[0]) for house in machine.legal(root))
    ]
    assert len(wins) >= 5
    exact_only = tmp_path / "exact-only"
    exact_only.mkdir()
    data = (tables / f"oware-{SEEDS}.bin").read_bytes()
    (exact_only / f"oware-{SEEDS}.bin").write_bytes(bytes(b if b <= 48 or b >= 256 - 48 else 128 for b in data))

    def scores(folder):
        monkeypatch.setenv("WARI_TABLES", str(folder))
        return [ExpertPlayer(seed=1, max_depth=1).choose(Game.from_state(rules, root)).score for root in wins]

    assert all(score > 1000 for score in scores(tables))
    assert not all(score > 1000 for score in scores(exact_only))
