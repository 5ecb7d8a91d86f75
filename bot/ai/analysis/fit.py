"""Fitting the model's constant :data:`.model.K` on self-play games, and checking the accuracy's
calibration on games of the computer's levels against its expert.

Games are played between a mix of the project's levels, each side drawn at random (an expert on
a small node budget, MCTS on a few hundred iterations, greedy), with random moves mixed in so
that results vary and both sides get ahead and behind. Every position of every game is then
judged as an analysis would judge it, and each estimated score is paired with what the mover
went on to score (1, ½ or 0). :func:`.model.fit_k` finds the ``K`` that predicts those results
best (maximum likelihood).

:func:`accuracy_figures` plays each level of :data:`CALIBRATION_LEVELS` against the expert and
reads both players' accuracies from the analysis: a random mover must read low, the expert high
(``python -m bot.ai.analysis accuracy``; the figures are in docs/analysis.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.engine import Game, Player, rules_for

from .. import Strategy
from ..expert import ExpertPlayer
from ..mcts import MctsPlayer
from ..simple import GreedyPlayer, RandomPlayer
from .judge import judge
from .model import Sample, is_proven
from .verdicts import analyse_game

#: Random plies at the start of every game, so that no two games are alike.
OPENING_PLIES = 2
#: The chances of a random move instead of the level's, drawn per side and game.
NOISE = (0.0, 0.05, 0.15)


def make_side(rng: random.Random) -> Strategy:
    """One side of a self-play game: a level on a small, fixed budget (deterministic per seed)."""
    seed = rng.randrange(2**31)
    makers: list[Callable[[], Strategy]] = [
        lambda: ExpertPlayer(seed, max_nodes=2_000),
        lambda: ExpertPlayer(seed, max_nodes=20_000),
        lambda: MctsPlayer(seed, max_iterations=300),
        lambda: GreedyPlayer(seed),
    ]
    return rng.choice(makers)()


def self_play(seed: int, variant: str = "wari") -> Game:
    """One finished game between two sides drawn by ``seed``."""
    rng = random.Random(seed)
    game = Game(rules_for(variant), Player.A)
    sides = {Player.A: make_side(rng), Player.B: make_side(rng)}
    noise = {Player.A: rng.choice(NOISE), Player.B: rng.choice(NOISE)}
    noisy = RandomPlayer(seed)
    while (mover := game.to_move) is not None:
        random_move = game.ply < OPENING_PLIES or rng.random() < noise[mover]
        game.play((noisy if random_move else sides[mover]).choose(game, seconds=60).house)
    return game


def samples_of(game: Game, depth: str) -> list[Sample]:
    """A sample for every position of the finished ``game`` whose score is an estimate."""
    assert game.outcome is not None
    winner = game.outcome.winner
    replay = Game.from_state(game.rules, game.start_state)
    samples = []
    for move in game.moves:
        judgement = judge(replay, depth)
        if not judgement.exact and not is_proven(judgement.score):
            result = 0.5 if winner is None else float(winner == judgement.player)
            samples.append(Sample(judgement.score, result))
        replay.play(move.house)
    return samples


def collect(
    games: int, seed: int, depth: str, variant: str = "wari", report: Callable[[int, Game, int], None] | None = None
) -> list[Sample]:
    """The samples of ``games`` self-play games (seeds ``seed``, ``seed + 1``...)."""
    samples: list[Sample] = []
    for number in range(games):
        game = self_play(seed + number, variant)
        samples += samples_of(game, depth)
        if report:
            report(number + 1, game, len(samples))
    return samples


#: The levels set against the expert to check the accuracy, weakest first, each as it plays in
#: the calibration games (the expert on a small budget, so that its games vary with the opening).
CALIBRATION_LEVELS: dict[str, Callable[[int], Strategy]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "mcts": lambda seed: MctsPlayer(seed, max_iterations=300),
    "expert": lambda seed: ExpertPlayer(seed, max_nodes=20_000),
}


def calibration_game(level: str, seed: int, variant: str = "wari") -> tuple[Game, Player]:
    """A finished game of ``level`` against the expert (20,000 nodes a move), after
    :data:`OPENING_PLIES` random plies; the level plays A on even seeds, B on odd ones.
    Returns the game and the level's side."""
    side = Player.A if seed % 2 == 0 else Player.B
    players = {side: CALIBRATION_LEVELS[level](seed), side.other: ExpertPlayer(seed + 1, max_nodes=20_000)}
    opening = RandomPlayer(seed)
    game = Game(rules_for(variant), Player.A)
    while (mover := game.to_move) is not None:
        player = opening if game.ply < OPENING_PLIES else players[mover]
        game.play(player.choose(game, seconds=60).house)
    return game, side


def accuracy_figures(level: str, games: int, seed: int, depth: str = "quick") -> list[tuple[float, float]]:
    """(the level's accuracy, the expert's) in ``games`` calibration games, seeds ``seed`` on,
    over the moves after the random opening: a random move of the expert's side is not the
    expert's (in a short game one would weigh as much as several of its own)."""
    figures = []
    for number in range(seed, seed + games):
        game, side = calibration_game(level, number)
        analysis = analyse_game(game, depth)
        figures.append((analysis.accuracy(int(side), OPENING_PLIES), analysis.accuracy(int(side.other), OPENING_PLIES)))
    return figures
