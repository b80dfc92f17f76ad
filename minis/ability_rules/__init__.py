"""The rule hooks of the special abilities on the stat cards, one module per family of hooks.

Importing this package registers every ability with `minis.abilities.register` (the engine imports it
at the end of `minis.abilities`). docs/abilities.md lists the abilities and what each does.

- `attack_dice`: dice, die modifiers and successes (Close Assault, Crack Shot, Shrapnel, ...)
- `targeting`: who may be attacked and from how far (Extended Range, Fixed Howitzer, ...)
- `cover`: cover rolls (Bombardment, Forest Camouflage, Pinpointer, ...)
- `defense`: defense and hits (Superior Armor, Sideskirts, Open Back)
- `counters`: hit counters (Heavy Armor, Highly Flammable, Fanatic)
- `movement`: speed and movement (High Gear, Relocate, Weak Suspension, Vanguard, ...)
- `defensive_fire`: defensive fire (Covering Fire, Overlapping Fire, Suppressive Fire)
- `commanders`: commander auras (Tally-Ho!, Bravery Enforcement, Exert Will, Banzai Charge)
- `extra_actions` with `activation`: extra attacks and moves in one activation (Double Shot, ...)
- `transport`: Fighting Platform, Light Artillery
- `special`: abilities that are actions of their own (Bridge Demolition, Smoke Screen, Headshot, Overrun)
"""

from __future__ import annotations

from minis.ability_rules import (
    attack_dice,
    commanders,
    counters,
    cover,
    defense,
    defensive_fire,
    extra_actions,
    movement,
    special,
    targeting,
    transport,
)

__all__ = [
    "attack_dice",
    "commanders",
    "counters",
    "cover",
    "defense",
    "defensive_fire",
    "extra_actions",
    "movement",
    "special",
    "targeting",
    "transport",
]
