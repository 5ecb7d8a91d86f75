"""``python -m bot.ai.tune``: the expert's evaluation weights, fitted to self-play.

Texel tuning. Games are played between the project's levels (the expert on small node budgets
with the hand-set evaluation, greedy, MCTS), with random moves mixed in so that both sides get
ahead and behind; every quiet position of a game (the mover has no capture: no exchange is
half-way) is a sample, labelled with what the mover went on to score (1, 1/2 or 0). The
evaluation ``e`` of a position, a weighted sum of :data:`.expert.FEATURES`, predicts that score
as ``1 / (1 + exp(-K e))``; the fit minimises the log-loss of those predictions:

1. ``K`` is fitted first for the hand-set evaluation (its units: quarter seeds), then fixed;
2. the weights are fitted by Newton's method (the log-loss is convex in them), pure Python.

With ``--teacher NODES``, ``collect`` distils a search instead: the expert plays itself (as it
plays, on 5,000 to 60,000 nodes a move, a random move now and then), and half of its quiet
positions are labelled with what a search of ``NODES`` nodes expects the mover to score (its
value through the analysis's curve, :func:`.analysis.model.expected`; proven values are left
out, they say nothing of what an estimate should be). The fit then keeps that curve's ``K``, so
the weights learn to say at once, in the search's own units, what the deeper search found. The
positions are the expert's own, and the labels far less noisy than one game's result.

Games are split in two by their number: the fit sees four games in five, the fifth is held out
and its log-loss is reported too. Everything follows from ``--seed``.

    python -m bot.ai.tune collect --variant oware --games 1500 --seed 1 --out oware.samples
    python -m bot.ai.tune collect --variant oware --games 1200 --seed 11 --teacher 100000 --jobs 2 --out taught.samples
    python -m bot.ai.tune fit oware.samples --write          # weights.json gains the fitted set
    python -m bot.ai.tune match --variant oware --games 100 --time 0.1 --a tuned --b hand
    python -m bot.ai.tune match --games 100 --a tuned --b tuned --b-without reductions --jobs 2

``fit`` prints the samples, the log-loss before and after and the weights; ``--write`` stores
them in ``bot/ai/weights.json`` (whose ``default`` says which set the expert plays each variant
with: ``--default`` changes it). ``match`` plays the expert with one set against the expert with another, colours
alternating, each pair of games from the same random opening; ``--a-without`` and
``--b-without`` take search techniques or the opening book away from a side
(:data:`.expert.OPTIONAL`), which is how each was shown to gain; ``--jobs`` plays that many
games at once.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import random
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from bot.engine import Game, Player, rules_for
from bot.engine.core import CompiledMachine, Machine, State, _core, machine_for
from bot.engine.rules import VARIANTS

from .analysis import model
from .arena import GameResult, moves_of, play_game, report
from .base import Strategy
from .expert import (
    FEATURES,
    NAMED,
    OPTIONAL,
    TABLE_SEEDS,
    WEIGHT_ONE,
    WEIGHTS_PATH,
    ExpertPlayer,
    features,
    load_weights,
)
from .mcts import MctsPlayer
from .simple import GreedyPlayer, RandomPlayer

#: The hand-set evaluation as weights of :data:`FEATURES` (it rounds each term down apart; the
#: house tables are left out, at 0).
HAND = (4.0, 0.5, 2.0, 1.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0) + (0.0,) * (len(FEATURES) - len(NAMED))
#: Random plies at the start of every self-play game.
OPENING_PLIES = 4
#: The chances of a random move instead of the level's, drawn per side and game.
NOISE = (0.0, 0.03, 0.1, 0.2)
#: Every HOLDOUT-th game is held out of the fit.
HOLDOUT = 5
#: With a teacher: each side is the expert on one of these node budgets (drawn per game)...
TAUGHT_NODES = (5_000, 20_000, 60_000)
#: ... playing a random move with this chance, ...
TAUGHT_NOISE = 0.05
#: ... and the teacher labels this share of the quiet positions (neighbours say much the same).
TAUGHT_SHARE = 0.5


@dataclass(frozen=True)
class Sample:
    game: int
    result: float  # what the mover went on to score (1, 0.5 or 0), or a teacher's expected score
    state: State


# -- collecting ------------------------------------------------------------------------------


def make_side(rng: random.Random) -> Strategy:
    """One side of a self-play game: a level on a small, fixed budget (deterministic per seed)."""
    seed = rng.randrange(2**31)
    makers: list[Callable[[], Strategy]] = [
        lambda: ExpertPlayer(seed, max_nodes=1_000, weights="hand"),
        lambda: ExpertPlayer(seed, max_nodes=4_000, weights="hand"),
        lambda: ExpertPlayer(seed, max_nodes=16_000, weights="hand"),
        lambda: ExpertPlayer(seed, max_nodes=64_000, weights="hand"),
        lambda: MctsPlayer(seed, max_iterations=200),
        lambda: GreedyPlayer(seed),
    ]
    return rng.choices(makers, weights=(3, 3, 3, 2, 1, 1))[0]()


def is_quiet(m: Machine, state: State, moves: Sequence[int]) -> bool:
    """Whether no move of the player to move captures."""
    store = m.store[state[m.turn]]
    return all(m.play(state, move)[0][store] == state[store] for move in moves)


def self_play(number: int, seed: int, variant: str) -> list[Sample]:
    """The quiet positions of one self-play game (number ``number`` of the run ``seed``)."""
    rng = random.Random(f"{seed}:{variant}:{number}")
    game = Game(rules_for(variant), Player.A)
    m = machine_for(game.rules)
    sides = {Player.A: make_side(rng), Player.B: make_side(rng)}
    noise = {Player.A: rng.choice(NOISE), Player.B: rng.choice(NOISE)}
    noisy = RandomPlayer(rng.randrange(2**31))
    positions: list[tuple[State, Player]] = []
    while (mover := game.to_move) is not None:
        moves = game.legal_moves
        if game.ply >= OPENING_PLIES and is_quiet(m, game.state, [house - 1 for house in moves]):
            positions.append((game.state, mover))
        random_move = game.ply < OPENING_PLIES or rng.random() < noise[mover]
        game.play((noisy if random_move else sides[mover]).choose(game, seconds=60).house)
    assert game.outcome is not None
    winner = game.outcome.winner
    return [Sample(number, 0.5 if winner is None else float(winner == player), state) for state, player in positions]


def taught_play(number: int, seed: int, variant: str, teacher: int) -> list[Sample]:
    """Half the quiet positions of one game of the expert against itself (number ``number`` of
    the run ``seed``), each labelled with what a search of ``teacher`` nodes expects the mover
    to score. Positions it proves are left out."""
    rng = random.Random(f"{seed}:{variant}:{number}")
    game = Game(rules_for(variant), Player.A)
    m = machine_for(game.rules)
    sides = {player: ExpertPlayer(rng.randrange(2**31), max_nodes=rng.choice(TAUGHT_NODES)) for player in Player}
    noisy = RandomPlayer(rng.randrange(2**31))
    judge = ExpertPlayer(1, max_nodes=teacher, without=frozenset({"book"}))
    samples = []
    while (mover := game.to_move) is not None:
        moves = game.legal_moves
        if (
            game.ply >= OPENING_PLIES
            and len(moves) > 1
            and is_quiet(m, game.state, [house - 1 for house in moves])
            and rng.random() < TAUGHT_SHARE
        ):
            judged = judge.choose(game, seconds=60)
            if not judged.exact and not model.is_proven(judged.score):
                samples.append(Sample(number, round(model.expected(judged.score), 5), game.state))
        random_move = game.ply < OPENING_PLIES or rng.random() < TAUGHT_NOISE
        game.play((noisy if random_move else sides[mover]).choose(game, seconds=60).house)
    return samples


def collect(
    variant: str,
    games: int,
    seed: int,
    report: Callable[[int, int], None] | None = None,
    teacher: int | None = None,
    jobs: int = 1,
) -> list[Sample]:
    """The samples of ``games`` games (played ``jobs`` at a time: the same samples however many),
    labelled by their results, or by a search of ``teacher`` nodes."""
    one_game = (
        functools.partial(taught_play, seed=seed, variant=variant, teacher=teacher)
        if teacher
        else functools.partial(self_play, seed=seed, variant=variant)
    )
    samples: list[Sample] = []
    with ProcessPoolExecutor(jobs) as pool:
        for done, game_samples in enumerate(pool.map(one_game, range(games)), 1):
            samples += game_samples
            if report:
                report(done, len(samples))
    return samples


#: A samples file's first line: its variant, and the teacher's nodes if a search labelled it.
HEADER = re.compile(r"# variant (?P<variant>\w+)(?: taught by (?P<teacher>\d+) nodes)?:")


def write_samples(path: Path, variant: str, samples: Iterable[Sample], teacher: int | None = None) -> None:
    with path.open("w") as out:
        taught = f" taught by {teacher} nodes" if teacher else ""
        out.write(f"# variant {variant}{taught}: game result state\n")
        for s in samples:
            out.write(f"{s.game} {s.result:g} {','.join(map(str, s.state))}\n")


def read_samples(path: Path) -> tuple[str, list[Sample], bool]:
    """A samples file's variant, its samples, and whether a search labelled them."""
    lines = path.read_text().splitlines()
    header = HEADER.match(lines[0]) if lines else None
    if header is None:
        raise ValueError(f"{path}: not a samples file (python -m bot.ai.tune collect writes them)")
    samples = []
    for line in lines[1:]:
        game, result, state = line.split()
        samples.append(Sample(int(game), float(result), tuple(int(x) for x in state.split(","))))
    return header["variant"], samples, header["teacher"] is not None


# -- fitting ---------------------------------------------------------------------------------


def feature_rows(variant: str, samples: Sequence[Sample]) -> list[list[int]]:
    """The features of every sample (from the compiled core when built: the same numbers)."""
    m = machine_for(rules_for(variant))
    if isinstance(m, CompiledMachine) and _core is not None and hasattr(_core, "features"):
        key = m.key
        return [list(_core.features(*key, s.state)) for s in samples]
    return [features(m, s.state, len(m.legal(s.state))) for s in samples]


def sigmoid(x: float) -> float:
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix x = vector`` by Gaussian elimination with partial pivoting."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        if abs(a[col][col]) < 1e-15:
            continue
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            if factor:
                for c in range(col, n + 1):
                    a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in reversed(range(n)):
        if abs(a[r][r]) < 1e-15:
            continue
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def newton(
    rows: Sequence[Sequence[int]],
    results: Sequence[float],
    start: Sequence[float],
    ridge: float = 1e-4,
    steps: int = 12,
    report: Callable[[int, float], None] | None = None,
) -> list[float]:
    """The ``z`` of least log-loss of ``sigmoid(z . f)`` (plus ``ridge |z|^2 / 2``) from ``start``.

    A row has a few dozen features that are not 0 (the house tables are one 1 a house): each
    step works on those alone."""
    z = list(start)
    n, count = len(z), len(rows)
    sparse = [[(i, fi) for i, fi in enumerate(f) if fi] for f in rows]
    for step in range(steps):
        gradient = [ridge * zi for zi in z]
        hessian = [[ridge if i == j else 0.0 for j in range(n)] for i in range(n)]
        loss = 0.0
        for f, y in zip(sparse, results, strict=True):
            p = sigmoid(sum(z[i] * fi for i, fi in f))
            q = min(max(p, 1e-12), 1 - 1e-12)
            loss -= y * math.log(q) + (1 - y) * math.log(1 - q)
            d, h = (p - y) / count, p * (1 - p) / count
            for i, fi in f:
                gradient[i] += d * fi
                hf = h * fi
                row = hessian[i]
                for j, fj in f:
                    if j <= i:
                        row[j] += hf * fj
        for i in range(n):
            for j in range(i):
                hessian[j][i] = hessian[i][j]
        if report:
            report(step, loss / count)
        delta = solve(hessian, gradient)
        z = [zi - di for zi, di in zip(z, delta, strict=True)]
        if max(abs(di) for di in delta) < 1e-7:
            break
    return z


@dataclass(frozen=True)
class Fit:
    variant: str
    games: int
    samples: int
    k: float
    weights: tuple[float, ...]
    hand_loss: tuple[float, float]  # (fitted games, held-out games)
    tuned_loss: tuple[float, float]


def fit(variant: str, samples: Sequence[Sample], report: Callable[[str], None] = print, taught: bool = False) -> Fit:
    """The weights of least log-loss on four games in five. ``taught``: the samples are a
    search's values made expected scores by the analysis's curve, whose ``K`` the fit keeps."""
    rows = feature_rows(variant, samples)
    train = [i for i, s in enumerate(samples) if s.game % HOLDOUT]
    test = [i for i, s in enumerate(samples) if not s.game % HOLDOUT]
    results = [s.result for s in samples]

    def scored(weights: Sequence[float], which: list[int]) -> list[model.Sample]:
        """What ``weights`` score the samples ``which``, each with its result."""
        return [model.Sample(sum(w * f for w, f in zip(weights, rows[i], strict=True)), results[i]) for i in which]

    def loss(weights: Sequence[float], which: list[int], k: float) -> float:
        return model.log_loss(scored(weights, which), k)

    k = model.K if taught else model.fit_k(scored(HAND, train)).k
    hand = (loss(HAND, train, k), loss(HAND, test, k))
    report(
        f"{variant}: {len({s.game for s in samples})} games, {len(samples)} quiet positions "
        f"({len(train)} fitted, {len(test)} held out)"
    )
    how = "fitted for the hand-set evaluation"
    if taught:
        how = "the analysis's, as the teacher's values were made expected scores"
    report(f"K = {k:.5f} ({how}); log-loss hand-set {hand[0]:.4f}, held out {hand[1]:.4f}")
    z = newton(
        [rows[i] for i in train],
        [results[i] for i in train],
        [k * w for w in HAND],
        report=lambda step, value: report(f"  Newton step {step}: log-loss {value:.5f}"),
    )
    weights = tuple(round(WEIGHT_ONE * zi / k) / WEIGHT_ONE for zi in z)
    tuned = (loss(weights, train, k), loss(weights, test, k))
    report(f"log-loss tuned {tuned[0]:.4f}, held out {tuned[1]:.4f}")
    named = len(NAMED)
    for name, old, new in zip(NAMED, HAND[:named], weights[:named], strict=True):
        report(f"  {name:9} {old:7.3f} -> {new:7.3f}")
    width = TABLE_SEEDS + 1
    for start in range(named, len(FEATURES), width):
        row = FEATURES[start].split("=")[0]  # "own 1", say: that house's weights by its seeds
        report(f"  {row:9} " + " ".join(f"{w:6.2f}" for w in weights[start : start + width]))
    games = len({s.game for s in samples})
    return Fit(variant, games, len(samples), k, weights, hand, tuned)


def write_weights(result: Fit, command: str, default: str | None, path: Path = WEIGHTS_PATH) -> None:
    data: dict = load_weights(path) if path.exists() else {"features": list(FEATURES), "default": "hand"}
    data.setdefault("tuned", {})[result.variant] = list(result.weights)
    data.setdefault("fits", {})[result.variant] = {
        "command": command,
        "games": result.games,
        "samples": result.samples,
        "K": round(result.k, 6),
        "log_loss_hand": [round(x, 5) for x in result.hand_loss],
        "log_loss_tuned": [round(x, 5) for x in result.tuned_loss],
    }
    if default:
        choices = data.get("default", "hand")
        if not isinstance(choices, dict):
            choices = dict.fromkeys(data["tuned"], choices)
        choices[result.variant] = default
        data["default"] = choices
    path.write_text(json.dumps(data, indent=2) + "\n")


# -- matches ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One side of a match: the expert with a set of weights (from the project's weights file or
    another), maybe without some techniques."""

    weights: str
    without: frozenset[str] = frozenset()
    weights_file: Path | None = None

    def __str__(self) -> str:
        source = f" of {self.weights_file.name}" if self.weights_file else ""
        return self.weights + source + "".join(f" -{name}" for name in sorted(self.without))

    def player(self, seed: int) -> ExpertPlayer:
        return ExpertPlayer(seed, weights=self.weights, without=self.without, weights_file=self.weights_file)


def play_match_game(
    variant: str, a: Side, b: Side, seconds: float, plies: int, game_number: int, match_seed: int
) -> GameResult:
    """Game ``game_number`` of a match. Games 2k and 2k+1 share a random opening of ``plies``
    plies; ``a`` moves first in the even ones."""
    seed = match_seed * 7919 + game_number
    a_first = game_number % 2 == 0
    opening_seed = match_seed * 1000 + game_number // 2
    players = moves_of(a.player(seed)), moves_of(b.player(seed + 1))
    return play_game(variant, opening_seed, plies, a_first, *players, seconds)


def match(args: argparse.Namespace) -> int:
    a, b = Side(args.a, args.a_without, args.a_file), Side(args.b, args.b_without, args.b_file)
    began = time.perf_counter()
    one_game = functools.partial(
        play_match_game, args.variant, a, b, args.time, args.opening_plies, match_seed=args.seed
    )
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(one_game, range(args.games)))
    for g, result in enumerate(results):
        print(f"game {g + 1:3}: {a} as {'A' if g % 2 == 0 else 'B'} scored {result.points_a:g} ({result.reason})")
    print(report(f"expert {a}", f"expert {b}", results, args.time))
    print(f"{args.variant}, {args.time:g}s a move, {time.perf_counter() - began:.0f}s in all")
    return 0


# -- the command -----------------------------------------------------------------------------


def without(text: str) -> frozenset[str]:
    """``--a-without``'s value: what the expert may play without (search techniques, its book),
    comma-separated, or ``all`` of them: the expert as it was before any of them."""
    names = frozenset(OPTIONAL) if text == "all" else frozenset(filter(None, text.split(",")))
    if not names <= set(OPTIONAL):
        raise argparse.ArgumentTypeError(f"choose from {', '.join(OPTIONAL)} or all")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.tune", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="self-play games -> labelled quiet positions")
    c.add_argument("--variant", default="oware", choices=VARIANTS)
    c.add_argument("--games", type=int, default=1000)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--out", type=Path, required=True)
    c.add_argument(
        "--teacher",
        type=int,
        metavar="NODES",
        help="label positions of the expert's own games by a search of NODES nodes",
    )
    c.add_argument("--jobs", type=int, default=1, help="games played at once (one core each)")
    f = sub.add_parser("fit", help="fit the weights to collected samples")
    f.add_argument("samples", type=Path)
    f.add_argument("--write", action="store_true", help="store the weights in bot/ai/weights.json")
    f.add_argument(
        "--default", choices=("hand", "tuned"), help="with --write: the set the expert plays this variant with"
    )
    f.add_argument("--weights-file", type=Path, default=WEIGHTS_PATH)
    m = sub.add_parser("match", help="the expert with one set of weights against another")
    m.add_argument("--variant", default="oware", choices=VARIANTS)
    m.add_argument("--games", type=int, default=100)
    m.add_argument("--time", type=float, default=0.1)
    m.add_argument("--a", default="tuned", choices=("default", "hand", "tuned"))
    m.add_argument("--b", default="hand", choices=("default", "hand", "tuned"))
    m.add_argument("--opening-plies", type=int, default=4)
    m.add_argument("--seed", type=int, default=1)
    for side in ("a", "b"):
        m.add_argument(
            f"--{side}-without",
            type=without,
            default=frozenset(),
            help=f"what {side} plays without, comma-separated: {', '.join(OPTIONAL)}, or all",
        )
        m.add_argument(
            f"--{side}-file", type=Path, help=f"the weights file {side}'s set is read from (default: the project's)"
        )
    m.add_argument("--jobs", type=int, default=1, help="games played at once (one core each)")
    args = parser.parse_args(argv)
    if args.command == "collect":
        began = time.perf_counter()

        def progress(done: int, count: int) -> None:
            if done % 50 == 0 or done == args.games:
                print(f"{done} games, {count} quiet positions, {time.perf_counter() - began:.0f}s", flush=True)

        samples = collect(args.variant, args.games, args.seed, progress, args.teacher, args.jobs)
        write_samples(args.out, args.variant, samples, args.teacher)
        print(f"wrote {len(samples)} samples to {args.out}")
        return 0
    if args.command == "fit":
        variant, samples, taught = read_samples(args.samples)
        if not samples:
            parser.error(f"{args.samples} holds no samples")
        result = fit(variant, samples, taught=taught)
        print(json.dumps({variant: list(result.weights)}))
        if args.write:
            command = f"python -m bot.ai.tune fit {args.samples.name} --write"
            write_weights(result, command, args.default, args.weights_file)
            print(f"wrote {args.weights_file}")
        return 0
    return match(args)


if __name__ == "__main__":
    sys.exit(main())
