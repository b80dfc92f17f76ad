"""Small helpers the ability modules share: who owns a hook call, commanders nearby, bookkeeping.

Hooks of an attack are asked of the attacker's abilities, the target's abilities and every aura on the
map, so each ability first checks whose side of the attack its owner is on (`attacking`, `defending`).
Bookkeeping that an ability needs across actions (once per game, for the rest of the turn, this phase)
lives in `GameState.used` and `GameState.notes` (`minis.rules.flags`, re-exported here for the families).
"""

from __future__ import annotations

from minis.engine.ability_api import AttackContext, near
from minis.rules.flags import (
    add_this_phase,
    add_this_turn,
    mark_used,
    phase_key,
    this_phase,
    this_turn,
    used_this_game,
)
from minis.state import GameState, Unit
from minis.terrain import Terrain

__all__ = [
    "add_this_phase",
    "add_this_turn",
    "attacking",
    "defending",
    "friendly_commander_near",
    "in_cover",
    "mark_used",
    "phase_key",
    "terrain_of",
    "this_phase",
    "this_turn",
    "used_this_game",
]


def attacking(ctx: AttackContext, owner: Unit) -> bool:
    """True when the ability's owner is the attacker of this attack."""
    return owner.id == ctx.attacker.id


def defending(ctx: AttackContext, owner: Unit) -> bool:
    """True when the ability's owner is the target of this attack."""
    return owner.id == ctx.target.id


def friendly_commander_near(state: GameState, unit: Unit) -> bool:
    """A friendly Commander other than the unit itself in its hex or next to it."""
    return any(
        other.id != unit.id and other.card.is_commander and near(other, unit)
        for other in state.on_map(unit.side)
    )


def in_cover(state: GameState, unit: Unit) -> bool:
    """The unit is in a hex whose terrain gives it a cover roll (rulebook, Cover)."""
    assert state.board is not None and unit.hex is not None
    return state.board.terrain(unit.hex).effects.cover(unit.card.is_vehicle) is not None


def terrain_of(state: GameState, unit: Unit) -> Terrain:
    """The terrain of the unit's hex."""
    assert state.board is not None and unit.hex is not None
    return state.board.terrain(unit.hex)
