"""Frame time of the Battle maps screen with the full map, in arcade's headless mode (Mesa, software).

The figure to watch is `test_frame_full_map` (target: median 5 ms or less): configuration 1 with hex
labels, a sight line and a hovered hex, in a 1280x800 window. Each frame is timed up to the end of
rendering (`ctx.finish()`), not just until the GL calls are queued. For comparison:
`test_frame_full_map_drawn_afresh` draws the whole picture every frame (what a frame costs while the
view moves), and `test_frame_while_panning` moves the map one pixel per frame.
`test_start_to_main_menu` is the time from a fresh process to the first drawn frame of the menu.

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
