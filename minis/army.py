"""Armies: which cards a player brings, and whether the army is legal for its scenario.

An army file (docs/contracts.md#army-files, docs/armies.md) names its side, scenario, optional points
level, year and historical limits, optionally the rule set it is built for (`rules = "NAME"`), and its
units by card id. Every limit that changed between the editions is read from the rule set
(`minis.content.rule_sets.RuleSet`): the unit count, the points levels, the obstacle and Hero caps, the
nationality table (`minis.content.nationalities`) and the single-nation bonus. `rule_problems` finds every
broken rule with what in the file causes it (a unit, the `units` or `side` key), so `locate` can report
each at its line and column; `validate_army` gives the same messages in plain words only, for the
game's army-builder screen.
"""

from __future__ import annotations

import enum
import itertools
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from minis.base.data import shipped_file
from minis.base.errors import Hints, MinisError, Problem, did_you_mean
from minis.base.limits import MAX_ARMY_POINTS
from minis.base.sides import Side
from minis.base.tomlfile import (
    KeyPath,
    Spot,
    TomlSource,
    is_one_line,
    parse_toml,
    read_toml,
    strict_converter,
    structure,
    toml_string,
)
from minis.cards import (
    YEARS,
    Nation,
    StatCard,
    card_catalogue,
    card_id,
    number_in_range,
    points_text,
    side_adjective,
    sorted_problems,
)
from minis.content import nationalities
from minis.content.rule_sets import OPTIONS_KEY, PER_100_POINTS, RULEBOOK, RULES_KEY, RuleSet, rules_toml
from minis.content.rule_sets import read as read_rules

#: No army may have more units than this (rulebook, Building an Army; the 2005 set's `max_units`).
MAX_UNITS = 15


class ArmyScenario(enum.Enum):
    """The scenario an army is built for (an army file's `scenario`); it sets the points limit (rulebook,
    Scenarios). Not a scenario file (`minis.engine.scenario.Scenario`) nor a battle's kind (`BattleKind`)."""

    STANDARD = "standard"
    ASSAULT_ATTACKER = "assault-attacker"
    ASSAULT_DEFENDER = "assault-defender"

    @property
    def points_limit(self) -> int:
        return SCENARIO_POINTS[self]

    @classmethod
    def parse(cls, text: str | ArmyScenario) -> ArmyScenario:
        """A scenario from its file name ('assault-attacker'); ValueError otherwise."""
        if isinstance(text, ArmyScenario):
            return text
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise ValueError(f"unknown scenario '{text}'") from None


#: Points an army may spend, per scenario.
SCENARIO_POINTS = {
    ArmyScenario.STANDARD: 100,
    ArmyScenario.ASSAULT_ATTACKER: 120,
    ArmyScenario.ASSAULT_DEFENDER: 80,
}

#: The 2005 set's historical army limits: nations that may share an army; a nation may be in an army
#: only with nations of its own group (`minis.content.nationalities.TABLE_2005`, whose groups don't overlap).
HISTORICAL_GROUPS: tuple[frozenset[Nation], ...] = nationalities.TABLE_2005.nation_sets()


def _side(value: Side | str) -> Side:
    return value if isinstance(value, Side) else Side.parse(value)


def _scenario(value: ArmyScenario | str) -> ArmyScenario:
    """`ArmyScenario.parse` as a function: mypy's attrs plugin takes no classmethod as a converter."""
    return ArmyScenario.parse(value)


def _units(value: Iterable[str]) -> tuple[str, ...]:
    """Units given as any iterable (a list from a file or a screen) are kept as a tuple: hashable, frozen."""
    return tuple(value)


@attrs.frozen
class ArmyLayout:
    """Where an army file writes its keys and each unit's card id, so a broken rule can point at them.

    `units` holds the line and column of each card id string, in file order: the Nth unit of the army
    is the Nth string of `units`, however the list is split over lines and however often an id repeats.
    """

    file: str
    keys: Mapping[str, Spot]
    units: tuple[Spot, ...]

    @classmethod
    def of(cls, source: TomlSource) -> ArmyLayout:
        """The layout of a parsed army file. Should the strings found in `units` not match its entries
        one for one, no unit has a place of its own and each is reported at the `units` key instead."""
        layout = source.layout
        keys = {str(path[0]): layout.spot(at) for path, at in layout.keys.items() if len(path) == 1}
        units = tuple(layout.spot(at) for at in layout.strings(("units",)))
        entries = source.data.get("units")
        one_for_one = isinstance(entries, list) and len(entries) == len(units)
        return cls(source.file, keys, units if one_for_one else ())

    def spot(self, where: KeyPath) -> Spot:
        """The line and column of `where`: a unit's string, else the key; a key the file does not write
        (`scenario`, left to its default) falls back to `units`."""
        match where:
            case ("units", int(index)) if 0 <= index < len(self.units):
                return self.units[index]
        return self.keys.get(str(where[0])) or self.keys.get("units") or (1, 1)


@attrs.frozen
class Army:
    """A player's army. `units` are card ids, repeated for copies; `source` is the file it came from,
    `layout` where that file writes each thing (both None for an army built on screen)."""

    name: str
    side: Side = attrs.field(converter=_side)
    scenario: ArmyScenario = attrs.field(default=ArmyScenario.STANDARD, converter=_scenario)
    year: int | None = None
    historical: bool = False
    units: tuple[str, ...] = attrs.field(default=(), converter=_units)
    source: Path | None = None
    layout: ArmyLayout | None = attrs.field(default=None, eq=False, repr=False)
    #: The Standard battle's army size the file asks for (None: the rule set's usual one).
    points: int | None = None
    #: The rule set the army is built for (its file's `rules`; the rulebook's when it names none).
    rules: RuleSet = RULEBOOK

    @property
    def points_limit(self) -> int:
        return army_limit(self, self.rules)


def army_limit(army: Army, rules: RuleSet) -> int:
    """The army's points limit under `rules`: a Standard army's level (its `points`, else the set's
    usual level, the first of `point_levels`), an Assault army's scenario points."""
    if army.scenario is ArmyScenario.STANDARD:
        return army.points if army.points is not None else rules.point_levels[0]
    return army.scenario.points_limit


def army_points(army: Army, cards: Mapping[str, StatCard]) -> float:
    """The total cost of the army's units (unknown card ids count nothing; validation reports them).

    A whole number unless the army has half-point obstacles (`points_text` shows it either way)."""
    return sum(cards[unit].cost for unit in army.units if unit in cards)


def _unknown_card(unit: str, cards: Mapping[str, StatCard], hints: Hints) -> str:
    guess = card_id(unit)
    if guess in cards and guess != unit:
        return f"unknown card '{unit}' (did you mean '{guess}'?)"
    hint = hints(unit, cards)
    return f"unknown card '{unit}'" + (f" ({hint})" if hint else "")


@attrs.frozen
class ArmyProblem:
    """A broken army rule: its message in plain words and what in the army file causes it.

    `where` is ("units", N) for the Nth unit, or the key to blame: ("units",), ("side",), ("scenario",).
    """

    message: str
    where: KeyPath


def rule_problems(
    army: Army,
    cards: Mapping[str, StatCard],
    *,
    points_limit: int | None = None,
    unit_limit: int | None = None,
    rules: RuleSet | None = None,
) -> list[ArmyProblem]:
    """Every way the army breaks the army-building rules of `rules` (default: the army's own set),
    each unit that breaks one separately.

    A scenario file may set its own limits (`points_limit`, `unit_limit`) instead of the army's
    points and the set's unit limit; an over-the-limit problem is then the `units` key's, since the
    army file did not set that limit.
    """
    rules = army.rules if rules is None else rules
    problems: list[ArmyProblem] = []
    known = [(index, cards[unit]) for index, unit in enumerate(army.units) if unit in cards]
    unknown: dict[str, str] = {}  # the message of each unknown id, worked out once however often it repeats
    hints = Hints()  # the first few unknown ids get a did-you-mean (a file may hold thousands)
    for index, unit in enumerate(army.units):
        if unit not in cards:
            if unit not in unknown:
                unknown[unit] = _unknown_card(unit, cards, hints)
            problems.append(ArmyProblem(unknown[unit], ("units", index)))
    if not army.units:
        problems.append(ArmyProblem("no units: an army needs at least one", ("units",)))
    for index, card in known:
        if card.needs:
            message = f"{card.name} can't be played yet: it needs {', '.join(card.needs)}"
            problems.append(ArmyProblem(message, ("units", index)))
    for index, card in known:
        if card.side is not None and card.side is not army.side:
            message = (
                f"{card.name} is an {side_adjective(card.side)} unit in an {side_adjective(army.side)} army"
            )
            problems.append(ArmyProblem(message, ("units", index)))
    if army.year is not None:
        for index, card in known:
            if card.year > army.year:
                message = f"{card.name} is from {card.year}, later than the army's year {army.year}"
                problems.append(ArmyProblem(message, ("units", index)))
    if army.historical or rules.nationality_required:
        own_side = [(index, card) for index, card in known if card.side is army.side]
        problems += _nationality_problems(own_side, nationalities.table(rules.nationality_table))
    if points_limit is None:
        problems += _level_problems(army, rules)
    points = army_points(army, cards)
    base = army_limit(army, rules) if points_limit is None else points_limit
    limit, alone = _single_nation_limit(known, base, rules)
    problems += _hero_problems(known, base, rules)
    if points > limit:
        where: KeyPath = ("units",)
        if points_limit is None:
            where = ("points",) if army.points is not None else ("scenario",)
        too_many = f"{points_text(points)} points, {points_text(points - limit)} over the {limit}-point limit"
        if alone is not None:
            too_many += f" of an army of {alone.adjective} units only"
        problems.append(ArmyProblem(too_many, where))
    obstacle_points = sum(card.cost for _, card in known if card.is_obstacle)
    if obstacle_points:  # obstacles may cost only a share of the points (minis.rules.obstacles)
        too_much = obstacles_problem(obstacle_points, limit, rules.obstacle_percent)
        if too_much:
            problems.append(ArmyProblem(too_much, ("units",)))
    most = rules.max_units if unit_limit is None else unit_limit
    if most is not None and len(army.units) > most:
        over = len(army.units) - most
        problems.append(
            ArmyProblem(f"{len(army.units)} units, {over} over the {most}-unit limit", ("units",))
        )
    return problems


def _level_problems(army: Army, rules: RuleSet) -> list[ArmyProblem]:
    """An army file's `points` must be an army size of the set, and is only for a Standard battle."""
    if army.points is None:
        return []
    if army.scenario is not ArmyScenario.STANDARD:
        limit = army.scenario.points_limit
        message = (
            f"'points' is for a Standard battle's army; this {army.scenario.value} army has the "
            f"scenario's {limit} points"
        )
        return [ArmyProblem(message, ("points",))]
    if army.points in rules.point_levels:
        return []
    levels = [str(level) for level in sorted(rules.point_levels)]
    sizes = levels[0] if len(levels) == 1 else f"{', '.join(levels[:-1])} or {levels[-1]}"
    message = (
        f"a {army.points}-point army is not played under the rule set {rules.title} "
        f"(Standard armies of {sizes} points)"
    )
    return [ArmyProblem(message, ("points",))]


def _single_nation_limit(
    known: list[tuple[int, StatCard]], limit: int, rules: RuleSet
) -> tuple[int, Nation | None]:
    """The points limit with the single-nation bonus: an army whose units are all of one nation the set
    names (cards of no nation aside) may spend that nation's points where the limit is 100, and the same
    share more at any other limit (110 of 100 is 220 of 200). Also the nation, when the bonus applies."""
    nations = {card.nation for _, card in known if card.nation is not None}
    if len(nations) != 1:
        return limit, None
    (nation,) = nations
    points = rules.single_nation_limit(nation)
    if points is None:
        return limit, None
    return limit * points // 100, nation


#: At most this share of an army's points may go on obstacles in the 2005 set (issue 16: a tenth).
OBSTACLE_SHARE = 0.1


def obstacles_problem(obstacle_points: float, limit: int, percent: int | None = 10) -> str | None:
    """Obstacle cards may cost at most `percent` of the army's points limit (None if they don't, or if
    the set has no cap)."""
    if percent is None:
        return None
    most = limit * percent / 100
    if obstacle_points <= most:
        return None
    share = "a tenth" if percent == 10 else f"{percent}%"
    return (
        f"obstacles cost {points_text(obstacle_points)} points, more than {share} of the {limit}-point "
        f"limit ({most:g} points)"
    )


#: The national Hero abilities (special deployment): an army may have only so many Heroes.
HERO_ABILITIES = frozenset(
    ("canadian-hero", "german-hero", "italian-hero", "japanese-hero", "soviet-hero", "u-k-hero", "u-s-hero")
)


def hero_limit(points_limit: int, rules: RuleSet = RULEBOOK) -> int:
    """How many Heroes an army may have, at least one whatever its limit: one per 100 points of the
    limit (`PER_100_POINTS`, the 2010 update), or one per army (`ONE_PER_ARMY`, the August 2006 Heroes
    update, which suggests one per 500 points for very large games: we count it so)."""
    per = 100 if rules.hero_cap == PER_100_POINTS else 500
    return max(1, points_limit // per)


def _hero_cap_words(rules: RuleSet) -> str:
    if rules.hero_cap == PER_100_POINTS:
        return "one per 100 points"
    return "one per army, one per 500 points in larger games"


def _hero_problems(known: list[tuple[int, StatCard]], points_limit: int, rules: RuleSet) -> list[ArmyProblem]:
    """One problem at each Hero beyond the army's cap (`hero_limit`), in the order the file lists them."""
    heroes = [(i, card) for i, card in known if any(ref.id in HERO_ABILITIES for ref in card.abilities)]
    most = hero_limit(points_limit, rules)
    plural = "Hero" if most == 1 else "Heroes"
    return [
        ArmyProblem(
            f"{card.name} is one Hero too many: a {points_limit}-point army may have {most} {plural} "
            f"({_hero_cap_words(rules)})",
            ("units", index),
        )
        for index, card in heroes[most:]
    ]


def wrong_side(army: Army, side: Side) -> list[ArmyProblem]:
    """The army's file says another side than the player's it is given to (a scenario, `simulate`)."""
    if army.side is side:
        return []
    return [ArmyProblem(f"this is an {army.side.title} army, not an {side.title} one", ("side",))]


def messages(problems: Iterable[ArmyProblem]) -> list[str]:
    """The problems in plain words, each message once (a card repeated is one line on screen)."""
    return list(dict.fromkeys(problem.message for problem in problems))


def locate(army: Army, problems: Iterable[ArmyProblem], file: str = "army") -> list[Problem]:
    """The problems as problems of the army's file, each at the line and column of what causes it,
    in file order. An army built on screen has no file: `file` names it, at line 0, column 0."""
    layout = army.layout
    if layout is None:
        name = str(army.source) if army.source else file
        return sorted_problems([Problem(name, 0, 0, problem.message) for problem in problems])
    return sorted_problems(
        [Problem(layout.file, *layout.spot(problem.where), problem.message) for problem in problems]
    )


def playable_problems(army: Army, side: Side) -> list[Problem]:
    """What keeps an army out of bot games, each at its line and column: another side's army file, an
    empty army, unknown cards and cards of the other side. The bots play any army the engine can field,
    so the points, unit, year and historical limits don't apply here (`minis simulate`, `minis match`,
    the ladder's armies)."""
    unlimited = attrs.evolve(army, year=None, historical=False)
    found = rule_problems(unlimited, card_catalogue(), points_limit=sys.maxsize, unit_limit=sys.maxsize)
    return locate(army, wrong_side(army, side) + found)


def validate_army(
    army: Army,
    cards: Mapping[str, StatCard],
    *,
    points_limit: int | None = None,
    unit_limit: int | None = None,
    rules: RuleSet | None = None,
) -> list[str]:
    """Every way the army breaks the army-building rules (of `rules`, default the army's own set), one
    message each; [] for a legal army."""
    return messages(rule_problems(army, cards, points_limit=points_limit, unit_limit=unit_limit, rules=rules))


def _names(nations: set[Nation] | frozenset[Nation], last: str = "and") -> str:
    """'France', 'France and Italy', 'France, Italy and Japan'."""
    names = sorted(nation.value for nation in nations)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {last} {names[-1]}"


def historical_problems(nations: set[Nation]) -> list[str]:
    """The 2005 set's historical army limits broken by an army with units of these nations."""
    return [message for _, message in _historical(nations, HISTORICAL_GROUPS)]


def _nationality_problems(
    own_side: list[tuple[int, StatCard]], table: nationalities.Table
) -> list[ArmyProblem]:
    """The historical limits of `table` broken by the army's units of its own side, each at the units
    it is about."""
    if table.disjoint:
        problems = []
        found = {card.nation for _, card in own_side if card.nation is not None}
        for subject, message in _historical(found, table.nation_sets()):
            problems += [ArmyProblem(message, ("units", i)) for i, card in own_side if card.nation in subject]
        return problems
    return _overlapping(own_side, table)


def _overlapping(own_side: list[tuple[int, StatCard]], table: nationalities.Table) -> list[ArmyProblem]:
    """A table of overlapping groups (2008, 2010): the army keeps it if one group admits all its units.
    Otherwise the group that admits the most of them (the first such in the table) stands for the
    army, and each unit it leaves out is a problem saying whom it can't join."""
    units = [(index, card, card.nation) for index, card in own_side if card.nation is not None]
    best: nationalities.Group | None = None
    admitted: set[int] = set()
    for group in table.groups:
        these = {index for index, card, nation in units if group.admits(nation, card.year)}
        if best is None or len(these) > len(admitted):
            best, admitted = group, these
    if best is None or len(admitted) == len(units):
        return []
    kept = {nation for index, _, nation in units if index in admitted}
    problems = []
    for index, card, nation in units:
        if index in admitted:
            continue
        others = kept - {nation}
        since = best.earliest(nation)
        if since is not None and others:
            message = (
                f"historical army limits: {card.name} is from {card.year}; only {nation.adjective} units "
                f"from {since} on may be in an army with units from {_names(others)}"
            )
        elif others:
            message = (
                f"historical army limits: {nation.adjective} units can't be in an army with units from "
                f"{_names(others, 'or')}"
            )
        else:
            message = f"historical army limits: {card.name} can't be in this army"
        problems.append(ArmyProblem(message, ("units", index)))
    return problems


def _historical(
    nations: set[Nation], table: tuple[frozenset[Nation], ...]
) -> list[tuple[frozenset[Nation], str]]:
    """Each historical limit broken, with the nations whose units it is about (where it is reported):
    for a table whose groups don't overlap."""
    groups = [group for group in table if group & nations]
    if len(groups) <= 1:
        return []
    problems = []
    for group in groups:
        others = nations - group
        if len(group) == 1:
            (nation,) = group
            problems.append(
                (
                    group,
                    f"historical army limits: {nation.adjective} units can't be in an army with any other "
                    f"nationality (this army also has {_names(others)})",
                )
            )
    mixed = [group & nations for group in groups if len(group) > 1]
    for first, second in itertools.pairwise(mixed):
        problems.append(
            (
                first,
                f"historical army limits: units from {_names(first, 'or')} can't be in an army with units "
                f"from {_names(second, 'or')}",
            )
        )
    return problems


# --- the army file ------------------------------------------------------------------------------


@attrs.frozen
class _ArmyFile:
    name: str
    side: str
    units: list[str]
    scenario: str = "standard"
    year: int | None = None
    historical: bool = False
    points: int | None = None


#: The army sizes a file may ask for (whether the rule set plays it is a rule: `_level_problems`): no
#: rule set, custom ones included, has a level above MAX_ARMY_POINTS (docs/file-limits.md).
POINTS_RANGE = range(1, MAX_ARMY_POINTS + 1)

_CONVERTER = strict_converter()


def parse_army(data: bytes | str, file: str = "army.toml", source_path: Path | None = None) -> Army:
    """An army from the text of an army file; raises MinisError with all its problems."""
    return _build(parse_toml(data, file), source_path)


def load_army(path: str | Path) -> Army:
    """Read an army file; raises MinisError (exit code 2 when it can't be read at all).

    A bare name (`sample-axis`) that is no file here means a shipped sample army.
    """
    path = shipped_file(path, "armies")
    return _build(read_toml(path), path)


def _build(source: TomlSource, path: Path | None) -> Army:
    data: dict[str, Any] = source.data
    own = {key: value for key, value in data.items() if key not in (RULES_KEY, OPTIONS_KEY)}
    raw, problems = structure(source, _ArmyFile, _CONVERTER, own)
    rules = read_rules(source, problems)
    name = data.get("name")
    if type(name) is str and not is_one_line(name):
        problems.append(source.problem(("name",), "'name' must be one line of text, not empty"))
    side = data.get("side")
    if type(side) is str:
        try:
            Side.parse(side)
        except ValueError:
            hint = did_you_mean(side.strip().lower(), [s.value for s in Side])
            problems.append(source.problem(("side",), f"unknown side '{side}' (axis or allies)", hint))
    scenario = data.get("scenario")
    if type(scenario) is str:
        try:
            ArmyScenario.parse(scenario)
        except ValueError:
            choices = [s.value for s in ArmyScenario]
            hint = did_you_mean(scenario.strip().lower(), choices)
            problems.append(
                source.problem(("scenario",), f"unknown scenario '{scenario}' ({', '.join(choices)})", hint)
            )
    number_in_range(source, ("year",), data.get("year"), YEARS, "year", problems)
    number_in_range(source, ("points",), data.get("points"), POINTS_RANGE, "points", problems)
    units = data.get("units")
    if isinstance(units, list):
        for index, unit in enumerate(units):
            if type(unit) is str and not is_one_line(unit):
                message = (
                    f"unit {index + 1} is an empty card id"
                    if not unit.strip()
                    else (f"unit {index + 1} has a line break or control character in its card id")
                )
                problems.append(source.problem(("units", index), message))
    if problems:
        raise MinisError(sorted_problems(problems))
    assert raw is not None
    return Army(
        name=raw.name.strip(),
        side=Side.parse(raw.side),
        scenario=ArmyScenario.parse(raw.scenario),
        year=raw.year,
        historical=raw.historical,
        units=tuple(unit.strip() for unit in raw.units),
        source=path,
        layout=ArmyLayout.of(source),
        points=raw.points,
        rules=rules,
    )


def dump_army(army: Army) -> str:
    """The army as an army file (for the army-builder screen's Save); `parse_army` reads it back equal.
    The rule set is written only when it is not the rulebook's (its options table last, as TOML needs)."""
    rules = rules_toml(army.rules).split("\n\n", 1)
    lines = [
        f"name = {toml_string(army.name)}",
        f'side = "{army.side.value}"',
        f'scenario = "{army.scenario.value}"',
    ]
    if army.year is not None:
        lines.append(f"year = {army.year}")
    if army.points is not None:
        lines.append(f"points = {army.points}")
    if army.historical:
        lines.append("historical = true")
    if rules[0]:
        lines.append(rules[0].rstrip("\n"))
    lines.append("units = [")
    lines += [f"    {toml_string(unit)}," for unit in army.units]
    lines.append("]")
    text = "\n".join(lines) + "\n"
    return text + (f"\n{rules[1]}" if len(rules) > 1 else "")
