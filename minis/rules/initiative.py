"""The Initiative Phase (rulebook): two dice plus the best bonus of a non-disrupted commander (and
abilities that add to it: Recon).

The Axis player's two dice are rolled first, then the Allied player's (docs/contracts.md#dice-order).
The higher total wins; on a tie the better initiative bonus wins; with equal bonuses the roll is
repeated.
"""

from __future__ import annotations

from minis import abilities
from minis.base.sides import Side
from minis.dice import Dice
from minis.engine.events import Event
from minis.state import GameState

ORDER = (Side.AXIS, Side.ALLIES)


def bonus(state: GameState, side: Side) -> int:
    """The best initiative bonus among the side's units on the map (disrupted commanders count 0), plus
    what other abilities add (Recon)."""
    units = [state.units[i] for i in abilities.units_with(state, "initiative_bonus")]
    best = max(
        (abilities.initiative_bonus(state, u) for u in units if u.side is side and u.on_map), default=0
    )
    others = [state.units[i] for i in abilities.units_with(state, "side_initiative_bonus")]
    if others:  # on top of the commander's bonus (Recon)
        best += abilities.side_initiative_bonus(state, [u for u in others if u.side is side and u.on_map])
    return best


def roll_initiative(state: GameState, dice: Dice, events: list[Event]) -> Side:
    """Roll until there is a winner; each roll is an event."""
    bonuses = {side: bonus(state, side) for side in ORDER}
    rerollers = abilities.units_with(state, "rerolls_initiative")
    while True:
        rolls = {side: (dice.roll(), dice.roll()) for side in ORDER}
        axis, allies, winner = _judge(rolls, bonuses)
        while winner is not None and rerollers:  # the losing side may roll again (Organization)
            which = abilities.rerolls_initiative(state, winner.other)
            if which is None:
                break
            shown = rolls[Side.AXIS] + rolls[Side.ALLIES]  # the roll before the reroll
            events.append(Event("initiative", winner, dice=shown, note=f"{axis} to {allies}"))
            rolls[winner.other] = (dice.roll(), dice.roll())
            events.append(Event("ability", winner.other, which[0], dice=rolls[winner.other], note=which[1]))
            axis, allies, winner = _judge(rolls, bonuses)
        events.append(
            Event(
                "initiative", winner, dice=rolls[Side.AXIS] + rolls[Side.ALLIES], note=f"{axis} to {allies}"
            )
        )
        if winner is not None:
            return winner


def _judge(rolls: dict[Side, tuple[int, int]], bonuses: dict[Side, int]) -> tuple[int, int, Side | None]:
    """The Axis and Allied totals and the winner (None: a tie to roll again)."""
    totals = {side: sum(rolls[side]) + bonuses[side] for side in ORDER}
    axis, allies = (totals[s] for s in ORDER)
    winner: Side | None = None
    if axis != allies:
        winner = Side.AXIS if axis > allies else Side.ALLIES
    elif bonuses[Side.AXIS] != bonuses[Side.ALLIES]:
        winner = Side.AXIS if bonuses[Side.AXIS] > bonuses[Side.ALLIES] else Side.ALLIES
    return axis, allies, winner
