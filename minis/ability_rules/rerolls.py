"""Abilities that roll dice again: attack dice (Guard Crew, Veteran Guard, Plentiful Ammo, Hardened
Veteran, Lead the Way), a movement roll (Lead the Way) and the initiative roll (Organization).

A reroll is not a decision here: the engine rolls again on its own, and only where the new roll can't
make things worse for the side that rolls. A die that failed can only turn into a success, so rolling a
failed 1 again always helps (and a 1 never counts for the abilities that reward high dice). The
once-a-turn rerolls of any one die are kept for an attack where one more success would add a counter
(for defensive fire: turn a miss into a hit), so they are not spent on a roll they couldn't change.
The new dice come right after the attack dice (`minis.abilities.reroll_attack_dice`), before any
cover die; a die is rolled again at most once, whatever the number of abilities.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from minis import abilities
from minis.ability_rules._common import add_this_turn, attacking, this_turn
from minis.ability_rules.movement import SSDetermination, VeteranCrew
from minis.engine.ability_api import Ability, AttackContext, ability
from minis.rules.combat import SUCCESS, count_successes, hits_for, next_counter
from minis.state import Counter, GameState, Unit


def _failed(rolls: tuple[int, ...], modifier: int, rerolled: frozenset[int]) -> list[int]:
    """Indices of the dice that failed and were not rolled again yet, lowest die first."""
    found = [i for i, die in enumerate(rolls) if die + modifier < SUCCESS and i not in rerolled]
    return sorted(found, key=lambda i: (rolls[i], i))


def _failed_ones(rolls: tuple[int, ...], modifier: int, rerolled: frozenset[int]) -> list[int]:
    """Indices of the dice showing 1 that failed (a 1 a large bonus makes a success is kept)."""
    return [i for i in _failed(rolls, modifier, rerolled) if rolls[i] == 1]


def _at_enemy(ctx: AttackContext) -> bool:
    """An attack on an enemy unit (the separate attacks of a Blast may hit friendly units: no reroll)."""
    return ctx.target.side is not ctx.attacker.side


def _counters(target: Unit, hits: int) -> int:
    """How many counters `hits` hits would place on the target (none after a Destroyed counter)."""
    unit = target
    placed = 0
    for _ in range(hits):
        if Counter.DESTROYED in unit.pending:
            break
        unit = attrs.evolve(unit, pending=(*unit.pending, next_counter(unit)))
        placed += 1
    return placed


def _effect(ctx: AttackContext, rolls: tuple[int, ...], modifier: int, defense: int) -> int:
    """What the attack dice achieve, for comparing two rolls: for defensive fire whether it hits, else
    the counters its hits would place."""
    count = count_successes(list(rolls), modifier) + abilities.extra_successes(ctx, rolls, modifier)
    successes = abilities.successes(ctx, count)
    hits = abilities.hits(ctx, successes, defense, hits_for(successes, defense))
    if ctx.defensive:
        return min(hits, 1)
    return _counters(ctx.target, hits)


class RollsOnesAgain(Ability):
    """Rolls up to `limit` of its own failed 1s again in every attack at an enemy (None: all of them)."""

    limit: ClassVar[int | None] = 1

    def reroll_attack_dice(
        self,
        ctx: AttackContext,
        owner: Unit,
        rolls: tuple[int, ...],
        modifier: int,
        defense: int,
        rerolled: frozenset[int],
    ) -> tuple[int, ...]:
        if not attacking(ctx, owner) or not _at_enemy(ctx):
            return ()
        ones = sorted(_failed_ones(rolls, modifier, rerolled))
        return tuple(ones if self.limit is None else ones[: self.limit])


@ability("guard-crew")
class GuardCrew(RollsOnesAgain):
    """Guard Crew: in each attack it rolls one failed 1 again."""


@ability("veteran-guard")
class VeteranGuard(RollsOnesAgain, VeteranCrew):
    """Veteran Guard: in each attack it rolls up to two failed 1s again, and it has Veteran Crew."""

    limit = 2


@ability("plentiful-ammo")
class PlentifulAmmo(Ability):
    """Plentiful Ammo: every attack by a friendly unit anywhere on the map (its own too) rolls each of
    its failed 1s again once."""

    aura = True

    def reroll_attack_dice(
        self,
        ctx: AttackContext,
        owner: Unit,
        rolls: tuple[int, ...],
        modifier: int,
        defense: int,
        rerolled: frozenset[int],
    ) -> tuple[int, ...]:
        if ctx.attacker.side is not owner.side or not _at_enemy(ctx):
            return ()
        return tuple(sorted(_failed_ones(rolls, modifier, rerolled)))


class OneDieATurn(Ability):
    """Once a turn, one of its own attack dice rolled again: a failed die (its lowest), in the first of
    its attacks at an enemy where one more success would add a counter (defensive fire: a hit)."""

    def reroll_attack_dice(
        self,
        ctx: AttackContext,
        owner: Unit,
        rolls: tuple[int, ...],
        modifier: int,
        defense: int,
        rerolled: frozenset[int],
    ) -> tuple[int, ...]:
        if not attacking(ctx, owner) or not _at_enemy(ctx) or self.spent(ctx.state, owner):
            return ()
        failed = _failed(rolls, modifier, rerolled)
        if not failed:
            return ()
        better = tuple(6 if i == failed[0] else die for i, die in enumerate(rolls))
        if _effect(ctx, better, modifier, defense) <= _effect(ctx, rolls, modifier, defense):
            return ()
        self.spend(ctx.state, owner)
        return (failed[0],)

    def spent(self, state: GameState, owner: Unit) -> bool:
        return owner.id in this_turn(state, self.id)

    def spend(self, state: GameState, owner: Unit) -> None:
        add_this_turn(state, self.id, owner.id)


@ability("hardened-veteran")
class HardenedVeteran(OneDieATurn, SSDetermination):
    """Hardened Veteran: it may move while disrupted (SS Determination), and once a turn it rolls one
    of its attack dice again."""


@ability("lead-the-way")
class LeadTheWay(OneDieATurn):
    """Lead the Way: once a turn it rolls one of its attack dice or a failed movement roll again (the
    first failed movement roll of the turn, or an attack die as for Hardened Veteran)."""

    def rerolls_movement_roll(self, state: GameState, owner: Unit, what: str) -> bool:
        if self.spent(state, owner):
            return False
        self.spend(state, owner)
        return True


@ability("organization")
class Organization(Ability):
    """Organization: once a turn, when its side has lost the initiative roll, the side rolls its two
    dice again (only a losing roll: a reroll of a winning one could only hurt)."""

    def rerolls_initiative(self, state: GameState, owner: Unit) -> bool:
        if owner.side in this_turn(state, self.id):
            return False
        add_this_turn(state, self.id, owner.side)
        return True
