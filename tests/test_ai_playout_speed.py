"""The search's playouts made cheaper (issue 35): no dice seeded to be thrown away, no side's view
rebuilt at every action of a playout, a policy built for playouts, and decisions by a count."""

from __future__ import annotations

from pathlib import Path

import pytest

from minis import projection
from minis.ai import playout
from minis.ai.bot import view
from minis.ai.heuristic import HeuristicBot
from minis.ai.search import SearchBot, heuristic_policy
from minis.army import load_army
from minis.dice import Dice
from minis.game import Game
from minis.sides import Side
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
