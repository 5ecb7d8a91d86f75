"""Position strings and game records: what the bot stores, so they must round-trip exactly."""

import pytest

from bot.engine import Game, Player, rules_for
from bot.engine.notation import NotationError, from_position, from_record, position, record

WORKED = "A(5,4) B(7,5) A(2,4) B(12,5)+2"


def worked_game() -> Game:
    game = Game("wari")
    for house in (5, 7, 2, 12):
        game.play(house)
    return game


def test_position_string_of_the_worked_example():
    assert position(worked_game()) == "w1 wari 5,1,6,6,0,6,0,6,6,5,5,0 0:2 A"


def test_position_string_round_trips_with_kalah_parameters():
    game = Game(rules_for("kalah", 4, 3), Player.B)
    game.play(5)
    text = position(game)
    assert text.startswith("w1 kalah/4x3 ")
    again = from_position(text)
    assert again.rules == game.rules and again.state == game.state and position(again) == text


def test_record_has_tags_and_moves_and_round_trips():
    text = record(worked_game(), "Ama", 'Kofi "K"')
    assert text.splitlines()[0] == '[Format "wari-record/1"]'
    assert text.rstrip().endswith(WORKED)
    game, tags = from_record(text)
    assert tags["PlayerA"] == "Ama" and tags["PlayerB"] == 'Kofi "K"'
    assert " ".join(map(str, game.moves)) == WORKED
    assert record(game, tags["PlayerA"], tags["PlayerB"]) == text


def test_finished_record_carries_result_and_reason():
    game = Game("oware", Player.B)
    game.play(9)
    game.surrender(Player.B)
    text = record(game)
    assert '[Result "A"]' in text and '[Reason "surrender"]' in text
    assert text.rstrip().endswith("B(9,4) B(surrender)")
    assert from_record(text)[0].outcome == game.outcome


@pytest.mark.parametrize(
    "text, why",
    [
        ("w2 wari 4,4,4,4,4,4,4,4,4,4,4,4 0:0 A", "not a w1 position"),
        ("w1 chess 4,4,4,4,4,4,4,4,4,4,4,4 0:0 A", "bad variant"),
        ("w1 wari 4,4,4,4,4,4,4,4,4,4,4 0:0 A", "needs 12 houses"),
        ("w1 wari 4,4,4,4,4,4,4,4,4,4,4,4 0:1 A", "do not add up to 48"),
        ("w1 wari 4,4,4,4,4,4,4,4,4,4,4,x 0:0 A", "bad position string"),
        ("w1 wari 4,4,4,4,4,4,4,4,4,4,4,4 0:0 C", "a player is A or B"),
    ],
)
def test_bad_position_strings_are_refused_with_the_reason(text, why):
    with pytest.raises(NotationError, match=why):
        from_position(text)


@pytest.mark.parametrize(
    "moves, why",
    [
        ("A(5,4) B(7,5) A(2,4) B(12,5)", "the record says B\\(12,5\\) but the move is B\\(12,5\\)\\+2"),
        ("A(5,4) A(2,4)", "move 2: A\\(2,4\\) but it is B's turn"),
        ("A(5,4) B(5,4)", "move 2: B\\(5,4\\) is illegal: house 5 belongs to A"),
        ("A(5;4)", "move 1: cannot read"),
    ],
)
def test_records_that_do_not_replay_are_refused_at_the_first_bad_move(moves, why):
    text = record(Game("wari")).replace("\n\n\n", f"\n\n{moves}\n")
    with pytest.raises(NotationError, match=why):
        from_record(text)


def test_record_with_a_false_result_is_refused():
    text = record(worked_game()).replace('[Result "*"]', '[Result "A"]')
    with pytest.raises(NotationError, match="the record says 'A' \\(''\\) but the moves give '\\*'"):
        from_record(text)


def test_record_with_a_false_reason_is_refused():
    game = Game("oware")
    game.surrender(Player.A)
    with pytest.raises(NotationError, match="but the moves give 'B' \\('surrender'\\)"):
        from_record(record(game).replace('"surrender"', '"cycle"'))


def test_a_game_from_a_position_records_its_start_and_round_trips():
    game = from_position("w1 oware 1,1,1,1,1,3,0,2,1,4,4,4 20:5 A")
    game.play(6)
    text = record(game, "Ama\nline two", "Kofi")
    assert '[Position "w1 oware 1,1,1,1,1,3,0,2,1,4,4,4 20:5 A"]' in text
    again, tags = from_record(text.replace("\n", "\r\n"))
    assert again.outcome == game.outcome and tags["PlayerA"] == "Ama\nline two"
    assert record(again, tags["PlayerA"], tags["PlayerB"]) == text


@pytest.mark.parametrize(
    "text",
    [
        "w1 kalah 4,4,4,4,4,4,4,4,4,4,4,4 0:0 A!",  # only Ouril has extra moves
        "w1 ouril 2,0,0,0,3,0,1,0,0,0,0,0 21:21 A!",  # B still has a seed
        "w1 ouril 2,0,0,0,3,0,0,0,0,0,0,0 22:21 A!!",
    ],
)
def test_impossible_extra_move_flags_are_refused(text):
    with pytest.raises(NotationError):
        from_position(text)


def test_a_name_with_a_line_separator_round_trips():
    game = Game("wari")
    game.play(5)
    text = record(game, "Dave\u2028Sower", "Kofi\u0085")
    again, tags = from_record(text)
    assert (tags["PlayerA"], tags["PlayerB"]) == ("Dave\u2028Sower", "Kofi\u0085") and again.moves == game.moves
