"""The map editor driven through real input events in arcade's headless mode (no X server needed).

A designer's whole path: a new map of a chosen size, terrain painted, a road and a stream drawn (with a
bridge where they cross), the objective placed, deployment zones set, the map resized, undo and redo,
the live problems, saving through the file-name prompt, then checking and reloading what was saved.
Its pictures are editor-*.png (`make screenshots` puts them in docs/screenshots/).
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from minis.engine.scenario import SCENARIOS_DIR, load_scenario
from minis.hexgrid import Hex, distance, from_doubled, neighbours
from minis.mapfile import MAPS_DIR, Section, parse_document
from tests.helpers_window import deliver, open_editor


@pytest.fixture(scope="module")
def window(arcade: Any) -> Iterator[Any]:
    from minis.ui.router import new_window

    window = new_window(1280, 800, visible=False)
    yield window
    window.close()


def type_text(driver: Any, text: str) -> None:
    for char in text:
        deliver(driver.window, "on_text", char)
    driver.frame()


def stroke(driver: Any, points: Sequence[tuple[float, float]], button: int = 1) -> None:
    """Press at the first point, drag through the others (in small steps), release at the last."""
    window = driver.window
    x, y = points[0]
    driver.move(x, y)
    deliver(window, "on_mouse_press", int(x), int(y), button, 0)
    for nx, ny in points[1:]:
        for k in range(1, 5):
            px, py = x + (nx - x) * k / 4, y + (ny - y) * k / 4
            deliver(window, "on_mouse_drag", int(px), int(py), 0, 0, button, 0)
        x, y = nx, ny
    deliver(window, "on_mouse_release", int(x), int(y), button, 0)
    driver.frame()


def at(view: Any, label: str) -> tuple[float, float]:
    return view.map.hex_centre_on_screen(view.board.parse(label))


def side_at(view: Any, a: Hex, b: Hex) -> tuple[float, float]:
    from minis.ui import hexdraw

    (ax, ay), (bx, by) = hexdraw.shared_edge(a, b)
    return view.map.world_to_screen((ax + bx) / 2, (ay + by) / 2)


def run_cli(*args: str) -> tuple[int, str]:
    from minis.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue() + err.getvalue()


def river_sides(board: Any, x_bank: int) -> list[tuple[Hex, Hex]]:
    """The hexsides between hexes west of doubled x `x_bank` and those east of it, north to south,
    in the order a stream runs along them."""
    sides = []
    for hex_ in board.hexes:
        for other in neighbours(hex_):
            west = board.doubled_of(hex_)[0] < x_bank
            if other in board and west and board.doubled_of(other)[0] >= x_bank:
                sides.append((hex_, other))
    chain = [min(sides, key=lambda s: (s[0].r + s[1].r, s[0].q))]
    rest = [s for s in sides if s != chain[0]]
    while rest:
        last = set(chain[-1])
        touching = [s for s in rest if len(last & set(s)) == 1 and distance(*(last ^ set(s))) == 1]
        chain.append(touching[0])
        rest.remove(touching[0])
    return chain


# --- the designer's path -------------------------------------------------------------------------
def test_a_designer_makes_a_map_and_a_scenario(window: Any, arcade: Any, tmp_path: Path, shots: Path) -> None:
    key = arcade.key
    driver, view = open_editor(window)
    editor = view.editor
    assert view.editor.kind == "map" and len(editor.board.hexes) == 171  # a new 11 x 16 map

    # create a map of 9 rows of 14 hexes
    driver.key(key.N, key.MOD_CTRL)
    assert view.prompt is not None and view.prompt.field.text == "11 16"
    type_text(driver, "9 14")
    driver.key(key.ENTER)
    assert view.prompt is None
    editor = view.editor
    assert editor.document.terrain == ("C" * 14, "C" * 13) * 4 + ("C" * 14,)

    # paint: a forest by dragging, a hill by clicking, and a hex cleared again with the right button
    driver.key(key.KEY_2)
    stroke(driver, [at(view, "A2"), at(view, "A5")])
    assert editor.document.terrain[0] == "CFFFFCCCCCCCCC"
    assert len(editor.undo_stack) == 1  # one stroke, one undo step
    driver.key(key.KEY_3)
    driver.click(*at(view, "G4"))
    driver.click(*at(view, "A3"), button=arcade.MOUSE_BUTTON_RIGHT)
    assert editor.document.terrain[0] == "CFCFFCCCCCCCCC" and editor.document.terrain[6][3] == "H"

    # a road from E1 to E14, dragged across the map
    driver.key(key.R)
    stroke(driver, [at(view, "E1"), at(view, "E14")])
    board = editor.board
    assert editor.document.roads == (tuple(f"E{n}" for n in range(1, 15)),)
    assert len(board.roads) == 13 and board.has_road(board.parse("E7"), board.parse("E8"))

    # a stream from the north edge to the south edge along hexsides, dragged through them
    driver.key(key.S)
    chain = river_sides(board, 14)
    stroke(driver, [side_at(view, a, b) for a, b in chain])
    board = editor.board
    assert board.streams == {frozenset(side) for side in chain}
    assert len(editor.document.streams) == 1  # one stream, listed as it runs
    assert board.is_bridge(board.parse("E7"), board.parse("E8"))

    # a title for the map
    driver.key(key.T, key.MOD_CTRL)
    type_text(driver, "Ford of the Dives")
    driver.key(key.ENTER)
    assert editor.document.title == "Ford of the Dives" and view.name.text == "Ford of the Dives"

    # the objective
    driver.key(key.O)
    driver.click(*at(view, "E10"))
    assert editor.board.objective == editor.board.parse("E10")

    # deployment zones: widen the west zone, take a hex out of the east one (a scenario is made)
    assert editor.scenario is None
    driver.key(key.W)
    stroke(driver, [at(view, "A6"), at(view, "B6"), at(view, "C6")])
    driver.key(key.E)
    driver.click(*at(view, "I14"), button=arcade.MOUSE_BUTTON_RIGHT)
    board = editor.board
    zones = editor.zones()
    assert {board.parse(x) for x in ("A6", "B6", "C6")} <= zones["west"]
    assert board.parse("I14") not in zones["east"] and board.parse("I10") in zones["east"]
    assert editor.scenario is not None and editor.scenario.force("axis").end == "west"
    assert editor.problems() == []
    driver.key(key.V)
    driver.key(key.V)
    assert [c.kind for c in editor.scenario.victory] == ["exit"]
    assert "axis gets 3 units off the map by turn 8" in view.scenario_text.text
    driver.screenshot(shots / "editor-new-map.png")

    # resize: a row more and back; then a hex fewer per row puts E14 (the road's end) off the map
    driver.key(key.DOWN, key.MOD_CTRL)
    assert len(editor.document.terrain) == 10
    driver.key(key.UP, key.MOD_CTRL)
    driver.key(key.LEFT, key.MOD_CTRL)
    assert editor.document.terrain[0] == "CFCFFCCCCCCCC"
    problems = [p.message for p in editor.problems()]
    assert "there is no hex E14 on this map" in problems
    assert view.problem_title.text.startswith("Problems (")
    assert "there is no hex E14 on this map" in view.problem_text.text
    assert editor.board.parse("E13") in editor.problem_hexes()
    driver.screenshot(shots / "editor-problems.png")

    # undo and redo
    driver.key(key.Z, key.MOD_CTRL)
    assert len(editor.document.terrain[0]) == 14 and editor.problems() == []
    assert view.problem_title.text == "No problems"
    driver.key(key.Y, key.MOD_CTRL)
    assert len(editor.document.terrain[0]) == 13 and editor.problems()
    driver.key(
        key.Z,
        key.MOD_CTRL,
    )
    assert editor.problems() == []

    # save: the map has no name yet, so the editor asks for one
    driver.key(key.S, key.MOD_CTRL)
    assert view.prompt is not None and view.prompt.field.text == "untitled.toml"
    path = tmp_path / "ford.toml"
    type_text(driver, str(path))
    driver.key(key.ENTER)
    assert view.prompt is None and not editor.modified
    scenario_path = tmp_path / "ford-scenario.toml"
    assert path.is_file() and scenario_path.is_file()
    assert "Saved ford.toml, ford-scenario.toml." in view.status.text

    # check what was saved
    assert run_cli("map", "check", str(path)) == (
        0,
        f"OK {path} (map: 122 hexes, objective E10, 13 road links, {len(chain)} stream hexsides)\n",
    )
    code, output = run_cli("edit", "--check", str(scenario_path))
    assert code == 0 and output == f"OK {scenario_path} (scenario: Ford of the Dives, 122 hexes)\n"
    scenario = load_scenario(scenario_path)
    assert scenario.board == editor.board
    assert scenario.doc == editor.scenario

    # reload: the same map and scenario, unchanged
    driver, again = open_editor(window, scenario_path)
    assert again.editor.state == editor.state and not again.editor.modified
    assert again.editor.problems() == []
    assert again.editor.zones() == editor.zones()
    again.editor.save()
    assert path.read_text() == editor.map_text()

    # and a battle on it: random play to the end, deploying in the zones painted above
    from minis.ai.random_bot import RandomBot, play
    from minis.army import Army
    from minis.base.sides import Side
    from minis.dice import Dice
    from minis.engine.scenario import start_game

    axis = Army("Axis", Side.AXIS, units=("panzer-iv-ausf-g", "mauser-kar-98k", "mauser-kar-98k", "pioneers"))
    allies = Army("Allies", Side.ALLIES, units=("m4a1-sherman", "m1-garand-rifle", "bazooka", "bar-gunner"))
    game = play(start_game(scenario, axis, allies, dice=Dice(seed=8)), RandomBot(8))
    assert game.over and game.winner is not None and game.state.turn <= 8
    assert game.state.board == scenario.board and game.header["scenario_file"] == str(scenario_path)
    deployed = [
        entry.action.split() for entry in game.record if entry.action and entry.action.startswith("deploy")
    ]
    assert len(deployed) == 8
    for _, unit, where, *_ in deployed:
        side = game.state.units[unit].side
        assert board.parse(where) in zones["west" if side is Side.AXIS else "east"]


def test_a_stream_and_a_road_are_erased_with_the_right_button(window: Any, arcade: Any) -> None:
    driver, view = open_editor(window, SCENARIOS_DIR / "maps" / "river-line.toml")
    editor = view.editor
    board = editor.board
    e9, e10, e11 = (board.parse(x) for x in ("E9", "E10", "E11"))
    driver.key(arcade.key.R)
    driver.click(*side_at(view, e9, e10), button=arcade.MOUSE_BUTTON_RIGHT)
    assert not editor.board.has_road(e9, e10)
    assert ("E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8", "E9") in editor.document.roads
    driver.key(arcade.key.S)
    driver.click(*side_at(view, e10, e11), button=arcade.MOUSE_BUTTON_RIGHT)
    assert not editor.board.has_stream(e10, e11)
    driver.key(arcade.key.Z, arcade.key.MOD_CTRL)
    driver.key(arcade.key.Z, arcade.key.MOD_CTRL)
    assert editor.board.is_bridge(e10, e11) and not editor.modified


def test_a_section_is_painted_half_hexes_and_all(
    window: Any, arcade: Any, tmp_path: Path, shots: Path
) -> None:
    driver, view = open_editor(window, MAPS_DIR / "sections" / "dog-1.toml")
    editor = view.editor
    assert isinstance(editor.document, Section)
    assert view.kind.text.startswith("section")
    driver.key(arcade.key.KEY_5)
    north = from_doubled(5, -1)  # the third half-hex of the north edge
    x, y = view.map.hex_centre_on_screen(north)
    driver.click(x, y - 5)  # just inside the map edge, which cuts the half-hex
    assert editor.document.north[2] == "M"
    driver.key(arcade.key.KEY_1)
    stroke(driver, [at(view, "C1"), at(view, "C4")])
    assert editor.document.terrain[2][:4] == "CCCC"
    driver.key(arcade.key.S, arcade.key.MOD_CTRL | arcade.key.MOD_SHIFT)
    assert view.prompt is not None
    type_text(driver, str(tmp_path / "dog-1.toml"))
    driver.key(arcade.key.ENTER)
    saved = parse_document((tmp_path / "dog-1.toml").read_text(), str(tmp_path / "dog-1.toml"))
    assert saved == editor.document
    driver.screenshot(shots / "editor-section.png")


def test_a_configuration_keeps_terrain_in_its_sections(window: Any, arcade: Any) -> None:
    driver, view = open_editor(window, MAPS_DIR / "configurations" / "2-knife-fight.toml")
    editor = view.editor
    driver.key(arcade.key.KEY_2)
    driver.click(*at(view, "C3"))
    assert "terrain belongs to the sections" in view.status.text and not editor.modified
    nw = editor.document.nw
    driver.move(*at(view, "B3"))
    driver.frame()
    driver.key(arcade.key.T)
    assert editor.document.nw.turned != nw.turned and editor.document.nw.section == nw.section
    driver.key(arcade.key.Z, arcade.key.MOD_CTRL)
    assert editor.document.nw == nw


def test_the_breakout_scenario_opens_with_its_map(window: Any, arcade: Any, shots: Path) -> None:
    driver, view = open_editor(window, SCENARIOS_DIR / "breakout.toml")
    assert view.editor.kind == "map" and view.editor.scenario.title == "Breakout"
    zones = view.editor.zones()
    board = view.editor.board
    assert zones["east"] == board.half_of_map("east") and len(zones["west"]) == 27
    assert (
        "Breakout" in view.scenario_text.text and "allies gets 3 units off the map" in view.scenario_text.text
    )
    driver.screenshot(shots / "editor-scenario.png")


def test_escape_asks_before_leaving_unsaved_changes(window: Any, arcade: Any) -> None:
    from minis.ui.menu import MainMenu

    window.stack.clear()
    window.open(MainMenu(window))
    driver, view = open_editor(window)
    window.stack.insert(0, MainMenu(window))
    driver.key(arcade.key.KEY_4)
    driver.click(*at(view, "F8"))
    driver.key(arcade.key.S, arcade.key.MOD_CTRL)
    assert view.prompt is not None
    driver.key(arcade.key.ESCAPE)  # closes the prompt only
    assert view.prompt is None and window.top_screen is view
    driver.key(arcade.key.ESCAPE)
    assert window.top_screen is view and "Unsaved changes" in view.status.text
    driver.key(arcade.key.ESCAPE)
    assert isinstance(window.top_screen, MainMenu)


def test_the_main_menu_opens_the_editor(window: Any, arcade: Any) -> None:
    from minis.ui.driver import Driver
    from minis.ui.editor import EditorView
    from minis.ui.menu import MainMenu

    window.routes.main_menu()
    menu = window.top_screen
    assert isinstance(menu, MainMenu)
    driver = Driver(window)
    driver.frame()
    titles = [title for title, _, _ in menu.entries]
    if "Map editor" not in titles:
        pytest.skip("the main menu has no Map editor entry yet")
    driver.click_box(menu.entry_box("Map editor"))
    assert isinstance(window.top_screen, EditorView)


def test_opening_a_scenario_whose_save_was_cut_short_says_it_was_finished(
    window: Any, tmp_path: Path
) -> None:
    import os

    from minis.base.atomic import write_atomic_files
    from minis.ui.editor.model import Editor

    editor = Editor.new(7, 12, title="Field")
    editor.place_objective(editor.board.parse("D6"))
    editor.save(map_path=tmp_path / "field.toml")
    editor.zone("west", editor.board.parse("A1"))
    editor.save()
    scenario, the_map = tmp_path / "field-scenario.toml", tmp_path / "field.toml"
    new_map = the_map.read_text(encoding="utf-8").replace('"Field"', '"Field, saved"')
    real_replace, calls = os.replace, []

    def cut_short(source: Any, target: Any) -> None:
        """The journal's own rename goes through; the process dies at the map's."""
        calls.append(target)
        if len(calls) == 2:
            raise SystemExit(9)
        real_replace(source, target)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "replace", cut_short)
        with contextlib.suppress(SystemExit):
            write_atomic_files([(the_map, new_map), (scenario, scenario.read_bytes())])
    journal = tmp_path / ".field-scenario.toml.journal"
    assert journal.exists() and '"Field, saved"' not in the_map.read_text(encoding="utf-8")
    _driver, view = open_editor(window, scenario)
    assert (
        "A save that was cut short has been finished: field.toml and field-scenario.toml" in view.status.text
    )
    assert '"Field, saved"' in the_map.read_text(encoding="utf-8") and not journal.exists()


def test_a_file_that_cannot_be_opened_says_why_in_the_status_line(window: Any, tmp_path: Path) -> None:
    _driver, view = open_editor(window, tmp_path / "missing.toml")
    assert view.status.text.startswith(f"Cannot open {tmp_path / 'missing.toml'}: ")
    assert "no such file" in view.status.text


def test_a_small_map_s_zones_do_not_overlap_and_a_zone_is_given_as_a_depth(window: Any, arcade: Any) -> None:
    """Issue 13: on a small map the zones shown overlapped with "No problems"; no zone could be given as
    a depth; and the key that opens a question must not be typed into it."""
    key = arcade.key
    driver, view = open_editor(window)
    driver.key(key.N, key.MOD_CTRL)
    type_text(driver, "5 6")
    driver.key(key.ENTER)
    zones = view.editor.zones()
    assert zones["west"] and zones["east"] and not zones["west"] & zones["east"]
    assert view.problem_title.text == "No problems"
    driver.key(key.N, key.MOD_CTRL)
    type_text(driver, "5 2")  # rows of one hex: no two zones can stay apart
    driver.key(key.ENTER)
    assert view.problem_title.text == "Problems (1)"
    assert "too narrow for a deployment zone at each end" in view.problem_text.text
    # D with a zone tool: the zone as a depth (D's own text is not typed into the question)
    driver.key(key.N, key.MOD_CTRL)
    type_text(driver, "9 14")
    driver.key(key.ENTER)
    driver.key(key.W)
    deliver(driver.window, "on_key_press", key.D, 0)
    deliver(driver.window, "on_text", "d")
    driver.frame()
    assert view.prompt is not None and view.prompt.question.text == "Depth of the west zone:"
    assert view.prompt.field.text == ""
    type_text(driver, "9")  # deeper than half: the east zone (five hexes) overlaps it
    driver.key(key.ENTER)
    assert view.prompt is None and view.editor.scenario.force("axis").zone == 9
    assert "overlap" in view.problem_text.text
    driver.key(key.D)
    type_text(driver, "half")
    driver.key(key.ENTER)
    assert view.editor.scenario.force("axis").zone == "half"
    driver.key(key.E)
    driver.key(key.D)
    type_text(driver, "99")
    driver.key(key.ENTER)
    assert view.prompt is not None and "1 to 14 hexes deep" in view.prompt.error.text
