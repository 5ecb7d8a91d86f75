"""``pair_swiss`` against bbpPairings, a Dutch engine FIDE endorses, over random events.

``bbp/events.json`` holds random Swiss events played round by round, every round paired by
bbpPairings (its commit is in the file) with random results: draws, byes, withdrawals, late
joiners and forfeits (``bbp/make_fixtures.py`` says how they were made and how to make them
again). Each round is asked of ``pair_swiss`` with the same entrants and the same earlier
rounds: every pair, every colour (who moves first) and the bye must be bbpPairings'.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.tournament import Entrant, Pairing, PairingError, pair_swiss

#: The rounds (event's seed, round) that caissify-pairings pairs otherwise than bbpPairings, and
#: where C.04.3 sides with bbpPairings: in round 7 of event 3600039 the library pairs one game
#: fewer in the 2½-point bracket than C.5 asks (docs/developers/pairings.md has the details, to be
#: reported upstream). The test fails once the library pairs the round right: remove it then.
KNOWN_DEFECTS = {(3600039, 7): "pairs"}
FIXTURES = json.loads(Path(__file__).with_name("bbp").joinpath("events.json").read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Event:
    seed: int
    rounds: int
    entrants: list[Entrant]
    pairings: list[Pairing]
    unpairable_round: int | None

    @classmethod
    def from_fixture(cls, raw: dict) -> Event:
        entrants = [Entrant(user, f"P{user}", rating, joined, left) for user, rating, joined, left in raw["entrants"]]
        pairings = [Pairing(*row) for row in raw["pairings"]]
        return cls(raw["seed"], raw["rounds"], entrants, pairings, raw["unpairable_round"])

    @property
    def paired_rounds(self) -> int:
        return max((p.round for p in self.pairings), default=0)

    def known_by(self, round_number: int) -> list[Entrant]:
        """The entrants the bot knows when it pairs the round: a late joiner from his round on."""
        return [e for e in self.entrants if e.joined_round <= round_number]

    def round(self, number: int) -> list[Pairing]:
        return [p for p in self.pairings if p.round == number]


EVENTS = [Event.from_fixture(raw) for raw in FIXTURES["events"]]


def seats(pairings: list[Pairing]) -> set[tuple[int, int | None]]:
    return {(p.first, p.second) for p in pairings}


def difference(event: Event, number: int) -> str | None:
    """How our round ``number`` differs from bbpPairings' (``None``: it does not): ``"colours"``
    when only who moves first differs, ``"pairs"`` when the pairs or the bye differ."""
    theirs = seats(event.round(number))
    ours = seats(pair_swiss(event.known_by(number), event.pairings, number, event.rounds))
    if ours == theirs:
        return None
    unordered = {frozenset(pair) for pair in ours} == {frozenset(pair) for pair in theirs}
    return "colours" if unordered else "pairs"


def test_the_fixtures_cover_byes_withdrawals_late_joiners_forfeits_and_draws():
    pairings = [p for e in EVENTS for p in e.pairings]
    assert len(EVENTS) >= 40
    assert sum(p.is_bye for p in pairings) >= 50
    assert sum(p.forfeit for p in pairings) >= 20
    assert sum(p.result == 0.5 and not p.forfeit for p in pairings) >= 100
    assert sum(e.withdrawn_after is not None for event in EVENTS for e in event.entrants) >= 20
    assert sum(e.joined_round > 1 for event in EVENTS for e in event.entrants) >= 20


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: f"seed{e.seed}")
def test_every_round_is_paired_as_bbpairings_pairs_it(event):
    differences = {n: difference(event, n) for n in range(1, event.paired_rounds + 1)}
    known = {n: kind for (seed, n), kind in KNOWN_DEFECTS.items() if seed == event.seed}
    assert {n: d for n, d in differences.items() if d} == known


@pytest.mark.parametrize("event", [e for e in EVENTS if e.unpairable_round], ids=lambda e: f"seed{e.seed}")
def test_a_round_bbpairings_cannot_pair_is_refused(event):
    number = event.unpairable_round
    with pytest.raises(PairingError):
        pair_swiss(event.known_by(number), event.pairings, number, event.rounds)


def tally() -> Counter:
    """Rounds by how they differ (run as a script: ``python -m tests.tournament.test_against_bbpairings``)."""
    return Counter(difference(e, n) or "same" for e in EVENTS for n in range(1, e.paired_rounds + 1))


if __name__ == "__main__":
    pairings = [p for e in EVENTS for p in e.pairings]
    player_rounds = sum(1 if p.is_bye else 2 for p in pairings)
    print(f"{len(EVENTS)} events, {sum(e.paired_rounds for e in EVENTS)} rounds, {player_rounds} player-rounds")
    print(dict(tally()))
