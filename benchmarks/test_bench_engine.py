"""Engine benchmarks: the legal actions of one unit, one attack, one whole random game.

Target (issue 4): 50 random games per second on one core for two 100-point armies on configuration 1.
Run with `make bench` (pytest-benchmark); nothing here asserts a time.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from minis.ai.random_bot import RandomBot, play
from minis.army import load_army
from minis.dice import Dice
from minis.game import Game
from minis.state import Stage

ROOT = Path(__file__).resolve().parent.parent
AXIS = load_army(ROOT / "armies" / "sample-axis.toml")
ALLIES = load_army(ROOT / "armies" / "sample-allies.toml")


def _game_in(stage_phase: str, seed: int = 3) -> Game:
    game = Game.new(AXIS, ALLIES, configuration=1, dice=Dice(seed=seed))
    bot = RandomBot(seed)
    while not (game.state.stage is Stage.ACT and game.state.phase.value == stage_phase):
        game.apply(bot.choose(game))
    return game


@pytest.fixture(scope="module")
def movement_game() -> Game:
    return _game_in("movement")


@pytest.fixture(scope="module")
def assault_game() -> Game:
    return _game_in("assault")


def test_bench_legal_actions_of_one_unit(benchmark, movement_game: Game) -> None:
    tank = next(
        u.id
        for u in movement_game.state.units.values()
        if u.side is movement_game.state.active and u.card.is_vehicle
    )
    actions = benchmark(movement_game.legal_actions, tank)
    assert actions


def test_bench_one_attack(benchmark, assault_game: Game) -> None:
    attacks = [a for a in assault_game.legal_actions() if type(a).__name__ == "Attack"]
    if not attacks:
        pytest.skip("no attack in range in this position")
    attack = attacks[0]

    def one() -> None:
        assault_game.copy().apply(attack)

    benchmark(one)


def test_bench_one_random_game(benchmark) -> None:
    seeds = iter(range(10_000))

    def one() -> Game:
        seed = next(seeds)
        game = Game.new(AXIS, ALLIES, configuration=1, dice=Dice(seed=seed), turn_limit=30)
        return play(game, RandomBot(seed))

    game = benchmark.pedantic(one, rounds=20, iterations=1)
    assert game.over
