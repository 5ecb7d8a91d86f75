"""A game kept between presses (:func:`bot.engine.notation.taken_up`) is the game read back
from its record and snapshot, in all it shows and does: the live games keep it instead of
reading the stored game at each press."""

import random

import pytest

from bot.engine import VARIANTS, Game
from bot.engine.notation import record, resume, snapshot, taken_up

from .test_resume import observed, random_game

pytestmark = pytest.mark.usefixtures("backend")


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_game_kept_at_any_move_is_the_game_read_back_and_plays_on_as_it_does(variant):
    for seed in range(3):
        full = random_game(variant, seed)
        moves, played = full.moves, Game(full.rules, full.first)
        for number in range(len(moves) + 1):
            text = record(played)
            kept, read_back = taken_up(played, text), resume(text, snapshot(played))
            assert observed(kept) == observed(read_back) == observed(played)
            assert kept.sides_sown == read_back.sides_sown and kept.move_texts() == read_back.move_texts()
            assert kept.repetition_set() == read_back.repetition_set()  # what may still end it by repetition
            rng, twin = random.Random(number), kept.copy()
            while number % 5 == 0 and not read_back.is_over and read_back.ply < 300:
                house = rng.choice(read_back.legal_moves)
                assert str(twin.play(house)) == str(read_back.play(house))
                assert observed(twin) == observed(read_back)
            assert observed(kept) == observed(played)  # its copy played on; it did not
            if number < len(moves):
                played.replay(moves[number])
        assert taken_up(played, record(played)).moves == full.moves  # read in full only when asked
