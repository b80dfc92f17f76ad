"""Special deployment in the window (issue 16): the deployment list keeps Heroes and Paratroopers off the
map, a Partisan's map edge is tinted and takes it, and in the battle the panel offers the units waiting
to arrive: a click picks one, its allowed hexes are tinted, a click on one brings it in, and a hex the
rules refuse says why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from minis.army import Army
from minis.base.sides import Side
from minis.dice import Dice
from minis.game import Game
from minis.state import Stage
from tests.test_ui_battle import button, click_hex, feed, shot, unit_at

AXIS = ("mauser-kar-98k", "grizzled-veteran", "fallschirmjager")
ALLIES = ("smle-no-4-rifleman", "communist-partisans")


def test_arrivals_and_a_partisan_through_the_window(
    driver: Any, arcade: Any, tmp_path: Path, shots: Path
) -> None:
    from minis.ui.battle import BattleScreen
    from minis.ui.handover import HandOver
    from minis.ui.session import Session

    axis = Army("Airborne Axis", Side.AXIS, units=AXIS)
    allies = Army("Partisan Allies", Side.ALLIES, units=ALLIES)
    game = Game.new(axis, allies, configuration=1, dice=Dice.scripted([2]))  # the coin: the Axis win it
    screen = BattleScreen(driver.window, Session(game, saves=tmp_path))
    driver.window.open(screen)
    driver.frame()
    assert screen.dialog is not None and screen.dialog.title.text == "Coin flip"
    driver.key(arcade.key.A)  # the Axis are the first player
    driver.click_box(button(screen, "West").box)
    assert isinstance(driver.screen, HandOver)
    driver.key(arcade.key.SPACE)
    # --- the Axis deploy: the Hero and the Paratrooper stay off the map --------------------------------
    rows = {row.unit: row.where for row in screen.readout.panel().listing}
    assert rows["grizzled-veteran"] == "arrives later" and rows["fallschirmjager"] == "arrives later"
    assert rows["mauser-kar-98k"] == "to deploy"
    driver.click_box(screen.units_list.row_box(screen.controller.deployment.listed().index("mauser-kar-98k")))
    click_hex(driver, "F1")
    assert unit_at(screen, "mauser-kar-98k") == "F1"
    screen.controller.select("grizzled-veteran")
    click_hex(driver, "F2")  # a Hero is never deployed: the engine's reason
    assert screen.message.text.startswith("Not allowed: ") and "starts off the map" in screen.message.text
    driver.key(arcade.key.R)  # every unit that deploys is placed: ready
    assert isinstance(driver.screen, HandOver) and driver.screen.side is Side.ALLIES
    driver.key(arcade.key.SPACE)
    # --- the Allies: a Partisan on the map's edge, outside its zone --------------------------------------
    driver.click_box(
        screen.units_list.row_box(screen.controller.deployment.listed().index("communist-partisans"))
    )
    edge = screen.controller.deployment.special_hexes()
    board = screen.state.board
    assert board is not None
    assert board.parse("A8") in edge and board.parse("F8") not in edge  # the edge, not the middle
    click_hex(driver, "A8")
    assert unit_at(screen, "communist-partisans") == "A8"
    driver.click_box(
        screen.units_list.row_box(screen.controller.deployment.listed().index("smle-no-4-rifleman"))
    )
    click_hex(driver, "K16")
    feed(screen, 6, 6, 1, 1)  # turn 1 initiative: Axis 12, Allies 2
    driver.key(arcade.key.R)
    assert screen.dialog is not None and screen.dialog.title.text == "Turn 1: initiative"
    driver.key(arcade.key.A)
    # --- the Axis movement phase: bring the Hero in, then land the Paratrooper ---------------------------
    assert screen.state.stage is Stage.ACT and screen.state.active is Side.AXIS
    assert "waiting to arrive" in screen.readout.panel().info
    driver.click_box(button(screen, "Bring in Grizzled Veteran").box)
    assert screen.controller.selected == "grizzled-veteran"
    assert screen.controller.deployment.special_hexes() == [board.parse("F1")]  # the German rifle's hex only
    assert "Click a tinted hex" in screen.readout.panel().info
    shot(driver, shots, "hero-arrives.png")
    click_hex(driver, "F1")
    assert unit_at(screen, "grizzled-veteran") == "F1"
    driver.click_box(button(screen, "Bring in Fallschirmjager").box)
    click_hex(driver, "K15")  # next to the British rifle: refused with the reason
    assert screen.message.text.startswith("Not allowed: ") and "next to it" in screen.message.text
    assert unit_at(screen, "fallschirmjager") is None
    click_hex(driver, "F8")
    assert unit_at(screen, "fallschirmjager") == "F8"
    log = "\n".join(screen.controller.texts.log())
    assert "Grizzled Veteran arrives in F1" in log and "Fallschirmjager arrives in F8" in log
