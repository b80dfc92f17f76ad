"""Abilities that give a unit extra actions in its own activation: more attacks, a move after attacking.

They offer follow-ups after the unit's normal attack (see `activation`); the follow-up attack is
planned with `mode` set to the ability's id, so each ability shapes only its own extra attack.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import ClassVar

from minis.ability_rules._common import add_this_phase, attacking, this_phase
from minis.cards import RangeBand, UnitType
from minis.dice import Dice
from minis.engine.ability_api import Ability, AttackContext, AttackOption, FollowUp, FollowUpKind, ability
from minis.engine.events import Event
from minis.hexgrid import Hex, is_front
from minis.rules import activation
from minis.state import Counter, GameState, Phase, Unit

#: Additional Hull-Mounted Cannon: its dice at short, medium and long range (against Vehicles only).
HULL_CANNON = {RangeBand.SHORT: 12, RangeBand.MEDIUM: 10, RangeBand.LONG: 8}


class _AfterAttack(Ability):
    """Offers one follow-up of `kind` after the owner's normal attack in its assault phase."""

    kind: ClassVar[FollowUpKind] = "attack"

    def follow_ups(
        self, state: GameState, unit: Unit, owner: Unit, done: str, path: tuple[Hex, ...]
    ) -> Iterable[FollowUp]:
        if unit.id == owner.id and done == "attack" and state.phase is Phase.ASSAULT:
            return (FollowUp(self.kind, self.id),)
        return ()


@ability("double-shot")
class DoubleShot(_AfterAttack):
    """Double Shot: a second attack in its assault phase (any target); two defensive-fire attacks at the
    unit that provoked it (one defensive-fire opportunity, two rolls)."""

    def defensive_fire_attacks(self, state: GameState, owner: Unit) -> int | None:
        return 2


@ability("all-guns-blazing")
class AllGunsBlazing(_AfterAttack):
    """All Guns Blazing: after attacking, one more attack, at a Soldier."""

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        if ctx.mode == self.id and attacking(ctx, owner) and not ctx.target.card.is_soldier:
            return False
        return None


@ability("additional-hull-mounted-cannon")
class AdditionalHullMountedCannon(_AfterAttack):
    """Additional Hull-Mounted Cannon: after its normal attack, one more attack with the hull gun:
    12/10/8 dice at short/medium/long range, only at a Vehicle in its front arc."""

    def attack_options(self, ctx: AttackContext, owner: Unit) -> Iterable[AttackOption]:
        if ctx.mode == self.id and attacking(ctx, owner) and ctx.band is not None:
            return (AttackOption(HULL_CANNON[ctx.band], source=self.id),)
        return ()

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        if ctx.mode != self.id or not attacking(ctx, owner):
            return None
        assert owner.hex is not None and owner.facing is not None and ctx.target.hex is not None
        if not ctx.target.card.is_vehicle or not is_front(owner.hex, owner.facing, ctx.target.hex):
            return False
        return None


@ability("strike-and-fade")
class StrikeAndFade(_AfterAttack):
    """Strike and Fade X: after attacking in its assault phase, it may move with speed X (terrain,
    rolls and defensive fire as for any move; a damaged Vehicle's -1 applies)."""

    kind = "move"

    def base_speed(self, state: GameState, owner: Unit) -> int | None:
        return self.number if activation.has_offer(state, owner.id, self.id, "move") else None


#: Extra Hull-Mounted Cannon: its fixed dice at short, medium and long range (Soldiers or Vehicles).
EXTRA_HULL_CANNON = {RangeBand.SHORT: 8, RangeBand.MEDIUM: 7, RangeBand.LONG: 5}


@ability("extra-hull-mounted-cannon")
class ExtraHullMountedCannon(_AfterAttack):
    """Extra Hull-Mounted Cannon: after its normal attack in its assault phase, one more attack with the
    hull gun at a Soldier or Vehicle in its front arc, with exactly 8/7/5 dice at short/medium/long range
    (never the card's own, larger values: other abilities' extra dice still add)."""

    def attack_options(self, ctx: AttackContext, owner: Unit) -> Iterable[AttackOption]:
        if ctx.mode == self.id and attacking(ctx, owner) and ctx.band is not None:
            return (AttackOption(EXTRA_HULL_CANNON[ctx.band], source=self.id),)
        return ()

    def extra_dice(self, ctx: AttackContext, owner: Unit) -> int:
        """The engine rolls the largest of the card's dice and this option: take the card's surplus off,
        so the hull gun rolls its own number."""
        if ctx.mode != self.id or not attacking(ctx, owner) or ctx.band is None:
            return 0
        kind = UnitType.VEHICLE if ctx.target.card.is_vehicle else UnitType.SOLDIER
        card_dice = owner.card.attack_dice(kind, ctx.band) or 0
        hull = EXTRA_HULL_CANNON[ctx.band]
        return min(0, hull - card_dice)

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        if ctx.mode != self.id or not attacking(ctx, owner):
            return None
        assert owner.hex is not None and owner.facing is not None and ctx.target.hex is not None
        return None if is_front(owner.hex, owner.facing, ctx.target.hex) else False


@ability("extra-machine-guns")
class ExtraMachineGuns(AllGunsBlazing):
    """Extra Machine Guns: after its normal attack in its assault phase, one more attack, at a Soldier
    (the All Guns Blazing rule)."""


@ability("firepower")
class Firepower(_AfterAttack):
    """Firepower: after it moves or attacks in its assault phase, one more attack, at a unit in its own
    hex."""

    def follow_ups(
        self, state: GameState, unit: Unit, owner: Unit, done: str, path: tuple[Hex, ...]
    ) -> Iterable[FollowUp]:
        if unit.id == owner.id and done in ("move", "attack") and state.phase is Phase.ASSAULT:
            return (FollowUp("attack", self.id),)
        return ()

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        if ctx.mode == self.id and attacking(ctx, owner) and ctx.distance != 0:
            return False
        return None


@ability("multiturreted")
class Multiturreted(_AfterAttack):
    """Multiturreted: after its normal attack in its assault phase, one more attack, at a target on the
    other side of its front arc's edge: outside the front arc if the first target was inside, inside if
    it was outside (its own hex counts as outside)."""

    def after_attack(
        self,
        state: GameState,
        ctx: AttackContext,
        owner: Unit,
        counters: tuple[Counter, ...],
        dice: Dice,
        events: list[Event],
    ) -> None:
        if attacking(ctx, owner) and not ctx.defensive and not ctx.mode and state.phase is Phase.ASSAULT:
            add_this_phase(state, self.id, (owner.id, _in_front(owner, ctx.target)))

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        if ctx.mode != self.id or not attacking(ctx, owner):
            return None
        first = [front for unit_id, front in _pairs(this_phase(ctx.state, self.id)) if unit_id == owner.id]
        if first and first[-1] == _in_front(owner, ctx.target):
            return False
        return None


def _in_front(owner: Unit, target: Unit) -> bool:
    """True if `target` is in the front arc of the Vehicle `owner` (its own hex is not)."""
    assert owner.hex is not None and owner.facing is not None and target.hex is not None
    return is_front(owner.hex, owner.facing, target.hex)


def _pairs(items: frozenset[Hashable]) -> list[tuple[str, bool]]:
    return [item for item in items if isinstance(item, tuple)]


# Rapid Fire: `GameState.rapid_fire_held` holds, per turn, the units whose Disrupted counter outlasts the
# casualty phase.


@ability("rapid-fire")
class RapidFire(_AfterAttack):
    """Rapid Fire: after its normal attack in its assault phase, one more attack (any target); if that
    attack's dice show a 1, the unit gets a face-up Disrupted counter at once, and the card says the
    counter stays through the next casualty phase: that phase leaves it on (so initiative, the board and
    a save see the mortar disrupted), and the casualty phase after takes it off as usual."""

    def after_attack(
        self,
        state: GameState,
        ctx: AttackContext,
        owner: Unit,
        counters: tuple[Counter, ...],
        dice: Dice,
        events: list[Event],
    ) -> None:
        if ctx.mode != self.id or not attacking(ctx, owner):
            return
        rolls = next((e.dice for e in reversed(events) if e.kind == "attack" and e.unit == owner.id), ())
        if 1 not in rolls:
            return
        if not state.units[owner.id].disrupted:
            state.update(owner.id, disrupted=True)
            events.append(Event("counter", owner.side, owner.id, note="disrupted", value=1))
        state.rapid_fire_held = (state.turn, _held(state, state.turn) | {owner.id})

    def keeps_disruption(self, state: GameState, owner: Unit, dice: Dice, events: list[Event]) -> bool:
        held = _held(state, state.turn)
        if owner.id not in held:
            return False
        state.rapid_fire_held = (state.turn, held - {owner.id})  # kept through this phase only
        return True


def _held(state: GameState, turn: int) -> frozenset[str]:
    entry = state.rapid_fire_held
    if entry is not None and entry[0] == turn:
        return entry[1]
    return frozenset()
