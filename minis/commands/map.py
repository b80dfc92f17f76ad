"""`minis map`: show a battle map (text or picture), line of sight between hexes, and check map files.

N is a configuration number (1-6) or the path of a configuration, map or section file.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from minis.base.atomic import write_atomic
from minis.base.errors import EXIT_CHECK, EXIT_UNREADABLE, MinisError, Problem, print_problems
from minis.base.paths import exists, files_in, is_dir
from minis.board import Board
from minis.commands import Subparsers
from minis.commands.edit import register_map_new
from minis.engine.scenario import is_scenario_text
from minis.hexgrid import Facing, Hex, direction_to, row_letters
from minis.mapfile import check_file, load_board, read_text, terrain_lines
from minis.terrain import Terrain

if TYPE_CHECKING:  # Pillow is imported only when a picture is drawn
    from PIL import ImageDraw, ImageFont

# --- text drawing -------------------------------------------------------------------------------------

#: Characters per doubled-x unit: a hex is 3 characters wide with one between neighbours.
_PITCH = 2
_MARGIN = 3

_ANSI = {
    Terrain.CLEAR: "",
    Terrain.FOREST: "\x1b[32m",
    Terrain.HILL: "\x1b[33m",
    Terrain.TOWN: "\x1b[31m",
    Terrain.MARSH: "\x1b[36m",
    Terrain.POND: "\x1b[34m",
    Terrain.WATER: "\x1b[94m",
}
_RESET = "\x1b[0m"
_FEATURE_ANSI = {
    "~": "\x1b[1;34m",
    "#": "\x1b[1;35m",
    "=": "\x1b[1;33m",
    "/": "\x1b[1;33m",
    "\\": "\x1b[1;33m",
}
_ZONE_ANSI = {"[": "\x1b[1;34m", "]": "\x1b[1;34m", "{": "\x1b[1;31m", "}": "\x1b[1;31m", "*": "\x1b[1;35m"}


def _side_mark(board: Board, a: Hex, b: Hex, direction: Facing) -> str | None:
    side = frozenset((a, b))
    road, stream = side in board.roads, side in board.streams
    if road and stream:
        return "#"
    if stream:
        return "~"
    if road:
        return {Facing.E: "=", Facing.W: "=", Facing.NE: "/", Facing.SW: "/"}.get(direction, "\\")
    return None


def draw_text(board: Board, *, colour: bool = False) -> list[str]:
    """The board for a terminal: each hex's label above its terrain letter, zones in brackets,
    the objective between stars, roads (= / \\), streams (~) and bridges (#) on the hexsides they cross."""
    cells = dict.fromkeys(board.hexes, False) | dict.fromkeys(board.half_hexes, True)
    xs = [board.doubled_of(h)[0] for h in cells]
    x0 = min(xs)
    ys = sorted({h.r for h in cells})
    west, east = board.deployment_zone("west"), board.deployment_zone("east")
    width = _MARGIN + _PITCH * (max(xs) - x0) + 4
    grid: dict[int, list[str]] = {}  # line number -> characters; two lines per row plus one between

    def put(line: int, col: int, text: str) -> None:
        row = grid.setdefault(line, [" "] * (width + 4))
        for k, char in enumerate(text):
            if 0 <= col + k < len(row):
                row[col + k] = char

    top = ys[0]
    for hex_, half in cells.items():
        x, y = board.doubled_of(hex_)
        col = _MARGIN + _PITCH * (x - x0)
        line = 3 * (y - top)
        letter = board.terrain(hex_).value
        if half:
            put(line + 1, col - 1, f" {letter.lower() if letter != 'C' else '.'} ")
            continue
        left, right = ("[", "]") if hex_ in west else ("{", "}") if hex_ in east else (" ", " ")
        if hex_ == board.objective:
            left = right = "*"
        label = board.label(hex_)
        put(line, col - 1, label)
        put(line + 1, col - 1, f"{left}{letter}{right}")
    for link in board.roads | board.streams:
        a, b = sorted(link, key=lambda h: (h.r, h.q))
        direction = direction_to(a, b)
        assert direction is not None
        mark = _side_mark(board, a, b, direction)
        (ax, ay), (bx, by) = board.doubled_of(a), board.doubled_of(b)
        col = _MARGIN + _PITCH * (ax + bx - 2 * x0) // 2  # the hexside's midpoint
        line = 3 * (ay - top) + (1 if ay == by else 2)  # the row's terrain line, or the line below it
        if mark:
            put(line, col, mark)
    lines = ["".join(grid.get(n, [])).rstrip() for n in range(3 * (ys[-1] - top) + 2)]
    lines = [f"{_row_name(n, top, ys, board)}{text[2:]}" if text else "" for n, text in enumerate(lines)]
    if colour:  # terrain letters only on terrain lines (labels like F3 are not forests)
        lines = [line[:2] + _paint(line[2:], terrain=n % 3 == 1) for n, line in enumerate(lines)]
    return lines


def _row_name(n: int, top: int, ys: list[int], board: Board) -> str:
    """The row letter at the left of the terrain line of a row of full hexes."""
    y = n // 3 + top
    if n % 3 == 1 and 0 <= y < board.rows:
        return f"{row_letters(y):<2}"
    return "  "


def _paint(line: str, *, terrain: bool) -> str:
    """ANSI colours for a terminal: terrain letters (on terrain lines), zones, roads and streams."""
    out = []
    for char in line:
        kind = Terrain(char) if terrain and char in "FHTMP" else None
        code = _ANSI[kind] if kind else _FEATURE_ANSI.get(char) or _ZONE_ANSI.get(char)
        out.append(f"{code}{char}{_RESET}" if code else char)
    return "".join(out)


def legend(board: Board) -> list[str]:
    objective = board.objective
    counts = f"{len(board.hexes)} hexes"
    goal = (
        f", objective {board.label(objective)} ({board.terrain(objective).name.lower()})" if objective else ""
    )
    features = (
        f"{len(board.roads)} road links, {len(board.streams)} stream hexsides, {len(board.bridges)} bridges"
    )
    return [
        f"{board.name or board.source or 'Battle map'}: {counts}{goal}",
        f"{features}",
        "Terrain: C clear, F forest, H hill, T town, M marsh, P pond; . half-hex at the edge (impassable)",
        "[X] west deployment zone, {X} east deployment zone, *X* objective; labels above each hex",
        "On hexsides: = / \\ road, ~ stream, # bridge (a road over a stream)",
    ]


# --- picture ------------------------------------------------------------------------------------------

_R, _A, _B = 30, 26, 15  # hex radius, half width, half of radius: an integer near-regular hexagon
_CORNERS = ((0, -_R), (_A, -_B), (_A, _B), (0, _R), (-_A, _B), (-_A, -_B))
#: The two corners (indexes into _CORNERS) of the hexside facing each direction.
_SIDE_CORNERS = {
    Facing.E: (1, 2),
    Facing.NE: (0, 1),
    Facing.NW: (5, 0),
    Facing.W: (4, 5),
    Facing.SW: (3, 4),
    Facing.SE: (2, 3),
}
_FILL = {
    Terrain.CLEAR: (222, 230, 178),
    Terrain.FOREST: (70, 130, 62),
    Terrain.HILL: (190, 150, 96),
    Terrain.TOWN: (178, 92, 80),
    Terrain.MARSH: (136, 184, 170),
    Terrain.POND: (86, 136, 210),
    Terrain.WATER: (60, 110, 200),
}
_ROAD, _STREAM, _BRIDGE = (112, 78, 40), (40, 92, 220), (70, 70, 70)
#: The fonts Pillow's `load_default` gives (a bitmap font before Pillow 10.1, else a scalable one).
_Font: TypeAlias = "ImageFont.ImageFont | ImageFont.FreeTypeFont"

_WEST, _EAST, _OBJECTIVE = (30, 70, 200), (200, 40, 40), (250, 200, 30)


def draw_png(board: Board, path: Path) -> None:
    """Write a picture of the board to `path` (a temporary file first, then renamed into place)."""
    from PIL import Image, ImageDraw, ImageFont

    cells = list(board.hexes) + sorted(board.half_hexes)
    xs = [board.doubled_of(h)[0] for h in cells]
    ys = [h.r for h in cells]
    margin, legend_height = 50, 120
    width = (max(xs) - min(xs)) * _A + 2 * margin
    height = (max(ys) - min(ys)) * 45 + 2 * margin + legend_height

    def centre(hex_: Hex) -> tuple[int, int]:
        x, y = board.doubled_of(hex_)
        return (margin + (x - min(xs)) * _A, margin + (y - min(ys)) * 45)

    def corners(hex_: Hex, scale: int = 10) -> list[tuple[int, int]]:
        cx, cy = centre(hex_)
        return [(cx + dx * scale // 10, cy + dy * scale // 10) for dx, dy in _CORNERS]

    image = Image.new("RGB", (max(width, 560), height), (250, 250, 246))
    draw = ImageDraw.Draw(image)
    try:
        font = ImageFont.load_default(size=11)
        big = ImageFont.load_default(size=16)
    except TypeError:  # Pillow older than 10.1
        font = big = ImageFont.load_default()

    for hex_ in cells:
        fill = _FILL[board.terrain(hex_)]
        if hex_ in board.half_hexes:
            red, green, blue = fill
            fill = ((red + 2 * 235) // 3, (green + 2 * 235) // 3, (blue + 2 * 235) // 3)
        draw.polygon(corners(hex_), fill=fill, outline=(120, 120, 110))
        if board.terrain(hex_) is Terrain.TOWN and hex_ not in board.half_hexes:
            cx, cy = centre(hex_)
            for dx, dy in ((-10, -2), (2, -6), (-4, 6)):
                draw.rectangle((cx + dx, cy + dy, cx + dx + 7, cy + dy + 7), fill=(110, 50, 45))
    for end, colour in (("west", _WEST), ("east", _EAST)):
        for hex_ in board.deployment_zone(end):
            draw.polygon(corners(hex_, 8), outline=colour, width=2)
    for side in board.streams:
        a, b = sorted(side)
        direction = direction_to(a, b)
        assert direction is not None
        i, j = _SIDE_CORNERS[direction]
        points = corners(a)
        draw.line((points[i], points[j]), fill=_STREAM, width=6)
    for link in board.roads:
        a, b = sorted(link)
        (ax, ay), (bx, by) = centre(a), centre(b)
        if link in board.streams:
            mx, my = (ax + bx) // 2, (ay + by) // 2
            draw.line(
                (mx - (bx - ax) // 4, my - (by - ay) // 4, mx + (bx - ax) // 4, my + (by - ay) // 4),
                fill=_BRIDGE,
                width=14,
            )
        draw.line((ax, ay, bx, by), fill=_ROAD, width=5)
    for hex_ in board.hexes:
        cx, cy = centre(hex_)
        draw.text((cx, cy - 17), board.label(hex_), fill=(20, 20, 20), font=font, anchor="mm")
    if board.objective is not None:
        cx, cy = centre(board.objective)
        draw.ellipse((cx - 10, cy - 10, cx + 10, cy + 10), fill=_OBJECTIVE, outline=(0, 0, 0), width=2)
    draw.text((margin, 14), board.name or "Battle map", fill=(0, 0, 0), font=big)
    _draw_legend(draw, font, margin, height - legend_height + 10)

    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    try:
        write_atomic(path, buffer.getvalue())  # a temporary file in the folder, fsynced, then renamed
    except OSError as error:
        raise MinisError(
            Problem(str(path), 0, 0, f"cannot write the picture: {error.strerror or error}"),
            exit_code=EXIT_UNREADABLE,
        ) from None


def _draw_legend(draw: ImageDraw.ImageDraw, font: _Font, left: int, top: int) -> None:
    x = left
    for terrain in Terrain:
        draw.rectangle((x, top, x + 16, top + 16), fill=_FILL[terrain], outline=(90, 90, 90))
        draw.text((x + 22, top + 2), terrain.name.lower(), fill=(0, 0, 0), font=font)
        x += 80
    y = top + 30
    items = [
        ("line", _ROAD, "road"),
        ("line", _STREAM, "stream"),
        ("line", _BRIDGE, "bridge"),
        ("box", _WEST, "west zone"),
        ("box", _EAST, "east zone"),
        ("dot", _OBJECTIVE, "objective"),
    ]
    x = left
    for shape, colour, text in items:
        if shape == "line":
            draw.line((x, y + 8, x + 20, y + 8), fill=colour, width=6)
        elif shape == "box":
            draw.rectangle((x, y, x + 18, y + 16), outline=colour, width=2)
        else:
            draw.ellipse((x + 2, y, x + 18, y + 16), fill=colour, outline=(0, 0, 0))
        draw.text((x + 26, y + 2), text, fill=(0, 0, 0), font=font)
        x += 90
    draw.text(
        (left, y + 30), "pale hexes at the edges are half-hexes: impassable", fill=(60, 60, 60), font=font
    )


# --- commands -----------------------------------------------------------------------------------------


def _spec(text: str) -> int | str:
    number = text.strip().removeprefix("-")  # -1 is a wrong configuration number, not a file name
    digits = number.isascii() and number.isdigit() and len(number) <= 6  # '²' and 5,000 digits are names
    return int(text) if digits and not exists(text) else text


def show(args: argparse.Namespace) -> int:
    board = load_board(_spec(args.map))
    if args.png:
        draw_png(board, Path(args.png))
        print(f"wrote {args.png}")
        return 0
    if args.terrain:
        print("\n".join(terrain_lines(board)))
        return 0
    colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    print("\n".join([*draw_text(board, colour=colour), "", *legend(board)]))
    return 0


_PAIR = re.compile(r"^\s*([^:\s]+)\s*:\s*([^:\s]+)\s*$")


def los(args: argparse.Namespace) -> int:
    board = load_board(_spec(args.map))
    results, errors, code = [], [], 0
    for pair in args.pairs:
        match = _PAIR.match(pair)
        if not match:
            errors.append(f"minis map los: '{pair}' is not a pair of hexes (hint: write FROM:TO, like E9:A1)")
            code = max(code, EXIT_UNREADABLE)
            continue
        try:
            a, b = board.parse(match.group(1)), board.parse(match.group(2))
        except ValueError as error:
            unreadable = "not a hex label" in str(error)
            errors.append(f"minis map los: '{pair}': {error}")
            code = max(code, EXIT_UNREADABLE if unreadable else EXIT_CHECK)
            continue
        word = "visible" if board.visible(a, b) else "blocked"
        results.append(f"{board.label(a)} {board.label(b)} {word}")
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return code
    print("\n".join(results))
    return 0


def _files(paths: Iterable[str]) -> Iterable[tuple[Path, bool]]:
    """Every file to check, and whether it was found inside a folder (then only .toml files count)."""
    for name in paths:
        path = Path(name)
        if is_dir(path):
            found = files_in(path, recursive=True)
            yield from ((p, True) for p in found)
            if not found:
                yield path, False
        else:
            yield path, False


def _scenario_problem(path: Path) -> Problem | None:
    """A scenario file given to `minis map check`: where it says so, and the command that checks it."""
    text = read_text(path)
    if not is_scenario_text(text):
        return None
    lines = text.split("\n")
    line = next(n for n, one in enumerate(lines) if is_scenario_text(one))  # the `kind = "scenario"` line
    col = lines[line].index("=") + 1
    col += len(lines[line][col:]) - len(lines[line][col:].lstrip()) + 1
    return Problem(
        str(path),
        line + 1,
        col,
        "this is a scenario file, not a map: check it with `minis edit --check " + str(path) + "`",
    )


def check(args: argparse.Namespace) -> int:
    code = 0
    for path, _ in _files(args.paths):
        if is_dir(path):
            print(Problem(str(path), 0, 0, "no .toml map files in this folder"), file=sys.stderr)
            code = max(code, EXIT_CHECK)
            continue
        try:
            scenario = _scenario_problem(path)
            if scenario is not None:
                print(scenario, file=sys.stderr)
                code = max(code, EXIT_CHECK)
                continue
            kind, board = check_file(path)
        except MinisError as error:
            print_problems(error.problems)
            code = max(code, error.exit_code)
            continue
        details = f"{len(board.hexes)} hexes" if board else ""
        if board is not None and board.objective is not None:
            details += f", objective {board.label(board.objective)}"
        extras = [
            f"{len(board.roads)} road links" if board and board.roads else "",
            f"{len(board.streams)} stream hexsides" if board and board.streams else "",
        ]
        details = ", ".join(d for d in [details, *extras] if d)
        print(f"OK {path} ({kind}: {details})")
    return code


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("map", help="show battle maps, line of sight, check map files")
    commands = parser.add_subparsers(dest="map_command", metavar="ACTION", required=True)

    show_parser = commands.add_parser("show", help="draw a battle map (text, or a picture with --png)")
    show_parser.add_argument("map", metavar="N", help="configuration number 1-6, or a map file")
    show_parser.add_argument("--terrain", action="store_true", help="only the terrain letters, row by row")
    show_parser.add_argument("--png", metavar="FILE", help="write a picture of the map to FILE")
    show_parser.set_defaults(func=show)

    los_parser = commands.add_parser("los", help="line of sight between pairs of hexes")
    los_parser.add_argument("map", metavar="N", help="configuration number 1-6, or a map file")
    los_parser.add_argument("pairs", metavar="FROM:TO", nargs="+", help="two hex labels, like E9:A1")
    los_parser.set_defaults(func=los)

    check_parser = commands.add_parser("check", help="validate section, configuration and map files")
    check_parser.add_argument(
        "paths", metavar="PATH", nargs="+", help="files or folders (searched recursively)"
    )
    check_parser.set_defaults(func=check)

    register_map_new(commands)  # `map new` belongs with the map editor (issue 7)
