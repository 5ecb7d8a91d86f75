"""Team battles: each team's best N players score (lichess's rule), teams level on score are told
apart by their leaders best first, and pairing never makes teammates meet. The figures are worked
out by hand in each test."""

from __future__ import annotations

import random

import pytest

from bot.tournament import Entrant, Pairing, Standing, Team, arena_pairs, arena_standings, team_standings

LIONS, TIGERS, EAGLES = Team(1, "Lions"), Team(2, "Tigers"), Team(3, "Eagles")
AMA, KOFI, ESI, YAW, ABENA, KWAME = 1, 2, 3, 4, 5, 6
NAMES = {AMA: "Ama", KOFI: "Kofi", ESI: "Esi", YAW: "Yaw", ABENA: "Abena", KWAME: "Kwame"}
TEAM_OF = {AMA: 1, ESI: 1, ABENA: 1, KOFI: 2, YAW: 2, KWAME: 2}


def arena_of_six() -> list[Standing]:
    """Six games in time order. By hand, with the arena's streaks:
    Ama beats Kofi (Ama 2), Esi draws Yaw (1 each), Kwame beats Abena (Kwame 2), Ama beats Yaw
    (Ama 2: her second win in a row lights her streak), Ama beats Kwame (on the streak: 4), Kofi
    beats Esi (Kofi 2). Ama 8, Kofi 2, Kwame 2, Esi 1, Yaw 1, Abena 0."""
    entrants = [Entrant(user, name, 1500.0) for user, name in NAMES.items()]
    games = [
        Pairing(1, AMA, KOFI, 1.0),
        Pairing(2, ESI, YAW, 0.5),
        Pairing(3, KWAME, ABENA, 1.0),
        Pairing(4, AMA, YAW, 1.0),
        Pairing(5, AMA, KWAME, 1.0),
        Pairing(6, KOFI, ESI, 1.0),
    ]
    return arena_standings(entrants, games)


def test_the_arena_points_of_the_six_are_those_worked_out_by_hand():
    assert {s.name: s.points for s in arena_of_six()} == {
        "Ama": 8,
        "Kofi": 2,
        "Kwame": 2,
        "Esi": 1,
        "Yaw": 1,
        "Abena": 0,
    }


@pytest.mark.parametrize(
    ("leaders", "lions", "tigers"),
    [
        (1, (8, ["Ama"]), (2, ["Kofi"])),  # each team's best alone
        (2, (9, ["Ama", "Esi"]), (4, ["Kofi", "Kwame"])),  # Abena's 0 and Yaw's 1 do not count
        (3, (9, ["Ama", "Esi", "Abena"]), (5, ["Kofi", "Kwame", "Yaw"])),  # everyone counts
    ],
)
def test_a_teams_score_is_the_sum_of_its_best_n_players_points(leaders, lions, tigers):
    first, second = team_standings([LIONS, TIGERS], arena_of_six(), TEAM_OF, leaders)
    assert (first.rank, first.name, first.score, [s.name for s in first.leaders]) == (1, "Lions", *lions)
    assert (second.rank, second.name, second.score, [s.name for s in second.leaders]) == (2, "Tigers", *tigers)
    assert first.players == second.players == 3


def line(user: int, points: float, rank: int = 1) -> Standing:
    return Standing(rank, user, NAMES.get(user, str(user)), float(points), 0, 0, (0.0,))


def test_teams_level_on_score_are_told_apart_by_their_leaders_best_first_else_they_share_a_place():
    # Best two count. Lions 6 + 2 = 8, Tigers 4 + 4 = 8, Eagles 4 + 4 = 8: the Lions' best leader
    # (6) is ahead of the others' (4); the Tigers and the Eagles are level on everything.
    board = [line(AMA, 6), line(KOFI, 4), line(ESI, 4), line(YAW, 4), line(ABENA, 4), line(KWAME, 2)]
    team_of = {AMA: 1, KWAME: 1, KOFI: 2, ESI: 2, YAW: 3, ABENA: 3}
    ranked = team_standings([EAGLES, TIGERS, LIONS], board, team_of, 2)
    assert [(t.rank, t.name, t.score) for t in ranked] == [(1, "Lions", 8), (2, "Tigers", 8), (2, "Eagles", 8)]


def test_a_team_short_of_players_counts_what_it_has_and_a_team_of_nobody_scores_nothing():
    # Best three count. Lions: Ama 8 alone, 8. Tigers: 4 + 3 + 1 = 8, its best leader 4 < 8: behind.
    board = [line(AMA, 8), line(KOFI, 4), line(YAW, 3), line(KWAME, 1)]
    team_of = {AMA: 1, KOFI: 2, YAW: 2, KWAME: 2}
    ranked = team_standings([LIONS, TIGERS, EAGLES], board, team_of, 3)
    assert [(t.rank, t.name, t.score, t.players) for t in ranked] == [
        (1, "Lions", 8, 1),
        (2, "Tigers", 8, 3),
        (3, "Eagles", 0, 0),
    ]
    assert ranked[2].leaders == ()


def test_a_player_without_a_team_or_of_a_team_not_in_the_battle_counts_for_none():
    board = [line(AMA, 10), line(KOFI, 4), line(ESI, 2)]
    ranked = team_standings([LIONS, TIGERS], board, {KOFI: 2, ESI: 9}, 2)
    assert [(t.name, t.score) for t in ranked] == [("Tigers", 4), ("Lions", 0)]


def test_pairing_never_makes_teammates_meet_and_pairs_everyone_it_can():
    rng = random.Random(37)
    for _trial in range(300):
        players = rng.sample(range(1, 40), rng.randint(2, 14))
        teams = {user: rng.randint(1, rng.choice((2, 3, 4))) for user in players}
        ratings = {user: float(rng.randint(1200, 1900)) for user in players}
        last = {user: rng.choice(players) for user in players if rng.random() < 0.5}
        pairs = arena_pairs(players, last, ratings, {}, teams=teams)
        assert all(teams[a] != teams[b] for a, b in pairs)
        paired = [user for pair in pairs for user in pair]
        assert len(paired) == len(set(paired))


def test_two_teams_of_three_free_at_once_make_three_games_across_the_teams():
    ratings = {AMA: 1800.0, ESI: 1700.0, ABENA: 1600.0, KOFI: 1500.0, YAW: 1400.0, KWAME: 1300.0}
    pairs = arena_pairs(list(ratings), {}, ratings, {}, teams=TEAM_OF)
    assert len(pairs) == 3 and all(TEAM_OF[a] != TEAM_OF[b] for a, b in pairs)


def test_teammates_left_alone_wait_even_where_waiting_is_pointless():
    ratings = {AMA: 1500.0, ESI: 1500.0}
    assert arena_pairs([AMA, ESI], {}, ratings, {}, allow_repeat=True, teams=TEAM_OF) == []
