"""`minis play`: the game window.

    minis play                               the main menu
    minis play --scenario FILE               a new battle of a scenario file (armies first)
    minis play --demo                        a battle in progress (two armies on configuration 1)
    minis play --screenshot PATH [--map N]   the battle map of configuration N as a PNG, then exit
    minis play --demo --screenshot PATH      the demo battle as a PNG, then exit
    minis play --demo --measure              time the demo battle's frames (`minis.ui.measure`), then exit

The screenshots and the measurement work without an X server: they render offscreen in arcade's
headless mode (EGL), which is also chosen when no display is named. arcade is imported only when the
command runs, after that choice, so `minis --help` and every other command stay free of it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from minis.commands import Subparsers
from minis.ui import boot


def register(subparsers: Subparsers) -> None:
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
    parser.add_argument(
        "--demo", action="store_true", help="a battle in progress (two armies deployed on configuration 1)"
    )
    parser.add_argument("--scenario", metavar="FILE", type=Path, help="start a new battle of a scenario file")
    parser.add_argument(
        "--measure",
        action="store_true",
        help="with --demo: play a fixed script of input events offscreen and print the median frame times "
        "(empty_ms, frame_ms, hover_ms, click_ms), then exit",
    )
    parser.set_defaults(func=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    if args.measure:
        if not args.demo or args.screenshot or args.scenario:
            args.parser.error("--measure goes with --demo alone: minis play --demo --measure")
        return measure()
    plan = _scenario(args.scenario) if args.scenario else None  # a broken file: FILE:LINE:COL, no window
    if args.screenshot:
        if args.demo:
            return demo_screenshot(Path(args.screenshot), labels=args.labels)
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

    from minis.ui.router import new_window

    window = _open_window(new_window)
    if window is None:
        return 1
    window.routes.main_menu()
    if args.demo:
        from minis.ui.battle import BattleScreen
        from minis.ui.demo import demo_game
        from minis.ui.session import Session

        window.open(BattleScreen(window, Session(demo_game(), autosave=False)))
    elif plan is not None:
        window.routes.scenario_battle(plan)
    arcade.run()
    return 0


def _scenario(path: Path) -> Any:
    """The scenario file, read and checked (MinisError with its problems); needs `minis.engine.scenario`."""
    try:
        from minis.engine.scenario import load_scenario
    except ImportError:
        print("minis play: scenario files are not supported by this version", file=sys.stderr)
        raise SystemExit(1) from None
    return load_scenario(path)


def demo_screenshot(path: Path, *, labels: bool = False) -> int:
    """Render the demo battle (`minis.ui.demo`) offscreen: a unit selected, an enemy under the mouse."""
    boot.import_arcade(headless=True)
    from minis.ui.app import MinisWindow
    from minis.ui.battle import BattleScreen
    from minis.ui.demo import demo_game
    from minis.ui.driver import save_screenshot
    from minis.ui.session import Session

    game = demo_game()
    window = _open_window(lambda: MinisWindow(visible=False))
    if window is None:
        return 1
    screen = BattleScreen(window, Session(game, autosave=False))
    window.open(screen)
    screen.map.show_labels = labels
    return save_screenshot(
        window, path, command="minis play", failed=1, before=lambda driver: _aim_an_attack(driver, screen)
    )


def _aim_an_attack(driver: Any, screen: Any) -> None:
    """Select the unit with the best attack and put the mouse on its target, as a player would."""
    from minis.engine.queries import AttackPreview, attack_preview

    game = screen.session.game
    best: tuple[Any, str, str] | None = None
    for unit_id in game.ready_units():
        options = game.unit_options(unit_id)
        for target in options.attacks if options is not None else ():
            preview = attack_preview(game.state, unit_id, target)
            if isinstance(preview, AttackPreview) and (best is None or preview.hit_chance > best[0]):
                best = (preview.hit_chance, unit_id, target)
    if best is None:
        return
    _, unit_id, target = best
    driver.click(*screen.map.hex_centre_on_screen(game.state.units[unit_id].hex))
    driver.move(*screen.map.hex_centre_on_screen(game.state.units[target].hex))
    driver.frame()


def measure() -> int:
    """Time the demo battle's frames offscreen (`minis.ui.measure`) and print the one line of medians."""
    boot.import_arcade(headless=True)
    from minis.ui.app import MinisWindow
    from minis.ui.measure import measure_demo

    window = _open_window(lambda: MinisWindow(visible=False))
    if window is None:
        return 1
    try:
        figures = measure_demo(window)
    finally:
        if not window.closed:
            window.close()
    print(figures.line())
    return 0


def screenshot(path: Path, number: int, *, labels: bool = False) -> int:
    """Render the Battle maps screen of configuration `number` offscreen and save it as a PNG."""
    boot.import_arcade(headless=True)
    from minis.ui import boards

    boards.configuration(number)  # a broken map file is reported as FILE:LINE:COL, before any window

    from minis.ui.app import MinisWindow
    from minis.ui.battlemaps import BattleMapsScreen
    from minis.ui.driver import save_screenshot

    window = _open_window(lambda: MinisWindow(visible=False))
    if window is None:
        return 1
    screen = BattleMapsScreen(window, number)
    window.open(screen)
    screen.map.show_labels = labels
    return save_screenshot(window, path, command="minis play", failed=1)


def _open_window(make: Any) -> Any:
    """The window, or None after saying why OpenGL could not give us one."""
    try:
        return make()
    except Exception as error:  # pyglet and arcade raise several kinds when there is no usable OpenGL
        print(f"minis play: cannot open a window: {error}", file=sys.stderr)
        print("  minis needs OpenGL 3.3 (Mesa's software renderer will do).", file=sys.stderr)
        return None
