"""The stacking rules in the window's words (issue 33): a move that leaves a hex over the limit is warned
of at once (not only at the pass that costs the hit), and a click on a full hex says which limit it
breaks. The words come from the engine (`queries.stacking_warning`, `queries.no_room`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from minis.base.sides import Side
from minis.content.rule_sets import NAMED, RULEBOOK, RuleSet
from minis.dice import Dice
from minis.ui.controller import BattleController
from minis.ui.session import Session
from tests.engine_support import board, position, unit
from tests.test_ui_layout import check

BOARD = """
C C C C C C
 C C C C C C
C C C C C C
"""

RIFLES = ("mauser-kar-98k", "mauser-kar-98k#2", "mauser-kar-98k#3", "mauser-kar-98k#4", "mauser-kar-98k#5")
WARNING = (
    "B3 is over the stacking limit (three units of an army): if it still is when you pass, a unit of yours"
    " there takes a hit."
)


def crowded(rules: RuleSet) -> Session:
    """The Axis movement phase: three Axis rifles in B3, two more next to it (B2, A3); the Allies far."""
    b = board(BOARD)
    units = [
        *(unit(b, rifle, "mauser-kar-98k", "axis", "B3") for rifle in RIFLES[:3]),
        unit(b, RIFLES[3], "mauser-kar-98k", "axis", "B2"),
        unit(b, RIFLES[4], "mauser-kar-98k", "axis", "A3"),
        unit(b, "gi", "m1-garand-rifle", "allies", "C6"),
    ]
    return Session(position(b, units, active="axis", rules=rules, dice=Dice.scripted()))


def move(control: BattleController, start: str, end: str) -> None:
    b = control.state.board
    assert b is not None
    control.click(b.parse(start))
    control.click(b.parse(end))
    control.confirm()


def test_a_move_over_the_limit_is_warned_of_at_once_under_2010() -> None:
    control = BattleController(crowded(NAMED["2010"]))
    move(control, "B2", "B3")  # the fourth Axis rifle: the one extra unit
    assert control.message == WARNING and control.message_bad
    move(control, "A3", "A4")  # a move elsewhere: the usual line again
    assert "over the stacking limit" not in control.message and not control.message_bad


def test_under_2008_any_number_over_and_the_warning_each_time() -> None:
    control = BattleController(crowded(NAMED["2008"]))
    move(control, "B2", "B3")
    assert control.message == WARNING
    move(control, "A3", "B3")  # a fifth: no cap while moving under 2008
    assert control.message == WARNING
    state = control.state
    assert state.board is not None
    assert [u.id for u in state.at(state.board.parse("B3"))] == list(RIFLES)


def tanks(rules: RuleSet) -> Session:
    """The Allied movement phase: a disrupted Panzer in B3, two Shermans next to it (B2, A3)."""
    b = board(BOARD)
    units = [
        unit(b, "panzer", "panzer-iv-ausf-g", "axis", "B3", facing="W", status=("disrupted",)),
        unit(b, "m4a1-sherman", "m4a1-sherman", "allies", "B2", facing="E"),
        unit(b, "m4a1-sherman#2", "m4a1-sherman", "allies", "A3", facing="SE"),
    ]
    return Session(position(b, units, active="allies", rules=rules, dice=Dice.scripted()))


def test_a_full_hex_says_which_limit_it_breaks() -> None:
    control = BattleController(tanks(RULEBOOK))  # 2005: one Vehicle among all the units in a hex
    b = control.state.board
    assert b is not None
    control.click(b.parse("B2"))
    control.click(b.parse("B3"))
    assert control.message == "M4A1 Sherman can't end a move in B3: only one Vehicle may be in a hex."
    assert control.message_bad
    late = BattleController(tanks(NAMED["2010"]))
    move(late, "B2", "B3")  # the one extra unit: B3 was within the limits before it came
    assert late.message.startswith("B3 is over the stacking limit (one Vehicle a hex)")
    late.click(b.parse("A3"))
    late.click(b.parse("B3"))
    assert late.message == (
        "The second M4A1 Sherman can't end a move in B3: only one Vehicle may be in a hex"
        " (B3 is over the limit already)."
    )


def test_no_warning_for_the_computers_own_moves() -> None:
    control = BattleController(crowded(NAMED["2010"]))
    control.elsewhere = frozenset({Side.AXIS})
    control.act(control.game.parse("move mauser-kar-98k#4 B3"))
    assert "over the stacking limit" not in control.message


def test_the_warning_in_the_window(driver: Any, arcade: Any, tmp_path: Path, shots: Path) -> None:
    from minis.ui.battle import BattleScreen

    session = crowded(NAMED["2010"])
    session.saves = tmp_path
    screen = BattleScreen(driver.window, session)
    driver.window.open(screen)
    driver.frame()
    for where in ("B2", "B3", "B3"):  # the rifle, its path, a click on the path's end moves
        hex_ = screen.state.board.parse(where)
        driver.click(*screen.map.hex_centre_on_screen(hex_))
    driver.frame()
    assert screen.message.text == WARNING
    check(driver)  # on the one message line, within its box
    driver.screenshot(shots / "stacking-warning.png")
