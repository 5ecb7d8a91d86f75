"""Every rule of RULES.md, shown on the worked example and on hand-built positions.

Positions are written as position strings (``bot.engine.notation``): houses 1..12 from A's
house 1, then the prisoners of A and B, then the player to move.
"""

import pytest

from bot.engine import Game, IllegalMoveError, Player, Rules, Termination, rules_for
from bot.engine.notation import from_position, position

# Every rule is checked on both engines: the Python reference and the compiled core.
pytestmark = pytest.mark.usefixtures("backend")


def play_all(game: Game, *houses: int) -> list[str]:
    return [str(game.play(house)) for house in houses]


# -- the rule sets as data -------------------------------------------------------------------


def test_default_variant_is_wari_on_two_rows_of_six_with_four_seeds():
    rules = rules_for()
    assert (rules.name, rules.houses, rules.seeds, rules.total_seeds) == ("wari", 6, 4, 48)


def test_kalah_board_and_seeds_are_parameters():
    rules = rules_for("Kalah", houses=10, seeds=10)
    assert rules == Rules("kalah", 10, 10)
    assert rules.total_seeds == 200
    assert Game(rules).legal_moves == list(range(1, 11))


@pytest.mark.parametrize(
    "args, message",
    [
        (("chess",), "choose one of wari, oware, awari, ouril, kalah"),
        (("kalah", 11, 4), "kalah houses must be a whole number from 1 to 10"),
        (("kalah", 6, 0), "kalah seeds must be a whole number from 1 to 10"),
        (("oware", 8, None), "only kalah lets you choose houses"),
        (("wari", None, 3), "only kalah lets you choose seeds"),
    ],
)
def test_bad_variant_or_parameters_raise_value_error_naming_the_allowed_values(args, message):
    with pytest.raises(ValueError, match=message):
        rules_for(*args)


def test_rules_objects_are_immutable():
    with pytest.raises(AttributeError):
        rules_for("oware").houses = 7


# -- the worked example ------------------------------------------------------------------------


def test_worked_example_from_rules_md_move_for_move():
    game = Game("wari", Player.A)
    assert play_all(game, 5) == ["A(5,4)"]
    assert game.board == (4, 4, 4, 4, 0, 5, 5, 5, 5, 4, 4, 4)
    assert play_all(game, 7) == ["B(7,5)"]
    assert game.board == (4, 4, 4, 4, 0, 5, 0, 6, 6, 5, 5, 5)
    assert play_all(game, 2) == ["A(2,4)"]
    assert game.board == (4, 0, 5, 5, 1, 6, 0, 6, 6, 5, 5, 5)
    last = game.play(12)
    assert str(last) == "B(12,5)+2"
    assert last.captures == ((5, 2),)
    assert game.board == (5, 1, 6, 6, 0, 6, 0, 6, 6, 5, 5, 0)
    assert game.scores == (0, 2)
    assert game.to_move is Player.A


def test_first_player_may_be_b_or_random_with_a_seed():
    import random

    assert Game("oware", Player.B).legal_moves == [7, 8, 9, 10, 11, 12]
    firsts = {Game("oware", None, rng=random.Random(seed)).first for seed in range(20)}
    assert firsts == {Player.A, Player.B}


# -- sowing and capturing ----------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["wari", "oware", "awari", "ouril"])
@pytest.mark.parametrize(
    "start, board_after, captured",
    [
        # House 7 ends with 1 seed: the chain 9, 8 stops there.
        ("1,1,1,1,1,3,0,2,1,4,4,4 12:13 A", (1, 1, 1, 1, 1, 0, 1, 0, 0, 4, 4, 4), ((8, 3), (9, 2))),
        # House 7 ends with 4 seeds: the chain stops there too.
        ("1,1,1,1,1,3,3,2,1,4,4,4 11:11 A", (1, 1, 1, 1, 1, 0, 4, 0, 0, 4, 4, 4), ((8, 3), (9, 2))),
        # Houses 7, 8, 9 all captured; the chain stops at the mover's own house 6.
        ("1,1,1,1,1,3,1,2,1,4,4,4 12:12 A", (1, 1, 1, 1, 1, 0, 0, 0, 0, 4, 4, 4), ((7, 2), (8, 3), (9, 2))),
    ],
)
def test_capture_chain_walks_back_while_opponent_houses_hold_two_or_three(variant, start, board_after, captured):
    game = from_position(f"w1 {variant} {start}")
    a_before = game.scores[0]
    record = game.play(6)
    assert record.captures == captured
    assert game.board == board_after
    assert game.scores[0] == a_before + sum(seeds for _, seeds in captured)
    assert str(record) == f"A(6,3)+{record.captured}"


def test_no_capture_when_the_last_seed_lands_in_the_own_row():
    game = from_position("w1 wari 0,0,0,2,1,0,1,1,1,1,1,1 19:20 A")
    record = game.play(4)  # sows 5 and 6: own row, nothing taken even though 5 now holds 2
    assert record.captures == ()
    assert game.board[:6] == (0, 0, 0, 0, 2, 1)


@pytest.mark.parametrize("variant", ["wari", "oware", "awari", "ouril"])
def test_twelve_plus_seeds_skip_their_house_and_capture_on_the_second_lap(variant):
    game = from_position(f"w1 {variant} 18,0,0,0,0,0,0,0,1,1,1,1 13:13 A")
    record = game.play(1)
    # Lap one fills 2..12, house 1 is skipped, lap two fills 2..8 and ends in 8.
    assert game.board == (0, 2, 2, 2, 2, 2, 0, 0, 2, 2, 2, 2)
    assert record.captures == ((7, 2), (8, 2))
    assert str(record) == "A(1,18)+4"
    assert game.scores == (17, 13)


# -- grand slams -------------------------------------------------------------------------------

SLAM = "1,0,0,0,0,2,1,2,0,0,0,0 21:21 A"  # A(6,2) would take houses 7 and 8: all of B's seeds


def test_wari_forbids_the_grand_slam():
    game = from_position(f"w1 wari {SLAM}")
    assert game.legal_moves == [1]
    with pytest.raises(IllegalMoveError, match="capture every seed"):
        game.play(6)
    assert position(game) == f"w1 wari {SLAM}"


def test_wari_feeding_move_that_takes_everything_back_says_so():
    game = from_position("w1 wari 22,0,0,0,0,1,0,0,0,0,0,0 12:13 A")
    assert game.legal_moves == [6]  # house 1 sows 2 into each of B's houses, then takes them all
    with pytest.raises(IllegalMoveError, match="would capture every seed of your opponent"):
        game.play(1)


def test_oware_grand_slam_is_legal_but_captures_nothing():
    game = from_position(f"w1 oware {SLAM}")
    assert game.legal_moves == [1, 6]
    record = game.play(6)
    assert record.grand_slam and record.captures == ()
    assert str(record) == "A(6,2)"
    assert game.board == (1, 0, 0, 0, 0, 0, 2, 3, 0, 0, 0, 0)
    assert game.scores == (21, 21)


def test_awari_grand_slam_is_illegal_while_another_move_exists():
    game = from_position(f"w1 awari {SLAM}")
    assert game.legal_moves == [1]
    with pytest.raises(IllegalMoveError, match="without seeds, and another move does not"):
        game.play(6)


def test_awari_forced_grand_slam_captures_and_the_stranded_player_loses_the_rest():
    game = from_position("w1 awari 0,0,0,0,3,2,1,2,0,0,0,0 17:23 A")
    assert game.legal_moves == [5, 6]  # both take everything: both are allowed
    record = game.play(5)
    assert record.grand_slam and record.captures == ((7, 2), (8, 3))
    # B has no seed at its turn: A takes the 3 seeds left in house 6.
    assert game.outcome.termination is Termination.NO_LEGAL_MOVE
    assert game.outcome.scores == (25, 23) and game.outcome.winner is Player.A
    assert record.outcome == game.outcome


def test_ouril_grand_slam_captures_and_the_mover_plays_a_feeding_extra_move():
    game = from_position("w1 ouril 2,0,0,0,3,2,1,2,0,0,0,0 19:19 A")
    record = game.play(6)
    assert record.grand_slam and record.extra_turn and record.captured == 5
    assert game.to_move is Player.A and game.owes_extra_move
    assert position(game) == "w1 ouril 2,0,0,0,3,0,0,0,0,0,0,0 24:19 A!"
    assert game.legal_moves == [5]  # house 1 would leave B without a seed
    with pytest.raises(IllegalMoveError, match="extra move must leave your opponent at least one seed"):
        game.play(1)
    game.play(5)
    assert game.to_move is Player.B and not game.owes_extra_move


def test_ouril_grand_slam_to_a_majority_simply_wins():
    game = from_position("w1 ouril 2,0,0,0,0,2,1,2,0,0,0,0 20:21 A")
    record = game.play(6)
    assert not record.extra_turn
    assert game.outcome.termination is Termination.MAJORITY
    assert game.outcome.winner is Player.A and game.outcome.scores == (25, 21)


def test_ouril_extra_move_impossible_ends_the_game_each_taking_their_row():
    game = from_position("w1 ouril 2,0,0,0,0,2,1,2,0,0,0,0 19:22 A")
    game.play(6)
    assert game.outcome.termination is Termination.NO_LEGAL_MOVE
    assert game.outcome.scores == (26, 22)


# -- feeding -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["wari", "oware", "ouril"])
def test_must_feed_an_empty_row(variant):
    game = from_position(f"w1 {variant} 3,0,0,0,0,1,0,0,0,0,0,0 22:22 A")
    assert game.legal_moves == ([6] if variant != "ouril" else [])
    if variant != "ouril":
        with pytest.raises(IllegalMoveError, match="B has no seeds: you must play a move that sows into their row"):
            game.play(1)


@pytest.mark.parametrize("variant", ["wari", "oware", "ouril"])
def test_nobody_can_feed_ends_the_game_and_the_mover_takes_their_row(variant):
    game = from_position(f"w1 {variant} 3,0,0,0,0,0,0,0,0,0,0,1 22:22 B")
    game.play(12)  # B's last seed goes to A's house 1; A cannot reach B's row with 4 seeds
    assert game.is_over and game.to_move is None and game.legal_moves == []
    assert game.outcome.termination is Termination.NO_LEGAL_MOVE
    assert game.outcome.scores == (26, 22) and game.outcome.winner is Player.A
    assert game.board == (0,) * 12


def test_awari_player_without_seeds_cannot_move_and_the_opponent_takes_all():
    game = from_position("w1 awari 3,0,0,0,0,0,0,0,0,0,0,1 22:22 B")
    game.play(12)
    # Awari lets A move (every move starves B): A sows 2..5; B then has no seed at its turn.
    assert game.legal_moves == [1]
    game.play(1)
    assert game.outcome.termination is Termination.NO_LEGAL_MOVE
    assert game.outcome.scores == (26, 22)


# -- the single-seed rule ------------------------------------------------------------------------


def test_ouril_single_seed_house_only_when_no_house_holds_more():
    game = from_position("w1 ouril 1,3,0,0,0,0,4,4,4,4,4,4 12:8 A")
    assert game.legal_moves == [2]
    with pytest.raises(IllegalMoveError, match="single seed"):
        game.play(1)
    game = from_position("w1 ouril 1,1,0,0,0,0,4,4,4,4,4,4 14:8 A")
    assert game.legal_moves == [1, 2]


def test_other_variants_play_single_seeds_freely():
    assert from_position("w1 oware 1,3,0,0,0,0,4,4,4,4,4,4 12:8 A").legal_moves == [1, 2]


# -- majority, cycles, surrender ------------------------------------------------------------------


def test_more_than_half_of_the_seeds_wins_at_once():
    game = from_position("w1 oware 1,1,1,1,1,3,0,2,1,4,4,4 20:5 A")
    game.play(6)
    assert game.outcome.termination is Termination.MAJORITY
    assert game.outcome.scores == (25, 5)
    assert sum(game.board) == 18  # the game ends there: the seeds left stay on the board


def test_a_repeated_position_ends_the_game_and_each_player_takes_their_row():
    game = from_position("w1 wari 0,0,0,0,0,2,0,0,0,0,0,1 22:23 A")
    positions = [position(game)]
    while not game.is_over:
        game.play(game.legal_moves[0])
        positions.append(position(game))
    assert game.outcome.termination is Termination.CYCLE
    assert len(set(positions[:-1])) == game.ply  # no repetition before the last move
    # Seeds left at the end: 2 in A's row, 1 in B's; each player took their own.
    assert game.outcome.scores == (24, 24) and game.outcome.winner is None


def test_kalah_never_checks_cycles():
    assert not rules_for("kalah").detects_cycles


def test_surrender_by_either_player_at_any_time_keeps_the_board():
    game = Game("oware")
    game.play(3)
    board = game.board
    record = game.surrender(Player.A)  # not A's turn: surrender is allowed anyway
    assert str(record) == "A(surrender)" and record.surrender
    assert game.board == board
    assert game.outcome.winner is Player.B and game.outcome.termination is Termination.SURRENDER
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.play(8)
    game.undo()
    assert not game.is_over and game.to_move is Player.B


# -- kalah -----------------------------------------------------------------------------------------


def test_kalah_last_seed_in_own_store_plays_again():
    game = Game("kalah")
    record = game.play(3)  # 4 seeds: houses 4, 5, 6 and the store
    assert record.extra_turn and str(record) == "A(3,4)"
    assert game.to_move is Player.A and game.scores == (1, 0)


def test_kalah_sowing_skips_the_opponents_store():
    game = from_position("w1 kalah 0,0,1,0,0,10,4,4,4,4,4,4 3:10 A")
    game.play(6)  # store, 7..12, (B's store skipped), 1, 2, 3
    assert game.board == (1, 1, 2, 0, 0, 0, 5, 5, 5, 5, 5, 5)
    assert game.scores == (4, 10) and game.to_move is Player.B


def test_kalah_capture_takes_the_opposite_house():
    game = from_position("w1 kalah 1,0,0,0,0,0,0,0,0,0,5,0 20:22 A")
    record = game.play(1)  # last seed in the empty house 2, facing house 11
    assert record.captures == ((2, 1), (11, 5))
    assert str(record) == "A(1,1)+6"
    assert game.scores == (26, 22) and game.is_over


def test_kalah_capture_of_an_empty_opposite_house_still_stores_the_lone_seed():
    game = from_position("w1 kalah 1,0,0,0,0,4,4,0,4,4,0,4 13:14 A")
    record = game.play(1)
    assert record.captures == ((2, 1), (11, 0)) and record.captured == 1
    assert game.board[:2] == (0, 0) and game.scores == (14, 14)
    assert game.to_move is Player.B


def test_kalah_ends_when_the_player_to_move_is_empty_and_the_opponent_sweeps():
    game = from_position("w1 kalah 0,0,0,0,0,1,2,2,2,2,2,2 20:15 A")
    record = game.play(6)  # into the store: A would play again but has no seed left
    assert record.extra_turn
    assert game.outcome.termination is Termination.NO_LEGAL_MOVE
    assert game.outcome.scores == (21, 27) and game.outcome.winner is Player.B
    assert game.board == (0,) * 12


def test_kalah_on_a_small_board_with_laps_through_the_own_store():
    game = Game(rules_for("kalah", houses=2, seeds=3))
    record = game.play(1)  # 2, store, 3: the last seed lands in B's house 3
    assert game.board == (0, 4, 4, 3) and game.scores == (1, 0)
    assert not record.extra_turn and game.to_move is Player.B


# -- illegal moves ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "house, why",
    [
        (0, "there is no house 0: houses are numbered 1 to 12"),
        (13, "there is no house 13"),
        (7, "house 7 belongs to B; A plays houses 1 to 6"),
    ],
)
def test_illegal_moves_say_why_and_change_nothing(house, why):
    game = Game("wari")
    game.play(1)
    game.play(8)
    before = (position(game), game.ply)
    with pytest.raises(IllegalMoveError, match=why):
        game.play(house)
    assert (position(game), game.ply) == before


def test_empty_house_is_refused():
    game = Game("wari")
    game.play(1)
    game.play(8)
    with pytest.raises(IllegalMoveError, match="house 1 is empty"):
        game.play(1)


def test_undo_restores_the_previous_position_and_outcome():
    game = from_position("w1 oware 1,1,1,1,1,3,0,2,1,4,4,4 20:5 A")
    before = position(game)
    game.play(6)
    assert game.is_over
    undone = game.undo()
    assert str(undone) == "A(6,3)+5" and undone.outcome is None
    assert position(game) == before and not game.is_over and game.legal_moves == [1, 2, 3, 4, 5, 6]
    with pytest.raises(IndexError):
        game.undo()
