"""Stacking (rulebook, Movement and Position): who may end a move, deploy or dismount in a hex.

Up to two units of each army in a hex, and only one Vehicle among all of them. The limit applies
only where a unit ends its move; boarded Soldiers never count. An ability may make a unit count as
a Vehicle for stacking (Large).
"""

from __future__ import annotations

from minis import abilities
from minis.hexgrid import Hex
from minis.state import GameState, Unit

#: Units of one army that may share a hex.
FRIENDLY_LIMIT = 2
#: Vehicles that may share a hex, whatever their army.
VEHICLE_LIMIT = 1


def room_for(state: GameState, unit: Unit, hex_: Hex, others: list[Unit] | None = None) -> bool:
    """True if `unit` may stop in `hex_` given the units there (the unit itself is not counted).

    `others` may pass the units already in the hex (from `GameState.occupancy`) to save a scan.
    """
    present = state.at(hex_) if others is None else others
    as_vehicle = abilities.stacks_as_vehicle(state, unit)
    friends = 0
    vehicles = 0
    for other in present:
        if other.id == unit.id or other.carried_by is not None:
            continue
        if other.side is unit.side:
            friends += 1
        if as_vehicle and abilities.stacks_as_vehicle(
            state, other
        ):  # other Vehicles matter only to a Vehicle
            vehicles += 1
    if friends >= FRIENDLY_LIMIT:
        return False
    return not (as_vehicle and vehicles >= VEHICLE_LIMIT)


def full_hexes(state: GameState, unit: Unit) -> set[Hex]:
    """Every hex where `unit` can't stop (no room for it), found in one pass over the units.

    The counting relies on FRIENDLY_LIMIT == 2 and VEHICLE_LIMIT == 1 (a second friend, or any Vehicle).
    """
    side = unit.side
    unit_id = unit.id
    as_vehicle = abilities.stacks_as_vehicle(state, unit)
    once: set[Hex] = set()  # hexes with one friendly unit so far
    full: set[Hex] = set()
    for other in state.units.values():
        h = other.hex
        if h is None or other.removed or other.carried_by is not None or other.id == unit_id:
            continue
        if other.card.is_aircraft:  # over the hex: aircraft don't stack with Soldiers and Vehicles
            continue
        if other.side is side:
            if h in once:
                full.add(h)  # the second friendly unit: the friendly limit is reached
            else:
                once.add(h)
        # Other Vehicles (any side) matter only to a Vehicle.
        if as_vehicle and h not in full and abilities.stacks_as_vehicle(state, other):
            full.add(h)
    return full


def overstacked(state: GameState) -> list[Hex]:
    """Hexes that break the stacking limit (never any in a correct game: an invariant for tests).

    A unit in the middle of its move doesn't count: the limit applies where a move ends.
    """
    bad = []
    moving = state.move.unit if state.move is not None else None
    for hex_, present in state.occupancy().items():
        units = [u for u in present if u.id != moving]
        for side_units in ([u for u in units if u.side is s] for s in {u.side for u in units}):
            if len(side_units) > FRIENDLY_LIMIT:
                bad.append(hex_)
                break
        else:
            if sum(1 for u in units if abilities.stacks_as_vehicle(state, u)) > VEHICLE_LIMIT:
                bad.append(hex_)
    return bad
