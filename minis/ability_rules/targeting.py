"""Abilities that change which targets a unit may attack and at what range.

A permission hook that answers False forbids the attack whatever other abilities allow ("can't" trumps
"can"). Longer range bands are offered as extra ways to attack (`attack_options`); line of sight is
still required. The refusals that are plain conditions (Limited Range, Undermanned, Turret Lock) are
rows of `modifiers`.
"""

from __future__ import annotations

from collections.abc import Iterable

from minis.ability_rules._common import attacking
from minis.cards import RangeBand, UnitType
from minis.engine.ability_api import Ability, AttackContext, AttackOption, ability
from minis.engine.air_roles import AirRole
from minis.hexgrid import distance, is_front
from minis.state import GameState, Unit

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


@ability("fixed-howitzer")
class FixedHowitzer(Ability):
    """Fixed Howitzer: it attacks only targets in its front arc (never its own hex), defensive fire too."""

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        if not attacking(ctx, owner) or owner.facing is None:
            return None
        assert owner.hex is not None and ctx.target.hex is not None
        return None if is_front(owner.hex, owner.facing, ctx.target.hex) else False


@ability("antiair")
class Antiair(AirRole, Ability):
    """Antiair: it attacks aircraft without the -1 on each die, and gets a reaction shot (defensive
    fire, once a phase) at an enemy aircraft placed in its hex or next to it. No hook of its own: the
    air rules ask for it (`minis.rules.air_attacks.has_antiair`, `minis.rules.air.reactors`)."""

    antiair = True


@ability("antiair-support")
class AntiairSupport(AirRole, Ability):
    """Antiair Support: Antiair while a friendly Soldier or Vehicle with Antiair of its own shares its hex
    (an aircraft over the hex doesn't count: it is above the hex, not in it)."""

    antiair_support = True


class _VehiclesInOneArc(Ability):
    """It may attack a Vehicle only in one arc of its own facing (front arc: strictly ahead of it; the
    rest, its own hex and the hexes straight to its sides included, is its rear). Soldiers anywhere."""

    #: True: Vehicles only in its front arc; False: only in its rear arc.
    front: bool = True

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        if not attacking(ctx, owner) or not ctx.target.card.is_vehicle or owner.facing is None:
            return None
        assert owner.hex is not None and ctx.target.hex is not None
        return None if is_front(owner.hex, owner.facing, ctx.target.hex) is self.front else False


@ability("no-turret")
class NoTurret(_VehiclesInOneArc):
    """No Turret: it attacks Vehicles only in its front arc (never in its own hex); Soldiers anywhere."""


@ability("fixed-gun")
class FixedGun(_VehiclesInOneArc):
    """Fixed Gun: the same rule as No Turret."""


@ability("fixed-rear-gun")
class FixedRearGun(_VehiclesInOneArc):
    """Fixed Rear Gun: it attacks Vehicles only in its rear arc (its own hex and straight to its sides
    included); Soldiers anywhere."""

    front = False


#: How far Dismounted Attack stretches the short range against Vehicles.
DISMOUNTED_SHORT_RANGE = 2


def enemy_soldier_within(state: GameState, unit: Unit, hexes: int) -> bool:
    """An enemy Soldier on the map (not aboard a transport) at most `hexes` away from the unit."""
    assert unit.hex is not None
    return any(
        other.card.is_soldier
        and other.carried_by is None
        and other.hex is not None
        and distance(other.hex, unit.hex) <= hexes
        for other in state.on_map(unit.side.other)
    )


@ability("dismounted-attack")
class DismountedAttack(Ability):
    """Dismounted Attack: while no enemy Soldier is in its hex or next to it, it may attack a Vehicle 2
    hexes away with its short-range anti-Vehicle dice (its medium range is unchanged: the engine takes
    the better value at 2 hexes)."""

    def attack_options(self, ctx: AttackContext, owner: Unit) -> Iterable[AttackOption]:
        if (
            not attacking(ctx, owner)
            or ctx.distance != DISMOUNTED_SHORT_RANGE
            or not ctx.target.card.is_vehicle
            or enemy_soldier_within(ctx.state, owner, 1)
        ):
            return ()
        dice = owner.card.attack_dice(UnitType.VEHICLE, RangeBand.SHORT)
        return (AttackOption(dice, source=self.id),) if dice else ()

    def offers_attack_at(self, distance: int) -> bool:
        return distance == DISMOUNTED_SHORT_RANGE
