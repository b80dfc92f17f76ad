"""Abilities that change which targets a unit may attack and at what range.

A permission hook that answers False forbids the attack whatever other abilities allow ("can't" trumps
"can"). Longer range bands are offered as extra ways to attack (`attack_options`); line of sight is
still required.
"""

from __future__ import annotations

from collections.abc import Iterable

from minis.abilities import disrupted
from minis.ability_api import Ability, AttackContext, AttackOption, ability
from minis.ability_rules._common import attacking, defending, in_cover
from minis.cards import RangeBand, UnitType
from minis.hexgrid import is_front
from minis.state import Unit

#: The far end of the rulebook's long range band.
LONG_RANGE_END = 8


class _LongerRange(Ability):
    """The long band (5-8 hexes) reaches out to X hexes, with the card's long-range dice."""

    only_vehicles: bool = False

    def attack_options(self, ctx: AttackContext, owner: Unit) -> Iterable[AttackOption]:
        target = ctx.target
        if not attacking(ctx, owner) or not LONG_RANGE_END < ctx.distance <= (self.number or 0):
            return ()
        if self.only_vehicles and not target.card.is_vehicle:
            return ()
        kind = UnitType.VEHICLE if target.card.is_vehicle else UnitType.SOLDIER
        dice = owner.card.attack_dice(kind, RangeBand.LONG)
        return (AttackOption(dice, source=self.id),) if dice else ()

    def offers_attack_at(self, distance: int) -> bool:
        return LONG_RANGE_END < distance <= (self.number or 0)


@ability("enhanced-range")
class EnhancedRange(_LongerRange):
    """Enhanced Range X: long range reaches out to X hexes against every target."""


@ability("extended-range")
class ExtendedRange(_LongerRange):
    """Extended Range X: long range reaches out to X hexes against Vehicles only."""

    only_vehicles = True


@ability("limited-range")
class LimitedRange(Ability):
    """Limited Range X: no attack on a target more than X hexes away."""

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        if attacking(ctx, owner) and ctx.distance > (self.number or 0):
            return False
        return None


@ability("fixed-howitzer")
class FixedHowitzer(Ability):
    """Fixed Howitzer: it attacks only targets in its front arc (never its own hex), defensive fire too."""

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        if not attacking(ctx, owner) or owner.facing is None:
            return None
        assert owner.hex is not None and ctx.target.hex is not None
        return None if is_front(owner.hex, owner.facing, ctx.target.hex) else False


@ability("superior-camouflage")
class SuperiorCamouflage(Ability):
    """Superior Camouflage: while it is in terrain that gives it cover, nobody attacks it from 2+ hexes."""

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        if defending(ctx, owner) and ctx.distance >= 2 and in_cover(ctx.state, owner):
            return False
        return None


@ability("undermanned")
class Undermanned(Ability):
    """Undermanned: no attacks while disrupted."""

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        return False if attacking(ctx, owner) and disrupted(ctx.state, owner) else None


@ability("antiair")
class Antiair(Ability):
    """Antiair: only about aircraft, which the rulebook's battles don't have; so it changes nothing here.

    Registered so that the card loads: the ability is implemented, and its implementation is empty
    because none of its conditions can arise (docs/abilities.md).
    """
