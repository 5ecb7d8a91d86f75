"""Our ``expert`` (or any level) against OpenSpiel's C++ MCTS bot on OpenSpiel's ``oware``.

OpenSpiel is a public, well-known game-AI library; its ``MCTSBot`` (UCT with random
rollouts, in C++) is a fair peer. It takes a simulation count, not a clock, so the count is
calibrated first to fill the same time per move as our player gets.

Needs ``pip install open_spiel`` (not a project dependency; it is large)::

    python benchmarks/vs_openspiel.py --level expert --games 40 --time 1

Each pair of games starts from the same opening of two random plies, played once with each
colour. The summary gives the score, the Elo difference with its 95% interval, and how long our
player took per move against its budget (the slowest move, and how many went over by 10%).

With ``--perft DEPTH`` it times perft instead, in this one process, side by side: OpenSpiel's
C++ ``oware`` state walked from Python (``legal_actions``/``child``, the last ply counted in
bulk, as our perft does) and our engine (the compiled core, and the Python reference)::

    python benchmarks/vs_openspiel.py --perft 8

Our engine referees: both programs' moves are played on a ``bot.engine.Game("oware")`` and on
the OpenSpiel state, and any disagreement about legality or the end is reported.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

try:
    import pyspiel
except ImportError:  # pragma: no cover - depends on the machine
    sys.exit("vs_openspiel: needs OpenSpiel: pip install open-spiel")

from bot.ai import LEVELS, make_player
from bot.ai.arena import OPENING_PLIES, elo, wilson
from bot.engine import Game, Player


def house_of(action: int, player: int) -> int:
    """OpenSpiel numbers each player's houses 0..5 from their own left."""
    return action + 1 + 6 * player


def make_mcts(game, simulations: int, seed: int):
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 1000, True, seed, False)


def calibrate(game, seconds: float) -> int:
    """How many simulations OpenSpiel's MCTS runs in ``seconds`` from the start position (the
    fastest of five trials: a busy machine only ever slows it down)."""
    trial, fastest = 2000, float("inf")
    for seed in range(5):
        bot = make_mcts(game, trial, seed + 1)
        began = time.perf_counter()
        bot.step(game.new_initial_state())
        fastest = min(fastest, time.perf_counter() - began)
    return max(1, int(trial / fastest * seconds))


def play(
    level: str, ours_first: bool, seconds: float, simulations: int, seed: int, opening_seed: int, times: list[float]
) -> tuple[float, int, str]:
    """One game; appends the seconds each of our moves took to ``times``."""
    spiel_game = pyspiel.load_game("oware")
    state = spiel_game.new_initial_state()
    referee = Game("oware", Player.A)
    opening = random.Random(opening_seed)
    for _ in range(OPENING_PLIES):
        house = opening.choice(referee.legal_moves)
        state.apply_action(house - 1 - 6 * int(referee.to_move))
        referee.play(house)
    ours = make_player(level, seed)
    theirs = make_mcts(spiel_game, simulations, seed)
    our_side = 0 if ours_first else 1
    while not referee.is_over:
        player = int(referee.to_move)
        legal = sorted(house_of(a, player) for a in state.legal_actions())
        if legal != referee.legal_moves:
            raise RuntimeError(
                f"legal moves disagree at ply {referee.ply}: OpenSpiel {legal}, ours {referee.legal_moves}"
            )
        if player == our_side:
            began = time.perf_counter()
            house = ours.choose(referee, seconds).house
            times.append(time.perf_counter() - began)
        else:
            house = house_of(theirs.step(state), player)
        referee.play(house)
        state.apply_action(house - 1 - 6 * player)
        if state.is_terminal() != referee.is_over:
            note = f"end disagrees at ply {referee.ply}: OpenSpiel terminal={state.is_terminal()}"
            print(note, file=sys.stderr)
            if state.is_terminal():
                break
    a, b = referee.scores
    mine, other = (a, b) if our_side == 0 else (b, a)
    points = 1.0 if mine > other else 0.5 if mine == other else 0.0
    reason = referee.outcome.termination.value if referee.outcome else "openspiel-end"
    return points, referee.ply, reason


def spiel_perft(state, depth: int) -> int:
    """Move sequences of length ``depth`` from an OpenSpiel state, driven from Python."""
    if state.is_terminal():
        return 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(spiel_perft(state.child(action), depth - 1) for action in actions)


def perft_side_by_side(depth: int) -> None:
    from bot.engine.core import default_backend, machine_for
    from bot.engine.rules import rules_for

    rows = [("OpenSpiel C++ from Python", lambda d: spiel_perft(pyspiel.load_game("oware").new_initial_state(), d))]
    for backend in ("compiled", "python") if default_backend() == "compiled" else ("python",):
        machine = machine_for(rules_for("oware"), backend)
        rows.append((f"ours, {backend}", lambda d, machine=machine: machine.perft(machine.start(), d)))
    print(f"perft of oware from the start, depth {depth}, in this process:")
    for name, count in rows:
        began = time.perf_counter()
        total = count(depth)
        seconds = time.perf_counter() - began
        print(f"  {name:26} {total:>12,} in {seconds:7.2f}s = {total / seconds:>13,.0f} positions/s", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="expert", choices=list(LEVELS))
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--time", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--simulations", type=int, help="OpenSpiel's simulations per move (default: calibrated to --time)"
    )
    parser.add_argument("--perft", type=int, metavar="DEPTH", help="time perft side by side instead of playing")
    args = parser.parse_args()
    if args.perft:
        perft_side_by_side(args.perft)
        return 0
    simulations = args.simulations or calibrate(pyspiel.load_game("oware"), args.time)
    print(f"OpenSpiel MCTSBot: {simulations} simulations per move (~{args.time:g}s), uct_c 2, solver on")
    results: list[float] = []
    times: list[float] = []
    for g in range(args.games):
        opening_seed = args.seed * 1000 + g // 2
        points, plies, reason = play(args.level, g % 2 == 0, args.time, simulations, args.seed + g, opening_seed, times)
        results.append(points)
        print(
            f"game {g + 1:3}: {args.level} as {'A' if g % 2 == 0 else 'B'} scored {points:g} ({plies} plies, {reason})",
            flush=True,
        )
    n, score = len(results), sum(results) / len(results)
    low, high = wilson(score, n)
    wins, draws = results.count(1.0), results.count(0.5)
    print(
        f"{args.level} vs OpenSpiel MCTS: {n} games, +{wins} ={draws} -{n - wins - draws}, {100 * score:.1f}% of points"
    )
    print(f"Elo difference {elo(score):+.0f} (95% interval [{elo(low):+.0f}, {elo(high):+.0f}])")
    over = sum(t > 1.1 * args.time for t in times)
    print(f"our moves: {len(times)}, slowest {max(times):.3f}s for a {args.time:g}s budget, {over} over budget + 10%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
