"""The battle map as the engine sees it: an immutable `Board`.

Everything the rules ask about the map goes through here: which hexes are playable, their terrain,
streams and road links on hexsides, the objective, the deployment zones and line of sight. Boards come
from `minis.mapfile` (the six configurations, map files, inline boards of rules tests); they never change,
so the rules can share one board between game states and cache freely.

Coordinates are axial `Hex(q, r)` with the board's `shift` (1 when row A is indented), see
`minis.hexgrid`. Playable hexes are the full hexes; half-hexes at the outside edges are kept for their
terrain and for drawing but can never be entered. For speed the board also offers numpy arrays indexed by
`index(h)` (label order): terrain codes, neighbours, and stream/road flags per hexside.

Roads and streams may run on into a half-hex at the edge (where a sheet's road leaves the map); only the
links between playable hexes matter to the rules, the others are there to be drawn.
"""

from __future__ import annotations

import operator
import re
import types
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import numpy as np
import numpy.typing as npt

from minis.base import fields
from minis.hexgrid import (
    FACINGS,
    Hex,
    direction_to,
    distance,
    from_doubled,
    is_indented,
    label,
    parse_label,
    row_index,
    row_letters,
)
from minis.terrain import Hexside, Terrain

if TYPE_CHECKING:
    from minis.content.los import LosTable

T = TypeVar("T")

#: The two ends of the battle map, where the armies deploy.
ENDS = ("west", "east")

_ZERO_LABEL = re.compile(r"^([A-Z]+)0+$")

#: How many full hexes from each end of every row belong to a deployment zone.
ZONE_DEPTH = 5


def _frozen_array(values: Any, dtype: Any) -> npt.NDArray[Any]:
    array = np.array(values, dtype=dtype)
    array.flags.writeable = False
    return array


def _check_end(end: str) -> str:
    if end not in ENDS:
        raise ValueError(f"unknown end '{end}' (west or east)")
    return end


def _sides(links: Iterable[Collection[Hex]], what: str, terrain: Mapping[Hex, Terrain]) -> frozenset[Hexside]:
    """`Board.create`'s hexsides checked (a function of its own: mypyc cannot compile it nested there)."""
    result = set()
    for link in links:
        side = frozenset(link)
        a, b = (tuple(side) + tuple(side))[:2]
        if len(side) != 2 or distance(a, b) != 1:
            raise ValueError(f"{what} {sorted(side)} is not between two adjacent hexes")
        if not side <= terrain.keys():
            raise ValueError(f"{what} {sorted(side)} leaves the board")
        result.add(side)
    return frozenset(result)


@attrs.frozen(eq=False)
class Board:
    """An immutable battle map. Build one with `Board.create` (or the loaders in `minis.mapfile`).

    Two boards are equal when their geometry is: terrain of every hex, half-hexes, streams, roads and
    objective (the name and source are only for people).
    """

    shift: int
    rows: int
    hexes: tuple[Hex, ...]
    half_hexes: frozenset[Hex]
    streams: frozenset[Hexside]
    roads: frozenset[Hexside]
    objective: Hex | None
    name: str
    source: str
    _terrain: Mapping[Hex, Terrain] = attrs.field(repr=False)
    _indices: Mapping[Hex, int] = attrs.field(repr=False)
    #: Terrain code of each playable hex (see `Terrain.code`), in `index` order.
    terrain_codes: npt.NDArray[np.int8] = attrs.field(repr=False)
    #: True where the playable hex's terrain blocks line of sight.
    blocks_sight: npt.NDArray[np.bool_] = attrs.field(repr=False)
    #: Doubled-width (x, y) of each playable hex, shape (n, 2).
    doubled: npt.NDArray[np.int32] = attrs.field(repr=False)
    #: Index of the playable neighbour across each hexside in FACINGS order, or -1; shape (n, 6).
    neighbour_index: npt.NDArray[np.int32] = attrs.field(repr=False)
    #: True where a stream runs along the hexside in FACINGS order; shape (n, 6).
    stream_sides: npt.NDArray[np.bool_] = attrs.field(repr=False)
    #: True where a road link crosses the hexside in FACINGS order; shape (n, 6).
    road_sides: npt.NDArray[np.bool_] = attrs.field(repr=False)
    #: What is derived from this board and kept with it (`derived`), so it dies with the board.
    _cache: dict[object, Any] = fields.field(factory=dict, repr=False)

    # --- construction ---------------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        terrain: Mapping[Hex, Terrain],
        *,
        half_hexes: Collection[Hex] = (),
        streams: Iterable[Collection[Hex]] = (),
        roads: Iterable[Collection[Hex]] = (),
        objective: Hex | None = None,
        shift: int = 0,
        name: str = "",
        source: str = "",
    ) -> Board:
        """A board from the terrain of every hex (full and half). Full hexes must start at row 0.

        Raises ValueError for a programming mistake (files are checked in `minis.mapfile` first, with
        file, line and column): a hexside that is not between two adjacent hexes of the board, or an
        objective that is not a playable hex.
        """
        if shift not in (0, 1):
            raise ValueError(f"shift must be 0 or 1, not {shift}")
        halves = frozenset(half_hexes)
        unknown = halves - set(terrain)
        if unknown:
            raise ValueError(f"half-hexes without terrain: {sorted(unknown)}")
        full = sorted((h for h in terrain if h not in halves), key=operator.itemgetter(1, 0))  # (r, q)
        if not full:
            raise ValueError("a board needs at least one full hex")
        if full[0].r != 0:
            raise ValueError(f"the first row of full hexes must be row 0, not {full[0].r}")
        indices = {h: i for i, h in enumerate(full)}

        stream_set, road_set = _sides(streams, "stream", terrain), _sides(roads, "road link", terrain)
        if objective is not None and objective not in indices:
            raise ValueError(f"the objective {objective} is not a playable hex")

        # Every hex's neighbours, then the few hexsides with a stream or road (a 100x100 map has 60,000
        # hexsides and a handful of streams: asking each hexside about them made loading it slow).
        steps = [facing.value for facing in FACINGS]
        axial = np.array(full, dtype=np.int64).reshape(-1, 2)
        q, r = axial[:, 0] - axial[:, 0].min() + 1, axial[:, 1] - axial[:, 1].min() + 1  # a margin of 1
        grid = np.full((int(r.max()) + 2, int(q.max()) + 2), -1, dtype=np.int32)  # axial (r, q) -> index
        grid[r, q] = np.arange(len(full), dtype=np.int32)
        neighbour = np.stack([grid[r + dr, q + dq] for dq, dr in steps], axis=1)
        stream_flags = np.zeros((len(full), 6), dtype=bool)
        road_flags = np.zeros((len(full), 6), dtype=bool)
        facing_of = {step: k for k, step in enumerate(steps)}
        for flags, links in ((stream_flags, stream_set), (road_flags, road_set)):
            for side in links:
                a, b = tuple(side)
                for h, other in ((a, b), (b, a)):
                    if h in indices:
                        flags[indices[h], facing_of[other - h]] = True
        for array in (neighbour, stream_flags, road_flags):
            array.flags.writeable = False

        return cls(
            shift=shift,
            rows=full[-1].r + 1,
            hexes=tuple(full),
            half_hexes=halves,
            streams=stream_set,
            roads=road_set,
            objective=objective,
            name=name,
            source=source,
            terrain=types.MappingProxyType(dict(terrain)),
            indices=types.MappingProxyType(indices),
            terrain_codes=_frozen_array([terrain[h].code for h in full], np.int8),
            blocks_sight=_frozen_array([terrain[h].blocks_sight for h in full], bool),
            doubled=_frozen_array([(2 * h.q + h.r + shift, h.r) for h in full], np.int32).reshape(-1, 2),
            neighbour_index=neighbour,
            stream_sides=stream_flags,
            road_sides=road_flags,
        )

    def replace(self, **changes: Any) -> Board:
        """A copy with some of `create`'s arguments changed (terrain, streams, roads, objective, ...)."""
        arguments: dict[str, Any] = {
            "terrain": dict(self._terrain),
            "half_hexes": self.half_hexes,
            "streams": self.streams,
            "roads": self.roads,
            "objective": self.objective,
            "shift": self.shift,
            "name": self.name,
            "source": self.source,
        }
        arguments.update(changes)
        return Board.create(arguments.pop("terrain"), **arguments)

    def without_road(self, a: Hex, b: Hex) -> Board:
        """The board with the road link between a and b removed (Bridge Demolition keeps the stream)."""
        return self.replace(roads=self.roads - {frozenset((a, b))})

    # --- identity -------------------------------------------------------------------------------------

    def _key(self) -> tuple[Any, ...]:
        terrain = tuple(sorted((h, t.value) for h, t in self._terrain.items()))
        return (self.shift, terrain, self.half_hexes, self.streams, self.roads, self.objective)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        if "hash" not in self._cache:
            self._cache["hash"] = hash(self._key())
        return int(self._cache["hash"])

    # --- hexes and labels -----------------------------------------------------------------------------

    def __contains__(self, hex_: object) -> bool:
        return hex_ in self._indices

    def __len__(self) -> int:
        return len(self.hexes)

    def is_playable(self, hex_: Hex) -> bool:
        """True for a full hex of the board (half-hexes and hexes off the map are not playable)."""
        return hex_ in self._indices

    def is_half_hex(self, hex_: Hex) -> bool:
        return hex_ in self.half_hexes

    def index(self, hex_: Hex) -> int:
        """The position of a playable hex in `hexes` and in the numpy arrays; KeyError otherwise."""
        return self._indices[hex_]

    def terrain(self, hex_: Hex) -> Terrain:
        """The terrain of a full or half hex; KeyError for a hex that is not on the board."""
        return self._terrain[hex_]

    def terrain_map(self) -> Mapping[Hex, Terrain]:
        """Terrain of every full and half hex (read-only)."""
        return self._terrain

    def neighbours(self, hex_: Hex) -> list[Hex]:
        """The playable hexes adjacent to `hex_`, in FACINGS order."""
        return [n for n in (hex_ + f.value for f in FACINGS) if n in self._indices]

    def doubled_of(self, hex_: Hex) -> tuple[int, int]:
        """Doubled-width (x, y) of any hex in this board's frame (x of A1 is 0 or 1)."""
        return (2 * hex_.q + hex_.r + self.shift, hex_.r)

    def label(self, hex_: Hex) -> str:
        """`E9` for a hex of any row from A on; a hex north of row A is named from its neighbour (`A3:NW`)."""
        if hex_.r >= 0:
            return label(hex_, self.shift)
        below = [hex_ + f.value for f in FACINGS if f.step.r > 0]  # SW and SE: the hexes below it
        playable = [h for h in below if h in self._indices]  # first (no closure: mypyc, the fast build)
        for neighbour in playable + [h for h in below if h not in self._indices]:
            if neighbour.r >= 0:
                source = direction_to(neighbour, hex_)
                assert source is not None
                return f"{label(neighbour, self.shift)}:{source.name}"
        raise ValueError(f"{hex_} has no label on this board (it is more than a row north of row A)")

    def parse(self, text: str) -> Hex:
        """A playable hex from its label; ValueError with a readable message for anything else."""
        zero = _ZERO_LABEL.match(text.strip().upper())
        if zero:  # hex 0: the half-hex west of hex 1 (labels count from 1, but people try it)
            r = row_index(zero.group(1))
            hex_ = from_doubled(-2 + (1 if is_indented(r, self.shift) else 0), r, self.shift)
        else:
            hex_ = parse_label(text, self.shift)
        if hex_ in self._indices:
            return hex_
        name = text.strip().upper()
        if hex_ in self.half_hexes:
            raise ValueError(f"{name} is a half-hex at the edge of the map; units cannot be there")
        last = row_letters(self.rows - 1)
        if not 0 <= hex_.r < self.rows:
            raise ValueError(f"{name} is off the map: rows run from A to {last}")
        numbers = [label(h, self.shift) for h in self.hexes if h.r == hex_.r]
        raise ValueError(
            f"{name} is off the map: row {name.rstrip('0123456789')} runs from {numbers[0]} to {numbers[-1]}"
        )

    def row(self, r: int) -> tuple[Hex, ...]:
        """The playable hexes of row r from west to east."""
        return tuple(h for h in self.hexes if h.r == r)

    def is_indented(self, r: int) -> bool:
        return is_indented(r, self.shift)

    # --- hexsides -------------------------------------------------------------------------------------

    def has_stream(self, a: Hex, b: Hex) -> bool:
        """True if a stream runs along the hexside between a and b."""
        return frozenset((a, b)) in self.streams

    def has_road(self, a: Hex, b: Hex) -> bool:
        """True if a road link runs from a to b (moving from a to b is moving along a road)."""
        return frozenset((a, b)) in self.roads

    def is_bridge(self, a: Hex, b: Hex) -> bool:
        """True if the road link between a and b crosses a stream."""
        side = frozenset((a, b))
        return side in self.roads and side in self.streams

    @property
    def bridges(self) -> frozenset[Hexside]:
        return self.roads & self.streams

    # --- zones ----------------------------------------------------------------------------------------

    def deployment_zone(self, end: str) -> frozenset[Hex]:
        """The first (west) or last (east) five full hexes of every row: where an army deploys."""
        _check_end(end)
        key = f"zone-{end}"
        if key not in self._cache:
            zone: set[Hex] = set()
            for r in range(self.rows):
                row = self.row(r)
                zone.update(row[:ZONE_DEPTH] if end == "west" else row[-ZONE_DEPTH:])
            self._cache[key] = frozenset(zone)
        return frozenset(self._cache[key])

    def half_of_map(self, end: str) -> frozenset[Hex]:
        """The playable hexes strictly on one side of the north-south centre line of the map.

        On the six configurations that is exactly the two map sections of that half, including the
        seam hexes of row F that those two sections form between them. The hexes *on* the centre line
        (hex 8 of the 15-hex rows, formed by a west and an east section) belong to neither half: the
        Assault defender deploys "on the two map sections of his or her half", and those hexes are only
        half on them.
        """
        _check_end(end)
        xs = self.doubled[:, 0]
        middle = int(xs.min()) + int(xs.max())  # twice the centre line's x
        mask = 2 * xs < middle if end == "west" else 2 * xs > middle
        return frozenset(h for h, inside in zip(self.hexes, mask, strict=True) if inside)

    def is_edge_adjacent(self, hex_: Hex) -> bool:
        """True if the hex touches the map edge or a half-hex (the Assault objective may not)."""
        return any(hex_ + f.value not in self._indices for f in FACINGS)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without what was derived from it (`derived`): a search worker's copy makes its own,
        so the caches kept on a board don't grow every position shipped to a worker."""
        found = {field.name: getattr(self, field.name) for field in attrs.fields(type(self))}
        found["_cache"] = {}
        return found

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def derived(self, build: Callable[[Board], T]) -> T:
        """What `build` makes of this board, made once and kept on it (keyed by `build` itself): the
        rules' speed caches live here, so they die with the board and need no bound or id() key."""
        found = self._cache.get(build)
        if found is None:
            found = self._cache[build] = build(self)
        return found

    # --- line of sight --------------------------------------------------------------------------------

    def los_table(self) -> LosTable:
        """The line-of-sight table of the whole board, built on first use (loading a board stays cheap)."""
        if "los" not in self._cache:
            from minis.content.los import LosTable

            kinds = {t for t in set(self._terrain.values()) if t.blocks_sight}  # asked once per kind
            blocking = [h for h, t in self._terrain.items() if t in kinds]
            self._cache["los"] = LosTable.build(self.hexes, blocking)
        table: LosTable = self._cache["los"]
        return table

    def visible(self, a: Hex, b: Hex) -> bool:
        """Line of sight between the centres of a and b; terrain in a and b themselves is ignored."""
        return self.los_table().visible(a, b)
