"""The game window driven through its input events, in arcade's headless mode (no X server needed).

The window is real (OpenGL through EGL, Mesa's software renderer on a machine without a GPU); the
mouse and keyboard events go through pyglet's event dispatch exactly as a player's would, and the
frames are stepped by hand (headless pyglet has no running clock). Screenshots of the main screens
go to the `shots` folder (tmp_path; `make screenshots` renders them into docs/screenshots/).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from minis.base.errors import MinisError, Problem
from minis.hexgrid import Facing, Hex, distance
from minis.mapfile import load_configuration
from tests.helpers_window import pixel


def open_driver(arcade: Any, width: int = 1280, height: int = 800) -> Any:
    from minis.ui.driver import Driver

    return Driver.open(width, height)


@pytest.fixture(scope="module")
def shared(arcade: Any) -> Iterator[Any]:
    driver = open_driver(arcade)
    yield driver
    driver.close()


@pytest.fixture
def driver(shared: Any) -> Any:
    """The shared window, back at a fresh main menu."""
    shared.window.routes.main_menu()
    shared.frame()
    return shared


def open_battle_maps(driver: Any) -> Any:
    driver.click_box(driver.screen.entry_box("Battle maps"))
    from minis.ui.battlemaps import BattleMapsScreen

    assert isinstance(driver.screen, BattleMapsScreen)
    return driver.screen


def sight_pairs(board: Any, nearest: int = 4, rows_apart: int = 0) -> tuple[tuple[Hex, Hex], tuple[Hex, Hex]]:
    """A visible and a blocked pair of hexes `nearest` to 8 apart, both well inside the map."""
    visible = blocked = None
    inner = [h for h in board.hexes if 2 <= h.r <= 8]
    for a in inner:
        for b in inner:
            if nearest <= distance(a, b) <= 8 and abs(a.r - b.r) >= rows_apart:
                if board.visible(a, b):
                    visible = visible or (a, b)
                else:
                    blocked = blocked or (a, b)
            if visible and blocked:
                return visible, blocked
    raise AssertionError("no visible and blocked pair on this board")


# --- the main menu ---------------------------------------------------------------------------------------
def test_the_main_menu_offers_only_what_works(driver: Any, shots: Path) -> None:
    from minis.ui.menu import MainMenu

    menu = driver.screen
    assert isinstance(menu, MainMenu)
    expected = [
        "New Standard battle",
        "New Assault battle",
        "Play a scenario",
        "Play against the computer",
        "Watch the computer play itself",
        "Play over the network",
        "Load game",
        "Battle maps",
        "Quit",
    ]
    if importlib.util.find_spec("minis.ui.editor") is not None:
        expected.insert(8, "Map editor")
    assert menu.menu.items == expected
    assert "Enter" in menu.hint_text and "Esc" in menu.hint_text
    assert driver.window.get_size() == (1280, 800)
    driver.screenshot(shots / "main-menu.png")


def test_the_menu_works_with_the_keyboard(driver: Any, arcade: Any) -> None:
    from minis.ui.battlemaps import BattleMapsScreen
    from minis.ui.menu import MainMenu

    menu = driver.screen
    driver.key(arcade.key.DOWN)
    assert menu.menu.index == 1
    driver.key(arcade.key.UP)
    assert menu.menu.index == 0
    for _ in range(menu.menu.items.index("Battle maps")):
        driver.key(arcade.key.DOWN)
    driver.key(arcade.key.ENTER)
    assert isinstance(driver.screen, BattleMapsScreen)
    driver.key(arcade.key.ESCAPE)
    assert isinstance(driver.screen, MainMenu)


def test_the_menu_opens_every_screen_through_the_windows_routes(
    driver: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No screen imports the screen it opens: each entry asks the window's routes by name."""
    calls: list[str] = []

    class Recorder:
        def __getattr__(self, name: str) -> Any:
            return lambda *args, **kwargs: calls.append(name)

    monkeypatch.setattr(driver.window, "routes", Recorder())
    menu = driver.screen
    for title, _, _ in menu.entries[:-1]:  # all but Quit
        menu.choose(menu.menu.items.index(title))
    expected = ["new_battle", "new_battle", "choose_scenario", "against_computer", "against_computer"]
    expected += ["network", "load_game", "battle_maps"]
    if "Map editor" in menu.menu.items:
        expected.append("map_editor")
    assert calls == expected
    assert driver.window.stack == [menu]  # the menu opened nothing by itself


def test_load_game_says_why_the_saves_folder_cannot_be_made(
    driver: Any, arcade: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from minis.ui.filedialog import FileDialog
    from minis.ui.menu import MainMenu

    (tmp_path / "taken").write_text("a file where the saves folder would go")
    monkeypatch.setattr(driver.window, "saves", tmp_path / "taken" / "saves")
    driver.click_box(driver.screen.entry_box("Load game"))
    dialog = driver.screen
    assert isinstance(dialog, FileDialog) and dialog.title == "Load a saved game"
    assert "cannot list" in dialog.message.text and "a part of the path is a file" in dialog.message.text
    driver.key(arcade.key.ESCAPE)
    assert isinstance(driver.screen, MainMenu)


def test_hovering_a_menu_entry_says_what_it_does(driver: Any) -> None:
    menu = driver.screen
    driver.move(*menu.entry_box("Quit").centre)
    driver.frame()
    assert menu.menu.index == len(menu.menu.items) - 1
    assert menu.about.text == "Close the game."


# --- the battle maps screen --------------------------------------------------------------------------
def test_battle_maps_screen_shows_configuration_one(driver: Any, shots: Path) -> None:
    screen = open_battle_maps(driver)
    assert screen.number == 1
    assert screen.board == load_configuration(1)
    assert screen.tabs.selected == 0
    assert "Click two hexes" in screen.hint_text and "Esc back" in screen.hint_text
    # the whole map fits its box at the start
    edge = screen.map.geometry.edge
    left, bottom = screen.map.world_to_screen(edge.left, edge.bottom)
    right, top = screen.map.world_to_screen(edge.right, edge.top)
    box = screen.map.box
    assert box.left <= left < right <= box.right and box.bottom <= bottom < top <= box.top
    driver.screenshot(shots / "battle-map.png")


def test_terrain_colours_on_screen_match_the_board(driver: Any) -> None:
    """Sample each hex's pixels just inside a corner (clear of symbols): its terrain's colour shows."""
    from minis.ui import hexdraw

    screen = open_battle_maps(driver)
    board = screen.board
    image = driver.image()
    zones = board.deployment_zone("west") | board.deployment_zone("east")
    checked = 0
    for hex_ in board.hexes:
        if hex_ in zones or hex_ == board.objective:
            continue
        cx, cy = hexdraw.centre(hex_)
        corner = hexdraw.corners(cx, cy)[4]  # the bottom corner
        x, y = screen.map.world_to_screen(cx + (corner[0] - cx) * 0.8, cy + (corner[1] - cy) * 0.8)
        expected = hexdraw.FILL[hexdraw.terrain_name(board.terrain(hex_))][:3]
        assert pixel(image, x, y) == expected, board.label(hex_)
        checked += 1
    assert checked > 50


def test_keys_and_tabs_choose_the_configuration(driver: Any, arcade: Any) -> None:
    screen = open_battle_maps(driver)
    driver.key(arcade.key.KEY_3)
    assert screen.number == 3 and screen.tabs.selected == 2
    assert screen.board == load_configuration(3)
    driver.click_box(screen.tabs.tabs[4].box)
    assert screen.number == 5 and screen.board == load_configuration(5)
    assert screen.name.text.startswith("5 ")


def test_labels_toggle(driver: Any, arcade: Any) -> None:
    screen = open_battle_maps(driver)
    before = driver.image()
    driver.key(arcade.key.L)
    assert screen.map.show_labels
    with_labels = driver.image()
    assert before.tobytes() != with_labels.tobytes()
    driver.key(arcade.key.L)
    assert not screen.map.show_labels
    assert driver.image().tobytes() == before.tobytes()


def test_wheel_zoom_keeps_the_hex_under_the_mouse(driver: Any, arcade: Any) -> None:
    screen = open_battle_maps(driver)
    board, view = screen.board, screen.map
    target = board.parse("F8")
    x, y = view.hex_centre_on_screen(target)
    a, b = view.hex_centre_on_screen(board.parse("F1")), view.hex_centre_on_screen(board.parse("F2"))
    step = b[0] - a[0]
    driver.scroll(x, y, 1)
    assert view.zoom > view.fit_zoom
    nx, ny = view.hex_centre_on_screen(target)
    assert abs(nx - x) < 1 and abs(ny - y) < 1
    assert view.hex_at(x, y) == target
    a, b = view.hex_centre_on_screen(board.parse("F1")), view.hex_centre_on_screen(board.parse("F2"))
    assert (b[0] - a[0]) == pytest.approx(step * 1.2)
    driver.key(arcade.key.MINUS)
    driver.key(arcade.key.MINUS)
    assert view.zoom < view.fit_zoom
    driver.key(arcade.key.PLUS)
    driver.key(arcade.key.KEY_0)
    assert view.zoom == view.fit_zoom


def test_drag_and_arrow_keys_pan(driver: Any, arcade: Any) -> None:
    screen = open_battle_maps(driver)
    board, view = screen.board, screen.map
    driver.key(arcade.key.PLUS)
    driver.key(arcade.key.PLUS)
    hex_ = board.parse("F8")
    x, y = view.hex_centre_on_screen(hex_)
    driver.drag((x, y), (x - 120, y + 40))
    nx, ny = view.hex_centre_on_screen(hex_)
    assert (nx, ny) == pytest.approx((x - 120, y + 40), abs=1)
    assert screen.sight_from is None  # a drag is not a click
    driver.key(arcade.key.RIGHT)  # the view moves right: the map moves left
    assert view.hex_centre_on_screen(hex_)[0] < nx


@pytest.mark.parametrize("number", [1, 4])
def test_the_sight_line_tool_shows_the_boards_answer(driver: Any, arcade: Any, number: int) -> None:
    from minis.ui.battlemaps import SIGHT_BLOCKED, SIGHT_VISIBLE

    screen = open_battle_maps(driver)
    driver.key(getattr(arcade.key, f"KEY_{number}"))
    board, view = screen.board, screen.map
    for (a, b), word, colour in zip(
        sight_pairs(board), ("visible", "blocked"), (SIGHT_VISIBLE, SIGHT_BLOCKED), strict=True
    ):
        driver.click(*view.hex_centre_on_screen(a))
        assert screen.sight_from == a and screen.sight_text == ""
        assert "click the hex" in screen.sight.text
        driver.click(*view.hex_centre_on_screen(b))
        assert board.visible(a, b) is (word == "visible")
        assert screen.sight_text == f"{board.label(a)} -> {board.label(b)}: {word}"
        assert screen.sight.text.startswith(screen.sight_text)
        (ax, ay), (bx, by) = view.hex_centre_on_screen(a), view.hex_centre_on_screen(b)
        assert pixel(driver.image(), (ax + bx) / 2, (ay + by) / 2) == colour[:3]
    driver.click(*view.hex_centre_on_screen(a), button=arcade.MOUSE_BUTTON_RIGHT)
    assert screen.sight_from is None and screen.sight_text == ""


def test_hovering_names_the_hex_and_half_hexes_are_refused(driver: Any) -> None:
    screen = open_battle_maps(driver)
    board, view = screen.board, screen.map
    driver.move(*view.hex_centre_on_screen(board.parse("E9")))
    driver.frame()
    assert screen.hover_label.text.startswith("E9: ")
    half = board.parse("A8") + Facing.NE.value  # the half-hex above A8, at the north edge
    assert half in board.half_hexes
    x, y = view.hex_centre_on_screen(half)
    driver.click(x, y - 4)  # just inside the map edge, which cuts the half-hex through its centre
    assert screen.sight_from is None
    assert "half-hex" in screen.sight.text


def test_a_broken_map_is_reported_on_screen(
    driver: Any, arcade: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from minis.ui import boards

    real = boards.configuration

    def configuration(number: int) -> Any:
        if number == 2:
            raise MinisError(Problem("maps/configurations/2.toml", 3, 5, "unknown section 'able-9'"))
        return real(number)

    monkeypatch.setattr(boards, "configuration", configuration)
    screen = open_battle_maps(driver)
    driver.key(arcade.key.KEY_2)
    assert screen.board is None
    assert "unknown section 'able-9'" in screen.sight.text
    driver.key(arcade.key.KEY_1)
    assert screen.board == load_configuration(1)


def test_the_kept_picture_is_reused_and_identical_to_a_fresh_one(driver: Any, arcade: Any) -> None:
    screen = open_battle_maps(driver)
    frames = driver.window.frames
    driver.frame(2)
    renders = frames.renders
    driver.frame(5)
    assert frames.renders == renders  # nothing changed: the kept picture was copied
    driver.key(arcade.key.L)
    assert frames.renders == renders + 1
    a, b = screen.board.parse("C3"), screen.board.parse("H12")
    driver.click(*screen.map.hex_centre_on_screen(a))
    driver.click(*screen.map.hex_centre_on_screen(b))
    kept = driver.image()
    frames.enabled = False
    try:
        fresh = driver.image()
    finally:
        frames.enabled = True
    assert kept.tobytes() == fresh.tobytes()


def test_zoomed_map_with_labels_and_a_sight_line(driver: Any, arcade: Any, shots: Path) -> None:
    """The picture for the docs: labels, a zoom step and a blocked sight line on configuration 3."""
    screen = open_battle_maps(driver)
    driver.key(arcade.key.KEY_3)
    driver.key(arcade.key.L)
    board, view = screen.board, screen.map
    _, (a, b) = sight_pairs(board, nearest=6, rows_apart=3)
    (ax, ay), (bx, by) = view.hex_centre_on_screen(a), view.hex_centre_on_screen(b)
    middle = ((ax + bx) / 2, (ay + by) / 2)
    driver.scroll(*middle, 1)
    driver.drag(middle, view.box.centre)  # bring the sight line to the middle of the view
    driver.click(*view.hex_centre_on_screen(a))
    driver.click(*view.hex_centre_on_screen(b))
    driver.move(*view.hex_centre_on_screen(board.parse("F8")))
    assert screen.sight_result is False
    driver.screenshot(shots / "sight-line.png")


def test_a_smaller_window_still_fits(arcade: Any) -> None:
    driver = open_driver(arcade, 960, 600)
    try:
        screen = open_battle_maps(driver)
        width, height = driver.window.get_size()
        for box in (screen.map.box, screen.panel.box, screen.tabs.box):
            assert 0 <= box.left < box.right <= width and 0 <= box.bottom < box.top <= height
        hex_ = screen.board.parse("K16")
        assert screen.map.hex_at(*screen.map.hex_centre_on_screen(hex_)) == hex_
    finally:
        driver.close()


# --- the whole way, then quit ------------------------------------------------------------------------
def test_menu_maps_and_back_then_quit(arcade: Any) -> None:
    from minis.ui.menu import MainMenu

    driver = open_driver(arcade)
    try:
        screen = open_battle_maps(driver)
        driver.key(arcade.key.KEY_6)
        driver.key(arcade.key.L)
        (a, b), _ = sight_pairs(screen.board)
        driver.click(*screen.map.hex_centre_on_screen(a))
        driver.click(*screen.map.hex_centre_on_screen(b))
        assert screen.sight_text.endswith("visible")
        driver.scroll(*screen.map.box.centre, 1)
        assert screen.map.zoom > screen.map.fit_zoom
        driver.key(arcade.key.ESCAPE)
        assert isinstance(driver.screen, MainMenu)
        driver.click_box(driver.screen.entry_box("Quit"))
        assert driver.closed
    finally:
        driver.close()


def test_escape_on_the_main_menu_quits(arcade: Any) -> None:
    driver = open_driver(arcade)
    try:
        driver.key(arcade.key.ESCAPE)
        assert driver.closed
    finally:
        driver.close()
