"""The classic toy strategies of the early Wari programs: random, low, again and greedy."""

from __future__ import annotations

from bot.engine import Game

from .base import Decision, Progress, Strategy


class RandomPlayer(Strategy):
    name = "random"
    summary = "any legal move, uniformly at random"

    def choose(self, game: Game, seconds: float = 1.0, progress: Progress | None = None) -> Decision:
        return Decision(self.rng.choice(game.legal_moves))


class LowPlayer(Strategy):
    name = "low"
    summary = "the legal house with the lowest number"

    def choose(self, game: Game, seconds: float = 1.0, progress: Progress | None = None) -> Decision:
        return Decision(min(game.legal_moves))


class AgainPlayer(Strategy):
    name = "again"
    summary = "a move that ends in its own store for an extra turn (Kalah), else the lowest house"

    def choose(self, game: Game, seconds: float = 1.0, progress: Progress | None = None) -> Decision:
        for house in sorted(game.legal_moves):
            trial = game.copy()
            if trial.play(house).extra_turn and game.rules.stores_on_path:
                return Decision(house)
        return Decision(min(game.legal_moves))


class GreedyPlayer(Strategy):
    name = "greedy"
    summary = "the move that captures most at once, ties broken at random"

    def choose(self, game: Game, seconds: float = 1.0, progress: Progress | None = None) -> Decision:
        gains = {house: game.copy().play(house).captured for house in game.legal_moves}
        best = max(gains.values())
        return Decision(self.rng.choice([house for house, gain in gains.items() if gain == best]), score=best)
