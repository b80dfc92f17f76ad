"""Auras of the catalogue's commanders that are not "Command ..." abilities, and Recon.

Most are one shape: friendly units of some kind in the commander's hex or next to it (itself included,
as for Pinpointer and Tally-Ho!) get a bonus in some attacks: an extra die, a die modifier or +1 front
and rear defense. A disrupted commander's commander abilities don't function and two commanders' bonuses
of the same name don't add up: the engine (`minis.abilities`) sees to both.
"""

from __future__ import annotations

from collections.abc import Iterable

from minis.ability_rules._common import add_this_turn, attacking, this_turn
from minis.cards import RangeBand, UnitType
from minis.dice import Dice
from minis.engine.ability_api import Ability, AttackContext, AttackOption, ability, near
from minis.engine.events import Event
from minis.rules.combat import visible
from minis.state import Counter, GameState, Unit

#: Long range starts here (rulebook: short 0-1, medium 2-4, long 5-8 and beyond with longer ranges).
LONG_RANGE = 5


class _Aura(Ability):
    """An aura for friendly units of one kind (`kind`) in the owner's hex or next to it."""

    aura = True

    def kind(self, unit: Unit) -> bool:
        """The units the aura is for (Soldiers, Artillery included, unless a subclass says otherwise)."""
        return unit.card.is_soldier

    def covers(self, unit: Unit, owner: Unit) -> bool:
        return unit.side is owner.side and self.kind(unit) and near(owner, unit)


class _ExtraDie(_Aura):
    """One extra attack die for a covered attacker, when `applies` says so for this attack."""

    def applies(self, ctx: AttackContext, owner: Unit) -> bool:
        return True

    def extra_dice(self, ctx: AttackContext, owner: Unit) -> int:
        return 1 if self.covers(ctx.attacker, owner) and self.applies(ctx, owner) else 0


class _ExtraDefense(_Aura):
    """+1 front and rear defense for a covered target, when `applies` says so for this attack."""

    def applies(self, ctx: AttackContext, owner: Unit) -> bool:
        return True

    def defense_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return 1 if self.covers(ctx.target, owner) and self.applies(ctx, owner) else 0


@ability("paratrooper-commander")
class ParatrooperCommander(_ExtraDie):
    """Paratrooper Commander: friendly Paratroopers (subtype Paratrooper, or the Paratrooper ability)
    in its hex or next to it roll one extra attack die."""

    def kind(self, unit: Unit) -> bool:
        return unit.card.is_soldier and (unit.card.subtype == "Paratrooper" or unit.card.has("paratrooper"))


@ability("tenacity")
class Tenacity(_ExtraDie):
    """Tenacity: friendly Soldiers next to it roll one extra die against a unit in their own hex."""

    def applies(self, ctx: AttackContext, owner: Unit) -> bool:
        return ctx.distance == 0


#: `GameState.notes` name (with the owner's id): the units a Coordinated Fire (C. A.) commander attacked
#: this turn.
MARKED = "coordinated-fire-c-a"


@ability("coordinated-fire-c-a")
class CoordinatedFireCA(_ExtraDie):
    """Coordinated Fire (C. A.): once the commander has attacked a unit this turn (defensive fire and
    each attack of a Blast count), friendly Soldiers next to it roll one extra die against that unit."""

    def applies(self, ctx: AttackContext, owner: Unit) -> bool:
        return ctx.target.id in this_turn(ctx.state, f"{MARKED}:{owner.id}")

    def after_attack(
        self,
        state: GameState,
        ctx: AttackContext,
        owner: Unit,
        counters: tuple[Counter, ...],
        dice: Dice,
        events: list[Event],
    ) -> None:
        if attacking(ctx, owner):
            add_this_turn(state, f"{MARKED}:{owner.id}", ctx.target.id)


@ability("tides-of-war")
class TidesOfWar(_ExtraDie):
    """Tides of War: friendly Soldiers next to it roll one extra die if an enemy unit was destroyed in
    the previous turn."""

    def applies(self, ctx: AttackContext, owner: Unit) -> bool:
        return enemy_lost_last_turn(ctx.state, owner)


def enemy_lost_last_turn(state: GameState, owner: Unit) -> bool:
    """True if the owner's enemy lost a unit in the previous turn (`GameState.losses`, shared with Fury)."""
    return bool(state.lost(state.turn - 1, owner.side.other))


@ability("stalwart")
class Stalwart(_Aura):
    """Stalwart: defensive fire by friendly Soldiers next to it gets +1 on each die."""

    def die_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return 1 if ctx.defensive and self.covers(ctx.attacker, owner) else 0


@ability("intimidation")
class Intimidation(_Aura):
    """Intimidation: each attack die of an enemy Soldier in its hex or next to it gets -1."""

    def covers(self, unit: Unit, owner: Unit) -> bool:
        return unit.side is not owner.side and unit.card.is_soldier and near(owner, unit)

    def die_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return -1 if self.covers(ctx.attacker, owner) else 0


@ability("dispersal")
class Dispersal(_ExtraDefense):
    """Dispersal: friendly Soldiers next to it get +1 defense against an attacker that has Blast."""

    def applies(self, ctx: AttackContext, owner: Unit) -> bool:
        return ctx.attacker.card.has("blast")


@ability("elan")
class Elan(_ExtraDefense):
    """Elan: friendly Soldiers next to it get +1 defense against defensive-fire attacks."""

    def applies(self, ctx: AttackContext, owner: Unit) -> bool:
        return ctx.defensive


@ability("fearless")
class Fearless(Elan):
    """Fearless: the same rule as Elan."""


@ability("terrain-expert")
class TerrainExpert(_ExtraDefense):
    """Terrain Expert: friendly Soldiers next to it get +1 defense against long-range attacks (5 hexes or
    more; an attack that Improved Accuracy turns into a medium-range one is not long range)."""

    def applies(self, ctx: AttackContext, owner: Unit) -> bool:
        if ctx.distance < LONG_RANGE:
            return False
        return not any(isinstance(h, ImprovedAccuracy) and h.lengthens(ctx, o) for o, h in ctx.sources)


@ability("defensive-preparation")
class DefensivePreparation(_ExtraDefense):
    """Defensive Preparation: friendly Artillery next to it gets +1 defense."""

    def kind(self, unit: Unit) -> bool:
        return unit.card.is_artillery


#: Medium range of the Soldiers next to an Improved Accuracy commander reaches this far.
IMPROVED_MEDIUM = 6


@ability("improved-accuracy")
class ImprovedAccuracy(_Aura):
    """Improved Accuracy: for friendly Soldiers next to it medium range is 2 to 6 hexes, so at 5 or 6
    hexes they roll their medium-range dice (the engine takes the larger number of dice)."""

    def lengthens(self, ctx: AttackContext, owner: Unit) -> bool:
        """True when this attack is at medium range only thanks to the commander."""
        return LONG_RANGE <= ctx.distance <= IMPROVED_MEDIUM and self.covers(ctx.attacker, owner)

    def attack_options(self, ctx: AttackContext, owner: Unit) -> Iterable[AttackOption]:
        if not self.lengthens(ctx, owner):
            return ()
        kind = UnitType.VEHICLE if ctx.target.card.is_vehicle else UnitType.SOLDIER
        dice = ctx.attacker.card.attack_dice(kind, RangeBand.MEDIUM)
        return (AttackOption(dice, source=self.id),) if dice else ()

    def offers_attack_at(self, distance: int) -> bool:
        return LONG_RANGE <= distance <= IMPROVED_MEDIUM


@ability("recon")
class Recon(Ability):
    """Recon: +1 on its side's initiative roll while it sees an enemy unit, on top of the best commander
    bonus; several Recon units of a side still give +1."""

    def side_initiative_bonus(self, state: GameState, owner: Unit) -> int:
        if owner.hex is None:
            return 0
        return int(any(visible(state, owner, enemy) for enemy in state.on_map(owner.side.other)))
