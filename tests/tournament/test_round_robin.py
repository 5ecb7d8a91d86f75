"""Round-robin schedules: everyone meets everyone, once or twice, with a bye a round if odd."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from bot.tournament import Entrant, round_robin_rounds


def field(count: int) -> list[Entrant]:
    return [Entrant(user, f"P{user}", 2000 - 10 * user) for user in range(1, count + 1)]


def meetings(rounds) -> Counter:
    return Counter(p.pair for games in rounds for p in games if p.pair is not None)


def test_six_players_meet_once_each_in_five_rounds():
    rounds = round_robin_rounds(field(6))
    assert len(rounds) == 5
    assert [len(games) for games in rounds] == [3] * 5
    assert meetings(rounds) == Counter(dict.fromkeys(combinations(range(1, 7), 2), 1))
    for number, games in enumerate(rounds, start=1):
        assert all(p.round == number and p.result is None for p in games)
        assert sorted(u for p in games for u in (p.first, p.second)) == [1, 2, 3, 4, 5, 6]


def test_the_berger_table_of_six_players():
    """FIDE's Berger table for 6 (Handbook C.05, annex 1), players numbered by rating."""
    tables = [
        {(1, 6), (2, 5), (3, 4)},
        {(6, 4), (5, 3), (1, 2)},
        {(2, 6), (3, 1), (4, 5)},
        {(6, 5), (1, 4), (2, 3)},
        {(3, 6), (4, 2), (5, 1)},
    ]
    assert [{(p.first, p.second) for p in games} for games in round_robin_rounds(field(6))] == tables


def test_five_players_each_rest_once():
    rounds = round_robin_rounds(field(5))
    assert len(rounds) == 5
    assert meetings(rounds) == Counter(dict.fromkeys(combinations(range(1, 6), 2), 1))
    byes = [p.first for games in rounds for p in games if p.is_bye]
    assert sorted(byes) == [1, 2, 3, 4, 5]
    assert all(games[-1].is_bye and len(games) == 3 for games in rounds)


def test_a_double_round_robin_swaps_the_colours():
    rounds = round_robin_rounds(field(4), double=True)
    assert len(rounds) == 6
    assert meetings(rounds) == Counter(dict.fromkeys(combinations(range(1, 5), 2), 2))
    first_cycle = {(p.first, p.second) for games in rounds[:3] for p in games}
    second_cycle = {(p.first, p.second) for games in rounds[3:] for p in games}
    assert second_cycle == {(b, a) for a, b in first_cycle}


def test_the_starting_list_decides_the_numbers_not_the_order_given():
    shuffled = field(6)[::-1]
    assert round_robin_rounds(shuffled) == round_robin_rounds(field(6))


def test_one_player_is_no_round_robin():
    with pytest.raises(ValueError):
        round_robin_rounds(field(1))


def colours_played(rounds, user: int) -> str:
    """One letter a game played, in round order: w moved first, b second (a bye is no game)."""
    return "".join("w" if p.first == user else "b" for games in rounds for p in games if p.has(user) and not p.is_bye)


@pytest.mark.parametrize("count", range(3, 15))
def test_in_a_double_round_robin_nobody_has_the_same_colour_three_games_running(count):
    rounds = round_robin_rounds(field(count), double=True)
    for user in range(1, count + 1):
        colours = colours_played(rounds, user)
        assert "www" not in colours and "bbb" not in colours, (user, colours)


def test_a_double_round_robin_plays_the_last_two_rounds_of_the_first_cycle_the_other_way_round():
    """FIDE's recommendation (Handbook C.05, annex 1): rounds 4 and 5 of six players' table are
    played fifth and fourth; the second cycle is the table again, colours reversed."""
    single = round_robin_rounds(field(6))
    double = round_robin_rounds(field(6), double=True)
    berger = [[(p.first, p.second) for p in games] for games in single]
    played = [[(p.first, p.second) for p in games] for games in double]
    assert played[:5] == [berger[0], berger[1], berger[2], berger[4], berger[3]]
    assert played[5:] == [[(b, a) for a, b in games] for games in berger]
    assert [p.round for games in double for p in games[:1]] == list(range(1, 11))
