"""Hex basics: distance, labels, facings, rings (docs/contracts.md#hex-labels)."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minis.hexgrid import (
    FACINGS,
    Facing,
    Hex,
    direction_to,
    distance,
    from_doubled,
    is_front,
    label,
    neighbours,
    parse_label,
    ring,
    row_index,
    row_letters,
    to_doubled,
    within,
)

coord = st.integers(-6, 6)
hexes = st.builds(Hex, coord, coord)


def bfs_distance(a: Hex, b: Hex) -> int:
    """Steps over `neighbours` from a to b (the independent definition of distance)."""
    seen = {a: 0}
    queue = deque([a])
    while queue:
        h = queue.popleft()
        if h == b:
            return seen[h]
        for n in neighbours(h):
            if n not in seen:
                seen[n] = seen[h] + 1
                queue.append(n)
    raise AssertionError("unreachable")


@settings(max_examples=150, deadline=None)
@given(hexes, hexes)
def test_distance_is_bfs_distance(a: Hex, b: Hex) -> None:
    assert distance(a, b) == bfs_distance(a, b)


def test_distance_counts_target_not_attacker() -> None:
    o = Hex(0, 0)
    assert distance(o, o) == 0
    assert all(distance(o, n) == 1 for n in neighbours(o))
    assert distance(from_doubled(0, 0), from_doubled(8, 0)) == 4  # A1 to A5


def test_neighbours_in_doubled_coordinates() -> None:
    for shift in (0, 1):
        h = from_doubled(6 + shift, 2, shift)
        x, y = to_doubled(h, shift)
        steps = {(nx - x, ny - y) for nx, ny in (to_doubled(n, shift) for n in neighbours(h))}
        assert steps == {(2, 0), (-2, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)}
        assert [direction_to(h, n) for n in neighbours(h)] == list(FACINGS)
    assert direction_to(Hex(0, 0), Hex(2, 0)) is None


def test_facing_steps_and_opposites() -> None:
    assert [f.doubled for f in FACINGS] == [(2, 0), (1, -1), (-1, -1), (-2, 0), (-1, 1), (1, 1)]
    assert all(f.opposite.opposite is f and f.opposite is not f for f in FACINGS)
    assert Facing.parse(" ne ") is Facing.NE
    with pytest.raises(ValueError, match="one of E NE NW W SW SE"):
        Facing.parse("N")


# --- labels ---------------------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 60), st.integers(1, 40), st.integers(0, 1))
def test_labels_round_trip(row: int, number: int, shift: int) -> None:
    text = f"{row_letters(row)}{number}"
    hex_ = parse_label(text, shift)
    assert label(hex_, shift) == text
    assert parse_label(label(hex_, shift), shift) == hex_
    assert hex_.r == row


@settings(max_examples=200, deadline=None)
@given(hexes, st.integers(0, 1))
def test_hex_to_label_round_trip(hex_: Hex, shift: int) -> None:
    if hex_.r < 0 or to_doubled(hex_, shift)[0] < 0:
        return  # off the top or left of any board: no label
    assert parse_label(label(hex_, shift), shift) == hex_


def test_labels_by_hand() -> None:
    """Row A long (shift 0): A1 at doubled (0, 0), B1 indented at (1, 1); E9 at (16, 4)."""
    assert to_doubled(parse_label("A1")) == (0, 0)
    assert to_doubled(parse_label("B1")) == (1, 1)
    assert to_doubled(parse_label("e9")) == (16, 4)
    assert to_doubled(parse_label("B1", shift=1), shift=1) == (0, 1)  # first row indented: B is long
    assert to_doubled(parse_label("A1", shift=1), shift=1) == (1, 0)
    assert row_letters(0) == "A" and row_letters(25) == "Z" and row_letters(26) == "AA"
    assert row_index("AB") == 27


@pytest.mark.parametrize("bad", ["", "E", "9", "E0", "E09", "9E", "E-1", "É9", "E 9", "E9a", "_1"])
def test_bad_labels_raise_value_error(bad: str) -> None:
    with pytest.raises(ValueError, match="not a hex label"):
        parse_label(bad)


def test_from_doubled_rejects_non_centres() -> None:
    with pytest.raises(ValueError):
        from_doubled(1, 0)
    with pytest.raises(ValueError):
        from_doubled(0, 0, shift=1)


# --- facings: front and rear ------------------------------------------------------------------------


@pytest.mark.parametrize("facing", FACINGS)
def test_is_front_against_neighbours(facing: Facing) -> None:
    """The faced hexside and the two beside it are front; the other three and the same hex are rear.

      NW  NE            facing E: front = E, NE, SE (centres strictly right of the vertical
    W   *   E           line through *), rear = W, NW, SW and * itself.
      SW  SE
    """
    v = Hex(2, 3)
    i = FACINGS.index(facing)
    front = {FACINGS[(i + k) % 6] for k in (-1, 0, 1)}
    for other in FACINGS:
        assert is_front(v, facing, v + other.value) == (other in front), other
    assert not is_front(v, facing, v)


@pytest.mark.parametrize("facing", FACINGS)
def test_is_front_directly_left_and_right_are_rear(facing: Facing) -> None:
    """Hexes exactly on the line perpendicular to the facing (e.g. doubled (0, +-2k) for E) are rear;
    one step ahead of that line is front."""
    v = Hex(0, 0)
    i = FACINGS.index(facing)
    left = FACINGS[(i + 1) % 6].step + FACINGS[(i + 2) % 6].value
    right = FACINGS[(i - 1) % 6].step + FACINGS[(i - 2) % 6].value
    for k in range(1, 5):
        for side in (left, right):
            on_line = Hex(side.q * k, side.r * k)
            assert not is_front(v, facing, on_line)
            assert is_front(v, facing, on_line + facing.value)
    if facing is Facing.E:
        assert to_doubled(left) == (0, -2) and to_doubled(right) == (0, 2)


# --- rings ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("radius", range(0, 9))
def test_ring_and_within_sizes(radius: int) -> None:
    center = Hex(3, -1)
    ring_hexes = list(ring(center, radius))
    assert len(ring_hexes) == (6 * radius if radius else 1)
    assert len(set(ring_hexes)) == len(ring_hexes)
    assert all(distance(center, h) == radius for h in ring_hexes)
    inside = list(within(center, radius))
    assert len(inside) == 1 + 3 * radius * (radius + 1)
    assert set(inside) == {h for r in range(radius + 1) for h in ring(center, r)}
