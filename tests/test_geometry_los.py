"""Line of sight: the whole-board table against the exact per-pair reference, and the rulebook's cases."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minis.content.los import LosTable, crossed_offsets, line_of_sight, offset_table
from minis.hexgrid import Hex, crossed_hexes, distance, from_doubled, within


def board(rows: int, long_row: int, shift: int) -> list[Hex]:
    """A board of `rows` rows alternating `long_row` and `long_row - 1` full hexes; shift 1 indents row A."""
    hexes = []
    for y in range(rows):
        indented = (y + shift) % 2 == 1
        for n in range(long_row - 1 if indented else long_row):
            hexes.append(from_doubled(2 * n + (1 if indented else 0), y, shift))
    return hexes


def half_hexes(rows: int, long_row: int, shift: int) -> list[Hex]:
    """The half-hexes around such a board: a row above and below, and the ends of the indented rows."""
    out = []
    for y in (-1, rows):
        indented = (y + shift) % 2 == 1
        out += [from_doubled(2 * n + (1 if indented else 0), y, shift) for n in range(long_row)]
    for y in range(rows):
        if (y + shift) % 2 == 1:
            out += [from_doubled(-1, y, shift), from_doubled(2 * long_row - 1, y, shift)]
    return out


@st.composite
def boards(draw: st.DrawFn) -> tuple[list[Hex], set[Hex], int]:
    rows = draw(st.integers(1, 9))
    long_row = draw(st.integers(2, 12))
    shift = draw(st.integers(0, 1))
    rnd = draw(st.randoms(use_true_random=False))
    playable = board(rows, long_row, shift)
    rnd.shuffle(playable)  # the table's index order is the order given
    percent = draw(st.integers(0, 60))
    blocking = {h for h in playable + half_hexes(rows, long_row, shift) if rnd.randrange(100) < percent}
    radius = draw(st.sampled_from([1, 2, 3, 5, 8, 8, 8]))
    return list(playable), blocking, radius


@settings(max_examples=60, deadline=None)
@given(boards())
def test_table_matches_exact_per_pair(case: tuple[list[Hex], set[Hex], int]) -> None:
    playable, blocking, radius = case
    table = LosTable.build(playable, blocking, radius)
    n = len(playable)
    assert table.matrix.shape == table.in_radius.shape == (n, n)
    for i, a in enumerate(playable):
        assert table.index(a) == i
        for j, b in enumerate(playable):
            exact = line_of_sight(blocking.__contains__, a, b)
            assert table.in_radius[i, j] == (distance(a, b) <= radius)
            if table.in_radius[i, j]:
                assert table.matrix[i, j] == exact, (a, b)
            assert table.visible(a, b) == exact, (a, b)


@pytest.mark.parametrize(("shift", "percent", "seed"), [(0, 25, 1), (1, 40, 2)])
def test_full_size_board_matches_exact_per_pair(shift: int, percent: int, seed: int) -> None:
    """A battle-map sized board (11 rows of 16/15 hexes) with random terrain, every pair."""
    rnd = random.Random(seed)
    playable = board(11, 16, shift)
    assert len(playable) == (171 if shift == 0 else 170)
    blocking = {h for h in playable + half_hexes(11, 16, shift) if rnd.randrange(100) < percent}
    table = LosTable.build(playable, blocking)
    blocked = blocking.__contains__
    for i, a in enumerate(playable):
        for j, b in enumerate(playable):
            if table.in_radius[i, j]:
                assert table.matrix[i, j] == line_of_sight(blocked, a, b), (a, b)
    far = [(a, b) for a in playable[::7] for b in playable if distance(a, b) > 8]
    assert far and all(table.visible(a, b) == line_of_sight(blocked, a, b) for a, b in far)


@settings(max_examples=60, deadline=None)
@given(boards())
def test_line_of_sight_is_symmetric(case: tuple[list[Hex], set[Hex], int]) -> None:
    playable, blocking, radius = case
    table = LosTable.build(playable, blocking, radius)
    assert np.array_equal(table.matrix, table.matrix.T)
    assert np.array_equal(table.in_radius, table.in_radius.T)
    for a in playable[:10]:
        for b in playable:
            assert line_of_sight(blocking.__contains__, a, b) == line_of_sight(blocking.__contains__, b, a)


def test_same_and_adjacent_hexes_always_see_each_other() -> None:
    playable = board(5, 6, 0)
    table = LosTable.build(playable, set(playable))  # everything blocks
    for a in playable:
        for b in within(a, 1):
            if b in playable:
                assert table.visible(a, b)
            assert line_of_sight(lambda _: True, a, b)
    # ... and nothing farther sees anything, except along the six hexside lines.
    seen_far = {
        (2 * (b.q - a.q) + b.r - a.r, b.r - a.r)
        for a in playable
        for b in playable
        if distance(a, b) >= 2 and table.visible(a, b)
    }
    assert seen_far == {(0, 2), (0, -2), (3, 1), (3, -1), (-3, 1), (-3, -1)}


def test_lines_along_hexsides_never_block() -> None:
    """With every other hex blocking, pairs at the six hexside offsets still see each other (both ways)."""
    for shift in (0, 1):
        playable = board(7, 8, shift)
        steps = [(0, 2), (0, -2), (3, 1), (3, -1), (-3, 1), (-3, -1)]
        pairs = 0
        for a in playable:
            for sx, sy in steps:
                b = from_doubled(2 * a.q + a.r + sx, a.r + sy)
                if b not in playable:
                    continue
                blocking = set(playable) - {a, b}
                table = LosTable.build(playable, blocking)
                assert table.visible(a, b) and table.visible(b, a)
                assert table.matrix[table.index(a), table.index(b)]
                assert line_of_sight(blocking.__contains__, a, b)
                pairs += 1
        assert pairs > 100


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_crossed_hex_blocks_and_nothing_else_does(data: st.DataObject) -> None:
    """Blocking any one crossed hex blocks the line; blocking every hex *not* crossed never does."""
    playable = board(9, 10, data.draw(st.integers(0, 1)))
    a = data.draw(st.sampled_from(playable))
    b = data.draw(st.sampled_from(playable))
    crossed = crossed_hexes(a, b)
    others = set(playable) - set(crossed)
    assert LosTable.build(playable, others).visible(a, b)
    assert line_of_sight(others.__contains__, a, b)
    if crossed:
        one = data.draw(st.sampled_from(crossed))
        table = LosTable.build(playable, {one})
        assert not table.visible(a, b)
        assert not line_of_sight({one}.__contains__, a, b)


def test_half_hexes_block() -> None:
    """Terrain in hexes outside the playable set still blocks the table's exact answers."""
    # A 1-row board; a line from its first to its last hex runs along the row and crosses the hexes between.
    playable = board(1, 12, 0)
    a, b = playable[0], playable[-1]
    middle = playable[5]
    table = LosTable.build([a, b], {middle})  # only the two end hexes are playable
    assert not table.visible(a, b)  # distance 11 > 8: exact path, the unknown-to-the-index hex blocks
    table = LosTable.build(playable, {from_doubled(5, -1)})  # a half-hex above the board
    assert table.visible(a, b)
    assert np.all(table.matrix[table.in_radius])


def test_rulebook_example_hill_between() -> None:
    r"""Two hill hexes in a row block a line through them but not one beside them.

        A1  A2  A3  A4  A5          . = clear, H = hill
          B1  B2  B3  B4
        C1  C2  C3  C4  C5
    Row B: B2 and B3 are hills. C1-A5 (doubled (0,2)-(8,0)) passes through B2/B3: blocked.
    A1-A5 runs along row A, above the hills: visible. B1-B4 runs through them: blocked.
    """
    playable = board(3, 5, 0)
    hills = {from_doubled(3, 1), from_doubled(5, 1)}
    table = LosTable.build(playable, hills)
    a1, a5, b1, b4, c1 = (from_doubled(x, y) for x, y in ((0, 0), (8, 0), (1, 1), (7, 1), (0, 2)))
    assert not table.visible(c1, a5)
    assert table.visible(a1, a5)
    assert not table.visible(b1, b4)
    # Terrain in the two end hexes is ignored: a hill unit sees out of its own hill.
    assert table.visible(from_doubled(3, 1), from_doubled(3, 1))
    assert LosTable.build(playable, {a1, a5}).visible(a1, a5)


def test_offset_table_shape_and_cache() -> None:
    table = offset_table(8)
    assert table is offset_table(8)
    assert table.offsets.shape == (217, 2)  # 1 + 3 * 8 * 9 hexes within 8
    longest = max(len(crossed_offsets(o)) for o in within(Hex(0, 0), 8))
    assert table.crossed.shape == (217, longest, 2)
    assert table.valid.sum() == sum(len(crossed_offsets(o)) for o in within(Hex(0, 0), 8))


def test_empty_board() -> None:
    table = LosTable.build([], set())
    assert table.matrix.shape == (0, 0)


@settings(max_examples=40, deadline=None)
@given(boards(), st.randoms(use_true_random=False))
def test_rows_worked_out_when_asked_match_the_whole_board_table(
    case: tuple[list[Hex], set[Hex], int], rnd: random.Random
) -> None:
    """The rows a table works out as hexes are asked about (in any order) answer as the whole-board
    gather (`matrix`, built on a second table that was never asked) and the exact reference do."""
    playable, blocking, radius = case
    lazy = LosTable.build(playable, blocking, radius)
    whole = LosTable.build(playable, blocking, radius)
    pairs = [(a, b) for a in playable for b in playable]
    rnd.shuffle(pairs)
    for a, b in pairs:
        i, j = whole.index(a), whole.index(b)
        seen = lazy.visible(a, b)
        if distance(a, b) <= radius:
            assert seen == whole.matrix[i, j], (a, b)
        assert seen == line_of_sight(blocking.__contains__, a, b), (a, b)


def test_a_big_maps_first_question_works_out_one_row() -> None:
    """A designer's 70x70 map with 15% forest: building the table and asking one pair allocates a few
    MiB (one row of the board), not the whole-board arrays (about 130 MiB there)."""
    import tracemalloc

    rnd = random.Random(3)
    playable = board(70, 70, 0)
    blocking = {h for h in playable if rnd.randrange(100) < 15}
    a = playable[len(playable) // 2]
    b = next(h for h in playable if distance(a, h) == 6)
    tracemalloc.start()
    try:
        table = LosTable.build(playable, blocking)
        seen = table.visible(a, b)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert seen == line_of_sight(blocking.__contains__, a, b)
    assert peak < 16 * 2**20, f"{peak / 2**20:.0f} MiB"


def test_every_row_worked_out_stays_small() -> None:
    """A 50x50 map with every row asked keeps a few bytes per pair in reach (each hex's offsets it sees
    as bits), not a set of hexes per hex (about 20 MiB here) nor the whole-board arrays."""
    import tracemalloc

    rnd = random.Random(4)
    playable = board(50, 50, 1)
    blocking = {h for h in playable if rnd.randrange(100) < 15}
    table = LosTable.build(playable, blocking)
    tracemalloc.start()
    try:
        seen = [table.visible(a, a) for a in playable]
        kept = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert all(seen)
    assert kept < 2 * 2**20, f"{kept / 2**20:.1f} MiB"
    playable_set = set(playable)
    for a in playable[::97]:
        for b in within(a, 8):
            if b in playable_set:
                assert table.visible(a, b) == line_of_sight(blocking.__contains__, a, b)
