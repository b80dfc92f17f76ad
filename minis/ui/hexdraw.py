"""Hexes in world units, and the battle map as cached triangle geometry, built once per board.

World coordinates: pointy-top hexes of `SIZE` units from centre to corner, x to the east, y up (so
row A is at y = 0 and later rows go down). Screen placement, zoom and pan are the camera's job.

Everything static on a map (terrain fills and symbols, roads, streams, bridges, half-hexes, the
objective, tinted deployment zones, hex edges) goes into a single `ShapeElementList` of opaque
triangles: one vertex buffer and one draw call per frame, with no blending (zone tints are mixed
into the fill colours here rather than blended on the GPU).

Floats are fine here: this is pixels for people, not rules; the rules' geometry is exact elsewhere.
The geometry itself is plain Python (testable without a window); only `Mesh.shape` and `build`
touch arcade, so they import it when called (after `minis.ui.boot` chose the mode).
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

import attrs
import numpy

from minis.hexgrid import Hex, neighbours

if TYPE_CHECKING:
    from arcade.shape_list import Shape, ShapeElementList

Point = tuple[float, float]
Colour = tuple[int, int, int, int]

SIZE = 32.0
SQRT3 = math.sqrt(3.0)
HALF_WIDTH = SQRT3 / 2 * SIZE
ROW_STEP = 1.5 * SIZE


class BoardLike(Protocol):
    """What the map drawing needs from `minis.board.Board`."""

    @property
    def hexes(self) -> Collection[Hex]: ...
    @property
    def half_hexes(self) -> Collection[Hex]: ...
    @property
    def roads(self) -> Collection[frozenset[Hex]]: ...
    @property
    def streams(self) -> Collection[frozenset[Hex]]: ...
    @property
    def objective(self) -> Hex | None: ...

    def terrain(self, hex_: Hex) -> object: ...
    def label(self, hex_: Hex) -> str: ...
    def is_bridge(self, a: Hex, b: Hex) -> bool: ...
    def deployment_zone(self, end: str) -> Collection[Hex]: ...
    def visible(self, a: Hex, b: Hex) -> bool: ...


# --- coordinates -------------------------------------------------------------------------------------
def centre(hex_: Hex) -> Point:
    """The hex's centre in world units (the board's label shift does not move anything on screen)."""
    return ((2 * hex_.q + hex_.r) * HALF_WIDTH, -hex_.r * ROW_STEP)


def corners(cx: float, cy: float, scale: float = 1.0) -> list[Point]:
    """The six corners of a pointy-top hex, counter-clockwise from the upper right one."""
    radius = SIZE * scale
    return [
        (cx + radius * math.cos(math.radians(30 + 60 * i)), cy + radius * math.sin(math.radians(30 + 60 * i)))
        for i in range(6)
    ]


def hex_at(x: float, y: float) -> Hex:
    """The hex whose interior holds world point (x, y) (cube rounding of fractional axial coordinates)."""
    r = -y / ROW_STEP
    q = x / (SQRT3 * SIZE) - r / 2
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def shared_edge(a: Hex, b: Hex) -> tuple[Point, Point]:
    """The two corners of the hexside between adjacent hexes a and b."""
    (ax, ay), (bx, by) = centre(a), centre(b)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy)
    # the hexside is perpendicular to the line between the centres and one hex-size long
    px, py = -dy / length * SIZE / 2, dx / length * SIZE / 2
    return (mx + px, my + py), (mx - px, my - py)


@attrs.frozen
class Bounds:
    left: float
    right: float
    bottom: float
    top: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.top - self.bottom

    @property
    def centre(self) -> Point:
        return ((self.left + self.right) / 2, (self.bottom + self.top) / 2)


def map_edge(board: BoardLike) -> Bounds:
    """The rectangle of the battle map: it cuts the half-hexes through their centres.

    A board without half-hexes gets the box around its full hexes.
    """
    halves = list(board.half_hexes)
    if halves:
        points = [centre(h) for h in [*halves, *board.hexes]]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return Bounds(min(xs), max(xs), min(ys), max(ys))
    points = [c for h in board.hexes for c in corners(*centre(h))]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return Bounds(min(xs), max(xs), min(ys), max(ys))


#: Where the segment from the first point to the second crosses one edge of the clipping rectangle.
_Cross = Callable[[Point, Point], Point]


def clip_polygon(points: Sequence[Point], edge: Bounds) -> list[Point]:
    """Sutherland-Hodgman clipping of a convex polygon to a rectangle."""

    def clip(poly: list[Point], inside: Callable[[Point], bool], cross: _Cross) -> list[Point]:
        out: list[Point] = []
        for i, current in enumerate(poly):
            previous = poly[i - 1]
            if inside(current):
                if not inside(previous):
                    out.append(cross(previous, current))
                out.append(current)
            elif inside(previous):
                out.append(cross(previous, current))
        return out

    def at_x(x0: float) -> _Cross:
        return lambda p, c: (x0, p[1] + (c[1] - p[1]) * (x0 - p[0]) / (c[0] - p[0]))

    def at_y(y0: float) -> _Cross:
        return lambda p, c: (p[0] + (c[0] - p[0]) * (y0 - p[1]) / (c[1] - p[1]), y0)

    poly = list(points)
    for inside, cross in (
        (lambda p: p[0] >= edge.left, at_x(edge.left)),
        (lambda p: p[0] <= edge.right, at_x(edge.right)),
        (lambda p: p[1] >= edge.bottom, at_y(edge.bottom)),
        (lambda p: p[1] <= edge.top, at_y(edge.top)),
    ):
        if not poly:
            break
        poly = clip(poly, inside, cross)
    return poly


# --- terrain look ------------------------------------------------------------------------------------
TERRAINS = ("clear", "forest", "hill", "town", "marsh", "pond", "water")
_LETTERS = {"C": "clear", "F": "forest", "H": "hill", "T": "town", "M": "marsh", "P": "pond", "W": "water"}

FILL: dict[str, Colour] = {
    "clear": (206, 209, 152, 255),
    "forest": (128, 166, 96, 255),
    "hill": (214, 184, 128, 255),
    "town": (200, 196, 186, 255),
    "marsh": (166, 192, 170, 255),
    "pond": (206, 209, 152, 255),
    "water": (112, 168, 222, 255),  # the whole hex is water, so a river of water hexes runs unbroken
}
TREE: Colour = (36, 92, 46, 255)
TRUNK: Colour = (96, 70, 44, 255)
CONTOUR: Colour = (146, 104, 58, 255)
ROOF: Colour = (156, 76, 60, 255)
ROOF_EDGE: Colour = (92, 46, 38, 255)
WATER: Colour = (74, 138, 204, 255)
WATER_LIGHT: Colour = (150, 196, 232, 255)
REED: Colour = (74, 118, 62, 255)
ROAD: Colour = (226, 204, 152, 255)
ROAD_EDGE: Colour = (118, 92, 64, 255)
BRIDGE: Colour = (118, 80, 48, 255)
BRIDGE_EDGE: Colour = (52, 36, 24, 255)
EDGE: Colour = (88, 92, 74, 255)
MAP_FRAME: Colour = (20, 22, 26, 255)
OBJECTIVE: Colour = (248, 206, 60, 255)
OBJECTIVE_EDGE: Colour = (96, 40, 20, 255)
HALF_GREY: Colour = (120, 122, 124, 255)
ZONE: dict[str, Colour] = {"west": (120, 70, 220, 255), "east": (226, 60, 60, 255)}
#: How much of the zone colour a deployment-zone hex's rim gets, and the rim's width (part of the radius).
ZONE_MIX = 0.5
ZONE_RIM = 0.16


def terrain_name(value: object) -> str:
    """The board's terrain value as one of TERRAINS (enum member, enum value, name or letter)."""
    for candidate in (getattr(value, "name", None), getattr(value, "value", None), value):
        if isinstance(candidate, str):
            text = candidate.strip()
            if text.upper() in _LETTERS:
                return _LETTERS[text.upper()]
            if text.lower() in TERRAINS:
                return text.lower()
    return "clear"


def mix(a: Colour, b: Colour, t: float) -> Colour:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
        255,
    )


# --- triangle mesh -----------------------------------------------------------------------------------
class Mesh:
    """Opaque triangles in drawing order, turned into one arcade Shape."""

    def __init__(self) -> None:
        self.points: list[Point] = []
        self.colours: list[Colour] = []

    def __len__(self) -> int:
        return len(self.points)

    def triangle(self, a: Point, b: Point, c: Point, colour: Colour) -> None:
        self.points += (a, b, c)
        self.colours += (colour, colour, colour)

    def polygon(self, points: Sequence[Point], colour: Colour) -> None:
        """A convex polygon, as a fan."""
        for i in range(1, len(points) - 1):
            self.triangle(points[0], points[i], points[i + 1], colour)

    def line(self, a: Point, b: Point, width: float, colour: Colour) -> None:
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        if length == 0:
            return
        nx, ny = -dy / length * width / 2, dx / length * width / 2
        p1, p2 = (a[0] + nx, a[1] + ny), (a[0] - nx, a[1] - ny)
        p3, p4 = (b[0] - nx, b[1] - ny), (b[0] + nx, b[1] + ny)
        self.triangle(p1, p2, p3, colour)
        self.triangle(p1, p3, p4, colour)

    def polyline(self, points: Sequence[Point], width: float, colour: Colour, closed: bool = False) -> None:
        count = len(points) if closed else len(points) - 1
        for i in range(count):
            self.line(points[i], points[(i + 1) % len(points)], width, colour)

    def outline(self, points: Sequence[Point], width: float, colour: Colour) -> None:
        """A closed outline with filled joints (thick lines alone leave notches at the corners)."""
        self.polyline(points, width, colour, closed=True)
        for point in points:
            self.disc(point, width / 2, colour, 6)

    def disc(self, c: Point, radius: float, colour: Colour, segments: int = 12) -> None:
        self.polygon(ellipse(c, radius, radius, segments), colour)

    def shape(self) -> Shape:
        """The triangles as one arcade Shape (needs a window).

        The vertex data (x, y, r, g, b, a as floats, what arcade's shape programs read) is packed with
        numpy: arcade's own constructor converts every vertex's colour in Python, which cost about 7 ms
        for a click's highlights (some 30,000 vertices).
        """
        from arcade.shape_list import Shape

        vertices = numpy.empty((len(self.points), 6), dtype=numpy.float32)
        if self.points:
            vertices[:, :2] = self.points
            vertices[:, 2:] = self.colours
        shape = Shape([], [])  # GL_TRIANGLES, as before
        shape.points = self.points
        shape.colors = []  # arcade draws from `data` alone
        data = array("f")
        data.frombytes(vertices.tobytes())
        shape.data = data
        shape.vertices = len(self.points)
        return shape


def ellipse(c: Point, rx: float, ry: float, segments: int = 16) -> list[Point]:
    return [
        (c[0] + rx * math.cos(2 * math.pi * i / segments), c[1] + ry * math.sin(2 * math.pi * i / segments))
        for i in range(segments)
    ]


def star(c: Point, outer: float, inner: float) -> list[tuple[Point, Point, Point]]:
    """A five-pointed star as triangles from its centre (a star is not convex)."""
    tips = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = math.radians(90 + 36 * i)
        tips.append((c[0] + radius * math.cos(angle), c[1] + radius * math.sin(angle)))
    return [(c, tips[i], tips[(i + 1) % 10]) for i in range(10)]


# --- terrain symbols ---------------------------------------------------------------------------------
def _symbol(mesh: Mesh, kind: str, cx: float, cy: float) -> None:
    s = SIZE
    cy -= 0.08 * s  # leave the top of the hex to its label
    if kind == "forest":
        for ox, oy, k in ((-0.36, -0.12, 0.9), (0.0, 0.12, 1.0), (0.36, -0.12, 0.9), (0.0, -0.4, 0.75)):
            x, y = cx + ox * s, cy + oy * s
            w, h = 0.19 * s * k, 0.42 * s * k
            mesh.line((x, y - h * 0.55), (x, y - h * 0.2), 0.07 * s, TRUNK)
            mesh.triangle((x - w, y - h * 0.3), (x + w, y - h * 0.3), (x, y + h * 0.55), TREE)
    elif kind == "hill":
        mesh.polyline(ellipse((cx, cy - 0.02 * s), 0.66 * s, 0.44 * s, 24), 0.07 * s, CONTOUR, closed=True)
        mesh.polyline(ellipse((cx, cy + 0.02 * s), 0.36 * s, 0.22 * s, 18), 0.07 * s, CONTOUR, closed=True)
        mesh.disc((cx, cy + 0.04 * s), 0.06 * s, CONTOUR, 8)
    elif kind == "town":
        for ox, oy, w, h in (
            (-0.42, -0.02, 0.3, 0.24),
            (-0.02, 0.14, 0.34, 0.26),
            (-0.2, -0.38, 0.36, 0.22),
            (0.24, -0.24, 0.24, 0.3),
        ):
            x0, y0 = cx + ox * s, cy + oy * s
            box = [(x0, y0), (x0 + w * s, y0), (x0 + w * s, y0 + h * s), (x0, y0 + h * s)]
            mesh.polygon(box, ROOF_EDGE)
            inner = 0.035 * s
            mesh.polygon(
                [
                    (x0 + inner, y0 + inner),
                    (x0 + w * s - inner, y0 + inner),
                    (x0 + w * s - inner, y0 + h * s - inner),
                    (x0 + inner, y0 + h * s - inner),
                ],
                ROOF,
            )
    elif kind == "marsh":
        for ox, oy, w in (
            (-0.4, 0.12, 0.32),
            (0.08, 0.16, 0.3),
            (-0.22, -0.2, 0.36),
            (0.2, -0.14, 0.3),
            (-0.05, -0.46, 0.3),
        ):
            x, y = cx + ox * s, cy + oy * s
            mesh.line((x, y), (x + w * s, y), 0.06 * s, WATER)
            mid = x + w * s / 2
            for dx in (-0.07, 0.0, 0.07):
                mesh.line((mid, y + 0.02 * s), (mid + dx * s, y + 0.17 * s), 0.045 * s, REED)
    elif kind == "pond":
        mesh.polygon(ellipse((cx, cy - 0.02 * s), 0.64 * s, 0.46 * s, 20), WATER)
        for oy, w in ((0.1, 0.3), (-0.12, 0.22)):
            mesh.line((cx - w * s, cy + oy * s), (cx + w * s, cy + oy * s), 0.05 * s, WATER_LIGHT)
    elif kind == "water":
        for ox, oy in ((-0.34, 0.3), (0.06, 0.02), (-0.26, -0.3), (0.2, 0.4), (0.24, -0.4)):
            x, y = cx + ox * s, cy + oy * s  # small waves: two short strokes, a shallow "v" upside down
            mesh.line((x - 0.16 * s, y), (x, y + 0.07 * s), 0.045 * s, WATER_LIGHT)
            mesh.line((x, y + 0.07 * s), (x + 0.16 * s, y), 0.045 * s, WATER_LIGHT)


# --- the battle map ----------------------------------------------------------------------------------
@attrs.define
class MapGeometry:
    """The static drawing of one board: a ShapeElementList, and where things are for the overlays."""

    board: BoardLike
    shapes: ShapeElementList
    edge: Bounds
    vertices: int
    labels: dict[Hex, str]

    def draw(self) -> None:
        self.shapes.draw()


def zone_of(board: BoardLike) -> dict[Hex, str]:
    zones: dict[Hex, str] = {}
    for end in ("west", "east"):
        for hex_ in board.deployment_zone(end):
            zones[hex_] = end
    return zones


def build_mesh(board: BoardLike, *, zones: bool = True) -> Mesh:
    """All the static triangles of the map, in drawing order."""
    mesh = Mesh()
    edge = map_edge(board)
    full = set(board.hexes)
    halves = set(board.half_hexes) - full
    zone = zone_of(board) if zones else {}
    kinds = {h: terrain_name(board.terrain(h)) for h in full}

    # 1. fills: terrain colour, zone tint mixed in, half-hexes greyed and cut at the map edge
    for hex_ in sorted(halves):
        poly = clip_polygon(corners(*centre(hex_)), edge)
        if len(poly) >= 3:
            kind = terrain_name(_safe_terrain(board, hex_))
            mesh.polygon(poly, mix(FILL[kind], HALF_GREY, 0.7))
    for hex_ in sorted(full):
        colour = FILL[kinds[hex_]]
        outer = corners(*centre(hex_))
        if hex_ in zone:
            # a zone hex keeps its terrain colour inside a tinted rim, so terrain stays readable
            mesh.polygon(outer, mix(colour, ZONE[zone[hex_]], ZONE_MIX))
            mesh.polygon(corners(*centre(hex_), 1 - ZONE_RIM), colour)
        else:
            mesh.polygon(outer, colour)

    # 2. terrain symbols
    for hex_ in sorted(full):
        if kinds[hex_] != "clear":
            _symbol(mesh, kinds[hex_], *centre(hex_))

    # 3. hex edges, each once; half-hex edges cut at the map edge
    seen: set[frozenset[Hex]] = set()
    for hex_ in sorted(full | halves):
        for other in neighbours(hex_):
            key = frozenset((hex_, other))
            if key in seen:
                continue
            seen.add(key)
            either_full = hex_ in full or other in full
            if not either_full and not (hex_ in halves and other in halves):
                continue
            a, b = shared_edge(hex_, other)
            segment = _clip_segment(a, b, edge)
            if segment:
                mesh.line(*segment, 1.3, EDGE)

    # 4. deployment-zone borders: where a zone meets the rest of the battlefield
    for hex_, end in zone.items():
        for other in neighbours(hex_):
            if other in full and zone.get(other) != end:
                mesh.line(*shared_edge(hex_, other), 3.2, mix(ZONE[end], (0, 0, 0, 255), 0.15))

    # 5. streams along hexsides, roads between centres, bridges where a road crosses a stream
    stream_width, road_width = 0.17 * SIZE, 0.17 * SIZE

    # (both are cut at the map edge: a stream may run on along the sides of half-hexes)
    def inside(p: Point) -> bool:
        return edge.left - 1e-6 <= p[0] <= edge.right + 1e-6 and edge.bottom - 1e-6 <= p[1] <= edge.top + 1e-6

    for pair in _pairs(board.streams):
        segment = _clip_segment(*shared_edge(*pair), edge)
        if segment:
            mesh.line(*segment, stream_width, WATER)
            for tip in segment:
                if inside(tip):
                    mesh.disc(tip, stream_width / 2, WATER, 8)
    roads = [
        seg for seg in (_clip_segment(centre(a), centre(b), edge) for a, b in _pairs(board.roads)) if seg
    ]
    ends = {p for seg in roads for p in seg if inside(p)}
    for width, colour in ((road_width * 1.6, ROAD_EDGE), (road_width, ROAD)):
        for segment in roads:
            mesh.line(*segment, width, colour)
        for tip in ends:
            mesh.disc(tip, width / 2, colour, 10)
    for a, b in _pairs(board.roads):
        if board.is_bridge(a, b):
            _bridge(mesh, a, b)

    # 6. the objective
    if board.objective is not None:
        c = centre(board.objective)
        c = (c[0], c[1] - 0.06 * SIZE)
        mesh.disc(c, 0.5 * SIZE, OBJECTIVE_EDGE, 20)
        mesh.disc(c, 0.43 * SIZE, OBJECTIVE, 20)
        for tri in star(c, 0.36 * SIZE, 0.15 * SIZE):
            mesh.triangle(*tri, OBJECTIVE_EDGE)

    # 7. the map's outer edge
    corners_ = [
        (edge.left, edge.bottom),
        (edge.right, edge.bottom),
        (edge.right, edge.top),
        (edge.left, edge.top),
    ]
    mesh.polyline(corners_, 2.5, MAP_FRAME, closed=True)
    return mesh


def build(board: BoardLike, *, zones: bool = True) -> MapGeometry:
    """The cached drawing of `board` (needs a window: the geometry lives on the GPU)."""
    from arcade.shape_list import ShapeElementList

    mesh = build_mesh(board, zones=zones)
    shapes: ShapeElementList = ShapeElementList(blend=False)
    shapes.append(mesh.shape())
    labels = {h: board.label(h) for h in board.hexes}
    return MapGeometry(board, shapes, map_edge(board), len(mesh), labels)


def _bridge(mesh: Mesh, a: Hex, b: Hex) -> None:
    (ax, ay), (bx, by) = centre(a), centre(b)
    length = math.hypot(bx - ax, by - ay)
    _bridge_at(mesh, ((ax + bx) / 2, (ay + by) / 2), ((bx - ax) / length, (by - ay) / length))


def _bridge_at(mesh: Mesh, middle: Point, direction: Point) -> None:
    """Planks across a stream, along the road's `direction` (a unit vector)."""
    (mx, my), (ux, uy) = middle, direction
    half_len, half_wid = 0.34 * SIZE, 0.2 * SIZE

    def at(along: float, across: float) -> Point:
        return (mx + ux * along - uy * across, my + uy * along + ux * across)

    mesh.polygon(
        [at(-half_len, -half_wid), at(half_len, -half_wid), at(half_len, half_wid), at(-half_len, half_wid)],
        BRIDGE_EDGE,
    )
    inner = 0.05 * SIZE
    mesh.polygon(
        [
            at(-half_len + inner, -half_wid + inner),
            at(half_len - inner, -half_wid + inner),
            at(half_len - inner, half_wid - inner),
            at(-half_len + inner, half_wid - inner),
        ],
        BRIDGE,
    )
    for k in (-0.5, 0.0, 0.5):
        mesh.line(
            at(k * half_len, -half_wid + inner), at(k * half_len, half_wid - inner), 0.03 * SIZE, BRIDGE_EDGE
        )


def _pairs(links: Iterable[Collection[Hex]]) -> list[tuple[Hex, Hex]]:
    out = []
    for link in links:
        pair = sorted(link)
        if len(pair) == 2:
            out.append((pair[0], pair[1]))
    return sorted(out)


def _safe_terrain(board: BoardLike, hex_: Hex) -> object:
    try:
        return board.terrain(hex_)
    except (KeyError, ValueError, IndexError):
        return "clear"


def _clip_segment(a: Point, b: Point, edge: Bounds) -> tuple[Point, Point] | None:
    """Liang-Barsky clipping of a segment to the map rectangle (with a hair of slack for edges on it)."""
    slack = 1e-6
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in (
        (-dx, a[0] - edge.left + slack),
        (dx, edge.right - a[0] + slack),
        (-dy, a[1] - edge.bottom + slack),
        (dy, edge.top - a[1] + slack),
    ):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    if t1 - t0 < 1e-9:
        return None
    return (a[0] + t0 * dx, a[1] + t0 * dy), (a[0] + t1 * dx, a[1] + t1 * dy)


# --- legend ------------------------------------------------------------------------------------------
#: The legend's rows, top to bottom: what each swatch shows.
LEGEND = (
    "clear",
    "forest",
    "hill",
    "town",
    "marsh",
    "pond",
    "water",
    "road",
    "stream",
    "bridge",
    "objective",
    "west zone",
    "east zone",
    "half-hex (off the map)",
)


def legend_mesh(spacing: float) -> Mesh:
    """One swatch per LEGEND row, centred at (0, -row * spacing) in world units, drawn as on the map."""
    mesh = Mesh()
    for row, name in enumerate(LEGEND):
        cx, cy = 0.0, -row * spacing
        hexagon = corners(cx, cy)
        if name in FILL:
            mesh.polygon(hexagon, FILL[name])
            _symbol(mesh, name, cx, cy + 0.08 * SIZE)
        elif name.endswith("zone"):
            mesh.polygon(hexagon, mix(FILL["clear"], ZONE[name.split()[0]], ZONE_MIX))
            mesh.polygon(corners(cx, cy, 1 - ZONE_RIM), FILL["clear"])
        elif name.startswith("half"):
            mesh.polygon(hexagon, mix(FILL["clear"], HALF_GREY, 0.7))
        else:
            mesh.polygon(hexagon, FILL["clear"])
        if name in ("road", "bridge"):
            mesh.line((cx - HALF_WIDTH, cy), (cx + HALF_WIDTH, cy), 0.27 * SIZE, ROAD_EDGE)
            mesh.line((cx - HALF_WIDTH, cy), (cx + HALF_WIDTH, cy), 0.17 * SIZE, ROAD)
        if name in ("stream", "bridge"):
            mesh.line((cx, cy - SIZE), (cx, cy + SIZE), 0.17 * SIZE, WATER)
        if name == "bridge":
            _bridge_at(mesh, (cx, cy), (1.0, 0.0))
        if name == "objective":
            mesh.disc((cx, cy), 0.5 * SIZE, OBJECTIVE_EDGE, 20)
            mesh.disc((cx, cy), 0.43 * SIZE, OBJECTIVE, 20)
            for tri in star((cx, cy), 0.36 * SIZE, 0.15 * SIZE):
                mesh.triangle(*tri, OBJECTIVE_EDGE)
        mesh.polyline(hexagon, 1.5, EDGE, closed=True)
    return mesh
