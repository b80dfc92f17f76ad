"""Indirect fire and spotters (issue 16): attacks on Soldiers the firer can't see, through friendly eyes.

- Indirect Fire: an attack on an enemy Soldier may use the sight of a friendly Spotter at most 8 hexes
  from that Soldier when the firer can't see it; range, dice and cover stay the attack's own.
- Improved Indirect Fire: the same, and a friendly U.S. Commander at most 4 hexes from the Soldier that
  sees it will do too.
- Spotter: the unit is a Spotter for friendly Indirect Fire, and friendly aircraft roll one extra die
  against an enemy unit it sees within 8 hexes (an aura: it is asked about every attack).
- Chatting on the Radio: the unit is no Spotter once it has moved in its own side's assault phase.

"Spotter" is the ability, not the card subtype: the cards that guide fire all print the ability, and a
card of subtype Spotter without it (Rangers) says nothing about guiding anyone's fire. A disrupted
Spotter still spots (the ability is not a commander ability), and so does a disrupted U.S. Commander (it
is the mortar's ability that uses it). The engine side is `minis.rules.indirect`.
"""

from __future__ import annotations

from collections.abc import Callable

from minis import abilities
from minis.cards import Nation
from minis.engine.ability_api import Ability, AttackContext, ability
from minis.hexgrid import distance
from minis.rules import activation
from minis.rules.combat import visible
from minis.rules.indirect import COMMANDER_REACH, SPOTTER_REACH
from minis.state import GameState, Phase, Unit


def friendly_eye(
    state: GameState, owner: Unit, target: Unit, reach: int, qualifies: Callable[[Unit], bool]
) -> Unit | None:
    """The friendly unit (not the owner) at most `reach` hexes from `target` that qualifies and sees it:
    the nearest to the target, then the first by id (so the preview and the attack name the same one).
    A Blast's separate attacks on the other units of the hex ask again, each for its own target."""
    there = target.hex
    if there is None:
        return None
    found = [
        (distance(unit.hex, there), unit.id, unit)
        for unit in state.on_map(owner.side)
        if unit.id != owner.id
        and unit.hex is not None
        and distance(unit.hex, there) <= reach
        and qualifies(unit)
        and visible(state, unit, target)
    ]
    return min(found, key=lambda entry: entry[:2])[2] if found else None


@ability("indirect-fire")
class IndirectFire(Ability):
    """Indirect Fire: against an enemy Soldier it may borrow the sight of a friendly Spotter within 8."""

    def spotter_for(self, state: GameState, owner: Unit, target: Unit) -> Unit | None:
        if not target.card.is_soldier:
            return None  # no help against Vehicles
        return friendly_eye(
            state, owner, target, SPOTTER_REACH, lambda unit: abilities.counts_as_spotter(state, unit)
        )


def us_commander(unit: Unit) -> bool:
    """A Commander of the United States (Improved Indirect Fire)."""
    return unit.card.is_commander and unit.card.nation is Nation.UNITED_STATES


@ability("improved-indirect-fire")
class ImprovedIndirectFire(IndirectFire):
    """Improved Indirect Fire: Indirect Fire, and a friendly U.S. Commander within 4 that sees the
    Soldier guides it as well as a Spotter."""

    def spotter_for(self, state: GameState, owner: Unit, target: Unit) -> Unit | None:
        found = super().spotter_for(state, owner, target)
        if found is not None or not target.card.is_soldier:
            return found
        return friendly_eye(state, owner, target, COMMANDER_REACH, us_commander)


#: Spotter: the extra die of a friendly aircraft's attack on a unit the Spotter sees.
SPOTTED_AIR_DICE = 1


@ability("spotter")
class Spotter(Ability):
    """Spotter: a Spotter for friendly Indirect Fire; and each attack of a friendly aircraft (airstrike or
    reaction shot) on an enemy unit at most 8 hexes from the Spotter that it sees rolls one extra die
    (several Spotters still give one). A unit that is no Spotter now (Chatting on the Radio after a move
    in its assault phase) gives no die; airstrikes come before the assault phases of the turn, so that
    can only matter if a rule set ever moves them after the assault."""

    aura = True  # it helps attacks by other units (friendly aircraft)

    def counts_as_spotter(self, state: GameState, owner: Unit) -> bool | None:
        return True

    def extra_dice(self, ctx: AttackContext, owner: Unit) -> int:
        attacker, target = ctx.attacker, ctx.target
        if not attacker.card.is_aircraft or attacker.side is not owner.side or target.side is owner.side:
            return 0
        if owner.hex is None or target.hex is None or distance(owner.hex, target.hex) > SPOTTER_REACH:
            return 0
        if not abilities.counts_as_spotter(ctx.state, owner) or not visible(ctx.state, owner, target):
            return 0
        return SPOTTED_AIR_DICE


@ability("chatting-on-the-radio")
class ChattingOnTheRadio(Ability):
    """Chatting on the Radio: no Spotter once it has moved in its own side's assault phase (a move in the
    movement phase doesn't count; the next turn it spots again)."""

    def counts_as_spotter(self, state: GameState, owner: Unit) -> bool | None:
        if state.phase is Phase.ASSAULT and state.active is owner.side and activation.moved(state, owner.id):
            return False
        return None
