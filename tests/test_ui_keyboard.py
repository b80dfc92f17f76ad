"""The keyboard hex cursor, driven through the window's key events only, in arcade's headless mode.

W A S D move a cursor over the map (the arrow keys still pan), Space (and Enter on the Battle maps
screen) is a left click on the cursor hex, the hover panels follow the cursor while the keyboard moved
last, and the view scrolls to keep it in sight. A battle is deployed, a unit moved and an attack made
without a single mouse event; the engine's state shows each step. The picture of the cursor is
keyboard-cursor.png (`make screenshots` puts it in docs/screenshots/).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from minis.base.sides import Side
from minis.dice import Dice
from minis.hexgrid import Hex, distance
from tests.helpers_window import end_phase, pixel, rim_point


def column(hex_: Hex) -> int:
    """The doubled-width column (x) of a hex: equal for hexes straight above one another."""
    return 2 * hex_.q + hex_.r


def steer(driver: Any, arcade: Any, target: Hex, limit: int = 60) -> None:
    """Move the shown cursor to `target` with W A S D only (rows first, then along the row)."""
    view = driver.screen.map
    if not view.cursor_shown:
        driver.key(arcade.key.W)
    for _ in range(limit):
        here = view.cursor
        if here == target:
            return
        if here.r != target.r:
            driver.key(arcade.key.W if here.r > target.r else arcade.key.S)
        else:
            driver.key(arcade.key.D if column(here) < column(target) else arcade.key.A)
        assert view.cursor_shown
    raise AssertionError(f"the cursor did not reach {target} (at {view.cursor})")


def steer_to(driver: Any, arcade: Any, label: str) -> None:
    steer(driver, arcade, driver.screen.state.board.parse(label))


# --- the Battle maps screen ------------------------------------------------------------------------------
def open_battle_maps_by_keys(driver: Any, arcade: Any) -> Any:
    from minis.ui.battlemaps import BattleMapsScreen

    menu = driver.screen
    for _ in range(menu.menu.items.index("Battle maps")):
        driver.key(arcade.key.DOWN)
    driver.key(arcade.key.ENTER)
    assert isinstance(driver.screen, BattleMapsScreen)
    return driver.screen


def test_the_cursor_moves_on_the_hex_grid_and_the_hover_follows(driver: Any, arcade: Any) -> None:
    from minis.hexgrid import Facing
    from minis.ui.mapview import CURSOR

    screen = open_battle_maps_by_keys(driver, arcade)
    view, board = screen.map, screen.board
    assert "W A S D" in screen.hint_text
    assert view.cursor is None and not view.cursor_shown
    driver.key(arcade.key.D)  # the first key shows the cursor in the middle of the view, unmoved
    start = view.cursor
    assert view.cursor_shown and start == view._middle_hex()
    assert view.hover == start and screen.hover_label.text.startswith(f"{board.label(start)}: ")
    driver.key(arcade.key.D)
    assert view.cursor == start + Facing.E.value
    driver.key(arcade.key.A)
    assert view.cursor == start
    # W and S zig-zag between the two hexes above (below) to stay in the column: right first
    driver.key(arcade.key.W)
    assert view.cursor == start + Facing.NE.value
    driver.key(arcade.key.W)
    assert view.cursor.r == start.r - 2 and column(view.cursor) == column(start)
    driver.key(arcade.key.S)
    driver.key(arcade.key.S)
    assert view.cursor == start
    assert screen.hover_label.text.startswith(f"{board.label(start)}: ")  # the panel follows the cursor
    # the cursor is drawn (its own colour on its rim) while the keyboard moved last
    assert pixel(driver.image(), *rim_point(view, start)) == CURSOR[:3]
    driver.move(*view.hex_centre_on_screen(board.parse("C3")))
    driver.frame()
    assert not view.cursor_shown and view.hover == board.parse("C3")
    assert pixel(driver.image(), *rim_point(view, start)) != CURSOR[:3]
    assert screen.hover_label.text.startswith("C3: ")
    # the next key brings the cursor back at the hex under the mouse, and moves it
    driver.key(arcade.key.D)
    assert view.cursor == board.parse("C3") + Facing.E.value and view.cursor_shown


def test_the_sight_line_tool_by_keyboard(driver: Any, arcade: Any) -> None:
    screen = open_battle_maps_by_keys(driver, arcade)
    driver.key(arcade.key.KEY_4)
    board = screen.board
    inner = [h for h in board.hexes if 2 <= h.r <= 8]
    a = next(h for h in inner if any(board.visible(h, b) and distance(h, b) >= 5 for b in inner))
    b = next(h for h in inner if board.visible(a, h) and distance(a, h) >= 5)
    c = next(h for h in inner if not board.visible(a, h) and distance(a, h) >= 4)
    steer(driver, arcade, a)
    driver.key(arcade.key.SPACE)  # Space: a left click on the cursor hex
    assert screen.sight_from == a and screen.sight_to is None
    steer(driver, arcade, b)
    driver.key(arcade.key.ENTER)  # Enter clicks too on this screen
    assert screen.sight_text == f"{board.label(a)} -> {board.label(b)}: visible"
    steer(driver, arcade, a)
    driver.key(arcade.key.SPACE)
    steer(driver, arcade, c)
    driver.key(arcade.key.SPACE)
    assert screen.sight_text == f"{board.label(a)} -> {board.label(c)}: blocked"
    driver.key(arcade.key.C)
    assert screen.sight_from is None


def test_the_view_follows_the_cursor(driver: Any, arcade: Any) -> None:
    screen = open_battle_maps_by_keys(driver, arcade)
    view, board = screen.map, screen.board
    for _ in range(4):
        driver.key(arcade.key.PLUS)
    assert view.zoom > view.fit_zoom
    driver.key(arcade.key.D)
    for way in (arcade.key.D, arcade.key.S, arcade.key.A, arcade.key.W):
        for _ in range(14):
            driver.key(way)
            x, y = view.hex_centre_on_screen(view.cursor)
            assert view.box.contains(x, y), board.label(view.cursor)
    assert max(h.q for h in board.hexes) > 0
    # the arrow keys still pan, and zoom keys keep the shown cursor still
    x, y = view.hex_centre_on_screen(view.cursor)
    driver.key(arcade.key.MINUS)
    assert view.hex_centre_on_screen(view.cursor) == pytest.approx((x, y), abs=1)
    driver.key(arcade.key.RIGHT)
    assert view.hex_centre_on_screen(view.cursor)[0] < x
    assert screen.focused is view  # the cursor keys gave the map the keyboard focus


# --- a battle, keyboard only ------------------------------------------------------------------------------
def feed(screen: Any, *dice: int) -> None:
    screen.session.game.dice.push(dice)


def unit_at(screen: Any, unit_id: str) -> str | None:
    unit = screen.state.units[unit_id]
    return screen.state.board.label(unit.hex) if unit.hex is not None else None


def test_deployment_a_move_and_an_attack_by_keyboard(
    driver: Any, arcade: Any, tmp_path: Path, shots: Path
) -> None:
    from minis.army import Army
    from minis.game import Game
    from minis.ui.battle import BattleScreen
    from minis.ui.handover import HandOver
    from minis.ui.session import Session

    axis = Army("Axis", Side.AXIS, units=("panzer-iv-ausf-g", "mauser-kar-98k"))
    allies = Army("Allies", Side.ALLIES, units=("m4a1-sherman", "bazooka"))
    game = Game.new(axis, allies, configuration=1, dice=Dice.scripted([2]))  # the coin: the Axis
    screen = BattleScreen(driver.window, Session(game, saves=tmp_path))
    driver.window.open(screen)
    driver.frame()
    assert screen.dialog is not None and screen.dialog.title.text == "Coin flip"
    driver.key(arcade.key.A)  # the Axis go first (the dialog has the keys while it is open)
    driver.key(arcade.key.W)  # the west end
    assert isinstance(driver.screen, HandOver)
    driver.key(arcade.key.SPACE)
    assert driver.screen is screen and screen.stage.value == "deploy"
    assert "W A S D" in screen.hint_text
    # --- deployment: a refused hex (the engine's reason), then the two units -----------------------
    assert screen.controller.selected == "panzer-iv-ausf-g"
    steer_to(driver, arcade, "J10")
    assert screen.tooltip.text.startswith("J10 ")  # the hover box follows the cursor
    driver.key(arcade.key.SPACE)
    assert screen.message.text == "Not allowed: J10 is not in the Axis deployment area"
    assert unit_at(screen, "panzer-iv-ausf-g") is None
    steer_to(driver, arcade, "F5")
    driver.key(arcade.key.Q)  # turn it to NE, and back with E
    driver.key(arcade.key.E)
    driver.key(arcade.key.SPACE)
    assert unit_at(screen, "panzer-iv-ausf-g") == "F5"
    assert screen.state.units["panzer-iv-ausf-g"].facing.name == "E"
    assert screen.controller.selected == "mauser-kar-98k"
    # Tab to the unit list: it has the keys (Space would choose in it) until a cursor key takes them back
    while screen.focused is not screen.units_list:
        driver.key(arcade.key.TAB)
    steer_to(driver, arcade, "D5")
    assert screen.focused is screen.map
    driver.key(arcade.key.SPACE)
    assert unit_at(screen, "mauser-kar-98k") == "D5"
    driver.key(arcade.key.R)
    assert isinstance(driver.screen, HandOver) and driver.screen.side is Side.ALLIES
    driver.key(arcade.key.SPACE)
    for unit_id, where in (("m4a1-sherman", "F13"), ("bazooka", "H14")):
        assert screen.controller.selected == unit_id
        steer_to(driver, arcade, where)
        driver.key(arcade.key.SPACE)
        assert unit_at(screen, unit_id) == where
    assert screen.state.units["m4a1-sherman"].facing.name == "W"
    feed(screen, 6, 6, 1, 1)  # turn 1 initiative: the Axis win
    driver.key(arcade.key.R)
    assert screen.state.turn == 1 and screen.dialog.title.text == "Turn 1: initiative"
    driver.key(arcade.key.A)
    # --- movement: select, a path to a hex, Space on its end moves ---------------------------------
    assert screen.state.active is Side.AXIS and screen.phase_title.text == "Axis movement phase"
    steer_to(driver, arcade, "F5")
    driver.key(arcade.key.SPACE)
    assert screen.controller.selected == "panzer-iv-ausf-g"
    steer_to(driver, arcade, "F8")
    driver.key(arcade.key.SPACE)  # the engine's cheapest path there
    board = screen.state.board
    assert screen.controller.path[-1] == board.parse("F8") and screen.controller.path_info.cost == 3
    driver.key(arcade.key.SPACE)  # Space on the path's end: the move (as a click there)
    assert unit_at(screen, "panzer-iv-ausf-g") == "F8"
    assert "panzer-iv-ausf-g" in screen.state.activated
    end_phase(driver)
    end_phase(driver)  # the Allies do not move
    assert screen.state.phase.value == "assault" and screen.state.active is Side.AXIS
    # --- an attack: select, the cursor on the enemy shows the odds, Space attacks -------------------
    driver.key(arcade.key.N)  # the next unit that may act; the cursor jumps to it
    if screen.controller.selected != "panzer-iv-ausf-g":
        driver.key(arcade.key.N)
    assert screen.controller.selected == "panzer-iv-ausf-g" and screen.map.cursor == board.parse("F8")
    driver.key(arcade.key.L)
    steer_to(driver, arcade, "F13")
    assert screen.controller.target == "m4a1-sherman"
    assert "Attack M4A1 Sherman: 5 hexes, long range, 11 dice" in screen.info.text
    assert "M4A1 Sherman" in screen.tooltip.text
    driver.screenshot(shots / "keyboard-cursor.png")
    feed(screen, *[6] * 11)
    driver.key(arcade.key.SPACE)
    sherman = screen.state.units["m4a1-sherman"]
    assert sherman.pending, "the attack put hit counters on the Sherman"
    (attack,) = [roll for roll in screen.dice.rolls if roll.kind == "attack"]
    assert attack.dice == (6,) * 11 and all(attack.success)
    assert "panzer-iv-ausf-g" in screen.state.activated
    assert screen.session.log_lines()[-1].startswith("attack panzer-iv-ausf-g m4a1-sherman")


def test_the_assault_objective_by_keyboard(driver: Any, arcade: Any, tmp_path: Path) -> None:
    from minis.army import Army
    from minis.game import Game
    from minis.state import BattleKind
    from minis.ui.battle import BattleScreen
    from minis.ui.session import Session

    axis = Army("Axis", Side.AXIS, units=("tiger-i", "mauser-kar-98k"))
    allies = Army("Allies", Side.ALLIES, units=("m4a1-sherman", "bazooka"))
    game = Game.new(axis, allies, scenario=BattleKind.ASSAULT, attacker=Side.AXIS, dice=Dice.scripted())
    session = Session(game, saves=tmp_path)
    session.apply("configuration 3")
    screen = BattleScreen(driver.window, session)
    driver.window.open(screen)
    driver.frame()
    assert screen.stage.value == "choose-objective" and "W A S D" in screen.hint_text
    steer_to(driver, arcade, "A1")
    driver.key(arcade.key.SPACE)  # next to the map edge: refused with the engine's reason
    assert "next to the map edge" in screen.message.text and screen.state.objective is None
    steer_to(driver, arcade, "F8")
    driver.key(arcade.key.SPACE)
    assert screen.state.board.label(screen.state.objective) == "F8"
    assert screen.dialog is not None and screen.dialog.title.text == "Choose an end"
