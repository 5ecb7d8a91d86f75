"""Finding puzzles in self-play: the levels play each other, every position is screened cheaply,
the candidates are verified by a deeper search (or the endgame tables) and extended into a line.

``python -m bot.ai.puzzles build --variant wari --count 1200`` appends what it finds to
``data/wari.txt`` (never a position already there, nor its mirror image with the other side to
move). See ``docs/puzzles.md`` for the criteria, goals, themes and the difficulty formula.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from multiprocessing import get_context
from pathlib import Path
from typing import TextIO

from bot.engine import Game, MoveRecord, Rules, Termination, rules_for
from bot.engine.core import State, _core, machine_for
from bot.engine.notation import from_position, position

from .. import make_player
from ..base import Strategy
from ..expert import ExpertPlayer
from ..mcts import MctsPlayer
from ..tables import Table, best_move
from . import Goal, Puzzle, data_file, format_line, parse_line, read_file
from .solver import DECIDED, Value, compiled_machine, first_stable_depth, margin_over_rest, move_values, unique_best

#: Node budget of the screening search of each legal move.
SCREEN_NODES = 4_000
#: Node budget of the verifying search of each legal move (and of the opponent's replies).
VERIFY_NODES = 300_000
#: Node budget of the confirming search of each legal move: the verified first move must still be
#: unique by the margin (oware-0795 and oware-0883 were not: another move caught up deeper).
CONFIRM_NODES = 1_000_000
#: The most solver moves in a solution.
MOST_SOLVER_MOVES = 3
#: The most puzzles taken from one game, and the plies skipped after one is found.
PER_GAME, GAP = 3, 6
#: Plies of a self-play game after which it is stopped.
LONGEST_GAME = 160

#: The self-play opponents: (level, budget). Budgets make them deterministic.
LINEUP: tuple[tuple[str, int], ...] = (
    ("greedy", 0),
    ("mcts", 300),
    ("mcts", 2_000),
    ("expert", 1_000),
    ("expert", 10_000),
    ("expert", 100_000),
)


def player(level: str, budget: int, seed: int) -> Strategy:
    if level == "mcts":
        return MctsPlayer(seed, max_iterations=budget)
    if level == "expert":
        return ExpertPlayer(seed, max_nodes=budget)
    return make_player(level, seed)


def canonical(game: Game) -> str:
    """The position seen from the player to move (as if A): a position and its mirror image with
    the other side to move are the same puzzle."""
    text = position(game)
    if game.to_move is None or game.to_move == 0:
        return text
    version, code, houses, scores, mover = text.split()
    board = houses.split(",")
    n = game.rules.houses
    a, b = scores.split(":")
    return f"{version} {code} {','.join(board[n:] + board[:n])} {b}:{a} A{mover[1:]}"


@dataclass
class Found:
    """A verified puzzle before it gets an id."""

    puzzle: Puzzle
    key: str


def analyse(game: Game, table: Table | None, screen: int = SCREEN_NODES, verify: int = VERIFY_NODES) -> Puzzle | None:
    """The puzzle at ``game``'s position (taken without its history), or ``None``."""
    game = from_position(position(game))
    if game.is_over or len(game.legal_moves) < 2:
        return None
    checked = verified_first_move(game, table, screen, verify)
    if checked is None:
        return None
    first, values = checked
    solver = int(game.state[machine_for(game.rules).turn])
    line, records = extend(game, first, solver, table, screen, verify)
    best = values[first]
    margin = margin_over_rest(values, first)
    goal = goal_of(values, first, records, solver, margin)
    theme = theme_of(game, values, first, records, solver)
    depth = first_stable_depth(game, first)
    puzzle = Puzzle(
        "",
        position(game),
        tuple(line),
        goal,
        theme,
        0,
        depth,
        round(margin, 2),
        "tables" if best.source == "tables" else f"search{max(verify, CONFIRM_NODES) // 1000}k",
    )
    return replace(puzzle, difficulty=difficulty(game, puzzle))


def verified_first_move(
    game: Game,
    table: Table | None,
    screen: int = SCREEN_NODES,
    verify: int = VERIFY_NODES,
    confirm: int = CONFIRM_NODES,
) -> tuple[int, dict[int, Value]] | None:
    """The first move of a puzzle at ``game`` and every move's value at the deepest search, or
    ``None``: the same move must be unique by the margin (:func:`.solver.unique_best`) at the
    screening, the verifying and the confirming budget (the confirmation is skipped when the
    verifying budget is already as deep)."""
    first = unique_best(move_values(game, screen, table))
    if first is None:
        return None
    values: dict[int, Value] = {}
    for nodes in sorted({verify, max(verify, confirm)}):
        values = move_values(game, nodes, table)
        if unique_best(values) != first:
            return None
    return first, values


def extend(
    game: Game, first: int, solver: int, table: Table | None, screen: int, verify: int
) -> tuple[list[int], list[MoveRecord]]:
    """The solution line from ``first``: the opponent's best replies and the solver's next moves
    while each is again unique by the margin; and the records of the line's moves."""
    trial = game.copy()
    past: list[State] = []
    line: list[int] = []
    records: list[MoveRecord] = []
    pending = [first]
    while True:
        for house in pending:
            past.append(trial.state)
            records.append(trial.play(house))
            line.append(house)
        if trial.is_over or sum(1 for record in records if record.player == solver) >= MOST_SOLVER_MOVES:
            break
        replies, probe, probe_past = [], trial.copy(), list(past)
        while not probe.is_over and probe.to_move != solver:
            reply = best_reply(probe, verify, table, probe_past)
            probe_past.append(probe.state)
            probe.play(reply)
            replies.append(reply)
        if probe.is_over:
            break
        nxt = unique_best(move_values(probe, screen, table, probe_past))
        if nxt is None or unique_best(move_values(probe, verify, table, probe_past)) != nxt:
            break
        pending = [*replies, nxt]
    return line, records


def best_reply(game: Game, nodes: int, table: Table | None, past: list[State]) -> int:
    """The move the engine considers best for the player to move (tables first)."""
    legal = game.legal_moves
    if len(legal) == 1:
        return legal[0]
    if table is not None:
        known = best_move(game, table)
        if known is not None:
            return known.house
    machine = compiled_machine(game)
    assert _core is not None
    known_table = (table.data, table.seeds) if table else ()
    move = _core.search(*machine.key, game.state, past, 1e9, nodes, 64, None, *known_table)[0]
    return move + 1


def goal_of(values: dict[int, Value], first: int, records: list[MoveRecord], solver: int, margin: float) -> Goal:
    best = values[first]
    if best.result == 1 and best.score > DECIDED:
        return Goal("win", int(best.seeds))
    if best.result == 0 and best.exact and all(v.result == -1 for h, v in values.items() if h != first):
        return Goal("draw", 0)
    captured = sum(record.captured for record in records if record.player == solver)
    if captured >= 2:
        return Goal("capture", captured)
    rest = max(value.seeds for house, value in values.items() if house != first)
    return Goal("best", max(1, int(best.seeds - rest) if margin >= 99 else int(margin)))


def theme_of(
    game: Game,
    values: dict[int, Value],
    first: int,
    records: list[MoveRecord],
    solver: int,
) -> str:
    rules = game.rules
    if rules.stores_on_path and records[0].extra_turn:
        return "extra_turn"
    n = rules.houses
    other_row = game.board[n * (1 - solver) : n * (2 - solver)]
    if not rules.stores_on_path and not any(other_row):
        return "feeding"
    if grand_slam_matters(game):
        return "grand_slam"
    if any(_starves(record, solver) for record in records):
        return "starving"
    if any(record.player == solver and _houses_taken(rules, record) >= 2 for record in records):
        return "multiple_capture"
    best = values[first]
    if best.source == "tables" or (best.exact and sum(game.board) <= 16):
        return "endgame"
    if sum(record.captured for record in records if record.player == solver) >= 2:
        return "capture"
    return "defense"


def _houses_taken(rules: Rules, record: MoveRecord) -> int:
    """The opponent's houses a move captured from (a Kalah capture also takes the capturing seed
    from the mover's own house: that does not count)."""
    return sum(1 for house, _ in record.captures if rules.owner(house) != record.player)


def _starves(record: MoveRecord, solver: int) -> bool:
    """The solver's move ended the game by leaving the opponent no move."""
    outcome = record.outcome
    return record.player == solver and outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVE


def grand_slam_matters(game: Game) -> bool:
    """Some legal move would take the opponent's whole row (Oware, Awari, Ouril), or a house of
    the mover is refused for being a grand slam (Wari)."""
    for house in game.legal_moves:
        if game.copy().play(house).grand_slam:
            return True
    mover = game.to_move
    if mover is None:
        return False
    n = game.rules.houses
    for house in range(1 + n * mover, 1 + n * (mover + 1)):
        reason = game.why_illegal(house)
        if reason and "grand slam" in reason:
            return True
    return False


def difficulty(game: Game, puzzle: Puzzle) -> int:
    """The puzzle's rating (see ``docs/puzzles.md``), between 800 and 2200 to the nearest 10::

    800 + 120 (depth - 1) + 200 (solver moves - 1) + 200 quiet + 250 misleading
        + 60 min(other captures, 3) + 30 min(legal moves - 2, 4) + 120 close

    depth: the search depth from which the plain search settles on the first move (at most 13);
    quiet: the first move captures nothing (and, in Kalah, earns no extra turn); misleading:
    another move captures more at once; other captures: the other moves that capture (or earn
    an extra turn); close: the first move beats the next by less than 5 seeds (no change of result).
    """
    first = puzzle.solution[0]
    record = game.copy().play(first)
    quiet = 0 if (record.captured or (record.extra_turn and game.rules.stores_on_path)) else 1
    others = [game.copy().play(house) for house in game.legal_moves if house != first]
    elsewhere = sum(1 for other in others if other.captured or (other.extra_turn and game.rules.stores_on_path))
    misleading = 1 if any(other.captured > record.captured for other in others) else 0
    close = 1 if puzzle.margin < 5 else 0
    rating = (
        800
        + 120 * (min(puzzle.depth, 13) - 1)
        + 200 * (len(puzzle.solver_moves()) - 1)
        + 200 * quiet
        + 250 * misleading
        + 60 * min(elsewhere, 3)
        + 30 * min(len(game.legal_moves) - 2, 4)
        + 120 * close
    )
    return int(round(min(2200, max(800, rating)), -1))


# -- self-play ----------------------------------------------------------------------------------


def self_play(variant: str, seed: int) -> Iterator[Game]:
    """The positions of one self-play game (the same game for the same seed), as games with history."""
    rng = random.Random(f"{variant}:{seed}")
    (level_a, budget_a), (level_b, budget_b) = rng.choice(LINEUP), rng.choice(LINEUP)
    players = (player(level_a, budget_a, rng.randrange(2**32)), player(level_b, budget_b, rng.randrange(2**32)))
    game = Game(rules_for(variant), first=rng.choice("AB"))
    opening = rng.randrange(0, 9)
    while not game.is_over and game.ply < LONGEST_GAME:
        if game.ply < opening:
            house = rng.choice(game.legal_moves)
        else:
            assert game.to_move is not None
            house = players[game.to_move].choose(game).house
        game.play(house)
        if not game.is_over:
            yield game


def puzzles_of_game(variant: str, seed: int, verify: int = VERIFY_NODES) -> list[Found]:
    """The puzzles of one self-play game: its positions (from the third ply) are looked at in a
    random order, so that openings, middle games and endings all give puzzles; at most
    :data:`PER_GAME`, at least :data:`GAP` plies apart."""
    table = Table.for_variant(variant)
    games = [game.copy() for game in self_play(variant, seed) if game.ply >= 3]
    random.Random(f"order:{variant}:{seed}").shuffle(games)
    found: list[Found] = []
    keys: set[str] = set()
    taken: list[int] = []
    for game in games:
        if any(abs(game.ply - ply) < GAP for ply in taken):
            continue
        key = canonical(game)
        if key in keys:
            continue
        puzzle = analyse(game, table, verify=verify)
        if puzzle is None:
            continue
        keys.add(key)
        found.append(Found(puzzle, key))
        taken.append(game.ply)
        if len(found) >= PER_GAME:
            break
    return found


def _work(job: tuple[str, int, int]) -> list[Found]:
    return puzzles_of_game(*job)


def build(
    variant: str,
    count: int,
    seed: int | None = None,
    jobs: int = 1,
    folder: Path | None = None,
    out: TextIO = sys.stderr,
    minutes: float | None = None,
    verify: int = VERIFY_NODES,
) -> list[Puzzle]:
    """Find ``count`` new puzzles of ``variant`` and append them to its data file (in ``folder``,
    by default the shipped one). Stops early after ``minutes``. Returns the new puzzles."""
    path = data_file(variant) if folder is None else folder / f"{variant}.txt"
    existing = read_file(path)
    keys = {canonical(from_position(puzzle.position)) for puzzle in existing}
    number = max((int(puzzle.id.rpartition("-")[2]) for puzzle in existing), default=0)
    seed = len(existing) if seed is None else seed
    began = time.perf_counter()
    new: list[Puzzle] = []
    path.parent.mkdir(parents=True, exist_ok=True)
    jobs_iter = ((variant, seed * 100_000 + index, verify) for index in range(10**9))
    with open(path, "a", encoding="utf-8") as handle:
        if not existing and path.stat().st_size == 0:
            handle.write(
                f"# {variant} puzzles (docs/puzzles.md): id, position, solution, goal, theme, "
                "difficulty, depth, margin, verified; tab-separated\n"
            )
        pool = get_context("spawn").Pool(jobs) if jobs > 1 else None
        results = pool.imap(_work, jobs_iter) if pool else map(_work, jobs_iter)
        games = 0
        try:
            for found in results:
                games += 1
                for item in found:
                    if item.key in keys or len(new) >= count:
                        continue
                    keys.add(item.key)
                    number += 1
                    puzzle = replace(item.puzzle, id=f"{variant}-{number:04d}")
                    handle.write(format_line(puzzle) + "\n")
                    handle.flush()
                    new.append(puzzle)
                elapsed = time.perf_counter() - began
                print(
                    f"{variant}: game {games}, {len(new)}/{count} puzzles, {elapsed:.0f}s, "
                    f"{60 * len(new) / max(elapsed, 1e-9):.1f}/min",
                    file=out,
                    flush=True,
                )
                if len(new) >= count or (minutes is not None and elapsed > 60 * minutes):
                    break
        finally:
            if pool:
                pool.terminate()
    return new


def rerate(variant: str, folder: Path | None = None) -> int:
    """Apply :func:`difficulty` again to every puzzle of a data file (after a change of the
    formula); returns how many ratings changed. Nothing is searched: the depth is stored."""
    path = data_file(variant) if folder is None else folder / f"{variant}.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    changed, out = 0, []
    for line in lines:
        if line.startswith("#") or not line.strip():
            out.append(line)
            continue
        puzzle = parse_line(line)
        rating = difficulty(puzzle.game(), puzzle)
        changed += rating != puzzle.difficulty
        out.append(format_line(replace(puzzle, difficulty=rating)))
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return changed
