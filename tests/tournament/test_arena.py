"""The arena: lichess's streak scoring, and the pairing of the players who are free."""

from __future__ import annotations

import random

import pytest

from bot.tournament import arena_pairs, arena_points, arena_scores

W, D, L = 1.0, 0.5, 0.0


@pytest.mark.parametrize(
    ("results", "points"),
    [
        ([W, W, W, D, L, W], [2, 2, 4, 2, 0, 2]),  # the third win and the draw are on the streak
        ([W, W, W, W, L, W, W, W], [2, 2, 4, 4, 0, 2, 2, 4]),  # the loss puts it out; lit again
        ([W, D, W, W, D, D], [2, 1, 2, 2, 2, 1]),  # a draw on a streak is 2 and ends it
        ([D, D, L, L], [1, 1, 0, 0]),
        ([], []),
    ],
)
def test_streak_scoring(results, points):
    assert arena_points(results) == points


def test_scores_per_player_in_time_order():
    results = [(1, W), (2, L), (3, D), (4, D), (1, W), (3, L), (1, W), (2, W), (1, L), (4, W)]
    assert arena_scores(results) == {1: [2, 2, 4, 0], 2: [0, 2], 3: [1, 0], 4: [1, 2]}


def test_a_result_must_be_a_win_a_draw_or_a_loss():
    with pytest.raises(ValueError):
        arena_points([0.75])


RATINGS = {1: 1500.0, 2: 1720.0, 3: 1490.0, 4: 1700.0, 5: 1600.0, 6: 1300.0}


def test_close_ratings_are_paired():
    assert arena_pairs([1, 2, 3, 4], {}, RATINGS, {}) == [(2, 4), (1, 3)]


def test_the_last_opponent_is_never_met_again():
    # 2 and 4 are the two highest: they would meet, but they just played each other.
    pairs = arena_pairs([1, 2, 3, 4], {2: 4, 4: 2}, RATINGS, {})
    assert {frozenset(p) for p in pairs} == {frozenset((2, 1)), frozenset((4, 3))}


def test_a_last_game_counts_from_either_side():
    # 4's last game was against 2, though 2 has played someone else since.
    pairs = arena_pairs([2, 4, 1, 3], {4: 2, 2: 5}, RATINGS, {})
    assert frozenset((2, 4)) not in {frozenset(p) for p in pairs}
    assert len(pairs) == 2


def test_the_last_two_who_may_not_meet_swap_with_the_pair_above():
    # Down the ratings: 2-4, then 5 and 1 are left, who just met: 2-5 and 4-1 instead.
    pairs = arena_pairs([2, 4, 5, 1], {5: 1, 1: 5}, RATINGS, {})
    assert {frozenset(p) for p in pairs} == {frozenset((2, 5)), frozenset((4, 1))}


def test_the_odd_one_out_is_the_last_to_come_free():
    pairs = arena_pairs([5, 1, 2, 3, 4], {}, RATINGS, {})
    assert 4 not in {u for p in pairs for u in p}
    assert len(pairs) == 2


def test_unless_that_leaves_two_who_may_not_meet():
    # 1 and 2 just met; 3 came last. If 3 waited, nobody could play: 2 waits, 1 plays 3.
    assert arena_pairs([1, 2, 3], {1: 2, 2: 1}, RATINGS, {}) == [(1, 3)]


def test_two_last_opponents_alone_wait_unless_the_caller_allows_them():
    assert arena_pairs([1, 2], {1: 2, 2: 1}, RATINGS, {}) == []
    assert arena_pairs([1, 2], {1: 2, 2: 1}, RATINGS, {1: 1}, allow_repeat=True) == [(2, 1)]


def test_who_moves_first():
    # 2 has moved first more often than 4: 4 moves first.
    assert arena_pairs([2, 4], {}, RATINGS, {2: 3, 4: 1}) == [(4, 2)]
    # The same: the one free first.
    assert arena_pairs([4, 2], {}, RATINGS, {2: 1, 4: 1}) == [(4, 2)]


def test_many_waves_never_repeat_the_last_opponent() -> None:
    rng = random.Random(7)
    ratings = {user: rng.uniform(1200, 2000) for user in range(20)}
    last: dict[int, int | None] = {}
    firsts: dict[int, int] = {}
    for _ in range(200):
        waiting = rng.sample(sorted(ratings), rng.randrange(0, 12))
        pairs = arena_pairs(waiting, last, ratings, firsts)
        seated = [u for p in pairs for u in p]
        assert len(seated) == len(set(seated)) and set(seated) <= set(waiting)
        assert len(waiting) - len(seated) <= 1 or len(waiting) == 2
        for first, second in pairs:
            assert last.get(first) != second and last.get(second) != first
            last[first], last[second] = second, first
            firsts[first] = firsts.get(first, 0) + 1
