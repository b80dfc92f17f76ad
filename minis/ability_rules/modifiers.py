"""Abilities that are a number or a refusal and a few conditions: rows of a table, not classes (issue 36).

Many cards' abilities say no more than "+1 on each attack die against a Vehicle", "+1 defense in a
forest or marsh hex" or "no attacks while disrupted": a number added to one part of an attack (its
dice, its die rolls, the target's cover roll or its defense), or the attack (or the target's cover
roll) refused, for the attacks of one role (the owner's own, or those made on it) under plain
conditions. Each such ability is a row: a `Modifier` of `MODIFIERS` or a `Refusal` of `REFUSALS`. One
hook class per part (`ExtraDice`, `DieModifier`, `CoverModifier`, `DefenseModifier`, `NoAttack`,
`NoCover`) answers from its row, and the module makes one subclass per row, named by its ability id
as a family's hand-written classes are. Abilities that need more than this vocabulary (auras,
commanders, a bonus that ends for good, a rule set's option, an attack they make possible) stay
classes in their families.

The conditions, all of which must hold (a row without any holds for every attack of its role):

- `target`, `attacker`: the kind of unit attacked, or attacking (Soldier, Vehicle, aircraft);
- `attacker_has`: the attacker's card has this ability (by id);
- `terrain`: the owner stands in one of these terrains;
- `in_cover`: the owner's terrain gives it a cover roll;
- `owner_disrupted`: the owner is disrupted (as the rules count it: `abilities.disrupted`);
- `defensive`: only defensive-fire attacks;
- `rear`: only attacks on the target's rear defense;
- `at_least`: only attacks from at least this many hexes;
- `beyond_number`: only attacks from farther than the card's number of hexes;
- `shaken_target`: only against a disrupted or damaged target;
- `after_enemy_loss`: only in a turn after one in which an enemy unit was destroyed;
- `enemy_soldier_within`: only while an enemy Soldier not aboard a transport is this close to the owner.

A modifier's amount is its row's number, or (`per_number`) that times the card's own (Inaccurate X: -1
per X).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import ClassVar

import attrs

from minis.abilities import disrupted
from minis.ability_rules._common import in_cover, terrain_of
from minis.ability_rules.cover import LONG_RANGE_START
from minis.ability_rules.targeting import enemy_soldier_within
from minis.cards import UnitType
from minis.engine.ability_api import Ability, AttackContext, ability
from minis.state import Unit
from minis.terrain import Terrain

__all__ = ["MODIFIERS", "REFUSALS", "Modifier", "Part", "Refusal", "Role", "When"]

#: How close an enemy Soldier spoils Open Crew's aim.
OPEN_CREW_HEXES = 2
#: Superior Camouflage: from this many hexes on, nobody attacks it in cover.
CAMOUFLAGE_HEXES = 2


class Part(enum.Enum):
    """The part of an attack a row changes: the hook it answers."""

    EXTRA_DICE = "extra_dice"
    DIE = "die_modifier"
    COVER = "cover_modifier"
    DEFENSE = "defense_modifier"
    #: The attack may not be made (a refusal: "can't" trumps "can").
    NO_ATTACK = "may_attack"
    #: The target makes no cover roll.
    NO_COVER = "cover_allowed"


class Role(enum.Enum):
    """Whose attack it is for the owner: its own (the owner attacks) or one made on it."""

    ATTACKING = "attacking"
    DEFENDING = "defending"


@attrs.frozen
class When:
    """The conditions of a row (the module's text); the defaults ask nothing."""

    target: UnitType | None = None
    attacker: UnitType | None = None
    attacker_has: str | None = None
    terrain: frozenset[Terrain] = frozenset()
    in_cover: bool = False
    owner_disrupted: bool = False
    defensive: bool = False
    rear: bool = False
    at_least: int | None = None
    beyond_number: bool = False
    shaken_target: bool = False
    after_enemy_loss: bool = False
    enemy_soldier_within: int | None = None


@attrs.frozen
class Modifier:
    """An ability that adds a number: its id, the part it changes, by how much, for which role, when."""

    id: str
    part: Part
    amount: int
    role: Role
    when: When = When()
    per_number: bool = False


@attrs.frozen
class Refusal:
    """An ability that refuses: its id, what it refuses (`Part.NO_ATTACK`, `Part.NO_COVER`), for the
    attacks of which role, when."""

    id: str
    part: Part
    role: Role
    when: When = When()


A, D = Role.ATTACKING, Role.DEFENDING
SOLDIER, VEHICLE, AIRCRAFT = UnitType.SOLDIER, UnitType.VEHICLE, UnitType.AIRCRAFT


def _in(*terrains: Terrain) -> frozenset[Terrain]:
    return frozenset(terrains)


#: The abilities that add a number, by part.
MODIFIERS: tuple[Modifier, ...] = (
    # extra attack dice
    Modifier("steady-firing", Part.EXTRA_DICE, 2, A, When(target=SOLDIER)),
    Modifier("flanking-attack", Part.EXTRA_DICE, 1, A, When(target=VEHICLE, rear=True)),
    Modifier("surprise-fire", Part.EXTRA_DICE, 1, A, When(terrain=_in(Terrain.FOREST))),
    Modifier("fury", Part.EXTRA_DICE, 1, A, When(after_enemy_loss=True), per_number=True),
    Modifier("quick-swivel", Part.EXTRA_DICE, 1, A, When(defensive=True)),
    # on each attack die
    Modifier("slow", Part.DIE, 1, D, When(attacker=AIRCRAFT)),
    Modifier("inaccurate", Part.DIE, -1, A, per_number=True),
    Modifier("ruthless", Part.DIE, 1, A, When(shaken_target=True)),
    Modifier("gung-ho", Part.DIE, 1, A, When(defensive=True)),
    Modifier("tank-hunter", Part.DIE, 1, A, When(target=VEHICLE)),
    Modifier("open-crew", Part.DIE, -1, A, When(enemy_soldier_within=OPEN_CREW_HEXES)),
    # on the target's cover roll
    Modifier("large-silhouette", Part.COVER, -1, D),
    Modifier("urban-combat", Part.COVER, 1, D, When(terrain=_in(Terrain.TOWN))),
    Modifier("seasoned-crew", Part.COVER, -1, A),
    Modifier("hard-to-spot", Part.COVER, 1, D),
    Modifier("subtle", Part.COVER, 1, D, When(at_least=LONG_RANGE_START)),
    # on the target's defense (front and rear)
    Modifier("sideskirts", Part.DEFENSE, 1, D, When(attacker_has="close-assault")),
    Modifier("mobility", Part.DEFENSE, 1, D, When(defensive=True)),
    Modifier("elusive", Part.DEFENSE, 1, D, When(terrain=_in(Terrain.FOREST, Terrain.MARSH))),
    Modifier("gun-shield", Part.DEFENSE, 1, D, When(attacker=SOLDIER, at_least=LONG_RANGE_START)),
)

#: The abilities that refuse an attack (defensive fire included) or the target's cover roll.
REFUSALS: tuple[Refusal, ...] = (
    Refusal("limited-range", Part.NO_ATTACK, A, When(beyond_number=True)),
    Refusal("undermanned", Part.NO_ATTACK, A, When(owner_disrupted=True)),
    Refusal("turret-lock", Part.NO_ATTACK, A, When(terrain=_in(Terrain.HILL))),
    Refusal("collapsible-screen", Part.NO_ATTACK, A, When(terrain=_in(Terrain.WATER))),
    Refusal("concealed", Part.NO_ATTACK, D, When(at_least=LONG_RANGE_START, in_cover=True)),
    Refusal("superior-camouflage", Part.NO_ATTACK, D, When(at_least=CAMOUFLAGE_HEXES, in_cover=True)),
    # Bombardment's other clause, no attacks on aircraft, is the air rules' own
    # (`minis.rules.air_attacks.cannot_attack_aircraft`), asked of the card like a unit type's limit.
    Refusal("bombardment", Part.NO_COVER, A),
)

#: A condition: a test of the ability (its card's number), the attack and the owner.
Check = Callable[[Ability, AttackContext, Unit], bool]


def checks(when: When) -> tuple[Check, ...]:
    """The row's conditions as tests, the cheap ones first."""
    found: list[Check] = []
    if when.defensive:
        found.append(lambda ability, ctx, owner: ctx.defensive)
    if when.rear:
        found.append(lambda ability, ctx, owner: not ctx.front)
    if when.at_least is not None:
        least = when.at_least
        found.append(lambda ability, ctx, owner: ctx.distance >= least)
    if when.beyond_number:
        found.append(lambda ability, ctx, owner: ctx.distance > (ability.number or 0))
    if when.target is not None:
        target = when.target
        found.append(lambda ability, ctx, owner: ctx.target.card.type is target)
    if when.attacker is not None:
        attacker = when.attacker
        found.append(lambda ability, ctx, owner: ctx.attacker.card.type is attacker)
    if when.attacker_has is not None:
        named = when.attacker_has
        found.append(lambda ability, ctx, owner: ctx.attacker.card.has(named))
    if when.terrain:
        terrains = when.terrain
        found.append(lambda ability, ctx, owner: terrain_of(ctx.state, owner) in terrains)
    if when.in_cover:
        found.append(lambda ability, ctx, owner: in_cover(ctx.state, owner))
    if when.owner_disrupted:
        found.append(lambda ability, ctx, owner: disrupted(ctx.state, owner))
    if when.shaken_target:
        found.append(lambda ability, ctx, owner: disrupted(ctx.state, ctx.target) or ctx.target.damaged)
    if when.after_enemy_loss:
        found.append(lambda ability, ctx, owner: bool(ctx.state.lost(ctx.state.turn - 1, owner.side.other)))
    if when.enemy_soldier_within is not None:
        hexes = when.enemy_soldier_within
        found.append(lambda ability, ctx, owner: enemy_soldier_within(ctx.state, owner, hexes))
    return tuple(found)


class _Tabled(Ability):
    """An ability that is a row: it acts on the attacks where the owner has the row's role and every
    condition holds."""

    row: ClassVar[Modifier | Refusal]
    tests: ClassVar[tuple[Check, ...]] = ()

    def holds(self, ctx: AttackContext, owner: Unit) -> bool:
        own = ctx.attacker if self.row.role is Role.ATTACKING else ctx.target
        if own.id != owner.id:
            return False
        for test in self.tests:  # noqa: SIM110 (a loop costs less than all() on this hot path)
            if not test(self, ctx, owner):
                return False
        return True


class _Modifies(_Tabled):
    """A row of `MODIFIERS`: its amount where it holds, else 0."""

    row: ClassVar[Modifier]

    def value(self, ctx: AttackContext, owner: Unit) -> int:
        if not self.holds(ctx, owner):
            return 0
        row = self.row
        return row.amount * (self.number or 0) if row.per_number else row.amount


class ExtraDice(_Modifies):
    def extra_dice(self, ctx: AttackContext, owner: Unit) -> int:
        return self.value(ctx, owner)


class DieModifier(_Modifies):
    def die_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return self.value(ctx, owner)


class CoverModifier(_Modifies):
    def cover_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return self.value(ctx, owner)


class DefenseModifier(_Modifies):
    def defense_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return self.value(ctx, owner)


class NoAttack(_Tabled):
    """A row of `REFUSALS` that refuses the attack where it holds (else no opinion)."""

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        return False if self.holds(ctx, owner) else None


class NoCover(_Tabled):
    """A row of `REFUSALS` that denies the target its cover roll where it holds (else no opinion)."""

    def cover_allowed(self, ctx: AttackContext, owner: Unit) -> bool | None:
        return False if self.holds(ctx, owner) else None


PART_CLASSES: dict[Part, type[_Tabled]] = {
    Part.EXTRA_DICE: ExtraDice,
    Part.DIE: DieModifier,
    Part.COVER: CoverModifier,
    Part.DEFENSE: DefenseModifier,
    Part.NO_ATTACK: NoAttack,
    Part.NO_COVER: NoCover,
}


def class_name(ability_id: str) -> str:
    """The class of a row, named as a hand-written one would be: `tank-hunter` -> `TankHunter`."""
    return "".join(word.capitalize() for word in ability_id.split("-"))


def row_class(row: Modifier | Refusal) -> type[Ability]:
    """The hook class of one row, named by its ability id. ValueError for a part the row's kind has
    no class for (a refusal's part on a modifier, or the other way round)."""
    base = PART_CLASSES[row.part]
    if issubclass(base, _Modifies) is not isinstance(row, Modifier):
        raise ValueError(f"ability '{row.id}': a {type(row).__name__} can't have the part {row.part.name}")
    name = class_name(row.id)
    namespace = {
        "__module__": __name__,
        "__qualname__": name,
        "__doc__": f"{row.id}: a row of `{'MODIFIERS' if isinstance(row, Modifier) else 'REFUSALS'}`.",
        "row": row,
        "tests": checks(row.when),
    }
    return ability(row.id)(type(name, (base,), namespace))


# Each row's class is a name of this module, as a hand-written class is: the loader collects the
# module's named classes, and a pickled position names an ability's class by module and name.
ROWS: tuple[Modifier | Refusal, ...] = (*MODIFIERS, *REFUSALS)
for _row in ROWS:
    globals()[class_name(_row.id)] = row_class(_row)
