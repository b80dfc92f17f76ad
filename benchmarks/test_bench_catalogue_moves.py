"""Benchmarks of moves by units whose abilities change where they may step (catalogue cards).

Thin Wheels, Poor and Excellent Suspension are folded into the fast search's per-map steps; Charge and
Courage take the general search only while disrupted. Run with `make bench`; nothing here asserts a time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from minis.ai.random_bot import RandomBot, play
from minis.army import Army, load_army
from minis.base.sides import Side
from minis.dice import Dice
from minis.game import Game
from minis.rules import caching, movement
from minis.state import Stage

ROOT = Path(__file__).resolve().parent.parent
FINNISH = load_army(ROOT / "armies" / "sample-finnish.toml")
SOVIET = load_army(ROOT / "armies" / "sample-soviet.toml")
#: Armies of cards with step hooks (Thin Wheels, Excellent and Poor Suspension, Charge).
WHEELS = Army(
    "step hooks, axis",
    Side.AXIS,
    units=(
        "bmw-r75",
        "bmw-r75",
        "panzer-ii-ausf-c",
        "panzer-ii-ausf-f",
        "type-87-armored-car",
        "romanian-cavalry",
    ),
)
TRACKS = Army(
    "step hooks, allies",
    Side.ALLIES,
    units=("bt-5", "bt-7", "t-28", "guards-infantry", "guards-infantry", "m4a3e8-sherman-easy-eight"),
)


@pytest.fixture(scope="module")
def hooked_game() -> Game:
    """A game in its first movement phase with units whose abilities change their steps."""
    game = Game.new(WHEELS, TRACKS, configuration=1, dice=Dice(seed=3))
    bot = RandomBot(3)
    while not (game.state.stage is Stage.ACT and game.state.phase.value == "movement"):
        game.apply(bot.choose(game))
    return game


def test_bench_reachable_of_units_with_step_hooks(benchmark: Any, hooked_game: Game) -> None:
    """Every unit's moves once, the caches cleared first: what listing the moves of a new position costs."""
    state = hooked_game.state
    units = [u for u in state.units.values() if u.hex is not None and u.carried_by is None]

    def every_unit() -> int:
        board = state.battle.board
        assert board is not None
        caching.kept(board, movement.MoveCaches).searches.clear()
        return sum(len(movement.reachable(state, u)) for u in units)

    assert benchmark(every_unit) > 0


def test_bench_random_game_with_catalogue_armies(benchmark: Any) -> None:
    seeds = iter(range(10_000))

    def one() -> Game:
        seed = next(seeds)
        game = Game.new(FINNISH, SOVIET, configuration=1, dice=Dice(seed=seed), turn_limit=30)
        return play(game, RandomBot(seed))

    game = benchmark.pedantic(one, rounds=10, iterations=1)
    assert game.over


def test_bench_random_game_with_step_hooks(benchmark: Any) -> None:
    seeds = iter(range(10_000))

    def one() -> Game:
        seed = next(seeds)
        game = Game.new(WHEELS, TRACKS, configuration=1 + seed % 6, dice=Dice(seed=seed), turn_limit=30)
        return play(game, RandomBot(seed))

    game = benchmark.pedantic(one, rounds=10, iterations=1)
    assert game.over
