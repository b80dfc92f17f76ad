"""The window and indirect fire (issue 16): the mortar behind Hill 112 aims at a rifleman it can't see;
the preview says whose sight the attack uses and why, the map draws the observer's sight line, a click
fires and the log names the observer. One screenshot of the preview (`shots`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from minis.dice import Dice
from minis.engine.scenario import SCENARIOS_DIR
from minis.mapfile import load_board
from tests.engine_support import position, unit

HILL = load_board(SCENARIOS_DIR / "maps" / "hill-112.toml")


def test_the_preview_and_the_map_show_the_observers_sight(
    driver: Any, arcade: Any, tmp_path: Path, shots: Path
) -> None:
    from minis.ui.battle import BattleScreen
    from minis.ui.session import Session

    units = [
        unit(HILL, "3-inch-mortar", "3-inch-mortar", "allies", "D3"),
        unit(HILL, "concealed-foreward-observer", "concealed-foreward-observer", "allies", "B9"),
        unit(HILL, "mauser-kar-98k", "mauser-kar-98k", "axis", "D10"),
        unit(HILL, "mg-42-machine-gun-team", "mg-42-machine-gun-team", "axis", "D11"),
    ]
    game = position(HILL, units, phase="assault", active="allies", dice=Dice.scripted([]))
    screen = BattleScreen(driver.window, Session(game, saves=tmp_path, autosave=False))
    driver.window.open(screen)
    driver.frame()
    where = screen.map.hex_centre_on_screen
    driver.click(*where(HILL.parse("D3")))
    assert screen.controller.selected == "3-inch-mortar"
    driver.move(*where(HILL.parse("D10")))
    driver.frame(2)
    text = screen.info.text
    assert "Indirect fire: Concealed Foreward Observer sees the target (2 hexes away)." in text, text
    assert screen.layers.spotter_hex() == HILL.parse("B9")  # the observer's sight line is drawn from its hex
    driver.screenshot(shots / "indirect-fire-preview.png")
    game.push_dice([6] * 20)
    driver.click(*where(HILL.parse("D10")))
    driver.frame()
    events = screen.session.last_events
    assert [e.kind for e in events][:2] == ["spot", "attack"]
    assert any("sees Mauser Kar 98k and guides the indirect fire" in line for line in screen.log.lines)
