"""Judging one position: the engine's best move there and its value, at a fixed node budget.

This is the part a worker process runs (:func:`judge_position`: text in, JSON-able out), once for
each position of the game; :func:`bot.ai.analysis.assemble` then turns the judgements into
verdicts on the moves.

A position's score is from the side of the player to move, in the expert's units (about 4 per
seed; beyond ±1000 a proven result, 1000 + the margin). The search is deterministic (a node
budget, not a clock), so the same position of the same game is always judged the same. Where
the endgame tables know the position, the expert answers from them at once: the value is exact.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from bot.engine import Game
from bot.engine.notation import from_record

from ..expert import ExpertPlayer
from ..search import WIN
from ..tables import best_move

#: Nodes the expert searches per position, by analysis depth. Chosen so that a game of 120 plies
#: is judged in at most 30 s (default) or 10 s (quick) on one core of the development machine,
#: which searches about 3.2 million nodes a second (``python -m benchmarks.analysis``).
DEPTHS = {"default": 500_000, "quick": 150_000}
#: The expert's seed: its search draws nothing at random, but a fixed one keeps it so.
SEED = 0


@dataclass(frozen=True)
class PositionJudgement:
    """What the engine thinks of the position after the first ``ply`` moves of a game.

    ``score`` is for ``player``: the player to move, or, once the game is over, the player who
    made the last move (the final margin, seen from their side). ``best`` is ``None`` then.
    """

    ply: int
    player: int
    best: int | None
    score: int
    #: The value is exact: the tables' or a search that saw every line to the end.
    exact: bool
    #: The expected line, starting with ``best``.
    pv: tuple[int, ...]
    depth: str
    over: bool = False

    def to_dict(self) -> dict:
        """A JSON-able dict (what crosses the process boundary)."""
        return {**asdict(self), "pv": list(self.pv)}

    @classmethod
    def from_dict(cls, data: dict) -> PositionJudgement:
        return cls(**{**data, "pv": tuple(data["pv"])})


def judge_position(record_text: str, ply: int, depth: str) -> dict:
    """Judge the position after the first ``ply`` moves of the game ``record_text`` describes.

    Returns :meth:`PositionJudgement.to_dict`. Only sowing moves count: a last ply that ends the
    game without one (a surrender, time, an agreed draw) is not a position of its own.
    """
    return judge(position_at(record_text, ply), depth).to_dict()


def position_at(record_text: str, ply: int) -> Game:
    """The game of ``record_text`` after its first ``ply`` sowing moves, with that history."""
    game, _ = from_record(record_text)
    sowings = sum(1 for move in game.moves if move.sows)
    if not 0 <= ply <= sowings:
        raise ValueError(f"the game has positions 0 to {sowings}, not {ply}")
    while game.ply > ply:
        game.undo()
    return game


def sowing_count(game: Game) -> int:
    """How many moves of ``game`` sowed: its positions are 0 to that many."""
    return sum(1 for move in game.moves if move.sows)


def judge(game: Game, depth: str) -> PositionJudgement:
    """Judge ``game``'s current position with the budget of ``depth`` (see :data:`DEPTHS`)."""
    if depth not in DEPTHS:
        raise ValueError(f"unknown depth {depth!r}: choose one of {', '.join(DEPTHS)}")
    if game.outcome is not None:
        return _final(game, depth)
    mover = int(game.to_move or 0)
    legal = game.legal_moves
    if len(legal) == 1 and best_move(game) is None:
        return _forced(game, legal[0], depth)
    # Every position on the same budget, the opening's too: a book move's deeper score would
    # not compare with the searched ones around it.
    decision = ExpertPlayer(SEED, max_nodes=DEPTHS[depth], without=frozenset({"book"})).choose(game, seconds=60)
    score = round(decision.score)
    return PositionJudgement(game.ply, mover, decision.house, score, decision.exact, decision.pv, depth)


def _final(game: Game, depth: str) -> PositionJudgement:
    """A finished game's position, valued by its final margin from the last mover's side."""
    assert game.outcome is not None
    player = int(game.last_move.player) if game.last_move else 0  # a record may start at its end
    scores = game.outcome.scores
    margin = scores[player] - scores[1 - player]
    score = 0 if margin == 0 else WIN + margin if margin > 0 else -WIN + margin
    return PositionJudgement(game.ply, player, None, score, True, (), depth, over=True)


def _forced(game: Game, house: int, depth: str) -> PositionJudgement:
    """A position with one legal move is worth what that move leads to. (The expert answers a
    forced move at once without a score, so the position after it is judged instead.)"""
    mover = int(game.to_move or 0)
    after = game.copy()
    after.play(house)
    then = judge(after, depth)
    score = then.score if then.player == mover else -then.score
    return PositionJudgement(game.ply, mover, house, score, then.exact, (house, *then.pv), depth)
