"""A game taken up from its record and snapshot is the replayed game in all it shows and does."""

import json
import random

import pytest

from bot.engine import VARIANTS, Game, rules_for
from bot.engine.notation import NotationError, from_record, record, resume, snapshot

pytestmark = pytest.mark.usefixtures("backend")


def observed(game: Game) -> tuple:
    """What the bot reads of a game."""
    return (
        game.state,
        game.board,
        game.scores,
        game.to_move,
        game.legal_moves,
        game.ply,
        game.last_move,
        game.outcome,
        game.owes_extra_move,
        record(game, "Ama", "Kofi"),
    )


def random_game(variant: str, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(rules_for(variant), rng.choice("AB"))
    while not game.is_over and game.ply < 300:
        game.play(rng.choice(game.legal_moves))
    return game


@pytest.mark.parametrize("variant", VARIANTS)
def test_taken_up_at_every_move_the_game_reads_and_plays_on_as_the_replayed_one(variant):
    for seed in range(4):
        full = random_game(variant, seed)
        moves = full.moves
        replayed = Game(full.rules, full.first)
        for number in range(len(moves) + 1):
            taken_up = resume(record(replayed), snapshot(replayed))
            assert observed(taken_up) == observed(replayed)
            # Both play on to the end with the same moves: the same game, repetitions included.
            rng, twin, reference = random.Random(number), taken_up, from_record(record(replayed))[0]
            while number % 3 == 0 and not reference.is_over and reference.ply < 300:
                house = rng.choice(reference.legal_moves)
                assert str(twin.play(house)) == str(reference.play(house))
                assert observed(twin) == observed(reference)
            if number < len(moves):
                replayed.replay(moves[number])


def test_games_ending_in_a_repetition_end_the_same_way_when_taken_up_midway():
    """Awari ends a game when a position comes back: the snapshot keeps what can come back."""
    endings = 0
    for seed in range(200):
        full = random_game("awari", seed)
        if full.outcome is None or full.outcome.termination.value != "cycle":
            continue
        endings += 1
        halfway = from_record(record(full))[0]
        while halfway.ply > full.ply - 6:
            halfway.undo()
        taken_up = resume(record(halfway), snapshot(halfway))
        for move in full.moves[halfway.ply :]:
            taken_up.replay(move)
        assert taken_up.outcome == full.outcome and record(taken_up) == record(full)
    assert endings >= 3


def test_the_snapshot_does_not_grow_with_the_game():
    """Only the positions since the last capture are kept: a long game's snapshot stays short."""
    game = random_game("oware", 3)
    assert game.ply > 60
    sizes = []
    replayed = Game(game.rules, game.first)
    for move in game.moves:
        replayed.replay(move)
        sizes.append(len(snapshot(replayed)))
    assert max(sizes) < 1500
    assert len(replayed.repetition_set()) < len(replayed.seen_positions)


def test_a_taken_up_game_reads_its_earlier_moves_in_full_only_when_asked():
    game = random_game("wari", 1)
    taken_up = resume(record(game), snapshot(game))
    assert taken_up.moves == game.moves and taken_up.move_texts() == [str(move) for move in game.moves]
    with pytest.raises(IndexError, match="cannot undo past"):
        taken_up.undo()


def test_a_snapshot_that_does_not_go_with_the_record_is_refused():
    game = random_game("wari", 2)
    stored = json.loads(snapshot(game))
    stored["ply"] -= 1
    with pytest.raises(NotationError, match="does not go with the record"):
        resume(record(game), json.dumps(stored))
    with pytest.raises(NotationError, match="does not go with the record"):
        resume(record(game), "not json")
