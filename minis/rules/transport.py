"""Transport (glossary): Soldiers boarding and dismounting Vehicles with a transport ability.

A Soldier in the same hex as a friendly transport can use its movement-phase move to board it, and a
Soldier that starts its movement phase boarded can use its move to dismount. A transport carries one
Soldier (never Artillery, unless an ability allows it). A boarded Soldier doesn't count for stacking,
can't move, fire or defend for itself, and is destroyed with its transport. If dismounting breaks the
stacking limit, the opponent places the Soldier in one of the nearest hexes where it may be.
"""

from __future__ import annotations

from minis import abilities
from minis.hexgrid import Hex, ring
from minis.rules import mapinfo, setup, water
from minis.rules.stacking import room_for
from minis.state import GameState, Phase, Stage, Unit


def board_problem(state: GameState, soldier: Unit, transport: Unit) -> str | None:
    """Why `soldier` can't board `transport` now (None if it can). Activation is checked by the caller."""
    if not soldier.card.is_soldier:
        return f"{soldier.id} is not a Soldier; only Soldiers board transports"
    if state.stage is Stage.DEPLOY and (fixed := setup.fixed_problem(state, soldier)):
        return fixed  # a preset that stays put: boarding would move it with its carrier
    if soldier.carried_by is not None:
        return f"{soldier.id} is already boarded on {soldier.carried_by}"
    if transport.side is not soldier.side:
        return f"{transport.id} is not a friendly unit"
    if (not transport.on_map or not soldier.on_map or transport.hex != soldier.hex) and not (
        transport.on_map and soldier.on_map and water.boards_from_shore(state, soldier, transport)
    ):
        return f"{soldier.id} must be in the same hex as {transport.id} to board it"
    if state.phase is not Phase.MOVEMENT and state.phase is not Phase.SETUP:
        return "Soldiers board transports only in their movement phase"
    if soldier.disrupted and abilities.disrupted(state, soldier):
        return f"{soldier.id} is disrupted and can't move"
    capacity = abilities.capacity(state, transport)
    if capacity == 0:
        return f"{transport.id} has no transport ability"
    if not abilities.may_carry(state, transport, soldier):
        return f"{transport.id} can't carry {soldier.id}"
    if refused := abilities.boarding_problem(state, transport, soldier):
        return refused
    aboard = sum(1 for u in state.units.values() if u.carried_by == transport.id and not u.removed)
    if aboard >= capacity:
        return f"{transport.id} already carries a Soldier"
    if state.phase is Phase.MOVEMENT and not abilities.may_move(state, soldier):
        return f"an ability keeps {soldier.id} from moving"
    return None


def dismount_problem(state: GameState, soldier: Unit, hex_: Hex) -> str | None:
    """Why `soldier` can't dismount into `hex_` now (None if it can, room or not)."""
    if soldier.carried_by is None:
        return f"{soldier.id} is not boarded on a transport"
    if state.phase is not Phase.MOVEMENT:
        return "Soldiers dismount only in their movement phase"
    if soldier.disrupted and abilities.disrupted(state, soldier):
        return f"{soldier.id} is disrupted and can't move"
    if hex_ != soldier.hex and not water.lands_at(state, soldier, hex_):
        return f"{soldier.id} dismounts into its transport's hex"
    if not can_stand(state, soldier, hex_):
        if water.in_water(state, hex_):
            return f"{soldier.id} can't get off in water: it goes ashore into a hex next to its transport"
        return f"{soldier.id} can't get off in that terrain"
    if not abilities.may_move(state, soldier):  # dismounting is the Soldier's move (Command Dependent)
        return f"an ability keeps {soldier.id} from moving"
    return None


def can_stand(state: GameState, soldier: Unit, hex_: Hex) -> bool:
    board = state.battle.board
    assert board is not None
    info = mapinfo.info(board)
    return hex_ in info.playable and info.effects[hex_].can_enter(soldier.card.is_vehicle)


def placements(state: GameState, soldier: Unit, origin: Hex) -> list[Hex]:
    """The nearest hexes (by distance from `origin`) where a Soldier that doesn't fit may be put."""
    board = state.battle.board
    assert board is not None
    info = mapinfo.info(board)
    for radius in range(1, 2 * len(info.playable) + 1):
        found = [
            h for h in ring(origin, radius) if can_stand(state, soldier, h) and room_for(state, soldier, h)
        ]
        if found:
            return sorted(found, key=lambda h: (h.r, h.q))
        if radius > 40:
            break
    return []
