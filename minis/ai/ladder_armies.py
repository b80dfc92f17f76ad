"""The armies a ladder (`minis match --armies ...`) plays: balanced, mirrored, or a folder of army files.

Computer-built armies differ in strength from game to game, and twin games (each bot once on each
side) cancel only the side, not a pair of unequal armies: most twin pairs are then split, each bot
winning with the stronger army, and the bots differ in few games. So the ladder can draw pairs of
armies of about equal strength:

- **balanced**: an Axis and an Allied army the computer builds (`army_maker.make_army`) whose strength
  by the lab's card values (`measured_strength`: `army_strength`'s formula with each card's value
  scaled by its worth in play over its printed cost, `minis.content.card_worth`) differs by at most
  `BALANCE` (3%). Armies are drawn for both sides, some less greedily than others, until a pair is
  that close (the closest pair after `BALANCE_DRAWS` draws otherwise).
- **mirrored**: an Axis army the computer builds, and the Allied army of the closest counterparts of
  its cards, unit by unit. The same cards cannot serve on both sides: every card but obstacles belongs
  to a nation, and the army rules (`minis.army.rule_problems`) keep each side to its own nations'
  cards (the rules tests' freedom to put any card on either side is not used: records and replays
  must be of legal armies). A counterpart has the same type (Soldier, Vehicle, Aircraft), is a
  commander when the original is, a Hero only when the original is one, and is the closest in cost
  and in its three values (harm to Soldiers, to Vehicles, staying power), within the points the Axis
  army left unspent; then units are swapped among close counterparts to even the two strengths, and
  under a rule set holding armies to one nationality group, the best group's are kept. The result
  keeps every army rule.
- **a folder** of army files: every Axis file against every Allied file, in turn.

The ladder's own armies (`ladder_folder()`, `armies/ladder/`) are kept out of all tuning: they were
built once with seeds no study or test uses, and nothing but `minis match --armies ladder` reads them.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import attrs

from minis.ai.army_maker import INITIATIVE_WORTH, card_value, make_army
from minis.army import HERO_ABILITIES, Army, load_army, locate, playable_problems, rule_problems
from minis.base.data import shipped_folder
from minis.base.errors import EXIT_CHECK, MinisError, Problem, unreadable
from minis.base.paths import is_dir
from minis.base.sides import Side
from minis.cards import Nation, StatCard, card_catalogue
from minis.content.card_worth import shipped_worth
from minis.content.nationalities import table
from minis.content.rule_sets import RULEBOOK, RuleSet
from minis.engine.ability_loader import standard_abilities

__all__ = [
    "BALANCE",
    "ArmyFolder",
    "balanced_pair",
    "ladder_folder",
    "measured_strength",
    "mirrored_pair",
    "read_folder",
]

#: The largest difference in strength of a balanced pair, as a share of the stronger army's.
BALANCE = 0.03
#: The most armies drawn for one balanced pair before the closest pair drawn is taken.
BALANCE_DRAWS = 60
#: How many of its drawn armies `make_army` keeps the strongest of, for a balanced pair's draws: fewer
#: gives weaker armies, so the two sides' strengths come to overlap.
BALANCE_CANDIDATES = (1, 2, 4, 8, 16, 24)
#: How many of the other side's closest cards a mirrored army's unit may be.
COUNTERPARTS = 6
#: The most passes over a mirrored army's units swapping counterparts to even the strengths.
MIRROR_SWEEPS = 3


def ladder_folder() -> Path:
    """The ladder's own hidden test armies (`armies/ladder/`, shipped with the sample armies)."""
    return shipped_folder("armies") / "ladder"


def _factor(card: StatCard, worth: Mapping[str, float]) -> float:
    """A card's worth in play over its printed cost (1 without one), as `make_army` weighs it."""
    measured = worth.get(card.id)
    if measured is None or card.cost <= 0:
        return 1.0
    return max(measured / card.cost, 0.1)


def _values(card: StatCard, worth: Mapping[str, float]) -> tuple[float, float, float]:
    value, factor = card_value(card), _factor(card, worth)
    return value.soldiers * factor, value.vehicles * factor, value.toughness * factor


def measured_strength(
    units: Sequence[str], cards: Mapping[str, StatCard], worth: Mapping[str, float] | None = None
) -> float:
    """`army_strength` with each card's values scaled by its worth in play (`worth`: the shipped
    card-values table by default): the strength the computer builds its armies for."""
    measured = shipped_worth() if worth is None else worth
    soldiers = vehicles = toughness = 0.0
    initiative = 0
    for unit in units:
        card = cards[unit]
        s, v, t = _values(card, measured)
        soldiers, vehicles, toughness = soldiers + s, vehicles + v, toughness + t
        initiative = max(initiative, card.initiative_bonus)
    both = math.sqrt(soldiers * vehicles)
    firepower = 0.5 * both + 0.25 * (soldiers + vehicles)
    return math.sqrt(firepower * toughness) * (1 + INITIATIVE_WORTH * initiative)


def _gap(first: float, second: float) -> float:
    """How far apart two strengths are, as a share of the larger."""
    return abs(first - second) / max(first, second, 1e-9)


def balanced_pair(
    cards: Mapping[str, StatCard],
    points: int,
    rng: random.Random,
    *,
    rules: RuleSet = RULEBOOK,
    worth: Mapping[str, float] | None = None,
) -> tuple[Army, Army]:
    """An Axis and an Allied army within `BALANCE` of each other's strength (or the closest drawn)."""
    measured = shipped_worth() if worth is None else worth
    pools: dict[Side, list[tuple[float, Army]]] = {Side.AXIS: [], Side.ALLIES: []}

    def draw(side: Side, candidates: int) -> None:
        army = make_army(cards, side, points, rng=rng, rules=rules, worth=measured, candidates=candidates)
        pools[side].append((measured_strength(army.units, cards, measured), army))

    draw(Side.AXIS, 24)
    draw(Side.ALLIES, 24)
    for step in range(BALANCE_DRAWS):
        best = min(
            ((a, b) for a in pools[Side.AXIS] for b in pools[Side.ALLIES]),
            key=lambda pair: _gap(pair[0][0], pair[1][0]),
        )
        if _gap(best[0][0], best[1][0]) <= BALANCE:
            break
        # the stronger side of the closest pair draws again, from fewer candidates (a weaker army)
        side = Side.AXIS if best[0][0] > best[1][0] else Side.ALLIES
        draw(side if step % 2 == 0 else side.other, rng.choice(BALANCE_CANDIDATES))
    axis, allies = min(
        ((a, b) for a in pools[Side.AXIS] for b in pools[Side.ALLIES]),
        key=lambda pair: _gap(pair[0][0], pair[1][0]),
    )
    return _named(axis[1], "balanced"), _named(allies[1], "balanced")


def _named(army: Army, how: str) -> Army:
    return attrs.evolve(army, name=f"The computer's {how} {army.side.title} army")


def _is_hero(card: StatCard) -> bool:
    return any(ref.id in HERO_ABILITIES for ref in card.abilities)


def _distance(original: StatCard, other: StatCard, worth: Mapping[str, float], cost_scale: float) -> float:
    """How unlike two cards are: their costs and each of their three values, as shares."""
    apart = abs(original.cost - other.cost) / cost_scale
    for mine, theirs in zip(_values(original, worth), _values(other, worth), strict=True):
        apart += abs(mine - theirs) / max(mine + theirs, 1e-9)
    return apart


def mirrored_pair(
    cards: Mapping[str, StatCard],
    points: int,
    rng: random.Random,
    *,
    rules: RuleSet = RULEBOOK,
    worth: Mapping[str, float] | None = None,
) -> tuple[Army, Army]:
    """An Axis army the computer builds and the Allied army of its cards' closest counterparts."""
    measured = shipped_worth() if worth is None else worth
    axis = make_army(cards, Side.AXIS, points, rng=rng, rules=rules, worth=measured)
    if not rules.nationality_required:
        options = [mirror(axis, cards, worth=measured)]
    else:  # the army must keep to one group of nations: the best mirror within any one group
        options = [
            mirror(axis, cards, worth=measured, admits=group.admits)
            for group in table(rules.nationality_table).groups
        ]
    target = measured_strength(axis.units, cards, measured)
    legal = [army for army in options if army.units and not rule_problems(army, cards)]
    if legal:
        allies = min(legal, key=lambda army: _gap(target, measured_strength(army.units, cards, measured)))
    else:  # no group has counterparts for every unit: a plain draw
        allies = make_army(cards, Side.ALLIES, points, rng=rng, rules=rules, worth=measured)
    return _named(axis, "mirrored"), _named(allies, "mirrored")


def mirror(
    army: Army,
    cards: Mapping[str, StatCard],
    *,
    worth: Mapping[str, float],
    admits: Callable[[Nation, int], bool] | None = None,
) -> Army:
    """The army of the other side whose every unit is a close counterpart of one of `army`'s, within
    `army`'s points limit, and whose strength comes as close to `army`'s as those counterparts allow.

    Each unit's counterparts are the `COUNTERPARTS` cards of the other side closest to it (`_distance`:
    the same type, commander or not, a Hero only for a Hero). Each unit first takes its closest within
    the points; then a few sweeps swap a unit for another of its counterparts wherever that brings the
    two armies' strengths nearer (`measured_strength`): closest counterparts alone make an army about a
    tenth the weaker, the originals being the strongest of many draws. `admits` keeps the counterparts
    to the nations (and years) of one nationality group; cards of no nation are always admitted."""
    side = army.side.other
    playable = standard_abilities().playable
    pool = [
        card
        for _, card in sorted(cards.items())
        if card.side is side
        and not card.needs
        and not card.is_obstacle
        and (not card.is_aircraft or playable(card))
        and (army.year is None or card.year <= army.year)
        and (admits is None or card.nation is None or admits(card.nation, card.year))
    ]
    if not pool:
        return attrs.evolve(army, side=side, units=(), source=None, layout=None)
    limit = army.points_limit
    originals = sorted(army.units, key=lambda unit: (-cards[unit].cost, unit))
    scale = max((cards[unit].cost for unit in originals), default=1.0) or 1.0
    options: list[list[StatCard]] = []
    for unit in originals:
        original = cards[unit]
        same = [
            card
            for card in pool
            if card.type is original.type
            and card.is_commander == original.is_commander
            and (_is_hero(card) <= _is_hero(original))
        ]
        ranked = sorted(same or pool, key=lambda card: (_distance(original, card, worth, scale), card.id))
        options.append(ranked[:COUNTERPARTS])
    left = limit - sum(cards[unit].cost for unit in originals)
    chosen: list[StatCard] = []
    for unit, ranked in zip(originals, options, strict=True):
        original = cards[unit]
        fitting = [card for card in ranked if card.cost <= original.cost + left]
        found = fitting[0] if fitting else min(ranked, key=lambda card: (card.cost, card.id))
        chosen.append(found)
        left -= found.cost - original.cost
    target = measured_strength(originals, cards, worth)

    def gap(units: Sequence[StatCard]) -> float:
        return _gap(target, measured_strength([card.id for card in units], cards, worth))

    best = gap(chosen)
    for _ in range(MIRROR_SWEEPS):
        improved = False
        for index, ranked in enumerate(options):
            for card in ranked:
                trial = [*chosen[:index], card, *chosen[index + 1 :]]
                if sum(unit.cost for unit in trial) > limit:
                    continue
                apart = gap(trial)
                if apart < best - 1e-9:
                    chosen, best, improved = trial, apart, True
        if not improved or best <= BALANCE / 3:
            break
    return attrs.evolve(army, side=side, units=tuple(card.id for card in chosen), source=None, layout=None)


@attrs.frozen
class ArmyFolder:
    """The army files of a folder, by side, each side's in the order of their file names."""

    path: Path
    axis: tuple[Army, ...]
    allies: tuple[Army, ...]

    @property
    def pairs(self) -> int:
        """How many Axis x Allied pairs it holds."""
        return len(self.axis) * len(self.allies)

    def version(self) -> str:
        """A fingerprint of the folder's armies (their file names, sides and cards), for summaries."""
        text = "\n".join(
            f"{army.source.name if army.source else ''} {army.side.value} {' '.join(army.units)}"
            for army in (*self.axis, *self.allies)
        )
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def pair(self, number: int) -> tuple[Army, Army]:
        """The `number`th pair, cycling: each Axis army against every Allied one in turn."""
        number %= self.pairs
        return self.axis[number // len(self.allies)], self.allies[number % len(self.allies)]


def read_folder(path: Path, *, strict: bool = False) -> ArmyFolder:
    """Every army file (`*.toml`) in the folder `path`, checked as `minis match --axis` checks one
    (`strict`: against every army rule, `minis.army.rule_problems`); every problem at once.

    A folder that is missing or holds no army of one side is a problem of the folder (exit 2 when it
    cannot be read at all)."""
    if not is_dir(path):
        raise unreadable(str(path), "no such folder of army files")
    try:
        files = sorted(found for found in path.iterdir() if found.suffix == ".toml" and found.is_file())
    except OSError as error:
        raise unreadable(str(path), f"cannot read the folder: {error.strerror or error}") from None
    problems: list[Problem] = []
    exit_code = EXIT_CHECK
    armies: dict[Side, list[Army]] = {Side.AXIS: [], Side.ALLIES: []}
    for file in files:
        try:
            army = load_army(file)
        except MinisError as error:
            problems += error.problems
            exit_code = max(exit_code, error.exit_code)
            continue
        found = playable_problems(army, army.side)
        if strict and not found:
            found = locate(army, rule_problems(army, card_catalogue()), str(file))
        if found:
            problems += found
            continue
        armies[army.side].append(army)
    if problems:
        raise MinisError(problems, exit_code=exit_code)
    missing = [side.title for side in Side if not armies[side]]
    if missing:
        raise MinisError(
            Problem(str(path), 0, 0, f"no {' and no '.join(missing)} army file (*.toml) in the folder")
        )
    return ArmyFolder(path, tuple(armies[Side.AXIS]), tuple(armies[Side.ALLIES]))
