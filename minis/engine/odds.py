"""The exact odds of an attack: the probability of 0, 1, 2 and 3 hits (rulebook, Attack and Defense).

Each die succeeds independently on 4 or more after its modifier, so successes follow the binomial
distribution; hits follow from successes and defense by the rulebook table. If the target may make a
cover roll (only when the attack scores a hit), a success limits a normal attack to disruption (one
hit) and negates defensive fire. Everything is computed with fractions, so the odds are exact.
`attack_odds` gives the odds of a planned attack from its numbers alone (what the computer players
weigh, fast); `attack_distribution` gives the exact odds the engine's resolution of that attack has,
abilities at work in the roll included (what the window shows: `minis.engine.queries.attack_preview`).

How `attack_distribution` stays the engine's: it runs the engine's own stages of an attack
(`minis.rules.combat.roll_attack_dice`, `score`, `land`) on copies of the position, fed by a dice source
that walks every sequence of dice as a tree, each branch with its probability. It is kept fast by three
facts about the dice, each exact: the attack dice are interchangeable (the engine's outcome depends on
which values were rolled, not in which order), so a batch of N dice is walked as its C(N+5, 5) sorted
multisets with multinomial weights, not 6^N sequences; when no ability reads single dice (only the count
of successes), the N dice are walked as N+1 binomial counts; and the dice score (`score`, no die drawn)
is worked out once per multiset, the rest of the attack (cover roll, counters, the abilities told of
it, their own dice) once per distinct score. An attack where no ability has a say after the dice are
rolled is exactly `hit_odds` of its plan's numbers, and takes that path.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator
from fractions import Fraction
from math import comb, factorial
from typing import TypeVar

import attrs

from minis import abilities
from minis.dice import Dice
from minis.engine.ability_api import Ability, AttackContext, class_hooks
from minis.engine.events import Event
from minis.rules.combat import (
    SUCCESS,
    AttackPlan,
    AttackResult,
    Score,
    hits_for,
    land,
    roll_attack_dice,
    score,
)
from minis.state import GameState

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


# --- the engine's exact odds of an attack (`attack_distribution`) ------------------------------------

#: The hooks asked while an attack is resolved, after its numbers are planned: an attack where no
#: ability with a say implements one of them is exactly `hit_odds` of its plan. (`attack_rolled` is
#: left out: it is told the final dice once the attack is over, and acts on the attacker: Overheat.)
RESOLUTION_HOOKS = frozenset(
    ("reroll_attack_dice", "extra_successes", "successes", "hits", "destroys", "after_attack", "on_disrupted")
)
#: The resolution hooks that read single dice (not only the count of successes).
DIE_HOOKS = frozenset(("extra_successes", "destroys"))


@attrs.frozen
class AttackOdds:
    """The exact distribution of what an attack does to its target, as the engine resolves it.

    `hits[k]`: the chance that k hits land (0-3; after the cover roll, which limits a normal attack to
    one hit and negates defensive fire) and the target stays on the map; `destroyed`: the chance that the
    attack destroys it at once (Flamethrower's three 6s, Flammable's die, ...). They add up to 1.
    `plain` is `hit_odds` of the plan's numbers: the odds without the abilities at work in the roll;
    `changes` names those that changed the outcome on some roll, as (ability id, what) with what one
    of "successes", "hits", "destroys", "rerolls" (attack dice rolled again) or "rolls" (a die of its own
    after the attack)."""

    hits: Odds
    destroyed: Fraction = Fraction(0)
    plain: Odds | None = None
    changes: tuple[tuple[str, str], ...] = ()

    @property
    def hit_chance(self) -> Fraction:
        """The chance that the attack does something to the target (a hit, or destroyed at once)."""
        return 1 - self.hits[0]


def attack_distribution(state: GameState, plan: AttackPlan) -> AttackOdds:
    """The exact odds of the attack `plan` (made by `plan_attack` on `state`), from the engine's own
    resolution of it (see the module's docstring for how it is walked)."""
    plain = attack_odds(plan)
    ctx = plan.ctx
    hooks = _resolution_hooks(state, plan)
    if not hooks:
        return AttackOdds(plain, Fraction(0), plain)
    outcomes: dict[tuple[int, bool], Fraction] = {}
    changes: dict[tuple[str, str], None] = {}
    if "reroll_attack_dice" in hooks:
        groups = _rerolled(state, plan)
    else:
        groups = [(state, *group, ()) for group in _scores(plan, bool(hooks & DIE_HOOKS))]
    for base, scored, rolls, chance, found in groups:
        changes.update(dict.fromkeys((*found, *_named(scored.changes))))
        for (outcome, rolled), after in _walk(functools.partial(_landed, base, plan, rolls, scored)):
            outcomes[outcome] = outcomes.get(outcome, Fraction(0)) + chance * after
            if after:
                changes.update(dict.fromkeys(rolled))
    odds = [Fraction(0)] * 4
    destroyed = Fraction(0)
    for (hits, gone), chance in outcomes.items():
        if gone:
            destroyed += chance
        else:
            odds[hits] += chance
    if ctx.defensive:  # defensive fire disrupts: any hit is one
        odds = [odds[0], odds[1] + odds[2] + odds[3], Fraction(0), Fraction(0)]
    return AttackOdds((odds[0], odds[1], odds[2], odds[3]), destroyed, plain, tuple(changes))


def _resolution_hooks(state: GameState, plan: AttackPlan) -> frozenset[str]:
    """The `RESOLUTION_HOOKS` that an ability with a say in this attack implements (the target's own
    abilities are asked of its counters too)."""
    names: set[str] = set()
    for _owner, h in plan.ctx.sources:
        names.update(_hooks_of(type(h)))
    for h in abilities.handlers(state, plan.ctx.target.card):
        names.update(_hooks_of(type(h)))
    return frozenset(names)


#: Per ability class: the `RESOLUTION_HOOKS` it implements (a class never changes).
_HOOKS: dict[type[Ability], frozenset[str]] = {}


def _hooks_of(klass: type[Ability]) -> frozenset[str]:
    found = _HOOKS.get(klass)
    if found is None:
        found = _HOOKS[klass] = class_hooks(klass) & RESOLUTION_HOOKS
    return found


def _scores(plan: AttackPlan, by_die: bool) -> Iterator[tuple[Score, list[int], Fraction]]:
    """Each distinct score of the attack dice with its chance and one roll that makes it: every sorted
    multiset of the dice (`by_die`: an ability reads single dice), else every count of successes."""
    groups: dict[tuple[int, int, bool], tuple[Score, list[int], Fraction]] = {}
    if by_die:
        rolls_and_chances: Iterator[tuple[list[int], Fraction]] = (
            (list(values), chance) for values, chance in roll_multisets(plan.dice, plan.modifier)
        )
    else:
        rolls_and_chances = _counts(plan.dice, plan.modifier)
    for rolls, chance in rolls_and_chances:
        scored = score(plan, rolls)
        key = (scored.successes, scored.hits, scored.destroyed)
        seen = groups.get(key)
        if seen is None:
            groups[key] = (scored, rolls, chance)
        else:
            changes = tuple(dict.fromkeys((*seen[0].changes, *scored.changes)))
            groups[key] = (seen[0]._replace(changes=changes), seen[1], seen[2] + chance)
    yield from groups.values()


def _counts(dice: int, modifier: int) -> Iterator[tuple[list[int], Fraction]]:
    """k successes of `dice` dice (binomial), each as a roll of k 6s and the rest 1s."""
    for successes, chance in enumerate(success_distribution(dice, modifier)):
        if chance:
            yield [6] * successes + [1] * (dice - successes), chance


#: A die as the engine's abilities read it (`die_classes`): (a face standing for its class, its chance).
DieClass = tuple[int, Fraction]


@functools.cache
def die_classes(modifier: int) -> tuple[DieClass, ...]:
    """The faces of an attack die that no ability tells apart, with this modifier: a 1, a 6, and the
    other faces that fail and that succeed (each class by its lowest face). Abilities read an attack die
    only as a 1, a 6 or by whether it succeeds (docs/abilities.md): the odds walk these classes, and
    tests/test_odds_abilities.py checks them against all six faces."""
    fail = [face for face in range(2, 6) if face + modifier < SUCCESS]
    succeed = [face for face in range(2, 6) if face + modifier >= SUCCESS]
    found = [(1, Fraction(1, 6))]
    found += [(group[0], Fraction(len(group), 6)) for group in (fail, succeed) if group]
    found.append((6, Fraction(1, 6)))
    return tuple(found)


@functools.cache
def roll_multisets(count: int, modifier: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every sorted roll of `count` dice over the die classes with its chance (multinomial weight)."""
    classes = die_classes(modifier)
    found = []
    for picks in itertools.combinations_with_replacement(range(len(classes)), count):
        chance = Fraction(factorial(count))
        for index, (_face, p) in enumerate(classes):
            times = picks.count(index)
            chance = chance / factorial(times) * p**times
        found.append((tuple(classes[i][0] for i in picks), chance))
    return tuple(found)


_SINGLE = tuple(((face,), Fraction(1, 6)) for face in range(1, 7))


class _TreeDice(Dice):
    """A dice source that walks a tree of dice sequences: each draw is a branch point of `path` (its
    choices and the one taken), replayed as it was, or added with its first choice. In `batches` mode a
    `roll_many` is one branch point over sorted multisets (interchangeable dice: the attack dice and
    their rerolls); any other draw is a branch point per die."""

    __slots__ = ("_at", "_path", "batches")

    def __init__(self, path: list[list[object]]) -> None:
        super().__init__(script=())
        self._path = path
        self._at = 0
        #: While not None: `roll_many` draws interchangeable attack dice with this modifier.
        self.batches: int | None = None

    def _take(self, choices: tuple[tuple[tuple[int, ...], Fraction], ...]) -> tuple[int, ...]:
        if self._at == len(self._path):
            self._path.append([choices, 0])
        point = self._path[self._at]
        self._at += 1
        index = point[1]
        assert isinstance(index, int)
        values = choices[index][0]
        self.history.extend(values)
        self._pos += len(values)
        return values

    def roll(self) -> int:
        return self._take(_SINGLE)[0]

    def roll_many(self, count: int, batch: object = None) -> list[int]:
        if self.batches is None or count < 1:
            return [self.roll() for _ in range(count)]
        return list(self._take(roll_multisets(count, self.batches)))

    def chance(self) -> Fraction:
        """The probability of the branch walked so far."""
        found = Fraction(1)
        for choices, index in self._path[: self._at]:
            found *= choices[index][1]  # type: ignore[index]
        return found


Outcome = tuple[tuple[int, bool], tuple[tuple[str, str], ...]]
T = TypeVar("T")


def _walk(run: Callable[[_TreeDice], T]) -> Iterator[tuple[T, Fraction]]:
    """`run` once per leaf of the tree of the dice it draws, with the leaf's probability."""
    path: list[list[object]] = []
    while True:
        dice = _TreeDice(path)
        outcome = run(dice)
        del path[dice._at :]
        yield outcome, dice.chance()
        while path and path[-1][1] + 1 >= len(path[-1][0]):  # type: ignore[operator, arg-type]
            path.pop()
        if not path:
            return
        path[-1][1] += 1  # type: ignore[operator]


def _trial(state: GameState, plan: AttackPlan) -> tuple[GameState, AttackPlan]:
    """A copy of the position and the plan aimed at it (the hooks read and write `ctx.state`)."""
    trial = state.clone()
    c = plan.ctx  # (built field by field: `attrs.evolve` costs more than the rest of a short walk)
    ctx = AttackContext(
        trial, c.attacker, c.target, c.distance, c.band, c.defensive, c.front, c.sources, c.mode
    )
    aimed = AttackPlan(
        ctx, plan.dice, plan.modifier, plan.defense, plan.cover, plan.cover_modifier, plan.cover_fixed
    )
    return trial, aimed


def _landed(state: GameState, plan: AttackPlan, rolls: list[int], scored: Score, dice: _TreeDice) -> Outcome:
    trial, aimed = _trial(state, plan)
    events: list[Event] = []
    result = land(trial, aimed, rolls, scored, dice, events)
    return _outcome(trial, aimed, result), _rolled(events, "rolls")


Group = tuple[GameState, Score, list[int], Fraction, tuple[tuple[str, str], ...]]


def _rerolled(state: GameState, plan: AttackPlan) -> list[Group]:
    """With rerolls: each distinct result of the attack dice and their rerolls (walked over the die
    classes, on a copy of the position: a reroll once a turn notes itself), with its chance; results
    that leave the same score and the same position are one."""
    groups: dict[object, Group] = {}
    scores: dict[tuple[int, ...], Score] = {}  # `score` reads the dice as a multiset
    for (key, group), chance in _walk(functools.partial(_reroll, state, plan, scores)):
        seen = groups.get(key)
        if seen is None:
            groups[key] = (group[0], group[1], group[2], chance, group[4])
        else:
            found = tuple(dict.fromkeys((*seen[4], *group[4])))
            changes = tuple(dict.fromkeys((*seen[1].changes, *group[1].changes)))
            groups[key] = (seen[0], seen[1]._replace(changes=changes), seen[2], seen[3] + chance, found)
    return list(groups.values())


def _reroll(
    state: GameState, plan: AttackPlan, scores: dict[tuple[int, ...], Score], dice: _TreeDice
) -> tuple[object, Group]:
    trial, aimed = _trial(state, plan)
    events: list[Event] = []
    dice.batches = plan.modifier
    rolls = roll_attack_dice(aimed, dice, events)
    dice.batches = None
    dealt = tuple(sorted(rolls))
    scored = scores.get(dealt) or scores.setdefault(dealt, score(aimed, rolls))
    found = _rolled(events, "rerolls")
    # (a reroll notes itself in the bookkeeping, never elsewhere: the same score and bookkeeping land alike)
    key = (scored.successes, scored.hits, scored.destroyed, trial.bookkeeping())
    return key, (trial, scored, rolls, Fraction(0), found)


def _outcome(trial: GameState, plan: AttackPlan, result: AttackResult) -> tuple[int, bool]:
    """(the hits that land, after the cover roll; whether the target left the map at once)."""
    gone = trial.units[plan.ctx.target.id].removed
    if result.cover:
        return (0 if plan.ctx.defensive else 1), gone
    return min(result.hits, 3), gone


def _rolled(events: list[Event], what: str) -> tuple[tuple[str, str], ...]:
    """The abilities that rolled dice of their own among `events` ("ability" events name them)."""
    return tuple((e.note, what) for e in events if e.kind == "ability" and e.note)


def _named(changes: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """`Score.changes` ("ID:what") as pairs."""
    return tuple((item.partition(":")[0], item.partition(":")[2]) for item in changes)
