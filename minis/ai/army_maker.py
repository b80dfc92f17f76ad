"""The computer builds an army: legal for any limits, strong for its points, different from game to game.

Each card gets a value from its own numbers (`card_value`): how much harm its attack dice do at each
range to typical Soldiers and Vehicles, how many typical attacks it takes to destroy it, its speed and
a few abilities. An army's strength (`army_strength`) follows Lanchester's square law: its firepower
times its staying power, where firepower needs both kinds of targets covered (an army that cannot hurt
tanks is worth half as much), and one commander's initiative bonus counts. `make_army` draws a few
dozen armies by a randomized greedy fill (each unit picked with a chance that grows steeply with what
it adds per point) and keeps the strongest, so a seed gives a strong army and another seed another one.
The battle's rule set (`minis.content.rule_sets`) sets the limits it builds within: the unit limit, the Hero
cap and the nationality table (its groups, and whether every army keeps them).

The balance lab corrects the card values by what the cards did in play: a card the lab found worth more
than its printed cost counts for that much more (`minis.content.card_worth`, the shipped card-values table).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Mapping, Sequence

import attrs
import numpy as np
import numpy.typing as npt

from minis.army import HERO_ABILITIES, MAX_UNITS, Army, ArmyScenario, hero_limit
from minis.base.errors import MinisError, Problem
from minis.base.limits import MAX_ARMY_POINTS, MAX_ARMY_UNITS
from minis.base.sides import Side
from minis.cards import Attack, StatCard
from minis.content.card_worth import shipped_worth
from minis.content.nationalities import table
from minis.content.rule_sets import RULEBOOK, RuleSet
from minis.engine.ability_loader import standard_abilities
from minis.engine.odds import hit_odds
from minis.engine.scenario import Scenario

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

__all__ = ["CardValue", "army_for_scenario", "army_strength", "card_value", "make_army"]

#: How often an attack is made at each range: short (0-1 hexes), medium (2-4), long (5-8).
BAND_WEIGHTS = (0.3, 0.45, 0.25)
#: A typical target: a Soldier's defense, and the Vehicles' front defenses a gun meets.
SOLDIER_DEFENSE = 4
VEHICLE_DEFENSES = (3, 5, 6)
#: A typical attack against each type: dice of a rifle squad, and of a medium tank's gun.
DICE_VS_SOLDIER = 8
DICE_VS_VEHICLE = 11
#: Staying power grows more slowly than the attacks a unit survives on average: a very tough unit is
#: still attacked by several units at once, and with more dice than the typical ones.
TOUGHNESS_CURVE = 0.75
#: Multipliers of (harm to Soldiers, harm to Vehicles, staying power) for abilities that change them.
ABILITY_FACTORS: Mapping[str, tuple[float, float, float]] = {
    "double-shot": (1.6, 1.6, 1.0),
    "blast": (1.2, 1.0, 1.0),
    "bombardment": (1.1, 1.0, 1.0),
    "covering-fire": (1.1, 1.0, 1.0),
    "suppressive-fire": (1.1, 1.0, 1.0),
    "crack-shot": (1.2, 1.0, 1.0),
    "headshot": (1.2, 1.0, 1.0),
    "extended-range": (1.0, 1.1, 1.0),
    "enhanced-range": (1.1, 1.1, 1.0),
    "inaccurate": (0.8, 0.8, 1.0),
    "heavy-armor": (1.0, 1.0, 1.3),
    "superior-armor": (1.0, 1.0, 1.25),
    "superior-frontal-armor": (1.0, 1.0, 1.15),
    "superior-camouflage": (1.0, 1.0, 1.3),
    "fanatic": (1.0, 1.0, 1.2),
    "prone-to-breakdown": (1.0, 1.0, 0.9),
    "highly-flammable": (1.0, 1.0, 0.85),
    "command-dependent": (0.9, 0.9, 1.0),
}
#: An aircraft strikes from the hex it chooses: how often at short range (else medium).
AIRCRAFT_SHORT = 0.7
#: The share of turns an aircraft strikes at full strength (reaction shots ground it, Antiair deters it).
AIRCRAFT_UPTIME = 0.75
#: The share of the attacks an aircraft takes that suffer the -1 a die: the enemy's Antiair and Aces,
#: its likeliest attackers, ignore it (counted in full, aircraft were bought for 9 armies in 10; not at
#: all, for 1 in 15).
AIRCRAFT_PENALIZED = 0.5
#: How much an army's strength grows per point of its best commander's initiative bonus.
INITIATIVE_WORTH = 0.04
#: Armies drawn per build; the strongest is kept. More is stronger but less varied (and slower).
CANDIDATES = 24
#: How steeply the pick of the next unit favours what it adds per point (0: uniformly at random).
GREED = 3.0


@attrs.frozen
class CardValue:
    """What one unit brings: harm per attack to Soldiers and to Vehicles (mobility included), and how
    many typical attacks it takes to destroy it."""

    soldiers: float
    vehicles: float
    toughness: float


def _harm(dice: int, defense: int, vehicle: bool, success_value: int = 1, modifier: int = 0) -> float:
    """What one attack is worth against one target: a destroyed unit 1, a damage or a disruption less."""
    odds = [float(p) for p in hit_odds(dice, defense, modifier, success_value=success_value)]
    if vehicle:
        return odds[3] + 0.5 * odds[2] + 0.2 * odds[1]
    return odds[2] + odds[3] + 0.3 * odds[1]


def _number(card: StatCard, ability: str) -> int:
    found = card.ability(ability)
    return (found.number or 0) if found else 0


@functools.cache
def card_value(card: StatCard) -> CardValue:
    """The value of a card from its numbers (see the module's docstring), worked out once per card."""
    shrapnel = max(1, _number(card, "shrapnel"))
    if card.is_aircraft:
        return _aircraft_value(card)
    vs_soldiers = sum(
        weight * _harm(dice, SOLDIER_DEFENSE, False, shrapnel)
        for weight, dice in zip(BAND_WEIGHTS, _bands(card.vs_soldiers), strict=True)
        if dice
    )
    vs_vehicles = sum(
        weight * sum(_harm(dice, defense, True) for defense in VEHICLE_DEFENSES) / len(VEHICLE_DEFENSES)
        for weight, dice in zip(BAND_WEIGHTS, _bands(card.vs_vehicles), strict=True)
        if dice
    )
    # Close Assault and Hand to Hand: strong attacks in the target's own hex, made now and then.
    if close := _number(card, "close-assault"):
        vs_vehicles += 0.15 * sum(_harm(close, d, True) for d in VEHICLE_DEFENSES) / len(VEHICLE_DEFENSES)
    if melee := _number(card, "hand-to-hand"):
        vs_soldiers += 0.15 * _harm(melee, SOLDIER_DEFENSE, False)
    if card.is_vehicle:
        taken = 0.75 * _harm(DICE_VS_VEHICLE, card.defense_front, True)
        taken += 0.25 * _harm(DICE_VS_VEHICLE, card.defense_rear, True)
    else:
        taken = _harm(DICE_VS_SOLDIER, card.defense_front, False)
    toughness = (1 / max(taken, 0.02)) ** TOUGHNESS_CURVE
    for ability in card.abilities:
        soldiers, vehicles, tough = ABILITY_FACTORS.get(ability.id, (1.0, 1.0, 1.0))
        vs_soldiers, vs_vehicles, toughness = (
            vs_soldiers * soldiers,
            vs_vehicles * vehicles,
            toughness * tough,
        )
    mobility = 0.55 + 0.15 * min(card.speed, 3)
    return CardValue(vs_soldiers * mobility, vs_vehicles * mobility, toughness)


def _aircraft_value(card: StatCard) -> CardValue:
    """An aircraft's value: it picks its hex each turn, so it strikes mostly at short range and reaches
    any target (mobility 1), but only while it is not grounded (`AIRCRAFT_UPTIME`); it is exposed from
    its flight to the end of the turn, where attacks on it take -1 a die (unless Antiair or Ace) and
    never a cover roll, and one hit grounds it, two destroy it."""
    weights = (AIRCRAFT_SHORT, 1.0 - AIRCRAFT_SHORT)
    bands = (card.vs_soldiers.short, card.vs_soldiers.medium)
    vs_soldiers = sum(w * _harm(d, SOLDIER_DEFENSE, False) for w, d in zip(weights, bands, strict=True) if d)
    bands = (card.vs_vehicles.short, card.vs_vehicles.medium)
    vs_vehicles = sum(
        w * sum(_harm(d, defense, True) for defense in VEHICLE_DEFENSES) / len(VEHICLE_DEFENSES)
        for w, d in zip(weights, bands, strict=True)
        if d
    )
    taken = AIRCRAFT_PENALIZED * _harm(DICE_VS_SOLDIER, card.defense_front, False, modifier=-1)
    taken += (1.0 - AIRCRAFT_PENALIZED) * _harm(DICE_VS_SOLDIER, card.defense_front, False)
    toughness = (1 / max(taken, 0.02)) ** TOUGHNESS_CURVE
    for ability in card.abilities:
        soldiers, vehicles, tough = ABILITY_FACTORS.get(ability.id, (1.0, 1.0, 1.0))
        vs_soldiers, vs_vehicles, toughness = (
            vs_soldiers * soldiers,
            vs_vehicles * vehicles,
            toughness * tough,
        )
    return CardValue(vs_soldiers * AIRCRAFT_UPTIME, vs_vehicles * AIRCRAFT_UPTIME, toughness)


def _bands(attack: Attack) -> tuple[int | None, int | None, int | None]:
    return (attack.short, attack.medium, attack.long)


@attrs.define
class _Totals:
    """An army's sums, kept as units are added so a candidate's strength costs nothing to update."""

    soldiers: float = 0.0
    vehicles: float = 0.0
    toughness: float = 0.0
    initiative: int = 0

    def plus(self, card: StatCard) -> _Totals:
        value = card_value(card)
        return _Totals(
            self.soldiers + value.soldiers,
            self.vehicles + value.vehicles,
            self.toughness + value.toughness,
            max(self.initiative, card.initiative_bonus),
        )

    @property
    def strength(self) -> float:
        both = math.sqrt(self.soldiers * self.vehicles)
        firepower = 0.5 * both + 0.25 * (self.soldiers + self.vehicles)
        return math.sqrt(firepower * self.toughness) * (1 + INITIATIVE_WORTH * self.initiative)


def army_strength(units: Sequence[str], cards: Mapping[str, StatCard]) -> float:
    """The strength of an army of these cards (see the module's docstring); 0 for no units."""
    totals = _Totals()
    for unit in units:
        totals = totals.plus(cards[unit])
    return totals.strength


def make_army(
    cards: Mapping[str, StatCard],
    side: Side,
    points_limit: int,
    *,
    rng: random.Random,
    unit_limit: int | None = None,
    year: int | None = None,
    historical: bool = False,
    scenario: ArmyScenario = ArmyScenario.STANDARD,
    name: str | None = None,
    source: str = "army",
    rules: RuleSet = RULEBOOK,
    worth: Mapping[str, float] | None = None,
    greed: float = GREED,
    candidates: int = CANDIDATES,
) -> Army:
    """A strong legal army for these limits, drawn with `rng` (another draw, most often another army).

    The army keeps every rule of `minis.army.rule_problems` for these limits under `rules`: its unit
    limit unless `unit_limit` sets one (a scenario's), its Hero cap, and its nationality table when the
    army is `historical` or the set holds every army to it. When no card fits the limits (none of the
    side by that year within the points), MinisError says so as a problem of `source`.

    `worth` gives cards a worth in points measured in play: a card's value is multiplied by its worth
    over its printed cost, and a card without one keeps its printed cost (a factor of 1). By default it
    is the shipped card-values table's (`minis.content.card_worth`); `{}` leaves every printed cost standing.
    `greed` and `candidates` trade strength for variety: the balance lab draws with less of both, so
    that every card is seen often enough to be measured.
    """
    limit = unit_limit if unit_limit is not None else rules.max_units
    if points_limit > MAX_ARMY_POINTS:  # files are refused beyond it; this keeps every caller's draw short
        message = f"no army of {points_limit:,} points is drawn: an army has at most {MAX_ARMY_POINTS} points"
        raise MinisError(Problem(source, 0, 0, message))
    pools = _pools(cards, side, points_limit, year, historical or rules.nationality_required, rules)
    if (limit is not None and limit < 1) or not pools:
        raise MinisError(Problem(source, 0, 0, _no_army(side, points_limit, limit, year)))
    heroes = hero_limit(points_limit, rules)
    measured = shipped_worth() if worth is None else worth
    tables = [_PoolTable.of(pool, measured) for pool in pools]
    best: tuple[float, tuple[str, ...]] | None = None
    for _ in range(max(1, candidates)):
        units, strength = rng.choice(tables).draw(points_limit, limit, heroes, rng, greed)
        if best is None or strength > best[0]:
            best = (strength, units)
    assert best is not None
    chosen = sorted(best[1], key=lambda unit: (-cards[unit].cost, unit))
    return Army(
        name=name or f"The computer's {side.title} army",
        side=side,
        scenario=scenario,
        year=year,
        historical=historical,
        units=chosen,
        rules=rules,
    )


def _pools(
    cards: Mapping[str, StatCard],
    side: Side,
    points: int,
    year: int | None,
    historical: bool,
    rules: RuleSet = RULEBOOK,
) -> list[tuple[StatCard, ...]]:
    """The cards an army may draw from: one pool, or one per group of the set's nationality table that
    has a card that fits (a group may admit a nation's cards only from a year on)."""
    playable = standard_abilities().playable
    fitting = tuple(
        card
        for _, card in sorted(cards.items())
        if card.serves(side)
        and not card.needs  # cards that wait for a rule system to come are refused by the army rules
        and not card.is_obstacle  # the strength measure sees no worth in them: the computer buys none
        and (not card.is_aircraft or playable(card))  # an aircraft whose abilities are all written
        and card.cost <= points
        and (year is None or card.year <= year)
    )
    if not historical:
        return [fitting] if fitting else []
    nationless = tuple(card for card in fitting if card.nation is None)  # either army may take them
    groups = [
        tuple(card for card in fitting if card.nation is not None and group.admits(card.nation, card.year))
        for group in table(rules.nationality_table).groups
    ]
    return [group + nationless for group in dict.fromkeys(groups) if group]


@attrs.frozen
class _PoolTable:
    """A pool's cards as columns, so that one step of the greedy fill weighs every card at once."""

    cards: tuple[StatCard, ...]
    soldiers: FloatArray
    vehicles: FloatArray
    toughness: FloatArray
    initiative: IntArray
    cost: FloatArray
    commander: BoolArray
    hero: BoolArray

    @classmethod
    def of(cls, pool: Sequence[StatCard], worth: Mapping[str, float]) -> _PoolTable:
        values = [card_value(card) for card in pool]
        factor = np.array([_factor(card, worth) for card in pool], dtype=np.float64)
        return cls(
            cards=tuple(pool),
            soldiers=np.array([v.soldiers for v in values], dtype=np.float64) * factor,
            vehicles=np.array([v.vehicles for v in values], dtype=np.float64) * factor,
            toughness=np.array([v.toughness for v in values], dtype=np.float64) * factor,
            initiative=np.array([card.initiative_bonus for card in pool], dtype=np.int64),
            cost=np.array([card.cost for card in pool], dtype=np.float64),
            commander=np.array([card.is_commander for card in pool], dtype=np.bool_),
            hero=np.array([_is_hero(card) for card in pool], dtype=np.bool_),
        )

    def draw(
        self, points: int, unit_limit: int | None, heroes: int, rng: random.Random, greed: float
    ) -> tuple[tuple[str, ...], float]:
        """One army by randomized greedy fill, and its strength.

        Units are added while one fits, each picked with a chance in proportion to (what it adds to the
        army's strength per point) ** `greed`, where a unit cheaper than the points left per unit slot
        left counts as costing that much (so few slots and many points favour big units; without a unit
        limit every unit costs its own price). A second commander is never picked while anything else
        fits, nor a Hero beyond the army's cap (`heroes`). Never more than MAX_ARMY_UNITS units, whatever
        the limits: the fill always ends.
        """
        units: list[str] = []
        soldiers = vehicles = toughness = 0.0
        initiative = 0
        left: float = points
        commanders = 0
        heroes_left = heroes
        most = MAX_ARMY_UNITS if unit_limit is None else min(unit_limit, MAX_ARMY_UNITS)
        while len(units) < most:
            fits = self.cost <= left
            if heroes_left <= 0:
                fits &= ~self.hero
            if commanders and (fits & ~self.commander).any():
                fits &= ~self.commander
            index = np.flatnonzero(fits)
            if not len(index):
                break
            base = _strength(soldiers, vehicles, toughness, initiative)
            slot = 0.0 if unit_limit is None else left / (unit_limit - len(units))
            after = _strengths(
                soldiers + self.soldiers[index],
                vehicles + self.vehicles[index],
                toughness + self.toughness[index],
                np.maximum(initiative, self.initiative[index]),
            )
            gains = np.maximum(after - base, 0.0) / np.maximum(self.cost[index], slot)
            top = float(gains.max())
            weights = (gains / top) ** greed + 1e-6 if top > 0 else np.ones(len(index))
            pick = int(index[rng.choices(range(len(index)), weights.tolist())[0]])
            card = self.cards[pick]
            units.append(card.id)
            soldiers += float(self.soldiers[pick])
            vehicles += float(self.vehicles[pick])
            toughness += float(self.toughness[pick])
            initiative = max(initiative, card.initiative_bonus)
            left -= card.cost
            commanders += card.is_commander
            heroes_left -= _is_hero(card)
        return tuple(units), _strength(soldiers, vehicles, toughness, initiative)


def _factor(card: StatCard, worth: Mapping[str, float]) -> float:
    """A card's worth in play over its printed cost (1 without a measured worth); never below a tenth."""
    measured = worth.get(card.id)
    if measured is None or card.cost <= 0:
        return 1.0
    return max(measured / card.cost, 0.1)


def _strengths(
    soldiers: FloatArray, vehicles: FloatArray, toughness: FloatArray, initiative: IntArray
) -> FloatArray:
    """`_Totals.strength` for many armies at once (the same formula, element by element)."""
    both = np.sqrt(soldiers * vehicles)
    firepower = 0.5 * both + 0.25 * (soldiers + vehicles)
    result: FloatArray = np.sqrt(firepower * toughness) * (1 + INITIATIVE_WORTH * initiative)
    return result


def _strength(soldiers: float, vehicles: float, toughness: float, initiative: int) -> float:
    return _Totals(soldiers, vehicles, toughness, initiative).strength


def _is_hero(card: StatCard) -> bool:
    return any(ref.id in HERO_ABILITIES for ref in card.abilities)


def _no_army(side: Side, points: int, unit_limit: int | None, year: int | None) -> str:
    if unit_limit is not None and unit_limit < 1:
        return f"no {side.title} army can be built: the limit is {unit_limit} units"
    by_year = f" from {year} or earlier" if year is not None else ""
    return f"no {side.title} army can be built: no {side.title} card{by_year} costs {points} points or less"


def army_for_scenario(
    scenario: Scenario,
    side: Side,
    rng: random.Random,
    *,
    attacker: Side | None = None,
    cards: Mapping[str, StatCard],
    worth: Mapping[str, float] | None = None,
    greed: float = GREED,
    candidates: int = CANDIDATES,
) -> Army:
    """An army the computer builds for `side` within a scenario file's limits (`attacker`: the side that
    attacks, when the scenario leaves it to the players), under its rule set; MinisError at the
    scenario's file if none can. `worth`, `greed` and `candidates` as for `make_army`."""
    force = scenario.force_of(side, attacker)
    kind = ArmyScenario.STANDARD
    if scenario.is_attack:
        attacking = scenario.role_of(side, attacker) == "attacker"
        kind = ArmyScenario.ASSAULT_ATTACKER if attacking else ArmyScenario.ASSAULT_DEFENDER
    return make_army(
        cards,
        side,
        force.points,
        rng=rng,
        unit_limit=None if force.units == MAX_UNITS else force.units,  # the default: the set's limit
        year=force.year,
        historical=force.historical,
        scenario=kind,
        source=scenario.file,
        rules=scenario.doc.rules,
        worth=worth,
        greed=greed,
        candidates=candidates,
    )
