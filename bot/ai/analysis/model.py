"""The expected-score model: from the expert's score to a player's chances, and from a lost
chance to a mark and an accuracy.

The expert scores a position from the mover's side in its own units, about 4 per seed ahead;
beyond ±1000 a result is proven (1000 + the final margin in seeds). A score becomes an
*expected score* (1 a win, ½ a draw, 0 a loss) by a logistic curve whose one constant, :data:`K`,
was fitted to self-play games (``python -m bot.ai.analysis fit``; see ``docs/analysis.md``):

>>> expected(0)
0.5
>>> round(expected(4 * 4), 2)  # four seeds ahead
0.73
>>> expected(1000 + 3), expected(-1000 - 1)  # proven win, proven loss
(1.0, 0.0)

A move's *loss* is what it gave away in expected score against the best move; marks and
accuracies are read from it:

>>> mark_for_loss(0.02), mark_for_loss(0.07), mark_for_loss(0.12), mark_for_loss(0.4)
('', '?!', '?', '??')
>>> round(move_accuracy(0.0)), round(move_accuracy(0.05)), round(move_accuracy(0.1)), round(move_accuracy(0.5))
(100, 53, 28, 0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..search import WIN

#: The logistic constant: ``expected(score) = 1 / (1 + exp(-K * score))``. Fitted by
#: ``python -m bot.ai.analysis fit --games 40 --seed 1`` with the tuned evaluation (docs/analysis.md).
K = 0.0635

#: Marks by the expected score a move gave away, worst first. They are lichess's thresholds:
#: lichess marks a drop of its "winning chances" (-1..1) of 0.1, 0.2 and 0.3, which is 0.05,
#: 0.10 and 0.15 of an expected score (0..1). Near an even position that is about one, two and
#: three seeds (docs/analysis.md).
THRESHOLDS: tuple[tuple[str, float], ...] = (("??", 0.15), ("?", 0.10), ("?!", 0.05))
#: Marks from most to least severe, and each one's name in English (for logs and the CLI).
MARKS = {"??": "blunder", "?": "mistake", "?!": "inaccuracy"}

#: Where both values are exact (endgame tables, or a search that saw every line to the end), a
#: move that keeps the result is marked by the seeds of final margin it gives away: this many
#: for a mistake, and :data:`EXACT_INACCURACY` for an inaccuracy. A worse result is a blunder.
EXACT_MISTAKE = 4
EXACT_INACCURACY = 2


def is_proven(score: float) -> bool:
    """Whether ``score`` is a proven result (a win or a loss) rather than an estimate."""
    return abs(score) >= WIN


def expected(score: float, k: float = K) -> float:
    """The expected score (0..1) of the player a ``score`` is for: 1, ½ or 0 for proven results."""
    if is_proven(score):
        return 1.0 if score > 0 else 0.0
    return 1.0 / (1.0 + math.exp(-k * score))


def margin(score: float) -> float:
    """The final margin in seeds a proven score stands for, or an estimate in seeds (4 units a seed).

    >>> margin(1005), margin(-1002), margin(0), margin(10)
    (5, -2, 0.0, 2.5)
    """
    if is_proven(score):
        return score - WIN if score > 0 else score + WIN
    return score / 4


def result_of(score: float) -> int:
    """1 a win, 0 a draw, -1 a loss: the result an exact score stands for."""
    return (score > 0) - (score < 0)


def mark_for_loss(loss: float) -> str:
    """``"??"``, ``"?"``, ``"?!"`` or ``""`` for a move that gave away ``loss`` of expected score."""
    return next((mark for mark, threshold in THRESHOLDS if loss >= threshold - 1e-9), "")


def mark_for_exact(best: float, played: float) -> str:
    """The mark of a move whose value ``played`` and the best ``best`` are both exact."""
    if result_of(played) < result_of(best):
        return "??"  # a win thrown to a draw or a loss, or a draw to a loss
    lost = margin(best) - margin(played)
    return "?" if lost >= EXACT_MISTAKE else "?!" if lost >= EXACT_INACCURACY else ""


#: How fast a move's accuracy falls with the win percentage it gives away: lichess's curve,
#: ``103.1668 * exp(-rate * drop) - 3.1669``, whose rate for chess is 0.04354. A Wari move gives
#: away less at a time than a chess move does (a random move costs a seed or two, not a piece),
#: so lichess's rate let a random mover read 86 to 92; this one was calibrated on games of the
#: computer's levels against its expert (``python -m bot.ai.analysis accuracy``, docs/analysis.md).
ACCURACY_RATE = 0.12


def move_accuracy(loss: float) -> float:
    """The accuracy of one move (0..100) from the win percentage it gave away (``100 * loss``).

    Lichess's curve with Wari's :data:`ACCURACY_RATE`: a move that gives nothing away is 100,
    an inaccuracy's 5 points of win percentage about 53, a mistake's 10 about 28.
    """
    drop = 100 * max(loss, 0.0)
    return min(100.0, max(0.0, 103.1668 * math.exp(-ACCURACY_RATE * drop) - 3.1669))


def game_accuracy(losses: Iterable[float]) -> float:
    """A player's accuracy over a game from the losses of their moves that count (100 with none).

    As lichess does, the mean of two means of the moves' accuracies: the plain one, and the
    harmonic one (each accuracy taken as at least 1), which a few bad moves pull down even among
    many good ones, as they decided the game. (Lichess weighs the plain mean by how much the
    game swung around each move; here the moves made once the result was settled are left out
    instead: :attr:`.verdicts.MoveVerdict.counts_for_accuracy`.)

    >>> round(game_accuracy([0.0, 0.0, 0.0]), 1), round(game_accuracy([0.0, 0.0, 0.3]), 1)
    (100.0, 34.8)
    """
    values = [move_accuracy(loss) for loss in losses]
    if not values:
        return 100.0
    plain = sum(values) / len(values)
    harmonic = len(values) / sum(1 / max(value, 1.0) for value in values)
    return (plain + harmonic) / 2


# -- fitting K -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    """One position of a finished game: the mover's score there, and what the mover scored in
    the end (1 a win, 0.5 a draw, 0 a loss)."""

    score: float
    result: float


@dataclass(frozen=True)
class Fit:
    k: float
    log_loss: float
    samples: int


def log_loss(samples: Sequence[Sample], k: float) -> float:
    """The mean log-loss (natural log) of predicting each sample's result by ``expected(score, k)``."""
    total = 0.0
    for sample in samples:
        z = k * sample.score
        # log(1 + exp(-z)) and log(1 + exp(z)), written so that neither overflows.
        lose_if_won = max(-z, 0.0) + math.log1p(math.exp(-abs(z)))
        lose_if_lost = max(z, 0.0) + math.log1p(math.exp(-abs(z)))
        total += sample.result * lose_if_won + (1 - sample.result) * lose_if_lost
    return total / len(samples)


def _slope(samples: Sequence[Sample], k: float) -> float:
    """The derivative of :func:`log_loss` in ``k``: it grows with ``k`` (the loss is convex)."""
    return sum((expected(s.score, k) - s.result) * s.score for s in samples) / len(samples)


def fit_k(samples: Sequence[Sample], *, tolerance: float = 1e-7) -> Fit:
    """The ``k`` of maximum likelihood for ``samples`` (estimated scores only: proven ones say
    nothing about ``k``), found by bisection on the slope of the log-loss.

    >>> fit = fit_k([Sample(8, 1), Sample(8, 0), Sample(8, 1), Sample(-8, 0), Sample(-8, 1), Sample(-8, 0)])
    >>> round(fit.k, 4), round(fit.log_loss, 4)  # 2 wins in 3 at +8: expected(8) = 2/3
    (0.0866, 0.6365)
    """
    samples = [sample for sample in samples if not is_proven(sample.score)]
    if not samples:
        raise ValueError("no estimated scores to fit")
    low, high = 0.0, 1e-3
    if _slope(samples, low) >= 0:
        return Fit(0.0, log_loss(samples, 0.0), len(samples))  # the scores tell nothing
    while _slope(samples, high) < 0:  # widen until the slope turns
        low, high = high, high * 2
        if high > 1e3:
            raise ValueError("the scores predict every result perfectly: k has no finite fit")
    while high - low > tolerance:
        middle = (low + high) / 2
        low, high = (middle, high) if _slope(samples, middle) < 0 else (low, middle)
    k = (low + high) / 2
    return Fit(k, log_loss(samples, k), len(samples))
