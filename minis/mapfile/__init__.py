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

Every mistake is reported with file, line and column (`minis.base.errors.MinisError`), all at once.

The modules, one concept each (import from `minis.mapfile`, which gathers their public names):

- `documents`: what a file says (`Section`, `Configuration`, `MapDoc`);
- `syntax`: reading a file's text and TOML, and placing problems in it;
- `grid`: the terrain grid; `labels`: hex labels, roads, streams and objectives;
- `reading`: files to documents; `assembly`: sections to a configuration's battle map (turning, seams);
- `freemap`: free boards; `loading`: boards from files, cached; `inline`: rules tests' boards;
- `writing`: documents back to canonical text (`dump`), boards to documents.
"""

from minis.base.tomlfile import Spot
from minis.mapfile.assembly import (
    MAP_EDGES,
    QUADRANT_OFFSETS,
    TURN_X,
    TURN_Y,
    Links,
    SectionGeometry,
    assemble,
    assembled_frame,
    place,
    section_board,
    section_frame,
    section_geometry,
)
from minis.mapfile.documents import (
    HALF_SIDES,
    KINDS,
    QUADRANT_NAMES,
    QUADRANTS,
    SECTION_ROWS,
    Configuration,
    Document,
    MapDoc,
    Placement,
    Section,
)
from minis.mapfile.freemap import map_board
from minis.mapfile.inline import board_from_toml, parse_board_text
from minis.mapfile.labels import BEYOND, FULL, HALF, EntrySpot
from minis.mapfile.loading import (
    MAPS_DIR,
    check_file,
    configuration_board,
    configuration_path,
    load_board,
    load_configuration,
    load_map,
)
from minis.mapfile.reading import load_section, parse_document, read_document
from minis.mapfile.syntax import parse_toml, read_text
from minis.mapfile.writing import board_rows, dump, dump_grid, map_document, terrain_lines

__all__ = [
    "BEYOND",
    "FULL",
    "HALF",
    "HALF_SIDES",
    "KINDS",
    "MAPS_DIR",
    "MAP_EDGES",
    "QUADRANTS",
    "QUADRANT_NAMES",
    "QUADRANT_OFFSETS",
    "SECTION_ROWS",
    "TURN_X",
    "TURN_Y",
    "Configuration",
    "Document",
    "EntrySpot",
    "Links",
    "MapDoc",
    "Placement",
    "Section",
    "SectionGeometry",
    "Spot",
    "assemble",
    "assembled_frame",
    "board_from_toml",
    "board_rows",
    "check_file",
    "configuration_board",
    "configuration_path",
    "dump",
    "dump_grid",
    "load_board",
    "load_configuration",
    "load_map",
    "load_section",
    "map_board",
    "map_document",
    "parse_board_text",
    "parse_document",
    "parse_toml",
    "place",
    "read_document",
    "read_text",
    "section_board",
    "section_frame",
    "section_geometry",
    "terrain_lines",
]
