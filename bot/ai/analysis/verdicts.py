"""From the judgement of every position of a game to a verdict on every move.

For the move from position ``i`` to ``i + 1`` by player ``p``:

- the best move's value for ``p`` is position ``i``'s score (the engine's own choice there);
- the played move's value for ``p`` is position ``i + 1``'s score, negated when the other side
  moves there, as it is when ``p`` moves again (a Kalah extra turn, an Ouril extra move);
- both become expected scores (:func:`.model.expected`), and the move's *loss* is what it gave
  away, never below 0. The engine's own move loses nothing by definition: a deeper look at the
  next position may score it a little lower, which is the search's noise, not the player's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import astuple, dataclass, fields

from bot.engine import Game
from bot.engine.notation import from_record, record, rules_code

from . import model
from .judge import DEPTHS, PositionJudgement, judge, sowing_count

#: The version of :meth:`GameAnalysis.to_json`; a reader refuses any other.
FORMAT = "wari-analysis/1"
#: Called with (positions judged, positions in all) while a game is analysed.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class MoveVerdict:
    """The engine's verdict on one move. Values are in the expert's units, for the mover."""

    #: 1 for the game's first move.
    ply: int
    #: 0 for A, 1 for B.
    player: int
    house: int
    #: The engine's choice; the same as ``house`` when the move was the engine's.
    best: int
    value_played: int
    value_best: int
    #: Expected score of the mover (0..1) with the best move, and after the move played.
    expected_before: float
    expected_after: float
    #: ``expected_before - expected_after``, never below 0.
    loss: float
    #: ``""``, ``"?!"`` (inaccuracy), ``"?"`` (mistake) or ``"??"`` (blunder).
    mark: str
    #: Both values were exact (endgame tables or a complete search): marked on the result and
    #: margin, not on the expected score.
    exact: bool
    #: Seeds the best move would have won over the move played: of final margin when exact,
    #: else estimated (4 units a seed).
    seeds_lost: float

    @property
    def accuracy(self) -> float:
        """This move's accuracy, 0..100 (:func:`.model.move_accuracy`)."""
        return model.move_accuracy(self.loss)

    @property
    def counts_for_accuracy(self) -> bool:
        """Whether the move counts in its player's accuracy: not when it was made in a position
        whose result was settled (proven, or exact) and kept that result. Once a game is lost
        for sure, every move loses and none gives anything away: a crushed player's tail of
        such moves would read as perfect play. A move that throws a settled result away counts."""
        settled = self.exact or model.is_proven(self.value_best)
        return not settled or self.loss > 0


@dataclass(frozen=True)
class GameAnalysis:
    """The computer's analysis of a whole game: a verdict per move and the advantage over time.

    ``advantage[i]`` is A's expected score (0..1) at position ``i`` (0 the start, the last one
    after the last move): what the chart draws.
    """

    variant: str
    depth: str
    moves: tuple[MoveVerdict, ...]
    advantage: tuple[float, ...]
    #: The logistic constant the expected scores were computed with.
    k: float = model.K

    def of(self, player: int) -> list[MoveVerdict]:
        """The verdicts on ``player``'s moves, in order."""
        return [verdict for verdict in self.moves if verdict.player == player]

    def accuracy(self, player: int, after_ply: int = 0) -> float:
        """``player``'s accuracy over the game, 0..100 (:func:`.model.game_accuracy`); over the
        moves after ply ``after_ply`` only, where those before were nobody's choice (an opening
        drawn at random)."""
        return model.game_accuracy(
            verdict.loss for verdict in self.of(player) if verdict.counts_for_accuracy and verdict.ply > after_ply
        )

    def counts(self, player: int) -> dict[str, int]:
        """How many inaccuracies (``?!``), mistakes (``?``) and blunders (``??``) ``player`` made."""
        marks = [verdict.mark for verdict in self.of(player)]
        return {mark: marks.count(mark) for mark in ("?!", "?", "??")}

    def worst(self, player: int, n: int = 3) -> list[MoveVerdict]:
        """``player``'s ``n`` worst marked moves, the largest loss first (blunders first on a tie)."""
        marked = [verdict for verdict in self.of(player) if verdict.mark]
        severity = {"??": 2, "?": 1, "?!": 0}
        marked.sort(key=lambda v: (-v.loss, -severity[v.mark], -v.seeds_lost, v.ply))
        return marked[:n]

    def to_json(self) -> str:
        """A compact, stable JSON text (what the database stores): each move is one list in the
        order of :class:`MoveVerdict`'s fields."""
        return json.dumps(
            {
                "format": FORMAT,
                "variant": self.variant,
                "depth": self.depth,
                "k": self.k,
                "moves": [list(astuple(verdict)) for verdict in self.moves],
                "advantage": list(self.advantage),
            },
            separators=(",", ":"),
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> GameAnalysis:
        """Read back :meth:`to_json`'s text; ``ValueError`` for another format or a damaged one."""
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} analysis")
        names = [field.name for field in fields(MoveVerdict)]
        try:
            moves = tuple(MoveVerdict(**dict(zip(names, row, strict=True))) for row in data["moves"])
            return cls(data["variant"], data["depth"], moves, tuple(data["advantage"]), data["k"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"a damaged {FORMAT} analysis: {exc}") from None


def analyse_game(game_or_record: Game | str, depth: str = "default", progress: Progress | None = None) -> GameAnalysis:
    """Judge every position of a game in this process, one after the other, and assemble them.

    This is what the command line, the benchmark and the tests use; the bot judges the positions
    in its worker processes (:func:`bot.ai.worker.analyse_position`) and calls :func:`assemble`.
    """
    game = _game(game_or_record)
    total = sowing_count(game)
    position = game.copy()
    while position.ply > total:
        position.undo()  # a surrender, time or agreement is not a move to judge
    judgements: list[PositionJudgement] = []
    for ply in range(total, -1, -1):  # from the end: undoing is cheaper than replaying
        judgements.append(judge(position, depth))
        if progress:
            progress(len(judgements), total + 1)
        if ply:
            position.undo()
    return assemble(game, judgements[::-1])


def assemble(
    game_or_record: Game | str, judgements: Sequence[PositionJudgement | Mapping], k: float = model.K
) -> GameAnalysis:
    """The analysis of a game from the judgement of each of its positions, 0 to the last.

    ``judgements`` may be :class:`PositionJudgement` or their dicts, as the workers return them;
    they must all be of the same depth.
    """
    game = _game(game_or_record)
    sowings = [move for move in game.moves if move.sows]
    found = [j if isinstance(j, PositionJudgement) else PositionJudgement.from_dict(dict(j)) for j in judgements]
    if [j.ply for j in found] != list(range(len(sowings) + 1)):
        raise ValueError(f"need the judgements of positions 0 to {len(sowings)}, in order")
    depths = {j.depth for j in found}
    if len(depths) != 1 or not depths <= DEPTHS.keys():
        raise ValueError(f"the judgements are of different or unknown depths: {sorted(depths)}")
    verdicts = tuple(
        _verdict(ply, move.player, move.house, found[ply - 1], found[ply], k)
        for ply, move in enumerate(sowings, start=1)
    )
    advantage = tuple(_for_a(j, k) for j in found)
    return GameAnalysis(rules_code(game.rules), depths.pop(), verdicts, advantage, k)


def _game(game_or_record: Game | str) -> Game:
    """A replayed game of our own: one taken up from storage could not be undone far enough."""
    text = game_or_record if isinstance(game_or_record, str) else record(game_or_record)
    return from_record(text)[0]


def _for_a(judgement: PositionJudgement, k: float) -> float:
    chance = model.expected(judgement.score, k)
    return round(chance if judgement.player == 0 else 1 - chance, 4)


def _verdict(
    ply: int, player: int, house: int, before: PositionJudgement, after: PositionJudgement, k: float
) -> MoveVerdict:
    best_value = before.score
    played_value = after.score if after.player == player else -after.score
    engine_move = house == before.best
    exact = before.exact and after.exact
    chance_best, chance_played = model.expected(best_value, k), model.expected(played_value, k)
    loss = 0.0 if engine_move else max(0.0, chance_best - chance_played)
    if engine_move:
        mark = ""
    elif exact:
        mark = model.mark_for_exact(best_value, played_value)
    else:
        mark = model.mark_for_loss(loss)
    seeds = 0.0 if engine_move else max(0.0, model.margin(best_value) - model.margin(played_value))
    return MoveVerdict(
        ply=ply,
        player=int(player),
        house=house,
        best=before.best if before.best is not None else house,
        value_played=played_value,
        value_best=best_value,
        expected_before=round(chance_best, 4),
        expected_after=round(chance_played, 4),
        loss=round(loss, 4),
        mark=mark,
        exact=exact,
        seeds_lost=round(seeds, 2),
    )
