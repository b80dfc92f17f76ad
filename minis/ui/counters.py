"""Units on the battle map as counters a player reads at arm's length: where each sits, and how it looks.

A counter fills most of its hex: a dark face in its nationality's colour inside a rim in its side's
colour (near black for the Axis, pale for the Allies). Its top row shows the unit's speed (left), its
silhouette (`silhouettes`: a mortar, a half-track, ...) and its defense (right, front/rear for a
Vehicle); the bottom row its short name (`shortnames`: unique in the battle, "Pz IV", "98k 2") at a
size read across the table (`NAME_SIZE`: 10 pixels from the baseline to the top of a capital at the
default zoom). A Vehicle's yellow arrow sits on the hexside it faces. Hit counters sit on the top edge:
face-up ones as lettered badges on the right (D disrupted, X damaged), face-down ones as a dark badge
on the left (? for one, the count for more). A boarded Soldier shows as a figure badge in the middle.
Units that have acted this phase are greyed, their texts dimmed.

An aircraft over a hex (the flight and airstrike phases) is a tag, not a counter: a smaller plate in its
side's rim and nation's face with a plane seen from above and its short name, in the hex's upper point
over the top edge of the ground counter, whose speed, silhouette, defense and name stay in sight; the
ground counter's hit badges are drawn again over the tag's corners, so they stay in sight too (`air_slot`,
`air_tag`). Aircraft don't stack with the units under them; one aircraft a hex at most.

Up to four units share a hex: the top one is drawn whole and the others peek out below it as tabs in
their own colours; `fan_mesh` spreads a hex's units out whole (the screen shows it while the mouse is
on the hex). The objective is ringed in gold with a star that stays above any counter on it.

Everything is plain geometry in world units (`hexdraw`), built into a `hexdraw.Mesh`; texts are
returned as (text, world x, world y, size in world units, colour) for the screen to lay out at its
zoom. Nothing here decides a rule: it draws the `GameState` it is given.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import attrs

from minis.hexgrid import Facing, Hex
from minis.state import Counter, GameState, Phase, Unit
from minis.ui import hexdraw, shortnames, silhouettes, theme
from minis.ui.hexdraw import Mesh, Point, mix

Colour = tuple[int, int, int, int]

ARROW: Colour = (255, 214, 40, 255)
ARROW_EDGE: Colour = (30, 26, 10, 255)
DISRUPTED: Colour = (250, 206, 40, 255)
DAMAGED: Colour = (226, 72, 44, 255)
BADGE_TEXT: Colour = (20, 20, 22, 255)
FACE_DOWN: Colour = (44, 44, 50, 255)
FACE_DOWN_EDGE: Colour = (210, 210, 210, 255)
FAN_BACK: Colour = (16, 18, 22, 215)

#: A whole counter: half its width and height, and its rim, in world units. The corners touch the
#: hex's slanted sides, so a counter is as large as a hex holds.
HALF_WIDTH = 26.5
HALF_HEIGHT = 16.7
RIM = 2.0
#: The name's size (the font's em) in world units: at the default zoom of a 1280x800 window (one world
#: unit to a pixel) the capitals are 10 pixels tall (Liberation Sans Bold: caps are 0.688 em).
NAME_SIZE = 14.6
CAP_HEIGHT = 0.688
#: Speed and defense, beside the silhouette.
NUMBER_SIZE = 9.5
#: How far each unit under the top one peeks out below it.
TAB_STEP = 5.0
#: An aircraft's tag: half its width and height, and how far above the hex's centre its centre sits
#: (over the top edge of the ground counter, clear of its top row; its top reaches the hex's top point).
AIR_HALF_WIDTH = 25.5
AIR_HALF_HEIGHT = 10.2
AIR_RISE = 21.6
AIR_NAME_SIZE = 13.0


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
    """Where a counter sits: its centre, and its size as a share of a whole counter."""

    x: float
    y: float
    scale: float = 1.0


def facing_angle(facing: Facing) -> float:
    """The screen angle (radians, counter-clockwise from east) of a facing, from the hex geometry."""
    x0, y0 = hexdraw.centre(Hex(0, 0))
    x1, y1 = hexdraw.centre(facing.step)
    return math.atan2(y1 - y0, x1 - x0)


def hex_order(units: Iterable[Unit], top: str | None = None) -> list[Unit]:
    """The units of a hex from the bottom of the stack to the top: Axis before Allies, then by when they
    entered it; `top` (the selected unit) goes on top."""
    return sorted(units, key=lambda u: (u.id == top, u.side.value != "axis", u.entered, u.id))


def placements(state: GameState, top: str | None = None) -> dict[str, Slot]:
    """Where each visible unit's counter sits (boarded Soldiers ride on their transport's counter):
    a hex's top counter at its centre, the ones under it lower down, peeking out."""
    found: dict[str, Slot] = {}
    for hex_, units in state.occupancy().items():
        cx, cy = hexdraw.centre(hex_)
        ordered = hex_order(units, top)
        for depth, unit in enumerate(reversed(ordered)):
            found[unit.id] = Slot(cx, cy - depth * TAB_STEP)
    return found


def battle_names(state: GameState) -> dict[str, str]:
    """Every unit's short name, unique in the battle; copies numbered in the order of their ids."""

    def order(unit: Unit) -> tuple[str, str, int]:
        base, _, number = unit.id.partition("#")
        return (unit.side.value, base, int(number) if number.isdigit() else 1)

    units = sorted(state.units.values(), key=order)
    return dict(zip((u.id for u in units), shortnames.short_names([u.card.name for u in units]), strict=True))


def _rect(c: Point, half_w: float, half_h: float) -> list[Point]:
    x, y = c
    return [
        (x - half_w, y - half_h),
        (x + half_w, y - half_h),
        (x + half_w, y + half_h),
        (x - half_w, y + half_h),
    ]


def faces(unit: Unit, acted: bool) -> tuple[Colour, Colour, Colour]:
    """The counter's face, rim and text colours; a unit that has acted keeps its face's brightness
    (so it still stands out from the map) but loses its colour, and its texts dim."""
    face = theme.NATION_FACE.get(unit.card.nation_name, (40, 40, 40, 255))
    rim = theme.SIDE_RIM[unit.side.value]
    text = theme.COUNTER_TEXT
    if acted:
        level = theme.luminance(face)  # the grey as bright as the face
        grey = round(255 * (12.92 * level if level <= 0.0031308 else 1.055 * level ** (1 / 2.4) - 0.055))
        face = mix(face, (grey, grey, grey, 255), 0.85)
        text = mix(text, face, 0.4)
    return face, rim, text


def counter_mesh(
    mesh: Mesh,
    unit: Unit,
    slot: Slot,
    name: str,
    *,
    acted: bool = False,
    passenger: bool = False,
    facing: Facing | None = None,
) -> list[TextSpec]:
    """Add one unit's whole counter to `mesh`; return its texts. `facing` overrides the unit's (a preview)."""
    k = slot.scale
    c = (slot.x, slot.y)
    face, rim, text = faces(unit, acted)
    hw, hh = HALF_WIDTH * k, HALF_HEIGHT * k
    mesh.polygon(_rect(c, hw, hh), rim)
    mesh.polygon(_rect(c, hw - RIM * k, hh - RIM * k), face)
    texts: list[TextSpec] = []
    facing = facing or unit.facing
    angle = facing_angle(facing) if unit.card.is_vehicle and facing is not None else None
    row = c[1] + 0.45 * hh  # the top row: speed, silhouette, defense
    silhouettes.draw(
        mesh,
        silhouettes.kind_of(unit.card),
        (c[0] - 4.5 * k, row),
        10.5 * k,
        text,
        mirror=angle is not None and silhouettes.facing_mirrored(angle),
    )
    texts.append(TextSpec(str(unit.card.speed), c[0] - 19.5 * k, row, NUMBER_SIZE * k, text, bold=True))
    texts.append(TextSpec(unit.card.defense_text, c[0] + 15.0 * k, row, NUMBER_SIZE * k, text, bold=True))
    size = NAME_SIZE * k * shortnames.scale(name)  # a long name a little smaller, inside the counter
    texts.append(TextSpec(name, c[0], c[1] - 0.42 * hh, size, text, bold=True))
    if angle is not None:
        _arrow(mesh, c, angle, k)
    _badges(mesh, texts, unit, c, k, passenger, rim)
    return texts


def _arrow(mesh: Mesh, c: Point, angle: float, k: float) -> None:
    """The facing arrow on the hexside the Vehicle faces: its tip just past the side."""
    side = hexdraw.HALF_WIDTH * k  # from the centre to a hexside
    ux, uy = math.cos(angle), math.sin(angle)
    nx, ny = -uy, ux

    def along(t: float, across: float) -> Point:
        return (c[0] + ux * t + nx * across, c[1] + uy * t + ny * across)

    tip, base, wing = side + 2.5 * k, side - 8.5 * k, 6.0 * k
    mesh.triangle(
        along(tip + 2 * k, 0),
        along(base - 1.5 * k, wing + 2 * k),
        along(base - 1.5 * k, -wing - 2 * k),
        ARROW_EDGE,
    )
    mesh.triangle(along(tip, 0), along(base, wing), along(base, -wing), ARROW)


def _badges(
    mesh: Mesh, texts: list[TextSpec], unit: Unit, c: Point, k: float, passenger: bool, rim: Colour
) -> None:
    """Hit counters on the top edge: face-up on the right, face-down on the left; a rider in the middle."""
    half = 5.2 * k
    y = c[1] + HALF_HEIGHT * k
    ups = [
        (label, colour)
        for on, label, colour in ((unit.disrupted, "D", DISRUPTED), (unit.damaged, "X", DAMAGED))
        if on
    ]
    for i, (label, colour) in enumerate(ups):
        b = (c[0] + (19.0 - 12.0 * i) * k, y)
        mesh.polygon(_rect(b, half + k, half + k), BADGE_TEXT)
        mesh.polygon(_rect(b, half, half), colour)
        texts.append(TextSpec(label, b[0], b[1], 1.7 * half, BADGE_TEXT, bold=True))
    if unit.pending:
        b = (c[0] - 19.0 * k, y)
        mesh.polygon(_rect(b, half + k, half + k), FACE_DOWN_EDGE)
        mesh.polygon(_rect(b, half, half), FACE_DOWN)
        count = len(unit.pending)
        texts.append(
            TextSpec("?" if count == 1 else str(count), b[0], b[1], 1.7 * half, FACE_DOWN_EDGE, bold=True)
        )
    if passenger:
        p = (c[0] - 5.0 * k, y)
        mesh.disc(p, half + k, rim, 12)
        mesh.disc(p, half, theme.COUNTER_TEXT, 12)
        mesh.disc((p[0], p[1] + 1.8 * k), 1.7 * k, BADGE_TEXT, 8)
        mesh.triangle(
            (p[0] - 2.8 * k, p[1] - 3.4 * k),
            (p[0] + 2.8 * k, p[1] - 3.4 * k),
            (p[0], p[1] + 0.4 * k),
            BADGE_TEXT,
        )


def _tab(mesh: Mesh, unit: Unit, slot: Slot, depth: int, acted: bool) -> None:
    """A unit under the top counter: the strip of it that peeks out below, narrower the deeper it lies
    (so the stack stays inside its hex's lower point)."""
    face, rim, _ = faces(unit, acted)
    bottom = slot.y - HALF_HEIGHT - depth * TAB_STEP
    top_y = slot.y - HALF_HEIGHT + RIM  # the rest is hidden under the top counter
    reach = hexdraw.SIZE - (depth * TAB_STEP + HALF_HEIGHT)  # how far below the centre the hex still is
    hw = min(HALF_WIDTH - 2 * depth, max(3.0, reach * math.sqrt(3.0) - 1.0))
    mesh.polygon(
        [(slot.x - hw, bottom), (slot.x + hw, bottom), (slot.x + hw, top_y), (slot.x - hw, top_y)], rim
    )
    inner = [
        (slot.x - hw + RIM, bottom + RIM),
        (slot.x + hw - RIM, bottom + RIM),
        (slot.x + hw - RIM, top_y),
        (slot.x - hw + RIM, top_y),
    ]
    mesh.polygon(inner, face)


def air_slot(hex_: Hex) -> Slot:
    """Where the tag of an aircraft over `hex_` sits: centred on the hex's upper part."""
    cx, cy = hexdraw.centre(hex_)
    return Slot(cx, cy + AIR_RISE)


def air_tag(mesh: Mesh, unit: Unit, slot: Slot, name: str, *, acted: bool = False) -> list[TextSpec]:
    """Add an aircraft's tag (rim in its side's colour, its nation's face, a plane, its short name and
    its hit badges) to `mesh`; return its texts."""
    k = slot.scale
    c = (slot.x, slot.y)
    face, rim, text = faces(unit, acted)
    hw, hh = AIR_HALF_WIDTH * k, AIR_HALF_HEIGHT * k
    mesh.polygon(_rect(c, hw + k, hh + k), BADGE_TEXT)  # a dark edge: the tag stands off the counter under it
    mesh.polygon(_rect(c, hw, hh), rim)
    mesh.polygon(_rect(c, hw - 1.5 * k, hh - 1.5 * k), face)
    silhouettes.draw(mesh, silhouettes.Kind.AIRCRAFT, (c[0] - hw + 9.0 * k, c[1]), 7.5 * k, text)
    texts = [
        TextSpec(name, c[0] + 7.5 * k, c[1], AIR_NAME_SIZE * k * shortnames.scale(name), text, bold=True)
    ]
    half = 4.6 * k
    ups = [label for on, label in ((unit.disrupted, "D"), (unit.damaged, "X")) if on]
    for i, label in enumerate(ups):
        b = (c[0] + hw - (half + 1.0 * k) - 11.0 * i * k, c[1] + hh)
        mesh.polygon(_rect(b, half + k, half + k), BADGE_TEXT)
        mesh.polygon(_rect(b, half, half), DISRUPTED if label == "D" else DAMAGED)
        texts.append(TextSpec(label, b[0], b[1], 1.7 * half, BADGE_TEXT, bold=True))
    if unit.pending:
        b = (c[0] - hw + half + 1.0 * k, c[1] + hh)
        mesh.polygon(_rect(b, half + k, half + k), FACE_DOWN_EDGE)
        mesh.polygon(_rect(b, half, half), FACE_DOWN)
        count = len(unit.pending)
        texts.append(
            TextSpec("?" if count == 1 else str(count), b[0], b[1], 1.7 * half, FACE_DOWN_EDGE, bold=True)
        )
    return texts


def aircraft_over(state: GameState) -> list[Unit]:
    """The aircraft over the map (at most one a hex), in map order."""
    found = [u for u in state.units.values() if u.card.is_aircraft and u.hex is not None and not u.removed]
    return sorted(found, key=lambda u: (u.hex.r, u.hex.q) if u.hex is not None else (0, 0))


def objective_mesh(mesh: Mesh, hex_: Hex, occupied: bool) -> None:
    """The objective: a gold disc and star on an empty hex; on an occupied one a gold ring round the hex
    and a star in its lower point, both drawn after the counters so they stay in sight."""
    cx, cy = hexdraw.centre(hex_)
    if not occupied:
        c = (cx, cy - 0.06 * hexdraw.SIZE)
        mesh.disc(c, 0.5 * hexdraw.SIZE, hexdraw.OBJECTIVE_EDGE, 20)
        mesh.disc(c, 0.43 * hexdraw.SIZE, hexdraw.OBJECTIVE, 20)
        for tri in hexdraw.star(c, 0.36 * hexdraw.SIZE, 0.15 * hexdraw.SIZE):
            mesh.triangle(*tri, hexdraw.OBJECTIVE_EDGE)
        return
    mesh.outline(hexdraw.corners(cx, cy, 0.955), 3.0, hexdraw.OBJECTIVE)
    c = (cx, cy - 0.78 * hexdraw.SIZE)
    mesh.disc(c, 7.5, hexdraw.OBJECTIVE_EDGE, 14)
    mesh.disc(c, 6.3, hexdraw.OBJECTIVE, 14)
    for tri in hexdraw.star(c, 5.2, 2.2):
        mesh.triangle(*tri, hexdraw.OBJECTIVE_EDGE)


def units_mesh(
    state: GameState,
    *,
    acted: Iterable[str] = (),
    hidden: Iterable[str] = (),
    facing: Mapping[str, Facing] | None = None,
    top: str | None = None,
    names: Mapping[str, str] | None = None,
) -> tuple[Mesh, list[TextSpec], dict[str, Slot]]:
    """All counters of a position and the game's objective: the mesh, the texts, and where each unit's
    counter is. `top`: the unit drawn on top of its stack (the selected one)."""
    mesh = Mesh()
    texts: list[TextSpec] = []
    acted_set, hidden_set = set(acted), set(hidden)
    names = names if names is not None else battle_names(state)
    carriers = {u.carried_by for u in state.units.values() if u.carried_by and not u.removed}
    where = placements(state, top)
    for _, units in sorted(state.occupancy().items()):
        shown = [u for u in hex_order(units, top) if u.id not in hidden_set]
        if not shown:
            continue
        *under, last = shown
        for depth, unit in reversed(list(enumerate(reversed(under), start=1))):
            _tab(mesh, unit, where[last.id], depth, unit.id in acted_set)
        texts += counter_mesh(
            mesh,
            last,
            where[last.id],
            names.get(last.id, last.card.name),
            acted=last.id in acted_set,
            passenger=last.id in carriers,
            facing=(facing or {}).get(last.id),
        )
    if state.objective is not None:
        objective_mesh(mesh, state.objective, bool(state.at(state.objective)))
    occupied = state.occupancy()
    for plane in aircraft_over(state):  # above everything on the ground, the objective's star included
        if plane.id in hidden_set or plane.hex is None:
            continue
        slot = air_slot(plane.hex)
        where[plane.id] = slot
        struck = plane.id in acted_set and state.phase is Phase.AIRSTRIKE  # placing it is no act to grey
        texts += air_tag(mesh, plane, slot, names.get(plane.id, plane.card.name), acted=struck)
        ground = [u for u in hex_order(occupied.get(plane.hex, []), top) if u.id not in hidden_set]
        if ground:  # the top counter's hit badges stay in sight over the tag's corners
            last = ground[-1]
            _, rim, _ = faces(last, last.id in acted_set)
            _badges(mesh, texts, last, (where[last.id].x, where[last.id].y), 1.0, last.id in carriers, rim)
    return mesh, texts, where


def fan_slots(count: int, cx: float, cy: float) -> list[Slot]:
    """Whole counters side by side, centred on a hex: a stack spread out to be read."""
    step = 2 * HALF_WIDTH + 5.0
    return [Slot(cx + (i - (count - 1) / 2) * step, cy) for i in range(count)]


#: The spread-out stack's backing: its margin round the counters, and its half height (room for the hit
#: badges on the counters' top edges).
FAN_PAD = 7.0
FAN_HALF_HEIGHT = HALF_HEIGHT + FAN_PAD + 6.0


def _fan_centre(hex_: Hex, below: bool, shift: float = 0.0) -> tuple[float, float]:
    """The middle of a stack spread out just above its hex (`below`: just under it), `shift` world units
    to the right (to stay inside the map's view at its edge)."""
    hx, hy = hexdraw.centre(hex_)
    sign = -1.0 if below else 1.0
    return hx + shift, hy + sign * (0.7 * hexdraw.SIZE + FAN_HALF_HEIGHT)


def fan_half_width(count: int) -> float:
    """Half the width of the backing of `count` counters spread out."""
    step = 2 * HALF_WIDTH + 5.0
    return (count - 1) / 2 * step + HALF_WIDTH + FAN_PAD


def fan_box(
    hex_: Hex, count: int, *, below: bool = False, shift: float = 0.0
) -> tuple[float, float, float, float]:
    """The backing of `count` counters spread out from `hex_` (`fan_mesh`): left, bottom, right, top in
    world units. Its near edge lies inside the hex, so hex and backing are one area for the pointer."""
    cx, cy = _fan_centre(hex_, below, shift)
    half_w = fan_half_width(count)
    return cx - half_w, cy - FAN_HALF_HEIGHT, cx + half_w, cy + FAN_HALF_HEIGHT


def fan_spots(
    state: GameState, hex_: Hex, *, top: str | None = None, below: bool = False, shift: float = 0.0
) -> list[tuple[Unit, Slot]]:
    """Each unit of `hex_`'s stack and where its counter sits when the stack is spread out (`fan_mesh`);
    empty for a hex with one unit or none."""
    units = hex_order(state.occupancy().get(hex_, []), top)
    if len(units) < 2:
        return []
    cx, cy = _fan_centre(hex_, below, shift)
    return list(zip(units, fan_slots(len(units), cx, cy - 3.0), strict=True))


def fan_unit_at(
    state: GameState,
    hex_: Hex,
    x: float,
    y: float,
    *,
    top: str | None = None,
    below: bool = False,
    shift: float = 0.0,
) -> Unit | None:
    """The unit whose counter, in `hex_`'s stack spread out (`fan_mesh`), is at map point (x, y)."""
    for unit, spot in fan_spots(state, hex_, top=top, below=below, shift=shift):
        if abs(x - spot.x) <= HALF_WIDTH and abs(y - spot.y) <= HALF_HEIGHT:
            return unit
    return None


#: The ring round the counter of a spread-out stack the player picked (the target an attack aims at).
FAN_CHOSEN: Colour = (255, 150, 40, 255)


def fan_mesh(
    state: GameState,
    hex_: Hex,
    *,
    acted: Iterable[str] = (),
    names: Mapping[str, str] | None = None,
    top: str | None = None,
    below: bool = False,
    shift: float = 0.0,
    chosen: str | None = None,
) -> tuple[Mesh, list[TextSpec]]:
    """A stack of two or more units spread out whole on a dark backing just above its hex (`below`: just
    under it, for the map's top row), pointing at it, so the hex itself stays in sight; empty for a hex
    with one unit or none. `shift` moves it sideways (the map view's edge); `chosen` is ringed."""
    mesh = Mesh()
    units = hex_order(state.occupancy().get(hex_, []), top)
    if len(units) < 2:
        return mesh, []
    names = names if names is not None else battle_names(state)
    acted_set = set(acted)
    carriers = {u.carried_by for u in state.units.values() if u.carried_by and not u.removed}
    hx, hy = hexdraw.centre(hex_)
    half_h = FAN_HALF_HEIGHT
    sign = -1.0 if below else 1.0
    cx, cy = _fan_centre(hex_, below, shift)
    spots = fan_slots(len(units), cx, cy - 3.0)
    mesh.polygon(_rect((cx, cy), fan_half_width(len(units)), half_h), FAN_BACK)
    edge = cy - sign * half_h
    mesh.triangle((hx - 8.0, edge), (hx + 8.0, edge), (hx, hy + sign * 0.5 * hexdraw.SIZE), FAN_BACK)
    texts: list[TextSpec] = []
    for unit, spot in zip(units, spots, strict=True):
        if unit.id == chosen:
            mesh.polygon(_rect((spot.x, spot.y), HALF_WIDTH + 3.5, HALF_HEIGHT + 3.5), FAN_CHOSEN)
        texts += counter_mesh(
            mesh,
            unit,
            spot,
            names.get(unit.id, unit.card.name),
            acted=unit.id in acted_set,
            passenger=unit.id in carriers,
        )
    return mesh, texts


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
