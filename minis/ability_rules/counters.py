"""Abilities that change what hit counters do: ignored Damaged counters, fires, ignored disruption."""

from __future__ import annotations

from minis.ability_api import Ability, AttackContext, ability
from minis.ability_rules._common import attacking, defending, mark_used, used_this_game
from minis.dice import Dice
from minis.events import Event
from minis.state import Counter, GameState, Unit

#: Highly Flammable: a die showing this or more destroys the unit.
FLAMMABLE_ROLL = 3


@ability("heavy-armor")
class HeavyArmor(Ability):
    """Heavy Armor: the first Damaged counter it would get in the game is not placed.

    The counters that follow move up one place: three hits of one attack leave it disrupted and damaged
    (the third hit's counter is only its second), so one attack can't destroy it (official ruling); the
    next Damaged counter, in the same assault phase or later, counts.
    """

    def place_counter(self, state: GameState, owner: Unit, counter: Counter) -> Counter | None:
        if counter is Counter.DAMAGED and not used_this_game(state, self.id, owner.id):
            mark_used(state, self.id, owner.id)
            return None
        return counter


@ability("highly-flammable")
class HighlyFlammable(Ability):
    """Highly Flammable: when a face-down Damaged counter is placed on it, one die: on 3+ it is destroyed
    at once (removed immediately, with a Soldier it carries). The die comes after the attack's cover die."""

    def after_attack(
        self,
        state: GameState,
        ctx: AttackContext,
        owner: Unit,
        counters: tuple[Counter, ...],
        dice: Dice,
        events: list[Event],
    ) -> None:
        if not defending(ctx, owner) or Counter.DAMAGED not in counters:
            return
        unit = state.units[owner.id]
        if unit.removed:
            return
        die = dice.roll()
        burns = die >= FLAMMABLE_ROLL
        events.append(Event("ability", unit.side, unit.id, dice=(die,), value=int(burns), note=self.id))
        if burns:
            destroy_now(state, unit.id, events)


def destroy_now(state: GameState, unit_id: str, events: list[Event]) -> None:
    """Remove a unit (and a Soldier aboard it) from the battle map at once."""
    aboard = [u.id for u in state.units.values() if u.carried_by == unit_id and not u.removed]
    for gone in (unit_id, *aboard):
        unit = state.update(gone, removed=True, hex=None, carried_by=None, pending=())
        events.append(Event("removed", unit.side, gone))


@ability("fanatic")
class Fanatic(Ability):
    """Fanatic: it acts as if face-up Disrupted counters on it were not there: it moves, fires
    defensively, keeps its commander abilities and has no attack or defense penalty from them."""

    def ignores_disruption(self, owner: Unit) -> bool:
        return True

    def ignores_attack_penalty(self, ctx: AttackContext, owner: Unit) -> bool:
        return attacking(ctx, owner) and not owner.damaged

    def ignores_defense_penalty(self, ctx: AttackContext, owner: Unit) -> bool:
        return defending(ctx, owner) and not owner.damaged
