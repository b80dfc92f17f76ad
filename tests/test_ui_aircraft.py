"""Aircraft in the window (issue 19), driven by input events in arcade's headless mode.

A battle position with aircraft on both sides (a Bf 110 C ready to fly, a Bf 109 E Ace grounded by a
Disrupted counter, an F4F Wildcat for the Allies) and a 40mm Bofors with Antiair: the tray beside the
map lists them; the grounded one can't be picked and the message says why; the flight phase is played
by clicking the aircraft in the tray and then a hex; the reaction shot is asked of the Allied player
with its odds and answered by key; the airstrike is played like an assault, with the odds shown
before the attack; a Bofors aims at the aircraft in its assault phase; at the end of the turn the
aircraft leave the map. The dice are scripted: each step pushes exactly the dice it uses.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
from engine_support import unit

from minis.base.sides import Side
from minis.dice import Dice
from minis.engine.events import Event
from minis.game import Game
from minis.hexgrid import Hex
from minis.mapfile import load_configuration
from minis.state import Phase, Stage
from tests.helpers_window import end_phase
from tests.test_ui_battle import click_hex, feed, hover_hex, shot, unit_at


def _air_game() -> Game:
    board = load_configuration(1)

    def off(unit_id: str, card: str, side: str, status: tuple[str, ...] = ()) -> Any:
        return attrs.evolve(unit(board, unit_id, card, side, "A1", status=status), hex=None)

    units = [
        unit(board, "mg", "mg-42-machine-gun-team", "axis", "E6"),
        unit(board, "pz", "panzer-iv-ausf-g", "axis", "E5"),
        off("bf-110-c", "bf-110-c", "axis"),
        off("bf-109-e-ace", "bf-109-e-ace", "axis", ("disrupted",)),
        unit(board, "bofors", "40mm-bofors-l60", "allies", "F9"),
        unit(board, "gi", "bazooka", "allies", "F10"),
        off("fm-1-wildcat", "fm-1-wildcat", "allies"),
    ]
    return Game.from_position(
        board, units, phase=Phase.MOVEMENT, active=Side.ALLIES, first=Side.AXIS, dice=Dice.scripted()
    )


def _tray_rows(screen: Any) -> dict[str, str]:
    return {row.name: row.status for group in screen.controller.aircraft.tray() for row in group.rows}


def _click_tray(driver: Any, screen: Any, unit_id: str) -> None:
    found = screen.air_tray.button_of(unit_id)
    assert found is not None and found.visible, unit_id
    driver.click_box(found.box)


def test_a_turn_with_aircraft_through_the_window(
    driver: Any, arcade: Any, tmp_path: Path, shots: Path
) -> None:
    from minis.engine.queries import AttackPreview
    from minis.ui.battle import BattleScreen
    from minis.ui.session import Session

    screen = BattleScreen(driver.window, Session(_air_game(), saves=tmp_path, autosave=False))
    driver.window.open(screen)
    driver.frame()
    dice = screen.session.game.dice
    # the tray beside the map (both armies are on the map: no secret), left of the map
    assert screen.air_tray.visible and screen.air_tray.box.right < screen.map.box.left
    assert [group.side for group in screen.controller.aircraft.tray()] == [Side.AXIS, Side.ALLIES]
    end_phase(driver)  # the Allies end their movement: the Axis flight phase
    assert screen.state.phase is Phase.FLIGHT and screen.game.decider() is Side.AXIS
    rows = _tray_rows(screen)
    assert rows["Bf 110 C"] == "ready to fly" and rows["Bf 109 E Ace"] == "disrupted: grounded this turn"
    # a disrupted aircraft can't be chosen: the message says why, in plain words
    _click_tray(driver, screen, "bf-109-e-ace")
    assert screen.controller.selected is None
    assert screen.message.text == "Bf 109 E Ace is disrupted: it is grounded this turn and can't fly."
    # a click on the map before choosing an aircraft
    click_hex(driver, "F8")
    assert screen.message.text.startswith("Choose one of your aircraft first")
    # the Bf 110 C from the tray, then a hex next to the Bofors (Antiair): it flies over it
    _click_tray(driver, screen, "bf-110-c")
    assert screen.controller.selected == "bf-110-c"
    hover_hex(driver, "F8")  # the ghost of its tag over the hovered hex
    assert screen.map.hover == screen.state.board.parse("F8")
    click_hex(driver, "F8")
    assert unit_at(screen, "bf-110-c") == "F8"
    assert "Bf 110 C flies over F8" in screen.controller.texts.log()
    # the reaction shot is asked of the Allied player, like defensive fire
    assert screen.stage is Stage.REACTION and screen.game.decider() is Side.ALLIES
    assert screen.phase_title.text == "Allies: shoot at the aircraft?"
    assert "The Axis Bf 110 C flies over F8: the 40mm Bofors L60 may shoot at it." in screen.info.text
    hover_hex(driver, "F8")
    assert "Axis aircraft overhead: " in screen.tooltip.text and "Bf 110 C" in screen.tooltip.text
    options = screen.controller.aircraft.reaction_options()
    assert [p.attacker for p in options] == ["bofors"]
    assert screen.choices[0].text.startswith("1: 40mm Bofors L60 · 11 dice · hit ")
    assert screen.pass_button.text == "Hold (H)" and screen.pass_button.visible
    shot(driver, shots, "aircraft-flight-reaction.png")
    feed(screen, *[1] * options[0].dice)  # every die misses
    driver.key(arcade.key.KEY_1)
    assert dice.remaining() == 0
    assert screen.stage is Stage.ACT and screen.state.phase is Phase.FLIGHT
    assert not screen.state.units["bf-110-c"].disrupted
    assert _tray_rows(screen)["Bf 110 C"] == "over F8"
    end_phase(driver)  # the Axis flight ends: the Allies fly their Wildcat, far from any Axis unit
    assert screen.state.phase is Phase.FLIGHT and screen.game.decider() is Side.ALLIES
    _click_tray(driver, screen, "fm-1-wildcat")
    click_hex(driver, "B14")
    assert unit_at(screen, "fm-1-wildcat") == "B14" and screen.stage is Stage.ACT  # nobody may shoot
    end_phase(driver)
    # the Axis airstrike: the aircraft chosen on the map, the target hovered (odds), then clicked
    assert screen.state.phase is Phase.AIRSTRIKE and screen.game.decider() is Side.AXIS
    click_hex(driver, "F8")
    assert screen.controller.selected == "bf-110-c"
    assert "gi" in screen.controller.attacks
    hover_hex(driver, "F10")
    preview = screen.controller.preview
    assert isinstance(preview, AttackPreview) and preview.target == "gi"
    assert screen.info.text.startswith("Attack Bazooka: 2 hexes, medium range, ")
    assert "(on the sight line): at least one hit." in screen.info.text
    assert any(b.text == "Attack Bazooka" for b in screen.choices)
    shot(driver, shots, "aircraft-airstrike.png")
    feed(screen, *[1] * preview.dice)
    click_hex(driver, "F10")
    assert dice.remaining() == 0 and "bf-110-c" in screen.state.activated
    click_hex(driver, "E6")  # a ground unit can't attack in an airstrike phase
    assert screen.controller.selected is None and "Only aircraft attack" in screen.message.text
    while screen.state.phase is not Phase.ASSAULT:
        end_phase(driver)
    # the Axis assault, then the Allies': the Bofors aims at the aircraft over F8 (no ground unit there)
    end_phase(driver)
    assert screen.state.phase is Phase.ASSAULT and screen.game.decider() is Side.ALLIES
    click_hex(driver, "F9")
    assert screen.controller.selected == "bofors"
    hover_hex(driver, "F8")
    assert screen.controller.target == "bf-110-c"
    assert screen.info.text.startswith("Attack Bf 110 C: 1 hex, short range, ")
    # the end of the turn: the aircraft leave the map (the casualty report says so), then initiative
    feed(screen, 6, 6, 1, 1)
    end_phase(driver)
    assert screen.state.units["bf-110-c"].hex is None and screen.state.units["fm-1-wildcat"].hex is None
    dialog = screen.dialog
    assert dialog is not None and "Bf 110 C leaves the map" in dialog.body.text
    assert "F4F" not in dialog.body.text and "Wildcat leaves the map" in dialog.body.text
    assert _tray_rows(screen)["Bf 110 C"] == "off the map"


def test_placing_an_aircraft_shows_it_gliding_in() -> None:
    """The motion of a placement: the aircraft is drawn by the motion (gliding onto its hex), not at
    its hex, until the mark ends; at the end of the turn it climbs away from where it was."""
    from minis.ui.motion import FLY, Motion

    now = [0.0]
    motion = Motion(lambda: now[0], enabled=True)
    motion.play([Event("place", Side.AXIS, "plane", hexes=(Hex(3, 4),))], {})
    frame = motion.frame()
    assert frame is not None and frame.moving == {"plane"}
    assert [(m.kind, m.hex) for m, _ in frame.marks] == [("fly", Hex(3, 4))]
    now[0] = FLY + 0.01
    assert motion.frame() is None
    motion.play([Event("land", Side.AXIS, "plane")], {"plane": Hex(3, 4)})
    frame = motion.frame()
    assert frame is not None and [m.kind for m, _ in frame.marks] == ["land"] and not frame.moving


def test_the_tray_keeps_the_other_army_secret_while_deploying(tmp_path: Path) -> None:
    """At one screen, before both armies are on the map, the tray shows only the deploying army's
    aircraft; the aircraft are not in the deployment list (they are never deployed)."""
    from minis.army import Army
    from minis.ui.controller import BattleController
    from minis.ui.session import Session

    axis = Army("Axis", Side.AXIS, units=("panzer-iv-ausf-g", "bf-110-c"))
    allies = Army("Allies", Side.ALLIES, units=("m1-garand-rifle", "fm-1-wildcat"))
    session = Session(Game.new(axis, allies, configuration=1, dice=Dice.scripted([2])), saves=tmp_path)
    for action in ("first allies", "end east"):
        session.apply(action)
    control = BattleController(session)
    deploying = session.game.state.deploying
    assert control.stage is Stage.DEPLOY and deploying is not None
    assert [group.side for group in control.aircraft.tray()] == [deploying]
    assert not any(session.game.state.units[u].card.is_aircraft for u in control.deployment.listed())
    assert not any(u.card.is_aircraft for u in control.deployment.to_deploy())
