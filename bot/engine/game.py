"""A game of Wari (or any variant) with history: the API the bot, the terminal and the AI use.

>>> game = Game("wari")
>>> [str(game.play(h)) for h in (5, 7, 2, 12)]
['A(5,4)', 'B(7,5)', 'A(2,4)', 'B(12,5)+2']
>>> game.board, game.scores, game.to_move
((5, 1, 6, 6, 0, 6, 0, 6, 6, 5, 5, 0), (0, 2), <Player.A: 0>)
>>> game.undo()
MoveRecord(player=<Player.B: 1>, house=12, seeds=5, captures=((5, 2),), extra_turn=False, grand_slam=False, ending=None)
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from .core import Machine, State, machine_for
from .rules import GrandSlam, Rules, rules_for

__all__ = ["Player", "Termination", "Outcome", "MoveRecord", "IllegalMoveError", "Game"]


class Player(enum.IntEnum):
    """The two sides. A owns houses 1..n and moves first unless told otherwise."""

    A = 0
    B = 1

    @property
    def other(self) -> Player:
        return Player(1 - self)

    @classmethod
    def parse(cls, text: str) -> Player:
        """``"A"``/``"b"`` to a player; anything else raises ``ValueError``."""
        try:
            return cls[text.strip().upper()]
        except (KeyError, AttributeError):
            raise ValueError(f"a player is A or B, not {text!r}") from None

    def __str__(self) -> str:
        return self.name


class Termination(enum.Enum):
    """Why a game ended."""

    MAJORITY = "majority"  #: a player holds more than half of the seeds
    NO_LEGAL_MOVE = "no_legal_move"  #: the player to move cannot move; the seeds left are shared out
    CYCLE = "cycle"  #: a position came back; each player takes their own row
    SURRENDER = "surrender"  #: a player gave up
    TIME = "time"  #: the player to move ran out of time; the opponent wins
    AGREEMENT = "agreement"  #: both players agreed to a draw


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game."""

    winner: Player | None  #: ``None`` for a draw
    scores: tuple[int, int]  #: prisoners (stores in Kalah) of A and B
    termination: Termination

    @property
    def result(self) -> str:
        """``"A"``, ``"B"`` or ``"draw"``: the form used in records and JSON."""
        return "draw" if self.winner is None else self.winner.name


@dataclass(frozen=True)
class MoveRecord:
    """What one move did. ``str()`` gives the notation: ``A(5,4)``, ``B(12,5)+2``, ``A(surrender)``.

    Houses are numbered 1..2n as in the rules. A ply that ends the game without sowing (a
    surrender, running out of time, a draw by agreement) has an ``ending``, ``house`` 0 and
    ``seeds`` 0, and is written ``A(surrender)``, ``B(time)``, ``A(agreement)``.
    """

    player: Player
    house: int
    seeds: int
    #: (house number, seeds) for every house whose seeds went to the mover's store by capture.
    captures: tuple[tuple[int, int], ...] = ()
    extra_turn: bool = False
    #: The move would have taken every seed of the opponent's row (see the variant's rule).
    grand_slam: bool = False
    #: Why this ply ended the game without sowing (surrender, time, agreement); ``None`` for a sowing.
    #: ``player`` is who surrendered, or for time and agreement the player to move at the time.
    ending: Termination | None = None
    #: Set on the move that ended the game; it is not part of the move's identity.
    outcome: Outcome | None = field(default=None, compare=False, repr=False)

    @property
    def sows(self) -> bool:
        """Whether this ply emptied a house (``False`` for a surrender, time or agreement)."""
        return self.ending is None

    @property
    def surrender(self) -> bool:
        return self.ending is Termination.SURRENDER

    @property
    def captured(self) -> int:
        """Seeds this move put in the mover's store by capturing."""
        return sum(seeds for _, seeds in self.captures)

    def __str__(self) -> str:
        if self.ending is not None:
            return f"{self.player.name}({self.ending.value})"
        text = f"{self.player.name}({self.house},{self.seeds})"
        return f"{text}+{self.captured}" if self.captures else text


class IllegalMoveError(ValueError):
    """A move that the rules forbid. The message says why; the game is unchanged."""


@dataclass
class _Ply:
    """What undo needs: the state before the move and the record it produced."""

    before: State
    record: MoveRecord
    outcome_before: Outcome | None
    #: The position this move added to the repetition set, taken out again on undo.
    added: State | None = None


class _Earlier:
    """The moves of a game taken up from storage (:meth:`Game.resumed`), kept as their notation,
    in one text (a live game is kept in memory between presses: one string, not one a move);
    played again (``replay``) only if someone reads them in full."""

    __slots__ = ("_moves", "_replay", "_sown", "count", "last", "notation")

    def __init__(self, texts: Sequence[str], last: MoveRecord | None, replay: Callable[[], Game]) -> None:
        self.notation, self.count, self.last, self._replay = " ".join(texts), len(texts), last, replay
        self._moves: list[MoveRecord] | None = None
        self._sown: frozenset[Player] | None = None

    @property
    def sown(self) -> frozenset[Player]:
        """The sides that sowed in these moves (an ending, ``A(surrender)``, sows nothing), read
        from their notation once: the game's copies share them, and they never change."""
        if self._sown is None:
            self._sown = frozenset(Player[text[0]] for text in self.texts if text[2:3].isdigit())
        return self._sown

    @property
    def texts(self) -> list[str]:
        """Each move's notation, oldest first."""
        return self.notation.split()

    def moves(self) -> list[MoveRecord]:
        if self._moves is None:
            self._moves = self._replay().moves
        return list(self._moves)


class Game:
    """A game in progress: the board, whose turn it is, the moves so far and the outcome.

    Create one for a variant (a name or a :class:`Rules`) and the first player; ``first=None``
    picks one at random (pass ``rng`` for a reproducible choice).
    """

    def __init__(
        self,
        rules: Rules | str = "wari",
        first: Player | str | None = Player.A,
        *,
        rng: random.Random | None = None,
    ) -> None:
        self.rules = rules_for(rules) if isinstance(rules, str) else rules
        self._machine: Machine = machine_for(self.rules)
        if first is None:
            first = (rng or random).choice((Player.A, Player.B))
        self.first = Player.parse(first) if isinstance(first, str) else Player(first)
        self._reset(self._machine.start(self.first))

    def _reset(self, state: State) -> None:
        #: The position the game started from (the opening, or a position string's).
        self.start_state = state
        self._state = state
        self._plies: list[_Ply] = []
        self._seen: set[State] = set()
        self._outcome: Outcome | None = None
        self._legal: list[int] | None = None
        self._earlier: _Earlier | None = None
        self._settle()

    @classmethod
    def resumed(
        cls,
        rules: Rules,
        *,
        first: Player,
        start_state: State,
        state: State,
        earlier: Sequence[str],
        last_move: MoveRecord | None,
        seen: Iterable[State],
        outcome: Outcome | None,
        replay: Callable[[], Game],
    ) -> Game:
        """A game taken up at ``state`` after the moves ``earlier`` (their notation), without
        playing them again: what :func:`bot.engine.notation.resume` builds from a stored game.

        ``last_move`` is the last of them in full, ``seen`` the positions that may still come back
        (see :meth:`repetition_set`), ``outcome`` how it ended, if it did. ``replay`` builds the
        same game by playing every move, and is called only if :attr:`moves` is read in full.
        Such a game reads and plays on exactly as the replayed one; it cannot :meth:`undo` past
        the position it was taken up at.
        """
        game = cls.__new__(cls)
        game.rules = rules
        game._machine = machine_for(rules)
        game.first = first
        game.start_state = tuple(start_state)
        game._state = tuple(state)
        game._plies = []
        game._seen = set(seen)
        game._outcome = outcome
        game._legal = None
        game._earlier = _Earlier(earlier, last_move, replay)
        return game

    @classmethod
    def from_state(cls, rules: Rules, state: State) -> Game:
        """A game starting from an arbitrary state (no history; see :mod:`.notation`)."""
        game = cls.__new__(cls)
        game.rules = rules
        game._machine = machine_for(rules)
        if len(state) != rules.pits + 4:
            raise ValueError(f"a {rules.label} state has {rules.pits + 4} numbers, not {len(state)}")
        game.first = Player(state[game._machine.turn])
        game._reset(tuple(state))
        return game

    # -- reading the position -------------------------------------------------------------

    @property
    def state(self) -> State:
        """The compact state tuple (see :mod:`bot.engine.core`)."""
        return self._state

    @property
    def board(self) -> tuple[int, ...]:
        """Seeds in houses 1..2n (index 0 is house 1)."""
        return self._state[: self.rules.pits]

    @property
    def scores(self) -> tuple[int, int]:
        """Prisoners (Kalah: stores) of A and B."""
        m = self._machine
        return self._state[m.store[0]], self._state[m.store[1]]

    @property
    def to_move(self) -> Player | None:
        """The player whose turn it is; ``None`` once the game is over."""
        return None if self._outcome else Player(self._state[self._machine.turn])

    @property
    def owes_extra_move(self) -> bool:
        """Ouril: the player to move just made a grand slam and must now feed the opponent."""
        return bool(self._state[self._machine.extra])

    @property
    def legal_moves(self) -> list[int]:
        """House numbers (1..2n) the player to move may empty; empty once the game is over."""
        if self._outcome:
            return []
        if self._legal is None:
            self._legal = [i + 1 for i in self._machine.legal(self._state)]
        return list(self._legal)

    def is_legal(self, house: int) -> bool:
        return house in self.legal_moves

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        return self._outcome

    @property
    def moves(self) -> list[MoveRecord]:
        """Every move played so far, oldest first, including a last ply with an ``ending``.

        A game taken up from storage (:meth:`resumed`) plays its earlier moves again for this, once.
        """
        earlier = self._earlier.moves() if self._earlier else []
        return earlier + [ply.record for ply in self._plies]

    @property
    def last_move(self) -> MoveRecord | None:
        """The last move played (``None`` before the first): cheap, whatever the game's length."""
        if self._plies:
            return self._plies[-1].record
        return self._earlier.last if self._earlier else None

    @property
    def sides_sown(self) -> set[Player]:
        """The sides that have sown at least once (a surrender, time-out or agreement is no move),
        read from the moves' notation (``A(5,4)``; an ending is ``A(surrender)``): a game taken up
        from storage plays none of its moves again for it.

        >>> from bot.engine.notation import record, resume, snapshot
        >>> game = Game("wari")
        >>> _ = game.play(5)
        >>> again = resume(record(game), snapshot(game))
        >>> again.sides_sown == {move.player for move in again.moves if move.sows} == {Player.A}
        True
        """
        sown = {ply.record.player for ply in self._plies if ply.record.sows}
        return sown | self._earlier.sown if self._earlier else sown

    def move_texts(self) -> list[str]:
        """Every move played so far in notation (``A(5,4)``...), oldest first."""
        earlier = self._earlier.texts if self._earlier else []
        return earlier + [str(ply.record) for ply in self._plies]

    @property
    def seen_positions(self) -> frozenset[State]:
        """States reached so far in this game; reaching one again ends it (see ``detects_cycles``)."""
        return frozenset(self._seen)

    def repetition_set(self) -> frozenset[State]:
        """The states reached so far that could still come back.

        Seeds never return to the board once captured (or, in Kalah, sown into a store), so a
        state with more seeds on the board than now can never be reached again: only those with
        as many as now matter. This is what a stored game keeps to detect repetitions.
        """
        on_board = sum(self.board)
        pits = self.rules.pits
        return frozenset(state for state in self._seen if sum(state[:pits]) == on_board)

    @property
    def ply(self) -> int:
        """Number of moves played so far."""
        return len(self._plies) + (self._earlier.count if self._earlier else 0)

    def copy(self) -> Game:
        """An independent copy with the same history."""
        twin = Game.__new__(Game)
        twin.__dict__.update(self.__dict__)
        twin._plies = [replace(ply) for ply in self._plies]
        twin._seen = set(self._seen)
        return twin

    # -- changing it ----------------------------------------------------------------------

    def play(self, house: int) -> MoveRecord:
        """Empty ``house`` (1..2n) for the player to move and return what happened.

        :raises IllegalMoveError: with the reason, leaving the game unchanged.
        """
        reason = self.why_illegal(house)
        if reason:
            raise IllegalMoveError(reason)
        before, mover = self._state, Player(self._state[self._machine.turn])
        after, effect = self._machine.play(before, house - 1)
        record = MoveRecord(
            player=mover,
            house=house,
            seeds=before[house - 1],
            captures=tuple((j + 1, seeds) for j, seeds in effect.captures),
            extra_turn=effect.extra_turn,
            grand_slam=effect.grand_slam,
        )
        return self._push(after, record)

    def surrender(self, player: Player | str | None = None) -> MoveRecord:
        """``player`` (default: the one to move) gives up; the opponent wins. The board stays."""
        if self._outcome:
            raise IllegalMoveError("the game is over")
        player = (
            self._mover() if player is None else (Player.parse(player) if isinstance(player, str) else Player(player))
        )
        return self._end(player, Termination.SURRENDER, winner=player.other)

    def time_out(self) -> MoveRecord:
        """The player to move ran out of time; the opponent wins. The board stays.

        :raises IllegalMoveError: if the game is already over.
        """
        if self._outcome:
            raise IllegalMoveError("the game is over")
        mover = self._mover()
        return self._end(mover, Termination.TIME, winner=mover.other)

    def agree_draw(self) -> MoveRecord:
        """Both players agree to a draw, recorded as a ply of the player to move. The board stays.

        :raises IllegalMoveError: if the game is already over.
        """
        if self._outcome:
            raise IllegalMoveError("the game is over")
        return self._end(self._mover(), Termination.AGREEMENT, winner=None)

    def replay(self, move: MoveRecord) -> MoveRecord:
        """Play ``move``, recorded in a game of the same rules, again here: its sowing or its ending.

        >>> played = Game("wari")
        >>> moves = [played.play(5), played.surrender()]
        >>> again = Game("wari")
        >>> [str(again.replay(move)) for move in moves]
        ['A(5,4)', 'B(surrender)']
        """
        if move.ending is Termination.SURRENDER:
            return self.surrender(move.player)
        if move.ending is Termination.TIME:
            return self.time_out()
        if move.ending is Termination.AGREEMENT:
            return self.agree_draw()
        return self.play(move.house)

    def _mover(self) -> Player:
        """The player whose turn it is in the current state (what :attr:`to_move` gives while the
        game goes on; callers check that it does)."""
        return Player(self._state[self._machine.turn])

    def _end(self, player: Player, ending: Termination, winner: Player | None) -> MoveRecord:
        """Push a ply by ``player`` that ends the game with ``ending`` and sows nothing."""
        record = MoveRecord(player=player, house=0, seeds=0, ending=ending)
        return self._push(self._state, record, Outcome(winner, self.scores, ending))

    def _push(self, after: State, record: MoveRecord, outcome: Outcome | None = None) -> MoveRecord:
        ply = _Ply(self._state, record, self._outcome)
        self._plies.append(ply)
        self._state = after
        self._legal = None
        if outcome:
            self._outcome = outcome
        else:
            ply.added = self._settle()
        if self._outcome:
            ply.record = record = replace(record, outcome=self._outcome)
        return record

    def undo(self) -> MoveRecord:
        """Take back the last move (or surrender, time out, agreed draw) and return its record."""
        if not self._plies:
            raise IndexError(
                "no move to undo" if self._earlier is None else "cannot undo past the position the game was taken up at"
            )
        ply = self._plies.pop()
        self._seen.discard(ply.added)
        self._state = ply.before
        self._outcome = ply.outcome_before
        self._legal = None
        return replace(ply.record, outcome=None)

    def _settle(self) -> State | None:
        """End the game if the position just reached ends it (majority, cycle, no move).

        Returns the position added to the repetition set, if any.
        """
        machine, state = self._machine, self._state
        if machine.majority(state):
            self._finish(state, Termination.MAJORITY)
            return None
        if self.rules.detects_cycles and state in self._seen:
            self._finish(machine.share_rows(state), Termination.CYCLE)
            return None
        self._seen.add(state)
        self._legal = [i + 1 for i in machine.legal(state)]
        if not self._legal:
            self._finish(machine.settle(state), Termination.NO_LEGAL_MOVE)
        return state

    def _finish(self, final: State, why: Termination) -> None:
        self._state = final
        a, b = self.scores
        winner = None if a == b else (Player.A if a > b else Player.B)
        self._outcome = Outcome(winner, (a, b), why)

    # -- explaining refusals ----------------------------------------------------------------

    def why_illegal(self, house: int) -> str | None:
        """``None`` if ``house`` may be played now, else a sentence saying why not."""
        if self._outcome:
            return "the game is over"
        rules, state = self.rules, self._state
        if not isinstance(house, int) or isinstance(house, bool) or not 1 <= house <= rules.pits:
            return f"there is no house {house}: houses are numbered 1 to {rules.pits}"
        if house in self.legal_moves:
            return None
        mover = Player(state[self._machine.turn])
        if rules.owner(house) != mover:
            return f"house {house} belongs to {mover.other.name}; {mover.name} plays houses {_row(rules, mover)}"
        if not state[house - 1]:
            return f"house {house} is empty"
        own = range(rules.houses * mover, rules.houses * (mover + 1))
        if rules.single_seed_rule and state[house - 1] == 1 and any(state[j] > 1 for j in own):
            return f"house {house} holds a single seed, which may be played only when no house of yours holds more"
        opponent_empty = not any(state[j] for j in range(rules.houses * mover.other, rules.houses * (mover.other + 1)))
        feeds = self._machine.fed[house - 1][state[house - 1]] > 0
        if opponent_empty and not feeds and not self.owes_extra_move:
            return f"{mover.other.name} has no seeds: you must play a move that sows into their row"
        if rules.grand_slam is GrandSlam.CAPTURE_AND_REPLAY:
            return "after your grand slam this extra move must leave your opponent at least one seed"
        if rules.grand_slam is GrandSlam.FORCED_ONLY:
            return "this move would leave your opponent without seeds, and another move does not"
        return "this move would capture every seed of your opponent (a grand slam is not allowed)"


def _row(rules: Rules, player: Player) -> str:
    first = 1 + rules.houses * player
    return f"{first} to {first + rules.houses - 1}"
