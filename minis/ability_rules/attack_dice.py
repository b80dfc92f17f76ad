"""Abilities that change the dice of an attack: how many, the modifier on each die, what a success is worth.

"Each attack die" bonuses and penalties apply to every die roll (rulebook, Special Abilities - Attack
Dice). Same-name bonuses never add up: the engine counts each ability id once (`abilities._largest`).
Those that are a number and plain conditions (Tank Hunter, Ruthless, Inaccurate, ...) are rows of
`modifiers`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from minis.ability_rules._common import (
    attacking,
    friendly_commander_near,
    mark_used,
    used_this_game,
)
from minis.cards import RangeBand, StatCard
from minis.dice import Dice
from minis.engine.ability_api import Ability, AttackContext, AttackOption, ability
from minis.engine.events import Event
from minis.hexgrid import is_front
from minis.rules.combat import SUCCESS
from minis.state import Counter, GameState, Unit


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
    """Crack Shot: +1 on each attack die (2009 on: not against aircraft, `crack_shot_vs_aircraft`)."""

    def die_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        if not attacking(ctx, owner):
            return 0
        if ctx.target.card.is_aircraft and not ctx.state.rules.crack_shot_vs_aircraft:
            return 0
        return 1


@ability("shrapnel")
class Shrapnel(Ability):
    """Shrapnel X: against Soldiers every success counts X times."""

    def successes(self, ctx: AttackContext, owner: Unit, successes: int) -> int | None:
        if attacking(ctx, owner) and ctx.target.card.is_soldier:
            return successes * (self.number or 1)
        return None


#: The extra dice of the "... Hunter" abilities against their kind of target.
HUNTER_DICE = 2

#: "SS" as a word of a card's name ("SS Panzergrenadier", "SS-Stormtrooper", "Waffen-SS").
_SS_WORD = re.compile(r"(?<![A-Za-z])SS(?![A-Za-z])")


def is_ss(card: StatCard) -> bool:
    """An SS unit: "SS" is a word of its name, or of one of its abilities' names (SS Determination);
    SS Hunter itself doesn't make its owner SS."""
    if _SS_WORD.search(card.name):
        return True
    return any(ref.id != "ss-hunter" and _SS_WORD.search(ref.name) for ref in card.abilities)


class _Hunter(Ability):
    """Two extra attack dice against one kind of target (`prey`)."""

    def prey(self, card: StatCard) -> bool:
        return False

    def extra_dice(self, ctx: AttackContext, owner: Unit) -> int:
        return HUNTER_DICE if attacking(ctx, owner) and self.prey(ctx.target.card) else 0


@ability("commander-hunter")
class CommanderHunter(_Hunter):
    """Commander Hunter: 2 extra dice against a Commander (every commander subtype, and any card with a
    commander initiative bonus)."""

    def prey(self, card: StatCard) -> bool:
        return bool(card.is_commander)


@ability("gun-crew-hunter")
class GunCrewHunter(_Hunter):
    """Gun Crew Hunter: 2 extra dice against Artillery."""

    def prey(self, card: StatCard) -> bool:
        return bool(card.is_artillery)


@ability("ss-hunter")
class SSHunter(_Hunter):
    """SS Hunter: 2 extra dice against an SS unit (`is_ss`)."""

    def prey(self, card: StatCard) -> bool:
        return is_ss(card)


#: The natural die roll that Vast Experience counts twice and Flamethrower counts.
SIX = 6


@ability("vast-experience")
class VastExperience(Ability):
    """Vast Experience: each 6 it rolls that is a success scores one more success."""

    def extra_successes(self, ctx: AttackContext, owner: Unit, rolls: tuple[int, ...], modifier: int) -> int:
        if not attacking(ctx, owner) or SIX + modifier < SUCCESS:
            return 0
        return rolls.count(SIX)


@ability("shock-troop")
class ShockTroop(Ability):
    """Shock Troop: +1 on each die of the first attack it makes in the game (defensive fire included)."""

    def die_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return 1 if attacking(ctx, owner) and not used_this_game(ctx.state, self.id, owner.id) else 0

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
            mark_used(state, self.id, owner.id)


#: The 6s of one short-range flamethrower attack that destroy its target outright.
FLAME_SIXES = 3


class _Flame(Ability):
    """At short range the target gets no cover roll; a normal short-range attack with three or more 6s
    destroys the target at once (defensive fire stays limited to disruption; an aircraft is never
    destroyed this way, its hits are counted as usual)."""

    def flames(self, ctx: AttackContext, owner: Unit) -> bool:
        return attacking(ctx, owner) and ctx.band is RangeBand.SHORT

    def cover_allowed(self, ctx: AttackContext, owner: Unit) -> bool | None:
        return False if self.flames(ctx, owner) else None

    def destroys(self, ctx: AttackContext, owner: Unit, rolls: tuple[int, ...]) -> bool:
        """Never an aircraft: the kill is for units on the ground (Contested Skies)."""
        if ctx.defensive or ctx.target.card.is_aircraft:
            return False
        return self.flames(ctx, owner) and rolls.count(SIX) >= FLAME_SIXES


@ability("flamethrower")
class Flamethrower(_Flame):
    """Flamethrower: no cover roll for a short-range target; three 6s in a short-range attack destroy it."""


@ability("hull-mounted-flamethrower")
class HullMountedFlamethrower(_Flame):
    """Hull-Mounted Flamethrower: the Flamethrower rule against a target in its front arc; a target behind
    it (its own hex and straight to its sides included) is attacked normally."""

    def flames(self, ctx: AttackContext, owner: Unit) -> bool:
        if not super().flames(ctx, owner) or owner.facing is None:
            return False
        assert owner.hex is not None and ctx.target.hex is not None
        return is_front(owner.hex, owner.facing, ctx.target.hex)
