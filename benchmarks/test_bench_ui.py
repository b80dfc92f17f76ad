"""Frame times of the Battle maps and the battle screens, in arcade's headless mode (Mesa, software).

The figures to watch (target: median 5 ms or less) are `test_frame_full_map` (the Battle maps screen:
configuration 1 with hex labels, a sight line and a hovered hex) and `test_frame_battle_30_units` (the
battle screen: configuration 1 with 30 units, a Vehicle selected with its reach and costs, labels, a
hovered hex), both in a 1280x800 window. Each frame is timed up to the end of
rendering (`ctx.finish()`), not just until the GL calls are queued. For comparison:
`test_frame_full_map_drawn_afresh` draws the whole picture every frame (what a frame costs while the
view moves), and `test_frame_while_panning` moves the map one pixel per frame.
`test_start_to_main_menu` is the time from a fresh process to the first drawn frame of the menu.
`minis play --demo --measure` gives the figures a player feels (an idle frame, a hover, a click on a
unit) through the window's own event loop; these benchmarks time the parts.

Run: `.venv/bin/python -m pytest benchmarks/test_bench_ui.py --benchmark-only -q`
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from minis.ui import boot


@pytest.fixture(scope="module")
def screen() -> Iterator[Any]:
    arcade = boot.import_arcade(headless=True)
    from minis.ui.driver import Driver

    driver = Driver.open()
    driver.click_box(driver.screen.entry_box("Battle maps"))
    screen = driver.screen
    board, view = screen.board, screen.map
    driver.key(arcade.key.L)
    driver.click(*view.hex_centre_on_screen(board.parse("C2")))
    driver.click(*view.hex_centre_on_screen(board.parse("H9")))
    driver.move(*view.hex_centre_on_screen(board.parse("E9")))
    driver.frame(3)
    yield screen
    driver.close()


def frame(screen: Any) -> None:
    screen.on_draw()
    screen.window.ctx.finish()


def test_frame_full_map(benchmark: Any, screen: Any) -> None:
    benchmark(frame, screen)
    assert screen.sight_text


def test_frame_full_map_drawn_afresh(benchmark: Any, screen: Any) -> None:
    frames = screen.window.frames
    frames.enabled = False
    try:
        benchmark(frame, screen)
    finally:
        frames.enabled = True


def test_frame_while_panning(benchmark: Any, screen: Any) -> None:
    step = [1]

    def pan_and_draw() -> None:
        step[0] = -step[0]
        screen.map.pan(step[0], 0)
        frame(screen)

    benchmark(pan_and_draw)


START = """
import time
start = time.perf_counter()
from minis.ui import boot
boot.import_arcade(headless=True)
from minis.ui.driver import Driver
driver = Driver.open()
driver.window.ctx.finish()
print(time.perf_counter() - start)
"""


def test_start_to_main_menu(benchmark: Any) -> None:
    """A fresh interpreter up to the first frame of the main menu (target: under 2 s)."""
    seconds: list[float] = []

    def start() -> None:
        begin = time.perf_counter()
        subprocess.run([sys.executable, "-c", START], check=True, capture_output=True, timeout=60)
        seconds.append(time.perf_counter() - begin)

    benchmark.pedantic(start, rounds=3, iterations=1)
    assert seconds


# --- the battle screen: the full map and 30 units -----------------------------------------------------------
@pytest.fixture(scope="module")
def battle() -> Iterator[Any]:
    """Configuration 1 with 30 deployed units (15 a side), a Vehicle selected (its reach tinted, with
    costs), the mouse over a hex (tooltip), hex labels on: the busiest ordinary picture of a battle."""
    boot.import_arcade(headless=True)
    from minis.ui.battle import BattleScreen
    from minis.ui.demo import demo_game
    from minis.ui.driver import Driver
    from minis.ui.session import Session

    driver = Driver.open()
    game = demo_game(large=True, stop="deployed")
    assert sum(1 for u in game.state.units.values() if u.on_map) == 30
    screen = BattleScreen(driver.window, Session(game, autosave=False))
    driver.window.open(screen)
    vehicle = next(u for u in game.state.units.values() if u.side is game.decider() and u.card.is_vehicle)
    driver.click(*screen.map.hex_centre_on_screen(vehicle.hex))
    assert screen.selected == vehicle.id and screen._costs
    driver.move(*screen.map.hex_centre_on_screen(game.state.board.parse("F8")))
    screen.map.show_labels = True
    driver.frame(3)
    yield screen
    driver.close()


def test_frame_battle_30_units(benchmark: Any, battle: Any) -> None:
    """The figure to watch for a battle (target: median 5 ms or less)."""
    benchmark(frame, battle)


def test_frame_battle_30_units_drawn_afresh(benchmark: Any, battle: Any) -> None:
    """What a frame costs when the picture must be drawn again (the view moved, a unit was selected)."""
    frames = battle.window.frames
    frames.enabled = False
    try:
        benchmark(frame, battle)
    finally:
        frames.enabled = True


def test_battle_hover_change(benchmark: Any, battle: Any) -> None:
    """A frame in which the mouse moved to another hex: the `hover` layer and the tooltip are rebuilt
    and drawn over the kept picture (target: within 2x of an empty frame; `minis play --demo --measure`)."""
    board = battle.state.board
    hexes = [board.parse("F8"), board.parse("F9")]
    step = [0]

    def hover_and_draw() -> None:
        step[0] ^= 1
        battle.map.hover = hexes[step[0]]
        battle.on_hex_hover(hexes[step[0]])
        frame(battle)

    benchmark(hover_and_draw)
