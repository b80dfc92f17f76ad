"""The Board other modules code against: labels, zones, halves, edges, hexsides, arrays, line of sight."""

from __future__ import annotations

import numpy as np
import pytest

from minis.board import Board
from minis.content.los import line_of_sight
from minis.hexgrid import FACINGS, Hex, distance, from_doubled, row_letters
from minis.mapfile import load_configuration, parse_board_text
from minis.terrain import Terrain


@pytest.fixture(scope="module")
def board() -> Board:
    return load_configuration(4)


def labels(board: Board, hexes: frozenset[Hex] | set[Hex]) -> set[str]:
    return {board.label(h) for h in hexes}


def test_rows_shift_and_label_order(board: Board) -> None:
    assert board.rows == 11 and board.shift == 0
    names = [board.label(h) for h in board.hexes]
    assert names[:3] == ["A1", "A2", "A3"] and names[16] == "B1" and names[-1] == "K16"
    assert len(names) == len(set(names)) == 171
    assert [len(board.row(r)) for r in range(11)] == [16, 15] * 5 + [16]
    assert all(board.index(h) == i for i, h in enumerate(board.hexes))


def test_parse_is_the_inverse_of_label(board: Board) -> None:
    for hex_ in board.hexes:
        assert board.parse(board.label(hex_)) == hex_
    assert board.parse(" e9 ") == board.parse("E9")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Z9", "off the map: rows run from A to K"),
        ("A17", "row A runs from A1 to A16"),
        ("B17", "row B runs from B1 to B15"),
        ("B16", "half-hex"),
        ("B0", "half-hex"),
        ("C0", "row C runs from C1 to C16"),
        ("9E", "not a hex label"),
        ("", "not a hex label"),
    ],
)
def test_parse_explains_what_is_wrong(board: Board, text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        board.parse(text)


def test_terrain_and_playability(board: Board) -> None:
    assert board.terrain(board.parse("H9")) is Terrain.TOWN
    assert board.terrain(board.parse("C5")) is Terrain.MARSH
    half = from_doubled(-1, 1)
    assert half in board.half_hexes and not board.is_playable(half)
    assert board.terrain(half) is Terrain.CLEAR
    assert not board.is_playable(from_doubled(40, 2))
    with pytest.raises(KeyError):
        board.terrain(from_doubled(40, 2))


def test_deployment_zones_are_five_hexes_of_every_row(board: Board) -> None:
    west, east = board.deployment_zone("west"), board.deployment_zone("east")
    assert len(west) == len(east) == 55
    assert not west & east
    expected_west = {f"{row_letters(r)}{n}" for r in range(11) for n in range(1, 6)}
    expected_east = {f"{row_letters(r)}{n}" for r in range(11) for n in range(12 - r % 2, 17 - r % 2)}
    assert labels(board, west) == expected_west
    assert labels(board, east) == expected_east
    assert {"F1", "F5", "F11", "F15"} <= labels(board, west | east)
    with pytest.raises(ValueError, match="west or east"):
        board.deployment_zone("north")


def test_halves_of_the_map_leave_out_the_middle_column(board: Board) -> None:
    west, east = board.half_of_map("west"), board.half_of_map("east")
    assert len(west) == len(east) == 83
    middle = set(board.hexes) - west - east
    assert labels(board, middle) == {"B8", "D8", "F8", "H8", "J8"}
    assert {"A8", "C8", "F7", "K8", "F1"} <= labels(board, west)
    assert {"A9", "F9", "K9", "B9"} <= labels(board, east)
    assert board.deployment_zone("west") < west


def test_halves_of_a_small_board() -> None:
    small = parse_board_text("C C C C\n C C C\n")
    assert labels(small, small.half_of_map("west")) == {"A1", "A2", "B1"}
    assert labels(small, small.half_of_map("east")) == {"A3", "A4", "B3"}


def test_edge_adjacency(board: Board) -> None:
    edge = {board.label(h) for h in board.hexes if board.is_edge_adjacent(h)}
    assert {"A1", "A9", "K16", "B1", "B15", "C1", "C16", "F1"} <= edge
    assert not {"B8", "F8", "E9", "H9", "C2", "B2"} & edge
    # every hex of rows A and K, the first and last of every row: 16 + 16 + 2 * 9 = 50
    assert len(edge) == 50


def test_hexside_features(board: Board) -> None:
    c4, c5 = board.parse("C4"), board.parse("C5")
    assert board.has_road(c4, c5) and board.has_road(c5, c4)
    assert board.has_stream(c4, c5) and board.is_bridge(c5, c4)
    assert frozenset((c4, c5)) in board.bridges
    b4, b5 = board.parse("B4"), board.parse("B5")
    assert board.has_stream(b4, b5) and not board.has_road(b4, b5) and not board.is_bridge(b4, b5)
    demolished = board.without_road(c4, c5)
    assert not demolished.has_road(c4, c5) and demolished.has_stream(c4, c5)
    assert board.has_road(c4, c5)  # the original is unchanged
    assert demolished != board


def test_numpy_arrays_agree_with_the_board(board: Board) -> None:
    assert board.terrain_codes.shape == (171,)
    assert [Terrain.from_code(int(c)) for c in board.terrain_codes] == [board.terrain(h) for h in board.hexes]
    assert list(board.blocks_sight) == [board.terrain(h).blocks_sight for h in board.hexes]
    assert [tuple(xy) for xy in board.doubled] == [board.doubled_of(h) for h in board.hexes]
    for i, hex_ in enumerate(board.hexes):
        for k, facing in enumerate(FACINGS):
            other = hex_ + facing.value
            j = int(board.neighbour_index[i, k])
            assert (j >= 0) == board.is_playable(other)
            if j >= 0:
                assert board.hexes[j] == other
                assert board.neighbour_index[j, FACINGS.index(facing.opposite)] == i
            assert bool(board.stream_sides[i, k]) == board.has_stream(hex_, other)
            assert bool(board.road_sides[i, k]) == board.has_road(hex_, other)
    with pytest.raises(ValueError):
        board.terrain_codes[0] = 3


def test_line_of_sight_is_built_on_first_use_and_matches_the_exact_test() -> None:
    board = load_configuration(2)
    fresh = board.replace()  # a new board object: nothing cached yet
    assert "los" not in fresh._cache
    blocking = {h for h, t in fresh.terrain_map().items() if t.blocks_sight}
    pairs = [(a, b) for a in fresh.hexes[::7] for b in fresh.hexes[::5] if distance(a, b) <= 10]
    for a, b in pairs:
        expected = line_of_sight(lambda h: h in blocking, a, b)
        assert fresh.visible(a, b) is expected
        assert fresh.visible(b, a) is expected
    assert "los" in fresh._cache
    assert any(not fresh.visible(a, b) for a, b in pairs) and any(fresh.visible(a, b) for a, b in pairs)


def test_known_sight_lines() -> None:
    board = load_configuration(1)
    see = board.visible
    assert see(board.parse("A1"), board.parse("C1"))  # along the hexside between B0 (half) and B1
    assert not see(board.parse("E8"), board.parse("E10"))  # E9 is a forest
    assert see(board.parse("E9"), board.parse("E10"))  # adjacent: nothing between
    assert not see(board.parse("C3"), board.parse("C1"))  # C2 is a forest in between


def test_equality_is_geometry() -> None:
    first = load_configuration(3)
    again = first.replace(name="another name", source="elsewhere")
    assert first == again and hash(first) == hash(again)
    assert first != load_configuration(6)
    assert first != first.replace(objective=first.parse("A1"))
    assert len({first, again}) == 1


def test_create_refuses_programming_mistakes() -> None:
    terrain = {
        from_doubled(0, 0): Terrain.CLEAR,
        from_doubled(2, 0): Terrain.CLEAR,
        from_doubled(4, 0): Terrain.HILL,
    }
    a, _, c = list(terrain)
    with pytest.raises(ValueError, match="adjacent"):
        Board.create(terrain, streams=[(a, c)])
    with pytest.raises(ValueError, match="objective"):
        Board.create(terrain, half_hexes=[c], objective=c)
    with pytest.raises(ValueError, match="leaves the board"):
        Board.create(terrain, roads=[(a, from_doubled(-2, 0))])
    with pytest.raises(ValueError, match="shift"):
        Board.create(terrain, shift=2)


def test_a_board_whose_first_row_is_indented() -> None:
    board = parse_board_text(" C C C\nC F C C\n C C C\n")
    assert board.shift == 1
    assert [board.label(h) for h in board.row(0)] == ["A1", "A2", "A3"]
    assert board.terrain(board.parse("B2")) is Terrain.FOREST
    assert board.doubled_of(board.parse("A1")) == (1, 0)
    assert board.doubled_of(board.parse("B1")) == (0, 1)
    assert distance(board.parse("A1"), board.parse("B1")) == 1
    assert distance(board.parse("A1"), board.parse("B3")) == 2


def test_arrays_are_read_only_everywhere(board: Board) -> None:
    for array in (
        board.terrain_codes,
        board.blocks_sight,
        board.doubled,
        board.neighbour_index,
        board.stream_sides,
        board.road_sides,
    ):
        assert isinstance(array, np.ndarray) and not array.flags.writeable
