"""The Casualty Phase (rulebook): its five steps, in order, for both armies at once.

1. Remove current face-up Disrupted counters (Damaged counters stay).
2. Flip over the new (face-down) hit counters.
3. A unit with a Destroyed counter is destroyed and removed (a Soldier aboard a destroyed transport too).
4. A Vehicle with a Damaged counter is now damaged.
5. A unit with a Disrupted counter is now disrupted.
"""

from __future__ import annotations

from minis import abilities
from minis.dice import Dice
from minis.engine.events import Event
from minis.state import Counter, GameState


def casualty_phase(state: GameState, events: list[Event], dice: Dice | None = None) -> None:
    """The five steps; `dice` for the abilities that roll in them (Green, Endurance: by unit id)."""
    units = sorted(state.units.values(), key=lambda u: u.id)
    rolls = dice if dice is not None else Dice.scripted()  # no dice given: an ability's roll waits
    keepers = abilities.units_with(state, "keeps_disruption")
    grounded = state.grounded
    if grounded and not state.rules.reaction_grounds_next_turn:
        grounded = ()  # a literal reading of the insert: step 1 clears an at-once disruption too
    for unit in units:  # step 1 (aircraft waiting off the map too)
        if unit.disrupted and not unit.removed:
            if unit.id in grounded:  # disrupted by a reaction shot this turn: kept until next turn's
                continue
            if unit.id in keepers and abilities.keeps_disruption(state, unit, rolls, events):
                continue  # Unreliable, Green, Overheat
            state.update(unit.id, disrupted=False)
            events.append(Event("recover", unit.side, unit.id))
    flipped = {u.id: u.pending for u in units if u.pending and not u.removed}  # step 2
    for unit_id, pending in flipped.items():
        unit = state.update(unit_id, pending=())
        events.append(Event("flip", unit.side, unit_id, note=", ".join(c.value for c in pending)))
    destroyed = [unit_id for unit_id, pending in flipped.items() if Counter.DESTROYED in pending]  # step 3
    survivors = abilities.units_with(state, "survives_destroyed")
    if survivors:  # Endurance
        destroyed = [
            unit_id
            for unit_id in destroyed
            if unit_id not in survivors
            or not abilities.survives_destroyed(state, state.units[unit_id], rolls, events)
        ]
    destroyed += [
        u.id for u in units if u.carried_by in destroyed and not u.removed and u.id not in destroyed
    ]
    for unit_id in destroyed:
        unit = state.update(unit_id, removed=True, hex=None, carried_by=None)
        events.append(Event("removed", unit.side, unit_id))
    state.losses += tuple((state.turn, state.units[unit_id].side, unit_id) for unit_id in destroyed)
    reactors = abilities.units_with(state, "on_disrupted")
    for unit_id, pending in flipped.items():
        unit = state.units[unit_id]
        if unit.removed:
            continue
        if Counter.DAMAGED in pending and unit.card.is_vehicle:  # step 4
            state.update(unit_id, damaged=True)
        if Counter.DISRUPTED in pending:  # step 5
            state.update(unit_id, disrupted=True)
            if unit_id in reactors:  # Lack of Determination
                abilities.on_disrupted(state, state.units[unit_id], events)


def destroy_at_once(state: GameState, unit_id: str, events: list[Event]) -> None:
    """An immediate destruction (an ability's): the unit, and a Soldier aboard it, leave the map now,
    their face-down counters with them, and count as lost this turn (`GameState.losses`)."""
    aboard = [u.id for u in state.units.values() if u.carried_by == unit_id and not u.removed]
    for gone in (unit_id, *aboard):
        unit = state.update(gone, removed=True, hex=None, carried_by=None, pending=())
        events.append(Event("removed", unit.side, gone))
        state.losses += ((state.turn, unit.side, gone),)
