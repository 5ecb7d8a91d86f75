"""What a phone shows of an event: the crosstable no wider than a board (26 columns), and the
tie-break that put a player ahead of the next one level on points, and only that one."""

from __future__ import annotations

import pytest

from bot.tournament import (
    ARENA_TIEBREAKS,
    SWISS_TIEBREAKS,
    Entrant,
    Pairing,
    arena_standings,
    crosstable_text,
    swiss_standings,
    tiebreak_leads,
)
from bot.tournament.crosstable import display_width
from tests.tournament.test_reports import random_event

PHONE = 26


@pytest.mark.parametrize(("players", "rounds"), [(3, 2), (12, 7), (40, 11), (150, 9)])
def test_a_crosstable_for_a_phone_fits_a_boards_width_whatever_the_names(players, rounds):
    entrants, pairings = random_event(players, rounds, seed=players)
    standings = swiss_standings(entrants, pairings)
    text = crosstable_text(
        entrants, pairings, standings, tiebreak_names=SWISS_TIEBREAKS, width=PHONE, tiebreak_columns=False
    )
    lines = text.splitlines()
    assert max(display_width(line) for line in lines) <= PHONE
    assert lines[0].split() == ["#", "Name", "Pts"]  # no tie-break columns: the standings say them in words
    assert "Buchholz" not in text
    first = next(line for line in lines if line.split()[:1] == ["1"])
    assert len(first) == PHONE and first.split()[1] != "…"  # the name has the room the columns left


def test_only_the_tiebreak_that_separates_players_level_on_points_is_given():
    ama, kofi, esi, yaw = (Entrant(n, name, 1500) for n, name in enumerate(("Ama", "Kofi", "Esi", "Yaw"), start=1))
    # Ama and Kofi beat Esi and Yaw and drew each other: level on everything, they share first
    # place; Esi beat Yaw: ahead of him on points, no tie-break needed.
    games = [
        Pairing(1, 1, 3, 1.0),
        Pairing(1, 2, 4, 1.0),
        Pairing(2, 1, 2, 0.5),
        Pairing(2, 3, 4, 1.0),
        Pairing(3, 4, 1, 0.0),
        Pairing(3, 3, 2, 0.0),
    ]
    standings = swiss_standings([ama, kofi, esi, yaw], games)
    assert [(s.rank, s.name, s.points) for s in standings] == [
        (1, "Ama", 2.5),
        (1, "Kofi", 2.5),
        (3, "Esi", 1),
        (4, "Yaw", 0),
    ]
    assert tiebreak_leads(standings) == {}


def test_of_four_level_on_points_three_level_on_everything_share_a_rank_and_only_the_last_leads_the_fourth():
    ama, kofi, esi, yaw = (Entrant(n, name, 1500) for n, name in enumerate(("Ama", "Kofi", "Esi", "Yaw"), start=1))
    games = [
        Pairing(1, 1, 2, 1.0),
        Pairing(1, 3, 4, 0.5),
        Pairing(2, 1, 3, 0.5),
        Pairing(2, 2, 4, 1.0),
        Pairing(3, 1, 4, 0.0),
        Pairing(3, 2, 3, 0.5),
    ]
    standings = swiss_standings([ama, kofi, esi, yaw], games)
    assert [(s.rank, s.name, s.points) for s in standings] == [
        (1, "Ama", 1.5),
        (1, "Kofi", 1.5),
        (1, "Yaw", 1.5),
        (4, "Esi", 1.5),  # level on Buchholz and Sonneborn-Berger too; Esi won no game
    ]
    ((user, lead),) = tiebreak_leads(standings).items()
    assert (user, lead.behind.name, SWISS_TIEBREAKS[lead.tiebreak]) == (4, "Esi", "Wins")
    assert (lead.ahead_value, lead.behind_value) == (1.0, 0.0)


def test_an_arena_tells_players_level_on_points_apart_by_performance():
    entrants = [Entrant(1, "Ama", 1800), Entrant(2, "Kofi", 1500), Entrant(3, "Esi", 1600)]
    games = [Pairing(1, 1, 2, 1.0), Pairing(2, 2, 3, 1.0), Pairing(3, 3, 1, 1.0)]  # each wins once
    standings = arena_standings(entrants, games)
    assert len({s.points for s in standings}) == 1
    leads = tiebreak_leads(standings)
    top = standings[0]
    assert ARENA_TIEBREAKS[leads[top.user_id].tiebreak] == "Performance"
    assert leads[top.user_id].behind == standings[1] and leads[top.user_id].ahead_value == top.tiebreaks[0]
