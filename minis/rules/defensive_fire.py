"""Defensive Fire (rulebook): who a moving unit provokes, who may answer, and the attack itself.

A unit provokes defensive fire from an enemy when it moves from one hex adjacent to that enemy into
another hex adjacent to it (the enemy's own hex counts as adjacent). Soldiers don't provoke Vehicles.
A unit may fire defensively once per phase, not while disrupted, and only with an attack value and
line of sight to the mover in the hex it fires at. The attack disrupts at once and stops the move; a
successful cover roll negates it.
"""

from __future__ import annotations

from itertools import pairwise

from minis import abilities
from minis.dice import Dice
from minis.engine.events import Event
from minis.hexgrid import Hex, distance, within
from minis.rules import caching
from minis.rules.combat import AttackPlan, attack_allowed, plan_attack, resolve_with_blast
from minis.state import GameState, MoveProgress, StepKey, Unit


def provoked(state: GameState, mover: Unit, firer: Unit, a: Hex, b: Hex) -> bool:
    """True if the step a -> b of `mover` provokes defensive fire from `firer`."""
    if firer.hex is None or distance(a, firer.hex) > 1 or distance(b, firer.hex) > 1:
        return False
    override = abilities.provokes(state, mover, firer)
    step = abilities.provokes_step(state, mover, firer, a, b)
    if step is not None and override is not False:  # "can't" trumps "can"
        override = step
    if override is not None:
        return override
    return not (firer.card.is_vehicle and not mover.card.is_vehicle)


def may_fire(state: GameState, firer: Unit) -> bool:
    """True if `firer` may still make a defensive-fire attack this phase (any target)."""
    if not firer.on_map or (firer.disrupted and abilities.disrupted(state, firer)):
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


#: Kept at module level (bounded): geometry of two hexes, the same on every board and in every battle.
_NEAR_BOTH: dict[tuple[Hex, Hex], frozenset[Hex]] = {}


def near_both(a: Hex, b: Hex) -> frozenset[Hex]:
    """The hexes adjacent to (or the same as) both a and b: where a unit the step a -> b provokes is."""
    found = _NEAR_BOTH.get((a, b)) if caching.enabled else None
    if found is None:
        found = frozenset(h for h in within(a, 1) if distance(h, b) <= 1)
        if len(_NEAR_BOTH) > 100_000:
            _NEAR_BOTH.clear()
        if caching.enabled:
            _NEAR_BOTH[(a, b)] = found
    return found


def near_path(path: tuple[Hex, ...]) -> frozenset[Hex]:
    """Every hex next to (or in) both hexes of some step of `path`: where a unit that any step of the
    move could provoke stands (`near_both` of every step, together; kept per path, as paths repeat)."""
    found = _NEAR_PATH.get(path) if caching.enabled else None
    if found is None:
        found = frozenset().union(*(near_both(a, b) for a, b in pairwise(path)))
        if len(_NEAR_PATH) > 100_000:
            _NEAR_PATH.clear()
        if caching.enabled:
            _NEAR_PATH[path] = found
    return found


_NEAR_PATH: dict[tuple[Hex, ...], frozenset[Hex]] = {}


# `GameState.step_fired`: the step under way and the units that fired at it. A step provokes one attack
# from each provoked unit, in the hex left or the hex entered (rulebook, Target's Hex), even from a unit
# without a per-phase limit (Suppressive Fire); a unit moves at most once a phase, so the step is known
# by the phase, the mover, its path and the step's index.


def _step(state: GameState, move: MoveProgress) -> StepKey:
    return (state.turn, state.phase, state.active, move.unit, move.path, move.step)


def fired_at_step(state: GameState, move: MoveProgress) -> frozenset[str]:
    """The units that have already fired at the step of `move` under way."""
    entry = state.step_fired
    if entry is not None and entry[0] == _step(state, move):
        return entry[1]
    return frozenset()


def shooters(state: GameState, move: MoveProgress) -> list[Unit]:
    """Units that may fire at the mover in the current window, by id."""
    mover = state.units[move.unit]
    a, b = move.path[move.step], move.path[move.step + 1]
    found = []
    side = mover.side
    near = near_both(a, b)
    for unit in state.units.values():
        if unit.hex not in near or unit.side is side or unit.removed or unit.card.is_aircraft:
            continue
        if (
            provoked(state, mover, unit, a, b)
            and may_fire(state, unit)
            and not (state.fired.get(unit.id) and unit.id in fired_at_step(state, move))
            and attack_allowed(state, unit, mover, defensive=True)
        ):
            found.append(unit)
    if watched_leaving(state, move):
        found.extend(_leaving_shooters(state, move, mover, a, b, near))
    found.sort(key=lambda u: u.id)
    return found


def watched_leaving(state: GameState, move: MoveProgress) -> bool:
    """True in the window before a step (the mover still in the hex it leaves) when some unit of the
    battle may be provoked by a mover leaving its neighbourhood (Battlefield Awareness)."""
    return move.at == 1 and bool(abilities.units_with(state, "provokes_leaving"))


def leaving_watched(state: GameState, move: MoveProgress) -> bool:
    """True if an enemy of the mover that a mover leaving its neighbourhood may provoke (Battlefield
    Awareness) is next to a hex the move leaves: `walk.unopposed` must then walk it hex by hex."""
    watchers = abilities.units_with(state, "provokes_leaving")
    if not watchers:
        return False
    side = state.units[move.unit].side
    left = move.path[:-1]
    for unit_id in watchers:
        unit = state.units[unit_id]
        here = unit.hex
        if (
            here is not None
            and not unit.removed
            and unit.side is not side
            and any(distance(a, here) <= 1 for a in left)
        ):
            return True
    return False


def _leaving_shooters(
    state: GameState, move: MoveProgress, mover: Unit, a: Hex, b: Hex, near: frozenset[Hex]
) -> list[Unit]:
    """The units next to a but not b that the mover provokes by leaving (an ability says so)."""
    found = []
    for unit_id in abilities.units_with(state, "provokes_leaving"):
        unit = state.units[unit_id]
        if unit.hex is None or unit.removed or unit.side is mover.side or unit.hex in near:
            continue
        if (
            distance(a, unit.hex) <= 1
            and abilities.provokes_leaving(state, mover, unit)
            and may_fire(state, unit)
            and not (state.fired.get(unit.id) and unit.id in fired_at_step(state, move))
            and attack_allowed(state, unit, mover, defensive=True)
        ):
            found.append(unit)
    return found


def fire(state: GameState, firer_id: str, mover_id: str, dice: Dice, events: list[Event]) -> bool:
    """Resolve `firer`'s defensive fire at the mover; True if the mover is disrupted (and must stop)."""
    state.fired[firer_id] = state.fired.get(firer_id, 0) + 1
    if state.move is not None and abilities.defensive_fire_limit(state, state.units[firer_id]) > 1:
        # Only a unit that may fire again this phase needs the record (the others are stopped by `fired`).
        state.step_fired = (_step(state, state.move), fired_at_step(state, state.move) | {firer_id})
    disrupted = False
    for _ in range(abilities.defensive_fire_attacks(state, state.units[firer_id])):
        plan = plan_attack(state, state.units[firer_id], state.units[mover_id], defensive=True)
        if not isinstance(plan, AttackPlan):
            break
        result = resolve_with_blast(state, plan, dice, events)
        disrupted = disrupted or bool(result.hits and not result.cover)
    return disrupted
