"""Hex labels in map files: which hex `B3`, `B0` or `A3:NW` names in a frame, and the roads, streams and
objective written with them. Every problem is placed on the character of the label it is about."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from minis.base.tomlfile import Spot
from minis.hexgrid import FACINGS, Facing, Hex, distance, from_doubled, is_indented, row_index, row_letters
from minis.mapfile.syntax import Where

#: What a hex of a frame is: a full hex, a half-hex on the edge, or (sections) just beyond the edge.
FULL, HALF, BEYOND = "full", "half", "beyond"
_LABEL = re.compile(r"^([A-Z]+)([0-9]{1,6})(?::(NE|NW|SE|SW|E|W))?$")

#: Locates character `char` of token `t` of entry `i` of a list of strings (roads, streams).
EntrySpot = Callable[[int, int, int], Spot]
#: Roads or streams as written: each entry's labels.
Entries = tuple[tuple[str, ...], ...]


@attrs.frozen
class Frame:
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


def nowhere(*_: int) -> Spot:
    """Every place is line 0: for documents built in code rather than read from a file."""
    return (0, 0)


def _resolve(token: str, frame: Frame) -> Hex:
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


def _link_problem(a: Hex, b: Hex, frame: Frame, what: str) -> str:
    """Why a road link / stream side between two frame hexes is not allowed, or ''."""
    if distance(a, b) != 1:
        return "not adjacent"
    kinds = {frame.cells[a], frame.cells[b]}
    if BEYOND in kinds and (kinds != {FULL, BEYOND} or a.r != b.r):
        return f"a {what} can only cross a section's west or east edge from the end hex of a long row"
    return ""


def _label_of(frame: Frame) -> Callable[[Hex], str]:
    def name(hex_: Hex) -> str:
        if hex_.r >= 0:
            return f"{row_letters(hex_.r)}{frame.number(hex_)}"
        below = hex_ + Facing.SE.value
        return f"{row_letters(below.r)}{frame.number(below)}:NW"

    return name


def _between_hint(a: Hex, b: Hex, frame: Frame) -> str:
    if distance(a, b) == 2:
        middle = [h for h in (a + f.value for f in FACINGS) if distance(h, b) == 1 and h in frame.cells]
        if middle:
            names = " or ".join(_label_of(frame)(h) for h in middle)
            return f"list every hex the road passes through, in order: {names} lies between them"
    return "consecutive hexes of a road must be neighbours"


def parse_roads(
    roads: Sequence[Sequence[str]], frame: Frame, spot: EntrySpot, where: Where
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


def parse_streams(
    streams: Sequence[Sequence[str]], frame: Frame, spot: EntrySpot, where: Where
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


def parse_objective(text: str, frame: Frame, spot: Spot, where: Where) -> Hex | None:
    """The objective's hex: a full hex of the frame (problems noted in `where`)."""
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


# --- the lists of roads and streams in a file -----------------------------------------------------------


def split(text: str) -> tuple[str, ...]:
    """One road or stream entry as its labels."""
    return tuple(text.split())


def string_list(data: Mapping[str, Any], key: str, where: Where) -> Entries:
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
        result.append(split(item))
    return tuple(result)


def entry_spot(data: Mapping[str, Any], key: str, where: Where) -> EntrySpot:
    """Locates entry i (counting the good entries, as `string_list` returns them), token t, char c."""
    value = data.get(key)
    raw = value if isinstance(value, list) else []
    good = [n for n, item in enumerate(raw) if isinstance(item, str) and item.strip()]

    def spot(i: int, t: int, c: int) -> Spot:
        if i >= len(good):
            return where.value(key)
        starts = [match.start() for match in re.finditer(r"\S+", raw[good[i]])]
        start = starts[t] if t < len(starts) else 0
        return where.item(key, good[i], start + c)

    return spot


def parse_features(
    frame: Frame,
    where: Where,
    roads: Sequence[Sequence[str]],
    streams: Sequence[Sequence[str]],
    objective: str | None,
    road_spot: EntrySpot = nowhere,
    stream_spot: EntrySpot = nowhere,
) -> tuple[set[frozenset[Hex]], set[frozenset[Hex]], Hex | None]:
    """Roads, streams and objective as written, resolved in `frame`: (road links, stream sides, objective).

    Every problem is noted in `where`, the objective's at the `objective` key.
    """
    links = parse_roads(roads, frame, road_spot, where)
    sides = parse_streams(streams, frame, stream_spot, where)
    if objective is None:
        return links, sides, None
    return links, sides, parse_objective(objective, frame, where.item("objective", None), where)


def read_links(
    data: Mapping[str, Any], frame: Frame, where: Where, objective: str | None = None
) -> tuple[Entries, Entries]:
    """The `roads` and `streams` of a file as written, once every label (and the objective's) is checked."""
    roads = string_list(data, "roads", where)
    streams = string_list(data, "streams", where)
    road_spot, stream_spot = entry_spot(data, "roads", where), entry_spot(data, "streams", where)
    parse_features(frame, where, roads, streams, objective, road_spot, stream_spot)
    return roads, streams
