"""Abilities that give a unit extra actions in its own activation: more attacks, a move after attacking.

They offer follow-ups after the unit's normal attack (see `activation`); the follow-up attack is
planned with `mode` set to the ability's id, so each ability shapes only its own extra attack.
"""

from __future__ import annotations

from collections.abc import Iterable

from minis.ability_api import Ability, AttackContext, AttackOption, FollowUp, ability
from minis.ability_rules._common import attacking
from minis.cards import RangeBand
from minis.hexgrid import Hex, is_front
from minis.rules import activation
from minis.state import GameState, Phase, Unit

#: Additional Hull-Mounted Cannon: its dice at short, medium and long range (against Vehicles only).
HULL_CANNON = {RangeBand.SHORT: 12, RangeBand.MEDIUM: 10, RangeBand.LONG: 8}


class _AfterAttack(Ability):
    """Offers one follow-up of `kind` after the owner's normal attack in its assault phase."""

    kind = "attack"

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
