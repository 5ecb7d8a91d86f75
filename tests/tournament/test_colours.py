"""Who moves first in a Swiss pair: FIDE's colour allocation rules (Handbook C.04.3, section E),
one test per rule, each written from the rule's words, then the story that 0.5.0 of
caissify-pairings gets wrong.

A :class:`Seat` is what the rules look at: the colours of a player's games played (A.6), his
score and his pairing number (A.2 ranks by score, then pairing number). The initial colour
(drawn before round 1) is white, as in the bot: starting number 1 moves first in round 1.
"""

from __future__ import annotations

from bot.tournament import Entrant, Pairing, pair_swiss
from bot.tournament.swiss import BLACK, WHITE, Seat, moves_first

W, B = WHITE, BLACK


def first_of(a: Seat, b: Seat) -> Seat:
    """The one with white; asked both ways round, the answer must be the same."""
    assert moves_first(a, b) != moves_first(b, a)
    return a if moves_first(a, b) else b


def test_e1_both_preferences_are_granted_when_they_differ():
    had_black = Seat((W, B, B), 1.0, 5)  # absolute: white
    had_white = Seat((W,), 2.0, 1)  # strong: black
    assert first_of(had_black, had_white) is had_black
    newcomer = Seat((), 3.0, 2)  # no game played: no preference, the other's is granted
    assert first_of(newcomer, Seat((B,), 0.0, 7)).colours == (B,)


def test_e2_the_stronger_preference_is_granted():
    strong = Seat((B,), 0.0, 8)  # colour difference -1: strong, white
    mild = Seat((W, B), 2.0, 1)  # difference 0, black last: mild, white
    assert first_of(strong, mild) is strong
    absolute = Seat((W, B, B), 0.0, 8)  # black twice running: absolute, white
    assert first_of(absolute, Seat((B,), 2.0, 1)) is absolute


def test_e2_of_two_absolute_preferences_the_wider_colour_difference_is_granted():
    """Two topscorers who both must have white (A.7: only possible in the last round)."""
    minus_two = Seat((B, W, B, B), 3.0, 9)  # difference -2
    minus_zero = Seat((W, W, B, B), 3.0, 1)  # difference 0, but black twice running
    assert first_of(minus_two, minus_zero) is minus_two


def test_e3_colours_alternate_from_the_most_recent_round_they_differed():
    """Both want white mildly (difference 0, black last) and had the same colours in the last
    two rounds; three rounds ago the leader had white and the other black: now the other has
    white, though the leader ranks higher (E.4 comes after)."""
    a = Seat((B, W, W, B), 3.0, 1)
    b = Seat((W, B, W, B), 1.0, 6)
    assert first_of(a, b) is b


def test_e4_the_higher_ranked_player_by_score_is_granted_his_preference():
    """Same colours in every round: A.2 ranks the one with more points higher, though his
    pairing number is larger. caissify-pairings 0.5.0 ranks by pairing number alone."""
    leader = Seat((W, B), 1.5, 4)
    follower = Seat((W, B), 1.0, 1)
    assert first_of(leader, follower) is leader
    assert first_of(Seat((W, B), 1.0, 4), Seat((W, B), 1.0, 1)).number == 1  # level: the lower number


def test_e5_the_higher_ranked_player_has_the_initial_colour_if_his_pairing_number_is_odd():
    """Neither has played a game (byes, forfeits): the higher ranked, by score first, has white
    with an odd pairing number, black with an even one."""
    assert first_of(Seat((), 1.0, 3), Seat((), 0.0, 1)).number == 3  # 0.5.0: number 1
    assert first_of(Seat((), 1.0, 4), Seat((), 0.0, 2)).number == 2  # 0.5.0: number 4
    assert first_of(Seat((), 1.0, 3), Seat((), 1.0, 1)).number == 1  # level: number 1, odd


def test_in_the_last_round_the_leader_on_points_gets_the_white_both_want():
    """Four players, three rounds. Yaw, fourth on the starting list, leads with 1½ and Ama, first,
    has 1; both played white then black, so both want white and nothing in their past decides
    (E.1 to E.3): the higher ranked, Yaw on points, has it (E.4). bbpPairings pairs the round
    so; caissify-pairings 0.5.0 gave white to Ama, the lower pairing number."""
    ama, kofi, esi, yaw = (Entrant(n, name, 1900 - 100 * n) for n, name in enumerate(["Ama", "Kofi", "Esi", "Yaw"], 1))
    played = [
        Pairing(1, ama.user_id, esi.user_id, 1.0),
        Pairing(1, yaw.user_id, kofi.user_id, 0.5),
        Pairing(2, kofi.user_id, ama.user_id, 1.0),
        Pairing(2, esi.user_id, yaw.user_id, 0.0),
    ]
    assert pair_swiss([ama, kofi, esi, yaw], played, 3, 3) == [
        Pairing(3, yaw.user_id, ama.user_id),
        Pairing(3, esi.user_id, kofi.user_id),
    ]
