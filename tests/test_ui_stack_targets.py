"""Choosing the target in an enemy stack (issue 33), through the window's input events.

A Sherman faces two German Soldiers in one hex, a disrupted Fallschirmjager under a Mauser Kar 98k.
The stack spreads out above its hex while the mouse is on the hex, and stays spread out while the mouse
moves up onto it (the hex and the spread-out stack are one area); the counter under the mouse is the
target, ringed, with its own odds in the panel before the click; the click attacks that unit. The
keyboard does the same with C (the next unit of the stack under the cursor) and Space. A stack in a hex
at the edge of the map's view is spread out whole inside the view. Screenshots: `stack-target.png`,
`stack-target-edge.png`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from minis.dice import Dice
from minis.engine import queries
from minis.mapfile import load_configuration
from minis.ui.readout import BattleReadout
from tests.engine_support import position, unit

BOARD = load_configuration(1)
UNDER = "a-fallschirmjager"  # the bottom of the stack (hex_order: by id), disrupted
TOP = "b-kar"


def stack_battle(driver: Any, tmp_path: Path, enemies_at: str = "F9") -> Any:
    """The Allied assault phase: the Sherman in F5, the two German Soldiers stacked in `enemies_at`."""
    from minis.ui.battle import BattleScreen
    from minis.ui.session import Session

    units = [
        unit(BOARD, "sherman", "m4a1-sherman", "allies", "F5"),
        unit(BOARD, UNDER, "fallschirmjager", "axis", enemies_at, status=("disrupted",)),
        unit(BOARD, TOP, "mauser-kar-98k", "axis", enemies_at),
    ]
    game = position(BOARD, units, phase="assault", active="allies", dice=Dice.scripted([]))
    screen = BattleScreen(driver.window, Session(game, saves=tmp_path, autosave=False))
    driver.window.open(screen)
    driver.frame()
    return screen


def spots(screen: Any, label: str) -> dict[str, tuple[float, float]]:
    """Where each counter of the stack in `label` sits on screen while it is spread out."""
    from minis.ui.counters import fan_spots

    hex_ = BOARD.parse(label)
    below, shift = screen.layers.fan_place(hex_)
    found = fan_spots(screen.state, hex_, top=screen.controller.selected, below=below, shift=shift)
    return {u.id: screen.map.world_to_screen(spot.x, spot.y) for u, spot in found}


def odds_text(screen: Any, target: str) -> str:
    """The panel's text for an attack on `target` (what the panel itself says for that preview)."""
    control = screen.controller
    return BattleReadout(control).attack_text(queries.attack_preview(screen.state, "sherman", target))


def test_a_click_on_a_spread_out_counter_attacks_that_unit(
    driver: Any, arcade: Any, tmp_path: Path, shots: Path
) -> None:
    screen = stack_battle(driver, tmp_path)
    where = screen.map.hex_centre_on_screen
    driver.click(*where(BOARD.parse("F5")))
    assert screen.controller.selected == "sherman"
    start = where(BOARD.parse("F9"))
    driver.move(*start)
    driver.frame()
    assert screen.layers.fan_hex == BOARD.parse("F9")  # spread out
    first = screen.controller.target
    assert first in (UNDER, TOP)
    assert odds_text(screen, UNDER) != odds_text(screen, TOP)  # the disrupted one is easier to hit
    # up from the hex onto the counter underneath, a few pixels at a time: the stack stays open
    goal = spots(screen, "F9")[UNDER]
    for step in range(1, 11):
        driver.move(start[0] + (goal[0] - start[0]) * step / 10, start[1] + (goal[1] - start[1]) * step / 10)
        driver.frame()
        assert screen.map.hover == BOARD.parse("F9") and screen.layers.fan_hex == BOARD.parse("F9"), step
    assert screen.controller.target == UNDER
    assert screen.info.text.startswith(odds_text(screen, UNDER))  # its own odds, before the click
    assert any(b.text == "Attack Fallschirmjager" for b in screen.choices)
    shot_path = driver.screenshot(shots / "stack-target.png")
    assert shot_path.exists()
    # over the other counter: the other unit and its odds
    driver.move(*spots(screen, "F9")[TOP])
    driver.frame()
    assert screen.controller.target == TOP and screen.info.text.startswith(odds_text(screen, TOP))
    driver.move(*goal)
    driver.frame()
    screen.game.push_dice([1] * 40)
    driver.click(*goal)
    attacks = [e for e in screen.session.last_events if e.kind == "attack"]
    assert [(e.unit, e.target) for e in attacks] == [("sherman", UNDER)]


def test_c_chooses_the_target_in_the_stack_under_the_keyboard_cursor(
    driver: Any, arcade: Any, tmp_path: Path
) -> None:
    screen = stack_battle(driver, tmp_path)
    screen.map.show_cursor(BOARD.parse("F5"))
    driver.key(arcade.key.SPACE)  # the Sherman
    assert screen.controller.selected == "sherman"
    for _ in range(4):
        driver.key(arcade.key.D)  # F5 -> F9
    assert screen.map.cursor == BOARD.parse("F9") and screen.map.hover == BOARD.parse("F9")
    first = screen.controller.target
    driver.key(arcade.key.C)
    second = screen.controller.target
    assert {first, second} == {UNDER, TOP}
    assert screen.info.text.startswith(odds_text(screen, second))
    driver.key(arcade.key.C)  # round again
    assert screen.controller.target == first
    driver.key(arcade.key.C, arcade.key.MOD_SHIFT)  # back
    assert screen.controller.target == second
    if second != UNDER:
        driver.key(arcade.key.C)
    assert screen.controller.target == UNDER and screen.info.text.startswith(odds_text(screen, UNDER))
    assert "Fallschirmjager: " in screen.controller.message and " of 2 in F9" in screen.controller.message
    screen.game.push_dice([1] * 40)
    driver.key(arcade.key.SPACE)
    attacks = [e for e in screen.session.last_events if e.kind == "attack"]
    assert [(e.unit, e.target) for e in attacks] == [("sherman", UNDER)]


def test_a_click_on_a_spread_out_counter_of_ones_own_stack_selects_it(
    driver: Any, arcade: Any, tmp_path: Path
) -> None:
    """Movement phase, the Axis stack is the player's own: the counter clicked is the unit selected."""
    from minis.ui.battle import BattleScreen
    from minis.ui.session import Session

    units = [
        unit(BOARD, UNDER, "fallschirmjager", "axis", "F9"),
        unit(BOARD, TOP, "mauser-kar-98k", "axis", "F9"),
    ]
    game = position(BOARD, units, phase="movement", active="axis", dice=Dice.scripted([]))
    screen = BattleScreen(driver.window, Session(game, saves=tmp_path, autosave=False))
    driver.window.open(screen)
    driver.frame()
    driver.move(*screen.map.hex_centre_on_screen(BOARD.parse("F9")))
    driver.frame()
    for unit_id in (UNDER, TOP, UNDER):
        driver.move(*spots(screen, "F9")[unit_id])
        driver.frame()
        driver.click(*spots(screen, "F9")[unit_id])
        assert screen.controller.selected == unit_id


def test_a_stack_at_the_edge_of_the_view_is_spread_out_inside_it(
    driver: Any, arcade: Any, tmp_path: Path, shots: Path
) -> None:
    from minis.ui.counters import fan_box

    for label in ("F1", "A1", "K16", "A16"):
        screen = stack_battle(driver, tmp_path, enemies_at=label)
        hex_ = BOARD.parse(label)
        driver.move(*screen.map.hex_centre_on_screen(hex_))
        driver.frame()
        assert screen.layers.fan_hex == hex_
        below, shift = screen.layers.fan_place(hex_)
        left, bottom, right, top = fan_box(hex_, 2, below=below, shift=shift)
        box = screen.map.box
        (sl, sb), (sr, st) = screen.map.world_to_screen(left, bottom), screen.map.world_to_screen(right, top)
        assert box.left <= min(sl, sr) and max(sl, sr) <= box.right, label
        assert box.bottom <= min(sb, st) and max(sb, st) <= box.top, label
        # and the counter at the edge is still the one a click aims at
        spot = spots(screen, label)[UNDER]
        assert box.contains(*spot)
        driver.move(*spot)
        driver.frame()
        assert screen.map.hover == hex_ and screen.controller.chosen == UNDER, label
        if label == "F1":
            driver.screenshot(shots / "stack-target-edge.png")
        driver.window.back()
