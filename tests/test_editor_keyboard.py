"""The map editor played from the keyboard alone, through real key events in arcade's headless mode.

I J K M move the editor's hex cursor (W A S D are taken there: W and S are tools, L shows the labels,
the arrow keys pan); Space or Enter is the left button on the cursor hex, Backspace or Delete the right
one, and holding one of them while the cursor steps is a drag. Not one mouse event is sent here: terrain
is painted and cleared, strokes are undone and redone, a road and a stream are drawn between
neighbouring hexes, the objective is set and taken away, and Ctrl+S saves exactly those changes.
The picture of the cursor is editor-keyboard.png (`make screenshots` puts it in docs/screenshots/).
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from minis.hexgrid import Hex
from tests.helpers_window import deliver, open_editor, pixel, rim_point

ROWS, COLUMNS = 9, 14


@pytest.fixture(scope="module")
def window(arcade: Any) -> Iterator[Any]:
    from minis.ui.app import MinisWindow

    window = MinisWindow(1280, 800, visible=False)
    yield window
    window.close()


@pytest.fixture
def blank(tmp_path: Path) -> Path:
    """A new all-clear map file of 9 rows (14 hexes, 13 in the indented rows), as `minis map new` writes."""
    from minis.cli import main

    path = tmp_path / "keys.toml"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["map", "new", "--rows", str(ROWS), "--cols", str(COLUMNS), str(path)]) == 0
    return path


def hold(driver: Any, symbol: int) -> None:
    """Press a key and keep it down."""
    deliver(driver.window, "on_key_press", symbol, 0)
    driver.frame()


def let_go(driver: Any, symbol: int) -> None:
    deliver(driver.window, "on_key_release", symbol, 0)
    driver.frame()


def column(hex_: Hex) -> int:
    """The doubled-width column of a hex: equal for hexes straight above one another."""
    return 2 * hex_.q + hex_.r


def steer(driver: Any, arcade: Any, label: str, limit: int = 60) -> Hex:
    """Move the shown cursor to the hex `label` with I J K M only (rows first, then along the row)."""
    key = arcade.key
    view = driver.screen
    target = view.board.parse(label)
    if not view.map.cursor_shown:
        driver.key(key.I)  # the first key only shows the cursor
    for _ in range(limit):
        here = view.map.cursor
        if here == target:
            return target
        if here.r != target.r:
            driver.key(key.I if here.r > target.r else key.M)
        else:
            driver.key(key.K if column(here) < column(target) else key.J)
        assert view.map.cursor_shown
    raise AssertionError(f"the cursor did not reach {label} (at {view.map.cursor})")


def cell(view: Any, label: str) -> str:
    """The terrain letter the document holds for hex `label` of a free map."""
    hex_ = view.board.parse(label)
    row = view.editor.document.terrain[hex_.r]
    return row[(column(hex_) - hex_.r % 2) // 2]


# --- the whole path, keys only ---------------------------------------------------------------------------
def test_a_map_is_edited_and_saved_with_the_keyboard_only(window: Any, arcade: Any, blank: Path) -> None:
    key = arcade.key
    original = blank.read_text()
    driver, view = open_editor(window, blank)
    editor = view.editor
    assert view.map.cursor is None and not view.map.cursor_shown

    # the first cursor key shows the cursor in the middle of the view, unmoved; Space on a hidden cursor
    # only shows it too, so nothing is painted blind
    driver.key(key.SPACE)
    assert view.map.cursor_shown and not editor.modified
    middle = view.map.cursor
    driver.key(key.K)
    assert view.map.cursor == Hex(middle.q + 1, middle.r)
    assert view.hover_label.text.startswith(f"{view.board.label(view.map.cursor)}: clear")

    # forest on C5: tool 2, steer there, Space
    driver.key(key.KEY_2)
    assert "Space paints the cursor hex" in view.status.text
    steer(driver, arcade, "C5")
    driver.key(key.SPACE)
    assert cell(view, "C5") == "F" and editor.document.terrain[2] == "CCCCFCCCCCCCCC"
    assert len(editor.undo_stack) == 1

    # a stroke: Space held while the cursor steps east paints G2 G3 G4, one undo step
    steer(driver, arcade, "G2")
    hold(driver, key.SPACE)
    driver.key(key.K)
    driver.key(key.K)
    let_go(driver, key.SPACE)
    assert editor.document.terrain[6] == "CFFFCCCCCCCCCC" and len(editor.undo_stack) == 2
    driver.key(key.K)  # the key is up: stepping on paints nothing
    assert cell(view, "G5") == "C"

    # Backspace is the right button: G4 is painted clear; Ctrl+Z brings it back, Ctrl+Z again takes the
    # whole stroke away, Ctrl+Y redoes it
    driver.key(key.J)
    driver.key(key.BACKSPACE)
    assert editor.document.terrain[6] == "CFFCCCCCCCCCCC"
    driver.key(key.Z, key.MOD_CTRL)
    assert editor.document.terrain[6] == "CFFFCCCCCCCCCC"
    driver.key(key.Z, key.MOD_CTRL)
    assert editor.document.terrain[6] == "C" * 14
    driver.key(key.Y, key.MOD_CTRL)
    assert editor.document.terrain[6] == "CFFFCCCCCCCCCC"

    # a hill by Enter, cleared by Delete, then painted again: Enter and Delete are the two buttons too
    driver.key(key.KEY_3)
    steer(driver, arcade, "I10")
    driver.key(key.ENTER)
    assert cell(view, "I10") == "H"
    driver.key(key.DELETE)
    assert cell(view, "I10") == "C"
    driver.key(key.ENTER)
    assert cell(view, "I10") == "H"

    # a road: R, then Space held from E3 while the cursor steps to E4 and on NE to D5
    driver.key(key.R)
    assert "hold Space and step" in view.status.text
    steer(driver, arcade, "E3")
    hold(driver, key.SPACE)
    driver.key(key.K)
    driver.key(key.I)
    let_go(driver, key.SPACE)
    board = editor.board
    assert editor.document.roads == (("E3", "E4", "D4"),)
    assert board.has_road(board.parse("E3"), board.parse("E4")) and len(board.roads) == 2
    # a tap of Space on a hex draws no road (a road runs between two hexes)
    driver.key(key.SPACE)
    assert editor.document.roads == (("E3", "E4", "D4"),)

    # a stream along the side between B9 and B10: Space held on B9, one step east
    driver.key(key.S)
    steer(driver, arcade, "B9")
    hold(driver, key.SPACE)
    driver.key(key.K)
    let_go(driver, key.SPACE)
    board = editor.board
    assert board.streams == {frozenset({board.parse("B9"), board.parse("B10")})}

    # the objective: Space puts it on E7, Backspace takes it away, Space again puts it back
    driver.key(key.O)
    steer(driver, arcade, "E7")
    driver.key(key.SPACE)
    assert editor.board.objective == editor.board.parse("E7")
    driver.key(key.BACKSPACE)
    assert editor.board.objective is None
    driver.key(key.SPACE)
    assert editor.board.objective == editor.board.parse("E7")
    assert editor.problems() == []

    # Ctrl+S saves to the file it came from (no question): exactly these changes, nothing else
    assert editor.modified
    driver.key(key.S, key.MOD_CTRL)
    assert view.prompt is None and not editor.modified
    saved = blank.read_text()
    terrain = ["C" * 14 if r % 2 == 0 else "C" * 13 for r in range(ROWS)]
    terrain[2] = "CCCCFCCCCCCCCC"
    terrain[6] = "CFFFCCCCCCCCCC"
    terrain[8] = "CCCCCCCCCHCCCC"
    grid = "\n".join((" " if r % 2 else "") + " ".join(row) for r, row in enumerate(terrain))
    expected_old = "\n".join((" " if r % 2 else "") + " ".join("C" * (14 - r % 2)) for r in range(ROWS))
    assert expected_old in original
    expected = original.replace(expected_old, grid) + (
        'roads = [\n    "E3 E4 D4",\n]\nstreams = [\n    "B9/B10",\n]\nobjective = "E7"\n'
    )
    assert saved == expected

    # the saved file loads as the board the editor shows
    from minis.mapfile import parse_document

    assert parse_document(saved, str(blank)) == editor.document


# --- no key is taken from what the editor did before -----------------------------------------------------
def test_the_cursor_keys_leave_the_editors_keys_alone(window: Any, arcade: Any, blank: Path) -> None:
    key = arcade.key
    driver, view = open_editor(window, blank)
    driver.key(key.M)
    driver.key(key.M)
    here = view.map.cursor
    assert view.map.cursor_shown
    # W and S still choose tools and do not move the cursor; A and D (the battle maps' keys) do nothing
    for symbol, tool in ((key.W, "west"), (key.S, "stream"), (key.A, "stream"), (key.D, "stream")):
        driver.key(symbol)
        assert view.tool == tool and view.map.cursor == here
    # L still shows the labels; the arrow keys still pan (the cursor stays on its hex)
    labels = view.map.show_labels
    driver.key(key.L)
    assert view.map.show_labels != labels and view.map.cursor == here
    position = view.map.position
    driver.key(key.PLUS)  # zoom in, so there is room to pan
    driver.key(key.LEFT)
    assert view.map.position != position and view.map.cursor == here
    # Ctrl+arrows still resize the map, and Ctrl+I / Ctrl+M move nothing
    driver.key(key.DOWN, key.MOD_CTRL)
    assert len(view.editor.document.terrain) == ROWS + 1
    driver.key(key.I, key.MOD_CTRL)
    assert view.map.cursor == here
    # with a prompt open the keys are typed, not steered or painted
    driver.key(key.N, key.MOD_CTRL)
    assert view.prompt is not None
    driver.key(key.I)
    driver.key(key.SPACE)
    assert view.map.cursor == here and view.prompt is not None
    driver.key(key.ESCAPE)
    assert view.prompt is None


def test_the_mouse_hides_the_cursor_and_the_keys_go_on_from_it(window: Any, arcade: Any, blank: Path) -> None:
    key = arcade.key
    driver, view = open_editor(window, blank)
    target = steer(driver, arcade, "D6")
    x, y = view.map.hex_centre_on_screen(view.board.parse("F9"))
    driver.move(x, y)
    driver.frame()
    assert not view.map.cursor_shown and view.map.hover == view.board.parse("F9")
    driver.key(key.SPACE)  # a hidden cursor is shown (on the hex under the mouse), not clicked
    assert view.map.cursor == view.board.parse("F9") and view.map.cursor_shown
    assert not view.editor.modified
    driver.key(key.SPACE)
    assert cell(view, "F9") == "F" and cell(view, "D6") == "C"
    assert target != view.map.cursor


def test_a_held_key_stroke_ends_at_any_other_key(window: Any, arcade: Any, blank: Path) -> None:
    """A keyboard stroke whose key-up never comes (the window lost the focus) does not go on painting."""
    key = arcade.key
    driver, view = open_editor(window, blank)
    driver.key(key.KEY_4)
    steer(driver, arcade, "A1")
    hold(driver, key.SPACE)
    driver.key(key.K)
    assert view.editor.document.terrain[0].startswith("TT")
    driver.key(key.KEY_2)  # another key: the stroke ends; the tool changes
    driver.key(key.K)
    assert view.editor.document.terrain[0].startswith("TTC") and view.tool == "F"
    let_go(driver, key.SPACE)  # the late key-up changes nothing
    driver.key(key.Z, key.MOD_CTRL)
    assert view.editor.document.terrain[0] == "C" * 14


def test_the_cursor_is_drawn_in_the_editor(window: Any, arcade: Any, blank: Path, shots: Path) -> None:
    from minis.ui.mapview import CURSOR

    key = arcade.key
    driver, view = open_editor(window, blank)
    driver.key(key.KEY_2)
    steer(driver, arcade, "D4")
    hold(driver, key.SPACE)
    for _ in range(3):
        driver.key(key.K)
    let_go(driver, key.SPACE)
    driver.key(key.R)
    steer(driver, arcade, "F3")
    hold(driver, key.SPACE)
    for symbol in (key.K, key.K, key.I, key.K):
        driver.key(symbol)
    let_go(driver, key.SPACE)
    driver.key(key.O)
    steer(driver, arcade, "F8")
    assert view.hover_label.text == "F8: clear"
    image = driver.image()
    assert pixel(image, *rim_point(view.map, view.map.cursor)) == CURSOR[:3]
    # the cursor is drawn only while the keyboard moved last
    driver.move(*view.map.hex_centre_on_screen(view.board.parse("A1")))
    assert pixel(driver.image(), *rim_point(view.map, view.board.parse("F8"))) != CURSOR[:3]
    driver.key(key.J)  # back on the hex under the mouse, A1, and a step west: off the map, so it stays
    assert view.map.cursor == view.board.parse("A1") and view.map.cursor_shown
    driver.key(key.K)
    assert view.map.cursor == view.board.parse("A2")
    steer(driver, arcade, "F8")
    driver.key(key.KEY_0)  # the whole map again (the cursor panned it at A1)
    assert pixel(driver.image(), *rim_point(view.map, view.map.cursor)) == CURSOR[:3]
    driver.screenshot(shots / "editor-keyboard.png")
