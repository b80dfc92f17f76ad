"""The shipped sample armies: one per nation players know best (and the Finns for a minor nation), each
legal for the Standard scenario with the historical limits and its year, and each playing whole games."""

from __future__ import annotations

import pytest

from minis.ai.random_bot import RandomBot
from minis.army import Army, army_points, load_army, validate_army
from minis.base.data import shipped_folder
from minis.base.sides import Side
from minis.cards import Nation, card_catalogue
from minis.dice import Dice
from minis.game import Game

NATIONS = {
    "sample-soviet": Nation.SOVIET_UNION,
    "sample-british": Nation.UNITED_KINGDOM,
    "sample-american": Nation.UNITED_STATES,
    "sample-german": Nation.GERMANY,
    "sample-japanese": Nation.JAPAN,
    "sample-italian": Nation.ITALY,
    "sample-finnish": Nation.FINLAND,
}


def _army(name: str) -> Army:
    return load_army(shipped_folder("armies") / f"{name}.toml")


@pytest.mark.parametrize("name", sorted(NATIONS))
def test_a_sample_army_is_legal_historical_and_of_its_nation_alone(name: str) -> None:
    army = _army(name)
    cards = card_catalogue()
    assert army.historical and army.year is not None
    assert validate_army(army, cards) == []
    assert {cards[unit].nation for unit in army.units} == {NATIONS[name]}
    assert 95 <= army_points(army, cards) <= 100  # strong for the points: nearly all of them spent


@pytest.mark.parametrize("name", sorted(NATIONS))
def test_a_sample_army_plays_a_whole_game(name: str) -> None:
    army = _army(name)
    enemy = _army("sample-soviet" if army.side is Side.AXIS else "sample-german")
    axis, allies = (army, enemy) if army.side is Side.AXIS else (enemy, army)
    game = Game.new(axis, allies, configuration=1 + len(name) % 6, dice=Dice(seed=len(name)), turn_limit=10)
    bot = RandomBot(7)
    while game.decider() is not None:
        game.apply(bot.choose(game))
    assert game.over
