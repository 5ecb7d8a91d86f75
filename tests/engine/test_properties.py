"""Random legal play in every variant, checked against invariants (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import VARIANTS, Game, MoveRecord, Player, Termination, rules_for
from bot.engine.notation import from_position, from_record, position, record

MAX_PLIES = 3000  # every game ends well before this: cycles and majorities stop it


@st.composite
def rule_sets(draw):
    variant = draw(st.sampled_from(VARIANTS))
    if variant != "kalah":
        return rules_for(variant)
    return rules_for("kalah", draw(st.integers(1, 10)), draw(st.integers(1, 10)))


def replay(game: Game, move: MoveRecord) -> None:
    """Play ``move`` (just undone) again."""
    if move.sows:
        game.play(move.house)
    elif move.ending is Termination.SURRENDER:
        game.surrender(move.player)
    else:
        (game.time_out if move.ending is Termination.TIME else game.agree_draw)()


@settings(max_examples=60, deadline=None)
@given(rules=rule_sets(), first=st.sampled_from(Player), data=st.data())
def test_random_games_keep_every_invariant(rules, first, data):
    game = Game(rules, first)
    rng = data.draw(st.randoms(use_true_random=False))
    while not game.is_over:
        assert game.ply < MAX_PLIES, "the game did not terminate"
        legal = game.legal_moves
        assert legal, "a game that is not over must have a legal move"
        before = (game.state, position(game))
        if rng.random() < 0.003:  # a surrender (by either player), a time out or an agreed draw
            rng.choice([lambda: game.surrender(rng.choice(list(Player))), game.time_out, game.agree_draw])()
        else:
            game.play(rng.choice(legal))
        assert sum(game.board) + sum(game.scores) == rules.total_seeds
        if rng.random() < 0.1:  # undo restores the exact previous state, then replay
            last = game.undo()
            assert (game.state, position(game)) == before
            replay(game, last)
    assert game.legal_moves == [] and game.to_move is None
    text = record(game, "one", "two")
    again, tags = from_record(text)
    assert again.moves == game.moves and again.outcome == game.outcome and again.state == game.state
    assert record(again, tags["PlayerA"], tags["PlayerB"]) == text


@settings(max_examples=60, deadline=None)
@given(rules=rule_sets(), data=st.data())
def test_position_strings_round_trip_mid_game(rules, data):
    game = Game(rules)
    rng = data.draw(st.randoms(use_true_random=False))
    for _ in range(data.draw(st.integers(0, 60))):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves))
    again = from_position(position(game))
    assert position(again) == position(game)
    if not game.is_over:
        assert again.state == game.state and again.legal_moves == game.legal_moves
