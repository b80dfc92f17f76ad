"""Exact line of sight, per pair and as a board's table (docs/contracts.md#line-of-sight, rulebook
"Line of Sight").

Two hexes see each other unless the segment between their centres passes through the interior of a
blocking hex other than the two end hexes (`minis.hexgrid.crossed_hexes`). The hexes crossed depend only
on the offset between the two hexes, so a table of crossed offsets per offset (built once per radius)
turns a board row's visibility into a single numpy gather: for every (hex, offset) pair, look up the
crossed cells in a padded blocking grid and ask whether any of them blocks. A row is worked out when a
hex of it is first asked about, so a big map costs what its questions need, not its size squared.
"""

from __future__ import annotations

import functools
import itertools
import types
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from minis.base import fields
from minis.hexgrid import Hex, crossed_hexes, to_doubled, within

#: The longest range in the game; abilities that extend range fall back to the exact per-pair test.
DEFAULT_RADIUS = 8

IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]


def line_of_sight(blocking: Callable[[Hex], bool], a: Hex, b: Hex) -> bool:
    """Exact line of sight between a and b; terrain in the two end hexes is ignored (the slow reference).

    Same and adjacent hexes cross nothing, so they always see each other.
    """
    return not any(blocking(h) for h in crossed_hexes(a, b))


@functools.lru_cache(maxsize=4096)
def crossed_offsets(offset: Hex) -> tuple[Hex, ...]:
    """The hexes crossed between the origin and `offset`, as offsets (crossing is translation-invariant)."""
    return crossed_hexes(Hex(0, 0), offset)


@attrs.frozen
class OffsetTable:
    """Every offset within a radius and its crossed cells, in doubled coordinates, padded for numpy.

    `crossed[m, k]` is the k-th crossed cell of offset m; `valid[m, k]` is False for padding.
    """

    radius: int
    offsets: IntArray  # (M, 2) doubled (dx, dy)
    crossed: IntArray  # (M, K, 2) doubled (dx, dy)
    valid: BoolArray  # (M, K)


@functools.cache
def offset_table(radius: int = DEFAULT_RADIUS) -> OffsetTable:
    """The per-offset table for `radius`, built lazily once per radius."""
    offsets = list(within(Hex(0, 0), radius))
    lines = [crossed_offsets(o) for o in offsets]
    width = max(1, max(len(line) for line in lines))
    crossed = np.zeros((len(offsets), width, 2), dtype=np.intp)
    valid = np.zeros((len(offsets), width), dtype=bool)
    for m, line in enumerate(lines):
        for k, h in enumerate(line):
            crossed[m, k] = to_doubled(h)
            valid[m, k] = True
    doubled = np.array([to_doubled(o) for o in offsets], dtype=np.intp)
    return OffsetTable(radius=radius, offsets=doubled, crossed=crossed, valid=valid)


@functools.cache
def _offset_slots(radius: int) -> dict[tuple[int, int], int]:
    """Each step (dq, dr) within `radius` and its number in `offset_table(radius)` (the order of
    `within`); shared by every table of that radius, never changed."""
    return {(step.q, step.r): m for m, step in enumerate(within(Hex(0, 0), radius))}


def _read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    array.flags.writeable = False
    return array


@attrs.frozen
class _BoardIndex:
    """What depends only on the board's playable hexes and the radius (cached per board).

    The board is laid into a doubled-coordinate grid padded by the radius on every side (so no offset
    wraps around a row) and flattened: `cells` cells. A blocking grid has twice that length; its second
    half never blocks, and padding entries of a line point there (`cell + cells`), so that a gather
    needs no masking. Nothing here grows with the square of the board: a 100x100 map's index is a few
    hundred kilobytes (the whole-board arrays are built only when `LosTable.matrix` is asked).
    """

    x0: int
    y0: int
    width: int
    height: int
    cells: int
    flat: IntArray  # (N,) the grid cell of each playable hex
    which: IntArray  # (cells,) the playable hex in each cell, -1 where there is none
    offsets: IntArray  # (M,) every offset within the radius as a step in the flat grid
    crossed: IntArray  # (M, K) its crossed cells as flat steps; padding: `cells` (the never-blocking half)
    forward: BoolArray  # (M,) the offsets pointing down, or east along the row (the whole-board build)
    #: The hexes of each row of the board, by index: a row is what one first question about a hex fills.
    rows: tuple[IntArray, ...]
    row_of: IntArray  # (N,) the row of each hex in `rows`
    indices: Mapping[Hex, int]
    lookup: dict[Hex, int]  # `indices` as a plain dict, for the tables' hot path (never changed)


@functools.lru_cache(maxsize=16)
def _board_index(playable: tuple[Hex, ...], radius: int) -> _BoardIndex:
    table = offset_table(radius)
    size = len(playable)
    axial = np.fromiter(itertools.chain.from_iterable(playable), dtype=np.intp, count=2 * size)
    py = axial[1::2]
    px = 2 * axial[0::2] + py  # doubled coordinates (hexgrid.to_doubled), for the whole board at once
    x0 = int(px.min()) - 2 * radius if size else 0
    y0 = int(py.min()) - radius if size else 0
    width = (int(px.max()) + 2 * radius - x0 + 1) if size else 1
    height = (int(py.max()) + radius - y0 + 1) if size else 1
    cells = width * height

    flat = (py - y0) * width + (px - x0)  # (N,)
    which = np.full(cells, -1, dtype=np.intp)
    which[flat] = np.arange(size, dtype=np.intp)
    dx, dy = table.offsets[:, 0], table.offsets[:, 1]
    crossed = np.where(table.valid, table.crossed[:, :, 1] * width + table.crossed[:, :, 0], cells)
    order = np.argsort(py, kind="stable")
    starts = np.flatnonzero(np.diff(py[order], prepend=py[order][:1] - 1)) if size else np.zeros(0, np.intp)
    rows = tuple(_read_only(chunk) for chunk in np.split(order, starts[1:]) if len(chunk))
    row_of = np.zeros(size, dtype=np.intp)
    for number, chunk in enumerate(rows):
        row_of[chunk] = number
    lookup = {h: i for i, h in enumerate(playable)}
    return _BoardIndex(
        x0=x0,
        y0=y0,
        width=width,
        height=height,
        cells=cells,
        flat=_read_only(flat),
        which=_read_only(which),
        offsets=_read_only(dy * width + dx),
        crossed=_read_only(crossed),
        forward=_read_only((dy > 0) | ((dy == 0) & (dx > 0))),
        rows=rows,
        row_of=_read_only(row_of),
        indices=types.MappingProxyType(lookup),
        lookup=lookup,
    )


@attrs.frozen
class LosTable:
    """Line of sight between playable hexes: within `radius` from rows worked out when first asked,
    exactly (and remembered per pair) beyond it.

    The first question about a hex works out the sight of every hex of its board row to every hex within
    the radius, in one numpy gather into the blocking grid, and keeps, per hex, which offsets it sees;
    a battle asks about the few rows its units stand on, so a designer's 100x100 map costs no more to
    ask than a battle map (the whole-board table was 433 MiB there). `matrix` and `in_radius`, the
    whole board as arrays, are built on demand by one whole-board gather (tests compare the two).
    Hexes not in `blocking` (including any the table does not know) never block.
    """

    playable: tuple[Hex, ...]
    blocking: frozenset[Hex]
    radius: int
    _index: _BoardIndex = attrs.field(eq=False, repr=False)
    _grid: BoolArray = attrs.field(eq=False, repr=False)
    _indices: Mapping[Hex, int] = attrs.field(eq=False, repr=False)
    #: Per hex (by index), once its row is asked: byte m is 1 if it sees the hex at offset m of
    #: `offset_table(radius)` (217 bytes a hex: every row of a 100x100 map takes about 2.5 MiB).
    _seen: list[bytes | None] = fields.field(eq=False, repr=False)
    #: The offset number m of each step (dq, dr) within the radius (`_offset_slots`).
    _slots: dict[tuple[int, int], int] = fields.field(eq=False, repr=False)
    #: `_indices` as a plain dict (asked on every question; never changed).
    _lookup: dict[Hex, int] = fields.field(eq=False, repr=False)
    #: Answers beyond the radius, worked out once per pair (long-range attacks ask again and again).
    _far: dict[tuple[Hex, Hex], bool] = fields.field(init=False, factory=dict, eq=False, repr=False)
    #: The whole-board arrays, once asked.
    _whole: dict[str, BoolArray] = fields.field(init=False, factory=dict, eq=False, repr=False)

    @classmethod
    def build(
        cls, playable: Sequence[Hex], blocking: Collection[Hex], radius: int = DEFAULT_RADIUS
    ) -> LosTable:
        """The blocking grid and the board's index; no line is worked out until one is asked."""
        hexes = tuple(playable)
        blockers = frozenset(blocking)
        index = _board_index(hexes, radius)
        grid = np.zeros(2 * index.cells, dtype=bool)
        cells = [
            (y - index.y0) * index.width + (x - index.x0)
            for x, y in map(to_doubled, blockers)
            if 0 <= x - index.x0 < index.width and 0 <= y - index.y0 < index.height
        ]
        grid[cells] = True
        return cls(
            playable=hexes,
            blocking=blockers,
            radius=radius,
            index=index,
            grid=_read_only(grid),
            indices=index.indices,
            seen=[None] * len(hexes),
            slots=_offset_slots(radius),
            lookup=index.lookup,
        )

    def index(self, hex_: Hex) -> int:
        """The row/column of `hex_` in `matrix`; raises KeyError for a hex that is not playable."""
        return self._indices[hex_]

    def visible(self, a: Hex, b: Hex) -> bool:
        """Whether a and b see each other: from a's row within the radius, exactly beyond it."""
        lookup = self._lookup
        i = lookup.get(a)
        if i is not None and b in lookup:
            slot = self._slots.get((b[0] - a[0], b[1] - a[1]))  # None beyond the radius
            if slot is not None:
                return (self._seen[i] or self._fill_row(i))[slot] == 1
        if (b.r, b.q) < (a.r, a.q):  # sight is symmetric: one order per pair halves the work
            a, b = b, a
        found = self._far.get((a, b))
        if found is None:
            found = self._far[(a, b)] = not any(a + h in self.blocking for h in crossed_offsets(b - a))
        return found

    def _fill_row(self, i: int) -> bytes:
        """Work out what every hex of hex i's board row sees within the radius: one gather for the row."""
        index = self._index
        sources = index.rows[index.row_of[i]]
        cells = index.flat[sources]  # (S,)
        targets = index.which[cells[:, None] + index.offsets[None, :]]  # (S, M), -1: not playable
        blocked = self._grid[cells[:, None, None] + index.crossed[None, :, :]].any(axis=2)  # (S, M)
        sees = ((targets >= 0) & ~blocked).view(np.uint8)  # (S, M) of 0 and 1
        for source, row in zip(sources.tolist(), sees, strict=True):
            self._seen[source] = row.tobytes()
        found = self._seen[i]
        assert found is not None
        return found

    @property
    def matrix(self) -> BoolArray:
        """Sight between every pair of playable hexes, (N, N) in the order of `playable` (valid where
        `in_radius`), read-only: the whole board in one gather, built when first asked."""
        if "matrix" not in self._whole:
            self._build_whole()
        return self._whole["matrix"]

    @property
    def in_radius(self) -> BoolArray:
        """Which pairs are within the radius, (N, N), read-only; built with `matrix`."""
        if "in_radius" not in self._whole:
            self._build_whole()
        return self._whole["in_radius"]

    def _build_whole(self) -> None:
        # Sight is symmetric and a hex sees itself, so only the offsets pointing "forward" are gathered
        # and the result is mirrored.
        index, size = self._index, len(self.playable)
        forward = index.forward
        targets = index.which[index.flat[:, None] + index.offsets[forward][None, :]]  # (N, M/2)
        source_idx, offset_idx = np.nonzero(targets >= 0)
        gather = index.flat[source_idx, None] + index.crossed[forward][offset_idx]  # (P, K)
        pairs = source_idx * size + targets[source_idx, offset_idx]
        in_radius = np.zeros((size, size), dtype=bool)
        in_radius.ravel()[pairs] = True
        in_radius |= in_radius.T
        np.fill_diagonal(in_radius, True)
        matrix = np.zeros((size, size), dtype=bool)
        matrix.ravel()[pairs] = ~self._grid[gather].any(axis=1)
        matrix |= matrix.T
        np.fill_diagonal(matrix, True)
        self._whole["matrix"] = _read_only(matrix)
        self._whole["in_radius"] = _read_only(in_radius)
