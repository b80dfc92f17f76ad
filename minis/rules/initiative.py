"""The Initiative Phase (rulebook): two dice plus the best bonus of a non-disrupted commander.

The Axis player's two dice are rolled first, then the Allied player's (DESIGN section 1). The higher
total wins; on a tie the better initiative bonus wins; with equal bonuses the roll is repeated.
"""

from __future__ import annotations

from minis import abilities
from minis.dice import Dice
from minis.events import Event
from minis.sides import Side
from minis.state import GameState

ORDER = (Side.AXIS, Side.ALLIES)


def bonus(state: GameState, side: Side) -> int:
    """The best initiative bonus among the side's units on the map (disrupted commanders count 0)."""
    units = [state.units[i] for i in abilities.units_with(state, "initiative_bonus")]
    return max(
        (abilities.initiative_bonus(state, u) for u in units if u.side is side and u.on_map), default=0
    )


def roll_initiative(state: GameState, dice: Dice, events: list[Event]) -> Side:
    """Roll until there is a winner; each roll is an event."""
    bonuses = {side: bonus(state, side) for side in ORDER}
    while True:
        rolls = {side: (dice.roll(), dice.roll()) for side in ORDER}
        totals = {side: sum(rolls[side]) + bonuses[side] for side in ORDER}
        axis, allies = (totals[s] for s in ORDER)
        winner: Side | None = None
        if axis != allies:
            winner = Side.AXIS if axis > allies else Side.ALLIES
        elif bonuses[Side.AXIS] != bonuses[Side.ALLIES]:
            winner = Side.AXIS if bonuses[Side.AXIS] > bonuses[Side.ALLIES] else Side.ALLIES
        events.append(
            Event(
                "initiative", winner, dice=rolls[Side.AXIS] + rolls[Side.ALLIES], note=f"{axis} to {allies}"
            )
        )
        if winner is not None:
            return winner
