"""Hex coordinates, labels, neighbours, distance and facings (docs/contracts.md#hex-labels).

Inside the engine a hex is axial `Hex(q, r)`: `r` is the row index (row A is 0, counting down) and
`q` runs east along the row. Pointy-top hexes, so the six flat sides face E, NE, NW, W, SW, SE.

Doubled-width coordinates are what people and files see: `x = 2*(n-1) + (1 if the row is indented)`
for the n-th full hex of a row, `y` = row index; neighbours differ by (+-2, 0) or (+-1, +-1). A board
whose first row is indented has `shift = 1` (rows alternate, so this fixes the parity of every row).
Conversion: `x = 2*q + r + shift`.

All geometry is integer arithmetic; see `minis.content.los` for the exact line of sight.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator
from typing import NamedTuple


class Hex(NamedTuple):
    """Axial coordinates of a hex. The cube coordinate s is -q-r."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: object) -> Hex:
        if not isinstance(other, tuple) or len(other) != 2:
            return NotImplemented
        return _new_hex(Hex, (self.q + other[0], self.r + other[1]))

    def __sub__(self, other: Hex) -> Hex:
        return _new_hex(Hex, (self.q - other.q, self.r - other.r))


#: A `Hex` made without the named tuple's Python `__new__` (a C call): hexes are added up constantly.
_new_hex = tuple.__new__


class Facing(enum.Enum):
    """The six hexsides a Vehicle can face, each with the axial step to the hex beyond it."""

    E = (1, 0)
    NE = (1, -1)
    NW = (0, -1)
    W = (-1, 0)
    SW = (-1, 1)
    SE = (0, 1)

    @property
    def step(self) -> Hex:
        return Hex(*self.value)

    @property
    def doubled(self) -> tuple[int, int]:
        """The step in doubled-width coordinates (dx, dy)."""
        dq, dr = self.value
        return (2 * dq + dr, dr)

    @property
    def opposite(self) -> Facing:
        dq, dr = self.value
        return Facing((-dq, -dr))

    @classmethod
    def parse(cls, text: str) -> Facing:
        """`E`, `ne`, ... to a Facing; raises ValueError naming the six valid words."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown facing '{text}' (one of E NE NW W SW SE)") from None


#: The facings in counter-clockwise order starting east (useful for turning and drawing).
FACINGS: tuple[Facing, ...] = tuple(Facing)
_BY_STEP: dict[tuple[int, int], Facing] = {f.value: f for f in FACINGS}
#: The facing of each axial step (q, r) to an adjacent hex: `direction_to` without the call (hot loops).
FACING_BY_STEP = _BY_STEP
#: Per facing (None too), the other facings in the order of FACINGS: where a Vehicle may turn (asked
#: at every listing of a Vehicle's options; built once instead of filtering FACINGS each time).
OTHER_FACINGS: dict[Facing | None, tuple[Facing, ...]] = {
    facing: tuple(f for f in FACINGS if f is not facing) for facing in (*FACINGS, None)
}


def neighbours(hex_: Hex) -> list[Hex]:
    """The six hexes adjacent to `hex_`, in the order of FACINGS (whether or not they are on a board)."""
    return [hex_ + facing.value for facing in FACINGS]


def direction_to(origin: Hex, target: Hex) -> Facing | None:
    """The facing that points from `origin` to an adjacent `target`; None if not adjacent."""
    return _BY_STEP.get((target.q - origin.q, target.r - origin.r))


def distance(a: Hex, b: Hex) -> int:
    """Hexes counted from a to b, counting b's hex but not a's (adjacent = 1, same hex = 0)."""
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def to_doubled(hex_: Hex, shift: int = 0) -> tuple[int, int]:
    """Axial to doubled-width (x, y); `shift` is 1 when the board's first row is indented."""
    return (2 * hex_.q + hex_.r + shift, hex_.r)


def from_doubled(x: int, y: int, shift: int = 0) -> Hex:
    """Doubled-width (x, y) to axial; raises ValueError if (x, y) is not a hex centre."""
    if (x - y - shift) % 2:
        raise ValueError(f"({x}, {y}) is not a hex centre in doubled coordinates")
    return Hex((x - y - shift) // 2, y)


def is_indented(row: int, shift: int = 0) -> bool:
    """True if row `row` is shifted half a hex to the right of a long row."""
    return (row + shift) % 2 == 1


def is_front(vehicle: Hex, facing: Facing, attacker: Hex) -> bool:
    """True if an attack from `attacker` is against the front of a Vehicle in `vehicle` facing `facing`.

    The attacker's centre must lie strictly ahead of the line through the Vehicle's centre
    perpendicular to its facing; the same hex and hexes exactly on that line are rear. In true
    Cartesian units a doubled step (dx, dy) is (dx*sqrt(3)/2, dy*3/2), so the dot product with the
    facing's step (fx, fy) is proportional to dx*fx + 3*dy*fy: an integer test.
    """
    dx, dy = to_doubled(attacker - vehicle)
    fx, fy = facing.doubled
    return dx * fx + 3 * dy * fy > 0


def ring(center: Hex, radius: int) -> Iterator[Hex]:
    """The hexes at exactly `radius` from `center` (the centre itself for radius 0)."""
    if radius == 0:
        yield center
        return
    hex_ = Hex(center.q + Facing.SW.step.q * radius, center.r + Facing.SW.step.r * radius)
    for facing in FACINGS:
        for _ in range(radius):
            yield hex_
            hex_ = hex_ + facing.value


def within(center: Hex, radius: int) -> Iterator[Hex]:
    """Every hex at distance `radius` or less from `center`."""
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield Hex(center.q + dq, center.r + dr)


# --- labels -----------------------------------------------------------------------------------------

_LABEL = re.compile(r"^([A-Z]+)([1-9][0-9]{0,5})$")  # no board has a millionth column


def row_letters(row: int) -> str:
    """Row index to letters: 0 -> A, 25 -> Z, 26 -> AA (spreadsheet style, for maps of any size)."""
    if row < 0:
        raise ValueError(f"row index {row} is negative")
    letters = ""
    row += 1
    while row:
        row, rem = divmod(row - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def row_index(letters: str) -> int:
    """Row letters to index: A -> 0, Z -> 25, AA -> 26."""
    index = 0
    for char in letters:
        index = index * 26 + (ord(char) - ord("A") + 1)
    return index - 1


def label(hex_: Hex, shift: int = 0) -> str:
    """The label people use, `E9` = row E, ninth full hex from the left (docs/contracts.md#hex-labels)."""
    x, y = to_doubled(hex_, shift)
    indent = 1 if is_indented(y, shift) else 0
    return f"{row_letters(y)}{(x - indent) // 2 + 1}"


def parse_label(text: str, shift: int = 0) -> Hex:
    """`E9` to a Hex; raises ValueError with a readable message for anything that is not a label.

    Only the form is checked here; whether the hex is on a board is the board's question.
    """
    match = _LABEL.match(text.strip().upper())
    if not match:
        raise ValueError(f"'{text}' is not a hex label (a row letter and a number, like E9)")
    row = row_index(match.group(1))
    number = int(match.group(2))
    x = 2 * (number - 1) + (1 if is_indented(row, shift) else 0)
    return from_doubled(x, row, shift)


# --- exact segment geometry (line of sight) ---------------------------------------------------------
#
# Whether a segment meets a hexagon's interior is affine-invariant, so we work in the integer frame
# (X, Y) = (x, 3*y) of doubled-width coordinates (x, y) with shift 0. There every hex centre is an
# integer point and the six vertices of the hex centred at (X, Y) are (X+-1, Y+-1) and (X, Y+-2):
#
#              (X, Y-2)
#     (X-1, Y-1)      (X+1, Y-1)
#            .  (X, Y)  .
#     (X-1, Y+1)      (X+1, Y+1)
#              (X, Y+2)
#
# Edge normals are (1, 0), (1, 1) and (1, -1), along which the hexagon centred at the origin projects
# to [-1, 1], [-2, 2] and [-2, 2].


def _frame(hex_: Hex) -> tuple[int, int]:
    """The integer affine frame (x, 3*y) in which hex vertices are integer points."""
    return (2 * hex_.q + hex_.r, 3 * hex_.r)


def _strict_overlap(s0: int, s1: int, lo: int, hi: int) -> bool:
    """True if the segment's projection [min(s0, s1), max(s0, s1)] meets the open interval (lo, hi).

    This is `lo < max(s) and min(s) < hi`: for a segment that projects to a point p it reads lo < p < hi,
    so touching the boundary (a vertex or a hexside) never counts.
    """
    return lo < max(s0, s1) and min(s0, s1) < hi


def segment_crosses_hex(a: Hex, b: Hex, h: Hex) -> bool:
    """True if the segment between the centres of a and b passes through the *interior* of hex h.

    A separating-axis test with strict overlap on the hexagon's three edge normals and the segment's
    normal (their union holds every edge normal of the Minkowski difference, so it is exact). A segment
    running exactly along a hexside or through a vertex does not cross. A degenerate segment (a == b)
    is a point, inside h only when it is h's centre.
    """
    if a == b:
        return a == h
    hx, hy = _frame(h)
    ax, ay = _frame(a)
    bx, by = _frame(b)
    ax, ay, bx, by = ax - hx, ay - hy, bx - hx, by - hy
    if not _strict_overlap(ax, bx, -1, 1):
        return False
    if not _strict_overlap(ax + ay, bx + by, -2, 2):
        return False
    if not _strict_overlap(ax - ay, bx - by, -2, 2):
        return False
    # Segment normal n: the whole segment projects to the single value p = n . a.
    nx, ny = ay - by, bx - ax
    p = nx * ax + ny * ay
    reach = max(abs(nx + ny), abs(nx - ny), 2 * abs(ny))  # max |n . v| over the six vertices
    return -reach < p < reach


def crossed_hexes(a: Hex, b: Hex) -> tuple[Hex, ...]:
    """Every hex other than a and b whose interior the segment between their centres crosses, from a to b.

    A crossed hex holds a point of the segment less than one unit from its centre in x and less than
    two thirds of a row in y (its interior's reach). So its centre lies within the doubled-coordinate
    bounding box of a and b and, on each row, no further in x than the segment's x one row above or
    below (widened by one unit): only those candidates get the exact test. Consecutive crossed hexes are
    neighbours entered across their shared side (or through a vertex at its end), which lies on the
    perpendicular bisector of their centres; so the order along the segment is the order of the
    centres' projections on the segment direction. That projection must be Euclidean (the (x, 3y)
    frame is not): in doubled units the real dot product is proportional to dx1*dx2 + 3*dy1*dy2, as in
    `is_front`.
    """
    ax, ay = to_doubled(a)
    bx, by = to_doubled(b)
    found: list[tuple[int, Hex]] = []
    dx, dy = bx - ax, by - ay
    # The segment's x on the line through it, as floor/ceil of a fraction with a positive denominator:
    # x(t) = sx + ddx * (t - sy) / ddy from its lower-row end (sx, sy).
    (sx, sy), (ex, ey) = sorted(((ax, ay), (bx, by)), key=lambda p: p[1])
    ddx, ddy = ex - sx, ey - sy
    left, right = min(ax, bx), max(ax, bx)
    for y in range(sy, ey + 1):
        x0, x1 = left, right
        if ddy:
            above = sx * ddy + ddx * (y - 1 - sy)
            below = sx * ddy + ddx * (y + 1 - sy)
            x0 = max(x0, min(above, below) // ddy)
            x1 = min(x1, -(-max(above, below) // ddy))
        if (x0 - y) % 2:
            x0 += 1
        for x in range(x0, x1 + 1, 2):
            h = from_doubled(x, y)
            if h != a and h != b and segment_crosses_hex(a, b, h):
                found.append((dx * (x - ax) + 3 * dy * (y - ay), h))
    found.sort()
    return tuple(h for _, h in found)
