"""Abilities that change what hit counters do: ignored Damaged counters, fires, ignored disruption,
and Disrupted counters that come off late, early or never (the casualty phase's first step)."""

from __future__ import annotations

from typing import ClassVar

from minis import abilities
from minis.ability_rules._common import attacking, defending, mark_used, used_this_game
from minis.dice import Dice
from minis.engine.ability_api import Ability, AttackContext, ability
from minis.engine.events import Event
from minis.rules import casualty
from minis.state import Counter, GameState, Phase, Unit

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

    #: A die showing this or more destroys the unit.
    burns_on: ClassVar[int] = FLAMMABLE_ROLL

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
        burns = die >= self.burns_on
        events.append(Event("ability", unit.side, unit.id, dice=(die,), value=int(burns), note=self.id))
        if burns:
            destroy_now(state, unit.id, events)


def destroy_now(state: GameState, unit_id: str, events: list[Event]) -> None:
    """Remove a unit (and a Soldier aboard it) from the battle map at once (a loss of this turn)."""
    casualty.destroy_at_once(state, unit_id, events)


@ability("fire-hazard")
class FireHazard(HighlyFlammable):
    """Fire Hazard: Highly Flammable that burns only on a 5 or 6."""

    burns_on = 5


@ability("flammable")
class Flammable(Ability):
    """Flammable: after every attack on it, hit or miss (each separate attack of a Blast too), one die:
    on 5+ it is destroyed at once. The die comes after the attack's cover die, if any."""

    burns_on: ClassVar[int] = 5

    def after_attack(
        self,
        state: GameState,
        ctx: AttackContext,
        owner: Unit,
        counters: tuple[Counter, ...],
        dice: Dice,
        events: list[Event],
    ) -> None:
        if not defending(ctx, owner):
            return
        unit = state.units[owner.id]
        if unit.removed:
            return
        die = dice.roll()
        burns = die >= self.burns_on
        events.append(Event("ability", unit.side, unit.id, dice=(die,), value=int(burns), note=self.id))
        if burns:
            destroy_now(state, unit.id, events)


@ability("unreliable")
class Unreliable(Ability):
    """Unreliable: the casualty phase never takes its face-up Disrupted counter off."""

    def keeps_disruption(self, state: GameState, owner: Unit, dice: Dice, events: list[Event]) -> bool:
        return True


@ability("green")
class Green(Ability):
    """Green: in the casualty phase its face-up Disrupted counter comes off only on a die of 4+ (one die
    per Green unit, in unit id order, in the phase's first step)."""

    #: The die that takes the counter off.
    recovers_on: ClassVar[int] = 4

    def keeps_disruption(self, state: GameState, owner: Unit, dice: Dice, events: list[Event]) -> bool:
        die = dice.roll()
        recovers = die >= self.recovers_on
        events.append(Event("ability", owner.side, owner.id, dice=(die,), value=int(recovers), note=self.id))
        return not recovers


@ability("overheat")
class Overheat(Ability):
    """Overheat: when an attack of its (defensive fire too) ends with three or more dice showing 1, it
    gets a face-up Disrupted counter at once, which the next casualty phase leaves on (the one after
    takes it off as usual)."""

    #: How many 1s overheat it.
    ones: ClassVar[int] = 3

    def attack_rolled(
        self, state: GameState, ctx: AttackContext, owner: Unit, rolls: tuple[int, ...], events: list[Event]
    ) -> None:
        if not attacking(ctx, owner) or rolls.count(1) < self.ones:
            return
        unit = state.units[owner.id]
        if unit.removed:
            return
        state.overheated = state.overheated | {self._key(unit)}
        if not unit.disrupted:
            unit = state.update(unit.id, disrupted=True)
            events.append(Event("counter", unit.side, unit.id, note=Counter.DISRUPTED.value, value=1))
            abilities.on_disrupted(state, unit, events)

    def keeps_disruption(self, state: GameState, owner: Unit, dice: Dice, events: list[Event]) -> bool:
        key = self._key(owner)
        if key not in state.overheated:
            return False
        state.overheated = state.overheated - {key}  # kept through this casualty phase only
        return True

    def _key(self, owner: Unit) -> tuple[str, str]:
        return (self.id, owner.id)


@ability("endurance")
class Endurance(Ability):
    """Endurance: when a Destroyed counter on it turns face up (the casualty phase), one die: on 5+ the
    counter is thrown away and the unit stays (its other counters still count)."""

    survives_on: ClassVar[int] = 5

    def survives_destroyed(self, state: GameState, owner: Unit, dice: Dice, events: list[Event]) -> bool:
        die = dice.roll()
        survives = die >= self.survives_on
        events.append(Event("ability", owner.side, owner.id, dice=(die,), value=int(survives), note=self.id))
        return survives


@ability("hard-charger")
class HardCharger(Ability):
    """Hard Charger: when its side's movement phase ends, its face-up Disrupted counter comes off."""

    def on_phase_start(self, state: GameState, owner: Unit, events: list[Event]) -> None:
        first = state.first
        if first is None or not owner.disrupted:
            return
        if state.phase is Phase.MOVEMENT:
            ended = first if state.active is first.other else None  # after the first player's movement
        elif state.phase is Phase.ASSAULT and state.active is first:
            ended = first.other  # after the second player's movement
        else:
            ended = None
        if ended is owner.side:
            state.update(owner.id, disrupted=False)
            events.append(Event("recover", owner.side, owner.id))


@ability("lack-of-determination")
class LackOfDetermination(Ability):
    """Lack of Determination: as soon as it has a face-up Disrupted counter (defensive fire, the casualty
    phase) it is destroyed."""

    def on_disrupted(self, state: GameState, owner: Unit, events: list[Event]) -> None:
        if owner.disrupted and not owner.removed:
            destroy_now(state, owner.id, events)


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
