"""Reading section, configuration and map files into documents, checking every key and value.

Every problem of a file is collected (`Where`) and raised at once as a MinisError; a configuration read
from the maps folder is checked together with the sections it names.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from minis.base.errors import MinisError, did_you_mean
from minis.base.paths import UnreadablePath, files_in, is_dir, is_file, look
from minis.base.tomlfile import Spot, TomlLayout, describe, leading_comments
from minis.mapfile.assembly import assembled_frame, section_frame
from minis.mapfile.documents import (
    HALF_SIDES,
    KINDS,
    QUADRANT_NAMES,
    QUADRANTS,
    Configuration,
    Document,
    MapDoc,
    Placement,
    Section,
)
from minis.mapfile.freemap import board_parts
from minis.mapfile.grid import TERRAIN_LETTERS, grid_letters, read_cells, read_grid, section_grid
from minis.mapfile.labels import Frame, read_links, string_list
from minis.mapfile.syntax import Where, parse_toml, read_text

_COMMON_KEYS = ("kind", "title")
_KEYS = {
    "section": (*_COMMON_KEYS, "terrain", "roads", "streams", "half-hexes"),
    "configuration": (*_COMMON_KEYS, "number", *QUADRANTS, "objective", "roads", "streams"),
    "map": (*_COMMON_KEYS, "terrain", "roads", "streams", "objective"),
}


def _string(data: Mapping[str, Any], key: str, where: Where, *, required: bool = False) -> str | None:
    value = data.get(key)
    if value is None:
        if required:
            where.add((1, 1) if where.layout else (0, 0), f"missing '{key}'", f'add {key} = "..."')
        return None
    if not isinstance(value, str):
        where.add(where.value(key), f"'{key}' must be a string in quotes", f'{key} = "..."')
        return None
    return value


def _check_keys(data: Mapping[str, Any], allowed: Sequence[str], where: Where, table: str = "") -> None:
    for key in data:
        if key in allowed:
            continue
        place = f" in [{table}]" if table else ""
        hint = where.hints(key, allowed)
        if table and key in _KEYS["section"] + _KEYS["configuration"] + _KEYS["map"]:
            hint = "keys after a [table] header belong to that table: move it above the header"
        where.add(where.key(key), f"unknown key '{key}'{place}", hint or f"known keys: {', '.join(allowed)}")


def _kind(data: Mapping[str, Any], where: Where, expected: str | None) -> str | None:
    kind = data.get("kind")
    if kind is None:
        guess = expected or "section"
        where.add(
            (1, 1),
            "missing 'kind'",
            f'say what the file is at the top: kind = "{guess}" (section, configuration or map)',
        )
        return None
    if not isinstance(kind, str):
        where.add(where.value("kind"), f"'kind' must be a string, not {describe(kind)}", 'kind = "map"')
        return None
    if kind not in KINDS:
        hint = did_you_mean(kind, KINDS) or "section, configuration or map"
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
    where = Where(file, TomlLayout.scan(text))
    kind = _kind(data, where, expected)
    if kind is None:
        where.raise_if_any()
    _check_keys(data, _KEYS[str(kind)], where)
    title = _string(data, "title", where) or ""
    notes = leading_comments(text)
    document: Document | None
    if kind == "section":
        document = _read_section(data, where, Path(file).stem, title, notes)
    elif kind == "configuration":
        folder = Path(file).parent.parent / "sections" if is_file(file) else None
        document = _read_configuration(data, where, title, notes, folder)
    else:
        document = _read_map(data, where, title, notes)
    where.raise_if_any()
    assert document is not None
    return document


def _read_halves(data: Mapping[str, Any], where: Where) -> dict[str, str]:
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

        def at(_line: int, char: int, side: str = side) -> Spot:
            return inner.item(side, None, char)

        lead, cells, end = read_cells(value, 0, at, inner, f"{side} half-hexes")
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
        if all(char in TERRAIN_LETTERS for _, char in cells):
            halves[side] = "".join(char for _, char in cells)
    return halves


def _read_section(
    data: Mapping[str, Any], where: Where, name: str, title: str, notes: tuple[str, ...]
) -> Section | None:
    grid = _string(data, "terrain", where, required=True)
    halves = _read_halves(data, where)
    roads, streams = read_links(data, Frame(0, section_frame(), "this section"), where)
    if grid is None:
        return None
    before = len(where.problems)
    at = where.block("terrain")
    rows, after = read_grid(grid, at, where)
    section_grid(rows, after, at, where)
    if len(where.problems) > before:
        return None
    return Section(
        name=name,
        terrain=grid_letters(rows),
        title=title,
        roads=roads,
        streams=streams,
        notes=notes,
        **halves,
    )


def _read_placement(data: Mapping[str, Any], quadrant: str, where: Where) -> Placement | None:
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
    data: Mapping[str, Any], where: Where, title: str, notes: tuple[str, ...], sections: Path | None
) -> Configuration | None:
    """Everything a configuration file can get wrong except seams: placements, sections (when the
    sections folder is known), objective, extra roads and streams, all checked in one pass."""
    number = data.get("number")
    if number is not None and (not isinstance(number, int) or isinstance(number, bool) or number < 1):
        where.add(where.value("number"), "'number' must be a whole number from 1", "number = 1")
        number = None
    placements = {q: _read_placement(data, q, where) for q in QUADRANTS}
    objective = _string(data, "objective", where)
    frame = Frame(0, assembled_frame(), "the assembled map")
    roads, streams = read_links(data, frame, where, objective)
    if sections is not None:
        sections_for(placements, sections, where)
    nw, ne, sw, se = (placements[quadrant] for quadrant in QUADRANTS)
    if nw is None or ne is None or sw is None or se is None:
        return None
    return Configuration(
        nw=nw,
        ne=ne,
        sw=sw,
        se=se,
        number=number,
        title=title,
        objective=objective,
        roads=roads,
        streams=streams,
        notes=notes,
    )


def _read_map(data: Mapping[str, Any], where: Where, title: str, notes: tuple[str, ...]) -> MapDoc | None:
    grid = _string(data, "terrain", where, required=True)
    objective = _string(data, "objective", where)
    roads = string_list(data, "roads", where)
    streams = string_list(data, "streams", where)
    if grid is None:
        return None
    doc, _ = board_parts(
        grid,
        where.block("terrain"),
        where,
        roads,
        streams,
        objective,
        data,
        title=title,
        notes=notes,
        build=False,
    )
    return doc


# --- files ----------------------------------------------------------------------------------------------


def file_stamp(path: Path) -> tuple[int, int]:
    """What changes when a file is edited, so caches can tell."""
    stat = path.stat()
    return (stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=128)
def _cached_document(path: str, stamp: tuple[int, int], expected: str | None) -> Document:
    return parse_document(read_text(path), path, expected=expected)


def read_document(path: Path | str, *, expected: str | None = None) -> Document:
    """The document in a file (cached until the file changes)."""
    path = Path(path)
    if not is_file(path):
        read_text(path)  # raises the unreadable-file error
    return _cached_document(str(path), file_stamp(path), expected)


def load_section(path: Path | str) -> Section:
    document = read_document(path, expected="section")
    assert isinstance(document, Section)
    return document


def sections_for(
    placements: Mapping[str, Placement | None], folder: Path, where: Where
) -> dict[str, Section]:
    """Load the sections a configuration names from `folder`; a missing, unreadable or broken one is a
    problem at the placement that names it."""
    available = [p.stem for p in files_in(folder)] if is_dir(folder) else []
    sections: dict[str, Section] = {}
    seen: set[str] = set()
    for quadrant, placement in placements.items():
        if placement is None or placement.section in seen:
            continue
        name = placement.section
        seen.add(name)
        file = folder / f"{name}.toml"
        found = look(file)
        if found.missing:
            where.add(
                where.item(quadrant, None),
                f"no section '{name}' (looked for {file})",
                did_you_mean(name, available) or (f"sections: {', '.join(available)}" if available else ""),
            )
            continue
        try:
            sections[name] = load_section(file)
        except UnreadablePath as error:
            where.add(where.item(quadrant, None), error.named("section", name))
        except MinisError as error:
            where.add(
                where.item(quadrant, None),
                f"section '{name}' cannot be used: {len(error.problems)} problem(s) in {file}",
                "run: minis map check " + str(file),
            )
    return sections
