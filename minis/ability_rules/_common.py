"""Small helpers the ability modules share: who owns a hook call, commanders nearby, bookkeeping.

Hooks of an attack are asked of the attacker's abilities, the target's abilities and every aura on the
map, so each ability first checks whose side of the attack its owner is on (`attacking`, `defending`).
Bookkeeping that an ability needs across actions (once per game, for the rest of the turn, this phase)
lives in `GameState.flags` under keys that name the ability, with immutable values, because the state
is cloned by shallow copy.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from minis.abilities import AttackContext, near
from minis.state import GameState, Unit
from minis.terrain import Terrain


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


# --- bookkeeping in GameState.flags ---------------------------------------------------------------------


def phase_key(state: GameState) -> tuple[int, str, str]:
    """Identifies the current phase of the current turn (a flag set in another phase is stale)."""
    # `_value_` is the member's value as a plain attribute (`.value` is a slower descriptor): asked on
    # every action by the activation bookkeeping.
    active = state.active
    return (state.turn, state.phase._value_, active._value_ if active is not None else "")


def _scoped(state: GameState, name: str, key: Hashable) -> frozenset[Any]:
    entry = state.flags.get(name)
    if entry is None or entry[0] != key:
        return frozenset()
    return entry[1]  # type: ignore[no-any-return]


def _scoped_add(state: GameState, name: str, key: Hashable, item: Any) -> None:
    state.flags[name] = (key, _scoped(state, name, key) | {item})


def this_phase(state: GameState, name: str) -> frozenset[Any]:
    """The items recorded under `name` in the current phase."""
    return _scoped(state, name, phase_key(state))


def add_this_phase(state: GameState, name: str, item: Any) -> None:
    _scoped_add(state, name, phase_key(state), item)


def this_turn(state: GameState, name: str) -> frozenset[Any]:
    """The items recorded under `name` in the current turn."""
    return _scoped(state, name, state.turn)


def add_this_turn(state: GameState, name: str, item: Any) -> None:
    _scoped_add(state, name, state.turn, item)


def used_this_game(state: GameState, name: str, unit_id: str) -> bool:
    """True once a unit has used a once-per-game ability."""
    return bool(state.flags.get(f"{name}:{unit_id}"))


def mark_used(state: GameState, name: str, unit_id: str) -> None:
    state.flags[f"{name}:{unit_id}"] = True
