"""`segment_crosses_hex` and `crossed_hexes` against an independent exact oracle, plus hand-drawn cases."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minis.hexgrid import (
    FACINGS,
    Hex,
    crossed_hexes,
    distance,
    from_doubled,
    segment_crosses_hex,
    to_doubled,
    within,
)

# --- the oracle ---------------------------------------------------------------------------------------
# Exact Cyrus-Beck clipping with Fractions, in *axial* (q, r) coordinates (an affine image of the real
# plane, different from the (x, 3y) frame the code uses). A hex vertex is where three hexes meet, so it
# is the centroid of the three centres: h, h + step(i), h + step(i + 1) for consecutive facings.

Point = tuple[Fraction, Fraction]


def _vertices(h: Hex) -> list[Point]:
    steps = [f.step for f in FACINGS]
    out = []
    for i in range(6):
        s1, s2 = steps[i], steps[(i + 1) % 6]
        out.append((Fraction(3 * h.q + s1.q + s2.q, 3), Fraction(3 * h.r + s1.r + s2.r, 3)))
    return out


def _cross(ux: Fraction, uy: Fraction, vx: Fraction, vy: Fraction) -> Fraction:
    return ux * vy - uy * vx


def oracle(a: Hex, b: Hex, h: Hex) -> Fraction | None:
    """The entry parameter t in [0, 1] if segment a-b meets h's open interior, else None."""
    verts = _vertices(h)
    ax, ay = Fraction(a.q), Fraction(a.r)
    dx, dy = Fraction(b.q - a.q), Fraction(b.r - a.r)
    lo, hi = Fraction(0), Fraction(1)
    edges = []
    for i in range(6):
        (v0x, v0y), (v1x, v1y) = verts[i], verts[(i + 1) % 6]
        ex, ey = v1x - v0x, v1y - v0y
        side = 1 if _cross(ex, ey, h.q - v0x, h.r - v0y) > 0 else -1  # the centre's side is inside
        c0 = side * _cross(ex, ey, ax - v0x, ay - v0y)
        c1 = side * _cross(ex, ey, dx, dy)
        edges.append((c0, c1))
        if c1 == 0:
            if c0 < 0:
                return None
        elif c1 > 0:
            lo = max(lo, -c0 / c1)
        else:
            hi = min(hi, -c0 / c1)
    if not lo < hi:
        return None
    mid = (lo + hi) / 2
    if all(c0 + mid * c1 > 0 for c0, c1 in edges):
        return lo
    return None


def test_oracle_sanity() -> None:
    """The oracle itself: a centre-to-centre line crosses the hex between, not one beside it."""
    o = Hex(0, 0)
    assert oracle(o, Hex(2, 0), Hex(1, 0)) == Fraction(1, 4)
    assert oracle(o, Hex(2, 0), Hex(1, -1)) is None
    assert oracle(o, Hex(2, -1), Hex(1, 0)) is None  # doubled (3, -1): along a hexside
    assert oracle(o, o, o) == 0  # a point at the centre is inside


# --- segment_crosses_hex == oracle --------------------------------------------------------------------

coord = st.integers(-8, 8)
hexes = st.builds(Hex, coord, coord)


@st.composite
def segment_and_nearby_hex(draw: st.DrawFn) -> tuple[Hex, Hex, Hex]:
    """A segment and a hex near some point of it (most random hexes would be trivially far away)."""
    a, b = draw(hexes), draw(hexes)
    n = draw(st.integers(1, 12))
    t = draw(st.integers(0, n))
    dq, dr = draw(st.integers(-2, 2)), draw(st.integers(-2, 2))
    h = Hex(a.q + (b.q - a.q) * t // n + dq, a.r + (b.r - a.r) * t // n + dr)
    return a, b, h


@settings(max_examples=300, deadline=None)
@given(segment_and_nearby_hex())
def test_segment_crosses_hex_matches_oracle(case: tuple[Hex, Hex, Hex]) -> None:
    a, b, h = case
    assert segment_crosses_hex(a, b, h) == (oracle(a, b, h) is not None)


@settings(max_examples=150, deadline=None)
@given(hexes, hexes, hexes)
def test_segment_crosses_hex_matches_oracle_anywhere(a: Hex, b: Hex, h: Hex) -> None:
    assert segment_crosses_hex(a, b, h) == (oracle(a, b, h) is not None)


def test_segment_crosses_hex_exhaustive_small_offsets() -> None:
    """Every offset within 4 of the origin against every hex near the segment (vertex touches included)."""
    origin = Hex(0, 0)
    checked = 0
    for b in within(origin, 4):
        for h in within(origin, 6):
            assert segment_crosses_hex(origin, b, h) == (oracle(origin, b, h) is not None), (b, h)
            checked += 1
    assert checked == 61 * 127


@settings(max_examples=150, deadline=None)
@given(hexes, hexes)
def test_crossed_hexes_matches_oracle_in_order(a: Hex, b: Hex) -> None:
    """All crossed hexes are found (even searching well outside the bounding box), ordered by entry."""
    (ax, ay), (bx, by) = to_doubled(a), to_doubled(b)
    search = {  # the bounding box in doubled coordinates, widened by two hexes each way
        from_doubled(x, y)
        for y in range(min(ay, by) - 2, max(ay, by) + 3)
        for x in range(min(ax, bx) - 4, max(ax, bx) + 5)
        if (x - y) % 2 == 0
    }
    entries = [(t, h) for h in search if h not in (a, b) and (t := oracle(a, b, h)) is not None]
    entries.sort()
    assert crossed_hexes(a, b) == tuple(h for _, h in entries)
    # Entry parameters are distinct: consecutive hexes along the line never tie.
    assert len({t for t, _ in entries}) == len(entries)


@settings(max_examples=100, deadline=None)
@given(hexes, hexes)
def test_crossed_hexes_reversed(a: Hex, b: Hex) -> None:
    assert crossed_hexes(b, a) == tuple(reversed(crossed_hexes(a, b)))


@settings(max_examples=100, deadline=None)
@given(hexes, hexes, hexes)
def test_crossed_hexes_translation_invariant(a: Hex, b: Hex, t: Hex) -> None:
    shifted = crossed_hexes(a + t, b + t)
    assert shifted == tuple(h + t for h in crossed_hexes(a, b))


# --- hexsides and vertices ----------------------------------------------------------------------------


#: The six doubled offsets at distance 2 whose line runs along a hexside from vertex to vertex.
HEXSIDE_STEPS = ((0, 2), (0, -2), (3, 1), (3, -1), (-3, 1), (-3, -1))


def test_only_hexside_lines_and_neighbours_cross_nothing() -> None:
    """Within range 8, a line crosses no hex only between neighbours or along one of the six hexside lines.

    Note: the multiples (0, 2k) and (3k, k) for k >= 2 do *not* run along hexsides all the way: they pass
    through the centre of every hex at (0, 2j) or (3j, j) in between (next test).
    """
    origin = Hex(0, 0)
    empty = []
    for b in within(origin, 8):
        if distance(origin, b) >= 2 and not crossed_hexes(origin, b):
            empty.append((2 * b.q + b.r, b.r))
    assert sorted(empty) == sorted(HEXSIDE_STEPS)


@pytest.mark.parametrize("step", HEXSIDE_STEPS)
def test_hexside_multiples_cross_only_the_hexes_on_the_line(step: tuple[int, int]) -> None:
    """(0, 2k) and (3k, k): centre, vertex, along a hexside, vertex, centre, ... so the hexes on both sides
    of the line are never crossed; only the hexes whose centres lie on it are."""
    sx, sy = step
    for k in range(1, 6):
        line = crossed_hexes(Hex(0, 0), from_doubled(k * sx, k * sy))
        assert line == tuple(from_doubled(j * sx, j * sy) for j in range(1, k))


def test_vertex_touch_does_not_cross() -> None:
    r"""Doubled (0, 0) to (9, 1): the line passes exactly through the vertex where (2, 0), (4, 0) and (3, 1)
    meet. It crosses (2, 0) then (4, 0); (3, 1) is only touched at that vertex.

        (0,0)   (2,0)   (4,0)   (6,0)   (8,0)
          *---------__x_____
                (1,1)  ^ (3,1)  (5,1)   (7,1)  (9,1)
                       vertex                    *
    """
    a, b = from_doubled(0, 0), from_doubled(9, 1)
    touched = from_doubled(3, 1)
    assert not segment_crosses_hex(a, b, touched)
    assert oracle(a, b, touched) is None
    crossed = crossed_hexes(a, b)
    assert crossed[:2] == (from_doubled(2, 0), from_doubled(4, 0))
    assert touched not in crossed


# --- hand-checked examples -------------------------------------------------------------------------------


def test_hand_checked_straight_row() -> None:
    """Along a row every hex between is crossed through its centre.

    (0,0) (2,0) (4,0) (6,0) (8,0)
      a-----x-----x-----x-----b
    """
    assert crossed_hexes(from_doubled(0, 0), from_doubled(8, 0)) == tuple(
        from_doubled(x, 0) for x in (2, 4, 6)
    )


def test_hand_checked_along_hexside() -> None:
    r"""Doubled (0, 0) to (3, 1) runs along the hexside shared by (2, 0) and (1, 1): nothing is crossed.

      (0,0)   (2,0)
        a__      |
           ``--__|__        <- the shared side of (2,0) and (1,1), the line runs on it
             (1,1)   b (3,1)
    Same for the vertical line (0, 0) to (0, 2), between (-1, 1) and (1, 1).
    """
    assert crossed_hexes(from_doubled(0, 0), from_doubled(3, 1)) == ()
    assert crossed_hexes(from_doubled(0, 0), from_doubled(0, 2)) == ()
    assert not segment_crosses_hex(from_doubled(0, 0), from_doubled(3, 1), from_doubled(2, 0))
    assert not segment_crosses_hex(from_doubled(0, 0), from_doubled(3, 1), from_doubled(1, 1))


def test_hand_checked_knight_move() -> None:
    r"""Doubled (0, 0) to (5, 1), axial Hex(0, 0) to Hex(2, 1). In the (x, 3y) frame the line is Y = 3X/5.

        (0,0)     (2,0)     (4,0)
          a--__
               ``--__             x=2: Y=1.2, inside (2,0) (spans Y -2..2)      -> crossed
                     ``--__       x=3: Y=1.8, inside (3,1) (spans Y 1..5)       -> crossed
             (1,1)     (3,1) ``b (5,1)
    (1,1) is missed (line below its lower edge, Y=0.6 < 1 at x=1, 1.2 < 2 at x=2), and so is (4,0)
    (at x=4 the line is at Y=2.4, below its bottom vertex Y=2).
    """
    assert crossed_hexes(Hex(0, 0), Hex(2, 1)) == (Hex(1, 0), Hex(1, 1))
    assert from_doubled(2, 0) == Hex(1, 0) and from_doubled(3, 1) == Hex(1, 1)
    assert not segment_crosses_hex(Hex(0, 0), Hex(2, 1), from_doubled(1, 1))
    assert not segment_crosses_hex(Hex(0, 0), Hex(2, 1), from_doubled(4, 0))


def test_degenerate_segment() -> None:
    o = Hex(3, -2)
    assert segment_crosses_hex(o, o, o)
    assert not any(segment_crosses_hex(o, o, n) for n in within(o, 1) if n != o)
    assert crossed_hexes(o, o) == ()
