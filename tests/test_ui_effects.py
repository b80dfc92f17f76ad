"""Smoke and blown bridges on the battle map: drawn over the terrain and under the counters, named in the
hover box in the engine's words, and gone (the smoke) once the turn is over.

The window test plays through input events: a Panzer III's Smoke Screen chosen from the panel in the Axis
movement phase, the Pioneers' Bridge Demolition in the Axis assault phase (a scripted 4), then the rest
of turn 1. It checks what `minis.ui.effects` built (the hexes it drew smoke on, the bridge it drew
broken, the map group's triangles), not pixels. One picture: effects-smoke-bridge.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine_support import board, position, unit

from minis.dice import Dice
from minis.engine import queries
from minis.engine.ability_api import AbilityRegistry
from minis.engine.ability_loader import standard_abilities
from minis.game import Game
from tests.helpers_window import end_phase
from tests.test_ui_battle import click_hex, hover_hex, shot

SMOKE_LINE = "Smoke until the end of the turn: no one sees into, out of or through this hex"

MAP = """
C C C C C C C C
 C C C C C C C C
C C C C C C C C
 C C C C C C C C
C C C C C C C C
"""


def _game(abilities: AbilityRegistry | None = None) -> Game:
    """Turn 1, the Axis movement phase: a tank with Smoke Screen, Pioneers at a bridge, a Soviet rifle."""
    b = board(MAP, streams=("C4/C5",), roads=("C1 C2 C3 C4 C5 C6 C7 C8",))
    units = [
        unit(b, "tank", "panzer-iii-ausf-f", "axis", "B2"),
        unit(b, "pioneers", "pioneers", "axis", "C4"),
        unit(b, "rifle", "mauser-kar-98k", "allies", "E7"),
    ]
    return position(b, units, phase="movement", active="axis", dice=Dice.scripted([]), abilities=abilities)


def test_the_query_lists_smoke_only_while_the_rule_set_blocks_sight_with_it() -> None:
    game = _game()
    game.apply("use tank smoke-screen")
    (effect,) = queries.map_effects(game.state)
    assert effect.kind == queries.SMOKE and effect.hexes == (game.state.board.parse("B2"),)  # type: ignore[union-attr]
    # the same game under a rule set whose smoke blocks no sight: nothing to show
    blind = standard_abilities()
    no_smoke = AbilityRegistry(blind.classes, ())
    other = _game(no_smoke)
    other.apply("use tank smoke-screen")
    assert queries.map_effects(other.state) == []


def test_a_blown_bridge_is_worded_as_the_movement_rule_applies_it() -> None:
    game = _game()
    b = game.state.board
    assert b is not None
    game.state.broken_roads = frozenset({frozenset((b.parse("C4"), b.parse("C5")))})
    (effect,) = queries.map_effects(game.state)
    assert effect.kind == queries.BLOWN_BRIDGE and set(effect.hexes) == {b.parse("C4"), b.parse("C5")}
    assert "movement roll (4+)" in effect.text
    # the rule it describes: the Pioneers crossing there now roll for the stream (none along the bridge)
    info = queries.path_info(game.state, "pioneers", (b.parse("C5"),), with_fire=False)
    assert info.problem is None and info.rolls == 1
    assert queries.path_info(_game().state, "pioneers", (b.parse("C5"),), with_fire=False).rolls == 0


def test_smoke_and_a_blown_bridge_are_drawn_named_and_the_smoke_goes_at_the_turn_end(
    driver: Any, arcade: Any, tmp_path: Path, shots: Path
) -> None:
    from minis.ui.battle import BattleScreen
    from minis.ui.session import Session

    screen = BattleScreen(driver.window, Session(_game(), saves=tmp_path, autosave=False))
    driver.window.open(screen)
    driver.frame()
    b = screen.state.board
    assert b is not None
    smoky, bridge = b.parse("B2"), frozenset((b.parse("C4"), b.parse("C5")))
    groups = list(screen.map._groups)
    assert groups.index("effects") < groups.index("counters") < groups.index("effects-over"), groups
    assert (
        not screen.layers.effects.effects
        and not screen.layers.effects.mesh.points
        and not screen.layers.effects.over.points
    )
    # --- Axis movement: the Smoke Screen chosen from the panel ---------------------------------------
    click_hex(driver, "B2")
    assert screen.controller.selected == "tank"
    (smoke_button,) = [c for c in screen.choices if c.text == "Smoke Screen"]
    driver.click_box(smoke_button.box)
    assert screen.session.last_action == "use tank smoke-screen"
    driver.frame()
    assert screen.layers.effects.smoke == {smoky}
    group = screen.map._groups["effects"]
    assert group.key == screen.layers.effects.effects and group.shapes  # handed to the map as triangles
    assert not screen.layers.effects.over.points  # smoke alone draws nothing over the counters
    drawn = screen.layers.effects.mesh
    assert any(colour[3] < 255 for colour in drawn.colours)  # a haze, not a lid over the hex
    hover_hex(driver, "B2")
    assert SMOKE_LINE in screen.readout.hover_lines()
    assert SMOKE_LINE in screen.tooltip.text
    hover_hex(driver, "B3")
    assert SMOKE_LINE not in screen.readout.hover_lines()
    # the picture is not rebuilt while nothing changes (the mouse moving, frames drawn)
    kept = screen.layers.effects
    hover_hex(driver, "B4")
    driver.frame()
    assert screen.layers.effects is kept
    end_phase(driver)
    assert screen.phase_title.text == "Allies movement phase"
    end_phase(driver)
    # --- Axis assault: Bridge Demolition blows the bridge (a 4) --------------------------------------
    assert screen.phase_title.text == "Axis assault phase"
    click_hex(driver, "C4")
    assert screen.controller.selected == "pioneers"
    found = [c for c in screen.choices if c.text.startswith("Bridge Demolition")]
    assert found, [c.text for c in screen.choices]
    screen.session.game.dice.push((4,))
    driver.click_box(found[0].box)
    assert screen.state.broken_roads == {bridge}
    driver.frame()
    assert screen.layers.effects.blown == {bridge} and screen.layers.effects.smoke == {smoky}
    over = screen.map._groups["effects-over"]
    assert screen.layers.effects.over.points and over.shapes  # the cross, on top
    hover_hex(driver, "C4")
    lines = screen.readout.hover_lines()
    assert any(line.startswith("Blown bridge to C5: ") and "movement roll (4+)" in line for line in lines), (
        lines
    )
    hover_hex(driver, "C5")
    assert any(line.startswith("Blown bridge to C4: ") for line in screen.readout.hover_lines())
    hover_hex(driver, "B2")
    shot(driver, shots, "effects-smoke-bridge.png")
    assert (shots / "effects-smoke-bridge.png").exists()
    # --- the rest of turn 1: the smoke is gone in turn 2, the bridge stays blown ------------------------
    end_phase(driver)
    assert screen.phase_title.text == "Allies assault phase"
    screen.session.game.dice.push((6, 6, 1, 1))  # turn 2's initiative
    end_phase(driver)
    assert screen.dialog is not None and screen.dialog.title.text == "Casualty phase, end of turn 1"
    driver.key(arcade.key.ENTER)
    assert screen.state.turn == 2
    driver.frame()
    assert screen.layers.effects.smoke == frozenset() and screen.layers.effects.blown == {bridge}
    assert screen.map._groups["effects"].key == screen.layers.effects.effects
    hover_hex(driver, "B2")
    assert SMOKE_LINE not in screen.readout.hover_lines()
    assert SMOKE_LINE not in screen.tooltip.text
