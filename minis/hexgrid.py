"""Hex coordinates, labels, neighbours, distance and facings (DESIGN section 2).

Inside the engine a hex is axial `Hex(q, r)`: `r` is the row index (row A is 0, counting down) and
`q` runs east along the row. Pointy-top hexes, so the six flat sides face E, NE, NW, W, SW, SE.

Doubled-width coordinates are what people and files see: `x = 2*(n-1) + (1 if the row is indented)`
for the n-th full hex of a row, `y` = row index; neighbours differ by (+-2, 0) or (+-1, +-1). A board
whose first row is indented has `shift = 1` (rows alternate, so this fixes the parity of every row).
Conversion: `x = 2*q + r + shift`.

All geometry is integer arithmetic; see `minis.los` for the exact line of sight.
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

    def __add__(self, other: object) -> Hex:  # type: ignore[override]
        if not isinstance(other, tuple) or len(other) != 2:
            return NotImplemented
        return Hex(self.q + other[0], self.r + other[1])

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)


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


def neighbours(hex_: Hex) -> list[Hex]:
    """The six hexes adjacent to `hex_`, in the order of FACINGS (whether or not they are on a board)."""
    return [hex_ + facing.value for facing in FACINGS]


def direction_to(origin: Hex, target: Hex) -> Facing | None:
    """The facing that points from `origin` to an adjacent `target`; None if not adjacent."""
    try:
        return Facing((target.q - origin.q, target.r - origin.r))
    except ValueError:
        return None


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
    hex_ = center + (Facing.SW.step.q * radius, Facing.SW.step.r * radius)
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

_LABEL = re.compile(r"^([A-Z]+)([1-9][0-9]*)$")


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
    """The label people use, `E9` = row E, ninth full hex from the left (DESIGN section 2)."""
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
