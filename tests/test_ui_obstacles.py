"""Obstacles in the window (issue 16): placed at deployment by clicks (a hex; Barbed Wire by its two
hexes), the players taking turns behind hand-over screens; drawn on the map, named by the hover box,
and a mine's roll told in the log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from minis.army import Army
from minis.base.sides import Side
from minis.dice import Dice
from minis.game import Game
from minis.rules import obstacles
from tests.test_ui_battle import click_hex, hover_hex, shot, unit_at


def _game() -> Game:
    axis = Army("Axis", Side.AXIS, units=("mauser-kar-98k", "minefield", "barbed-wire"))
    allies = Army("Allies", Side.ALLIES, units=("m4a1-sherman", "pillbox", "tank-obstacle"))
    game = Game.new(axis, allies, configuration=1, dice=Dice.scripted([2]))  # the Axis win the flip
    game.apply("first axis")
    game.apply("end west")
    return game


def test_obstacles_are_placed_drawn_and_named_in_the_window(
    driver: Any, arcade: Any, tmp_path: Path, shots: Path
) -> None:
    from minis.ui.battle import BattleScreen
    from minis.ui.handover import HandOver
    from minis.ui.session import Session

    screen = BattleScreen(driver.window, Session(_game(), saves=tmp_path, autosave=False))
    driver.window.open(screen)
    driver.frame()
    assert isinstance(driver.screen, HandOver) and "obstacle" in driver.screen.then.text
    driver.key(arcade.key.SPACE)
    assert screen.message.text.startswith("Place Minefield: click a hex"), screen.message.text
    click_hex(driver, "E9")  # the objective: refused in plain words
    assert "objective" in screen.message.text
    click_hex(driver, "C5")
    where = {o.id: obstacles.where(screen.state, o) for o in obstacles.placed(screen.state)}
    assert where == {"minefield": "C5"}
    # the Allies' turn: a hand-over, then the pillbox
    assert isinstance(driver.screen, HandOver) and driver.screen.side is Side.ALLIES
    driver.key(arcade.key.SPACE)
    click_hex(driver, "F13")
    # the Axis wire: two clicks, one hex and the hex next to it
    driver.key(arcade.key.SPACE)
    click_hex(driver, "C6")
    assert "now click a hex next to C6" in screen.message.text
    click_hex(driver, "C7")
    driver.key(arcade.key.SPACE)
    click_hex(driver, "G12")  # the Allied tank obstacle
    placed = {o.id: obstacles.where(screen.state, o) for o in obstacles.placed(screen.state)}
    assert placed == {
        "minefield": "C5",
        # the Allied copies of cards of no nation are marked (minis.content.unit_ids)
        "allied-pillbox": "F13",
        "barbed-wire": "C6/C7",
        "allied-tank-obstacle": "G12",
    }
    # then the units, as before: the Axis rifle into the minefield (it takes no room)
    if isinstance(driver.screen, HandOver):
        driver.key(arcade.key.SPACE)
    assert screen.controller.selected == "mauser-kar-98k"
    click_hex(driver, "C5")
    assert unit_at(screen, "mauser-kar-98k") == "C5"
    hover_hex(driver, "C6")
    lines = screen.readout.hover_lines()
    assert any("Barbed Wire between C6 and C7" in line for line in lines), lines
    hover_hex(driver, "C5")
    assert any("Minefield in C5" in line for line in screen.readout.hover_lines())
    shot(driver, shots, "obstacles-deployment.png")
    log = "\n".join(screen.controller.texts.log())
    assert "Barbed Wire is laid between C6 and C7" in log, log
    assert "Pillbox" in log and "allied-" not in log, log  # the marked ids are for the records only
    notation = "\n".join(screen.controller.texts.log(True))  # the log's notation view (V): the ids
    assert "deploy allied-pillbox F13" in notation and "deploy allied-tank-obstacle G12" in notation, notation


def test_the_builder_offers_obstacles_and_says_when_they_cost_too_much(driver: Any, arcade: Any) -> None:
    from minis.army import ArmyScenario
    from minis.ui.armybuilder import ArmyBuilder
    from tests.test_ui_armybuilder_catalogue import click_until

    driver.window.stack.clear()
    builder = ArmyBuilder(driver.window, Side.AXIS, ArmyScenario.STANDARD, lambda army: None)
    driver.window.open(builder)
    driver.frame()
    click_until(driver, builder.type_filter, lambda: builder.type_filter.text.endswith("Obstacles"))
    names = sorted(card.name for card in builder.shown)
    assert names == ["Barbed Wire", "Minefield", "Pillbox", "Tank Obstacle"]
    minefield = [card.name for card in builder.shown].index("Minefield")
    for _ in range(6):  # six minefields: 12 points, more than a tenth of 100
        driver.click_box(builder.cards.row_box(minefield))
    driver.frame()
    assert builder.units == ["minefield"] * 6
    assert "more than a tenth of the 100-point limit" in builder.problems.text, builder.problems.text
