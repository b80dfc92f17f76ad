"""The army builder's search box edits as a text box does (issue 33), by key events and clicks: the
caret (Left, Right, Home, End, a click), Ctrl+A, Delete, Backspace, Shift to select, typing over a
selection, Ctrl+Backspace, the "×" and Escape to empty it (Escape on an empty box still asks to leave).
Every change filters the card list at once. Screenshot: `search-box.png`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from minis.army import ArmyScenario
from minis.base.sides import Side


def searching(driver: Any, arcade: Any, text: str) -> Any:
    from minis.ui.armybuilder import ArmyBuilder

    builder = ArmyBuilder(driver.window, Side.AXIS, ArmyScenario.STANDARD, lambda army: None)
    driver.window.open(builder)
    driver.frame()
    driver.key(arcade.key.F, arcade.key.MOD_CTRL)
    driver.type_text(text)
    assert builder.focused is builder.search and builder.search.value == text
    return builder


def test_the_search_box_moves_its_caret_selects_and_deletes(driver: Any, arcade: Any, shots: Path) -> None:
    builder = searching(driver, arcade, "tiger")
    box = builder.search
    key = arcade.key
    driver.key(key.A, key.MOD_CTRL)  # all selected: typing replaces it
    assert box.selection == (0, 5)
    driver.type_text("panzer")
    assert box.value == "panzer" and 0 < len(builder.shown) < len(builder.catalogue)
    for _ in range(3):
        driver.key(key.LEFT)
    driver.key(key.DELETE)  # pan|zer: the letter after the caret
    assert box.value == "paner" and box.caret == 3
    driver.key(key.BACKSPACE)  # the letter before it
    assert box.value == "paer" and box.caret == 2
    driver.type_text("nz")
    assert box.value == "panzer" and box.caret == 4
    driver.key(key.HOME)
    driver.key(key.DELETE)
    assert box.value == "anzer" and box.caret == 0
    driver.key(key.END)
    driver.key(key.LEFT, key.MOD_SHIFT)
    driver.key(key.LEFT, key.MOD_SHIFT)
    assert box.selection == (3, 5)
    driver.key(key.RIGHT)  # ends the selection at its right end
    assert box.selection == (5, 5)
    driver.key(key.HOME, key.MOD_SHIFT)
    driver.key(key.BACKSPACE)  # deletes the selection
    assert box.value == ""
    driver.type_text("tiger iv")
    driver.key(key.LEFT)
    driver.key(key.LEFT)
    driver.key(key.BACKSPACE, key.MOD_CTRL)  # everything before the caret
    assert box.value == "iv" and box.caret == 0
    driver.type_text("panzer ")
    assert box.value == "panzer iv"
    shown = [c.name for c in builder.shown]
    assert "Panzer IV Ausf. G" in shown and len(shown) < 20
    driver.screenshot(shots / "search-box.png")
    # a click in the text puts the caret there
    driver.click(box.box.left + 8 + box._width("panz"), box.box.centre[1])
    assert box.caret == 4 and builder.focused is box


def test_the_search_box_empties_by_its_cross_and_by_escape(driver: Any, arcade: Any) -> None:
    builder = searching(driver, arcade, "tiger")
    tigers = len(builder.shown)
    driver.click_box(builder.search.clear_box())
    assert builder.search.value == "" and builder.focused is builder.search
    everything = len(builder.shown)
    assert tigers < everything
    driver.type_text("panzer")
    assert len(builder.shown) < everything
    driver.key(arcade.key.ESCAPE)  # empties it, and leaves nothing
    assert builder.search.value == "" and builder.dialog is None and driver.screen is builder
    assert len(builder.shown) == everything
    driver.key(arcade.key.ESCAPE)  # empty: Escape is the screen's again
    assert builder.dialog is not None and builder.dialog.title.text == "Leave this battle?"
