"""Water hexes (an extension of the Base Set terrain): who may be there, and Soldiers going aboard and
ashore across the shore.

The Terrain Effects table closes water to Soldiers and Vehicles (`minis.terrain`); Amphibious and Water
Craft open it through the `enters_terrain` hook. A Soldier can never stand in water, so a transport
afloat takes its Soldiers on from the shore and puts them ashore there: a Soldier next to a friendly
transport in a water hex may board it (it then rides in the water hex), and a Soldier aboard a
transport in a water hex dismounts into a hex next to it where it may stand, instead of into the
transport's own hex. Everything else about boarding and dismounting is unchanged (`rules/transport.py`).

A unit that can stand in no hex of its deployment zone (a Higgins Boat on a map with no water there) is
stranded: its player may finish deploying without it, and it stays out of the battle (taken off when
both armies have deployed, with a "stranded" event; it scores nothing, as a unit destroyed would not).
"""

from __future__ import annotations

from minis import abilities
from minis.board import Board
from minis.engine.events import Event
from minis.hexgrid import Hex, distance
from minis.rules import caching, mapinfo, setup
from minis.state import GameState, Unit
from minis.terrain import Terrain


def _has_water(board: Board) -> bool:
    """Whether the board has a water hex at all (most maps don't: then nothing here is asked twice)."""
    return any(e.terrain is Terrain.WATER for e in mapinfo.info(board).effects.values())


def has_water(state: GameState) -> bool:
    """True if the battle map has a water hex (kept on the board)."""
    board = state.battle.board
    if board is None:
        return False
    return caching.kept(board, _has_water)


def in_water(state: GameState, hex_: Hex | None) -> bool:
    """True if `hex_` is a water hex of the battle map."""
    board = state.battle.board
    if hex_ is None or board is None:
        return False
    effects = mapinfo.info(board).effects.get(hex_)
    return effects is not None and effects.terrain is Terrain.WATER


def boards_from_shore(state: GameState, soldier: Unit, transport: Unit) -> bool:
    """True if `soldier` stands next to `transport` and the transport is afloat (in a water hex): then
    it boards across the shore instead of from the transport's own hex."""
    return (
        soldier.hex is not None
        and transport.hex is not None
        and soldier.carried_by is None
        and distance(soldier.hex, transport.hex) == 1
        and in_water(state, transport.hex)
    )


def lands_at(state: GameState, soldier: Unit, hex_: Hex) -> bool:
    """True if `soldier` is aboard a transport afloat and `hex_` is next to it: it gets off there (the
    terrain and the room are the caller's checks, as for any dismount)."""
    return (
        soldier.carried_by is not None
        and soldier.hex is not None
        and distance(soldier.hex, hex_) == 1
        and in_water(state, soldier.hex)
    )


def shore_hexes(state: GameState, soldier: Unit) -> tuple[Hex, ...]:
    """The playable hexes next to the soldier's water hex, in board order (north to south, west to
    east): where a Soldier aboard a transport afloat may try to get off."""
    board = state.battle.board
    if board is None or soldier.hex is None or not in_water(state, soldier.hex):
        return ()
    near = mapinfo.info(board).neighbours.get(soldier.hex, ())
    return tuple(sorted(near, key=lambda h: (h.r, h.q)))


def transports_afloat_near(state: GameState, soldier: Unit) -> list[Unit]:
    """Friendly units in water hexes next to the soldier (the transports it might board from the shore)."""
    if soldier.hex is None or not has_water(state):
        return []
    return [
        u
        for u in state.units.values()
        if u.side is soldier.side
        and u.id != soldier.id
        and not u.removed
        and u.carried_by is None
        and u.hex is not None
        and distance(u.hex, soldier.hex) == 1
        and in_water(state, u.hex)
    ]


def stranded(state: GameState, unit: Unit) -> bool:
    """True if `unit`, not yet deployed, may stand in no hex of its side's deployment zone (only an
    ability that changes where it may be, `enters_terrain`, can make it so)."""
    if unit.hex is not None or unit.removed or not abilities.overrides(state, unit.card, "enters_terrain"):
        return False
    board = state.battle.board
    if board is None:
        return False
    effects = mapinfo.info(board).effects
    vehicle = unit.card.is_vehicle
    return not any(
        abilities.enters_terrain(state, unit, h, effects[h].can_enter(vehicle))
        for h in setup.zone(state, unit.side)
        if h in effects
    )


def leave_out_stranded(state: GameState, events: list[Event]) -> None:
    """When both armies have deployed: every stranded unit is taken out of the battle, by unit id."""
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        if stranded(state, unit):
            state.update(unit.id, removed=True, hex=None, carried_by=None)
            events.append(Event("stranded", unit.side, unit.id))
