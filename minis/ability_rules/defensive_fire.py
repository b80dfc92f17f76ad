"""Abilities that change defensive fire: who provokes whom, how often a unit may fire, who may not."""

from __future__ import annotations

from minis.ability_rules._common import add_this_turn, attacking, this_turn
from minis.cards import RangeBand
from minis.dice import Dice
from minis.engine.ability_api import Ability, AttackContext, ability
from minis.engine.events import Event
from minis.hexgrid import Hex
from minis.state import Counter, GameState, Unit

#: Suppressive Fire: "no limit" on defensive-fire attacks per phase.
UNLIMITED = 1_000_000


@ability("covering-fire")
class CoveringFire(Ability):
    """Covering Fire: a Soldier it attacks (hit or not, normal or defensive attack) can't make
    defensive-fire attacks for the rest of the turn."""

    aura = True  # asked about every unit's defensive fire, not only its owner's

    def after_attack(
        self,
        state: GameState,
        ctx: AttackContext,
        owner: Unit,
        counters: tuple[Counter, ...],
        dice: Dice,
        events: list[Event],
    ) -> None:
        if attacking(ctx, owner) and ctx.target.card.is_soldier:
            add_this_turn(state, self.id, ctx.target.id)

    def may_fire_defensively(self, state: GameState, unit: Unit, owner: Unit) -> bool | None:
        return False if unit.id in this_turn(state, self.id) else None


@ability("overlapping-fire")
class OverlappingFire(Ability):
    """Overlapping Fire: moving Soldiers provoke defensive fire from this Vehicle too."""

    def provokes(self, state: GameState, mover: Unit, firer: Unit, owner: Unit) -> bool | None:
        return True if firer.id == owner.id and mover.card.is_soldier else None


@ability("suppressive-fire")
class SuppressiveFire(Ability):
    """Suppressive Fire: no limit on the number of defensive-fire attacks it makes in a phase."""

    def defensive_fire_limit(self, state: GameState, owner: Unit) -> int | None:
        return UNLIMITED


@ability("limited-covering-fire")
class LimitedCoveringFire(CoveringFire):
    """Limited Covering Fire: Covering Fire, only for Soldiers it attacks at short range (0-1 hexes)."""

    def after_attack(
        self,
        state: GameState,
        ctx: AttackContext,
        owner: Unit,
        counters: tuple[Counter, ...],
        dice: Dice,
        events: list[Event],
    ) -> None:
        if ctx.band is RangeBand.SHORT:
            super().after_attack(state, ctx, owner, counters, dice, events)


@ability("limited-ammo")
class LimitedAmmo(Ability):
    """Limited Ammo: it never fires defensively."""

    def may_fire_defensively(self, state: GameState, unit: Unit, owner: Unit) -> bool | None:
        return False if unit.id == owner.id else None


@ability("awareness")
class Awareness(Ability):
    """Awareness: an enemy Soldier stepping into its own hex provokes its defensive fire (a Vehicle is
    otherwise not provoked by Soldiers); the other steps of Soldiers next to it still don't."""

    def provokes_step(
        self, state: GameState, mover: Unit, firer: Unit, owner: Unit, a: Hex, b: Hex
    ) -> bool | None:
        if firer.id == owner.id and mover.card.is_soldier and b == owner.hex:
            return True
        return None


@ability("battlefield-awareness")
class BattlefieldAwareness(Ability):
    """Battlefield Awareness: an enemy Vehicle leaving a hex next to it (or its own hex) for a hex that is
    not provokes its defensive fire, in the window while the Vehicle is still in the hex it leaves."""

    def provokes_leaving(self, state: GameState, mover: Unit, firer: Unit, owner: Unit) -> bool:
        return firer.id == owner.id and mover.card.is_vehicle
