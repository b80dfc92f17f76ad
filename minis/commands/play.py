"""`minis play`: the game window; `minis play --screenshot PATH [--map N]` renders a battle map to a PNG.

The screenshot works without an X server: it renders offscreen in arcade's headless mode (EGL), which
is also chosen when no display is named. arcade is imported only when the command runs, after that
choice, so `minis --help` and every other command stay free of it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from minis.ui import boot


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="open the game window",
        description="Open the game window at the main menu. With --screenshot, render the battle map of "
        "configuration N to a PNG file instead and exit (no display needed).",
    )
    parser.add_argument("--screenshot", metavar="PATH", help="write a PNG of the battle map and exit")
    parser.add_argument(
        "--map", metavar="N", type=int, choices=range(1, 7), default=1, help="configuration 1-6 (default 1)"
    )
    parser.add_argument("--labels", action="store_true", help="with --screenshot: show the hex labels")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.screenshot:
        return screenshot(Path(args.screenshot), args.map, labels=args.labels)
    if not boot.display_available():
        print(
            "minis play: no display to open a window on (DISPLAY is not set).\n"
            "  Run it in a desktop session, or write a picture instead: minis play --screenshot map.png",
            file=sys.stderr,
        )
        return 1
    boot.import_arcade(headless=False)
    import arcade

    from minis.ui.app import MinisWindow
    from minis.ui.menu import MainMenu

    window = _open_window(lambda: MinisWindow())
    if window is None:
        return 1
    window.open(MainMenu(window))
    arcade.run()
    return 0


def screenshot(path: Path, number: int, *, labels: bool = False) -> int:
    """Render the Battle maps screen of configuration `number` offscreen and save it as a PNG."""
    boot.import_arcade(headless=True)
    from minis.ui import boards

    boards.configuration(number)  # a broken map file is reported as FILE:LINE:COL, before any window

    from minis.ui.app import MinisWindow
    from minis.ui.battlemaps import BattleMapsScreen
    from minis.ui.driver import Driver

    window = _open_window(lambda: MinisWindow(visible=False))
    if window is None:
        return 1
    screen = BattleMapsScreen(window, number)
    window.open(screen)
    screen.map.show_labels = labels
    driver = Driver(window)
    try:
        driver.screenshot(path)
    except OSError as error:
        print(f"minis play: cannot write {path}: {error.strerror or error}", file=sys.stderr)
        return 1
    finally:
        driver.close()
    print(f"wrote {path}")
    return 0


def _open_window(make: Any) -> Any:
    """The window, or None after saying why OpenGL could not give us one."""
    try:
        return make()
    except Exception as error:  # pyglet and arcade raise several kinds when there is no usable OpenGL
        print(f"minis play: cannot open a window: {error}", file=sys.stderr)
        print("  minis needs OpenGL 3.3 (Mesa's software renderer will do).", file=sys.stderr)
        return None
