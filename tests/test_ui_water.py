"""Water in the window (issue 16): the river is drawn as water, the hover box names it, a selected boat's
tinted moves are water hexes only and an ordinary tank's none, and a rifleman aboard the boat gets off
onto the bank by a button or a click on the bank hex."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine_support import unit

from minis.base.sides import Side
from minis.engine.scenario import SCENARIOS_DIR, load_scenario
from minis.game import Game
from minis.state import Phase
from minis.terrain import Terrain
from tests.test_ui_battle import button, click_hex, hover_hex, shot, unit_at


def _river_game() -> Game:
    board = load_scenario(SCENARIOS_DIR / "river-crossing.toml").board
    assert board is not None
    units = [
        unit(board, "boat", "higgins-boat", "allies", "E5"),
        unit(board, "rifle", "m1-garand-rifle", "allies", "E5", carried_by="boat"),
        unit(board, "dukw", "dukw", "allies", "C5"),
        unit(board, "sherman", "early-m4a1-sherman", "allies", "F4"),
        unit(board, "enemy", "mauser-kar-98k", "axis", "E11"),
    ]
    return Game.from_position(board, units, phase=Phase.MOVEMENT, active=Side.ALLIES, first=Side.ALLIES)


def test_a_boat_crosses_and_a_rifleman_goes_ashore_through_the_window(
    driver: Any, arcade: Any, tmp_path: Path, shots: Path
) -> None:
    from minis.ui import hexdraw
    from minis.ui.battle import BattleScreen
    from minis.ui.session import Session

    screen = BattleScreen(driver.window, Session(_river_game(), saves=tmp_path, autosave=False))
    driver.window.open(screen)
    driver.frame()
    board = screen.state.board
    assert board is not None
    water = {h for h in board.hexes if board.terrain(h) is Terrain.WATER}
    assert hexdraw.terrain_name(Terrain.WATER) == "water" and "water" in hexdraw.LEGEND
    hover_hex(driver, "D6")
    assert screen.readout.hover_lines()[0] == "D6 water"
    # an ordinary tank on the bank: no water hex among its moves
    click_hex(driver, "F4")
    assert screen.controller.selected == "sherman"
    assert screen.controller.moves and not set(screen.controller.moves) & water
    # the boat: water hexes only; it crosses to the far side of the river
    click_hex(driver, "E5")
    assert screen.controller.selected == "boat"
    assert screen.controller.moves and set(screen.controller.moves) <= water
    click_hex(driver, "E6")
    click_hex(driver, "E6")  # a second click on the path's end confirms the move
    assert unit_at(screen, "boat") == "E6"
    # the rifleman aboard: the bank hexes next to the boat are offered in plain words
    screen.controller.select("rifle")
    driver.frame()
    texts = [b.text for b in screen.choices]
    assert "Get off onto E7" in texts and not any(t.startswith("Dismount") for t in texts), texts
    shot(driver, shots, "water-river-crossing.png")
    driver.click_box(button(screen, "Get off onto E7").box)
    assert unit_at(screen, "rifle") == "E7" and screen.state.units["rifle"].carried_by is None
    log = "\n".join(screen.controller.texts.log())
    assert "E7" in log


def test_water_is_painted_in_the_map_editor_and_saved_as_w(arcade: Any, tmp_path: Path) -> None:
    """Tool 7 paints water like any terrain (key or button), the hover names it, and the file says W."""
    import contextlib
    import io

    from minis.cli import main
    from minis.mapfile import load_map
    from minis.ui.app import MinisWindow
    from minis.ui.editor.view import TOOL_NAMES
    from tests.helpers_window import open_editor
    from tests.test_editor_keyboard import ROWS, cell, steer

    path = tmp_path / "lake.toml"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["map", "new", "--rows", str(ROWS), "--cols", "14", str(path)]) == 0
    window = MinisWindow(1280, 800, visible=False)
    try:
        driver, view = open_editor(window, path)
        driver.key(arcade.key.KEY_7)
        assert TOOL_NAMES["W"] == "paint water" and "paint water" in view.status.text
        steer(driver, arcade, "C5")
        driver.key(arcade.key.SPACE)
        assert cell(view, "C5") == "W"
        driver.key(arcade.key.J)  # off and back: the hover line of the painted hex
        driver.key(arcade.key.K)
        assert view.hover_label.text.startswith("C5: water")
        driver.key(arcade.key.S, arcade.key.MOD_CTRL)
    finally:
        window.close()
    assert not view.editor.modified
    saved = load_map(path)
    assert saved.terrain(saved.parse("C5")) is Terrain.WATER
