"""Stat cards: the numbers and abilities of every unit, read from one TOML file per card in `cards/`.

The rules engine reads units only through `StatCard`, so a card file is checked hard when it is
loaded: required keys, types, sane ranges, known nations, types and abilities; unknown keys are refused
with a did-you-mean hint; every problem of a file is reported at once with its line. The file format
is described in docs/cards.md; `dump_card` writes it back in canonical form.
"""

from __future__ import annotations

import enum
import functools
import math
import re
from pathlib import Path
from typing import Any

import attrs

from minis.base.data import shipped_folder
from minis.base.errors import MinisError, Problem, did_you_mean
from minis.base.paths import files_in, look
from minis.base.sides import Side
from minis.base.tomlfile import (
    KeyPath,
    TomlSource,
    WrongType,
    describe,
    is_one_line,
    parse_toml,
    read_toml,
    strict_converter,
    structure,
    toml_string,
)
from minis.content import card_index
from minis.content.ability_catalogue import ABILITIES, AbilityInfo, find_ability, slug, split_label

#: Sane ranges for card numbers; anything outside is a typing mistake in a card file.
YEARS = range(1930, 1951)
#: Costs in half points (Barbed Wire costs half a point): 0.5 to 200.
HALF_POINT_COSTS = range(1, 401)
SPEEDS = range(0, 13)
DEFENSES = range(1, 21)
ATTACK_DICE = range(1, 41)
ABILITY_NUMBERS = range(1, 41)

#: Subtypes a card may name (the commanders and Artillery change rules; the others are descriptive).
SUBTYPES = (
    "Armored Car",
    "Artillery",
    "Assault Gun",
    "Boat",
    "Car",
    "Cavalry",
    "Commander",
    "Fortification",
    "Half-Track",
    "Hero",
    "Hero Commander",
    "Motorcycle",
    "Para Commander",
    "Paratrooper",
    "Sniper",
    "Spotter",
    "Support",
    "Tank",
    "Tank Commander",
    "Tank Destroyer",
    "Truck",
)
#: Subtypes that make a unit a commander (the catalogue's heroes and tank and para commanders lead too).
COMMANDER_SUBTYPES = frozenset({"Commander", "Hero Commander", "Para Commander", "Tank Commander"})
RARITIES = ("Common", "Uncommon", "Rare")
_COLLECTOR = re.compile(r"^([0-9]{1,6})/([0-9]{1,6})$")


class Nation(enum.Enum):
    """A unit's country; its side follows from it (rulebook, How to Read a Stat Card)."""

    GERMANY = "Germany"
    ITALY = "Italy"
    JAPAN = "Japan"
    UNITED_STATES = "United States"
    UNITED_KINGDOM = "United Kingdom"
    SOVIET_UNION = "Soviet Union"
    FRANCE = "France"
    # The nations of the later sets: the Axis, its co-belligerents and client states ...
    HUNGARY = "Hungary"
    ROMANIA = "Romania"
    FINLAND = "Finland"
    SLOVAKIA = "Slovakia"
    CROATIA = "Croatia"
    BULGARIA = "Bulgaria"
    # ... and the Allies (Yugoslavia's partisans and China's Kuomintang fought with them).
    POLAND = "Poland"
    CANADA = "Canada"
    AUSTRALIA = "Australia"
    NEW_ZEALAND = "New Zealand"
    SOUTH_AFRICA = "South Africa"
    BELGIUM = "Belgium"
    GREECE = "Greece"
    YUGOSLAVIA = "Yugoslavia"
    CHINA = "China"

    @property
    def side(self) -> Side:
        return Side.AXIS if self in _AXIS_NATIONS else Side.ALLIES

    @property
    def adjective(self) -> str:
        """'German', 'Soviet', ...: how messages name units of this nation."""
        return _ADJECTIVES[self]

    @classmethod
    def parse(cls, text: str) -> Nation:
        """A nation from its name in any case or a short form (USA, UK, USSR); ValueError otherwise."""
        found = _NATION_NAMES.get(slug(text))
        if found is None:
            raise ValueError(f"unknown nation '{text}'")
        return found

    @classmethod
    def hint(cls, text: str) -> str:
        """A did-you-mean hint for a mistyped nation name."""
        return did_you_mean(text.strip().title(), [nation.value for nation in Nation])


_AXIS_NATIONS = frozenset(
    {
        Nation.GERMANY,
        Nation.ITALY,
        Nation.JAPAN,
        Nation.HUNGARY,
        Nation.ROMANIA,
        Nation.FINLAND,
        Nation.SLOVAKIA,
        Nation.CROATIA,
        Nation.BULGARIA,
    }
)
_ADJECTIVES = {
    Nation.GERMANY: "German",
    Nation.ITALY: "Italian",
    Nation.JAPAN: "Japanese",
    Nation.UNITED_STATES: "American",
    Nation.UNITED_KINGDOM: "British",
    Nation.SOVIET_UNION: "Soviet",
    Nation.FRANCE: "French",
    Nation.HUNGARY: "Hungarian",
    Nation.ROMANIA: "Romanian",
    Nation.FINLAND: "Finnish",
    Nation.SLOVAKIA: "Slovak",
    Nation.CROATIA: "Croatian",
    Nation.BULGARIA: "Bulgarian",
    Nation.POLAND: "Polish",
    Nation.CANADA: "Canadian",
    Nation.AUSTRALIA: "Australian",
    Nation.NEW_ZEALAND: "New Zealand",
    Nation.SOUTH_AFRICA: "South African",
    Nation.BELGIUM: "Belgian",
    Nation.GREECE: "Greek",
    Nation.YUGOSLAVIA: "Yugoslav",
    Nation.CHINA: "Chinese",
}
#: What a card file writes for a card of no nation (depots, obstacles): either army may take it.
NO_NATION = "None"
_NATION_NAMES: dict[str, Nation] = {slug(nation.value): nation for nation in Nation} | {
    "usa": Nation.UNITED_STATES,
    "us": Nation.UNITED_STATES,
    "uk": Nation.UNITED_KINGDOM,
    "britain": Nation.UNITED_KINGDOM,
    "great-britain": Nation.UNITED_KINGDOM,
    "ussr": Nation.SOVIET_UNION,
    "soviet": Nation.SOVIET_UNION,
    "nz": Nation.NEW_ZEALAND,
}


def side_adjective(side: Side) -> str:
    """'Axis' or 'Allied', as in 'an Allied unit in an Axis army'."""
    return "Axis" if side is Side.AXIS else "Allied"


class UnitType(enum.Enum):
    """Soldier, Vehicle, Obstacle or Aircraft: decides which attack values are used against the unit and
    how it moves."""

    SOLDIER = "soldier"
    VEHICLE = "vehicle"
    #: Barbed wire, minefields, pillboxes: placed, never moving or attacking (no defense, speed, attacks).
    OBSTACLE = "obstacle"
    #: Placed on any hex in the flight phase, attacking in the airstrike phase, off the map otherwise.
    AIRCRAFT = "aircraft"

    @property
    def title(self) -> str:
        return self.value.capitalize()


class RangeBand(enum.Enum):
    """The three attack ranges of a stat card."""

    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"


#: What an aircraft card prints where other cards print a speed: it is placed, never moved.
AIRCRAFT_SPEED = "A"
#: The `set` of the aircraft cards that are probably conversions from the separate air game (docs/cards.md).
AIR_FORCE_CONVERSION = "Air Force conversion"


def range_band(distance: int) -> RangeBand | None:
    """The band for a distance in hexes: 0-1 short, 2-4 medium, 5-8 long, anything else out of range."""
    if 0 <= distance <= 1:
        return RangeBand.SHORT
    if 2 <= distance <= 4:
        return RangeBand.MEDIUM
    if 5 <= distance <= 8:
        return RangeBand.LONG
    return None


@attrs.frozen
class Attack:
    """Attack dice at each range against one type of target; None means no attack at that range."""

    short: int | None = None
    medium: int | None = None
    long: int | None = None

    def at(self, band: RangeBand) -> int | None:
        # `_value_` is the member's value as a plain attribute (`.value` is a slower descriptor).
        dice: int | None = getattr(self, band._value_)
        return dice


@attrs.frozen
class AbilityRef:
    """One ability on a card: catalogue id, display name, its number (None if it takes none), description."""

    id: str
    name: str
    number: int | None
    description: str
    commander: bool = False

    @property
    def info(self) -> AbilityInfo:
        return ABILITIES[self.id]

    @property
    def text(self) -> str:
        """As the card prints it: 'Close Assault 7', 'Commander: Initiative +2'."""
        return self.info.label(self.number)


@attrs.frozen(cache_hash=True)  # a card is hashed again and again as a key (the army builder's values)
class StatCard:
    """Everything a stat card shows. `id` is the contract card id (docs/contracts.md#card-ids).

    A card of no nation (`nation` and `side` None: depots, obstacles) may serve in either army. `cost`
    is a whole number but for half-point obstacles (0.5: exact in binary, so sums stay exact). An
    obstacle has speed 0, defense 0 and no attacks (its card shows none). An aircraft has speed 0 here
    (its card prints "A": the engine places it, never moves it), one defense and no long-range attacks.
    """

    id: str
    name: str
    nation: Nation | None
    side: Side | None
    type: UnitType
    subtype: str | None
    year: int
    cost: float
    speed: int
    defense_front: int
    defense_rear: int
    vs_soldiers: Attack
    vs_vehicles: Attack
    abilities: tuple[AbilityRef, ...] = ()
    set_name: str | None = "Base Set"
    collector: str | None = None
    rarity: str | None = None
    #: Derived from `type` once, as the engine asks them constantly (not part of the card's value).
    is_vehicle: bool = attrs.field(init=False, eq=False, repr=False)
    is_soldier: bool = attrs.field(init=False, eq=False, repr=False)
    is_aircraft: bool = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "is_vehicle", self.type is UnitType.VEHICLE)
        object.__setattr__(self, "is_soldier", self.type is UnitType.SOLDIER)
        object.__setattr__(self, "is_aircraft", self.type is UnitType.AIRCRAFT)

    @property
    def is_obstacle(self) -> bool:
        return self.type is UnitType.OBSTACLE

    @property
    def needs(self) -> tuple[str, ...]:
        """The rule systems still to come that the card needs (empty: the shipped rules play it).

        An ability may need a system (`AbilityInfo.needs`); obstacle cards play since the obstacle rules
        came (issue 16). The engine's own check (`AbilityRegistry.needs`) adds abilities a rule set has
        no hooks for.
        """
        found: list[str] = []
        found += [info.needs for ref in self.abilities if (info := ABILITIES.get(ref.id)) and info.needs]
        return tuple(dict.fromkeys(found))

    def serves(self, side: Side) -> bool:
        """True if an army of `side` may take the card (its nation's side, or either for no nation)."""
        return self.side is None or self.side is side

    @property
    def nation_name(self) -> str:
        """'Germany', or 'No nation' for a card either army may take."""
        return self.nation.value if self.nation is not None else "No nation"

    @property
    def side_name(self) -> str:
        """'Axis', 'Allies', or 'Either side' for a card of no nation."""
        return self.side.title if self.side is not None else "Either side"

    @property
    def cost_text(self) -> str:
        return points_text(self.cost)

    def attack_dice(self, target_type: UnitType, band: RangeBand) -> int | None:
        """Dice rolled against a target of that type at that range (None: can't attack it there).

        Aircraft are attacked with the vs-Soldier values (cards have no row against aircraft)."""
        attack = self.vs_vehicles if target_type is UnitType.VEHICLE else self.vs_soldiers
        return attack.at(band)

    def has(self, ability_id: str) -> bool:
        return any(ability.id == ability_id for ability in self.abilities)

    def ability(self, ability_id: str) -> AbilityRef | None:
        return next((ability for ability in self.abilities if ability.id == ability_id), None)

    @property
    def is_commander(self) -> bool:
        return self.subtype in COMMANDER_SUBTYPES or self.has("commander-initiative")

    @property
    def is_artillery(self) -> bool:
        return self.subtype == "Artillery"

    @property
    def initiative_bonus(self) -> int:
        """The N of 'Commander: Initiative +N', 0 for a unit without it."""
        ability = self.ability("commander-initiative")
        return (ability.number or 0) if ability else 0

    @property
    def speed_text(self) -> str:
        """The speed as the card prints it: '5', 'A' for an aircraft, '-' for an obstacle."""
        if self.is_aircraft:
            return AIRCRAFT_SPEED
        return "-" if self.is_obstacle else str(self.speed)

    @property
    def type_line(self) -> str:
        """'Vehicle - Tank' or 'Soldier'."""
        return f"{self.type.title} - {self.subtype}" if self.subtype else self.type.title

    @property
    def defense_text(self) -> str:
        """'5/4' for a Vehicle with two values, '4' otherwise ('-' for an obstacle, which has none)."""
        if self.is_obstacle:
            return "-"
        if self.defense_front == self.defense_rear and not self.is_vehicle:
            return str(self.defense_front)
        return f"{self.defense_front}/{self.defense_rear}"


def points_text(points: float) -> str:
    """Points as a player reads them: '7', '0.5', '100.5' (never '7.0')."""
    return str(int(points)) if points == int(points) else str(points)


def card_id(name: str) -> str:
    """The contract card id: lower case, runs of other characters than a-z 0-9 -> '-', trimmed."""
    return slug(name)


# --- the card file ------------------------------------------------------------------------------


@attrs.frozen
class _AttackFile:
    short: int | None = None
    medium: int | None = None
    long: int | None = None


@attrs.frozen
class _DefenseFile:
    front: int
    rear: int


@attrs.frozen
class _AbilityFile:
    ability: str
    description: str | None = None


@attrs.frozen
class _CardFile:
    """The shape of a card file; values are checked further in `_check`."""

    name: str
    nation: str
    type: str
    year: int
    cost: int | float
    set: str | None = None  # the set the card came in, where known
    # Required but for obstacles, which have none: reported as missing by `_check_numbers_present`.
    speed: int | str | None = None  # "A" for an aircraft
    vs_soldiers: _AttackFile | None = None
    vs_vehicles: _AttackFile | None = None
    defense: int | _DefenseFile | None = None
    subtype: str | None = None
    collector: str | None = None
    rarity: str | None = None
    abilities: list[_AbilityFile] = attrs.Factory(list)


_CONVERTER = strict_converter()


def _structure_defense(value: Any, _type: Any) -> int | _DefenseFile | None:
    if value is None or type(value) is int:
        return value
    if isinstance(value, dict):
        return _CONVERTER.structure(value, _DefenseFile)
    raise WrongType("an integer or a table { front = N, rear = N }", value)


_CONVERTER.register_structure_hook_func(lambda t: t == int | _DefenseFile | None, _structure_defense)


def _structure_speed(value: Any, _type: Any) -> int | str | None:
    if value is None or type(value) is int or type(value) is str:
        return value
    raise WrongType("an integer", value)  # as for any number; "A" is the one text (`_check_speed`)


_CONVERTER.register_structure_hook_func(lambda t: t == int | str | None, _structure_speed)


def _structure_cost(value: Any, _type: Any) -> int | float:
    if type(value) is int or type(value) is float:
        return value
    raise WrongType("a number of points, like 7 or 0.5", value)


_CONVERTER.register_structure_hook_func(lambda t: t == int | float, _structure_cost)


def number_in_range(
    source: TomlSource, path: KeyPath, value: Any, allowed: range, what: str, out: list[Problem]
) -> int | None:
    """Check a whole number is in range (cards and armies); wrong types were already reported by
    structuring."""
    if type(value) is not int:
        return None
    if value not in allowed:
        out.append(
            source.problem(path, f"{what} {value} is out of range ({allowed.start}-{allowed.stop - 1})")
        )
        return None
    return value


def _check(source: TomlSource, data: dict[str, Any], out: list[Problem]) -> dict[str, Any]:
    """Check the values of a card file (works on the raw data, so it runs even when structuring failed)."""
    checked: dict[str, Any] = {}

    def text(key: str) -> str | None:
        value = data.get(key)
        if type(value) is not str:
            return None
        if not is_one_line(value):
            out.append(source.problem((key,), f"'{key}' must be one line of text, not empty"))
            return None
        return value.strip()

    checked["name"] = text("name")
    checked["set"] = text("set")
    nation = text("nation")
    if nation is not None:
        if slug(nation) == slug(NO_NATION):
            checked["nation"] = None
        else:
            try:
                checked["nation"] = Nation.parse(nation)
            except ValueError as error:
                out.append(source.problem(("nation",), str(error), Nation.hint(nation)))
    kind = text("type")
    if kind is not None:
        try:
            checked["type"] = UnitType(kind.lower())
        except ValueError:
            hint = did_you_mean(kind.title(), [kind.title for kind in UnitType])
            message = f"unknown type '{kind}' (Soldier, Vehicle, Obstacle or Aircraft)"
            out.append(source.problem(("type",), message, hint))
    subtype = text("subtype")
    if subtype is not None:
        known = {slug(name): name for name in SUBTYPES}
        if slug(subtype) in known:
            checked["subtype"] = known[slug(subtype)]
        else:
            hint = did_you_mean(subtype, SUBTYPES)
            out.append(source.problem(("subtype",), f"unknown subtype '{subtype}'", hint))
    rarity = text("rarity")
    if rarity is not None:
        if rarity.capitalize() in RARITIES:
            checked["rarity"] = rarity.capitalize()
        else:
            hint = did_you_mean(rarity.capitalize(), RARITIES)
            out.append(
                source.problem(("rarity",), f"unknown rarity '{rarity}' (Common, Uncommon or Rare)", hint)
            )
    collector = text("collector")
    if collector is not None:
        match = _COLLECTOR.match(collector)
        if match and 1 <= int(match.group(1)) <= int(match.group(2)):
            checked["collector"] = collector
        else:
            out.append(source.problem(("collector",), f"collector number '{collector}' is not like '12/48'"))
    checked["year"] = number_in_range(source, ("year",), data.get("year"), YEARS, "year", out)
    checked["cost"] = _check_cost(source, data.get("cost"), out)
    if _check_numbers_present(source, data, out):
        return checked | {"abilities": _check_abilities(source, data.get("abilities"), out)}
    aircraft = _is_aircraft(data)
    checked["speed"] = _check_speed(source, data.get("speed"), aircraft, out)
    _check_defense(source, data.get("defense"), checked, out)
    for key in ("vs_soldiers", "vs_vehicles"):
        table = data.get(key)
        if isinstance(table, dict):
            for band in RangeBand:
                value = table.get(band.value)
                if aircraft and band is RangeBand.LONG and band.value in table:
                    out.append(
                        source.problem(
                            (key, band.value),
                            "an aircraft attacks only at short and medium range",
                            f"leave out {key}.long",
                        )
                    )
                elif value == 0 and type(value) is int:
                    out.append(
                        source.problem(
                            (key, band.value),
                            f"{key}.{band.value} is 0",
                            "leave the key out when the unit has no attack at that range",
                        )
                    )
                else:
                    number_in_range(source, (key, band.value), value, ATTACK_DICE, f"{key}.{band.value}", out)
    checked["abilities"] = _check_abilities(source, data.get("abilities"), out)
    _check_aircraft_keyword(source, data, aircraft, out)
    return checked


def _is_aircraft(data: dict[str, Any]) -> bool:
    kind = data.get("type")
    return isinstance(kind, str) and kind.strip().lower() == UnitType.AIRCRAFT.value


def _check_speed(source: TomlSource, value: Any, aircraft: bool, out: list[Problem]) -> int | None:
    """Hexes for a Soldier or Vehicle; "A" (placed, never moved) for an aircraft, and only for one."""
    if type(value) is str:
        if value.strip().upper() != AIRCRAFT_SPEED:
            message = f"'speed' must be an integer, not {describe(value)}"
            out.append(source.problem(("speed",), message, 'or "A" for an aircraft'))
        elif not aircraft:
            hint = "write the speed in hexes, like speed = 4"
            out.append(source.problem(("speed",), 'only an aircraft has speed "A"', hint))
        return 0
    if aircraft and type(value) is int:
        hint = 'write speed = "A"'
        out.append(
            source.problem(("speed",), "an aircraft has no speed in hexes: it is placed, not moved", hint)
        )
        return None
    return number_in_range(source, ("speed",), value, SPEEDS, "speed", out)


def _check_aircraft_keyword(
    source: TomlSource, data: dict[str, Any], aircraft: bool, out: list[Problem]
) -> None:
    """The Aircraft ability is the keyword of aircraft cards: a Soldier or Vehicle may not name it."""
    entries = data.get("abilities")
    if aircraft or not isinstance(entries, list):
        return
    for index, entry in enumerate(entries):
        if isinstance(entry, dict) and type(label := entry.get("ability")) is str:
            info = find_ability(split_label(label)[0])
            if info is not None and info.id == "aircraft":
                hint = 'only a card with type = "Aircraft" has it'
                path: KeyPath = ("abilities", index, "ability")
                out.append(source.problem(path, "the Aircraft ability belongs to aircraft cards", hint))


def _check_cost(source: TomlSource, value: Any, out: list[Problem]) -> float | None:
    """A whole number of points, or a half (Barbed Wire); wrong types were reported by structuring."""
    if type(value) is not int and type(value) is not float:
        return None
    halves = value * 2
    if not math.isfinite(halves) or halves != int(halves) or int(halves) not in HALF_POINT_COSTS:
        message = f"cost {value} is out of range (0.5-200, in whole or half points)"
        out.append(source.problem(("cost",), message))
        return None
    return value if type(value) is int or value != int(value) else int(value)


#: The keys an obstacle card leaves out (it neither moves, nor attacks, nor is attacked as a unit).
_UNIT_NUMBERS = ("speed", "defense", "vs_soldiers", "vs_vehicles")


def _check_numbers_present(source: TomlSource, data: dict[str, Any], out: list[Problem]) -> bool:
    """Soldiers and Vehicles need speed, defense and attacks; obstacles have none. True: an obstacle."""
    kind = data.get("type")
    if isinstance(kind, str) and kind.strip().lower() == UnitType.OBSTACLE.value:
        for key in _UNIT_NUMBERS:
            if key in data:
                out.append(source.problem((key,), f"an obstacle has no {key.replace('_', ' ')}"))
        return True
    for key in ("speed", "vs_soldiers", "vs_vehicles"):
        if key not in data:
            hint = 'an aircraft writes speed = "A"' if key == "speed" and _is_aircraft(data) else ""
            out.append(source.problem((), f"missing key '{key}'", hint))
    return False


def _check_defense(source: TomlSource, value: Any, checked: dict[str, Any], out: list[Problem]) -> None:
    """Ranges and the one-value rule for Soldiers; the shape was checked by structuring."""
    aircraft = _is_aircraft(source.data)
    if "defense" not in source.data:
        hint = "defense = 4" if aircraft else "defense = 4, or defense = { front = 5, rear = 4 }"
        out.append(source.problem((), "missing key 'defense'", hint))
        return
    if type(value) is int:
        number = number_in_range(source, ("defense",), value, DEFENSES, "defense", out)
        checked["defense"] = (number, number)
        return
    if not isinstance(value, dict):
        return
    if aircraft:
        hint = "write one number, like defense = 4"
        out.append(source.problem(("defense",), "an aircraft has one defense for every direction", hint))
        return
    front, rear = (
        number_in_range(source, ("defense", key), value.get(key), DEFENSES, f"defense.{key}", out)
        for key in ("front", "rear")
    )
    kind = source.data.get("type")
    if isinstance(kind, str) and kind.lower() == "soldier" and front and rear and front != rear:
        out.append(source.problem(("defense",), f"a Soldier has one defense value, not {front}/{rear}"))
    checked["defense"] = (front, rear)


def _check_abilities(source: TomlSource, value: Any, out: list[Problem]) -> list[AbilityRef]:
    if not isinstance(value, list):
        return []
    refs: list[AbilityRef] = []
    seen: set[str] = set()
    names = sorted(info.name for info in ABILITIES.values())
    for index, entry in enumerate(value):
        if not isinstance(entry, dict) or type(entry.get("ability")) is not str:
            continue  # reported by structuring
        path: KeyPath = ("abilities", index, "ability")
        label = entry["ability"]
        name, number = split_label(label)
        info = find_ability(name)
        if info is None:
            out.append(source.problem(path, f"unknown ability '{name}'", source.hints(name, names)))
            continue
        if info.takes_number and number is None:
            out.append(source.problem(path, f"ability '{info.name}' needs a number, like '{info.label(2)}'"))
            continue
        if not info.takes_number and number is not None:
            out.append(source.problem(path, f"ability '{info.name}' takes no number (found '{label}')"))
            continue
        if number is not None and number not in ABILITY_NUMBERS:
            out.append(
                source.problem(path, f"'{label}': {number} is out of range (1-{ABILITY_NUMBERS.stop - 1})")
            )
            continue
        if info.id in seen:
            out.append(source.problem(path, f"ability '{info.name}' is listed twice"))
            continue
        seen.add(info.id)
        description = entry.get("description")
        if description is None:
            description = info.describe(number)
        elif type(description) is not str:
            continue  # reported by structuring
        elif not is_one_line(description):
            out.append(
                source.problem((*path[:2], "description"), "an ability description is one line, not empty")
            )
            continue
        refs.append(AbilityRef(info.id, info.name, number, description.strip(), info.commander))
    return refs


def parse_card(data: bytes | str, card_id_: str, file: str | None = None) -> StatCard:
    """A card from the text of a card file; `card_id_` is its id (the file name without .toml)."""
    file = file or f"{card_id_}.toml"
    return _build(parse_toml(data, file), card_id_)


def load_card(path: str | Path) -> StatCard:
    """Read one card file `cards/<id>.toml`; raises MinisError with all its problems."""
    path = Path(path)
    return _build(read_toml(path), path.stem)


def _build(source: TomlSource, card_id_: str) -> StatCard:
    raw, problems = structure(source, _CardFile, _CONVERTER)
    if card_id(card_id_) != card_id_:
        problems.insert(
            0,
            Problem(
                source.file,
                1,
                1,
                f"'{card_id_}' is not a card id",
                f"call the file '{card_id(card_id_)}.toml'",
            ),
        )
    checked = _check(source, source.data, problems)
    if problems:
        raise MinisError(sorted_problems(problems))
    assert raw is not None
    front, rear = checked.get("defense", (0, 0))
    nation: Nation | None = checked["nation"]
    return StatCard(
        id=card_id_,
        name=checked["name"],
        nation=nation,
        side=nation.side if nation is not None else None,
        type=checked["type"],
        subtype=checked.get("subtype"),
        year=checked["year"],
        cost=checked["cost"],
        speed=checked.get("speed", 0),
        defense_front=front,
        defense_rear=rear,
        vs_soldiers=_attack(raw.vs_soldiers),
        vs_vehicles=_attack(raw.vs_vehicles),
        abilities=tuple(checked["abilities"]),
        set_name=checked.get("set"),
        collector=checked.get("collector"),
        rarity=checked.get("rarity"),
    )


def _attack(table: _AttackFile | None) -> Attack:
    return Attack() if table is None else Attack(table.short, table.medium, table.long)


def sorted_problems(problems: list[Problem]) -> list[Problem]:
    """A file's problems once each, in the order they stand in the file (cards and armies)."""
    unique = list(dict.fromkeys(problems))
    return sorted(unique, key=lambda problem: (problem.line, problem.col))


def load_cards(directory: str | Path, index: Path | None = None) -> dict[str, StatCard]:
    """Every `*.toml` card in a folder, by id; the problems of all files are raised together.

    With `index` (`minis.content.card_index`: a file in the user's cache folder), a card file unchanged since
    the index was written is taken from it instead of parsed (the catalogue's 473 files take a quarter
    of a second to parse); a changed, new or broken file is read as without one, so its problems are
    the same, and the index is written again when anything changed.
    """
    directory = Path(directory)
    found = look(directory)
    if found.kind != "folder":
        message = "no such card folder" if found.missing else found.reason or "a file, not a card folder"
        raise MinisError(Problem(str(directory), 0, 0, message), exit_code=2)
    files = files_in(directory)
    if not files:  # a wrong folder would otherwise look like "no cards at all"
        hint = "card files are named after the card id, like m4a1-sherman.toml"
        raise MinisError(Problem(str(directory), 0, 0, "no card files (*.toml) in this folder", hint), 2)
    version = card_index.loader_version(_LOADER_MODULES) if index is not None else ""
    known = card_index.read_index(index, version)
    entries: card_index.Entries = {}
    cards: dict[str, StatCard] = {}
    problems: list[Problem] = []
    exit_code = 1
    for path in files:
        stamp = card_index.stamp(path) if index is not None else None
        entry = known.get(path.name)
        plain = entry[1] if entry is not None and entry[0] == stamp else None
        card = _from_plain(path.stem, plain) if plain is not None else None
        if card is None:
            plain = None
            try:
                card = load_card(path)
            except MinisError as error:
                problems.extend(error.problems)
                exit_code = max(exit_code, error.exit_code)
                continue
        cards[card.id] = card
        if stamp is not None:
            entries[path.name] = (stamp, _plain(card) if plain is None else plain)
    if problems:
        raise MinisError(problems, exit_code=exit_code)
    changed = entries.keys() != known.keys() or any(known[n][0] != st for n, (st, _) in entries.items())
    if index is not None and changed:
        card_index.write_index(index, version, entries)
    return cards


#: The modules whose code decides what a card file gives (their stamps version the index).
_LOADER_MODULES = (
    "minis.cards",
    "minis.content.card_index",
    "minis.content.ability_catalogue",
    "minis.base.tomlfile",
    "minis.base.limits",
    "minis.base.sides",
)


def _plain(card: StatCard) -> list[Any]:
    """A card as JSON values for the index (`_from_plain` makes it again; its id is the file's name)."""
    return [
        card.name,
        card.nation.value if card.nation is not None else None,
        card.type.value,
        card.subtype,
        card.year,
        card.cost,
        card.speed,
        card.defense_front,
        card.defense_rear,
        [card.vs_soldiers.short, card.vs_soldiers.medium, card.vs_soldiers.long],
        [card.vs_vehicles.short, card.vs_vehicles.medium, card.vs_vehicles.long],
        [[a.id, a.name, a.number, a.description, a.commander] for a in card.abilities],
        card.set_name,
        card.collector,
        card.rarity,
    ]


def _from_plain(card_id_: str, plain: Any) -> StatCard | None:
    """The card `_plain` gave, or None when the entry is not one (the file is parsed instead)."""
    try:
        name, nation_name, type_name, subtype, year, cost, speed, front, rear = plain[:9]
        soldiers, vehicles, refs, set_name, collector, rarity = plain[9:]
        nation = Nation(nation_name) if nation_name is not None else None
        abilities = tuple(
            AbilityRef(ability, label, number, description, commander)
            for ability, label, number, description, commander in refs
        )
        if not all(ref.id in ABILITIES for ref in abilities):
            return None
        return StatCard(
            id=card_id_,
            name=name,
            nation=nation,
            side=nation.side if nation is not None else None,
            type=UnitType(type_name),
            subtype=subtype,
            year=year,
            cost=cost,
            speed=speed,
            defense_front=front,
            defense_rear=rear,
            vs_soldiers=Attack(*soldiers),
            vs_vehicles=Attack(*vehicles),
            abilities=abilities,
            set_name=set_name,
            collector=collector,
            rarity=rarity,
        )
    except (TypeError, ValueError, KeyError):
        return None


def cards_folder() -> Path:
    """The shipped `cards/` folder (minis.base.data: the repository's, or the installed wheel's copy)."""
    return shipped_folder("cards")


@functools.cache
def card_catalogue() -> dict[str, StatCard]:
    """All shipped cards by id (loaded once a process, through the index in the user's cache folder)."""
    folder = cards_folder()
    return load_cards(folder, card_index.index_file(folder, "cards"))


# --- writing ------------------------------------------------------------------------------------


def _attack_table(attack: Attack) -> str:
    items = [f"{band.value} = {attack.at(band)}" for band in RangeBand if attack.at(band) is not None]
    return "{ " + ", ".join(items) + " }" if items else "{}"


def dump_card(card: StatCard) -> str:
    """The canonical card file text for a card (`parse_card(dump_card(c), c.id) == c`)."""
    lines = [
        f"name = {toml_string(card.name)}",
        f"nation = {toml_string(card.nation.value if card.nation is not None else NO_NATION)}",
        f"type = {toml_string(card.type.title)}",
    ]
    if card.subtype:
        lines.append(f"subtype = {toml_string(card.subtype)}")
    lines += [f"year = {card.year}", f"cost = {card.cost}"]
    if not card.is_obstacle:
        lines.append(
            f"speed = {toml_string(AIRCRAFT_SPEED)}" if card.is_aircraft else f"speed = {card.speed}"
        )
        if card.is_vehicle or card.defense_front != card.defense_rear:
            lines.append(f"defense = {{ front = {card.defense_front}, rear = {card.defense_rear} }}")
        else:
            lines.append(f"defense = {card.defense_front}")
        lines += [
            f"vs_soldiers = {_attack_table(card.vs_soldiers)}",
            f"vs_vehicles = {_attack_table(card.vs_vehicles)}",
        ]
    if card.set_name:
        lines.append(f"set = {toml_string(card.set_name)}")
    if card.collector:
        lines.append(f"collector = {toml_string(card.collector)}")
    if card.rarity:
        lines.append(f"rarity = {toml_string(card.rarity)}")
    for ability in card.abilities:
        lines += [
            "",
            "[[abilities]]",
            f"ability = {toml_string(ability.text)}",
            f"description = {toml_string(ability.description)}",
        ]
    return "\n".join(lines) + "\n"
