"""Abilities that change a target's defense, the hits an attack scores, and the dice used against it."""

from __future__ import annotations

from collections.abc import Iterable

from minis.ability_api import Ability, AttackContext, AttackOption, ability
from minis.ability_rules._common import attacking, defending
from minis.cards import UnitType, range_band
from minis.state import Unit


class _SuperiorArmor(Ability):
    """Two hits only when the successes beat the defense by X or more; otherwise one hit."""

    front_only: bool = False

    def hits(self, ctx: AttackContext, owner: Unit, successes: int, defense: int, hits: int) -> int | None:
        if not defending(ctx, owner) or hits < 2 or (self.front_only and not ctx.front):
            return None
        return 1 if successes - defense < (self.number or 0) else None


@ability("superior-armor")
class SuperiorArmor(_SuperiorArmor):
    """Superior Armor X."""


@ability("superior-frontal-armor")
class SuperiorFrontalArmor(_SuperiorArmor):
    """Superior Frontal Armor X: Superior Armor for attacks on the front defense only."""

    front_only = True


@ability("sideskirts")
class Sideskirts(Ability):
    """Sideskirts: +1 defense (front and rear) against an attacker that has Close Assault."""

    def defense_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return 1 if defending(ctx, owner) and ctx.attacker.card.has("close-assault") else 0


@ability("open-back")
class OpenBack(Ability):
    """Open Back: an attack on its rear defense may use the attacker's anti-Soldier dice (the engine
    takes the larger number of dice)."""

    def attack_options(self, ctx: AttackContext, owner: Unit) -> Iterable[AttackOption]:
        if not defending(ctx, owner) or attacking(ctx, owner) or ctx.front or ctx.band is None:
            return ()
        dice = ctx.attacker.card.attack_dice(UnitType.SOLDIER, ctx.band)
        return (AttackOption(dice, source=self.id),) if dice else ()

    def offers_attack_at(self, distance: int) -> bool:
        return range_band(distance) is not None  # a range band is needed for the anti-Soldier dice
