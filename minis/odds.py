"""The exact odds of an attack: the probability of 0, 1, 2 and 3 hits (rulebook, Attack and Defense).

Each die succeeds independently on 4 or more after its modifier, so successes follow the binomial
distribution; hits follow from successes and defense by the rulebook table. If the target may make a
cover roll (only when the attack scores a hit), a success limits a normal attack to disruption (one
hit) and negates defensive fire. Everything is computed with fractions, so the odds are exact.
`attack_odds` gives the odds of a planned attack in a game, for the front end to show before it.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from minis.rules.combat import SUCCESS, AttackPlan, hits_for

Odds = tuple[Fraction, Fraction, Fraction, Fraction]


def die_chance(target: int, modifier: int = 0) -> Fraction:
    """The chance that one die plus `modifier` reaches `target` (4 for attacks, 4 or 5 for cover)."""
    return Fraction(sum(1 for face in range(1, 7) if face + modifier >= target), 6)


def success_distribution(dice: int, modifier: int = 0) -> list[Fraction]:
    """P(k successes) for k = 0..dice (binomial)."""
    p = die_chance(SUCCESS, modifier)
    q = 1 - p
    return [comb(dice, k) * p**k * q ** (dice - k) for k in range(dice + 1)]


def hit_odds(
    dice: int,
    defense: int,
    modifier: int = 0,
    cover: int | None = None,
    cover_modifier: int = 0,
    cover_fixed: bool | None = None,
    defensive: bool = False,
    success_value: int = 1,
) -> Odds:
    """P(0, 1, 2, 3 hits) of an attack.

    `cover` is the cover roll target (4 Soldiers, 5 Vehicles) or None for no cover roll; `cover_fixed`
    an ability's fixed result. For defensive fire (`defensive`) any hit disrupts: the odds are given
    as 0 or 1 hit, and a successful cover roll negates the attack. `success_value` counts each success
    that many times (an ability such as Shrapnel).
    """
    if dice < 0:
        raise ValueError("the number of dice can't be negative")
    odds = [Fraction(0)] * 4
    for successes, chance in enumerate(success_distribution(dice, modifier)):
        odds[hits_for(successes * success_value, defense)] += chance
    if cover is not None:
        covered = Fraction(int(cover_fixed)) if cover_fixed is not None else die_chance(cover, cover_modifier)
        if defensive:
            odds[0] += (odds[1] + odds[2] + odds[3]) * covered
            for k in (1, 2, 3):
                odds[k] *= 1 - covered
        else:
            odds[1] += (odds[2] + odds[3]) * covered
            odds[2] *= 1 - covered
            odds[3] *= 1 - covered
    if defensive:
        odds = [odds[0], odds[1] + odds[2] + odds[3], Fraction(0), Fraction(0)]
    return (odds[0], odds[1], odds[2], odds[3])


#: What the odds of a planned attack depend on, in `hit_odds`' order (`odds_inputs`).
OddsInputs = tuple[int, int, int, int | None, int, bool | None, bool]


def odds_inputs(plan: AttackPlan) -> OddsInputs:
    """The numbers of a planned attack that its odds depend on (a cache of odds may key on them)."""
    return (
        plan.dice,
        plan.defense,
        plan.modifier,
        plan.cover,
        plan.cover_modifier,
        plan.cover_fixed,
        plan.ctx.defensive,
    )


def attack_odds(plan: AttackPlan) -> Odds:
    """The odds of an attack the engine has planned (`minis.rules.combat.plan_attack`)."""
    return hit_odds(*odds_inputs(plan))
