"""Engine benchmarks: copying a game, the legal actions of one unit, one attack, one whole random game.

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


def test_bench_copy_a_game(benchmark, movement_game: Game) -> None:
    """What a search pays for every position it tries: only the changing state is copied."""
    copy = benchmark(movement_game.copy)
    assert copy.state == movement_game.state


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


def test_bench_simulate_hundred_games(benchmark, capsys) -> None:
    """The issue's figure: `minis simulate --config 1` with the sample armies, 100 games, seed 1 (the
    command prints games per second; this measures the same run in-process, caches warm after round 1)."""
    from minis.cli import main

    argv = [
        "simulate",
        "--config",
        "1",
        "--axis",
        str(ROOT / "armies" / "sample-axis.toml"),
        "--allies",
        str(ROOT / "armies" / "sample-allies.toml"),
        "--games",
        "100",
        "--seed",
        "1",
        "--quiet",
    ]
    code = benchmark.pedantic(main, args=(argv,), rounds=3, iterations=1)
    assert code == 0
    assert "100 games on configuration 1" in capsys.readouterr().out
