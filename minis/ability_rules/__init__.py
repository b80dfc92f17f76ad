"""The rule hooks of the special abilities on the stat cards, one module per family of hooks.

Each module names its classes with `@ability("id")` (`minis.engine.ability_api`); none registers anything.
`minis.engine.ability_loader` is the one place that collects them into a registry. docs/abilities.md lists the
abilities and what each does.

- `rulebook`: the rulebook's own (Transport, Exposed and Gun Transport, Blast, commander initiative)
- `modifiers`: the abilities that are data: a number added to one part of an attack, or the attack
  or its cover roll refused, under plain conditions (Tank Hunter, Hard to Spot, Elusive, Limited Range,
  Bombardment, ...): rows of a table, not classes

- `attack_dice`: dice, die modifiers and successes (Close Assault, Crack Shot, Shrapnel, ...)
- `targeting`: who may be attacked and from how far (Extended Range, Fixed Howitzer, ...)
- `cover`: cover rolls (Bombardment, Forest Camouflage, Pinpointer, ...)
- `defense`: defense and hits (Superior Armor, Sideskirts, Open Back)
- `counters`: hit counters (Heavy Armor, Highly Flammable, Fanatic, Green, Overheat, Endurance, ...)
- `rerolls`: dice rolled again (Guard Crew, Plentiful Ammo, Lead the Way, Organization, ...)
- `movement`: speed and movement (High Gear, Relocate, Weak Suspension, Vanguard, ...)
- `defensive_fire`: defensive fire (Covering Fire, Overlapping Fire, Suppressive Fire)
- `commanders`: commander auras (Tally-Ho!, Bravery Enforcement, Exert Will, Banzai Charge, Angriff)
  and the Tank Commanders' "Command ..." abilities for Vehicles up to 2 hexes away
- `auras`: the other commanders' auras (Tenacity, Stalwart, Elan, Improved Accuracy, ...) and Recon
- `extra_actions`: extra attacks and moves in one activation (Double Shot, ...; the bookkeeping is
  the rulebook's: `minis.rules.activation`)
- `transport`: Fighting Platform, Light Artillery
- `indirect`: Indirect Fire, Improved Indirect Fire, Spotter and Chatting on the Radio (attacks through a
  friendly unit's sight; the engine side is `minis.rules.indirect`)
- `special`: abilities that are actions of their own (Bridge Demolition, Smoke Screen, Headshot, Overrun)
"""
