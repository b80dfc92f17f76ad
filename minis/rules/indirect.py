"""Indirect fire (issue 16): attacking a target the attacker can't see, through a friendly unit's sight.

The rulebook wants the attacker's own line of sight for every attack. Indirect Fire sets that aside for
one target when a friendly unit sees it: a Spotter from at most `SPOTTER_REACH` hexes (Improved Indirect
Fire: also a U.S. Commander from at most `COMMANDER_REACH`). Only sight is borrowed: range, dice,
defense and the target's cover roll stay the attack's own, so no die is drawn here and the dice order of
an attack is unchanged. The abilities' hooks live in `minis.ability_rules.indirect`; the engine asks
`spotter` only when the attacker can't see the target itself.
"""

from __future__ import annotations

from minis import abilities
from minis.state import GameState, Unit

#: How far from the target a Spotter may be and still guide Indirect Fire onto it.
SPOTTER_REACH = 8
#: How far from the target a U.S. Commander may be for Improved Indirect Fire.
COMMANDER_REACH = 4


def spotter(state: GameState, attacker: Unit, target: Unit) -> Unit | None:
    """The friendly unit whose sight lets `attacker` attack `target` although it can't see it (None: no
    such unit, or no ability of the attacker borrows sight). Asked after the attacker's own sight failed."""
    return abilities.spotter_for(state, attacker, target)


def no_guide(state: GameState, attacker: Unit, target: Unit) -> str:
    """The end of the refusal of an unseen target for a unit with Indirect Fire: why no friendly unit
    lends it sight ("" for any other unit, whose refusal is the plain rulebook one)."""
    if not abilities.overrides(state, attacker.card, "spotter_for"):
        return ""
    if not target.card.is_soldier:
        return " (indirect fire works only against Soldiers)"
    return f", and no friendly Spotter within {SPOTTER_REACH} hexes of it sees it"
