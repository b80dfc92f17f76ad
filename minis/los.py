"""Exact line of sight, per pair and as a whole-board table (DESIGN section 2, rulebook "Line of Sight").

Two hexes see each other unless the segment between their centres passes through the interior of a
blocking hex other than the two end hexes (`minis.hexgrid.crossed_hexes`). The hexes crossed depend only
on the offset between the two hexes, so a table of crossed offsets per offset (built once per radius)
turns the whole board's visibility into a single numpy gather: for every (hex, offset) pair, look up the
crossed cells in a padded blocking grid and ask whether any of them blocks.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from minis.hexgrid import Hex, crossed_hexes, distance, to_doubled, within

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


def _read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    array.flags.writeable = False
    return array


@attrs.frozen
class _BoardIndex:
    """Index arrays that depend only on the board's playable hexes and the radius (cached per board).

    The board is laid into a doubled-coordinate grid padded by the radius on every side (so no offset
    wraps around a row) and flattened: `cells` cells. The blocking array has twice that length; its
    second half never blocks, and padding entries of a line point there (`cell + cells`), so that the
    gather needs no masking.
    """

    x0: int
    y0: int
    width: int
    height: int
    cells: int
    pairs: IntArray  # (P,) flat index source * N + target of each forward in-radius pair
    gather: IntArray  # (P, K) flat grid cells crossed between source and target (or never-blocking)
    in_radius: BoolArray  # (N, N), read-only
    indices: Mapping[Hex, int]


@functools.lru_cache(maxsize=16)
def _board_index(playable: tuple[Hex, ...], radius: int) -> _BoardIndex:
    table = offset_table(radius)
    size = len(playable)
    coords = np.array([to_doubled(h) for h in playable], dtype=np.intp).reshape(-1, 2)
    px, py = coords[:, 0], coords[:, 1]
    x0 = int(px.min()) - 2 * radius if size else 0
    y0 = int(py.min()) - radius if size else 0
    width = (int(px.max()) + 2 * radius - x0 + 1) if size else 1
    height = (int(py.max()) + radius - y0 + 1) if size else 1
    cells = width * height

    flat = (py - y0) * width + (px - x0)  # (N,)
    which = np.full(cells, -1, dtype=np.intp)
    which[flat] = np.arange(size, dtype=np.intp)

    # Sight is symmetric and a hex sees itself, so only the offsets pointing "forward" (down, or east
    # along the row) are gathered; the build mirrors them.
    dx, dy = table.offsets[:, 0], table.offsets[:, 1]
    forward = (dy > 0) | ((dy == 0) & (dx > 0))
    off_flat = (dy * width + dx)[forward]  # (M/2,)
    cross_flat = np.where(table.valid, table.crossed[:, :, 1] * width + table.crossed[:, :, 0], cells)
    cross_flat = cross_flat[forward]  # (M/2, K)
    target = which[flat[:, None] + off_flat[None, :]]  # (N, M/2), -1 where the target is not playable
    source_idx, offset_idx = np.nonzero(target >= 0)
    gather = flat[source_idx, None] + cross_flat[offset_idx]  # (P, K)
    pairs = source_idx * size + target[source_idx, offset_idx]
    in_radius = np.zeros((size, size), dtype=bool)
    in_radius.ravel()[pairs] = True
    in_radius |= in_radius.T
    np.fill_diagonal(in_radius, True)
    return _BoardIndex(
        x0=x0,
        y0=y0,
        width=width,
        height=height,
        cells=cells,
        pairs=_read_only(pairs),
        gather=_read_only(gather),
        in_radius=_read_only(in_radius),
        indices=types.MappingProxyType({h: i for i, h in enumerate(playable)}),
    )


@attrs.frozen
class LosTable:
    """Line of sight between every pair of playable hexes within `radius`, plus exact answers beyond it.

    `matrix[i, j]` is valid where `in_radius[i, j]`; indices follow the order of `playable`. Both arrays
    are read-only (`in_radius` is shared between tables of the same board shape).
    Hexes not in `blocking` (including any the table does not know) never block.
    """

    playable: tuple[Hex, ...]
    blocking: frozenset[Hex]
    radius: int
    matrix: BoolArray = attrs.field(eq=False, repr=False)
    in_radius: BoolArray = attrs.field(eq=False, repr=False)
    _indices: Mapping[Hex, int] = attrs.field(eq=False, repr=False)
    #: Answers beyond the radius, worked out once per pair (long-range attacks ask again and again).
    _far: dict[tuple[Hex, Hex], bool] = attrs.field(init=False, factory=dict, eq=False, repr=False)

    @classmethod
    def build(
        cls, playable: Sequence[Hex], blocking: Collection[Hex], radius: int = DEFAULT_RADIUS
    ) -> LosTable:
        """Compute the table: one gather into the blocking grid and one `any` over the crossed cells."""
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
        size = len(hexes)
        matrix = np.zeros((size, size), dtype=bool)
        matrix.ravel()[index.pairs] = ~grid[index.gather].any(axis=1)
        matrix |= matrix.T
        np.fill_diagonal(matrix, True)
        return cls(
            playable=hexes,
            blocking=blockers,
            radius=radius,
            matrix=_read_only(matrix),
            in_radius=index.in_radius,
            indices=index.indices,
        )

    def index(self, hex_: Hex) -> int:
        """The row/column of `hex_` in `matrix`; raises KeyError for a hex that is not playable."""
        return self._indices[hex_]

    def visible(self, a: Hex, b: Hex) -> bool:
        """Whether a and b see each other: from the table within the radius, exactly beyond it."""
        i, j = self._indices.get(a), self._indices.get(b)
        if i is not None and j is not None and distance(a, b) <= self.radius:
            return bool(self.matrix[i, j])
        if (b.r, b.q) < (a.r, a.q):  # sight is symmetric: one order per pair halves the work
            a, b = b, a
        found = self._far.get((a, b))
        if found is None:
            found = self._far[(a, b)] = not any(a + h in self.blocking for h in crossed_offsets(b - a))
        return found
