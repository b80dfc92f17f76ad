"""What abilities leave on the battle map, drawn over the terrain and under the counters.

The engine lists the effects (`minis.engine.queries.map_effects`: smoke, blown bridges); this module only
draws them, so the window never asks an ability's rules itself:
- smoke: a grey haze over the whole hex, translucent so the terrain shows through, with a few lighter
  puffs; the counters are drawn on top of it and stay legible;
- a blown bridge: the bridge's deck broken in the middle (water shows in the gap), under the counters,
  and a red cross over it drawn above the counters (a counter next to the bridge covers the hexside's
  middle), so a road that looks continuous on the static map reads as cut.

`EffectsPicture` keeps the effects it was built for: the screen rebuilds it (and hands the map new
triangles) only when the list of effects changes, never per frame.
"""

from __future__ import annotations

import math

import attrs

from minis.engine.queries import BLOWN_BRIDGE, SMOKE, MapEffect
from minis.hexgrid import Hex
from minis.ui import hexdraw
from minis.ui.hexdraw import Mesh, Point

#: The haze: grey, half see-through (terrain below still reads), then lighter puffs and a soft rim.
HAZE: hexdraw.Colour = (120, 122, 126, 165)
PUFF: hexdraw.Colour = (226, 228, 232, 120)
HAZE_RIM: hexdraw.Colour = (90, 92, 96, 170)
#: The blown bridge: the gap in the deck (water), its broken plank ends, and the cross over it.
GAP: hexdraw.Colour = hexdraw.WATER
SPLINTER: hexdraw.Colour = hexdraw.BRIDGE_EDGE
CROSS: hexdraw.Colour = (214, 38, 30, 255)
CROSS_EDGE: hexdraw.Colour = (20, 20, 20, 230)

#: Where the smoke's puffs sit in a hex, as fractions of the hex size (x, y, radius).
PUFFS: tuple[tuple[float, float, float], ...] = (
    (-0.38, 0.22, 0.3),
    (0.3, 0.3, 0.28),
    (0.0, -0.05, 0.34),
    (-0.26, -0.42, 0.26),
    (0.36, -0.3, 0.27),
)


@attrs.frozen
class EffectsPicture:
    """The drawing of a list of map effects: the triangles under the counters (`mesh`) and over them
    (`over`), and what they show (for tests and keys)."""

    effects: tuple[MapEffect, ...]
    mesh: Mesh = attrs.field(eq=False, hash=False)
    over: Mesh = attrs.field(eq=False, hash=False)

    @property
    def smoke(self) -> frozenset[Hex]:
        """The hexes drawn with smoke."""
        return frozenset(e.hexes[0] for e in self.effects if e.kind == SMOKE)

    @property
    def blown(self) -> frozenset[frozenset[Hex]]:
        """The hexsides drawn as blown bridges."""
        return frozenset(frozenset(e.hexes) for e in self.effects if e.kind == BLOWN_BRIDGE)


def picture(effects: tuple[MapEffect, ...]) -> EffectsPicture:
    """The triangles for `effects` (smoke first, then the bridges, so a bridge's cross stays visible
    next to a smoky hex)."""
    mesh, over = Mesh(), Mesh()
    for effect in effects:
        if effect.kind == SMOKE:
            smoke_haze(mesh, effect.hexes[0])
    for effect in effects:
        if effect.kind == BLOWN_BRIDGE:
            blown_bridge(mesh, over, *effect.hexes)
    return EffectsPicture(effects, mesh, over)


def smoke_haze(mesh: Mesh, hex_: Hex) -> None:
    """A grey haze over the whole hex with lighter puffs (drawn with blending: translucent)."""
    x, y = hexdraw.centre(hex_)
    size = hexdraw.SIZE
    mesh.polygon(hexdraw.corners(x, y, 0.98), HAZE)
    for dx, dy, radius in PUFFS:
        mesh.disc((x + dx * size, y + dy * size), radius * size, PUFF, 14)
    mesh.outline(hexdraw.corners(x, y, 0.9), 1.6, HAZE_RIM)


def blown_bridge(mesh: Mesh, over: Mesh, a: Hex, b: Hex) -> None:
    """The bridge between a and b broken: a gap across the deck's middle (into `mesh`) and a red cross
    over it (into `over`, drawn above the counters)."""
    (ax, ay), (bx, by) = hexdraw.centre(a), hexdraw.centre(b)
    length = math.hypot(bx - ax, by - ay)
    if length == 0:
        return
    ux, uy = (bx - ax) / length, (by - ay) / length
    mx, my = (ax + bx) / 2, (ay + by) / 2
    size = hexdraw.SIZE

    def at(along: float, across: float) -> Point:
        return (mx + (ux * along - uy * across) * size, my + (uy * along + ux * across) * size)

    gap, wide = 0.1, 0.24  # half the gap along the road; half the deck's width and a little more
    mesh.polygon([at(-gap, -wide), at(gap, -wide), at(gap, wide), at(-gap, wide)], GAP)
    for end in (-gap, gap):  # the broken plank ends: a jagged line on each side of the gap
        points = [
            at(end + (0.03 if i % 2 else -0.03) * (1 if end > 0 else -1), -0.2 + 0.08 * i) for i in range(6)
        ]
        mesh.polyline(points, 0.05 * size, SPLINTER)
    arm = 0.2
    for p, q in ((at(-arm, -arm), at(arm, arm)), (at(-arm, arm), at(arm, -arm))):
        over.line(p, q, 0.16 * size, CROSS_EDGE)
    for p, q in ((at(-arm, -arm), at(arm, arm)), (at(-arm, arm), at(arm, -arm))):
        over.line(p, q, 0.1 * size, CROSS)
