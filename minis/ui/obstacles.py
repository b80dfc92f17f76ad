"""Obstacles on the battle map (issue 16): one plain symbol per kind, the hover box's lines, and the
placing of an obstacle at deployment (a hex, or for Barbed Wire the two hexes of its hexside).

Symbols sit in the lower left of their hex, and a ring just inside the hex's edge (dashed red for
mines) stays visible around a counter standing on the obstacle:
- Barbed Wire: a dark zigzag along its hexside, with small crosses (the barbs);
- Minefield: a red warning disc with three black mines;
- Tank Obstacle: a steel "hedgehog" (three crossed beams);
- Pillbox: a grey concrete octagon with a dark firing slit.
"""

from __future__ import annotations

import math

from minis.hexgrid import Hex
from minis.rules import obstacles
from minis.state import GameState
from minis.ui import hexdraw
from minis.ui.hexdraw import Mesh, Point

WIRE = (60, 50, 40, 255)
BARB = (30, 25, 20, 255)
MINE_RIM = (190, 30, 30, 255)
MINE_FIELD = (250, 220, 90, 255)
MINE = (20, 20, 20, 255)
STEEL = (70, 75, 85, 255)
STEEL_EDGE = (230, 230, 230, 255)
CONCRETE = (150, 150, 145, 255)
CONCRETE_EDGE = (60, 60, 60, 255)
SLIT = (25, 25, 25, 255)

#: Which symbol a card draws (by the card: the symbol stays even if a test switches the ability off).
KIND_OF_CARD = {
    "barbed-wire": obstacles.WIRE,
    "minefield": obstacles.MINES,
    "tank-obstacle": obstacles.TANK_TRAP,
    "pillbox": obstacles.PILLBOX,
}


def _spot(hex_: Hex) -> Point:
    """Where a hex's obstacle symbol goes: the lower left of the hex, clear of a counter's middle."""
    x, y = hexdraw.centre(hex_)
    return (x - 0.52 * hexdraw.SIZE, y - 0.5 * hexdraw.SIZE)


def _wire(mesh: Mesh, a: Hex, b: Hex) -> None:
    (x1, y1), (x2, y2) = hexdraw.shared_edge(a, b)
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy)
    nx, ny = -dy / length * 4, dx / length * 4
    points = []
    teeth = 8
    for i in range(teeth + 1):
        t = i / teeth
        side = 1 if i % 2 else -1
        points.append((x1 + dx * t + nx * side, y1 + dy * t + ny * side))
    mesh.polyline(points, 3, WIRE)
    for px, py in points[1:-1:2]:
        mesh.line((px - 3, py - 3), (px + 3, py + 3), 1.5, BARB)
        mesh.line((px - 3, py + 3), (px + 3, py - 3), 1.5, BARB)


def _minefield(mesh: Mesh, c: Point) -> None:
    size = 0.24 * hexdraw.SIZE
    mesh.disc(c, size + 2, MINE_RIM, 16)
    mesh.disc(c, size - 1, MINE_FIELD, 16)
    for angle in (90, 210, 330):
        r = size * 0.5
        mesh.disc(
            (c[0] + r * math.cos(math.radians(angle)), c[1] + r * math.sin(math.radians(angle))), 2.6, MINE
        )


def _hedgehog(mesh: Mesh, c: Point) -> None:
    size = 0.26 * hexdraw.SIZE
    for angle in (0, 60, 120):
        dx, dy = size * math.cos(math.radians(angle)), size * math.sin(math.radians(angle))
        mesh.line((c[0] - dx, c[1] - dy), (c[0] + dx, c[1] + dy), 5.5, STEEL_EDGE)
    for angle in (0, 60, 120):
        dx, dy = size * math.cos(math.radians(angle)), size * math.sin(math.radians(angle))
        mesh.line((c[0] - dx, c[1] - dy), (c[0] + dx, c[1] + dy), 3, STEEL)


def _pillbox(mesh: Mesh, c: Point) -> None:
    size = 0.25 * hexdraw.SIZE
    mesh.disc(c, size + 2, CONCRETE_EDGE, 8)
    mesh.disc(c, size, CONCRETE, 8)
    mesh.polygon(
        [
            (c[0] - size * 0.6, c[1] - 2),
            (c[0] + size * 0.6, c[1] - 2),
            (c[0] + size * 0.6, c[1] + 2),
            (c[0] - size * 0.6, c[1] + 2),
        ],
        SLIT,
    )


RING = {
    obstacles.MINES: MINE_RIM,
    obstacles.PILLBOX: CONCRETE_EDGE,
    obstacles.TANK_TRAP: STEEL,
}


def _ring(mesh: Mesh, hex_: Hex, colour: tuple[int, int, int, int], dashed: bool) -> None:
    """A ring just inside the hex's edge: seen around a counter standing on the obstacle."""
    points = hexdraw.corners(*hexdraw.centre(hex_), scale=0.9)
    for i in range(6):
        a, b = points[i], points[(i + 1) % 6]
        if not dashed:
            mesh.line(a, b, 3, colour)
            continue
        for k in range(0, 4, 2):  # two dashes per side
            t0, t1 = k / 4 + 0.06, (k + 1) / 4 + 0.06
            mesh.line(
                (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1),
                3,
                colour,
            )


def mesh(state: GameState) -> Mesh:
    """Every placed obstacle's symbol."""
    found = Mesh()
    for obstacle in obstacles.placed(state):
        kind = KIND_OF_CARD.get(obstacle.card.id) or obstacles.kind(state, obstacle)
        if obstacle.hex is not None and obstacle.across is None and kind in RING:
            _ring(found, obstacle.hex, RING[kind], dashed=kind == obstacles.MINES)
    for obstacle in obstacles.placed(state):
        assert obstacle.hex is not None
        kind = KIND_OF_CARD.get(obstacle.card.id) or obstacles.kind(state, obstacle)
        if obstacle.across is not None:
            _wire(found, obstacle.hex, obstacle.across)
        elif kind == obstacles.MINES:
            _minefield(found, _spot(obstacle.hex))
        elif kind == obstacles.PILLBOX:
            _pillbox(found, _spot(obstacle.hex))
        else:
            _hedgehog(found, _spot(obstacle.hex))
    return found


def hover_lines(state: GameState, hex_: Hex) -> list[str]:
    """The hover box's lines for the obstacles in a hex and on its hexsides."""
    lines = []
    for obstacle in obstacles.touching(state, hex_):
        what = obstacles.describe(state, obstacle)
        lines.append(f"Obstacle ({obstacle.side.title}): {what} · {_effect(state, obstacle)}")
    return lines


def _effect(state: GameState, obstacle: obstacles.Obstacle) -> str:
    kind = KIND_OF_CARD.get(obstacle.card.id) or obstacles.kind(state, obstacle)
    return {
        obstacles.WIRE: "Soldiers crossing roll to get through",
        obstacles.MINES: "a unit stopping or leaving here rolls: 1-3 disrupts it",
        obstacles.TANK_TRAP: "Vehicles roll to get in",
        obstacles.PILLBOX: "its Soldier always has cover, +1",
    }.get(kind, "")


def next_to_place(state: GameState) -> obstacles.Obstacle | None:
    """The deploying player's next obstacle to place (None when none is waiting)."""
    if not obstacles.placing(state) or state.deploying is None:
        return None
    waiting = obstacles.pending(state, state.deploying)
    return waiting[0] if waiting else None


def prompt(state: GameState, first: Hex | None) -> str:
    """What the message line asks while an obstacle waits to be placed."""
    obstacle = next_to_place(state)
    if obstacle is None:
        return ""
    left = len(obstacles.pending(state, obstacle.side))
    more = f" ({left} obstacles left)" if left > 1 else ""
    if obstacles.kind(state, obstacle) == obstacles.WIRE or obstacle.card.id == "barbed-wire":
        if first is not None and state.board is not None:
            return f"{obstacle.card.name}: now click a hex next to {state.board.label(first)}{more}."
        return f"Place {obstacle.card.name} on a hexside: click one hex, then the hex next to it{more}."
    return f"Place {obstacle.card.name}: click a hex (not in or next to the objective){more}."
