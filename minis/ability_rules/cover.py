"""Abilities that change cover rolls: whether the target may make one, its result, its modifier.

An attack that ignores cover gives the target no cover roll at all and no die is drawn (rulebook,
"Can't" Trumps "Can"); an ability that fixes the result (automatic success or failure) draws no die
either (DESIGN section 1). The engine lets a fixed failure beat a fixed success.
"""

from __future__ import annotations

from minis.ability_api import Ability, AttackContext, ability, near
from minis.ability_rules._common import attacking, defending, terrain_of
from minis.state import Unit
from minis.terrain import Terrain

#: Where Forest Camouflage works: long range starts at 5 hexes (and goes on with longer-range abilities).
LONG_RANGE_START = 5


@ability("bombardment")
class Bombardment(Ability):
    """Bombardment: its attacks ignore cover, so its targets never make cover rolls.

    Its other clause (it can't attack aircraft) has nothing to act on: there are no aircraft.
    """

    def cover_allowed(self, ctx: AttackContext, owner: Unit) -> bool | None:
        return False if attacking(ctx, owner) else None


@ability("forest-camouflage")
class ForestCamouflage(Ability):
    """Forest Camouflage: in a forest, its cover roll against a long-range attack succeeds without a die."""

    def cover_automatic(self, ctx: AttackContext, owner: Unit) -> bool | None:
        if (
            defending(ctx, owner)
            and ctx.distance >= LONG_RANGE_START
            and terrain_of(ctx.state, owner) is Terrain.FOREST
        ):
            return True
        return None


@ability("tall-silhouette")
class TallSilhouette(Ability):
    """Tall Silhouette: its cover rolls always fail (no die is rolled)."""

    def cover_automatic(self, ctx: AttackContext, owner: Unit) -> bool | None:
        return False if defending(ctx, owner) else None


@ability("large-silhouette")
class LargeSilhouette(Ability):
    """Large Silhouette: -1 on its own cover rolls."""

    def cover_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return -1 if defending(ctx, owner) else 0


@ability("urban-combat")
class UrbanCombat(Ability):
    """Urban Combat: +1 on its own cover rolls in a town hex."""

    def cover_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return 1 if defending(ctx, owner) and terrain_of(ctx.state, owner) is Terrain.TOWN else 0


@ability("seasoned-crew")
class SeasonedCrew(Ability):
    """Seasoned Crew: the targets of its attacks get -1 on their cover rolls."""

    def cover_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return -1 if attacking(ctx, owner) else 0


@ability("pinpointer")
class Pinpointer(Ability):
    """Pinpointer (commander): -1 on the cover rolls of targets attacked by friendly Soldiers in its hex
    or next to it, itself included. Two Pinpointers still give -1 (same name, no stacking)."""

    aura = True

    def cover_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        attacker = ctx.attacker
        if attacker.side is owner.side and attacker.card.is_soldier and near(owner, attacker):
            return -1
        return 0
