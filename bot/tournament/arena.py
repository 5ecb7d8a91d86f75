"""The arena, after lichess's: no rounds, a clock for the whole event, and whoever is free is paired
again at once. What counts is points, and winning streaks are worth more.

Scoring (lichess's arena rules, without berserk and without its limits on draw streaks): a win is
worth 2 points, a draw 1, a loss 0. Two wins in a row light a streak: while it lasts, every game is
worth double (a win 4, a draw 2), and the first game that is not a win puts it out (that game
still counts double). A forfeit scores like the game it stands for.

>>> arena_points([1, 1, 1, 0.5, 0, 1])  # W W W D L W: the third win and the draw are on the streak
[2, 2, 4, 2, 0, 2]
>>> arena_points([1, 1, 0, 1, 1, 1, 1])
[2, 2, 0, 2, 2, 4, 4]

Pairing (:func:`arena_pairs`): the players now free, in the order they became free.

* Close ratings: they are paired down the rating list, each with the closest rated player left
  (for a line of ratings, neighbours make the smallest total of gaps).
* Never the same opponent twice in a row: two players are not paired if either one's last game
  was against the other. The only exception is ``allow_repeat=True``, for the caller to pass when
  waiting is pointless: the two are alone, and nobody else is playing (no one can come free), or
  they have waited long. A player who cannot be paired now waits for the next call.
* An odd count: the player who became free last waits (unless that would leave two last
  opponents alone: then the one before waits).
* Who moves first: the one of the two who has moved first fewer times in the event; on a tie,
  the one who became free first.
* In a team battle (``teams``: each player's team), teammates never meet, whatever else: a
  player whose only free opponents are teammates waits.

>>> ratings = {1: 1500, 2: 1720, 3: 1490, 4: 1700, 5: 1600}
>>> arena_pairs([1, 2, 3, 4], {}, ratings, {})
[(2, 4), (1, 3)]
>>> arena_pairs([1, 2, 3, 4], {2: 4, 4: 2}, ratings, {2: 1})  # 2 and 4 just met
[(1, 2), (3, 4)]
>>> arena_pairs([5, 1, 2, 3, 4], {}, ratings, {})  # 4 came last: 4 waits
[(5, 2), (1, 3)]
>>> arena_pairs([1, 2, 3, 4], {}, ratings, {}, teams={1: 7, 3: 7, 2: 8, 4: 8})  # 1 and 3, 2 and 4 are teammates
[(1, 2), (3, 4)]
>>> arena_pairs([1, 3], {}, ratings, {}, allow_repeat=True, teams={1: 7, 3: 7})  # teammates alone: they wait
[]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

#: Arena points of a loss, a draw and a win, off a streak (on a streak: twice as many).
POINTS = {0.0: 0, 0.5: 1, 1.0: 2}
#: Wins in a row that light a streak.
STREAK = 2
#: Whether two players may not be paired now.
Blocked = Callable[[int, int], bool]


def arena_points(results: Sequence[float]) -> list[int]:
    """The arena points of each of one player's games, given their results (1, 0.5, 0) in order."""
    points = []
    wins_in_a_row = 0
    for result in results:
        if result not in POINTS:
            raise ValueError(f"an arena game's result is 1, 0.5 or 0, not {result!r}")
        on_streak = wins_in_a_row >= STREAK
        points.append(POINTS[result] * (2 if on_streak else 1))
        wins_in_a_row = wins_in_a_row + 1 if result == 1 else 0
    return points


def arena_scores(results: Sequence[tuple[int, float]]) -> dict[int, list[int]]:
    """Each player's arena points game by game, from ``(user_id, result)`` in time order (every
    game gives two, one for each player).

    >>> arena_scores([(1, 1.0), (2, 0.0), (1, 1.0), (3, 0.0), (1, 0.5), (2, 0.5)])
    {1: [2, 2, 2], 2: [0, 1], 3: [0]}
    """
    by_player: dict[int, list[float]] = {}
    for user, result in results:
        by_player.setdefault(user, []).append(result)
    return {user: arena_points(games) for user, games in by_player.items()}


def arena_pairs(
    waiting: Sequence[int],
    last_opponent: Mapping[int, int | None],
    ratings: Mapping[int, float],
    first_moves: Mapping[int, int],
    *,
    allow_repeat: bool = False,
    teams: Mapping[int, int] | None = None,
) -> list[tuple[int, int]]:
    """Pairs ``(first, second)`` of the ``waiting`` players (in the order they became free); see
    the module's docstring for the rules. ``last_opponent``: each player's opponent in their last
    game; ``ratings``: every waiting player's; ``first_moves``: how many times each has moved
    first in the event (missing: none); ``teams``: in a team battle, each player's team."""
    queue = list(dict.fromkeys(waiting))
    team_of = teams or {}

    def blocked(a: int, b: int) -> bool:
        if a in team_of and team_of.get(a) == team_of.get(b):
            return True  # teammates: never, not even when waiting is pointless
        return not allow_repeat and (last_opponent.get(a) == b or last_opponent.get(b) == a)

    sitters: list[int | None] = list(reversed(queue)) if len(queue) % 2 else [None]
    for sitter in sitters:
        rest = [user for user in queue if user != sitter]
        pairs = pair_down(rest, ratings, blocked)
        if 2 * len(pairs) == len(rest):
            break
    else:
        pairs = pair_down(queue, ratings, blocked)
    order = {user: index for index, user in enumerate(queue)}
    return [orient(a, b, first_moves, order) for a, b in pairs]


def pair_down(players: list[int], ratings: Mapping[int, float], blocked: Blocked) -> list[tuple[int, int]]:
    """Pairs down the rating list (ties: the one free first), each player with the closest rated
    player left that they may meet; if the last two may not meet, they swap with the pair above."""
    left = sorted(players, key=lambda user: -ratings[user])  # stable: the first free first on a tie
    pairs: list[tuple[int, int]] = []
    while len(left) >= 2:
        top = left.pop(0)
        partner = next((user for user in left if not blocked(top, user)), None)
        if partner is not None:
            left.remove(partner)
            pairs.append((top, partner))
        elif pairs and len(left) == 1 and (swapped := swap(pairs[-1], (top, left[0]), blocked)):
            pairs[-1:] = swapped
            left.clear()
    return pairs


def swap(above: tuple[int, int], stuck: tuple[int, int], blocked: Blocked) -> list[tuple[int, int]] | None:
    """Two pairs made of ``above`` and the two ``stuck`` players who may not meet, if there are."""
    (a, b), (c, d) = above, stuck
    for pairs in ([(a, c), (b, d)], [(a, d), (b, c)]):
        if not any(blocked(x, y) for x, y in pairs):
            return pairs
    return None


def orient(a: int, b: int, first_moves: Mapping[int, int], order: Mapping[int, int]) -> tuple[int, int]:
    """``(first, second)``: the one who has moved first less often moves first (tie: who was free first)."""
    if (first_moves.get(a, 0), order[a]) <= (first_moves.get(b, 0), order[b]):
        return a, b
    return b, a
