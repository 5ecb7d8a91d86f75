"""What an event shows: the crosstable (40 columns on a phone) and the TRF16 report."""

from __future__ import annotations

import random
from datetime import date

import pytest
from caissify_pairings.trf import parse_trf

from bot.tournament import (
    ARENA_TIEBREAKS,
    SWISS_TIEBREAKS,
    Entrant,
    Pairing,
    arena_standings,
    crosstable_text,
    pair_swiss,
    swiss_standings,
    tournament_trf,
)
from bot.tournament.crosstable import WIDTH, display_width

NAMES = [
    "Kwabena Adjei-Mensah the Second",
    "李小龍李小龍李小龍李小龍",
    "🦁🦁🦁🦁🦁🦁🦁🦁🦁🦁🦁🦁🦁",
    "Zoé Ñúñez-Ölçer",
    "e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301",
    "```code block breaker```",
    "right\u202eto left\u202c",
    "line\nbreak\ttab",
    "👨\u200d👩\u200d👧\u200d👦 family",
    "A",
    "Ama",
    "Kofi",
]


def played_event(players: int, rounds: int, seed: int = 1) -> tuple[list[Entrant], list[Pairing]]:
    """A Swiss of ``players`` paired by ``pair_swiss`` round by round, with random results."""
    rng = random.Random(seed)
    entrants = [Entrant(1000 + i, NAMES[i % len(NAMES)], 1400 + rng.randrange(800)) for i in range(players)]
    pairings: list[Pairing] = []
    for number in range(1, rounds + 1):
        pairings += with_results(pair_swiss(entrants, pairings, number, rounds), rng)
    return entrants, pairings


def random_event(players: int, rounds: int, seed: int) -> tuple[list[Entrant], list[Pairing]]:
    """Many players and rounds quickly: random pairings (the crosstable does not care how they
    were made), some players away some rounds."""
    rng = random.Random(seed)
    entrants = [Entrant(i, NAMES[i % len(NAMES)], 1400 + rng.randrange(800)) for i in range(players)]
    pairings: list[Pairing] = []
    for number in range(1, rounds + 1):
        here = [e.user_id for e in entrants if rng.random() < 0.95]
        rng.shuffle(here)
        round_pairs = [Pairing(number, a, b) for a, b in zip(here[::2], here[1::2], strict=False)]
        round_pairs += [Pairing(number, here[-1], None)] if len(here) % 2 else []
        pairings += with_results(round_pairs, rng)
    return entrants, pairings


def with_results(pairings: list[Pairing], rng: random.Random) -> list[Pairing]:
    return [
        Pairing(p.round, p.first, p.second, None if p.is_bye else rng.choice((1.0, 0.5, 0.0)), rng.random() < 0.05)
        for p in pairings
    ]


def test_a_crosstable_of_12_players_and_7_rounds_fits_a_phone():
    entrants, pairings = played_event(12, 7)
    text = crosstable_text(entrants, pairings, swiss_standings(entrants, pairings), tiebreak_names=SWISS_TIEBREAKS)
    lines = text.splitlines()
    assert max(display_width(line) for line in lines) <= WIDTH
    assert "```" not in text and "\u202e" not in text and "\t" not in text
    # every player's line, then their seven rounds on the next line
    standings = swiss_standings(entrants, pairings)
    first = lines.index(next(line for line in lines if line.startswith(" 1 ")))
    assert len(lines[first + 1].split()) == 7
    assert len([line for line in lines if line[:2].strip().isdigit()]) == len(standings)


@pytest.mark.parametrize(("players", "rounds"), [(3, 2), (12, 7), (40, 11), (150, 9), (1200, 30)])
def test_every_size_fits(players, rounds):
    entrants, pairings = random_event(players, rounds, seed=players)
    text = crosstable_text(entrants, pairings, swiss_standings(entrants, pairings), tiebreak_names=SWISS_TIEBREAKS)
    assert max(display_width(line) for line in text.splitlines()) <= WIDTH


def test_a_crosstable_reads_the_results():
    entrants = [Entrant(1, "Ama", 1800), Entrant(2, "Kofi", 1700), Entrant(3, "Esi", 1600), Entrant(4, "Yaw", 1500)]
    pairings = [
        Pairing(1, 1, 3, 1.0),
        Pairing(1, 4, 2, 0.5),
        Pairing(2, 2, 1, 0.0, forfeit=True),
        Pairing(2, 3, 4),
    ]
    standings = swiss_standings(entrants, pairings)
    lines = crosstable_text(entrants, pairings, standings, tiebreak_names=SWISS_TIEBREAKS).splitlines()
    rank = {s.user_id: str(s.rank) for s in standings}
    rows = {lines[index].split()[1]: lines[index + 1].split() for index in range(1, 9, 2)}
    assert rows == {
        "Ama": [rank[3] + "+", rank[2] + ">"],  # beat Esi, then Kofi by forfeit
        "Kofi": [rank[4] + "=", rank[1] + "<"],  # drew Yaw, then lost to Ama by forfeit
        "Esi": [rank[1] + "-", rank[4] + "*"],  # lost to Ama, now playing Yaw
        "Yaw": [rank[2] + "=", rank[3] + "*"],
    }


def test_an_arena_crosstable_lists_each_games_points():
    entrants = [Entrant(1, "Ama", 1800), Entrant(2, "Kofi", 1700)]
    games = [Pairing(n, 1, 2, r) for n, r in enumerate([1.0, 1.0, 1.0, 0.5, 0.0], start=1)]
    text = crosstable_text(entrants, games, arena_standings(entrants, games), tiebreak_names=ARENA_TIEBREAKS)
    lines = text.splitlines()
    assert lines[0].split() == ["#", "Name", "Pts", "Perf"]
    assert lines[1].split() == ["1", "Ama", "10", "1860"] and lines[2].split() == ["2", "2", "4", "2", "0"]
    assert lines[4].split() == ["0", "0", "0", "1", "2"]


def test_the_trf_parses_back_with_the_results():
    entrants, pairings = played_event(9, 4, seed=3)
    entrants[2] = Entrant(entrants[2].user_id, "Kwabena\nAdjei-Mensah the Second of Kumasi", 1234.6)
    pairings.append(Pairing(5, pairings[0].first, pairings[0].second))  # round 5 paired, not played
    text = tournament_trf("Wari open\n2026", date(2026, 5, 1), date(2026, 5, 3), entrants, pairings, 6)
    parsed = parse_trf(text)
    assert parsed["tournament"] == {
        "name": "Wari open 2026",
        "start_date": "2026/05/01",
        "end_date": "2026/05/03",
        "player_count": 9,
        "rated_count": 9,
        "total_rounds": 6,
        "color_method": "white1",
    }
    numbers = {p["starting_number"]: p for p in parsed["players"]}
    order = sorted(entrants, key=lambda e: (-e.rating, e.user_id))
    user_of = {n: e.user_id for n, e in enumerate(order, start=1)}
    number_of = {u: n for n, u in user_of.items()}
    standings = {s.user_id: s for s in swiss_standings(entrants, pairings)}
    assert numbers[number_of[entrants[2].user_id]]["name"] == "Kwabena Adjei-Mensah the Second o"
    assert numbers[number_of[entrants[2].user_id]]["rating"] == 1235
    for number, player in numbers.items():
        user = user_of[number]
        assert player["score"] == standings[user].points
        for p in [p for p in pairings if p.has(user)]:
            block = player["results"][p.round]
            if p.is_bye:
                assert block == {"opponent": None, "color": None, "result": "U"}
                continue
            opponent = p.opponent_of(user)
            assert block["opponent"] == number_of[opponent]
            assert block["color"] == ("w" if p.first == user else "b")
            points = p.points_of(user)
            assert block["result"] == ("" if points is None else CODES[p.played, points])


#: TRF16's result codes: over the board (1 = 0), by forfeit (+ D -).
CODES = {(True, 1.0): "1", (True, 0.5): "=", (True, 0.0): "0", (False, 1.0): "+", (False, 0.5): "D", (False, 0.0): "-"}


def test_a_round_away_is_a_zero_point_bye_in_the_trf():
    entrants = [Entrant(1, "Ama", 1800), Entrant(2, "Kofi", 1700), Entrant(3, "Esi", 1600, joined_round=2)]
    pairings = [Pairing(1, 1, 2, 1.0), Pairing(2, 3, 1, 0.0), Pairing(2, 2, None, 1.0)]
    players = {
        p["name"]: p
        for p in parse_trf(tournament_trf("x", date.today(), date.today(), entrants, pairings, 3))["players"]
    }
    assert players["Esi"]["results"] == {
        1: {"opponent": None, "color": None, "result": "Z"},
        2: {"opponent": 1, "color": "w", "result": "0"},
    }
