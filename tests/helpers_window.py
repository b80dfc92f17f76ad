"""Helpers the window tests share: events delivered straight to a window, the map editor opened on a file,
and colours read from a screenshot where the keyboard cursor is drawn."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from minis.hexgrid import Hex


def deliver(window: Any, *event: object) -> None:
    """One input event, dispatched as the window's event loop would."""
    window.dispatch_event(*event)
    window.dispatch_events()


def open_editor(window: Any, path: str | Path | None = None) -> tuple[Any, Any]:
    """The editor on `path` (None: a new map) as the only screen, and a driver for it."""
    from minis.ui.driver import Driver
    from minis.ui.editor import EditorView

    window.stack.clear()
    view = EditorView(window, str(path) if path is not None else None)
    window.open(view)
    driver = Driver(window)
    driver.frame()
    return driver, view


def pixel(image: Any, x: float, y: float) -> tuple[int, int, int]:
    """The colour at window point (x, y) (origin bottom left, as arcade counts)."""
    return image.getpixel((int(x), image.height - 1 - int(y)))[:3]


def rim_point(map_view: Any, hex_: Hex) -> tuple[float, float]:
    """A point on the keyboard cursor's rim around `hex_` (the middle of the hex's upper right side,
    just inside), on screen, for a map view (`MapView` or the editor's map)."""
    from minis.ui import hexdraw

    cx, cy = hexdraw.centre(hex_)
    reach = 0.97 * hexdraw.SIZE * math.cos(math.radians(30))
    angle = math.radians(60)
    return map_view.world_to_screen(cx + reach * math.cos(angle), cy + reach * math.sin(angle))


def end_phase(driver: Any) -> None:
    """P, and Y if the screen asks first (units that could still act: once a phase)."""
    import arcade

    driver.key(arcade.key.P)
    dialog = driver.screen.dialog
    if dialog is not None and dialog.title.text.startswith("End the "):
        driver.key(arcade.key.Y)


def answer_battle_dialog(driver: Any) -> bool:
    """Answer the battle's dialog if one is open (the coin's or initiative's first player: the Axis; an
    end: West; a casualty report: Enter); True if there was one."""
    import arcade

    dialog = driver.screen.dialog
    if dialog is None:
        return False
    title = dialog.title.text
    if title == "Choose an end":
        driver.key(arcade.key.W)
    elif title.startswith(("Coin", "Turn")):
        driver.key(arcade.key.A)
    else:
        driver.key(arcade.key.ENTER)
    return True
