"""Abilities that change the dice of an attack: how many, the modifier on each die, what a success is worth.

"Each attack die" bonuses and penalties apply to every die roll (rulebook, Special Abilities - Attack
Dice). Same-name bonuses never add up: the engine counts each ability id once (`abilities._largest`).
"""

from __future__ import annotations

from collections.abc import Iterable

from minis.abilities import disrupted
from minis.ability_api import Ability, AttackContext, AttackOption, ability
from minis.ability_rules._common import attacking, friendly_commander_near, terrain_of
from minis.state import Unit
from minis.terrain import Terrain


class _CloseCombat(Ability):
    """X dice against a unit of one type in the attacker's own hex, and that target gets no cover roll."""

    vehicles: bool = True

    def attack_options(self, ctx: AttackContext, owner: Unit) -> Iterable[AttackOption]:
        if (
            attacking(ctx, owner)
            and ctx.distance == 0
            and ctx.target.card.is_vehicle is self.vehicles
            and self.number
        ):
            return (AttackOption(self.number, ignores_cover=True, source=self.id),)
        return ()

    def offers_attack_at(self, distance: int) -> bool:
        return distance == 0


@ability("close-assault")
class CloseAssault(_CloseCombat):
    """Close Assault X: X anti-Vehicle dice against a Vehicle in its own hex, no cover roll for it."""

    vehicles = True


@ability("hand-to-hand")
class HandToHand(_CloseCombat):
    """Hand to Hand X: X anti-Soldier dice against a Soldier in its own hex, no cover roll for it."""

    vehicles = False


class _NextToCommander(Ability):
    def extra_dice(self, ctx: AttackContext, owner: Unit) -> int:
        return 1 if attacking(ctx, owner) and friendly_commander_near(ctx.state, owner) else 0


@ability("coordinated-fire")
class CoordinatedFire(_NextToCommander):
    """Coordinated Fire: one extra attack die while a friendly Commander is in its hex or next to it."""


@ability("stars-stripes")
class StarsAndStripes(_NextToCommander):
    """Stars & Stripes (the 2005 name of Coordinated Fire): the same extra die."""


@ability("crack-shot")
class CrackShot(Ability):
    """Crack Shot: +1 on each attack die."""

    def die_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return 1 if attacking(ctx, owner) else 0


@ability("inaccurate")
class Inaccurate(Ability):
    """Inaccurate X: -X on each attack die."""

    def die_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return -(self.number or 0) if attacking(ctx, owner) else 0


@ability("flanking-attack")
class FlankingAttack(Ability):
    """Flanking Attack: one extra die when the attack is against a Vehicle's rear defense."""

    def extra_dice(self, ctx: AttackContext, owner: Unit) -> int:
        return 1 if attacking(ctx, owner) and ctx.target.card.is_vehicle and not ctx.front else 0


@ability("ruthless")
class Ruthless(Ability):
    """Ruthless: +1 on each die against a target that is disrupted or damaged (face-up counters)."""

    def die_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        target = ctx.target
        return 1 if attacking(ctx, owner) and (disrupted(ctx.state, target) or target.damaged) else 0


@ability("shrapnel")
class Shrapnel(Ability):
    """Shrapnel X: against Soldiers every success counts X times."""

    def successes(self, ctx: AttackContext, owner: Unit, successes: int) -> int | None:
        if attacking(ctx, owner) and ctx.target.card.is_soldier:
            return successes * (self.number or 1)
        return None


@ability("surprise-fire")
class SurpriseFire(Ability):
    """Surprise Fire: one extra die when it attacks from a forest hex."""

    def extra_dice(self, ctx: AttackContext, owner: Unit) -> int:
        return 1 if attacking(ctx, owner) and terrain_of(ctx.state, owner) is Terrain.FOREST else 0


@ability("gung-ho")
class GungHo(Ability):
    """Gung Ho: +1 on each die of its defensive-fire attacks."""

    def die_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return 1 if attacking(ctx, owner) and ctx.defensive else 0
