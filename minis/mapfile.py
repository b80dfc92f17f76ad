"""Map files: sections, configurations and free maps (TOML), inline boards, and assembling the six maps.

The format is for scenario designers who edit by hand and read diffs (docs/map-files.md):

- a **section** (`maps/sections/*.toml`) is one side of a map sheet: a grid of five rows of 8, 7, 8, 7, 8
  terrain letters exactly as printed, optional half-hex terrain, roads and streams;
- a **configuration** (`maps/configurations/N-*.toml`) puts four sections in the NW, NE, SW and SE
  quadrants, each maybe turned 180 degrees, and names the objective;
- a **map** is a free board of any size: grid, roads, streams, objective.

Inside a section, labels are those the section has when it lies unturned in the NW quadrant (rows A-E).
Its ring of half-hexes is named the same way: `B0`/`D0` (west ends of the indented rows), `B8`/`D8`
(east ends), `F1`..`F7` (south edge), and any hex as a neighbour of a labelled one, `A3:NW`, which is how the
north edge is written. `A9`, `C9`, `E9` and `A0`, `C0`, `E0` are the hexes just beyond the east and west
edges of the long rows: a road may run there from the long row's end hex, to meet the next section's road.

Assembly (`assemble`): a turned section maps doubled (x, y) to (14 - x, 4 - y); the quadrants are then
shifted by (0, 0), (16, 0), (0, 6) and (16, 6). Positions strictly inside the 11-row map are full hexes,
those on its outside edge are half-hexes. Where half-hexes of two (at the centre, four) sections meet
they form a seam hex: its terrain is the half-hexes' terrain, a clear half giving way to another terrain.
Roads and streams of all four sections (and any the configuration adds) are all on the map.

Every mistake is reported with file, line and column (`minis.errors.MinisError`), all at once.
"""

from __future__ import annotations

import bisect
import functools
import json
import os
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from minis.board import Board
from minis.errors import EXIT_UNREADABLE, MinisError, Problem, did_you_mean, unreadable
from minis.hexgrid import (
    FACINGS,
    Facing,
    Hex,
    distance,
    from_doubled,
    is_indented,
    label,
    row_index,
    row_letters,
)
from minis.terrain import LETTERS_HELP, Terrain

#: Where the project's maps live; MINIS_MAPS overrides it (for a non-editable install or experiments).
MAPS_DIR = Path(os.environ.get("MINIS_MAPS") or Path(__file__).resolve().parent.parent / "maps")

KINDS = ("section", "configuration", "map")
QUADRANTS = ("nw", "ne", "sw", "se")
QUADRANT_NAMES = {"nw": "north-west", "ne": "north-east", "sw": "south-west", "se": "south-east"}

#: Full hexes per row of a section, rows A-E.
SECTION_ROWS = (8, 7, 8, 7, 8)
#: The doubled offset of each quadrant's section frame in the assembled map.
QUADRANT_OFFSETS = {"nw": (0, 0), "ne": (16, 0), "sw": (0, 6), "se": (16, 6)}
#: Turning a section 180 degrees maps doubled (x, y) to (TURN_X - x, TURN_Y - y).
TURN_X, TURN_Y = 14, 4
#: The assembled map's outside edges in doubled coordinates: hex centres on them are half-hexes.
MAP_EDGES = (-1, 31, -1, 11)  # west, east, north, south

HALF_SIDES = {"north": 7, "south": 7, "west": 2, "east": 2}
_LETTERS = {t.value: t for t in Terrain}

Spot = tuple[int, int]
Links = frozenset[frozenset[Hex]]


# --- positions in TOML text -------------------------------------------------------------------------

_TABLE_LINE = re.compile(r"^\s*\[\s*([^\[\]#]+?)\s*\]\s*(?:#.*)?$")
_KEY_LINE = re.compile(r"^\s*(?:\"([^\"\n]*)\"|'([^'\n]*)'|([A-Za-z0-9_-]+))\s*=\s*")


class _Locator:
    """Finds where keys and string values sit in TOML text (tomllib keeps no positions).

    It understands the plain layouts a designer writes: `key = value` lines, `[table]` headers, arrays of
    strings over several lines, multi-line strings. Anything it cannot find is reported at line 0.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        lines = text.split("\n")
        self.starts = [0]
        for line in lines[:-1]:
            self.starts.append(self.starts[-1] + len(line) + 1)
        self.keys: dict[tuple[str | None, str], tuple[int, int]] = {}  # -> (key offset, value offset)
        self._strings: dict[tuple[str | None, str], tuple[int, ...]] = {}
        table: str | None = None
        inside: str | None = None  # the delimiter of an open multi-line string
        for number, line in enumerate(lines):
            if inside:
                if line.count(inside) % 2 == 1:
                    inside = None
                continue
            header = _TABLE_LINE.match(line)
            if header and not line.lstrip().startswith("[["):
                table = header.group(1).strip().strip("\"'")
                continue
            match = _KEY_LINE.match(line)
            if not match:
                continue
            key = next(g for g in match.groups() if g is not None)
            start = self.starts[number]
            self.keys.setdefault(
                (table, key), (start + match.start(match.lastindex or 0), start + match.end())
            )
            rest = line[match.end() :]
            for delimiter in ('"""', "'''"):
                if rest.count(delimiter) % 2 == 1:
                    inside = delimiter

    def spot(self, offset: int) -> Spot:
        line = bisect.bisect_right(self.starts, offset)
        return (line, offset - self.starts[line - 1] + 1)

    def key(self, table: str | None, key: str) -> Spot | None:
        found = self.keys.get((table, key))
        return self.spot(found[0]) if found else None

    def value(self, table: str | None, key: str) -> Spot | None:
        found = self.keys.get((table, key))
        return self.spot(found[1]) if found else None

    def strings(self, table: str | None, key: str) -> tuple[int, ...]:
        """Offsets of the contents of the string(s) in a key's value, in order (top-level array items)."""
        if (table, key) not in self._strings:
            self._strings[(table, key)] = self._scan(table, key)
        return self._strings[(table, key)]

    def _scan(self, table: str | None, key: str) -> tuple[int, ...]:
        found = self.keys.get((table, key))
        if not found:
            return ()
        text, i, depth, result = self.text, found[1], 0, []
        while i < len(text):
            char = text[i]
            if char == "#":
                end = text.find("\n", i)
                i = len(text) if end < 0 else end
            elif char == "[":
                depth += 1
                i += 1
            elif char == "]":
                depth -= 1
                i += 1
                if depth <= 0:
                    break
            elif char in "\"'":
                triple = text.startswith(char * 3, i)
                quote = char * 3 if triple else char
                content = i + len(quote)
                if triple and text.startswith("\r\n", content):
                    content += 2
                elif triple and text.startswith("\n", content):
                    content += 1
                if depth <= 1:
                    result.append(content)
                j = i + len(quote)
                while j < len(text) and not text.startswith(quote, j):
                    if not triple and text[j] == "\n":
                        break
                    j += 2 if char == '"' and text[j] == "\\" else 1
                i = j + len(quote)
                if depth == 0:
                    break
            elif char in " \t\r\n,":
                i += 1
            else:
                if depth == 0:
                    break
                i += 1
        return tuple(result)


@attrs.frozen
class _Where:
    """Turns 'the 3rd road, 7th character' into file, line and column; collects the problems."""

    file: str
    locator: _Locator | None
    problems: list[Problem] = attrs.field(factory=list, eq=False)
    table: str | None = None

    def within(self, table: str) -> _Where:
        return _Where(self.file, self.locator, self.problems, table)

    def key(self, key: str) -> Spot:
        found = self.locator.key(self.table, key) if self.locator else None
        return found or (0, 0)

    def value(self, key: str) -> Spot:
        found = self.locator.value(self.table, key) if self.locator else None
        return found or (0, 0)

    def item(self, key: str, index: int | None, char: int = 0) -> Spot:
        """The `char`-th character of string number `index` of an array (None: the key's own string)."""
        if not self.locator:
            return (0, 0)
        offsets = self.locator.strings(self.table, key)
        position = 0 if index is None else index
        if position >= len(offsets):
            return self.value(key)
        line, col = self.locator.spot(offsets[position])
        return (line, col + char)

    def block(self, key: str) -> Callable[[int, int], Spot]:
        """Position of line i, character k of a multi-line string value (a grid)."""
        if not self.locator:
            return lambda i, k: (i + 1, k + 1)
        offsets = self.locator.strings(self.table, key)
        if not offsets:
            spot = self.value(key)
            return lambda i, k: spot
        line0, col0 = self.locator.spot(offsets[0])
        return lambda i, k: (line0 + i, col0 + k if i == 0 else k + 1)

    def add(self, spot: Spot, message: str, hint: str = "") -> None:
        self.problems.append(Problem(self.file, spot[0], spot[1], message, hint))

    def raise_if_any(self) -> None:
        if self.problems:
            raise MinisError(sorted(self.problems, key=lambda p: (p.file, p.line, p.col)))


# --- reading files ----------------------------------------------------------------------------------

_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


def parse_toml(text: str, file: str) -> dict[str, Any]:
    """TOML text to a dict; a syntax error (a key given twice included) is an unreadable-file error."""
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError) as error:
        message = str(error) or "not valid TOML"
        line = col = 0
        position = _TOML_POSITION.search(message)
        if position:
            line, col = int(position.group(1)), int(position.group(2))
            message = message[: position.start()]
        lines = text.split("\n")
        if "overwrite" in message and 0 < line <= len(lines):
            key = _KEY_LINE.match(lines[line - 1])
            name = next((g for g in key.groups() if g is not None), "") if key else ""
            col = (key.start(key.lastindex or 0) + 1) if key else col
            raise unreadable(
                file,
                f"'{name}' is given twice" if name else "a key is given twice",
                line,
                col,
                "each key may appear only once; keys after a [table] header belong to that table",
            ) from None
        if "declare" in message and "twice" in message:
            raise unreadable(file, "a [table] is given twice", line, col, "merge the two tables") from None
        raise unreadable(
            file,
            f"not valid TOML: {message}",
            line,
            col,
            'strings need quotes, like name = "x"; multi-line strings use """',
        ) from None


def read_text(path: Path | str) -> str:
    """The text of a file, or an unreadable-file error (missing, a folder, not UTF-8)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise unreadable(str(path), "no such file", hint="check the path") from None
    except IsADirectoryError:
        raise unreadable(str(path), "is a folder, not a file") from None
    except OSError as error:
        raise unreadable(str(path), f"cannot read the file: {error.strerror or error}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        before = raw[: error.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        raise unreadable(str(path), "the file is not UTF-8 text", line, col, "save it as UTF-8") from None


# --- documents (what a file says, kept for writing it back) ------------------------------------------


@attrs.frozen
class Section:
    """One side of a map sheet as written in its file; `name` is the file name without `.toml`."""

    name: str
    terrain: tuple[str, ...]  # five rows of letters, west to east, e.g. "HCCCCCCC"
    title: str = ""
    north: str = "C" * 7  # half-hexes along the north edge, west to east
    south: str = "C" * 7
    west: str = "CC"  # west ends of rows B and D
    east: str = "CC"
    roads: tuple[tuple[str, ...], ...] = ()  # each road: its hexes in order
    streams: tuple[tuple[str, ...], ...] = ()  # each entry: one or more hexsides "B2/B3" or "B2/SE"
    notes: tuple[str, ...] = ()  # the comment lines at the top of the file


@attrs.frozen
class Placement:
    """A section in a quadrant, maybe turned 180 degrees."""

    section: str
    turned: bool = False

    def __str__(self) -> str:
        return f"{self.section} turned" if self.turned else self.section


@attrs.frozen
class Configuration:
    """Four sections and the objective, as written in a configuration file."""

    nw: Placement
    ne: Placement
    sw: Placement
    se: Placement
    number: int | None = None
    title: str = ""
    objective: str | None = None
    roads: tuple[tuple[str, ...], ...] = ()  # extra roads, in the assembled map's labels
    streams: tuple[tuple[str, ...], ...] = ()
    notes: tuple[str, ...] = ()

    def placements(self) -> dict[str, Placement]:
        return {q: getattr(self, q) for q in QUADRANTS}


@attrs.frozen
class MapDoc:
    """A free map as written in its file (also what an inline board of a rules test says)."""

    terrain: tuple[str, ...]  # rows of letters
    shift: int = 0  # 1 if row A is indented
    title: str = ""
    roads: tuple[tuple[str, ...], ...] = ()
    streams: tuple[tuple[str, ...], ...] = ()
    objective: str | None = None
    notes: tuple[str, ...] = ()


Document = Section | Configuration | MapDoc


# --- the grid -------------------------------------------------------------------------------------


@attrs.frozen
class _Row:
    line: int  # line index within the grid text
    lead: int  # leading spaces
    cells: tuple[tuple[int, str], ...]  # (character index, letter)
    end: int  # character index after the row's last character


def _letter_hint(char: str) -> str:
    if char.upper() in _LETTERS:
        return f"terrain letters are capitals: '{char.upper()}' ({Terrain(char.upper()).name.lower()})"
    if char == "#":
        return "comments cannot go inside the grid; put them above the key"
    if char in ".-_":
        return "every hex needs a terrain letter (C for clear)"
    return f"terrain letters: {LETTERS_HELP}"


def _read_cells(
    line: str, i: int, at: Callable[[int, int], Spot], where: _Where, what: str
) -> tuple[int, list[tuple[int, str]], int]:
    """One line of letters separated by single spaces: (leading spaces, cells, end); problems noted."""
    if "\t" in line:
        where.add(
            at(i, line.index("\t")),
            f"a tab in the {what}",
            "use spaces: an indented row starts with one space",
        )
        line = line.replace("\t", " ")
    body = line.rstrip()
    lead = len(body) - len(body.lstrip(" "))
    cells: list[tuple[int, str]] = []
    k = lead
    while k < len(body):
        if body[k] == " ":
            j = k
            while body[j] == " ":
                j += 1
            where.add(
                at(i, k), f"more than one space between hexes in the {what}", "separate hexes with one space"
            )
            k = j
            continue
        char = body[k]
        if char not in _LETTERS:
            where.add(at(i, k), f"unknown terrain letter {char!r}", _letter_hint(char))
        cells.append((k, char))
        if k + 1 < len(body) and body[k + 1] != " ":
            where.add(
                at(i, k + 1), "two hexes without a space between them", "separate hexes with one space: 'C C'"
            )
            k += 1
        else:
            k += 2
    return lead, cells, len(body)


def _read_grid(text: str, at: Callable[[int, int], Spot], where: _Where) -> tuple[list[_Row], int]:
    """The rows of a grid (blank lines skipped and reported); also the index of the line after the grid."""
    lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    rows = []
    for i, line in enumerate(lines):
        if not line.strip():
            where.add(
                at(i, 0), "blank line inside the grid", "remove it: every line is a row, the first is row A"
            )
            continue
        lead, cells, end = _read_cells(line, i, at, where, "grid")
        rows.append(_Row(i, lead, tuple(cells), end))
    return rows, len(lines)


def _row_length_problem(row: _Row, want: int, at: Callable[[int, int], Spot]) -> Spot:
    return at(row.line, row.cells[want][0]) if len(row.cells) > want else at(row.line, row.end)


def _check_indent(
    row: _Row, index: int, indented: bool, at: Callable[[int, int], Spot], where: _Where
) -> None:
    name = row_letters(index)
    if indented and row.lead != 1:
        where.add(at(row.line, 0), f"row {name} is an indented row: start it with exactly one space")
    elif not indented and row.lead != 0:
        where.add(at(row.line, 0), f"row {name} is a long row: start it in the first column, without spaces")


def _section_grid(rows: list[_Row], after: int, at: Callable[[int, int], Spot], where: _Where) -> None:
    for index, row in enumerate(rows[: len(SECTION_ROWS)]):
        _check_indent(row, index, index % 2 == 1, at, where)
        want = SECTION_ROWS[index]
        if len(row.cells) != want:
            name = row_letters(index)
            where.add(
                _row_length_problem(row, want, at),
                f"row {name} has {len(row.cells)} hexes; row {name} of a section has {want}",
                "a section's rows have 8, 7, 8, 7, 8 hexes",
            )
    if len(rows) < len(SECTION_ROWS):
        where.add(
            at(after, 0),
            f"the grid has {len(rows)} rows; a section has 5 (A-E)" if rows else "the grid is empty",
            "five rows of 8, 7, 8, 7, 8 letters; an indented row starts with one space",
        )
    elif len(rows) > len(SECTION_ROWS):
        where.add(
            at(rows[5].line, 0), "a section has only 5 rows (A-E); this is a sixth", "remove the extra row"
        )


def _free_grid(rows: list[_Row], after: int, at: Callable[[int, int], Spot], where: _Where) -> int:
    """Check a free board's shape (rows alternate long and indented, same lengths); returns its shift."""
    if not rows:
        where.add(at(after, 0), "the grid is empty", "one line of terrain letters per row, like 'C C C'")
        return 0
    shift = 1 if rows[0].lead == 1 else 0
    first: dict[bool, tuple[int, int]] = {}  # indented? -> (row index, length)
    for index, row in enumerate(rows):
        indented = is_indented(index, shift)
        _check_indent(row, index, indented, at, where)
        if indented not in first:
            first[indented] = (index, len(row.cells))
            continue
        ref_index, ref_length = first[indented]
        if len(row.cells) != ref_length:
            kind = "indented" if indented else "long"
            where.add(
                _row_length_problem(row, ref_length, at),
                f"row {row_letters(index)} has {len(row.cells)} hexes but row {row_letters(ref_index)} has "
                f"{ref_length}",
                f"all {kind} rows need the same number of hexes",
            )
    if True in first and False in first:
        (ind_index, ind_length), (_, long_length) = first[True], first[False]
        if ind_length not in (long_length, long_length - 1):
            where.add(
                _row_length_problem(rows[ind_index], long_length, at),
                f"indented rows have {ind_length} hexes and long rows {long_length}",
                "an indented row has as many hexes as a long row, or one fewer",
            )
    return shift


def _row_letters(rows: list[_Row]) -> tuple[str, ...]:
    return tuple("".join(char for _, char in row.cells) for row in rows)


def _grid_terrain(rows: Sequence[str], shift: int) -> dict[Hex, Terrain]:
    """Rows of letters to terrain per hex (letters must be valid)."""
    cells = {}
    for y, letters in enumerate(rows):
        indent = 1 if is_indented(y, shift) else 0
        for n, letter in enumerate(letters):
            cells[from_doubled(2 * n + indent, y, shift)] = _LETTERS[letter]
    return cells


# --- frames: which labels mean which hex ----------------------------------------------------------------

FULL, HALF, BEYOND = "full", "half", "beyond"
_LABEL = re.compile(r"^([A-Z]+)([0-9]{1,6})(?::(NE|NW|SE|SW|E|W))?$")


@attrs.frozen
class _Frame:
    """The hexes labels can name in one file: full hexes, half-hexes and (sections) hexes beyond an edge."""

    shift: int
    cells: Mapping[Hex, str]
    what: str  # "this section", "this map", ...

    def number(self, hex_: Hex) -> int:
        x = 2 * hex_.q + hex_.r + self.shift
        return (x - (1 if is_indented(hex_.r, self.shift) else 0)) // 2 + 1

    def row_hint(self, row: int) -> str:
        full_rows = sorted({h.r for h, kind in self.cells.items() if kind == FULL})
        numbers = sorted(self.number(h) for h, kind in self.cells.items() if kind == FULL and h.r == row)
        if not numbers:
            return f"rows run from A to {row_letters(full_rows[-1])}" if full_rows else ""
        name = row_letters(row)
        return f"row {name} runs from {name}{numbers[0]} to {name}{numbers[-1]}"


class _Bad(Exception):
    """A label or hexside that names nothing; `char` points into the token."""

    def __init__(self, message: str, hint: str = "", char: int = 0, missing: bool = False) -> None:
        super().__init__(message)
        self.message, self.hint, self.char, self.missing = message, hint, char, missing


#: Locates character `char` of token `t` of entry `i` of a list of strings (roads, streams).
EntrySpot = Callable[[int, int, int], Spot]


def _nowhere(*_: int) -> Spot:
    return (0, 0)


def _resolve(token: str, frame: _Frame) -> Hex:
    """A label (`B3`, `B0`, `A3:NW`) to a hex of the frame; _Bad otherwise."""
    match = _LABEL.match(token.upper())
    if not match:
        raise _Bad(
            f"'{token}' is not a hex label", "a row letter and a number, like B3 (or B3:NW for a neighbour)"
        )
    letters, number, facing = match.groups()
    row = row_index(letters)
    x = 2 * (int(number) - 1) + (1 if is_indented(row, frame.shift) else 0)
    hex_ = from_doubled(x, row, frame.shift)
    if facing:
        hex_ = hex_ + Facing[facing].value
    if hex_ not in frame.cells:
        raise _Bad(f"there is no hex {token.upper()} on {frame.what}", frame.row_hint(row), missing=True)
    return hex_


def _link_problem(a: Hex, b: Hex, frame: _Frame, what: str) -> str:
    """Why a road link / stream side between two frame hexes is not allowed, or ''."""
    if distance(a, b) != 1:
        return "not adjacent"
    kinds = {frame.cells[a], frame.cells[b]}
    if BEYOND in kinds and (kinds != {FULL, BEYOND} or a.r != b.r):
        return f"a {what} can only cross a section's west or east edge from the end hex of a long row"
    return ""


def _label_of(frame: _Frame) -> Callable[[Hex], str]:
    def name(hex_: Hex) -> str:
        if hex_.r >= 0:
            return f"{row_letters(hex_.r)}{frame.number(hex_)}"
        below = hex_ + Facing.SE.value
        return f"{row_letters(below.r)}{frame.number(below)}:NW"

    return name


def _between_hint(a: Hex, b: Hex, frame: _Frame) -> str:
    if distance(a, b) == 2:
        middle = [h for h in (a + f.value for f in FACINGS) if distance(h, b) == 1 and h in frame.cells]
        if middle:
            names = " or ".join(_label_of(frame)(h) for h in middle)
            return f"list every hex the road passes through, in order: {names} lies between them"
    return "consecutive hexes of a road must be neighbours"


def _parse_roads(
    roads: Sequence[Sequence[str]], frame: _Frame, spot: EntrySpot, where: _Where
) -> set[frozenset[Hex]]:
    """Road paths (each a list of labels) to road links; every problem noted in `where`."""
    links: set[frozenset[Hex]] = set()
    for i, road in enumerate(roads):
        if len(road) < 2:
            where.add(
                spot(i, 0, 0), "a road needs at least two hexes", 'list the hexes it runs through: "A1 A2 B2"'
            )
        previous: tuple[Hex, str] | None = None
        for t, token in enumerate(road):
            try:
                hex_ = _resolve(token, frame)
            except _Bad as bad:
                where.add(spot(i, t, bad.char), bad.message, bad.hint)
                previous = None
                continue
            if previous is not None:
                problem = _link_problem(previous[0], hex_, frame, "road")
                if problem == "not adjacent":
                    where.add(
                        spot(i, t, 0),
                        f"the road jumps from {previous[1].upper()} to {token.upper()}: not adjacent",
                        _between_hint(previous[0], hex_, frame),
                    )
                elif problem:
                    where.add(spot(i, t, 0), problem)
                else:
                    links.add(frozenset((previous[0], hex_)))
            previous = (hex_, token)
    return links


def _parse_streams(
    streams: Sequence[Sequence[str]], frame: _Frame, spot: EntrySpot, where: _Where
) -> set[frozenset[Hex]]:
    """Hexsides (`B2/B3` or `B2/SE`) to stream sides; every problem noted in `where`."""
    sides: set[frozenset[Hex]] = set()
    hint = "name the hexside by the hexes on both sides, like B2/B3, or a hex and a side, like B2/SE"
    for i, entry in enumerate(streams):
        for t, token in enumerate(entry):
            parts = token.split("/")
            if len(parts) != 2 or not all(parts):
                where.add(spot(i, t, 0), f"'{token}' is not a hexside", hint)
                continue
            first, second = parts[0].upper(), parts[1].upper()
            try:
                a = _resolve(parts[0], frame)
                if second in Facing.__members__:
                    b = a + Facing[second].value
                    if b not in frame.cells:
                        raise _Bad(
                            f"the {second} side of {first} is the edge of {frame.what}: no hexside there",
                            "a stream lies between two hexes (half-hexes count)",
                            len(first) + 1,
                        )
                else:
                    try:
                        b = _resolve(parts[1], frame)
                    except _Bad as bad:
                        bad.char = len(first) + 1
                        raise
            except _Bad as bad:
                where.add(spot(i, t, bad.char), bad.message, bad.hint)
                continue
            problem = _link_problem(a, b, frame, "stream")
            if problem == "not adjacent":
                where.add(
                    spot(i, t, 0),
                    f"{first} and {second} are not adjacent: no hexside lies between them",
                    hint,
                )
            elif problem:
                where.add(spot(i, t, 0), problem)
            else:
                sides.add(frozenset((a, b)))
    return sides


def _parse_objective(text: str, frame: _Frame, spot: Spot, where: _Where) -> Hex | None:
    name = text.strip().upper()
    try:
        hex_ = _resolve(text.strip(), frame)
    except _Bad as bad:
        message = f"the objective {name} is off {frame.what}" if bad.missing else f"objective: {bad.message}"
        where.add(spot, message, bad.hint)
        return None
    if frame.cells[hex_] != FULL:
        where.add(
            spot,
            f"the objective {name} is a half-hex at the edge of {frame.what}",
            "the objective must be a full hex that units can reach",
        )
        return None
    return hex_


# --- reading the keys of a document ---------------------------------------------------------------------

_COMMON_KEYS = ("kind", "title")
_KEYS = {
    "section": (*_COMMON_KEYS, "terrain", "roads", "streams", "half-hexes"),
    "configuration": (*_COMMON_KEYS, "number", *QUADRANTS, "objective", "roads", "streams"),
    "map": (*_COMMON_KEYS, "terrain", "roads", "streams", "objective"),
}


def _string(data: Mapping[str, Any], key: str, where: _Where, *, required: bool = False) -> str | None:
    value = data.get(key)
    if value is None:
        if required:
            where.add((1, 1) if where.locator else (0, 0), f"missing '{key}'", f'add {key} = "..."')
        return None
    if not isinstance(value, str):
        where.add(where.value(key), f"'{key}' must be a string in quotes", f'{key} = "..."')
        return None
    return value


def _tokens(text: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group()) for m in re.finditer(r"\S+", text)]


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def _string_list(data: Mapping[str, Any], key: str, where: _Where) -> tuple[tuple[str, ...], ...]:
    """A list of strings, each split into tokens; bad entries reported (and left out)."""
    value = data.get(key)
    if value is None:
        return ()
    example = '["A1 A2 B2"]' if key == "roads" else '["B2/B3"]'
    if not isinstance(value, list):
        where.add(where.value(key), f"'{key}' must be a list of strings", f"{key} = {example}")
        return ()
    result = []
    for index, item in enumerate(value):
        if not isinstance(item, str):
            where.add(
                where.item(key, index), f"entry {index + 1} of '{key}' is not a string", f"{key} = {example}"
            )
            continue
        if not item.strip():
            where.add(where.item(key, index), f"entry {index + 1} of '{key}' is empty", "remove it")
            continue
        result.append(_split(item))
    return tuple(result)


def _entry_spot(data: Mapping[str, Any], key: str, where: _Where) -> EntrySpot:
    """Locates entry i (counting the good entries, as `_string_list` returns them), token t, char c."""
    value = data.get(key)
    raw = value if isinstance(value, list) else []
    good = [n for n, item in enumerate(raw) if isinstance(item, str) and item.strip()]

    def spot(i: int, t: int, c: int) -> Spot:
        if i >= len(good):
            return where.value(key)
        tokens = _tokens(raw[good[i]])
        start = tokens[t][0] if t < len(tokens) else 0
        return where.item(key, good[i], start + c)

    return spot


def _check_keys(data: Mapping[str, Any], allowed: Sequence[str], where: _Where, table: str = "") -> None:
    for key in data:
        if key in allowed:
            continue
        place = f" in [{table}]" if table else ""
        hint = did_you_mean(key, list(allowed))
        if table and key in _KEYS["section"] + _KEYS["configuration"] + _KEYS["map"]:
            hint = "keys after a [table] header belong to that table: move it above the header"
        where.add(where.key(key), f"unknown key '{key}'{place}", hint or f"known keys: {', '.join(allowed)}")


def _notes(text: str) -> tuple[str, ...]:
    """The comment lines at the top of a file, kept so that writing the file back keeps them."""
    notes = []
    for line in text.split("\n"):
        stripped = line.rstrip("\r").rstrip()
        if stripped.startswith("#") or not stripped:
            notes.append(stripped)
            continue
        break
    while notes and not notes[-1]:
        notes.pop()
    while notes and not notes[0]:
        notes.pop(0)
    return tuple(notes)


def _kind(data: Mapping[str, Any], where: _Where, expected: str | None) -> str | None:
    kind = data.get("kind")
    if kind is None:
        guess = expected or "section"
        where.add(
            (1, 1),
            "missing 'kind'",
            f'say what the file is at the top: kind = "{guess}" (section, configuration or map)',
        )
        return None
    if not isinstance(kind, str) or kind not in KINDS:
        hint = did_you_mean(str(kind), KINDS) or "section, configuration or map"
        where.add(where.value("kind"), f"unknown kind {kind!r}", hint)
        return None
    if expected and kind != expected:
        where.add(
            where.value("kind"), f"this is a {kind} file, not a {expected}", f"give a {expected} file here"
        )
        return None
    return kind


def parse_document(text: str, file: str, *, expected: str | None = None) -> Document:
    """A section, configuration or map file's text to its document; MinisError with every problem."""
    data = parse_toml(text, file)
    where = _Where(file, _Locator(text))
    kind = _kind(data, where, expected)
    if kind is None:
        where.raise_if_any()
    _check_keys(data, _KEYS[str(kind)], where)
    title = _string(data, "title", where) or ""
    notes = _notes(text)
    document: Document | None
    if kind == "section":
        document = _read_section(data, where, Path(file).stem, title, notes)
    elif kind == "configuration":
        folder = Path(file).parent.parent / "sections" if Path(file).is_file() else None
        document = _read_configuration(data, where, title, notes, folder)
    else:
        document = _read_map(data, where, title, notes)
    where.raise_if_any()
    assert document is not None
    return document


def _read_halves(data: Mapping[str, Any], where: _Where) -> dict[str, str]:
    table = data.get("half-hexes")
    halves = {side: "C" * count for side, count in HALF_SIDES.items()}
    if table is None:
        return halves
    if not isinstance(table, dict):
        where.add(
            where.value("half-hexes"),
            "'half-hexes' must be a table",
            "[half-hexes] with north, south, west, east",
        )
        return halves
    inner = where.within("half-hexes")
    _check_keys(table, tuple(HALF_SIDES), inner, "half-hexes")
    for side, count in HALF_SIDES.items():
        value = table.get(side)
        if value is None:
            continue
        if not isinstance(value, str):
            inner.add(
                inner.value(side),
                f"'{side}' must be a string of terrain letters",
                f'{side} = "{" ".join("C" * count)}"',
            )
            continue
        at = lambda i, k, side=side: inner.item(side, None, k)  # noqa: E731
        lead, cells, end = _read_cells(value, 0, at, inner, f"{side} half-hexes")
        if lead:
            inner.add(at(0, 0), f"'{side}' starts with a space", "write the letters from the first character")
        if len(cells) != count:
            where_ = at(0, cells[count][0]) if len(cells) > count else at(0, end)
            inner.add(
                where_,
                f"{len(cells)} {side} half-hexes; a section has {count}",
                f'{side} = "{" ".join("C" * count)}" (west to east'
                + (", rows B and D)" if count == 2 else ")"),
            )
            continue
        if all(char in _LETTERS for _, char in cells):
            halves[side] = "".join(char for _, char in cells)
    return halves


def _read_section(
    data: Mapping[str, Any], where: _Where, name: str, title: str, notes: tuple[str, ...]
) -> Section | None:
    grid = _string(data, "terrain", where, required=True)
    halves = _read_halves(data, where)
    roads = _string_list(data, "roads", where)
    streams = _string_list(data, "streams", where)
    frame = _Frame(0, section_frame(), "this section")
    _parse_roads(roads, frame, _entry_spot(data, "roads", where), where)
    _parse_streams(streams, frame, _entry_spot(data, "streams", where), where)
    if grid is None:
        return None
    before = len(where.problems)
    at = where.block("terrain")
    rows, after = _read_grid(grid, at, where)
    _section_grid(rows, after, at, where)
    if len(where.problems) > before:
        return None
    return Section(
        name=name,
        terrain=_row_letters(rows),
        title=title,
        roads=roads,
        streams=streams,
        notes=notes,
        **halves,
    )


def _read_placement(data: Mapping[str, Any], quadrant: str, where: _Where) -> Placement | None:
    value = _string(data, quadrant, where)
    if value is None:
        if quadrant not in data:
            where.add(
                (1, 1),
                f"missing '{quadrant}': the {QUADRANT_NAMES[quadrant]} section",
                f'{quadrant} = "able-1" (or "able-1 turned")',
            )
        return None
    words = value.split()
    if not words or len(words) > 2 or (len(words) == 2 and words[1] != "turned"):
        extra = words[1] if len(words) == 2 else ""
        hint = did_you_mean(extra, ["turned"]) if extra else ""
        where.add(
            where.item(quadrant, None),
            f"'{value}' is not a section placement",
            hint or 'the section\'s file name, then "turned" if it is turned 180 degrees: "dog-1 turned"',
        )
        return None
    return Placement(words[0], len(words) == 2)


def _read_configuration(
    data: Mapping[str, Any], where: _Where, title: str, notes: tuple[str, ...], sections: Path | None
) -> Configuration | None:
    """Everything a configuration file can get wrong except seams: placements, sections (when the
    sections folder is known), objective, extra roads and streams, all checked in one pass."""
    number = data.get("number")
    if number is not None and (not isinstance(number, int) or isinstance(number, bool) or number < 1):
        where.add(where.value("number"), "'number' must be a whole number from 1", "number = 1")
        number = None
    placements = {q: _read_placement(data, q, where) for q in QUADRANTS}
    objective = _string(data, "objective", where)
    roads = _string_list(data, "roads", where)
    streams = _string_list(data, "streams", where)
    frame = _Frame(0, assembled_frame(), "the assembled map")
    _parse_roads(roads, frame, _entry_spot(data, "roads", where), where)
    _parse_streams(streams, frame, _entry_spot(data, "streams", where), where)
    if objective is not None:
        _parse_objective(objective, frame, where.item("objective", None), where)
    if sections is not None:
        _sections_for(placements, sections, where)
    if any(p is None for p in placements.values()):
        return None
    return Configuration(
        number=number,
        title=title,
        objective=objective,
        roads=roads,
        streams=streams,
        notes=notes,
        **placements,  # type: ignore[arg-type]
    )


def _read_map(data: Mapping[str, Any], where: _Where, title: str, notes: tuple[str, ...]) -> MapDoc | None:
    grid = _string(data, "terrain", where, required=True)
    objective = _string(data, "objective", where)
    roads = _string_list(data, "roads", where)
    streams = _string_list(data, "streams", where)
    if grid is None:
        return None
    doc, _ = _board_parts(
        grid,
        where.block("terrain"),
        where,
        roads,
        streams,
        objective,
        _entry_spot(data, "roads", where),
        _entry_spot(data, "streams", where),
        where.item("objective", None),
        title=title,
        notes=notes,
    )
    return doc


def _board_parts(
    grid: str,
    at: Callable[[int, int], Spot],
    where: _Where,
    roads: tuple[tuple[str, ...], ...],
    streams: tuple[tuple[str, ...], ...],
    objective: str | None,
    road_spot: EntrySpot,
    stream_spot: EntrySpot,
    objective_spot: Spot,
    *,
    title: str = "",
    notes: tuple[str, ...] = (),
) -> tuple[MapDoc | None, Board | None]:
    """A free board from its grid, roads, streams and objective; problems go to `where`."""
    before = len(where.problems)
    rows, after = _read_grid(grid, at, where)
    shift = _free_grid(rows, after, at, where)
    if len(where.problems) > before:
        return None, None
    letters = _row_letters(rows)
    terrain = _grid_terrain(letters, shift)
    frame = _Frame(shift, {h: FULL for h in terrain}, "this map")
    road_links = _parse_roads(roads, frame, road_spot, where)
    stream_sides = _parse_streams(streams, frame, stream_spot, where)
    goal = _parse_objective(objective, frame, objective_spot, where) if objective is not None else None
    if len(where.problems) > before:
        return None, None
    doc = MapDoc(
        terrain=letters,
        shift=shift,
        title=title,
        roads=roads,
        streams=streams,
        objective=objective.strip() if objective is not None else None,
        notes=notes,
    )
    board = Board.create(
        terrain,
        streams=stream_sides,
        roads=road_links,
        objective=goal,
        shift=shift,
        name=title,
        source=where.file,
    )
    return doc, board


# --- sections: geometry -------------------------------------------------------------------------------


@attrs.frozen
class SectionGeometry:
    """A section in its own frame (as the unturned NW quadrant): every hex, the half-hexes, the links."""

    terrain: Mapping[Hex, Terrain]  # full hexes, half-hexes and the four corner quarter-hexes
    halves: frozenset[Hex]
    roads: Links  # may reach the hexes just beyond the west and east edges (see BEYOND)
    streams: Links


def section_frame() -> dict[Hex, str]:
    """Every hex a section's labels can name, with its kind (full, half, beyond)."""
    cells: dict[Hex, str] = {}
    for y, count in enumerate(SECTION_ROWS):
        indent = y % 2
        for n in range(count):
            cells[from_doubled(2 * n + indent, y)] = FULL
        if indent:
            cells[from_doubled(-1, y)] = cells[from_doubled(15, y)] = HALF
        else:
            cells[from_doubled(-2, y)] = cells[from_doubled(16, y)] = BEYOND
    for y in (-1, 5):
        for x in range(-1, 16, 2):
            cells[from_doubled(x, y)] = HALF
    return cells


def _half_positions() -> dict[str, list[Hex]]:
    return {
        "north": [from_doubled(2 * k + 1, -1) for k in range(7)],
        "south": [from_doubled(2 * k + 1, 5) for k in range(7)],
        "west": [from_doubled(-1, 1), from_doubled(-1, 3)],
        "east": [from_doubled(15, 1), from_doubled(15, 3)],
    }


def _section_geometry(section: Section, where: _Where) -> SectionGeometry:
    cells = section_frame()
    frame = _Frame(0, cells, "this section")
    roads = _parse_roads(section.roads, frame, _nowhere, where)
    streams = _parse_streams(section.streams, frame, _nowhere, where)
    terrain = {h: Terrain.CLEAR for h, kind in cells.items() if kind == HALF}
    terrain.update(_grid_terrain(section.terrain, 0))
    for side, hexes in _half_positions().items():
        for hex_, letter in zip(hexes, getattr(section, side), strict=True):
            terrain[hex_] = _LETTERS[letter]
    halves = frozenset(h for h, kind in cells.items() if kind == HALF)
    return SectionGeometry(terrain, halves, frozenset(roads), frozenset(streams))


@functools.lru_cache(maxsize=64)
def section_geometry(section: Section) -> SectionGeometry:
    """The geometry of a section; MinisError if its roads or streams are wrong."""
    where = _Where(f"section {section.name}", None)
    for side, count in HALF_SIDES.items():
        letters = getattr(section, side)
        if len(letters) != count or any(c not in _LETTERS for c in letters):
            where.add((0, 0), f"the {side} half-hexes must be {count} terrain letters, not {letters!r}")
    lengths = tuple(len(row) for row in section.terrain)
    if lengths != SECTION_ROWS or any(c not in _LETTERS for row in section.terrain for c in row):
        where.add((0, 0), f"a section's rows are 8, 7, 8, 7, 8 terrain letters, not {list(section.terrain)}")
    where.raise_if_any()
    geometry = _section_geometry(section, where)
    where.raise_if_any()
    return geometry


def section_board(section: Section) -> Board:
    """A section on its own, as a board (five rows, its ring of half-hexes; roads beyond the edge cut)."""
    geometry = section_geometry(section)
    keep = geometry.terrain.keys()
    return Board.create(
        geometry.terrain,
        half_hexes=geometry.halves,
        streams=[s for s in geometry.streams if s <= keep],
        roads=[r for r in geometry.roads if r <= keep],
        name=section.title or section.name,
    )


# --- configurations: assembly ---------------------------------------------------------------------------


def place(hex_: Hex, quadrant: str, turned: bool) -> Hex:
    """Where a hex of a section's own frame lands on the assembled map."""
    x, y = 2 * hex_.q + hex_.r, hex_.r
    if turned:
        x, y = TURN_X - x, TURN_Y - y
    dx, dy = QUADRANT_OFFSETS[quadrant]
    return from_doubled(x + dx, y + dy)


def _is_inside(hex_: Hex) -> bool:
    west, east, north, south = MAP_EDGES
    x, y = 2 * hex_.q + hex_.r, hex_.r
    return west < x < east and north < y < south


def assembled_frame() -> dict[Hex, str]:
    """Every hex of the assembled map (full and half) with its kind."""
    cells: dict[Hex, str] = {}
    for quadrant in QUADRANTS:
        for hex_, kind in section_frame().items():
            if kind != BEYOND:
                placed = place(hex_, quadrant, False)
                cells[placed] = FULL if _is_inside(placed) else HALF
    return cells


def assemble(
    configuration: Configuration,
    sections: Mapping[str, Section],
    *,
    where: _Where | None = None,
    spots: Mapping[str, EntrySpot] | None = None,
    name: str = "",
) -> Board:
    """The battle map of a configuration from its four sections. MinisError for seams that disagree,
    bad extra roads/streams or a bad objective (located in the configuration file when `where` is given)."""
    where = where or _Where("configuration", None)
    contributions: dict[Hex, list[tuple[Terrain, bool, str]]] = {}
    roads: set[frozenset[Hex]] = set()
    streams: set[frozenset[Hex]] = set()
    for quadrant, placement in configuration.placements().items():
        geometry = section_geometry(sections[placement.section])
        for hex_, terrain in geometry.terrain.items():
            placed = place(hex_, quadrant, placement.turned)
            contributions.setdefault(placed, []).append((terrain, hex_ not in geometry.halves, quadrant))
        for links, target in ((geometry.roads, roads), (geometry.streams, streams)):
            for link in links:
                target.add(frozenset(place(h, quadrant, placement.turned) for h in link))

    terrain: dict[Hex, Terrain] = {}
    halves = set()
    for hex_, parts in contributions.items():
        full = [t for t, is_full, _ in parts if is_full]
        if full:
            terrain[hex_] = full[0]
            continue
        if not _is_inside(hex_):
            halves.add(hex_)
        kinds = {t for t, _, _ in parts} - {Terrain.CLEAR}
        if len(kinds) > 1 and _is_inside(hex_):
            described = ", ".join(
                f"{t.name.lower()} in {configuration.placements()[q].section}" for t, _, q in parts
            )
            where.add(
                where.value(parts[-1][2]),
                f"the seam hex {label(hex_)} is made of half-hexes that disagree: {described}",
                "give the half-hexes the same terrain (a clear half takes the other half's terrain)",
            )
        terrain[hex_] = kinds.pop() if len(kinds) == 1 else Terrain.CLEAR

    frame = _Frame(0, {h: (HALF if h in halves else FULL) for h in terrain}, "the assembled map")
    spots = spots or {}
    roads |= _parse_roads(configuration.roads, frame, spots.get("roads", _nowhere), where)
    streams |= _parse_streams(configuration.streams, frame, spots.get("streams", _nowhere), where)
    objective = None
    if configuration.objective is not None:
        objective = _parse_objective(configuration.objective, frame, where.item("objective", None), where)
    where.raise_if_any()
    keep = terrain.keys()
    return Board.create(
        terrain,
        half_hexes=halves,
        streams=[s for s in streams if s <= keep],
        roads=[r for r in roads if r <= keep],
        objective=objective,
        name=name or configuration.title,
        source=where.file,
    )


# --- loading ------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=128)
def _cached_document(path: str, stamp: tuple[int, int], expected: str | None) -> Document:
    return parse_document(read_text(path), path, expected=expected)


def read_document(path: Path | str, *, expected: str | None = None) -> Document:
    """The document in a file (cached until the file changes)."""
    path = Path(path)
    if not path.is_file():
        read_text(path)  # raises the unreadable-file error
    return _cached_document(str(path), _stamp(path), expected)


def load_section(path: Path | str) -> Section:
    document = read_document(path, expected="section")
    assert isinstance(document, Section)
    return document


def configuration_path(number: int) -> Path:
    """The file of configuration `number` in MAPS_DIR (named `N-title.toml`)."""
    folder = MAPS_DIR / "configurations"
    found = sorted(folder.glob(f"{number}-*.toml"))
    if len(found) != 1:
        known = sorted(p.name.split("-")[0] for p in folder.glob("*.toml"))
        message = (
            f"there is no configuration {number}"
            if not found
            else f"configuration {number} has {len(found)} files"
        )
        raise MinisError(
            Problem(str(folder), 0, 0, message, f"known: {' '.join(known)}" if known else ""),
            exit_code=EXIT_UNREADABLE,
        )
    return found[0]


def _sections_for(
    placements: Mapping[str, Placement | None], folder: Path, where: _Where
) -> dict[str, Section]:
    """Load the sections a configuration names from `folder`; a missing or broken one is a problem."""
    available = sorted(p.stem for p in folder.glob("*.toml")) if folder.is_dir() else []
    sections: dict[str, Section] = {}
    seen: set[str] = set()
    for quadrant, placement in placements.items():
        if placement is None or placement.section in seen:
            continue
        name = placement.section
        seen.add(name)
        file = folder / f"{name}.toml"
        if not file.is_file():
            where.add(
                where.item(quadrant, None),
                f"no section '{name}' (looked for {file})",
                did_you_mean(name, available) or (f"sections: {', '.join(available)}" if available else ""),
            )
            continue
        try:
            sections[name] = load_section(file)
        except MinisError as error:
            where.add(
                where.item(quadrant, None),
                f"section '{name}' cannot be used: {len(error.problems)} problem(s) in {file}",
                "run: minis map check " + str(file),
            )
    return sections


def configuration_board(path: Path | str) -> Board:
    """Read a configuration file and its sections, and assemble the battle map."""
    path = Path(path)
    text = read_text(path)
    document = parse_document(text, str(path), expected="configuration")
    assert isinstance(document, Configuration)
    where = _Where(str(path), _Locator(text))
    sections = _sections_for(document.placements(), path.parent.parent / "sections", where)
    where.raise_if_any()
    data = tomllib.loads(text)
    spots = {key: _entry_spot(data, key, where) for key in ("roads", "streams")}
    title = document.title
    name = f"Configuration {document.number}: {title}" if document.number else title
    return assemble(document, sections, where=where, spots=spots, name=name)


def _stamp(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return (stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=32)
def _cached_board(path: str, stamps: tuple[tuple[str, tuple[int, int]], ...]) -> Board:
    return configuration_board(path)


def load_configuration(number_or_path: int | str | Path) -> Board:
    """Configuration 1-6 by number (from MAPS_DIR), or a configuration file, assembled into a Board.

    Boards are cached until the configuration file or a file of its sections folder changes.
    """
    path = configuration_path(number_or_path) if isinstance(number_or_path, int) else Path(number_or_path)
    if not path.is_file():
        read_text(path)  # raises the unreadable-file error
    sections = path.parent.parent / "sections"
    files = sorted(sections.glob("*.toml")) if sections.is_dir() else []
    stamps = tuple((str(f), _stamp(f)) for f in [path, *files])
    return _cached_board(str(path), stamps)


def load_map(path: Path | str) -> Board:
    """A free map file as a Board."""
    document = read_document(path, expected="map")
    assert isinstance(document, MapDoc)
    return map_board(document, source=str(path))


def map_board(document: MapDoc, *, source: str = "") -> Board:
    """The Board of a free map document (MinisError if its contents are wrong)."""
    where = _Where(source or "map", None)
    grid = dump_grid(document.terrain, document.shift)
    _, board = _board_parts(
        grid,
        _nowhere,
        where,
        document.roads,
        document.streams,
        document.objective,
        _nowhere,
        _nowhere,
        (0, 0),
        title=document.title,
    )
    where.raise_if_any()
    assert board is not None
    return board


def load_board(spec: int | str | Path) -> Board:
    """A configuration number, or a section, configuration or map file, as a Board (the CLI's N)."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        return load_configuration(int(spec))
    document = read_document(spec)
    if isinstance(document, Configuration):
        return load_configuration(spec)
    if isinstance(document, Section):
        return section_board(document)
    return map_board(document, source=str(spec))


def check_file(path: Path | str) -> tuple[str, Board | None]:
    """Validate one file completely (a configuration with its sections); returns its kind and board."""
    document = read_document(path)
    if isinstance(document, Section):
        return "section", section_board(document)
    if isinstance(document, Configuration):
        return "configuration", configuration_board(path)
    return "map", load_map(path)


# --- inline boards (rules tests) ------------------------------------------------------------------------


def parse_board_text(
    grid: str,
    streams: Sequence[str] = (),
    roads: Sequence[str] = (),
    objective: str | None = None,
    *,
    file: str = "<board>",
    source: str | None = None,
    table: str | None = None,
) -> Board:
    """A Board from an inline grid (DESIGN section 6) with its streams, roads and objective.

    Problems are located in `source`, the text of the caller's TOML file, where the pieces are the keys
    `board`, `streams`, `roads` and `objective` (of `table` if they sit in one). Without `source` the grid's
    own lines are counted from 1.
    """
    locator = _Locator(source) if source is not None else None
    where = _Where(file, locator, table=table)
    data = {"streams": list(streams), "roads": list(roads)}
    bad = [k for k, v in data.items() if not all(isinstance(s, str) for s in v)]
    for key in bad:
        where.add(where.value(key), f"'{key}' must be a list of strings")
    where.raise_if_any()
    _, board = _board_parts(
        grid,
        where.block("board"),
        where,
        tuple(_split(s) for s in roads if s.strip()),
        tuple(_split(s) for s in streams if s.strip()),
        objective,
        _entry_spot(data, "roads", where),
        _entry_spot(data, "streams", where),
        where.item("objective", None),
    )
    where.raise_if_any()
    assert board is not None
    return board


def board_from_toml(table: Mapping[str, Any], source: str, file: str) -> Board:
    """The board a rules test describes: `board` (with `streams`, `roads`, `objective`) or `configuration`.

    `table` is the parsed file, `source` its text (for line and column), `file` its name.
    """
    where = _Where(file, _Locator(source))
    grid, number = table.get("board"), table.get("configuration")
    if (grid is None) == (number is None):
        where.add(
            where.key("configuration") if number is not None else (1, 1),
            'give either board = """...""" or configuration = N'
            if grid is None
            else "give board or configuration, not both",
        )
        where.raise_if_any()
    if number is not None:
        for key in ("streams", "roads", "objective"):
            if key in table:
                where.add(
                    where.key(key),
                    f"'{key}' only goes with an inline board",
                    "a configuration has its own roads, streams and objective",
                )
        if isinstance(number, bool) or not isinstance(number, int):
            where.add(
                where.value("configuration"),
                "'configuration' must be a number from 1 to 6",
                "configuration = 3",
            )
        where.raise_if_any()
        try:
            return load_configuration(int(number))
        except MinisError as error:
            problem = error.problems[0]
            where.add(where.value("configuration"), problem.message, problem.hint)
            where.raise_if_any()
    if not isinstance(grid, str):
        where.add(
            where.value("board"), "'board' must be a multi-line string", 'board = """\nC C C\n C C\n"""'
        )
    for key in ("streams", "roads"):
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
            where.add(where.value(key), f"'{key}' must be a list of strings")
    objective = table.get("objective")
    if objective is not None and not isinstance(objective, str):
        where.add(where.value("objective"), "'objective' must be a hex label in quotes", 'objective = "B2"')
    where.raise_if_any()
    return parse_board_text(
        grid, table.get("streams", []), table.get("roads", []), objective, file=file, source=source
    )


# --- writing ------------------------------------------------------------------------------------------


def dump_grid(rows: Sequence[str], shift: int = 0) -> str:
    """Rows of letters as grid text: letters separated by one space, an indented row starts with one."""
    return "".join(
        (" " if is_indented(y, shift) else "") + " ".join(row) + "\n" for y, row in enumerate(rows)
    )


def _quote(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's; DEL must be escaped too)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _dump_list(key: str, entries: Sequence[Sequence[str]]) -> str:
    if not entries:
        return ""
    lines = "".join(f"    {_quote(' '.join(entry))},\n" for entry in entries)
    return f"{key} = [\n{lines}]\n"


def _header(notes: Sequence[str], kind: str, title: str) -> str:
    text = "".join(f"{line}\n" for line in notes)
    text += "\n" if notes else ""
    text += f'kind = "{kind}"\n'
    return text + (f"title = {_quote(title)}\n" if title else "")


def dump(document: Document) -> str:
    """A document as canonical file text: what the project's map files look like, byte for byte."""
    if isinstance(document, Section):
        text = _header(document.notes, "section", document.title)
        text += f'terrain = """\n{dump_grid(document.terrain)}"""\n'
        text += _dump_list("roads", document.roads) + _dump_list("streams", document.streams)
        halves = {side: getattr(document, side) for side in HALF_SIDES}
        if any(set(letters) != {"C"} for letters in halves.values()):
            text += "\n[half-hexes]\n"
            text += "".join(f"{side} = {_quote(' '.join(letters))}\n" for side, letters in halves.items())
        return text
    if isinstance(document, Configuration):
        text = _header(document.notes, "configuration", "")
        text += f"number = {document.number}\n" if document.number is not None else ""
        text += f"title = {_quote(document.title)}\n" if document.title else ""
        text += "".join(f"{q} = {_quote(str(p))}\n" for q, p in document.placements().items())
        text += f"objective = {_quote(document.objective)}\n" if document.objective is not None else ""
        return text + _dump_list("roads", document.roads) + _dump_list("streams", document.streams)
    text = _header(document.notes, "map", document.title)
    text += f'terrain = """\n{dump_grid(document.terrain, document.shift)}"""\n'
    text += _dump_list("roads", document.roads) + _dump_list("streams", document.streams)
    return text + (f"objective = {_quote(document.objective)}\n" if document.objective is not None else "")


def board_rows(board: Board) -> tuple[str, ...]:
    """The terrain letters of a board's full hexes, row by row (west to east)."""
    return tuple("".join(board.terrain(h).value for h in board.row(r)) for r in range(board.rows))


def terrain_lines(board: Board) -> list[str]:
    """The board as in the reference: row letter, a space, one more for an indented row, the letters."""
    width = len(row_letters(board.rows - 1))
    return [
        f"{row_letters(r):<{width}} " + (" " if board.is_indented(r) else "") + " ".join(letters)
        for r, letters in enumerate(board_rows(board))
    ]


def _chain(links: Iterable[frozenset[Hex]], order: Callable[[Hex], Any]) -> list[list[Hex]]:
    """Join road links into as few paths as a simple greedy walk finds (for writing a map file)."""
    remaining = {link for link in links}
    paths = []
    while remaining:
        degree: dict[Hex, int] = {}
        for link in remaining:
            for h in link:
                degree[h] = degree.get(h, 0) + 1
        start = min(degree, key=lambda h: (degree[h] != 1, order(h)))
        path = [start]
        while True:
            options = sorted(
                (link for link in remaining if path[-1] in link),
                key=lambda link: order(next(iter(link - {path[-1]}))),
            )
            if not options:
                break
            link = options[0]
            remaining.discard(link)
            path.append(next(iter(link - {path[-1]})))
        paths.append(path)
    return paths


def map_document(board: Board, *, title: str | None = None) -> MapDoc:
    """A board as a free map document (for saving a board, e.g. from the editor).

    A free map has no half-hexes, so they and any road or stream touching them are left out.
    """
    full = set(board.hexes)
    lengths = {r: len(board.row(r)) for r in range(board.rows)}
    for r in range(board.rows):
        row = board.row(r)
        xs = [board.doubled_of(h)[0] for h in row]
        indent = 1 if board.is_indented(r) else 0
        if xs != list(range(indent, indent + 2 * len(row), 2)):
            raise ValueError(
                f"row {row_letters(r)} has gaps or does not start at the west edge; "
                f"a map file cannot hold it ({lengths})"
            )
    order = board.index
    roads = _chain((link for link in board.roads if link <= full), order)
    streams = sorted(
        (sorted(side, key=order) for side in board.streams if side <= full),
        key=lambda pair: (order(pair[0]), order(pair[1])),
    )
    return MapDoc(
        terrain=board_rows(board),
        shift=board.shift,
        title=board.name if title is None else title,
        roads=tuple(tuple(board.label(h) for h in path) for path in roads),
        streams=tuple((f"{board.label(a)}/{board.label(b)}",) for a, b in streams),
        objective=board.label(board.objective) if board.objective is not None else None,
    )
