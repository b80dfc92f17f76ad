"""Units on the battle map as counters: where each sits in its hex, and its triangles and texts.

A counter is a square in its nationality's colour with a rim in its side's colour (dark for the Axis,
pale for the Allies), a symbol for its type (a figure for a Soldier, a hull and gun for a Vehicle),
and its short name. A Vehicle's counter carries a yellow arrow out of the side it faces. Hit
counters sit on its corners: face-up ones as lettered badges (D disrupted, X damaged), face-down ones
as dark squares with a question mark, one per counter. Units that have acted this phase are greyed.
Up to four units share a hex (two per side), so counters shrink and spread out in a full hex.

Everything is plain geometry in world units (`hexdraw`), built into a `hexdraw.Mesh`; texts are
returned as (text, world x, world y, size in world units, colour) for the screen to lay out at its
zoom. Nothing here decides a rule: it draws the `GameState` it is given.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import attrs

from minis.hexgrid import Facing, Hex
from minis.state import Counter, GameState, Unit
from minis.ui import hexdraw
from minis.ui.cardpanel import NATION_COLOUR, SIDE_COLOUR
from minis.ui.hexdraw import Mesh, Point, mix

Colour = tuple[int, int, int, int]

GLYPH_DARK: Colour = (24, 24, 26, 255)
GLYPH_LIGHT: Colour = (246, 244, 234, 255)
ARROW: Colour = (255, 214, 40, 255)
ARROW_EDGE: Colour = (30, 26, 10, 255)
DISRUPTED: Colour = (250, 206, 40, 255)
DAMAGED: Colour = (226, 72, 44, 255)
FACE_DOWN: Colour = (44, 44, 50, 255)
FACE_DOWN_EDGE: Colour = (210, 210, 210, 255)
ACTED_DARK: Colour = (56, 58, 62, 255)
SELECTED: Colour = (255, 255, 255, 255)

#: Words left out of short names (they say little on a small counter).
_SKIP = {"ausf.", "ausf", "the"}


@attrs.frozen
class TextSpec:
    """A text to draw at a world point (centred), `size` in world units."""

    text: str
    x: float
    y: float
    size: float
    colour: Colour
    bold: bool = False


@attrs.frozen
class Slot:
    """Where a counter sits: its centre and half its side, in world units."""

    x: float
    y: float
    half: float


def short_name(name: str, limit: int = 10) -> str:
    """A counter's name: the card's words while they fit in `limit` characters ('Panzer IV', 'Sd Kfz 222')."""
    words = [w.strip('"') for w in name.split() if w.lower() not in _SKIP]
    out = ""
    for word in words:
        candidate = f"{out} {word}".strip()
        if len(candidate) > limit:
            break
        out = candidate
    return out or (words[0][:limit] if words else name[:limit])


def facing_angle(facing: Facing) -> float:
    """The screen angle (radians, counter-clockwise from east) of a facing, from the hex geometry."""
    x0, y0 = hexdraw.centre(Hex(0, 0))
    x1, y1 = hexdraw.centre(facing.step)
    return math.atan2(y1 - y0, x1 - x0)


def slots(count: int, cx: float, cy: float) -> list[Slot]:
    """Counter positions for `count` units in a hex centred at (cx, cy)."""
    s = hexdraw.SIZE
    if count <= 1:
        return [Slot(cx, cy - 0.04 * s, 0.58 * s)]
    if count == 2:
        return [Slot(cx - 0.43 * s, cy, 0.39 * s), Slot(cx + 0.43 * s, cy, 0.39 * s)]
    half = 0.31 * s
    d = 0.34 * s
    return [
        Slot(cx - d, cy + d, half),
        Slot(cx + d, cy + d, half),
        Slot(cx - d, cy - d, half),
        Slot(cx + d, cy - d, half),
    ][:count]


def hex_order(units: Iterable[Unit]) -> list[Unit]:
    """The units of a hex in drawing order: Axis before Allies, then by when they entered it."""
    return sorted(units, key=lambda u: (u.side.value != "axis", u.entered, u.id))


def placements(state: GameState) -> dict[str, Slot]:
    """Where each visible unit's counter sits (boarded Soldiers ride on their transport's counter)."""
    found: dict[str, Slot] = {}
    for hex_, units in state.occupancy().items():
        cx, cy = hexdraw.centre(hex_)
        for unit, slot in zip(hex_order(units), slots(len(units), cx, cy), strict=False):
            found[unit.id] = slot
    return found


def _square(c: Point, half: float) -> list[Point]:
    x, y = c
    return [(x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)]


def _rotated(points: Sequence[Point], c: Point, angle: float) -> list[Point]:
    cos, sin = math.cos(angle), math.sin(angle)
    return [(c[0] + x * cos - y * sin, c[1] + x * sin + y * cos) for x, y in points]


def counter_mesh(
    mesh: Mesh,
    unit: Unit,
    slot: Slot,
    *,
    acted: bool = False,
    passenger: bool = False,
    facing: Facing | None = None,
) -> list[TextSpec]:
    """Add one unit's counter to `mesh`; return its texts. `facing` overrides the unit's (a preview)."""
    c = (slot.x, slot.y)
    h = slot.half
    body = NATION_COLOUR[unit.card.nation]
    rim = SIDE_COLOUR[unit.side]
    glyph = GLYPH_LIGHT if sum(body[:3]) < 380 else GLYPH_DARK
    if acted:  # darker and with less contrast: this unit has done its part this phase
        body = mix(body, ACTED_DARK, 0.5)
        glyph = mix(glyph, body, 0.35)
    mesh.polygon(_square(c, h + 0.06 * hexdraw.SIZE), rim)
    mesh.polygon(_square(c, h - 0.02 * hexdraw.SIZE), body)
    texts: list[TextSpec] = []
    gy = c[1] + 0.22 * h
    facing = facing or unit.facing
    if unit.card.is_vehicle:
        angle = facing_angle(facing) if facing is not None else 0.0
        centre = (c[0], gy)
        tracks = [(-0.56 * h, -0.4 * h), (0.5 * h, -0.4 * h), (0.5 * h, 0.4 * h), (-0.56 * h, 0.4 * h)]
        hull = [(-0.5 * h, -0.27 * h), (0.44 * h, -0.27 * h), (0.44 * h, 0.27 * h), (-0.5 * h, 0.27 * h)]
        mesh.polygon(_rotated(tracks, centre, angle), glyph)
        mesh.polygon(_rotated(hull, centre, angle), mix(glyph, body, 0.45))
        mesh.disc(centre, 0.2 * h, glyph, 10)
        barrel = _rotated([(0.0, 0.0), (0.72 * h, 0.0)], centre, angle)
        mesh.line(barrel[0], barrel[1], 0.11 * h, glyph)
        if facing is not None:
            # the facing arrow: out of the counter's edge, the way the Vehicle faces
            tip = (c[0] + 1.5 * h * math.cos(angle), c[1] + 1.5 * h * math.sin(angle))
            base = (c[0] + 0.78 * h * math.cos(angle), c[1] + 0.78 * h * math.sin(angle))
            nx, ny = -math.sin(angle), math.cos(angle)
            wing = 0.4 * h
            pad = 0.1 * h
            mesh.triangle(
                (tip[0] + 1.6 * pad * math.cos(angle), tip[1] + 1.6 * pad * math.sin(angle)),
                (
                    base[0] + nx * (wing + pad) - pad * math.cos(angle),
                    base[1] + ny * (wing + pad) - pad * math.sin(angle),
                ),
                (
                    base[0] - nx * (wing + pad) - pad * math.cos(angle),
                    base[1] - ny * (wing + pad) - pad * math.sin(angle),
                ),
                ARROW_EDGE,
            )
            mesh.triangle(
                tip,
                (base[0] + nx * wing, base[1] + ny * wing),
                (base[0] - nx * wing, base[1] - ny * wing),
                ARROW,
            )
    else:
        mesh.disc((c[0], gy + 0.22 * h), 0.15 * h, glyph, 10)
        mesh.polygon(
            [
                (c[0] - 0.3 * h, gy - 0.3 * h),
                (c[0] + 0.3 * h, gy - 0.3 * h),
                (c[0] + 0.16 * h, gy + 0.08 * h),
                (c[0] - 0.16 * h, gy + 0.08 * h),
            ],
            glyph,
        )
    if passenger:
        # a boarded Soldier: a small figure badge on the lower left
        p = (c[0] - 0.72 * h, c[1] - 0.72 * h)
        mesh.disc(p, 0.3 * h, rim, 10)
        mesh.disc(p, 0.22 * h, GLYPH_LIGHT, 10)
        mesh.disc((p[0], p[1] + 0.07 * h), 0.07 * h, GLYPH_DARK, 8)
        mesh.triangle(
            (p[0] - 0.1 * h, p[1] - 0.12 * h),
            (p[0] + 0.1 * h, p[1] - 0.12 * h),
            (p[0], p[1] + 0.02 * h),
            GLYPH_DARK,
        )
    name = short_name(unit.card.name)
    size = min(0.36 * h, 1.9 * h / (0.58 * max(1, len(name))))  # long names shrink to fit the counter
    texts.append(TextSpec(name, c[0], c[1] - 0.55 * h, size, glyph, bold=True))
    # face-up counters on the upper right, face-down ones on the upper left
    badge = 0.3 * h
    ups = [
        (label, colour)
        for on, label, colour in ((unit.disrupted, "D", DISRUPTED), (unit.damaged, "X", DAMAGED))
        if on
    ]
    for i, (label, colour) in enumerate(ups):
        b = (c[0] + h - badge + 0.04 * h - i * 2.1 * badge, c[1] + h - badge + 0.04 * h)
        mesh.polygon(_square(b, badge + 0.05 * h), GLYPH_DARK)
        mesh.polygon(_square(b, badge), colour)
        texts.append(TextSpec(label, b[0], b[1], 1.5 * badge, GLYPH_DARK, bold=True))
    for i, _counter in enumerate(unit.pending):
        b = (c[0] - h + badge - 0.04 * h + i * 0.5 * badge, c[1] + h - badge + 0.04 * h - i * 0.5 * badge)
        mesh.polygon(_square(b, badge + 0.05 * h), FACE_DOWN_EDGE)
        mesh.polygon(_square(b, badge), FACE_DOWN)
        if i == len(unit.pending) - 1:
            texts.append(
                TextSpec(
                    "?" if len(unit.pending) == 1 else str(len(unit.pending)),
                    b[0],
                    b[1],
                    1.5 * badge,
                    FACE_DOWN_EDGE,
                    bold=True,
                )
            )
    return texts


def units_mesh(
    state: GameState,
    *,
    acted: Iterable[str] = (),
    hidden: Iterable[str] = (),
    facing: dict[str, Facing] | None = None,
) -> tuple[Mesh, list[TextSpec], dict[str, Slot]]:
    """All counters of a position: the mesh, the texts, and where each unit's counter is."""
    mesh = Mesh()
    texts: list[TextSpec] = []
    acted_set, hidden_set = set(acted), set(hidden)
    carriers = {u.carried_by for u in state.units.values() if u.carried_by and not u.removed}
    where = placements(state)
    for unit_id, slot in where.items():
        if unit_id in hidden_set:
            continue
        unit = state.units[unit_id]
        texts += counter_mesh(
            mesh,
            unit,
            slot,
            acted=unit_id in acted_set,
            passenger=unit_id in carriers,
            facing=(facing or {}).get(unit_id),
        )
    return mesh, texts, where


def pending_summary(unit: Unit) -> str:
    """The unit's counters in words: 'disrupted; face down: damaged, destroyed' style, for people."""
    parts = []
    if unit.disrupted:
        parts.append("disrupted")
    if unit.damaged:
        parts.append("damaged")
    if unit.pending:
        count = len(unit.pending)
        parts.append(f"{count} face-down counter{'s' if count != 1 else ''}")
    return ", ".join(parts)


def counter_names(counters: Iterable[Counter]) -> str:
    return ", ".join(c.value for c in counters)
