"""The terrain grid of a map file: rows of terrain letters separated by single spaces, indented rows
starting with one space. Every problem is placed on its character (`GridSpot`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from minis.base.limits import MAX_MAP_COLUMNS, MAX_MAP_ROWS
from minis.base.tomlfile import Spot
from minis.hexgrid import Hex, from_doubled, is_indented, row_letters
from minis.mapfile.documents import SECTION_ROWS
from minis.mapfile.syntax import Where
from minis.terrain import LETTERS_HELP, Terrain

_TOO_BIG = f"the largest map has {MAX_MAP_ROWS} rows of {MAX_MAP_COLUMNS} hexes"

#: The terrain of each letter a grid may hold.
TERRAIN_LETTERS = {t.value: t for t in Terrain}

#: Locates character k of line i of a grid (or of a one-line string of letters).
GridSpot = Callable[[int, int], Spot]


@attrs.frozen
class Row:
    line: int  # line index within the grid text
    lead: int  # leading spaces
    cells: tuple[tuple[int, str], ...]  # (character index, letter)
    end: int  # character index after the row's last character


def _letter_hint(char: str) -> str:
    if char.upper() in TERRAIN_LETTERS:
        return f"terrain letters are capitals: '{char.upper()}' ({Terrain(char.upper()).name.lower()})"
    if char == "#":
        return "comments cannot go inside the grid; put them above the key"
    if char in ".-_":
        return "every hex needs a terrain letter (C for clear)"
    return f"terrain letters: {LETTERS_HELP}"


def read_cells(
    line: str, i: int, at: GridSpot, where: Where, what: str
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
        if char not in TERRAIN_LETTERS:
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


def read_grid(text: str, at: GridSpot, where: Where) -> tuple[list[Row], int]:
    """The rows of a grid (blank lines skipped and reported); also the index of the line after the grid.

    A grid over MAX_MAP_ROWS rows or MAX_MAP_COLUMNS hexes a row is reported where it passes the limit,
    and reading stops there: checking a huge map (and building its board) would take minutes.
    """
    lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    rows: list[Row] = []
    for i, line in enumerate(lines):
        if not line.strip():
            where.add(
                at(i, 0), "blank line inside the grid", "remove it: every line is a row, the first is row A"
            )
            continue
        if len(rows) == MAX_MAP_ROWS:
            count = sum(1 for other in lines if other.strip())
            where.add(at(i, 0), f"the map has {count} rows; a map may have at most {MAX_MAP_ROWS}", _TOO_BIG)
            break
        lead, cells, end = read_cells(line, i, at, where, "grid")
        rows.append(Row(i, lead, tuple(cells), end))
        if len(cells) > MAX_MAP_COLUMNS:
            where.add(
                at(i, cells[MAX_MAP_COLUMNS][0]),
                f"row {row_letters(len(rows) - 1)} has {len(cells)} hexes; a row may have at most "
                f"{MAX_MAP_COLUMNS}",
                _TOO_BIG,
            )
            break
    return rows, len(lines)


def _row_length_problem(row: Row, want: int, at: GridSpot) -> Spot:
    return at(row.line, row.cells[want][0]) if len(row.cells) > want else at(row.line, row.end)


def _check_indent(row: Row, index: int, indented: bool, at: GridSpot, where: Where) -> None:
    name = row_letters(index)
    if indented and row.lead != 1:
        where.add(at(row.line, 0), f"row {name} is an indented row: start it with exactly one space")
    elif not indented and row.lead != 0:
        where.add(at(row.line, 0), f"row {name} is a long row: start it in the first column, without spaces")


def section_grid(rows: list[Row], after: int, at: GridSpot, where: Where) -> None:
    """Check a section's shape: five rows of 8, 7, 8, 7, 8 hexes, the second and fourth indented."""
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


def free_grid(rows: list[Row], after: int, at: GridSpot, where: Where) -> int:
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


def grid_letters(rows: list[Row]) -> tuple[str, ...]:
    """The letters of each row, as a document keeps them."""
    return tuple("".join(char for _, char in row.cells) for row in rows)


def grid_terrain(rows: Sequence[str], shift: int) -> dict[Hex, Terrain]:
    """Rows of letters to terrain per hex (letters must be valid)."""
    cells = {}
    for y, letters in enumerate(rows):
        indent = 1 if is_indented(y, shift) else 0
        for n, letter in enumerate(letters):
            cells[from_doubled(2 * n + indent, y, shift)] = TERRAIN_LETTERS[letter]
    return cells
