"""The opening book: the shipped books load, cover what they say, and the expert plays from them."""

import pytest

from bot.ai import book as book_module
from bot.ai.book import Book, BookMove, key
from bot.ai.book.__main__ import main, opening_positions
from bot.ai.expert import ExpertPlayer
from bot.engine import Game


@pytest.mark.parametrize("variant", ["oware", "wari"])
def test_the_shipped_book_has_every_position_of_its_first_three_plies_with_a_legal_move(variant):
    book = Book.for_variant(variant)
    assert book is not None, f"bot/ai/book/{variant}.txt is missing"
    positions = opening_positions(variant, 3)
    assert {key(game) for game in positions} == set(book.moves)
    assert len(book) == 233
    for game in positions:
        found = book.move(game)
        assert found is not None and game.is_legal(found.house)
        assert found.depth >= 15, "a book move comes from a search deeper than a move's at play"


def test_variants_without_a_book_have_none():
    assert Book.for_variant("kalah") is None
    assert Book.for_variant("oware").move(Game("kalah")) is None  # another variant's position


def test_the_expert_plays_the_book_move_at_once_and_says_so():
    game = Game("oware")
    expected = Book.for_variant("oware").move(game)
    decision = ExpertPlayer(seed=1).choose(game, seconds=5)
    assert decision.house == expected.house
    assert decision.notes == {"book": True}
    assert decision.nodes == 0 and decision.depth == expected.depth


def test_the_expert_follows_its_book_even_where_its_own_search_would_not(tmp_path, monkeypatch):
    game = Game("wari")
    searched = ExpertPlayer(max_nodes=20_000, without=frozenset({"book"})).choose(game)
    assert searched.nodes > 0 and "book" not in searched.notes
    other = next(house for house in game.legal_moves if house != searched.house)
    (tmp_path / "wari.txt").write_text(f"# a doctored book\n{key(game)}  {other}  d30 +0\n")
    monkeypatch.setattr(book_module, "BOOKS_DIR", tmp_path)
    book_module._load.cache_clear()
    try:
        assert ExpertPlayer(max_nodes=20_000).choose(game).house == other
        game.play(other)
        assert "book" not in ExpertPlayer(max_nodes=20_000).choose(game).notes  # not in this book: searched
    finally:
        book_module._load.cache_clear()


def test_a_broken_book_line_is_a_clear_error(tmp_path):
    path = tmp_path / "oware.txt"
    path.write_text("# fine\n4,4,4,4,4,4,4,4,4,4,4,4 0:0 A  six  d3 +0\n")
    with pytest.raises(ValueError, match="oware.txt:2: not a book line"):
        Book.read(path, "oware")


@pytest.mark.compiled_core  # the book is searched by the compiled core
def test_the_build_command_writes_the_same_book_twice_with_the_experts_own_moves(tmp_path, capsys):
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    for out in (first, second):
        assert main(["build", "--variant", "wari", "--plies", "1", "--nodes", "3000", "--out", str(out)]) == 0
    assert first.read_text() == second.read_text()
    assert "# Built by: python -m bot.ai.book build --variant wari --plies 1 --nodes 3000" in first.read_text()
    built = Book.read(first, "wari")
    assert len(built) == 7  # the start and its six children
    for game in opening_positions("wari", 1):
        decision = ExpertPlayer(max_nodes=3000, without=frozenset({"book"})).choose(game)
        assert built.move(game) == BookMove(decision.house, decision.depth, int(decision.score))
    assert "wrote 7 positions" in capsys.readouterr().out
