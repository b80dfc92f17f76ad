"""Abilities that change cover rolls: whether the target may make one, its result, its modifier.

An attack that ignores cover gives the target no cover roll at all and no die is drawn (rulebook,
"Can't" Trumps "Can"); an ability that fixes the result (automatic success or failure) draws no die
either (docs/contracts.md#dice-order). The engine lets a fixed failure beat a fixed success.

The camouflage abilities, which keep enemies from attacking a unit that is hard to see (Camouflaged;
Concealed and Superior Camouflage are rows of `modifiers`), and the abilities that see past them
(Experienced Recon) or past blocking terrain (Superior Optics) are here too. The cover abilities that
are a number or a refusal and plain conditions (Hard to Spot, Large Silhouette, Bombardment, ...) are
rows of `modifiers`.
"""

from __future__ import annotations

from minis.ability_rules._common import (
    add_this_turn,
    attacking,
    defending,
    terrain_of,
    this_turn,
)
from minis.ability_rules.defense import _UntilItMoves
from minis.dice import Dice
from minis.engine.ability_api import Ability, AttackContext, ability, near
from minis.engine.events import Event
from minis.state import Counter, GameState, Unit
from minis.terrain import Terrain

#: Where Forest Camouflage works: long range starts at 5 hexes (and goes on with longer-range abilities).
LONG_RANGE_START = 5
#: Medium range: 2 to 4 hexes (rulebook, Range and Attack Dice).
MEDIUM_RANGE = range(2, LONG_RANGE_START)
#: The cover roll Low Silhouette gives where the terrain gives none.
LOW_SILHOUETTE_COVER = 6


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


@ability("low-silhouette")
class LowSilhouette(Ability):
    """Low Silhouette: where its terrain gives it no cover roll it still makes one, needing a 6 (its
    cover modifiers apply as usual; an attack that ignores cover still gives it none)."""

    def cover_without_terrain(self, ctx: AttackContext, owner: Unit) -> int | None:
        return LOW_SILHOUETTE_COVER if defending(ctx, owner) else None


@ability("backblast")
class Backblast(Ability):
    """Backblast: once it has attacked (defensive fire too), its cover rolls fail, without a die, until
    the turn ends."""

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
            add_this_turn(state, self.id, owner.id)

    def cover_automatic(self, ctx: AttackContext, owner: Unit) -> bool | None:
        if defending(ctx, owner) and owner.id in this_turn(ctx.state, self.id):
            return False
        return None


@ability("camouflaged")
class Camouflaged(_UntilItMoves):
    """Camouflaged: until it first moves or attacks (defensive fire too), no enemy attacks it from 2 or
    more hexes; once lost it never comes back."""

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        if defending(ctx, owner) and ctx.distance >= 2 and not self.ended(ctx.state, owner):
            return False
        return None

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
            self.end(state, owner)


@ability("experienced-recon")
class ExperiencedRecon(Ability):
    """Experienced Recon: at medium range (2-4 hexes) it may attack a unit that Camouflaged or Superior
    Camouflage would protect; at long range they still keep it off."""

    #: The abilities whose refusal it sets aside.
    SEES_THROUGH = ("camouflaged", "superior-camouflage")

    def lifts_refusal(self, ctx: AttackContext, owner: Unit, refused_by: str) -> bool:
        return attacking(ctx, owner) and refused_by in self.SEES_THROUGH and ctx.distance in MEDIUM_RANGE


@ability("superior-optics")
class SuperiorOptics(Ability):
    """Superior Optics: while it is in a hill hex, its own sight lines (to attack, defensive fire too)
    may cross one hex of blocking terrain. Sight toward it is unchanged, and smoke still blocks."""

    def sight_past(self, state: GameState, owner: Unit) -> int:
        return 1 if terrain_of(state, owner) is Terrain.HILL else 0
