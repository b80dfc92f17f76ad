"""Defensive Fire (rulebook): who a moving unit provokes, who may answer, and the attack itself.

A unit provokes defensive fire from an enemy when it moves from one hex adjacent to that enemy into
another hex adjacent to it (the enemy's own hex counts as adjacent). Soldiers don't provoke Vehicles.
A unit may fire defensively once per phase, not while disrupted, and only with an attack value and
line of sight to the mover in the hex it fires at. The attack disrupts at once and stops the move; a
successful cover roll negates it.
"""

from __future__ import annotations

from minis import abilities
from minis.dice import Dice
from minis.events import Event
from minis.hexgrid import Hex, distance
from minis.rules.combat import AttackPlan, attack_allowed, plan_attack, resolve_with_blast
from minis.state import GameState, MoveProgress, Unit


def provoked(state: GameState, mover: Unit, firer: Unit, a: Hex, b: Hex) -> bool:
    """True if the step a -> b of `mover` provokes defensive fire from `firer`."""
    if firer.hex is None or distance(a, firer.hex) > 1 or distance(b, firer.hex) > 1:
        return False
    override = abilities.provokes(state, mover, firer)
    if override is not None:
        return override
    return not (firer.card.is_vehicle and not mover.card.is_vehicle)


def may_fire(state: GameState, firer: Unit) -> bool:
    """True if `firer` may still make a defensive-fire attack this phase (any target)."""
    if not firer.on_map or (firer.disrupted and abilities.disrupted(firer)):
        return False
    if state.fired.get(firer.id, 0) >= abilities.defensive_fire_limit(state, firer):
        return False
    if firer.carried_by is not None:
        transport = state.units[firer.carried_by]
        if not abilities.passenger_may_fire(state, transport, firer, True):
            return False
    return abilities.may_fire_defensively(state, firer)


def window_hex(move: MoveProgress) -> Hex:
    """Where the mover is during the current window: still in the first hex, or in the second."""
    return move.path[move.step] if move.at == 1 else move.path[move.step + 1]


def shooters(state: GameState, move: MoveProgress) -> list[Unit]:
    """Units that may fire at the mover in the current window, by id."""
    mover = state.units[move.unit]
    a, b = move.path[move.step], move.path[move.step + 1]
    found = []
    side = mover.side
    for unit in state.units.values():
        h = unit.hex
        if h is None or unit.side is side or unit.removed:
            continue
        dq, dr = h.q - a.q, h.r - a.r  # adjacent (or the same hex) to both ends of the step
        if abs(dq) > 1 or abs(dr) > 1 or abs(dq + dr) > 1:
            continue
        dq, dr = h.q - b.q, h.r - b.r
        if abs(dq) > 1 or abs(dr) > 1 or abs(dq + dr) > 1:
            continue
        if (
            provoked(state, mover, unit, a, b)
            and may_fire(state, unit)
            and attack_allowed(state, unit, mover, defensive=True)
        ):
            found.append(unit)
    found.sort(key=lambda u: u.id)
    return found


def fire(state: GameState, firer_id: str, mover_id: str, dice: Dice, events: list[Event]) -> bool:
    """Resolve `firer`'s defensive fire at the mover; True if the mover is disrupted (and must stop)."""
    state.fired[firer_id] = state.fired.get(firer_id, 0) + 1
    disrupted = False
    for _ in range(abilities.defensive_fire_attacks(state, state.units[firer_id])):
        plan = plan_attack(state, state.units[firer_id], state.units[mover_id], defensive=True)
        if not isinstance(plan, AttackPlan):
            break
        result = resolve_with_blast(state, plan, dice, events)
        disrupted = disrupted or bool(result.hits and not result.cover)
    return disrupted
