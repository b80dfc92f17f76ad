"""The learned evaluation (issue 35): a position's features, the table the bots read, the study that fits it.

The paired strength run (the search with the learned leaf against the search with the hand-set leaf,
twin games, the same seeds and armies, sides swapped) is behind `--slow`:
`MINIS_LEARNED_PAIRS=N MINIS_LEARNED_SEED=S pytest --slow -s tests/test_ai_learned.py -k strength`
prints its figures (docs/ai.md, "A learned leaf evaluation").
"""

from __future__ import annotations

import argparse
import math
import os
import random
from collections.abc import Mapping
from pathlib import Path

import attrs
import numpy as np
import pytest
from engine_support import board, position, unit

from minis.ai import learned, playout
from minis.ai.army_maker import make_army
from minis.ai.bot import Bot, play_out
from minis.ai.search import SearchBot
from minis.ai.twins import TwinPairs, play_twin_pairs
from minis.base.errors import MinisError
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.commands import lab as lab_command
from minis.commands.match import wilson
from minis.commands.simulate import DEFAULT_TURN_LIMIT
from minis.dice import Dice
from minis.engine import actions as A
from minis.game import Game
from minis.lab import evaluation
from minis.mapfile import load_configuration
from minis.state import Stage

TABLE = (
    """study = "a test"
command = "minis lab evaluation --games 10 --seed 1 --out t.toml"
games = 10
positions = 80
penalty = 1.0

[fit]
holdout_log_loss = 0.5

[weights]
"""
    + "\n".join(f"{name} = 0.5" for name in learned.FEATURES)
    + "\n"
)


def _problem(tmp_path: Path, text: str) -> str:
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MinisError) as caught:
        learned.read_table(path)
    return str(caught.value)


def _line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


# --- the table --------------------------------------------------------------------------------------------


def test_a_good_table_loads_and_its_text_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(TABLE, encoding="utf-8")
    model = learned.read_table(path)
    assert model.games == 10 and model.positions == 80 and model.fit == {"holdout_log_loss": 0.5}
    assert set(model.weights) == set(learned.FEATURES)
    path.write_text(learned.table_text(model, ["a comment"]), encoding="utf-8")
    assert learned.read_table(path) == model


def test_an_unknown_feature_is_named_at_its_line_and_column(tmp_path: Path) -> None:
    text = TABLE + "materiel = 1.0\n"
    line = _line_of(text, "materiel")
    message = _problem(tmp_path, text)
    assert f"table.toml:{line}:1: unknown feature 'materiel'" in message and "material" in message


def test_a_missing_weight_is_named_at_the_weights_table(tmp_path: Path) -> None:
    text = TABLE.replace("cover = 0.5\n", "")
    message = _problem(tmp_path, text)
    assert f"table.toml:{_line_of(text, '[weights]')}:1: [weights] has no 'cover'" in message


def test_a_weight_that_is_no_number_or_out_of_range_is_refused_where_it_is(tmp_path: Path) -> None:
    text = TABLE.replace("threat = 0.5", 'threat = "high"').replace("rear = 0.5", "rear = 1e9")
    message = _problem(tmp_path, text)
    assert f"table.toml:{_line_of(text, 'threat')}:1: 'threat' must be a number" in message
    assert f"table.toml:{_line_of(text, 'rear')}:1: 'rear' must be a weight from -1000 to 1000" in message
    text = TABLE.replace("offense = 0.5", "offense = nan")
    assert f"table.toml:{_line_of(text, 'offense')}:1: 'offense' must be a number" in _problem(tmp_path, text)


def test_the_table_s_own_keys_are_checked(tmp_path: Path) -> None:
    text = TABLE.replace("games = 10", "games = -1").replace("penalty = 1.0", "penalty = 1.0\nnote = 2")
    message = _problem(tmp_path, text)
    assert f"table.toml:{_line_of(text, 'games')}:1: the table needs 'games'" in message
    assert f"table.toml:{_line_of(text, 'note')}:1: unknown key 'note'" in message
    text = TABLE.replace("holdout_log_loss", "holdout_lag_loss")
    assert f"table.toml:{_line_of(text, 'holdout_lag')}:1: unknown figure" in _problem(tmp_path, text)
    message = _problem(tmp_path, "study = [\n")
    assert message.startswith(str(tmp_path / "table.toml") + ":2:1: TOML syntax")


def test_the_shipped_table_loads_with_every_feature_and_its_figures() -> None:
    model = learned.read_table(learned.shipped_path())
    assert set(model.weights) >= set(learned.FEATURES) and model.games >= 1000
    assert model.command.startswith("minis lab evaluation ") and "--seed" in model.command
    for key in ("holdout_log_loss", "holdout_brier", "holdout_accuracy", "baseline_holdout_log_loss"):
        assert key in model.fit
    assert learned.shipped_model() == model


# --- features ---------------------------------------------------------------------------------------------

PLAIN = """
C C C C C C C
 C C C C C C C
C C C W C C C
 C C C C C C C
"""


def _named(game: Game, side: Side) -> dict[str, float]:
    return dict(zip(learned.FEATURES, learned.features(game.state, side), strict=True))


def test_material_is_the_difference_of_costs_over_both_armies() -> None:
    b = board(PLAIN)
    tiger = unit(b, "tiger", "tiger-i", "axis", "A1", "E")
    rifles = unit(b, "rifles", "mauser-kar-98k", "axis", "A2")
    sherman = unit(b, "sherman", "m4a1-sherman", "allies", "D7", "W")
    game = position(b, [tiger, rifles, sherman])
    costs = {u.id: float(u.card.cost) for u in (tiger, rifles, sherman)}
    total = sum(costs.values())
    axis = _named(game, Side.AXIS)
    assert axis["material"] == pytest.approx((costs["tiger"] + costs["rifles"] - costs["sherman"]) / total)
    assert axis["units"] == pytest.approx(0.1)
    assert _named(game, Side.ALLIES)["material"] == pytest.approx(-axis["material"])
    # a disrupted unit counts 0.85 of its cost (as the playout's score counts it), and as disrupted
    game.state.units["sherman"] = attrs.evolve(sherman, disrupted=True)
    axis = _named(game, Side.AXIS)
    assert axis["material"] == pytest.approx(
        (costs["tiger"] + costs["rifles"] - 0.85 * costs["sherman"]) / total
    )
    assert axis["disrupted"] == pytest.approx(-costs["sherman"] / total)


def test_a_unit_next_to_the_objective_counts_and_more_as_its_turn_nears() -> None:
    b = board(PLAIN, objective="C4")
    rifles = unit(b, "rifles", "mauser-kar-98k", "axis", "C3")  # next to the objective
    far = unit(b, "gi", "bar-gunner", "allies", "A7")
    early = position(b, [rifles, far], turn=1)
    late = position(b, [rifles, far], turn=7)
    for game, near in ((early, 1 / 7), (late, 1.0)):
        axis = _named(game, Side.AXIS)
        assert axis["objective"] == 1.0 and axis["objective_late"] == pytest.approx(near)
        assert axis["objective_near"] == pytest.approx(near)
        assert axis["objective_reach"] > 0  # the enemy needs turns to get there, we are there
        assert _named(game, Side.ALLIES)["objective_near"] == pytest.approx(-near)
    # one step away: no longer next to it, nobody controls it
    moved = position(b, [unit(b, "rifles", "mauser-kar-98k", "axis", "C2"), far], turn=7)
    axis = _named(moved, Side.AXIS)
    assert axis["objective"] == 0.0 and axis["objective_near"] == 0.0


def test_the_reach_of_the_objective_counts_two_moves_a_turn_over_the_terrain() -> None:
    """Riflemen (speed 1) four hexes off need three moves to be next to the objective: two turns, as
    the improved search's clock counts them (a move in the movement and one in the assault phase), not
    the three of one move a turn; with a pond in the way (no Soldier enters it) the way round takes a
    turn more."""
    ponds = PLAIN.replace("C C C W C C C", "C C C P C C C").replace("C C C C C C C", "C C C P C C C", 2)
    for text, turns in ((PLAIN, 2), (ponds, 3)):
        b = board(text, objective="B7")
        holder = unit(b, "gi", "bar-gunner", "allies", "B6")  # next to the objective: no turns
        rifles = unit(b, "rifles", "mauser-kar-98k", "axis", "B3")
        game = position(b, [holder, rifles], turn=5)
        assert _named(game, Side.AXIS)["objective_reach"] == pytest.approx(-turns / 3)
        assert _named(game, Side.ALLIES)["objective_reach"] == pytest.approx(turns / 3)


def test_a_tank_s_exposed_rear_and_the_threats_count_against_it() -> None:
    b = board(PLAIN)
    sherman = unit(b, "sherman", "m4a1-sherman", "allies", "B2", "E")
    facing_away = unit(b, "panzer", "panzer-iv-ausf-g", "axis", "B4", "E")  # its rear toward the Sherman
    facing_it = unit(b, "panzer", "panzer-iv-ausf-g", "axis", "B4", "W")
    away = _named(position(b, [sherman, facing_away]), Side.AXIS)
    toward = _named(position(b, [sherman, facing_it]), Side.AXIS)
    assert away["rear"] > 0 and toward["rear"] == 0.0
    assert away["threat"] > toward["threat"]  # a rear shot does more harm than a front one


def test_features_are_one_side_s_with_the_sign_changed_in_real_games() -> None:
    game = Game.new(
        make_army(card_catalogue(), Side.AXIS, 100, rng=random.Random(1), worth={}),
        make_army(card_catalogue(), Side.ALLIES, 100, rng=random.Random(2), worth={}),
        configuration=3,
        dice=Dice(seed=3),
        turn_limit=4,
        load_board=load_configuration,
    )
    from minis.ai.heuristic import HeuristicBot

    checked = [0]

    def check(game: Game) -> None:
        if game.state.stage is not Stage.OVER and game.state.turn >= 1:
            axis = learned.features(game.state, Side.AXIS)
            allies = learned.features(game.state, Side.ALLIES)
            assert all(math.isclose(a, -b, abs_tol=1e-12) for a, b in zip(axis, allies, strict=True))
            checked[0] += 1

    play_out(
        game, {Side.AXIS: HeuristicBot(1), Side.ALLIES: HeuristicBot(2)}, seeds=random.Random(4), after=check
    )
    assert checked[0] > 50


# --- the leaf ---------------------------------------------------------------------------------------------


def test_the_hand_set_leaf_is_today_s_and_the_learned_one_keeps_the_points_scale() -> None:
    b = board(PLAIN, objective="C4")
    game = position(
        b,
        [
            unit(b, "tiger", "tiger-i", "axis", "C3", "E"),
            unit(b, "sherman", "m4a1-sherman", "allies", "C6", "W"),
        ],
        turn=5,
    )
    state = game.state
    hand = playout.score(state, Side.AXIS) + 0.25 * playout.placing(state, Side.AXIS)
    assert playout.leaf_value(state, Side.AXIS, 0.25, "hand") == hand
    assert playout.EVALUATION == "hand"  # the default, until the learned leaf is proven better
    assert playout.leaf_value(state, Side.AXIS, 0.25) == hand
    total = learned.army_points(state)
    value = playout.leaf_value(state, Side.AXIS, 0.25, "learned")
    model = learned.shipped_model()
    assert model is not None and value == pytest.approx(model.leaf(state, Side.AXIS))
    assert 0 < value < total  # the Tiger holds the objective: better than even, short of a won game
    assert playout.leaf_value(state, Side.ALLIES, 0.25, "learned") == pytest.approx(-value)
    both = playout.leaf_value(state, Side.AXIS, 0.25, "both")  # the sum: the win chance beside the points
    assert both == pytest.approx(hand + value) and both != pytest.approx(hand)


def test_a_finished_game_scores_the_same_with_either_leaf() -> None:
    b = board(PLAIN)
    game = position(
        b, [unit(b, "tiger", "tiger-i", "axis", "C3", "E"), unit(b, "gi", "bar-gunner", "allies", "C6")]
    )
    game.state.stage = Stage.OVER
    game.state.winner = Side.AXIS
    state = game.state
    assert playout.leaf_value(state, Side.AXIS, 0.25, "learned") == playout.score(state, Side.AXIS)
    assert playout.leaf_value(state, Side.AXIS, 0.25, "both") == playout.score(state, Side.AXIS)


# --- the fit and the study --------------------------------------------------------------------------------


def test_the_fit_recovers_known_weights_from_synthetic_games() -> None:
    rng = np.random.default_rng(5)
    true = np.array([2.0, -1.0, 0.5])
    x = rng.normal(size=(20000, 3))
    y = (rng.random(20000) < 1 / (1 + np.exp(-(x @ true)))).astype(float)
    found = evaluation.fit_logistic(x, y, penalty=0.01)
    assert np.allclose(found, true, atol=0.08)
    shrunk = evaluation.fit_logistic(x, y, penalty=20000.0)
    assert np.all(np.abs(shrunk) < np.abs(found))  # the penalty pulls every weight toward 0


def test_the_fit_of_positions_chooses_a_penalty_and_measures_the_holdout() -> None:
    rng = np.random.default_rng(6)
    true = rng.normal(size=len(learned.FEATURES))
    rows = []
    for game in range(400):
        result = None
        for turn in range(1, 6):
            x = rng.normal(size=len(learned.FEATURES)) * 0.5
            if result is None:
                result = float(rng.random() < 1 / (1 + math.exp(-float(x @ true))))
            rows.append(
                evaluation.Position(game, turn, tuple(float(v) for v in x), float(x @ true) / 5, result)
            )
    found = evaluation.fit(rows)
    assert found.penalty in evaluation.PENALTIES
    assert found.figures["holdout_games"] == 80 and found.figures["train_games"] == 320
    assert 0 < found.figures["holdout_log_loss"] < math.log(2) + 0.1
    assert set(found.weights) == set(learned.FEATURES)


def test_the_command_makes_the_same_table_for_a_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "table.toml"
    args = argparse.Namespace(games=10, seed=4, out=out, workers=0, scheduler=None, quiet=True)
    assert lab_command.evaluation(args) == 0
    first = out.read_text(encoding="utf-8")
    assert lab_command.evaluation(args) == 0
    assert out.read_text(encoding="utf-8") == first
    model = learned.read_table(out)
    assert model.games == 10 and model.positions > 40
    assert model.command == f"minis lab evaluation --games 10 --seed 4 --out {out.as_posix()}"
    assert "holdout games: log loss" in capsys.readouterr().out
    other = tmp_path / "other.toml"
    assert lab_command.evaluation(argparse.Namespace(**{**vars(args), "seed": 5, "out": other})) == 0
    assert learned.read_table(other).weights != model.weights


def test_the_command_refuses_too_few_games() -> None:
    args = argparse.Namespace(games=3, seed=1, out=Path("x.toml"), workers=0, scheduler=None, quiet=True)
    with pytest.raises(MinisError, match="--games must be from 10"):
        lab_command.evaluation(args)


def test_the_command_refuses_a_table_it_could_not_write_before_playing(tmp_path: Path) -> None:
    out = tmp_path / "missing" / "table.toml"
    args = argparse.Namespace(games=10, seed=1, out=out, workers=0, scheduler=None, quiet=True)
    with pytest.raises(MinisError, match=r"table\.toml:0:0: the table can't be written there"):
        lab_command.evaluation(args)


# --- the paired strength run (--slow) ---------------------------------------------------------------------

STRENGTH_PAIRS = int(os.environ.get("MINIS_LEARNED_PAIRS", "12"))
STRENGTH_PLAYOUTS = int(os.environ.get("MINIS_LEARNED_PLAYOUTS", "8"))
STRENGTH_SEED = int(os.environ.get("MINIS_LEARNED_SEED", "35"))


@attrs.define
class Leafed:
    """A search bot that scores its playouts' ends with one leaf evaluation (the playouts run in this
    process: `workers=0`)."""

    bot: SearchBot
    evaluation: str
    name: str = "search"

    def choose(self, game: Game) -> A.Action:
        before = playout.EVALUATION
        playout.EVALUATION = self.evaluation
        try:
            return self.bot.choose(game)
        finally:
            playout.EVALUATION = before


def paired_games(pairs: int, playouts: int, seed: int) -> tuple[list[float], tuple[int, int, int]]:
    """Twin games of the search with the learned leaf (A) against the search with the hand-set leaf (B),
    as `tests/test_ai_playout_policy.py`'s paired run plays them (configurations 1-6 in turn)."""

    def bots(a_side: Side, seeds: Mapping[Side, int]) -> dict[Side, Bot]:
        return {
            side: Leafed(
                SearchBot(seeds[side], workers=0, playouts=playouts), "learned" if side is a_side else "hand"
            )
            for side in Side
        }

    def said(pair: int, twin: list[float]) -> None:
        print(f"pair {pair} (configuration {1 + pair % 6}): A scored {twin}", flush=True)

    scores = play_twin_pairs(bots, pairs, seed, DEFAULT_TURN_LIMIT, said)
    pairs_of = TwinPairs.of(scores)
    return scores, (pairs_of.a_won_both, pairs_of.split, pairs_of.b_won_both)


@pytest.mark.slow
def test_strength_the_learned_leaf_against_the_hand_set_one() -> None:
    scores, (won, split, lost) = paired_games(STRENGTH_PAIRS, STRENGTH_PLAYOUTS, STRENGTH_SEED)
    mean = sum(scores) / len(scores)
    low, high = wilson(mean, len(scores))
    print(
        f"\nsearch(learned leaf) vs search(hand-set leaf), {STRENGTH_PLAYOUTS} playouts a decision, "
        f"seed {STRENGTH_SEED}: {mean:.2f} over {len(scores)} games, 95% CI [{low:.2f}, {high:.2f}]; "
        f"twin pairs: {won} both won, {split} split, {lost} both lost"
    )
    assert not math.isnan(mean)


def test_an_unknown_leaf_in_the_environment_is_said_not_passed_over(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from minis.ai import playout

    monkeypatch.setenv("MINIS_LEAF", "lerned")
    assert playout._leaf_from_environment() == "hand"
    assert "MINIS_LEAF='lerned' is not one of hand, learned, both" in capsys.readouterr().err
    monkeypatch.setenv("MINIS_LEAF", "learned")
    assert playout._leaf_from_environment() == "learned"
    assert capsys.readouterr().err == ""
