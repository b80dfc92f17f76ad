"""What a map file says: a section, a configuration or a free map, kept as written so it can be written back.

Sections and configurations are described in the package docstring (`minis.mapfile`) and docs/map-files.md.
"""

from __future__ import annotations

import attrs

KINDS = ("section", "configuration", "map")
QUADRANTS = ("nw", "ne", "sw", "se")
QUADRANT_NAMES = {"nw": "north-west", "ne": "north-east", "sw": "south-west", "se": "south-east"}

#: Full hexes per row of a section, rows A-E.
SECTION_ROWS = (8, 7, 8, 7, 8)
#: Half-hexes on each side of a section, west to east (rows B and D for west and east).
HALF_SIDES = {"north": 7, "south": 7, "west": 2, "east": 2}


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

    def with_halves(self, side: str, letters: str) -> Section:
        """This section with the half-hexes of `side` (a key of HALF_SIDES) replaced: one typed call
        for the editor, which picks the side at run time."""
        if side not in HALF_SIDES:
            raise ValueError(f"no half-hexes on side {side!r}")
        halves = {"north": self.north, "south": self.south, "west": self.west, "east": self.east}
        halves[side] = letters
        return attrs.evolve(
            self, north=halves["north"], south=halves["south"], west=halves["west"], east=halves["east"]
        )


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

    def with_placement(self, quadrant: str, placement: Placement) -> Configuration:
        """This configuration with `placement` in `quadrant` (one of QUADRANTS), chosen at run time."""
        if quadrant not in QUADRANTS:
            raise ValueError(f"no quadrant {quadrant!r}")
        placed = self.placements() | {quadrant: placement}
        return attrs.evolve(self, nw=placed["nw"], ne=placed["ne"], sw=placed["sw"], se=placed["se"])


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
