"""`minis edit [FILE]`: the map editor; `minis edit --check FILE...` checks map and scenario files.

Also `minis map new --rows R --cols C FILE` (registered under `minis map` by `register_map_new`): an
empty map file to start from. The editor window needs a display, except with `--screenshot`, which
renders it offscreen like `minis play --screenshot`. arcade is imported only when a window is opened.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from minis.base.errors import EXIT_CHECK, EXIT_UNREADABLE, MinisError, Problem, print_problems
from minis.base.limits import MAX_MAP_COLUMNS, MAX_MAP_ROWS
from minis.commands import Subparsers


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "edit",
        help="the map editor: maps, sections, configurations and scenario zones",
        description="Open the map editor on FILE (a map, section, configuration or scenario file), or on "
        "a new map. With --check, check map and scenario files instead (no window).",
    )
    parser.add_argument(
        "file", metavar="FILE", nargs="*", help="the file to edit (with --check: files to check)"
    )
    parser.add_argument("--check", action="store_true", help="check the files, print one line each, and exit")
    parser.add_argument("--screenshot", metavar="PNG", help="render the editor to a PNG file and exit")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.check:
        return check(args.file)
    if len(args.file) > 1:
        print("minis edit: give one file to edit (or --check FILE...)", file=sys.stderr)
        return EXIT_UNREADABLE
    path = args.file[0] if args.file else None
    if path is not None:
        from minis.ui.editor.model import Editor

        Editor.open(path)  # a broken file is reported as FILE:LINE:COL before any window opens
    from minis.ui import boot

    if args.screenshot:
        return screenshot(Path(args.screenshot), path)
    if not boot.display_available():
        print(
            "minis edit: no display to open a window on (DISPLAY is not set).\n"
            "  Check files without one: minis edit --check FILE",
            file=sys.stderr,
        )
        return EXIT_CHECK
    boot.import_arcade(headless=False)
    import arcade

    from minis.ui.app import MinisWindow
    from minis.ui.editor import EditorView

    try:
        window = MinisWindow()
    except Exception as error:  # pyglet raises several kinds when there is no usable OpenGL
        print(f"minis edit: cannot open a window: {error}", file=sys.stderr)
        return EXIT_CHECK
    window.open(EditorView(window, path))
    arcade.run()
    return 0


def screenshot(png: Path, path: str | None) -> int:
    """Render the editor on `path` offscreen (no display needed) and save it as a PNG."""
    from minis.ui import boot

    boot.import_arcade(headless=True)
    from minis.ui.app import MinisWindow
    from minis.ui.driver import save_screenshot
    from minis.ui.editor import EditorView

    window = MinisWindow(visible=False)
    window.open(EditorView(window, path))
    return save_screenshot(window, png, command="minis edit", failed=EXIT_UNREADABLE)


def check(files: list[str]) -> int:
    """Check map, section, configuration and scenario files: `OK FILE (...)` or FILE:LINE:COL lines."""
    from minis.engine.scenario import is_scenario_text, load_scenario
    from minis.mapfile import check_file, read_text

    if not files:
        print("minis edit --check: give the files to check", file=sys.stderr)
        return EXIT_UNREADABLE
    code = 0
    for name in files:
        try:
            text = read_text(name)
            if is_scenario_text(text):
                scenario = load_scenario(name)
                where = (
                    f"on {scenario.doc.map}"
                    if scenario.board is None
                    else f"{len(scenario.board.hexes)} hexes"
                )
                print(f"OK {name} (scenario: {scenario.title}, {where})")
            else:
                kind, board = check_file(name)
                print(f"OK {name} ({kind}: {len(board.hexes) if board else 0} hexes)")
        except MinisError as error:
            print_problems(error.problems)
            code = max(code, error.exit_code)
    return code


# --- minis map new ---------------------------------------------------------------------------------


def register_map_new(commands: Subparsers) -> None:
    """Add `new` to `minis map`'s subcommands."""
    parser = commands.add_parser(
        "new",
        help="create an empty map file (all clear) to edit",
        description="Write a free map of R rows, all clear: C hexes in the long rows and C-1 in the "
        "indented ones, like the starter battle maps. `minis map check` accepts it; `minis edit FILE` "
        "paints it.",
    )
    parser.add_argument(
        "--rows", metavar="R", type=int, required=True, help=f"number of rows (1-{MAX_MAP_ROWS})"
    )
    parser.add_argument(
        "--cols", metavar="C", type=int, required=True, help=f"hexes in a long row (2-{MAX_MAP_COLUMNS})"
    )
    parser.add_argument("--title", default="", help="the map's title")
    parser.add_argument("--force", action="store_true", help="replace FILE if it exists")
    parser.add_argument("file", metavar="FILE", help="the map file to write (.toml)")
    parser.set_defaults(func=map_new)


def map_new(args: argparse.Namespace) -> int:
    from minis.base.paths import exists
    from minis.engine.scenario import write_atomic
    from minis.mapfile import dump
    from minis.ui.editor.model import new_map

    path = Path(args.file)
    try:
        document = new_map(args.rows, args.cols, title=args.title)
    except ValueError as error:
        raise MinisError(Problem(str(path), 0, 0, str(error))) from None
    if path.suffix != ".toml":
        raise MinisError(
            Problem(str(path), 0, 0, "a map file's name ends in .toml"), exit_code=EXIT_UNREADABLE
        )
    if exists(path) and not args.force:
        raise MinisError(
            Problem(str(path), 0, 0, "the file exists already", "choose another name, or add --force"),
            exit_code=EXIT_UNREADABLE,
        )
    write_atomic(path, dump(document))
    count = sum(len(row) for row in document.terrain)
    print(f"wrote {path} ({args.rows} rows, {count} hexes)")
    return 0
