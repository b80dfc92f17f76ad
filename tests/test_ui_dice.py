"""The dice a player checks: every die of an attack shown and marked against the number it needed, the
successes against the defense, the hits, the cover roll, and a log read whole in plain words (or, V,
in notation). The rolls are data from the controller (no window); the screen is driven by input events."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from minis.dice import Dice
from minis.engine import actions as A
from minis.game import Game
from minis.ui.controller import BattleController
from minis.ui.readout import BattleReadout
from minis.ui.session import Session
from tests.engine_support import board, position, unit

FIELD = board("""
C F C C C
 C C C C
C C C C C
""")


def tank_duel(dice: list[int]) -> Game:
    """A Panzer IV beside an M4A1 Sherman in the Axis assault phase: a 15-die attack."""
    units = [
        unit(FIELD, "panzer", "panzer-iv-ausf-g", "axis", "C1", facing="E"),
        unit(FIELD, "sherman", "m4a1-sherman", "allies", "C2", facing="W"),
    ]
    return position(FIELD, units, phase="assault", active="axis", dice=Dice.scripted(dice))


def rifle_at_cover(dice: list[int]) -> Game:
    """A rifle squad firing at one in a forest: a cover roll when it hits."""
    units = [
        unit(FIELD, "rifle", "mauser-kar-98k", "axis", "A1"),
        unit(FIELD, "garand", "m1-garand-rifle", "allies", "A2"),
    ]
    return position(FIELD, units, phase="assault", active="axis", dice=Dice.scripted(dice))


DICE = [6, 1, 4, 3, 5, 2, 6, 6, 1, 2, 3, 4, 5, 6, 1]


def test_every_die_of_a_15_die_attack_is_marked_against_the_number_needed(tmp_path: Path) -> None:
    control = BattleController(Session(tank_duel(list(DICE)), saves=tmp_path, autosave=False))
    control.session.apply(A.Attack("panzer", "sherman"))
    (attack,) = [r for r in BattleReadout(control).rolls() if r.kind == "attack"]
    assert attack.dice == tuple(DICE)
    assert attack.success == tuple(d >= 4 for d in DICE)
    assert attack.caption == "Panzer IV Ausf. G attacks M4A1 Sherman: 15 dice, 4+ succeeds"
    defense = control.state.units["sherman"].card.defense_front
    assert attack.result.startswith(f"8 successes against defense {defense}: ")
    assert attack.result.endswith(" hits") or attack.result.endswith(" hit")


def test_the_cover_roll_shows_its_die_and_the_number_it_needed(tmp_path: Path) -> None:
    trial = Session(rifle_at_cover([6] * 20), saves=tmp_path, autosave=False)
    trial.apply(A.Attack("rifle", "garand"))
    count = len(trial.last_events[0].dice)  # the rifle's dice: all hit, then the cover die
    control = BattleController(Session(rifle_at_cover([6] * count + [5]), saves=tmp_path, autosave=False))
    control.session.apply(A.Attack("rifle", "garand"))
    cover = [r for r in BattleReadout(control).rolls() if r.kind == "cover"]
    assert [(r.dice, r.success, r.result) for r in cover] == [((5,), (True,), "succeeds")]
    assert cover[0].caption == "M1 Garand Rifle: cover roll, 4+ succeeds"


def test_the_log_is_plain_words_by_default_and_notation_on_request(tmp_path: Path) -> None:
    control = BattleController(Session(tank_duel(list(DICE)), saves=tmp_path, autosave=False))
    control.session.apply(A.Attack("panzer", "sherman"))
    plain = control.texts.log()
    assert plain[0].startswith("Panzer IV Ausf. G attacks M4A1 Sherman: 6 1 4")
    assert "panzer" in control.texts.log(notation=True)[-1]


def test_the_dice_row_shows_all_15_dice_and_the_log_reads_whole(
    driver: Any, arcade: Any, tmp_path: Path, shots: Path
) -> None:
    """Through the window: a click on the Panzer, a click on the Sherman, the picture; V for notation."""
    driver.window.routes.battle(Session(tank_duel(list(DICE)), saves=tmp_path), replace=False)
    driver.frame()
    screen = driver.screen
    for label in ("C1", "C2"):
        driver.click(*screen.map.hex_centre_on_screen(FIELD.parse(label)))
        driver.frame()
    assert screen.state.units["sherman"].pending  # the attack happened
    boxes = screen.dice.die_boxes()
    assert len(boxes) == 15
    panel = screen.dice.box
    assert all(panel.left <= b.left and b.right <= panel.right + 1 for b in boxes)
    assert all(b.bottom >= panel.bottom - 1 and b.top <= panel.top + 1 for b in boxes)
    assert any("successes against defense" in p.text for p in screen.dice.parts())
    assert all("…" not in line for line in screen.log.text.text.split("\n"))
    driver.window.dispatch_event("on_mouse_scroll", *screen.log.box.centre, 0, 3)  # the wheel: back
    driver.frame()
    assert "Panzer IV Ausf. G attacks M4A1 Sherman: 6 1 4 3 5" in screen.log.text.text.replace("\n", " ")
    driver.screenshot(shots / "battle-dice.png")
    driver.key(arcade.key.V)
    driver.frame()
    assert "attack panzer" in screen.log.text.text.replace("\n", " ") or "panzer" in screen.log.text.text
    assert screen.log_title.text.startswith("Log in notation")
