"""Attacks on aircraft (docs/aircraft.md): who may make them and the -1 on each die.

Kept apart from `minis.rules.air` (the flight phase, which asks combat whether a reaction shot is
allowed) because combat asks these questions of every attack on an aircraft.

Antiair, Antiair Support and Ace are asked of the ability classes in play (`minis.engine.air_roles.AirRole`),
not of the card's text: a rule set without one of them (a test switches it off) plays the card as if it
lacked it.
"""

from __future__ import annotations

from minis import abilities
from minis.engine.air_roles import AirRole
from minis.state import GameState, Unit

#: The -1 on each die of an attack on an aircraft (not for attackers with Antiair or Ace).
AIR_TARGET_PENALTY = 1
#: Units with these abilities can't attack aircraft at all.
CANNOT_ATTACK_AIRCRAFT = ("bombardment", "top-mounted-rockets")


def _roles(state: GameState, unit: Unit) -> list[AirRole]:
    return [h for h in abilities.handlers(state, unit.card) if isinstance(h, AirRole)]


def _own_antiair(state: GameState, unit: Unit) -> bool:
    return any(role.antiair for role in _roles(state, unit))


def has_antiair(state: GameState, unit: Unit) -> bool:
    """Antiair, or Antiair Support while a friendly unit with Antiair of its own shares its hex."""
    roles = _roles(state, unit)
    if any(role.antiair for role in roles):
        return True
    if unit.hex is not None and any(role.antiair_support for role in roles):
        return any(
            other.id != unit.id and other.hex == unit.hex and _own_antiair(state, other)
            for other in state.on_map(unit.side)
            if not other.card.is_aircraft  # an aircraft over the hex is not in it
        )
    return False


def is_ace(state: GameState, unit: Unit) -> bool:
    """The unit is an Ace (its reaction shots reach 4 hexes; no -1 against aircraft)."""
    return any(role.ace for role in _roles(state, unit))


def ignores_air_penalty(state: GameState, attacker: Unit) -> bool:
    """Attackers with Antiair or Ace take no -1 on their dice against aircraft."""
    return is_ace(state, attacker) or has_antiair(state, attacker)


def cannot_attack_aircraft(attacker: Unit, state: GameState | None = None) -> str | None:
    """Why `attacker` can't attack aircraft at all (None: it may). With the battle's `state`, the rule
    set's options are asked too (2009 on: Artillery without Antiair can't)."""
    for ability in CANNOT_ATTACK_AIRCRAFT:
        ref = attacker.card.ability(ability)
        if ref is not None:
            return f"{attacker.id} can't attack aircraft ({ref.name})"
    if (
        state is not None
        and attacker.card.is_artillery
        and not state.rules.artillery_vs_aircraft
        and not has_antiair(state, attacker)
    ):
        return f"{attacker.id} is Artillery without Antiair: under these rules it can't attack aircraft"
    return None


def ground(state: GameState, aircraft_id: str) -> None:
    """Note an aircraft disrupted at once this turn: it keeps the counter through the casualty phase."""
    # `GameState.grounded`: aircraft disrupted at once this turn (a reaction shot, Speed Boost) keep the
    # counter through this turn's casualty phase (the official Q&A; a literal reading of the insert would
    # clear it).
    if aircraft_id not in state.grounded:
        state.grounded = (*state.grounded, aircraft_id)
