"""Swiss rounds by the FIDE Dutch system (Handbook C.04.3), as ``caissify-pairings`` pairs them.

The library is a stateless engine: for each round it must be told, for every player to pair,
what happened before (its README, "Caller responsibilities"). :func:`engine_players` works that
out from the event's pairings, round by round:

``score``
    Points so far: a game's result, a forfeit's result, a bye's :data:`~bot.tournament.BYE_POINTS`.
``color_hist``
    ``"white"``/``"black"`` (white: moved first) for each game *played over the board*, in order.
    Byes, forfeits and rounds away leave no entry: FIDE's colour rules look at games played, and
    the engine would read two ``"none"`` entries in a row as a colour streak.
``float_history``
    Exactly one entry per earlier round: against an opponent who had more points before the round
    a player floated ``"up"``, against one who had fewer ``"down"``, else ``"none"``. A bye is a
    downfloat (C.04.3 A.4); a forfeit is ``"down"`` if it gave points, else ``"none"``, and so is
    a round away (not yet joined), as bbpPairings (FIDE's endorsed reference) counts them.
``bye_count``, ``forfeit_win_count``
    Byes had, and forfeits won: either one makes a player ineligible for another bye (C.04.1 c).
``previous_pairings``
    The pairs that *played* each other: they may not meet again. A pair whose game was forfeited
    may (FIDE: only games played count as a meeting).

The engine's pairs and bye are kept; who moves first in each pair is worked out again here by
C.04.3's colour rules (:func:`moves_first`): caissify-pairings 0.5.0 ranks the two players by
pairing number alone where the rules rank them by score first (docs/developers/pairings.md).

Only the entrants active in the round are passed (:meth:`~bot.tournament.Entrant.active_in`), in
starting order (rating down, then user id), which the engine turns into its pairing numbers.
Then the answer is checked: every active player paired once, no two players who have played
meeting again, no bye for anyone who has had one or won by forfeit. The engine's fallbacks
could break either rule in a small or long event; the round is refused with
:class:`~bot.tournament.PairingError` instead.

Round 1 pairs the top half of the rating list with the bottom half (1 against 3, 2 against 4),
the first moves alternating down the boards; round 2 pairs by points and alternates colours:

>>> entrants = [Entrant(1, "Ama", 1800), Entrant(2, "Kofi", 1700), Entrant(3, "Esi", 1600), Entrant(4, "Yaw", 1500)]
>>> [(p.first, p.second) for p in pair_swiss(entrants, [], 1, 3)]
[(1, 3), (4, 2)]
>>> history = [Pairing(1, 1, 3, 1.0), Pairing(1, 4, 2, 0.5)]
>>> [(p.first, p.second) for p in pair_swiss(entrants, history, 2, 3)]
[(2, 1), (3, 4)]

The engine is pure Python (networkx's weighted matchings, run many times a round): round 1 is
instant at any size, but a later round takes about 1 s for 50 players, 10 s for 100 and 3 minutes
for 200 (``python -m benchmarks.tournament``). A caller in an event loop runs it off the loop:
in a thread at least (``asyncio.to_thread``), better in a process (it holds the GIL while it works).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from caissify_pairings import generate_pairings

from .model import Entrant, Pairing, PairingError, starting_numbers

#: The ``system`` of ``caissify_pairings.generate_pairings`` that pairs a Swiss round.
SYSTEM = "dutch"
#: Up to this many players a round is paired by the FIDE Dutch engine; above, by the library's
#: quick ``casual`` Swiss (scores, no rematch, one bye each), because the Dutch engine's time
#: grows too fast: 1.3 s a round at 50 players, 12 s at 100, 171 s at 200 (``benchmarks.tournament``).
DUTCH_PLAYERS = 60


@dataclass
class History:
    """One player's past as the pairing engine needs it (see the module's docstring)."""

    score: float = 0.0
    colours: list[str] = field(default_factory=list)
    floats: list[str] = field(default_factory=list)
    byes: int = 0
    forfeit_wins: int = 0


def pair_swiss(
    entrants: Sequence[Entrant],
    history: Sequence[Pairing],
    round_number: int,
    total_rounds: int,
    *,
    system: str | None = None,
) -> list[Pairing]:
    """The pairings of round ``round_number`` (of ``total_rounds``), in board order, byes last.
    ``system``: the library's engine, ``"dutch"`` (FIDE) or ``"casual"``; by default the Dutch
    one for up to :data:`DUTCH_PLAYERS` active players, the casual one above.

    ``history`` holds the pairings of the earlier rounds, every one decided (later rounds' are
    ignored). Raises :class:`~bot.tournament.PairingError` if fewer than two players are active
    or no pairing keeps the rules (no rematch, no second bye).
    """
    past = earlier_pairings(history, round_number)
    active = [e for e in entrants if e.active_in(round_number)]
    if len(active) < 2:
        raise PairingError(f"round {round_number} has {len(active)} player(s) to pair")
    players = engine_players(entrants, past, round_number)
    previous = played_pairs(past)
    if system is None:
        system = SYSTEM if len(active) <= DUTCH_PLAYERS else "casual"
    answer = generate_pairings(
        system=system,
        players=players,
        previous_pairings=previous,
        round_number=round_number,
        total_rounds=total_rounds,
    )
    seats = {player["id"]: seat(player) for player in players}
    pairings = [allocate_colours(round_number, row, seats) for row in board_order(answer)]
    no_bye = {p["id"] for p in players if p["bye_count"] or p["forfeit_win_count"]}
    check_round(pairings, {e.user_id for e in active}, previous, no_bye)
    return pairings


def most_rounds(players: int) -> int:
    """How many rounds ``players`` can be paired in at most with nobody meeting anyone twice and
    nobody given two byes: every other player once, and with an odd count one bye each. The
    Dutch rules (colours, floats) can stop a Swiss sooner, never later.

    >>> most_rounds(4), most_rounds(5), most_rounds(2)
    (3, 5, 1)
    """
    return players if players % 2 else players - 1


def fewest_players(rounds: int) -> int:
    """The fewest players a Swiss of ``rounds`` rounds needs to have them all paired (the
    inverse of :func:`most_rounds`).

    >>> fewest_players(5), fewest_players(4), fewest_players(1)
    (5, 5, 2)
    """
    return max(2, rounds if rounds % 2 else rounds + 1)


def earlier_pairings(history: Iterable[Pairing], round_number: int) -> list[Pairing]:
    """The pairings before ``round_number``; a ``ValueError`` if one of them is still undecided."""
    past = [p for p in history if p.round < round_number]
    undecided = [p for p in past if not p.decided]
    if undecided:
        raise ValueError(f"round {round_number} cannot be paired before the result of {undecided[0]}")
    return past


def engine_players(entrants: Sequence[Entrant], past: Sequence[Pairing], round_number: int) -> list[dict[str, Any]]:
    """The player dicts ``generate_pairings`` takes, for the entrants active in ``round_number``."""
    histories = player_histories([e.user_id for e in entrants], past, round_number)
    numbers = starting_numbers(entrants)
    return [
        engine_player(entrant, numbers[entrant.user_id], histories[entrant.user_id])
        for entrant in sorted(entrants, key=lambda e: numbers[e.user_id])
        if entrant.active_in(round_number)
    ]


def engine_player(entrant: Entrant, starting_number: int, past: History) -> dict[str, Any]:
    return {
        "id": entrant.user_id,
        "name": entrant.name,
        "score": past.score,
        "rating": round(entrant.rating),
        "starting_number": starting_number,
        "color_hist": past.colours,
        "float_history": past.floats,
        "bye_count": past.byes,
        "forfeit_win_count": past.forfeit_wins,
    }


def player_histories(users: Iterable[int], past: Sequence[Pairing], round_number: int) -> defaultdict[int, History]:
    """The :class:`History` of each of ``users`` before ``round_number``, replayed round by round."""
    histories: defaultdict[int, History] = defaultdict(History, {user: History() for user in users})
    for number in range(1, round_number):
        before = {user: h.score for user, h in histories.items()}
        rounds = [p for p in past if p.round == number]
        for pairing in rounds:
            record_pairing(histories, pairing, before)
        present = {user for p in rounds for user in (p.first, p.second)}
        for user in before.keys() - present:
            histories[user].floats.append("none")  # away this round (not joined yet, or gone)
    return histories


def record_pairing(histories: defaultdict[int, History], pairing: Pairing, before: dict[int, float]) -> None:
    """Add one pairing of a round to its players' histories (``before``: scores before the round)."""
    for user in (pairing.first, pairing.second):
        if user is None:
            continue
        h = histories[user]
        points = pairing.points_of(user)
        assert points is not None  # decided: see earlier_pairings
        h.score += points
        opponent = pairing.opponent_of(user)
        if opponent is None:
            h.byes += 1
            h.floats.append("down")
        elif pairing.played:
            h.colours.append("white" if pairing.moved_first(user) else "black")
            h.floats.append(float_direction(before.get(user, 0.0), before.get(opponent, 0.0)))
        else:
            h.forfeit_wins += points >= 1
            h.floats.append("down" if points > 0 else "none")


def float_direction(mine: float, theirs: float) -> str:
    """A player's float against an opponent, from both scores before the round.

    >>> float_direction(2.0, 1.5), float_direction(1.0, 1.5), float_direction(1.0, 1.0)
    ('down', 'up', 'none')
    """
    if mine > theirs:
        return "down"
    return "up" if mine < theirs else "none"


def played_pairs(past: Iterable[Pairing]) -> set[tuple[int, int]]:
    """The pairs (lower id first) that played a game: they may not be paired again."""
    return {p.pair for p in past if p.played and p.pair is not None}


def board_order(answer: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The engine's rows by table number (its byes come after the games)."""
    return sorted(answer, key=lambda row: row["table"])


def check_round(
    pairings: Sequence[Pairing], active: set[int], previous: set[tuple[int, int]], no_bye: set[int]
) -> None:
    """Refuse a round that breaks a rule: someone paired twice or not at all, a rematch, more than
    one bye, or the bye for one of ``no_bye``: FIDE C.04.1 c, whoever has had a bye or won a game
    by forfeit (the engine's fallbacks give it to them when nobody else may have it)."""
    seated = [user for p in pairings for user in (p.first, p.second) if user is not None]
    if sorted(seated) != sorted(active):
        raise PairingError(f"the engine did not pair every player once: {sorted(seated)} for {sorted(active)}")
    rematches = [p for p in pairings if p.pair in previous]
    if rematches:
        raise PairingError(f"no pairing without a rematch ({rematches[0].first} and {rematches[0].second} have played)")
    byes = [p.first for p in pairings if p.is_bye]
    if len(byes) > 1:
        raise PairingError(f"no pairing with fewer than {len(byes)} byes")
    if byes and byes[0] in no_bye:
        raise PairingError(f"no pairing without a bye for {byes[0]}, who has had one or won by forfeit")


# Colours (C.04.3 E). caissify-pairings 0.5.0 ranks the two players of a pair by pairing number
# alone for E.4 and E.5; A.2 ranks them by score first.

WHITE, BLACK = "white", "black"
#: How much a player wants a colour (C.04.3 A.6), weakest first.
NO_PREFERENCE, MILD, STRONG, ABSOLUTE = range(4)


@dataclass(frozen=True)
class Seat:
    """What the colour rules look at of one player of a pair."""

    #: The colours of the games played, in order (byes, forfeits and rounds away leave none).
    colours: tuple[str, ...]
    score: float
    #: The pairing number: the starting number.
    number: int

    @property
    def rank(self) -> tuple[float, int]:
        """C.04.3 A.2's order, the higher ranked first when sorted: more points, then the lower
        pairing number."""
        return (-self.score, self.number)

    @property
    def difference(self) -> int:
        """The colour difference (A.6): games played with white minus games played with black."""
        return self.colours.count(WHITE) - self.colours.count(BLACK)

    @property
    def preference(self) -> tuple[str | None, int]:
        """The colour wanted and how much (A.6): absolute with a difference beyond ±1 or the
        same colour twice running, strong with ±1, mild otherwise (alternate), none before any
        game. A difference beyond ±1 decides over a repeated colour, as in bbpPairings.

        >>> Seat((WHITE, WHITE), 1, 1).preference, Seat((BLACK, WHITE, WHITE), 1, 1).preference
        (('black', 3), ('black', 3))
        >>> Seat((WHITE,), 1, 1).preference, Seat((WHITE, BLACK), 1, 1).preference, Seat((), 0, 1).preference
        (('black', 2), ('white', 1), (None, 0))
        """
        if not self.colours:
            return None, NO_PREFERENCE
        lower = BLACK if self.difference > 0 else WHITE
        if abs(self.difference) > 1:
            return lower, ABSOLUTE
        if self.colours[-2:] in ((WHITE, WHITE), (BLACK, BLACK)):
            return other_colour(self.colours[-1]), ABSOLUTE
        if self.difference:
            return lower, STRONG
        return other_colour(self.colours[-1]), MILD


def other_colour(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE


def seat(player: dict[str, Any]) -> Seat:
    """The :class:`Seat` of one of :func:`engine_players`' dicts."""
    return Seat(tuple(player["color_hist"]), player["score"], player["starting_number"])


def allocate_colours(round_number: int, row: dict[str, Any], seats: dict[int, Seat]) -> Pairing:
    """The engine's pair (or bye) as a :class:`Pairing`, the first mover by :func:`moves_first`."""
    one, two = row["white_id"], row.get("black_id")
    if two is None:
        return Pairing(round_number, one, None)
    return Pairing(round_number, one, two) if moves_first(seats[one], seats[two]) else Pairing(round_number, two, one)


def moves_first(a: Seat, b: Seat) -> bool:
    """Whether ``a`` has white against ``b`` by C.04.3's colour allocation rules, the first
    that decides: E.1 grant both preferences; E.2 the stronger one (of two absolute ones, the
    wider colour difference's); E.3 alternate the colours to the most recent game in which one
    had white and the other black; E.4 grant the higher ranked player's preference (A.2: score,
    then pairing number); E.5 the higher ranked has the initial colour (white) if his pairing
    number is odd, the other colour if it is even."""
    (wanted, strength_a), (wanted_by_b, strength_b) = a.preference, b.preference
    higher = min(a, b, key=lambda player: player.rank)
    if wanted != wanted_by_b:  # E.1 (also when only one has a preference)
        return wanted == WHITE or wanted_by_b == BLACK
    if wanted is None:  # neither has played a game: E.5
        return (higher is a) == (higher.number % 2 == 1)
    if strength_a != strength_b:  # E.2
        return (strength_a > strength_b) == (wanted == WHITE)
    if strength_a == ABSOLUTE and abs(a.difference) != abs(b.difference):
        return (abs(a.difference) > abs(b.difference)) == (wanted == WHITE)
    for mine, theirs in zip(reversed(a.colours), reversed(b.colours), strict=False):  # E.3
        if mine != theirs:
            return theirs == WHITE
    return (higher is a) == (wanted == WHITE)  # E.4
