"""A silhouette per kind of unit, so a player tells a mortar from a machine gun or a half-track from a tank
across the table.

The kind comes from the card (its type, subtype, abilities and attack numbers); the silhouette is a few
convex shapes in a box twice as wide as it is tall, seen from the side and facing right (a Vehicle
facing west is drawn mirrored). Plain geometry into a `hexdraw.Mesh`: no image files, no window.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence

from minis.cards import StatCard
from minis.ui.hexdraw import Colour, Mesh, Point, ellipse, star


class Kind(enum.Enum):
    RIFLE = "rifle squad"
    MACHINE_GUN = "machine gun"
    ANTITANK_GUN = "antitank gun"
    ARTILLERY = "artillery"
    MORTAR = "mortar"
    COMMANDER = "commander"
    TANK = "tank"
    TANK_DESTROYER = "tank destroyer or assault gun"
    HALF_TRACK = "half-track or carrier"
    ARMOURED_CAR = "armoured car"
    TRUCK = "truck or car"
    AIRCRAFT = "aircraft"


_VEHICLES = {
    "Tank": Kind.TANK,
    "Tank Destroyer": Kind.TANK_DESTROYER,
    "Assault Gun": Kind.TANK_DESTROYER,
    "Half-Track": Kind.HALF_TRACK,
    "Armored Car": Kind.ARMOURED_CAR,
    "Car": Kind.TRUCK,
    "Truck": Kind.TRUCK,
}


def _best(values: Sequence[int | None]) -> int:
    return max((v for v in values if v is not None), default=0)


def kind_of(card: StatCard) -> Kind:
    """What a card's unit is, for its silhouette (the card says it: subtype, abilities, numbers)."""
    name = card.name.lower()
    if card.is_aircraft:
        return Kind.AIRCRAFT
    if card.is_vehicle:
        if card.subtype in _VEHICLES:
            return _VEHICLES[card.subtype]
        carries = card.has("transport") or card.has("gun-transport")
        return Kind.HALF_TRACK if carries else Kind.TANK  # e.g. the Universal Carrier: a tracked carrier
    if card.is_commander:
        return Kind.COMMANDER
    attacks = (card.vs_soldiers, card.vs_vehicles)
    soldiers, vehicles = (_best([a.short, a.medium, a.long]) for a in attacks)
    if card.is_artillery:
        return Kind.ANTITANK_GUN if vehicles > soldiers else Kind.ARTILLERY
    if "mortar" in name or (card.has("shrapnel") and card.has("inaccurate")):
        return Kind.MORTAR
    if card.has("double-shot") or "machine" in name or " mg" in f" {name}":
        return Kind.MACHINE_GUN
    return Kind.RIFLE


def draw(mesh: Mesh, kind: Kind, centre: Point, half: float, colour: Colour, *, mirror: bool = False) -> None:
    """The silhouette of `kind` in the box centred at `centre`, `half` wide each side and `half` tall
    in all (so the box is 2 x 1 halves)."""
    cx, cy = centre
    flip = -1.0 if mirror else 1.0

    def at(x: float, y: float) -> Point:
        return (cx + flip * x * half, cy + y * half)

    def poly(*points: Point) -> None:
        mesh.polygon([at(x, y) for x, y in points], colour)

    def bar(a: Point, b: Point, width: float) -> None:
        mesh.line(at(*a), at(*b), width * half, colour)

    def disc(x: float, y: float, r: float) -> None:
        mesh.polygon(ellipse(at(x, y), r * half, r * half, 10), colour)

    def figure(x: float, scale: float = 1.0) -> None:
        """A standing soldier: head, body, legs."""
        disc(x, 0.36 * scale, 0.1 * scale)
        poly(
            (x - 0.14 * scale, 0.24 * scale),
            (x + 0.14 * scale, 0.24 * scale),
            (x + 0.1, -0.12),
            (x - 0.1, -0.12),
        )
        bar((x - 0.05, -0.12), (x - 0.12, -0.5), 0.09)
        bar((x + 0.05, -0.12), (x + 0.12, -0.5), 0.09)

    def tracks(left: float, right: float) -> None:
        poly(
            (left, -0.5),
            (right, -0.5),
            (right + 0.08, -0.34),
            (right, -0.18),
            (left, -0.18),
            (left - 0.08, -0.34),
        )

    if kind is Kind.RIFLE:
        figure(-0.1)
        bar((-0.5, -0.05), (0.4, 0.45), 0.08)  # the rifle across the shoulder
    elif kind is Kind.COMMANDER:
        figure(0.2)
        bar((0.3, 0.16), (0.62, 0.34), 0.08)  # pointing the way
        for tri in star(at(-0.5, 0.12), 0.3 * half, 0.12 * half):
            mesh.triangle(*tri, colour)
    elif kind is Kind.MACHINE_GUN:
        disc(-0.5, 0.0, 0.11)  # the gunner lying behind it
        poly((-0.42, 0.05), (-0.1, 0.05), (-0.1, -0.2), (-0.42, -0.2))
        poly((-0.12, 0.14), (0.2, 0.14), (0.2, -0.04), (-0.12, -0.04))
        bar((0.2, 0.06), (0.9, 0.06), 0.1)
        bar((0.05, -0.02), (-0.15, -0.5), 0.08)
        bar((0.05, -0.02), (0.3, -0.5), 0.08)
    elif kind is Kind.MORTAR:
        poly((-0.5, -0.5), (0.3, -0.5), (0.3, -0.38), (-0.5, -0.38))  # the base plate
        bar((-0.2, -0.42), (0.35, 0.5), 0.2)  # the tube, steeply up
        bar((0.15, 0.1), (0.45, -0.44), 0.07)  # the bipod
    elif kind in (Kind.ANTITANK_GUN, Kind.ARTILLERY):
        steep = kind is Kind.ARTILLERY
        end = (0.55, 0.5) if steep else (0.95, 0.06)
        bar((0.0, -0.04), end, 0.12 if not steep else 0.15)
        poly((-0.12, 0.22), (0.08, 0.28), (0.08, -0.28), (-0.12, -0.28))  # the shield
        bar((-0.05, -0.25), (-0.85, -0.48), 0.1)  # the trail
        disc(-0.05, -0.3, 0.2)  # the wheel
        if steep:
            disc(-0.05, -0.3, 0.26)
    elif kind is Kind.TANK:
        tracks(-0.8, 0.8)
        poly((-0.85, -0.2), (0.85, -0.2), (0.7, 0.06), (-0.8, 0.06))
        poly((-0.45, 0.04), (0.25, 0.04), (0.18, 0.36), (-0.35, 0.36))  # the turret
        bar((0.2, 0.2), (1.0, 0.2), 0.1)
    elif kind is Kind.TANK_DESTROYER:
        tracks(-0.8, 0.8)
        poly((-0.85, -0.2), (0.85, -0.2), (0.45, 0.22), (-0.8, 0.22))  # a low casemate, no turret
        bar((0.4, 0.04), (1.05, 0.04), 0.11)
    elif kind is Kind.HALF_TRACK:
        tracks(-0.85, -0.05)
        disc(0.6, -0.32, 0.18)
        poly((-0.95, -0.2), (0.95, -0.2), (0.95, 0.0), (0.5, 0.22), (-0.95, 0.22))
    elif kind is Kind.ARMOURED_CAR:
        for x in (-0.55, 0.0, 0.55):
            disc(x, -0.3, 0.19)
        poly((-0.9, -0.18), (0.9, -0.18), (0.75, 0.12), (-0.8, 0.12))
        poly((-0.3, 0.1), (0.2, 0.1), (0.12, 0.34), (-0.22, 0.34))
        bar((0.15, 0.22), (0.75, 0.22), 0.08)
    elif kind is Kind.AIRCRAFT:  # seen from above, flying right: wings, fuselage, tail
        bar((-0.95, 0.0), (0.85, 0.0), 0.2)
        poly((0.85, 0.1), (1.0, 0.0), (0.85, -0.1))  # the nose
        poly((-0.05, 0.5), (0.3, 0.5), (0.3, -0.5), (-0.05, -0.5))  # the wings
        poly((-0.95, 0.24), (-0.75, 0.24), (-0.75, -0.24), (-0.95, -0.24))  # the tailplane
    else:  # Kind.TRUCK: a jeep, a car, a truck
        for x in (-0.55, 0.55):
            disc(x, -0.3, 0.2)
        poly((-0.9, -0.2), (0.9, -0.2), (0.9, 0.06), (-0.9, 0.06))
        bar((0.1, 0.06), (-0.05, 0.4), 0.08)  # the windscreen
        bar((-0.05, 0.4), (-0.5, 0.4), 0.06)


def facing_mirrored(angle: float) -> bool:
    """True if a Vehicle facing `angle` (radians, counter-clockwise from east) is drawn facing left."""
    return math.cos(angle) < -1e-9
