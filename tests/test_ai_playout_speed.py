"""The search's playouts made cheaper (issue 35): no dice seeded to be thrown away, no side's view
rebuilt at every action of a playout, a policy built for playouts, and decisions by a count."""

from __future__ import annotations

from pathlib import Path

import pytest

from minis.ai import playout
from minis.ai.bot import view
from minis.ai.heuristic import HeuristicBot
from minis.ai.search import SearchBot, heuristic_policy
from minis.army import load_army
from minis.base.sides import Side
from minis.dice import Dice
from minis.engine import projection
from minis.game import Game
from minis.state import Phase, Stage

ROOT = Path(__file__).resolve().parent.parent


def _movement(seed: int = 3, configuration: int = 1) -> Game:
    """The sample armies in turn 1's movement phase, set up by the heuristic (a searched decision)."""
    game = Game.new(
        load_army(ROOT / "armies" / "sample-axis.toml"),
        load_army(ROOT / "armies" / "sample-allies.toml"),
        configuration=configuration,
        dice=Dice(seed=seed),
        turn_limit=3,
    )
    bot = HeuristicBot(seed)
    while game.state.stage is not Stage.ACT or game.state.phase is not Phase.MOVEMENT:
        side = game.decider()
        assert side is not None
        game.apply(bot.choose(view(game, side, seed)))
    return game


def _no_fork(self: Dice) -> Dice:
    raise AssertionError("a dice source was forked (and seeded) only to be replaced")


# --- Game.copy with dice of its own ----------------------------------------------------------------------


def test_a_copy_given_dice_takes_them_without_forking(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _movement()
    dice = Dice(seed=11)
    monkeypatch.setattr(Dice, "fork", _no_fork)
    twin = game.copy(record=False, dice=dice)
    assert twin.dice is dice and twin.state == game.state and twin.header == game.header


def test_a_playout_seeds_no_dice_it_throws_away(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _movement()
    side = game.decider()
    assert side is not None
    seen = playout.unpack(playout.pack(view(game, side, 1)))
    action = HeuristicBot(1).choose(seen)
    before = playout.play(seen, action, 5, heuristic_policy, 200, leaf=0.25)
    monkeypatch.setattr(Dice, "fork", _no_fork)
    assert playout.play(seen, action, 5, heuristic_policy, 200, leaf=0.25) == before


# --- a side's view once per decision ---------------------------------------------------------------------


def test_a_search_decision_builds_no_view_in_its_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _movement()
    side = game.decider()
    assert side is not None
    seen = view(game, side, 2)  # the one view of the decision, as `play_out` gives it to the bot
    built: list[Side] = []
    project = projection.project

    def counted(game: Game, side: Side, dice: Dice) -> Game:
        built.append(side)
        return project(game, side, dice)

    monkeypatch.setattr(projection, "project", counted)
    bot = SearchBot(4, workers=0, playouts=8, policy=heuristic_policy)
    bot.choose(seen)
    assert bot.playouts > 0 and built == []


# --- decisions by a count of playouts, the budget a cap ----------------------------------------------------


def test_the_same_seed_and_playouts_give_the_same_decision_twice() -> None:
    game = _movement(5)
    side = game.decider()
    assert side is not None
    seen = view(game, side, 6)
    for budget in (None, 600.0):  # by count alone, and by count under a cap it does not reach
        first, second = (SearchBot(8, budget=budget, workers=0, playouts=12) for _ in range(2))
        assert first.choose(seen) == second.choose(seen)
        assert first.playouts == second.playouts > 0


def test_a_budget_caps_a_decision_by_playouts() -> None:
    game = _movement()
    side = game.decider()
    assert side is not None
    capped = SearchBot(1, budget=1e-6, workers=0, playouts=1000)  # the cap passes before any playout
    action = capped.choose(view(game, side, 1))
    assert capped.playouts == 0 and action in game.legal_actions()


def test_hard_decides_by_a_count_of_playouts_with_its_budget_as_a_cap() -> None:
    from minis.ai.sharp import HARD_PLAYOUTS, NORMAL_PLAYOUTS, SharpBot
    from minis.ai.strength import HARD_BUDGET, bot_for

    hard = bot_for("hard", 3, workers=0)
    assert isinstance(hard, SharpBot) and hard.name == "hard"
    assert hard.counted and hard.max_playouts == HARD_PLAYOUTS and hard.budget == HARD_BUDGET
    normal = bot_for("normal", 3, workers=0)
    assert isinstance(normal, SharpBot) and normal.name == "normal"
    assert normal.counted and normal.max_playouts == NORMAL_PLAYOUTS < HARD_PLAYOUTS


def test_match_takes_playouts(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from minis.cli import main
    from minis.commands.match import game_specs

    assert main(["match", "random", "search", "--games", "1", "--playouts", "0"]) == 1
    assert "match:0:0: --playouts must be at least 1" in capsys.readouterr().err
    args = argparse.Namespace(games=2, seed=1, config=1, all_configs=False, budget=2.0, playouts=16)
    specs = game_specs(args, ("search", "random"), {Side.AXIS: None, Side.ALLIES: None}, in_process=True)
    assert [(spec.playouts, spec.budget) for spec in specs] == [(16, 2.0), (16, 2.0)]


def test_the_decision_time_tool_times_searched_decisions_of_real_games(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("decision_time", ROOT / "tools" / "decision_time.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    monkeypatch.setattr(tool, "GAMES", (("axis", "allies", 1, 1),))
    found = tool.positions(40)
    assert found and all(g.state.stage is Stage.ACT and g.state.turn >= 2 for g in found)
    assert all(g.state.phase is not Phase.SETUP and not g.over for g in found)
    monkeypatch.setattr(sys, "argv", ["decision_time", "--playouts", "2,3", "--every", "40", "--turns", "2"])
    tool.main()
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{len(found)} positions"
    assert [line.split()[:2] for line in lines[1:]] == [["playouts=2", "turns=2"], ["playouts=3", "turns=2"]]
    means = [float(line.split("mean_playouts=")[1].split()[0]) for line in lines[1:]]
    assert means[0] <= 2 and means[1] <= 3
    changed = [int(line.split("not_the_heuristics_first=")[1]) for line in lines[1:]]
    assert all(0 <= n <= len(found) for n in changed)
