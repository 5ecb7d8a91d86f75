"""Games that end without sowing: running out of time and a draw agreed by both players."""

import re

import pytest

from bot.engine import Game, IllegalMoveError, Outcome, Player, Termination
from bot.engine.notation import NotationError, from_record, record


def mid_game() -> Game:
    """Wari after A(5,4) B(7,5) A(2,4) B(12,5)+2: A to move, scores 0:2."""
    game = Game("wari")
    for house in (5, 7, 2, 12):
        game.play(house)
    return game


def test_time_out_gives_the_win_to_the_opponent_of_the_mover_and_keeps_the_board():
    game = mid_game()
    state = game.state
    move = game.time_out()
    assert (move.player, move.house, move.seeds, move.ending) == (Player.A, 0, 0, Termination.TIME)
    assert not move.sows and not move.surrender
    assert game.outcome == Outcome(Player.B, (0, 2), Termination.TIME) == move.outcome
    assert game.state == state and game.legal_moves == [] and game.to_move is None


def test_time_out_of_b_makes_a_win():
    game = Game("oware", Player.B)
    assert game.time_out().player is Player.B
    assert game.outcome.winner is Player.A


def test_agree_draw_is_a_draw_at_the_current_scores():
    game = mid_game()
    state = game.state
    move = game.agree_draw()
    assert (move.player, move.house, move.ending) == (Player.A, 0, Termination.AGREEMENT)
    assert game.outcome == Outcome(None, (0, 2), Termination.AGREEMENT)
    assert game.outcome.result == "draw" and game.state == state


@pytest.mark.parametrize("end", [Game.time_out, Game.agree_draw])
@pytest.mark.parametrize("first_end", [Game.time_out, Game.agree_draw, Game.surrender])
def test_a_finished_game_refuses_both_and_stays_as_it_was(end, first_end):
    game = mid_game()
    first_end(game)
    before = (game.state, game.moves, game.outcome)
    with pytest.raises(IllegalMoveError, match="the game is over"):
        end(game)
    assert (game.state, game.moves, game.outcome) == before


@pytest.mark.parametrize("end", [Game.time_out, Game.agree_draw])
def test_undo_restores_the_live_game(end):
    game = mid_game()
    state, legal = game.state, game.legal_moves
    taken_back = end(game)
    assert game.undo() == taken_back
    assert game.state == state and game.outcome is None and game.to_move is Player.A
    assert game.legal_moves == legal and game.moves == mid_game().moves
    game.play(legal[0])  # the game goes on


@pytest.mark.parametrize("end", [Game.time_out, Game.agree_draw])
def test_a_copy_keeps_the_ending_and_undoes_on_its_own(end):
    game = mid_game()
    end(game)
    twin = game.copy()
    assert twin.moves == game.moves and twin.outcome == game.outcome
    twin.undo()
    assert twin.outcome is None and game.is_over and len(game.moves) == 5


def test_notation_of_every_ending():
    assert str(mid_game().surrender()) == "A(surrender)"
    assert str(Game("wari", Player.B).time_out()) == "B(time)"
    assert str(mid_game().agree_draw()) == "A(agreement)"


def test_endings_are_part_of_a_moves_identity():
    assert len({mid_game().time_out(), mid_game().agree_draw(), mid_game().surrender()}) == 3


@pytest.mark.parametrize(
    "end, result, reason, last",
    [
        (Game.time_out, "B", "time", "A(time)"),
        (Game.agree_draw, "draw", "agreement", "A(agreement)"),
        (Game.surrender, "B", "surrender", "A(surrender)"),
    ],
)
def test_records_with_an_ending_round_trip_exactly(end, result, reason, last):
    game = mid_game()
    end(game)
    text = record(game, "Ama", "Kofi")
    assert f'[Result "{result}"]' in text and f'[Reason "{reason}"]' in text
    assert text.rstrip().endswith(f"B(12,5)+2 {last}")
    again, tags = from_record(text)
    assert again.moves == game.moves and again.outcome == game.outcome and again.state == game.state
    assert record(again, tags["PlayerA"], tags["PlayerB"]) == text


@pytest.mark.parametrize("token", ["B(time)", "B(agreement)"])
def test_a_record_where_the_ending_is_not_the_movers_is_refused(token):
    text = record(mid_game()).replace("B(12,5)+2", f"B(12,5)+2 {token}")
    with pytest.raises(NotationError, match=f"move 5: {re.escape(token)} but it is A's turn"):
        from_record(text)


def test_a_record_whose_result_disagrees_with_the_time_out_is_refused():
    game = mid_game()
    game.time_out()
    text = record(game).replace('[Result "B"]', '[Result "draw"]')
    with pytest.raises(NotationError, match="the record says 'draw' \\('time'\\) but the moves give 'B' \\('time'\\)"):
        from_record(text)


def test_nothing_may_follow_an_ending_in_a_record():
    game = mid_game()
    game.agree_draw()
    text = record(game).replace("A(agreement)", "A(agreement) A(1,5)")
    with pytest.raises(NotationError, match="move 6: A\\(1,5\\) is illegal: the game is over"):
        from_record(text)
