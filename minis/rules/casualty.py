"""The Casualty Phase (rulebook): its five steps, in order, for both armies at once.

1. Remove current face-up Disrupted counters (Damaged counters stay).
2. Flip over the new (face-down) hit counters.
3. A unit with a Destroyed counter is destroyed and removed (a Soldier aboard a destroyed transport too).
4. A Vehicle with a Damaged counter is now damaged.
5. A unit with a Disrupted counter is now disrupted.
"""

from __future__ import annotations

from minis.events import Event
from minis.state import Counter, GameState


def casualty_phase(state: GameState, events: list[Event]) -> None:
    units = sorted(state.units.values(), key=lambda u: u.id)
    for unit in units:  # step 1
        if unit.disrupted and not unit.removed:
            state.update(unit.id, disrupted=False)
            events.append(Event("recover", unit.side, unit.id))
    flipped = {u.id: u.pending for u in units if u.pending and not u.removed}  # step 2
    for unit_id, pending in flipped.items():
        unit = state.update(unit_id, pending=())
        events.append(Event("flip", unit.side, unit_id, note=", ".join(c.value for c in pending)))
    destroyed = [unit_id for unit_id, pending in flipped.items() if Counter.DESTROYED in pending]  # step 3
    destroyed += [
        u.id for u in units if u.carried_by in destroyed and not u.removed and u.id not in destroyed
    ]
    for unit_id in destroyed:
        unit = state.update(unit_id, removed=True, hex=None, carried_by=None)
        events.append(Event("removed", unit.side, unit_id))
    for unit_id, pending in flipped.items():
        unit = state.units[unit_id]
        if unit.removed:
            continue
        if Counter.DAMAGED in pending and unit.card.is_vehicle:  # step 4
            state.update(unit_id, damaged=True)
        if Counter.DISRUPTED in pending:  # step 5
            state.update(unit_id, disrupted=True)
