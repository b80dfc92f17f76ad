"""How to Win (rulebook, Standard and Assault scenarios), checked at the end of every turn.

Standard: from the end of turn 7, a player who controls the objective wins (control: the only player
with a unit adjacent to it, the objective hex itself included). From the end of turn 10, if nobody
controls it, the player whose units on the map are worth more points wins; a tie plays on.
Assault: at the end of turn 10 the attacker wins if it controls the objective, otherwise the defender.
"""

from __future__ import annotations

from minis.hexgrid import distance
from minis.sides import Side
from minis.state import GameState, Scenario

#: The first turn at whose end the objective can win a Standard battle.
OBJECTIVE_TURN = 7
#: The turn at whose end points decide (Standard) or the Assault ends.
LAST_TURN = 10


def controller(state: GameState) -> Side | None:
    """The player who controls the objective, or None (nobody near it, or both)."""
    if state.objective is None:
        return None
    sides = {u.side for u in state.on_map() if u.hex is not None and distance(u.hex, state.objective) <= 1}
    return sides.pop() if len(sides) == 1 else None


def points(state: GameState, side: Side) -> int:
    """The point cost of the side's units on the battle map.

    A scenario's preset units are left out: nobody paid for them, and the count compares what each
    player kept of the army it bought (docs/scenarios.md).
    """
    presets = state.presets
    return sum(int(u.card.cost) for u in state.on_map(side) if u.id not in presets)


def winner_at_end_of_turn(state: GameState) -> tuple[Side | None, str]:
    """The winner at the end of the current turn (None: play on) and why."""
    if state.plan is not None:  # a scenario file's own victory conditions
        return state.plan.winner(state)  # type: ignore[no-any-return]
    if state.scenario is Scenario.ASSAULT:
        if state.turn < LAST_TURN:
            return None, ""
        attacker = state.attacker
        assert attacker is not None
        if controller(state) is attacker:
            return attacker, "the attacker controls the objective at the end of turn 10"
        return attacker.other, "the attacker does not control the objective at the end of turn 10"
    if state.turn >= OBJECTIVE_TURN:
        side = controller(state)
        if side is not None:
            return side, f"controls the objective at the end of turn {state.turn}"
    if state.turn >= LAST_TURN:
        axis, allies = points(state, Side.AXIS), points(state, Side.ALLIES)
        if axis != allies:
            return (
                Side.AXIS if axis > allies else Side.ALLIES
            ), f"points on the map {axis} to {allies} (Axis to Allies)"
    return None, ""
