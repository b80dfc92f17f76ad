"""Assembling a configuration: four sections placed in the quadrants, maybe turned, joined at the seams.

A turned section maps doubled (x, y) to (14 - x, 4 - y); the quadrants are then shifted by (0, 0),
(16, 0), (0, 6) and (16, 6). Positions strictly inside the 11-row map are full hexes, those on its outside
edge are half-hexes. Where half-hexes of two (at the centre, four) sections meet they form a seam hex: its
terrain is the half-hexes' terrain, a clear half giving way to another terrain. Roads and streams of all
four sections (and any the configuration adds) are all on the map.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import attrs

from minis.board import Board
from minis.hexgrid import Hex, from_doubled, label
from minis.mapfile.documents import HALF_SIDES, QUADRANTS, SECTION_ROWS, Configuration, Section
from minis.mapfile.grid import TERRAIN_LETTERS, grid_terrain
from minis.mapfile.labels import (
    BEYOND,
    FULL,
    HALF,
    EntrySpot,
    Frame,
    nowhere,
    parse_features,
    parse_roads,
    parse_streams,
)
from minis.mapfile.syntax import Where
from minis.terrain import Terrain

#: The doubled offset of each quadrant's section frame in the assembled map.
QUADRANT_OFFSETS = {"nw": (0, 0), "ne": (16, 0), "sw": (0, 6), "se": (16, 6)}
#: Turning a section 180 degrees maps doubled (x, y) to (TURN_X - x, TURN_Y - y).
TURN_X, TURN_Y = 14, 4
#: The assembled map's outside edges in doubled coordinates: hex centres on them are half-hexes.
MAP_EDGES = (-1, 31, -1, 11)  # west, east, north, south

Links = frozenset[frozenset[Hex]]


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


def _section_geometry(section: Section, where: Where) -> SectionGeometry:
    cells = section_frame()
    frame = Frame(0, cells, "this section")
    roads = parse_roads(section.roads, frame, nowhere, where)
    streams = parse_streams(section.streams, frame, nowhere, where)
    terrain = {h: Terrain.CLEAR for h, kind in cells.items() if kind == HALF}
    terrain.update(grid_terrain(section.terrain, 0))
    for side, hexes in _half_positions().items():
        for hex_, letter in zip(hexes, getattr(section, side), strict=True):
            terrain[hex_] = TERRAIN_LETTERS[letter]
    halves = frozenset(h for h, kind in cells.items() if kind == HALF)
    return SectionGeometry(terrain, halves, frozenset(roads), frozenset(streams))


@functools.lru_cache(maxsize=64)
def section_geometry(section: Section) -> SectionGeometry:
    """The geometry of a section; MinisError if its roads or streams are wrong."""
    where = Where(f"section {section.name}", None)
    for side, count in HALF_SIDES.items():
        letters = getattr(section, side)
        if len(letters) != count or any(c not in TERRAIN_LETTERS for c in letters):
            where.add((0, 0), f"the {side} half-hexes must be {count} terrain letters, not {letters!r}")
    lengths = tuple(len(row) for row in section.terrain)
    if lengths != SECTION_ROWS or any(c not in TERRAIN_LETTERS for row in section.terrain for c in row):
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
    where: Where | None = None,
    spots: Mapping[str, EntrySpot] | None = None,
    name: str = "",
) -> Board:
    """The battle map of a configuration from its four sections. MinisError for seams that disagree,
    bad extra roads/streams or a bad objective (located in the configuration file when `where` is given)."""
    where = where or Where("configuration", None)
    contributions: dict[Hex, list[tuple[Terrain, bool, str]]] = {}
    roads: set[frozenset[Hex]] = set()
    streams: set[frozenset[Hex]] = set()
    for quadrant, placement in configuration.placements().items():
        geometry = section_geometry(sections[placement.section])
        for hex_, kind in geometry.terrain.items():
            placed = place(hex_, quadrant, placement.turned)
            contributions.setdefault(placed, []).append((kind, hex_ not in geometry.halves, quadrant))
        for links, target in ((geometry.roads, roads), (geometry.streams, streams)):
            for link in links:
                target.add(frozenset(place(h, quadrant, placement.turned) for h in link))

    terrain: dict[Hex, Terrain] = {}
    halves: set[Hex] = set()
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

    frame = Frame(0, {h: (HALF if h in halves else FULL) for h in terrain}, "the assembled map")
    spots = spots or {}
    extra_roads, extra_streams, objective = parse_features(
        frame,
        where,
        configuration.roads,
        configuration.streams,
        configuration.objective,
        spots.get("roads", nowhere),
        spots.get("streams", nowhere),
    )
    roads |= extra_roads
    streams |= extra_streams
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
