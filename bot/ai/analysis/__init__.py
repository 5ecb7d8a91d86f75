"""Computer analysis of a finished game: which moves were mistakes, and who was ahead when.

Every position of the game is judged by the expert on a fixed node budget (:mod:`.judge`;
exact where the endgame tables know it); each move is then compared with the engine's choice
(:mod:`.verdicts`) through an expected-score model (:mod:`.model`), which marks inaccuracies
``?!``, mistakes ``?`` and blunders ``??`` and gives each player an accuracy. ``docs/analysis.md``
explains it for players.

>>> from bot.engine import Game
>>> game = Game("wari")
>>> for house in (5, 7, 2, 12):
...     _ = game.play(house)
>>> analysis = analyse_game(game, "quick")
>>> [verdict.ply for verdict in analysis.moves], len(analysis.advantage)
([1, 2, 3, 4], 5)
>>> GameAnalysis.from_json(analysis.to_json()) == analysis
True

In the bot, positions are judged in worker processes, one call each of
:func:`judge_position` (text in, JSON out: :func:`bot.ai.worker.analyse_position`), and the
results put together by :func:`assemble`.

``python -m bot.ai.analysis game RECORD`` prints a game's analysis; ``python -m
bot.ai.analysis fit`` fits the model's constant on self-play games.
"""

from .judge import DEPTHS, PositionJudgement, judge, judge_position, position_at
from .model import MARKS, THRESHOLDS, Fit, K, Sample, expected, fit_k, move_accuracy
from .verdicts import FORMAT, GameAnalysis, MoveVerdict, analyse_game, assemble

__all__ = [
    "DEPTHS",
    "FORMAT",
    "K",
    "MARKS",
    "THRESHOLDS",
    "Fit",
    "GameAnalysis",
    "MoveVerdict",
    "PositionJudgement",
    "Sample",
    "analyse_game",
    "assemble",
    "expected",
    "fit_k",
    "judge",
    "judge_position",
    "move_accuracy",
    "position_at",
]
