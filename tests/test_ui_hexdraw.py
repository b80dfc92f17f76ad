"""The map drawing's geometry: hex centres and picking, hexsides, the map edge, and the static mesh.

No window needed: `minis.ui.hexdraw` touches arcade only when it turns a mesh into GPU geometry.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from minis.board import Board
from minis.hexgrid import FACINGS, Hex, from_doubled, neighbours, parse_label
from minis.mapfile import load_configuration
from minis.terrain import Terrain
from minis.ui import hexdraw

hexes = st.builds(Hex, st.integers(-40, 40), st.integers(-40, 40))


def small_board() -> Board:
    """Rows of 4, 3 and 4 hexes with half-hexes around, a road over a stream (a bridge), an objective."""
    rows = ["C F H T", " M P F", "C C T H"]
    terrain: dict[Hex, Terrain] = {}
    for r, line in enumerate(rows):
        indent = 1 if line.startswith(" ") else 0
        for n, letter in enumerate(line.split()):
            terrain[from_doubled(2 * n + indent, r)] = Terrain(letter)
    halves = {from_doubled(x, y) for y in (-1, 3) for x in (1, 3, 5)}
    halves |= {from_doubled(-1, 1), from_doubled(7, 1)}
    assert not halves & terrain.keys()
    for half in halves:
        terrain[half] = Terrain.CLEAR
    road = [("A1", "B1"), ("B1", "C2"), ("C2", "C3")]
    streams = [("B1", "C2"), ("B2", "C2")]
    return Board.create(
        terrain,
        half_hexes=halves,
        roads=[(parse_label(a), parse_label(b)) for a, b in road],
        streams=[(parse_label(a), parse_label(b)) for a, b in streams],
        objective=parse_label("B2"),
        name="small",
    )


@given(hexes)
def test_the_centre_of_a_hex_picks_that_hex(hex_: Hex) -> None:
    assert hexdraw.hex_at(*hexdraw.centre(hex_)) == hex_


@given(hexes, st.integers(0, 5), st.floats(0.0, 0.97))
def test_points_inside_a_hex_pick_that_hex(hex_: Hex, corner: int, t: float) -> None:
    cx, cy = hexdraw.centre(hex_)
    x, y = hexdraw.corners(cx, cy)[corner]
    # any point on the way from the centre to a corner (short of the corner) is inside the hex
    assert hexdraw.hex_at(cx + (x - cx) * t, cy + (y - cy) * t) == hex_


@given(hexes)
def test_neighbours_are_one_hex_width_apart(hex_: Hex) -> None:
    cx, cy = hexdraw.centre(hex_)
    for other in neighbours(hex_):
        ox, oy = hexdraw.centre(other)
        assert math.isclose(math.hypot(ox - cx, oy - cy), math.sqrt(3) * hexdraw.SIZE)


@settings(max_examples=100, deadline=None)
@given(hexes, st.sampled_from(FACINGS))
def test_a_hexside_is_made_of_corners_of_both_hexes(hex_: Hex, facing: object) -> None:
    other = hex_ + facing.value  # type: ignore[attr-defined]
    ends = hexdraw.shared_edge(hex_, other)
    for h in (hex_, other):
        corners = hexdraw.corners(*hexdraw.centre(h))
        for end in ends:
            assert min(math.dist(end, c) for c in corners) < 1e-6


def test_rows_go_down_the_screen_and_numbers_go_east() -> None:
    a1, a2, b1 = (hexdraw.centre(parse_label(text)) for text in ("A1", "A2", "B1"))
    assert a2[0] > a1[0] and a2[1] == a1[1]
    assert b1[1] < a1[1]
    assert a1[0] < b1[0] < a2[0]  # row B is indented half a hex


def test_terrain_names() -> None:
    assert hexdraw.terrain_name(Terrain.FOREST) == "forest"
    assert hexdraw.terrain_name("H") == "hill"
    assert hexdraw.terrain_name("pond") == "pond"
    assert hexdraw.terrain_name(None) == "clear"
    assert {hexdraw.terrain_name(t) for t in Terrain} == set(hexdraw.TERRAINS)


def test_every_terrain_looks_different() -> None:
    """Six terrains, six looks: fill colour or symbol tell each apart (pond is clear ground with water)."""
    looks = set()
    for name in hexdraw.TERRAINS:
        mesh = hexdraw.Mesh()
        hexdraw._symbol(mesh, name, 0.0, 0.0)
        looks.add((hexdraw.FILL[name], tuple(sorted(set(mesh.colours)))))
    assert len(looks) == len(hexdraw.TERRAINS)


def test_the_map_edge_cuts_the_half_hexes_through_their_centres() -> None:
    board = load_configuration(1)
    edge = hexdraw.map_edge(board)
    a1, k16 = hexdraw.centre(board.parse("A1")), hexdraw.centre(board.parse("K16"))
    half_width, row = hexdraw.HALF_WIDTH, hexdraw.ROW_STEP
    assert math.isclose(edge.left, a1[0] - half_width) and math.isclose(edge.right, k16[0] + half_width)
    assert math.isclose(edge.top, a1[1] + row) and math.isclose(edge.bottom, k16[1] - row)
    for half in board.half_hexes:
        x, y = hexdraw.centre(half)
        assert edge.left - 1e-6 <= x <= edge.right + 1e-6 and edge.bottom - 1e-6 <= y <= edge.top + 1e-6


def test_clipping_a_half_hex_keeps_half_of_it() -> None:
    board = small_board()
    edge = hexdraw.map_edge(board)
    top_half = from_doubled(3, -1)
    poly = hexdraw.clip_polygon(hexdraw.corners(*hexdraw.centre(top_half)), edge)
    full = hexdraw.corners(0, 0)

    def area(points: list[tuple[float, float]]) -> float:
        return (
            abs(
                sum(
                    x0 * y1 - x1 * y0
                    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True)
                )
            )
            / 2
        )

    assert math.isclose(area(poly), area(full) / 2)
    assert all(y <= edge.top + 1e-9 for _, y in poly)


def test_the_mesh_has_every_feature_of_the_board() -> None:
    board = small_board()
    mesh = hexdraw.build_mesh(board)
    colours = set(mesh.colours)
    assert len(mesh.points) == len(mesh.colours) and len(mesh.points) % 3 == 0
    for colour in (
        hexdraw.TREE,  # forest
        hexdraw.CONTOUR,  # hill
        hexdraw.ROOF,  # town
        hexdraw.REED,  # marsh
        hexdraw.WATER,  # pond and stream
        hexdraw.ROAD,
        hexdraw.BRIDGE,
        hexdraw.OBJECTIVE,
        hexdraw.EDGE,
        hexdraw.mix(hexdraw.FILL["clear"], hexdraw.HALF_GREY, 0.7),  # a greyed half-hex
    ):
        assert colour in colours, colour
    without = hexdraw.build_mesh(board.replace(roads=frozenset(), streams=frozenset(), objective=None))
    assert hexdraw.BRIDGE not in set(without.colours)
    assert hexdraw.OBJECTIVE not in set(without.colours)


def test_deployment_zones_are_tinted_in_their_own_colours() -> None:
    board = load_configuration(1)
    colours = set(hexdraw.build_mesh(board).colours)
    for end in ("west", "east"):
        rim = hexdraw.mix(hexdraw.FILL["clear"], hexdraw.ZONE[end], hexdraw.ZONE_MIX)
        assert rim in colours
    assert set(hexdraw.build_mesh(board, zones=False).colours).isdisjoint(
        {hexdraw.mix(hexdraw.FILL["clear"], hexdraw.ZONE[end], hexdraw.ZONE_MIX) for end in ("west", "east")}
    )


def test_the_legend_has_a_swatch_per_row() -> None:
    spacing = 80.0
    mesh = hexdraw.legend_mesh(spacing)
    rows = {round(-y / spacing) for _, y in mesh.points}
    assert rows == set(range(len(hexdraw.LEGEND)))


def test_configuration_hexes_are_all_on_the_map() -> None:
    board = load_configuration(3)
    edge = hexdraw.map_edge(board)
    for hex_ in board.hexes:
        for x, y in hexdraw.corners(*hexdraw.centre(hex_)):
            assert edge.left - 1e-6 <= x <= edge.right + 1e-6
            assert edge.bottom - 1e-6 <= y <= edge.top + 1e-6
