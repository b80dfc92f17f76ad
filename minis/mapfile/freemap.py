"""Free maps: a grid of any size with roads, streams and an objective, labelled like the battle map.

Map files hold them, and so do rules tests (an inline `board`); both are checked here the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from minis.board import Board
from minis.mapfile.documents import MapDoc
from minis.mapfile.grid import GridSpot, free_grid, grid_letters, grid_terrain, read_grid
from minis.mapfile.labels import FULL, Entries, Frame, entry_spot, nowhere, parse_features
from minis.mapfile.syntax import Where
from minis.mapfile.writing import dump_grid


def board_parts(
    grid: str,
    at: GridSpot,
    where: Where,
    roads: Entries,
    streams: Entries,
    objective: str | None,
    data: Mapping[str, Any],
    *,
    title: str = "",
    notes: tuple[str, ...] = (),
    build: bool = True,
) -> tuple[MapDoc | None, Board | None]:
    """A free board from its grid, roads, streams and objective; problems go to `where`.

    `data` holds the `roads` and `streams` lists as the file has them, to place their problems.
    With `build` False only the document is made (reading a file checks it; the board is made when it
    is loaded: a 100x100 map's board took a third of the time it takes to load it, twice over).
    """
    before = len(where.problems)
    rows, after = read_grid(grid, at, where)
    shift = free_grid(rows, after, at, where)
    if len(where.problems) > before:
        return None, None
    letters = grid_letters(rows)
    terrain = grid_terrain(letters, shift)
    frame = Frame(shift, {h: FULL for h in terrain}, "this map")
    road_spot, stream_spot = entry_spot(data, "roads", where), entry_spot(data, "streams", where)
    road_links, stream_sides, goal = parse_features(
        frame, where, roads, streams, objective, road_spot, stream_spot
    )
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
    if not build:
        return doc, None
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


def map_board(document: MapDoc, *, source: str = "") -> Board:
    """The Board of a free map document (MinisError if its contents are wrong)."""
    where = Where(source or "map", None)
    grid = dump_grid(document.terrain, document.shift)
    _, board = board_parts(
        grid, nowhere, where, document.roads, document.streams, document.objective, {}, title=document.title
    )
    where.raise_if_any()
    assert board is not None
    return board
