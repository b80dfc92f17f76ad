"""Abilities that change a target's defense, the hits an attack scores, and the dice used against it.

Bonuses of different names add up (Entrenched and Elusive: +2); the same name counts once. The defense
bonuses that are a number and plain conditions (Elusive, Sideskirts, Mobility, Gun Shield) are rows of
`modifiers`.
"""

from __future__ import annotations

from collections.abc import Iterable

from minis.ability_rules._common import attacking, defending, mark_used, used_this_game
from minis.cards import UnitType, range_band
from minis.engine.ability_api import Ability, AttackContext, AttackOption, ability
from minis.engine.events import Event
from minis.hexgrid import Hex
from minis.state import GameState, Unit


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


@ability("steely-resolve")
class SteelyResolve(_SuperiorArmor):
    """Steely Resolve X: Superior Armor under another name (Soldiers: a margin of X to destroy at once)."""


@ability("superior-frontal-armor")
class SuperiorFrontalArmor(_SuperiorArmor):
    """Superior Frontal Armor X: Superior Armor for attacks on the front defense only."""

    front_only = True


@ability("open-back")
class OpenBack(Ability):
    """Open Back: an attack on its rear defense may use the attacker's anti-Soldier dice (the engine
    takes the larger number of dice)."""

    #: True: attacks from any side may use the anti-Soldier dice (Open-exposed Crew), not only the rear.
    any_side: bool = False

    def attack_options(self, ctx: AttackContext, owner: Unit) -> Iterable[AttackOption]:
        if not defending(ctx, owner) or attacking(ctx, owner) or ctx.band is None:
            return ()
        if ctx.front and not self.any_side:
            return ()
        dice = ctx.attacker.card.attack_dice(UnitType.SOLDIER, ctx.band)
        return (AttackOption(dice, source=self.id),) if dice else ()

    def offers_attack_at(self, distance: int) -> bool:
        return range_band(distance) is not None  # a range band is needed for the anti-Soldier dice


@ability("open-exposed-crew")
class OpenExposedCrew(OpenBack):
    """Open-exposed Crew: Open Back from every side (front attacks too may use anti-Soldier dice)."""

    any_side = True


class _UntilItMoves(Ability):
    """An ability that ends for good the first time its owner moves (Entrenched; Camouflaged also ends
    when it attacks). The end is recorded in `GameState.used` under the ability's id: when the owner
    enters a hex on a move of its own (Relocate and extra moves too), or is found boarded on a transport
    when a phase begins (boarding used its move; its hex changes with the transport's)."""

    def ended(self, state: GameState, owner: Unit) -> bool:
        return owner.carried_by is not None or used_this_game(state, self.id, owner.id)

    def end(self, state: GameState, owner: Unit) -> None:
        mark_used(state, self.id, owner.id)

    def on_enter(self, state: GameState, owner: Unit, hex_: Hex, events: list[Event]) -> None:
        self.end(state, owner)

    def on_phase_start(self, state: GameState, owner: Unit, events: list[Event]) -> None:
        if owner.carried_by is not None:
            self.end(state, owner)


@ability("entrenched")
class Entrenched(_UntilItMoves):
    """Entrenched: +1 front and rear defense until it first moves; the bonus never comes back."""

    def defense_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return 1 if defending(ctx, owner) and not self.ended(ctx.state, owner) else 0
