"""Standings and tie-breaks, computed by hand in the comments (see ``bot/tournament/standings.py``
for the rules: unplayed rounds are a dummy with the player's own score, and an opponent's
unplayed rounds count as draws)."""

from __future__ import annotations

from bot.tournament import ARENA_TIEBREAKS, SWISS_TIEBREAKS, Entrant, Pairing, arena_standings, swiss_standings

A, B, C, D, E, F = range(1, 7)


def entrants(count: int) -> list[Entrant]:
    return [Entrant(user, "ABCDEF"[user - 1], 1900 - 100 * user) for user in range(1, count + 1)]


def table(standings) -> list[tuple]:
    return [(s.rank, s.name, s.points, s.played, s.wins, s.tiebreaks) for s in standings]


def test_direct_encounter_breaks_what_buchholz_sonneborn_berger_and_wins_leave_tied():
    games = [
        Pairing(1, A, B, 1.0),
        Pairing(1, C, D, 1.0),
        Pairing(1, E, F, 1.0),
        Pairing(2, A, C, 1.0),
        Pairing(2, B, E, 1.0),
        Pairing(2, D, F, 0.0),
        Pairing(3, A, F, 0.0),
        Pairing(3, B, C, 1.0),
        Pairing(3, D, E, 0.0),
    ]
    # Points: A 1+1+0 = 2, B 0+1+1 = 2, C 1+0+0 = 1, D 0, E 1+0+1 = 2, F 0+1+1 = 2.
    # Buchholz cut-1 (opponents' points less the lowest):
    #   A: B 2 + C 1 + F 2 = 5 - 1 = 4       B: A 2 + E 2 + C 1 = 5 - 1 = 4
    #   C: D 0 + A 2 + B 2 = 4 - 0 = 4       D: C 1 + F 2 + E 2 = 5 - 1 = 4
    #   E: F 2 + B 2 + D 0 = 4 - 0 = 4       F: E 2 + D 0 + A 2 = 4 - 0 = 4
    # Sonneborn-Berger (points of those beaten):
    #   A: B 2 + C 1 = 3    B: E 2 + C 1 = 3    E: F 2 + D 0 = 2    F: D 0 + A 2 = 2
    #   C: D 0 = 0          D: nothing = 0
    # Wins: A, B, E, F 2; C 1; D 0.
    # Still tied: A and B (2, 4, 3, 2): A beat B, so A 1, B 0; E and F (2, 4, 2, 2): E beat F.
    assert table(swiss_standings(entrants(6), games)) == [
        (1, "A", 2.0, 3, 2, (4.0, 3.0, 2.0, 1.0)),
        (2, "B", 2.0, 3, 2, (4.0, 3.0, 2.0, 0.0)),
        (3, "E", 2.0, 3, 2, (4.0, 2.0, 2.0, 1.0)),
        (4, "F", 2.0, 3, 2, (4.0, 2.0, 2.0, 0.0)),
        (5, "C", 1.0, 3, 1, (4.0, 0.0, 1.0, 0.0)),
        (6, "D", 0.0, 3, 0, (4.0, 0.0, 0.0, 0.0)),
    ]


def test_byes_and_forfeits_in_the_tie_breaks():
    games = [
        Pairing(1, A, B, 1.0),
        Pairing(1, C, D, 0.5),
        Pairing(1, E, None, 1.0),
        Pairing(2, E, A, 0.0),
        Pairing(2, B, C, 1.0),
        Pairing(2, D, None, 1.0),
        Pairing(3, D, A, 0.0, forfeit=True),  # D did not come: A wins without a game
        Pairing(3, B, E, 0.5),
        Pairing(3, C, None, 1.0),
    ]
    # Points: A 1+1+1 = 3; B 0+1+½ = 1½; C ½+0+1 = 1½; D ½+1+0 = 1½; E 1+0+½ = 1½.
    # Unplayed rounds: A's forfeit win (3), C's bye (3), D's bye (2) and forfeit loss (3), E's bye (1).
    # Scores as opponents see them (games played + ½ a round unplayed):
    #   A 1+1 + ½ = 2½; B 0+1+½ = 1½; C ½+0 + ½ = 1; D ½ + ½+½ = 1½; E 0+½ + ½ = 1.
    # Buchholz cut-1 (each unplayed round: the player's own points):
    #   A: B 1½ + E 1 + own 3 = 5½ - 1 = 4½      B: A 2½ + C 1 + E 1 = 4½ - 1 = 3½
    #   C: D 1½ + B 1½ + own 1½ = 4½ - 1½ = 3    D: C 1 + own 1½ + own 1½ = 4 - 1 = 3
    #   E: A 2½ + B 1½ + own 1½ = 5½ - 1½ = 4
    # Sonneborn-Berger (score × points scored; unplayed: own points × the round's points):
    #   A: B 1½×1 + E 1×1 + 3×1 = 5½             B: A 2½×0 + C 1×1 + E 1×½ = 1½
    #   C: D 1½×½ + B 1½×0 + 1½×1 = 2¼           D: C 1×½ + 1½×1 + 1½×0 = 2
    #   E: A 2½×0 + B 1½×½ + 1½×1 = 2¼
    # Wins over the board: A 2 (the forfeit is not one), B 1, the others 0.
    assert table(swiss_standings(entrants(5), games)) == [
        (1, "A", 3.0, 2, 2, (4.5, 5.5, 2.0, 0.0)),
        (2, "E", 1.5, 2, 0, (4.0, 2.25, 0.0, 0.0)),
        (3, "B", 1.5, 3, 1, (3.5, 1.5, 1.0, 0.0)),
        (4, "C", 1.5, 2, 0, (3.0, 2.25, 0.0, 0.0)),
        (5, "D", 1.5, 1, 0, (3.0, 2.0, 0.0, 0.0)),
    ]


def test_exact_ties_share_their_rank():
    games = [
        Pairing(1, A, B, 1.0),
        Pairing(1, C, None, 1.0),
        Pairing(2, B, C, 1.0),
        Pairing(2, A, None, 1.0),
        Pairing(3, C, A, 1.0),
        Pairing(3, B, None, 1.0),
    ]
    # A cycle: each has a win, a loss and a bye: 2 points. As opponents see them: 1 + ½ = 1½.
    # Buchholz cut-1: 1½ + 1½ + own 2 = 5 - 1½ = 3½. Sonneborn-Berger: 1½ (beaten) + 2 (bye) = 3½.
    # One win each; all met, 1 point each against the other two: tied on everything.
    assert table(swiss_standings(entrants(3), games)) == [
        (1, "A", 2.0, 2, 1, (3.5, 3.5, 1.0, 1.0)),
        (1, "B", 2.0, 2, 1, (3.5, 3.5, 1.0, 1.0)),
        (1, "C", 2.0, 2, 1, (3.5, 3.5, 1.0, 1.0)),
    ]


def test_a_late_joiner_a_leaver_and_a_game_under_way():
    late = Entrant(D, "D", 1600, joined_round=2)
    gone = Entrant(C, "C", 1700, withdrawn_after=1)
    games = [
        Pairing(1, A, C, 0.5),
        Pairing(1, B, None, 1.0),
        Pairing(2, A, D, 0.0),
        Pairing(2, B, None, 1.0),
        Pairing(3, B, D),  # being played: counts for nothing yet
    ]
    # Rounds 1-3 exist. A: ½ + 0 = ½, two games, away in 3. B: two byes (2) and a game on.
    # C: ½, then away in 2 and 3. D: away in 1, won in 2: 1, and a game on.
    # As opponents see them (the game on counts nothing): A ½+0 + ½ = 1; B 0 + ½+½ = 1;
    #   C ½ + ½+½ = 1½; D 1 + ½ = 1½.
    # Buchholz cut-1: A: C 1½ + D 1½ + own ½ = 3½ - ½ = 3    B: own 2 + own 2 = 4 - 2 = 2
    #   C: A 1 + own ½ + own ½ = 2 - ½ = 1½                   D: A 1 + own 1 = 2 - 1 = 1
    # Sonneborn-Berger: A: C 1½×½ + D 1½×0 + ½×0 = ¾         B: 2×1 + 2×1 = 4
    #   C: A 1×½ + ½×0 + ½×0 = ½                              D: A 1×1 + 1×0 = 1
    assert table(swiss_standings(entrants(2) + [gone, late], games)) == [
        (1, "B", 2.0, 0, 0, (2.0, 4.0, 0.0, 0.0)),
        (2, "D", 1.0, 1, 1, (1.0, 1.0, 1.0, 0.0)),
        (3, "A", 0.5, 2, 0, (3.0, 0.75, 0.0, 0.0)),
        (4, "C", 0.5, 1, 0, (1.5, 0.5, 0.0, 0.0)),
    ]


def test_arena_points_and_performance():
    players = [Entrant(A, "A", 1600), Entrant(B, "B", 1500), Entrant(C, "C", 1400)]
    games = [
        Pairing(1, A, B, 1.0),
        Pairing(2, C, A, 0.0),
        Pairing(3, A, B, 1.0),  # A's third win in a row: on a streak, 4
        Pairing(4, B, C, 0.5, forfeit=True),  # adjudicated: points, not a game for performance
        Pairing(5, C, A, 0.5),  # still on the streak: a draw is 2, and puts it out
        Pairing(6, B, C),  # being played
    ]
    # A: 2 + 2 + 4 + 2 = 10; performance over 4 games: (1500+1400+1500+1400)/4 = 1450,
    #    + 400 × (3 wins - 0 losses) / 4 = 300: 1750.
    # B: 0 + 0 + 1 = 1; performance over 2 games (the forfeit is not one): 1600 - 400 × 2/2 = 1200.
    # C: 0 + 1 + 1 = 2; performance over 2 games: 1600 + 400 × (0 - 1)/2 = 1400.
    assert table(arena_standings(players, games)) == [
        (1, "A", 10.0, 4, 3, (1750.0,)),
        (2, "C", 2.0, 2, 0, (1400.0,)),
        (3, "B", 1.0, 2, 0, (1200.0,)),
    ]


def test_the_tie_break_names():
    assert SWISS_TIEBREAKS == ("Buchholz cut-1", "Sonneborn-Berger", "Wins", "Direct encounter")
    assert ARENA_TIEBREAKS == ("Performance",)
