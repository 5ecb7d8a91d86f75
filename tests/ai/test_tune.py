"""The expert's evaluation weights: the file, its use by both searches, and the tune command."""

import json
import random

import pytest

from bot.ai import expert, tune
from bot.ai.analysis.model import K as EXPECTED_K
from bot.ai.analysis.model import expected
from bot.ai.expert import FEATURES, WEIGHT_ONE, ExpertPlayer, _Search, features, load_weights, weighted, weights_for
from bot.engine import Game, Player, rules_for
from bot.engine.core import Machine, _core, machine_for


def write(path, default="tuned", **sets):
    path.write_text(json.dumps({"features": list(FEATURES), "default": default, "tuned": sets}))
    return path


def test_the_project_weights_file_loads_and_names_a_set_for_every_variant():
    data = load_weights()
    default = data["default"]
    assert set(default.values() if isinstance(default, dict) else [default]) <= {"hand", "tuned"}
    for variant in ("wari", "oware", "awari", "ouril", "kalah"):
        weights = weights_for(variant)
        assert weights is None or len(weights) == len(FEATURES)
    for variant, values in data["tuned"].items():
        assert len(values) == len(FEATURES), variant


def test_a_missing_weights_file_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(expert, "WEIGHTS_PATH", tmp_path / "gone.json")
    with pytest.raises(FileNotFoundError, match="weights file"):
        ExpertPlayer(max_nodes=500, without=frozenset({"book"})).choose(Game("oware"), seconds=60)
    assert weights_for("oware", "hand") is None  # the hand-set evaluation needs no file


def test_the_default_may_name_a_set_per_variant(tmp_path):
    path = tmp_path / "w.json"
    sets = {"oware": list(tune.HAND), "wari": list(tune.HAND)}
    path.write_text(json.dumps({"features": list(FEATURES), "default": {"oware": "tuned"}, "tuned": sets}))
    assert weights_for("oware", path=path) == tuple(round(WEIGHT_ONE * w) for w in tune.HAND)
    assert weights_for("wari", path=path) is None and weights_for("wari", "tuned", path) is not None
    assert weights_for("kalah", "tuned", path) is None  # no set: the hand-set evaluation


def test_a_file_from_before_the_house_tables_plays_as_it_did(tmp_path):
    named = [3.5, -0.125, 6.5, 2.0, -0.5, 7.5, -2.5, 0.25, -1.0, 0.25]
    path = tmp_path / "before.json"
    path.write_text(json.dumps({"features": list(expert.NAMED), "default": "tuned", "tuned": {"oware": named}}))
    weights = weights_for("oware", path=path)
    assert weights is not None and len(weights) == len(FEATURES)
    assert weights[: len(named)] == tuple(round(WEIGHT_ONE * w) for w in named) and not any(weights[len(named) :])
    m, game = Machine(rules_for("oware")), position()
    named_only = sum(w * f for w, f in zip(weights, features(m, game.state, len(game.legal_moves)), strict=True))
    assert weighted(m, game.state, len(game.legal_moves), weights) == named_only // WEIGHT_ONE


def test_a_file_with_other_features_is_refused(tmp_path):
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"features": ["margin"], "default": "hand", "tuned": {}}))
    with pytest.raises(ValueError, match="features"):
        load_weights(path)


#: The hand-set weights with other values for five of the named features.
CHANGED = [*tune.HAND[:5], 3.0, -2.0, 1.0, -4.0, 0.5, *tune.HAND[10:]]


def position() -> Game:
    game = Game("oware")
    for pick in (3, 4, 6, 2, 5, 1, 0, 2):
        moves = game.legal_moves
        game.play(moves[pick % len(moves)])
    return game


@pytest.mark.parametrize("pure", [pytest.param(False, marks=pytest.mark.compiled_core), True])
def test_the_search_plays_the_weights_the_file_gives(tmp_path, monkeypatch, pure):
    if pure:
        monkeypatch.setenv("WARI_PURE_PYTHON", "1")
    game = position()

    def score(**sets) -> float:
        monkeypatch.setattr(expert, "WEIGHTS_PATH", write(tmp_path / "w.json", **sets))
        return ExpertPlayer(max_depth=2, max_nodes=10**6).choose(game, seconds=60).score

    hand = list(tune.HAND)
    doubled = [2 * w for w in hand]
    changed = CHANGED
    assert score(oware=hand) != score(oware=changed)
    assert score(oware=doubled) != score(oware=hand)
    monkeypatch.setattr(expert, "WEIGHTS_PATH", write(tmp_path / "w.json", default="hand", oware=changed))
    assert (
        ExpertPlayer(max_depth=2).choose(game, seconds=60).score
        == ExpertPlayer(max_depth=2, weights="hand").choose(game, seconds=60).score
    )


def test_a_match_side_plays_the_set_of_the_file_it_names(tmp_path):
    game = position()
    changed = write(tmp_path / "before.json", oware=CHANGED)
    same = write(tmp_path / "same.json", oware=list(tune.HAND))

    def score(side: tune.Side) -> float:
        player = side.player(1)
        player.max_depth, player.max_nodes = 2, 10**6  # a short search, the same every time
        return player.choose(game, seconds=60).score

    assert score(tune.Side("tuned", weights_file=changed)) != score(tune.Side("tuned", weights_file=same))
    assert score(tune.Side("tuned", weights_file=same)) == score(tune.Side("tuned", weights_file=same))
    assert score(tune.Side("hand", weights_file=changed)) == score(tune.Side("hand", weights_file=same))
    assert str(tune.Side("tuned", frozenset({"book"}), changed)) == "tuned of before.json -book"


@pytest.mark.compiled_core
@pytest.mark.parametrize("variant", ["wari", "oware", "awari", "ouril"])
def test_compiled_and_python_evaluations_agree_on_random_positions(variant):
    rules = rules_for(variant)
    reference, m = Machine(rules), machine_for(rules, "compiled")
    rng = random.Random(variant)
    for _ in range(12):
        game = Game(rules, Player.A)
        while not game.is_over:
            state = game.state
            mobility = len(reference.legal(state))
            assert list(_core.features(*m.key, state)) == features(reference, state, mobility)
            w = tuple(rng.randint(-9 * WEIGHT_ONE, 9 * WEIGHT_ONE) for _ in FEATURES)
            assert _core.evaluate(*m.key, state, w) == weighted(reference, state, mobility, w)
            hand = _Search(reference, frozenset(), 1, None, None).evaluate(state, reference.legal(state))
            assert _core.evaluate(*m.key, state, None) == hand
            game.play(rng.choice(game.legal_moves))


def test_features_of_a_known_position():
    m = Machine(rules_for("oware"))
    # A to move: A's row 0..5, B's row 6..11; stores 10 and 4
    state = (1, 0, 12, 0, 2, 5, 2, 1, 0, 0, 3, 4, 10, 4, 0, 0)
    f = dict(zip(FEATURES, features(m, state, 4), strict=True))
    assert f["margin"] == 6 and f["seeds"] == 20 - 10 and f["kroo"] == 1 and f["mobility"] == 4
    assert f["weak"] == 2 - 2 and f["empty"] == 2 - 2
    # reach: A's houses 2 (12 >= 4), 4 (2 >= 2), 5 (5 >= 1); B's 10 (3 >= 2), 11 (4 >= 1)
    assert f["reach"] == 3 - 2
    # A's house 5 (5 seeds) ends in 10 (3 seeds): nothing; house 4 (2 seeds) ends in 6: 2+1, 7: no (walks 6 only)
    assert f["capture"] == 3
    # B's house 11 (4 seeds) ends in 3 (empty): nothing; house 10 (3 seeds) ends in 1 (empty) ... 0 has 1: not last
    assert f["threat"] == 0
    assert f["back"] == (1 + 0 + 12) - (2 + 1 + 0)
    # the house tables: one 1 a house, at its count of seeds (12 or more counted together)
    tables = {name for name, value in f.items() if name not in expert.NAMED and value}
    assert tables == {"own 1=1", "own 2=0", "own 3=12+", "own 4=0", "own 5=2", "own 6=5"} | {
        "theirs 1=2",
        "theirs 2=1",
        "theirs 3=0",
        "theirs 4=0",
        "theirs 5=3",
        "theirs 6=4",
    }
    assert sum(f[name] for name in FEATURES[len(expert.NAMED) :]) == 12
    # B to move: "own" is B's row
    f = dict(zip(FEATURES, features(m, state[:14] + (1, 0), 4), strict=True))
    assert f["own 1=2"] == f["theirs 3=12+"] == 1 and f["margin"] == -6


def test_a_house_table_weight_counts_once_for_its_house_and_count():
    m = Machine(rules_for("oware"))
    state = (1, 0, 12, 0, 2, 5, 2, 1, 0, 0, 3, 4, 10, 4, 0, 0)
    zero = [0] * len(FEATURES)
    own_kroo, their_empty = FEATURES.index("own 3=12+"), FEATURES.index("theirs 3=0")
    weights = list(zero)
    weights[own_kroo], weights[their_empty] = 40 * WEIGHT_ONE, -7 * WEIGHT_ONE
    assert weighted(m, state, 4, tuple(weights)) == 40 - 7
    assert weighted(m, state[:14] + (1, 0), 4, tuple(weights)) == 0  # B to move: B has no kroo in house 3


def test_the_tune_command_runs_end_to_end(tmp_path, capsys):
    samples, weights = tmp_path / "wari.samples", tmp_path / "weights.json"
    write(weights, default="hand")
    assert tune.main(["collect", "--variant", "wari", "--games", "6", "--seed", "3", "--out", str(samples)]) == 0
    variant, collected, taught = tune.read_samples(samples)
    assert variant == "wari" and not taught and collected and {s.result for s in collected} <= {0.0, 0.5, 1.0}
    assert tune.main(["fit", str(samples), "--write", "--weights-file", str(weights)]) == 0
    out = capsys.readouterr().out
    assert "log-loss hand-set" in out and "log-loss tuned" in out
    data = load_weights(weights)
    assert data["default"] == "hand" and len(data["tuned"]["wari"]) == len(FEATURES)
    tune.main(["fit", str(samples), "--write", "--weights-file", str(weights), "--default", "tuned"])
    assert load_weights(weights)["default"] == {"wari": "tuned"}
    assert data["fits"]["wari"]["samples"] == len(collected)
    # the fit is no worse than the hand-set weights on what it fitted
    fitted, hand = data["fits"]["wari"]["log_loss_tuned"][0], data["fits"]["wari"]["log_loss_hand"][0]
    assert fitted <= hand + 1e-9
    assert weights_for("wari", "tuned", weights) is not None
    # collecting again with the same seed gives the same samples
    again = tmp_path / "again.samples"
    tune.main(["collect", "--variant", "wari", "--games", "6", "--seed", "3", "--out", str(again)])
    assert again.read_text() == samples.read_text()


def test_a_teacher_labels_the_expert_s_positions_with_what_its_search_expects(tmp_path, capsys):
    samples = tmp_path / "oware.samples"
    command = ["collect", "--variant", "oware", "--games", "3", "--seed", "2", "--teacher", "3000", "--out"]
    assert tune.main([*command, str(samples), "--jobs", "2"]) == 0
    variant, collected, taught = tune.read_samples(samples)
    assert variant == "oware" and taught and len({s.game for s in collected}) >= 2
    # each label is the teacher's value made an expected score: the first of each game searched again
    teacher = ExpertPlayer(1, max_nodes=3000, without=frozenset({"book"}))
    for game_number in {s.game for s in collected}:
        first = next(s for s in collected if s.game == game_number)
        judged = teacher.choose(Game.from_state(rules_for("oware"), first.state), 60)
        assert first.result == round(expected(judged.score), 5)
    assert all(0 < s.result < 1 for s in collected) and {s.result for s in collected} - {0.5}
    # the fit keeps the analysis's K (the curve the labels came through) instead of fitting one
    weights = write(tmp_path / "weights.json", default="hand")
    assert tune.main(["fit", str(samples), "--write", "--weights-file", str(weights)]) == 0
    assert f"K = {EXPECTED_K:.5f} (the analysis's" in capsys.readouterr().out
    assert load_weights(weights)["fits"]["oware"]["K"] == EXPECTED_K
    # the same samples however many games are played at once
    again = tmp_path / "again.samples"
    tune.main([*command, str(again)])
    assert again.read_text() == samples.read_text()


def test_newton_finds_a_known_logistic():
    rng = random.Random(5)
    rows = [[rng.randint(-5, 5), rng.randint(-5, 5)] for _ in range(3000)]
    truth = (0.8, -0.3)
    results = [float(rng.random() < tune.sigmoid(truth[0] * a + truth[1] * b)) for a, b in rows]
    z = tune.newton(rows, results, [0.0, 0.0], ridge=0.0)
    assert abs(z[0] - 0.8) < 0.1 and abs(z[1] + 0.3) < 0.1


def test_a_match_between_two_sets(capsys):
    assert (
        tune.main(["match", "--variant", "wari", "--games", "2", "--time", "0.005", "--a", "hand", "--b", "hand"]) == 0
    )
    out = capsys.readouterr().out
    assert "expert hand vs expert hand: 2 games, +" in out
    assert "95% Wilson interval [" in out
    assert out.count("over budget + 10%") == 2  # each side's time kept
