"""The overstack penalty (rule sets whose stacking is checked at the end of the phase: END_OF_PHASE).

During his own movement and assault phases a player may leave a hex over the stacking limit by one
unit of his (`minis.rules.stacking`). When he passes, each hex where his units break the limits costs
him one face-down hit counter (turned up in the casualty phase like any other) on one of his units
there, chosen by his opponent: `penalty U`, one decision per hex in board order (Stage.PENALTY). Then
the sequence of play goes on as the pass would have. A hex still over the limit at the end of a later
phase of his costs him again.
"""

from __future__ import annotations

from minis.content.rule_sets import END_OF_PHASE
from minis.engine import actions as A
from minis.engine.events import Event
from minis.hexgrid import Hex
from minis.rules import combat
from minis.rules.errors import IllegalAction
from minis.rules.stacking import hexes_broken_by
from minis.state import GameState, Phase, Stage, Unit


def begin(state: GameState) -> bool:
    """At the active player's pass: if his units break the limits anywhere, the game waits for his
    opponent's choices (True); else nothing happens (False, and the phase ends as usual)."""
    if state.battle.terms.rules.stacking_checked != END_OF_PHASE:
        return False
    if state.phase is not Phase.MOVEMENT and state.phase is not Phase.ASSAULT:
        return False
    assert state.active is not None
    hexes = hexes_broken_by(state, state.active)
    if not hexes:
        return False
    state.overstacked = tuple(hexes)
    state.stage = Stage.PENALTY
    return True


def current(state: GameState) -> Hex | None:
    """The overstacked hex whose penalty the game waits for (None outside the penalty stage)."""
    waiting = state.overstacked
    return waiting[0] if waiting else None


def choices(state: GameState) -> list[Unit]:
    """The active player's units in the current hex that count for stacking: one of them takes the hit."""
    hex_ = current(state)
    if hex_ is None:
        return []
    return sorted((u for u in state.at(hex_) if u.side is state.active), key=lambda u: u.id)


def settle(state: GameState, action: A.Action, events: list[Event]) -> bool:
    """`penalty U`: a face-down hit counter on U, in the current hex. True once every hex is settled
    (the caller then ends the phase); IllegalAction for anything else."""
    hex_ = current(state)
    assert hex_ is not None
    allowed = choices(state)
    board = state.battle.board
    where = board.label(hex_) if board is not None else str(hex_)
    if not isinstance(action, A.Penalty):
        raise IllegalAction(
            f"the game waits for the choice of the unit that takes the hit in {where}: 'penalty U'"
        )
    unit = next((u for u in allowed if u.id == action.unit), None)
    if unit is None:
        names = ", ".join(u.id for u in allowed)
        raise IllegalAction(f"{action.unit} is not one of the overstacked units in {where} ({names})")
    for counter in combat.place_hits(state, unit, 1):
        events.append(Event("counter", unit.side, unit.id, hexes=(hex_,), note=counter.value, value=0))
    waiting = state.overstacked
    state.overstacked = waiting[1:]
    if len(waiting) > 1:
        return False
    state.stage = Stage.ACT
    return True
