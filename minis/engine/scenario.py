"""Scenario files: the terms of a battle, written by a designer (docs/scenarios.md).

A scenario names the battle map (a rolled or chosen configuration, a configuration number, or a map
file), the two players (fixed sides, `[axis]` and `[allies]`, or roles, `[attacker]` and `[defender]`),
each player's army limits (points, units, year, historical limits) and deployment zone, the victory
conditions checked at the end of every turn, and optional preset units already on the map.

The rulebook's two scenarios ship as files (`scenarios/standard.toml`, `scenarios/assault.toml`), so the
engine plays them the same way as a designer's own. Every mistake in a file is reported at once, each
as `FILE:LINE:COL: message` (`minis.base.errors.MinisError`). `dump_scenario` writes the canonical layout the
shipped files use: loading and writing one back gives the same bytes.

The engine asks a loaded `Scenario` for deployment zones (`zone`), the winner at the end of a turn
(`winner`) and which units get off the map (`leave_map`); it never reads the file itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from minis import abilities
from minis.army import MAX_UNITS, Army, ArmyProblem, locate, messages, rule_problems, wrong_side
from minis.base import atomic
from minis.base.data import shipped_file, shipped_folder
from minis.base.errors import MinisError, Problem, did_you_mean, unreadable
from minis.base.limits import MAX_ARMY_POINTS, MAX_ARMY_UNITS, MAX_TURNS
from minis.base.paths import UnreadablePath, is_file, look, resolved
from minis.base.sides import Side
from minis.base.tomlfile import (
    KeyPath,
    TomlSource,
    describe,
    is_one_line,
    leading_comments,
    parse_toml,
    read_toml,
    strict_converter,
    structure,
    toml_string,
)
from minis.board import ENDS, ZONE_DEPTH, Board
from minis.cards import YEARS, StatCard, card_catalogue
from minis.content import rule_sets
from minis.content.rule_sets import RULEBOOK, RuleSet
from minis.content.unit_ids import preset_ids
from minis.dice import Dice
from minis.engine.ability_loader import standard_abilities
from minis.engine.battle import Battle
from minis.engine.terms import (
    Exit,
    Hold,
    ObjectiveFrom,
    PointsFrom,
    PresetUnit,
    SideTerms,
    Terms,
    Victory,
    fixed_ends,
    other_end,
    standard,
)
from minis.game import Game
from minis.hexgrid import Facing, Hex
from minis.mapfile import check_file, load_configuration
from minis.rules.air import OFF_MAP
from minis.rules.sequence import CONFIGURATIONS
from minis.rules.setup import objective_of
from minis.rules.stacking import room_for
from minis.rules.zones import LABEL, expand_token, hexes_text, token_problem, tokens, zone_hexes
from minis.state import BattleKind, GameState, Unit

#: Where the shipped scenarios live (minis.base.data: the repository's, or the installed wheel's copy).
SCENARIOS_DIR = shipped_folder("scenarios")

SIDE_ROLES = ("axis", "allies")
ATTACK_ROLES = ("attacker", "defender")
ROLES = SIDE_ROLES + ATTACK_ROLES
#: `map =` words: one die picks the configuration / the defender chooses one.
MAP_ROLL, CHOOSE = "roll", "choose"
#: `objective =` word: the map's own objective (the default).
OWN = "map"
HALF = "half"
#: The same word under a name that does not clash with map files' half-hexes.
HALF_ZONE = HALF
VICTORY_KINDS = ("objective", "points", "hold", "exit")
#: The fields each kind of victory condition takes (and needs: REQUIRED).
VICTORY_FIELDS = {
    "objective": ("from_turn", "side"),
    "points": ("from_turn",),
    "hold": ("turn", "side"),
    "exit": ("side", "units", "points", "by_turn"),
}
REQUIRED = {"objective": ("from_turn",), "points": ("from_turn",), "hold": ("turn",), "exit": ("side",)}
TOP_KEYS = (
    "kind",
    "title",
    "description",
    "map",
    "objective",
    "turns",
    rule_sets.RULES_KEY,  # the rule set (docs/contracts.md#rule-sets-in-files; left out: 2005)
    rule_sets.OPTIONS_KEY,  # options set over it: a custom set (docs/rule-sets.md)
    *ROLES,
    "victory",
    "units",
)


# --- documents -----------------------------------------------------------------------------------


@attrs.frozen
class Force:
    """One player's terms: army limits, end of the map, deployment zone.

    `zone` is a depth (the first N full hexes of every row at the player's end), `"half"` (its half of
    the map) or hexes: entries of labels and row ranges such as `"A1-A5"`. `side` is only for the
    attacker: which side attacks (`axis`, `allies` or `either`: the players decide).
    """

    points: int = 100
    units: int = MAX_UNITS
    year: int | None = None
    historical: bool = False
    end: str | None = None
    zone: int | str | tuple[str, ...] = ZONE_DEPTH
    side: str | None = None


@attrs.frozen
class Condition:
    """A victory condition, checked at the end of every turn in file order; the first winner wins."""

    kind: str
    from_turn: int | None = None
    turn: int | None = None
    side: str | None = None
    units: int | None = None
    points: int | None = None
    by_turn: int | None = None


@attrs.frozen
class Preset:
    """A unit the scenario puts on the map before deployment (it does not count against army limits,
    nor for points). It stays where it is unless `deploy`: then its player may deploy it again."""

    side: str
    card: str
    at: str
    facing: str | None = None
    id: str | None = None
    deploy: bool = False


@attrs.frozen
class ScenarioDoc:
    """What a scenario file says, kept so it can be written back."""

    title: str
    map: int | str
    forces: tuple[tuple[str, Force], ...]
    victory: tuple[Condition, ...]
    units: tuple[Preset, ...] = ()
    description: str = ""
    objective: str = OWN
    turns: int | None = None
    notes: tuple[str, ...] = ()
    #: The rule set the battle is played under (`rules = "NAME"` and `[rule_options]`).
    rules: RuleSet = RULEBOOK
    #: The file names its set even where it is the default (`rules = "2005"`): written back so.
    rules_named: bool = False

    @property
    def roles(self) -> tuple[str, str]:
        return ATTACK_ROLES if any(role in ATTACK_ROLES for role, _ in self.forces) else SIDE_ROLES

    @property
    def is_attack(self) -> bool:
        return self.roles == ATTACK_ROLES

    def force(self, role: str) -> Force:
        for name, force in self.forces:
            if name == role:
                return force
        raise KeyError(role)

    def with_force(self, role: str, force: Force) -> ScenarioDoc:
        forces = tuple((name, force if name == role else old) for name, old in self.forces)
        return attrs.evolve(self, forces=forces)

    @property
    def map_file(self) -> str | None:
        """The map file the scenario names (relative to the scenario's folder), or None."""
        if isinstance(self.map, str) and self.map not in (MAP_ROLL, CHOOSE):
            return self.map
        return None


# --- reading ---------------------------------------------------------------------------------------


@attrs.frozen
class _ForceFile:
    """`Force` as written: any zone value (`_read_zone` checks it). Conditions and presets are read
    straight into `Condition` and `Preset`, whose fields are the file's."""

    points: int = 100
    units: int = MAX_UNITS
    year: int | None = None
    historical: bool = False
    end: str | None = None
    zone: Any = ZONE_DEPTH
    side: str | None = None


_CONVERTER = strict_converter()


class _Report:
    """Problems of one file, with positions found in its text."""

    def __init__(self, source: TomlSource) -> None:
        self.source = source
        self.problems: list[Problem] = []
        #: The `[[units]]` table of each preset unit kept in the document (bad ones are left out), so
        #: that later problems of a preset point at its own table.
        self.preset_tables: list[int] = []

    def preset(self, index: int, *keys: str) -> KeyPath:
        """The key path of preset unit number `index` of the document (and a key of its table)."""
        tables = self.preset_tables
        return ("units", tables[index] if index < len(tables) else index, *keys)

    def add(self, path: KeyPath, message: str, hint: str = "") -> None:
        self.problems.append(self.source.problem(path, message, hint))

    def add_at(self, spot: tuple[int, int], message: str, hint: str = "") -> None:
        self.problems.append(Problem(self.source.file, spot[0], spot[1], message, hint))

    def item(self, path: KeyPath, index: int, char: int = 0) -> tuple[int, int]:
        """Where string number `index` of the array at `path` starts (plus `char` characters)."""
        layout = self.source.layout
        found = layout.strings(path)
        if index < len(found):
            line, col = layout.spot(found[index])
            return (line, col + char)
        return self.source.where(path)

    def raise_if_any(self, exit_code: int = 1) -> None:
        if self.problems:
            unique = list(dict.fromkeys(self.problems))
            own = self.source.file
            order = sorted(unique, key=lambda p: (p.file != own, p.file, p.line, p.col))
            raise MinisError(order, exit_code=exit_code)


def _one_line(report: _Report, data: Mapping[str, Any], key: str, *, required: bool = False) -> str | None:
    value = data.get(key)
    if value is None:
        if required:
            report.add((), f"missing '{key}'", f'add {key} = "..."')
        return None
    if not isinstance(value, str):
        report.add((key,), f"'{key}' must be a string in quotes, not {describe(value)}", f'{key} = "..."')
        return None
    if not is_one_line(value):
        report.add((key,), f"'{key}' must be one line of text, not empty")
        return None
    return value


def _positive(report: _Report, path: KeyPath, value: int | None, what: str) -> None:
    if value is not None and value < 1:
        report.add(path, f"{what} must be 1 or more, not {value}")


def _read_map(report: _Report, data: Mapping[str, Any]) -> int | str | None:
    value = data.get("map")
    hint = 'map = "roll" (a die picks 1-6), map = 3, map = "choose" (the defender chooses), map = "ford.toml"'
    if value is None:
        report.add((), "missing 'map': which battle map the scenario is played on", hint)
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        report.add(("map",), f"'map' must be a configuration number or a string, not {describe(value)}", hint)
        return None
    if isinstance(value, int):
        if not 1 <= value <= 6:
            report.add(("map",), f"there is no configuration {value} (1 to 6)", hint)
            return None
        return value
    if not value.strip():
        report.add(("map",), "'map' is empty", hint)
        return None
    if value in (MAP_ROLL, CHOOSE) or value.lower().endswith(".toml"):
        return value  # a file name the system refuses is reported when the file is opened
    if value.strip().isdigit():
        report.add(
            ("map",), f"'map' is the string {value!r}", f"write the number without quotes: map = {value}"
        )
        return None
    close = did_you_mean(value, [MAP_ROLL, CHOOSE])
    report.add(("map",), f"unknown map {value!r}", close or hint)
    return None


def _read_zone(report: _Report, path: KeyPath, value: Any) -> int | str | tuple[str, ...] | None:
    hint = 'zone = 5 (the first 5 hexes of every row at its end), zone = "half", or zone = ["A1-A5", "B1-B4"]'
    if isinstance(value, bool):
        report.add(path, f"'zone' must be a number, \"half\" or a list of hexes, not {describe(value)}", hint)
        return None
    if isinstance(value, int):
        if value < 1:
            report.add(path, f"a zone depth must be 1 or more, not {value}", hint)
            return None
        return value
    if isinstance(value, str):
        if value == HALF:
            return value
        report.add(path, f"unknown zone {value!r}", did_you_mean(value, [HALF]) or hint)
        return None
    if isinstance(value, list):
        entries: list[str] = []
        for index, item in enumerate(value):
            if not isinstance(item, str):
                report.add_at(report.item(path, index), f"entry {index + 1} of 'zone' is not a string", hint)
                continue
            for start, token in tokens(item):
                problem = token_problem(token)
                if problem:
                    report.add_at(
                        report.item(path, index, start),
                        problem,
                        "a label like B3, or a range in one row like B1-B5",
                    )
            if item.strip():
                entries.append(item)
        if not entries:
            report.add(path, "the zone lists no hexes", hint)
            return None
        return tuple(entries)
    report.add(path, f"'zone' must be a number, \"half\" or a list of hexes, not {describe(value)}", hint)
    return None


def _typed(table: Mapping[str, Any], key: str, kind: type) -> Any:
    """The value of `key` if it has the right TOML type (wrong types are cattrs' to report), else None."""
    value = table.get(key)
    if kind is int and isinstance(value, bool):
        return None
    return value if isinstance(value, kind) else None


def _read_force(report: _Report, data: Mapping[str, Any], role: str) -> Force | None:
    value = data[role]
    if not isinstance(value, dict):
        report.add((role,), f"'{role}' must be a table: [{role}]", f"[{role}]\npoints = 100")
        return None
    raw, problems = structure(report.source, _ForceFile, _CONVERTER, value, (role,))
    report.problems.extend(problems)
    good = raw is not None
    # the checks of values whose type is right run even when another value is wrong: all problems at once
    for key, what, most in (
        ("points", "the points limit", MAX_ARMY_POINTS),
        ("units", "the unit limit", MAX_ARMY_UNITS),
    ):
        amount = _typed(value, key, int)
        if amount is not None and amount < 1:
            report.add((role, key), f"{what} must be 1 or more, not {amount}")
            good = False
        elif amount is not None and amount > most:  # an army's draw and check take work in proportion
            report.add(
                (role, key), f"{what} must be at most {most}, not {amount:,}", f"{key} = {min(100, most)}"
            )
            good = False
    year = _typed(value, "year", int)
    if year is not None and year not in YEARS:
        report.add((role, "year"), f"year {year} is out of range ({YEARS.start}-{YEARS.stop - 1})")
        good = False
    end = _typed(value, "end", str)
    if end is not None and end not in ENDS:
        hint = did_you_mean(end, ENDS) or 'end = "west" or end = "east"'
        report.add((role, "end"), f"unknown end {end!r}", hint)
        good = False
    side = _typed(value, "side", str)
    if side is not None:
        if role != "attacker":
            report.add(
                (role, "side"),
                f"'side' goes only in [attacker]: the [{role}] table's side is "
                + ("its name" if role in SIDE_ROLES else "the attacker's opponent"),
            )
            good = False
        elif side not in (*SIDE_ROLES, "either"):
            hint = did_you_mean(side, [*SIDE_ROLES, "either"]) or 'side = "axis", "allies" or "either"'
            report.add((role, "side"), f"unknown side {side!r}", hint)
            good = False
    zone = _read_zone(report, (role, "zone"), value.get("zone", ZONE_DEPTH))
    if isinstance(zone, tuple) and "end" not in value:
        report.add(
            (role, "zone"),
            "a zone of listed hexes needs a fixed end for this player",
            'add end = "west" (or "east") to the table',
        )
        good = False
    if zone is None or raw is None:
        return None
    # a force with problems is still returned (its bad values left out), so checks against the map can run
    return Force(
        min(max(1, raw.points), MAX_ARMY_POINTS),
        min(max(1, raw.units), MAX_ARMY_UNITS),
        raw.year if raw.year in YEARS else None,
        raw.historical,
        raw.end if raw.end in ENDS else None,
        zone if good or not isinstance(zone, tuple) or raw.end in ENDS else ZONE_DEPTH,
        raw.side if raw.side in (*SIDE_ROLES, "either") and role == "attacker" else None,
    )


def _read_forces(report: _Report, data: Mapping[str, Any]) -> tuple[tuple[str, Force], ...] | None:
    sides = [role for role in SIDE_ROLES if role in data]
    attack = [role for role in ATTACK_ROLES if role in data]
    if sides and attack:
        report.add(
            (attack[0],),
            f"[{attack[0]}] and [{sides[0]}] don't go together",
            "fixed sides: [axis] and [allies]; roles chosen when the game starts: [attacker] and [defender]",
        )
        return None
    roles = ATTACK_ROLES if attack else SIDE_ROLES
    missing = [role for role in roles if role not in data]
    for role in missing:
        report.add((), f"missing [{role}]: the {role} player's terms", f"[{role}]\npoints = 100\nzone = 5")
    forces = [(role, _read_force(report, data, role)) for role in roles if role in data]
    if missing or any(force is None for _, force in forces):
        return None
    result = tuple((role, force) for role, force in forces if force is not None)
    ends = [(role, force.end) for role, force in result if force.end is not None]
    if len(ends) == 2 and ends[0][1] == ends[1][1]:
        report.add(
            (ends[1][0], "end"), f"both players are at the {ends[0][1]} end", "give them opposite ends"
        )
        return None
    if roles == ATTACK_ROLES and dict(result)["attacker"].side is None:
        report.add(
            ("attacker",),
            "[attacker] needs 'side': which side attacks",
            'side = "either" (the players decide), "axis" or "allies"',
        )
        return None
    return result


def _role_hint(roles: Sequence[str]) -> str:
    return " or ".join(f'"{role}"' for role in roles)


def _entries(
    report: _Report, data: Mapping[str, Any], key: str, cls: type, example: str
) -> Iterator[tuple[KeyPath, dict[str, Any], Any]] | None:
    """(path, table, `cls` read from it) of each `[[key]]` table, the tables that can't be read
    reported and left out; None (reported) when `key` is not an array of tables.

    The tables are read one by one as the caller asks, so each table's problems follow the ones before.
    """
    value = data[key]
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        report.add((key,), f"'{key}' must be tables: [[{key}]]", example)
        return None
    return _structured(report, key, value, cls)


def _structured(
    report: _Report, key: str, tables: list[dict[str, Any]], cls: type
) -> Iterator[tuple[KeyPath, dict[str, Any], Any]]:
    for index, item in enumerate(tables):
        path: KeyPath = (key, index)
        raw, problems = structure(report.source, cls, _CONVERTER, item, path)
        report.problems.extend(problems)
        if raw is not None:
            yield path, item, raw


def _read_victory(report: _Report, data: Mapping[str, Any], roles: Sequence[str]) -> tuple[Condition, ...]:
    value = data.get("victory")
    example = '[[victory]]\nkind = "objective"\nfrom_turn = 7'
    if value is None:
        report.add((), "missing [[victory]]: how the battle is won", example)
        return ()
    entries = _entries(report, data, "victory", Condition, example)
    if entries is None:
        return ()
    conditions = []
    for path, item, raw in entries:
        if raw.kind not in VICTORY_KINDS:
            hint = report.source.hints(raw.kind, VICTORY_KINDS) or f"kinds: {', '.join(VICTORY_KINDS)}"
            report.add((*path, "kind"), f"unknown kind of victory {raw.kind!r}", hint)
            continue
        fields = VICTORY_FIELDS[raw.kind]
        good = True
        for key in item:
            if key != "kind" and key not in fields:
                report.add(
                    (*path, key),
                    f"'{key}' does not go with kind \"{raw.kind}\"",
                    f"it takes: {', '.join(fields)}",
                )
                good = False
        for key in REQUIRED[raw.kind]:
            if key not in item:
                report.add(path, f"a victory of kind \"{raw.kind}\" needs '{key}'", f"{key} = ...")
                good = False
        for key in ("from_turn", "turn", "by_turn", "units", "points"):
            amount = getattr(raw, key)
            if amount is not None and amount < 1:
                report.add((*path, key), f"'{key}' must be 1 or more, not {amount}")
                good = False
        if raw.side is not None and raw.side not in roles:
            hint = report.source.hints(raw.side, roles) or f"this scenario's players: {_role_hint(roles)}"
            report.add((*path, "side"), f"unknown side {raw.side!r}", hint)
            good = False
        if raw.kind == "hold" and raw.side is None and roles != ATTACK_ROLES:
            report.add(
                path, "a hold victory needs 'side': the player who holds the objective", 'side = "axis"'
            )
            good = False
        if raw.kind == "exit" and (raw.units is None) == (raw.points is None):
            report.add(
                path,
                "an exit victory needs 'units' (how many must get off the map) or 'points', one of them",
                "units = 3",
            )
            good = False
        if good:
            side = raw.side if raw.side is not None or raw.kind != "hold" else "defender"
            conditions.append(attrs.evolve(raw, side=side))
    if not value:
        report.add(("victory",), "the scenario has no victory condition", example)
    return tuple(conditions)


def _read_presets(report: _Report, data: Mapping[str, Any], roles: Sequence[str]) -> tuple[Preset, ...]:
    value = data.get("units")
    if value is None:
        return ()
    entries = _entries(report, data, "units", Preset, '[[units]]\nside = "axis"\ncard = "..."')
    if entries is None:
        return ()
    presets = []
    for path, _, raw in entries:
        good = True
        if raw.side not in roles:
            hint = report.source.hints(raw.side, roles) or f"this scenario's players: {_role_hint(roles)}"
            report.add((*path, "side"), f"unknown side {raw.side!r}", hint)
            good = False
        if not LABEL.match(raw.at.strip()) and raw.at.strip().lower() != OFF_MAP:
            report.add(
                (*path, "at"),
                f"'{raw.at}' is not a hex label",
                'a row letter and a number, like E9 (or "off" for an aircraft)',
            )
            good = False
        if raw.facing is not None and raw.facing.strip().upper() not in Facing.__members__:
            report.add((*path, "facing"), f"unknown facing {raw.facing!r}", "one of E NE NW W SW SE")
            good = False
        if raw.id is not None and not is_one_line(raw.id):
            report.add((*path, "id"), "'id' must be one line of text, not empty")
            good = False
        if good:
            presets.append(attrs.evolve(raw, card=raw.card.strip(), at=raw.at.strip()))
            report.preset_tables.append(int(path[1]))
    return tuple(presets)


def parse_scenario_doc(text: str | bytes, file: str = "scenario.toml") -> ScenarioDoc:
    """A scenario file's text to its document (format only: the map is not read); MinisError otherwise."""
    source = parse_toml(text, file)
    return _document(source)


def _document(source: TomlSource) -> ScenarioDoc:
    doc, report = _read(source)
    report.raise_if_any()
    assert doc is not None
    return doc


def _read(source: TomlSource) -> tuple[ScenarioDoc | None, _Report]:
    """The document (None if its skeleton is broken) and every problem of its form."""
    report = _Report(source)
    data = source.data
    kind = data.get("kind")
    if kind is None:
        report.add((), "missing 'kind'", 'say what the file is at the top: kind = "scenario"')
        return None, report
    if kind != "scenario":
        if kind in ("section", "configuration", "map"):
            report.add(("kind",), f"this is a {kind} file, not a scenario", "give a scenario file here")
        else:
            report.add(("kind",), f"unknown kind {kind!r}", 'kind = "scenario"')
        return None, report
    for key in data:
        if key not in TOP_KEYS:
            hint = report.source.hints(key, TOP_KEYS) or f"known keys: {', '.join(TOP_KEYS)}"
            report.add((key,), f"unknown key '{key}'", hint)
    title = _one_line(report, data, "title", required=True)
    description = _one_line(report, data, "description") or ""
    map_ = _read_map(report, data)
    objective = _one_line(report, data, "objective") or OWN
    if objective not in (OWN, CHOOSE) and not LABEL.match(objective.strip()):
        objective = OWN
        report.add(
            ("objective",),
            f"'{objective}' is not a hex label",
            'objective = "E9", "map" (the map\'s own objective) or "choose" (the defender chooses)',
        )
    turns = data.get("turns")
    if turns is not None and (isinstance(turns, bool) or not isinstance(turns, int)):
        report.add(("turns",), f"'turns' must be a whole number, not {describe(turns)}", "turns = 12")
        turns = None
    _positive(report, ("turns",), turns, "'turns'")
    if turns is not None and turns > MAX_TURNS:  # a battle nobody wins plays on to its last turn
        report.add(("turns",), f"'turns' must be at most {MAX_TURNS:,}, not {turns:,}", "turns = 12")
        turns = None
    rules = rule_sets.read(source, report.problems)
    forces = _read_forces(report, data)
    roles = ATTACK_ROLES if any(r in data for r in ATTACK_ROLES) else SIDE_ROLES
    victory = _read_victory(report, data, roles)
    presets = _read_presets(report, data, roles)
    if roles == ATTACK_ROLES and map_ == MAP_ROLL:
        report.add(
            ("map",),
            "in a scenario with an attacker the defender chooses the map, or the scenario names it",
            'map = "choose", a number 1-6 or a map file',
        )
    if map_ in (MAP_ROLL, CHOOSE) and objective not in (OWN, CHOOSE):
        report.add(
            ("objective",),
            f"a fixed objective needs a fixed map; this one is {'rolled' if map_ == MAP_ROLL else 'chosen'}",
            "name the map (map = 3 or a file), or leave the objective to the map",
        )
    if map_ == CHOOSE and objective == OWN and roles == ATTACK_ROLES:
        report.add(
            ("map",),
            'when the defender chooses the map it chooses the objective too: add objective = "choose"',
        )
    if CHOOSE in (map_, objective) and roles != ATTACK_ROLES:
        key = "map" if map_ == CHOOSE else "objective"
        report.add(
            (key,),
            f'{key} = "choose" means the defender chooses: it needs [attacker] and [defender]',
            f"or name it: {key} = 3" if key == "map" else 'or name it: objective = "E9"',
        )
    if title is None or map_ is None or forces is None:
        return None, report
    return ScenarioDoc(
        title=title,
        map=map_,
        forces=forces,
        victory=victory,
        units=presets,
        description=description,
        objective=objective,
        turns=turns,
        notes=leading_comments(source.text),
        rules=rules,
        rules_named=rule_sets.RULES_KEY in data,
    ), report


# --- the loaded scenario ----------------------------------------------------------------------------


def zone_entries(board: Board, hexes: Iterable[Hex]) -> tuple[str, ...]:
    """Hexes as zone entries, one per row, runs written as ranges (`"A1-A5"`): what the editor saves."""
    chosen = set(hexes)
    entries = []
    for r in range(board.rows):
        row = board.row(r)
        parts: list[str] = []
        run: list[Hex] = []
        for hex_ in [*row, None]:
            if hex_ is not None and hex_ in chosen:
                run.append(hex_)
                continue
            if run:
                a, b = board.label(run[0]), board.label(run[-1])
                parts.append(a if len(run) == 1 else f"{a}-{b}")
                run = []
        if parts:
            entries.append(" ".join(parts))
    return tuple(entries)


@attrs.frozen
class Scenario:
    """A checked scenario file and its map: the one type called Scenario (what the file says is its
    `ScenarioDoc`; the rulebook's kinds of battle are `BattleKind`). `board` is None when the map is
    rolled or chosen at set-up."""

    doc: ScenarioDoc
    file: str
    board: Board | None
    configuration: int | None = None
    map_path: Path | None = None

    @property
    def title(self) -> str:
        return self.doc.title

    @property
    def roles(self) -> tuple[str, str]:
        return self.doc.roles

    @property
    def is_attack(self) -> bool:
        return self.doc.is_attack

    @property
    def attacker_side(self) -> Side | None:
        """The side that attacks, when the scenario fixes it (None: players decide, or no attacker)."""
        if not self.is_attack:
            return None
        side = self.doc.force("attacker").side
        return Side.parse(side) if side in SIDE_ROLES else None

    @property
    def stem(self) -> str:
        return Path(self.file).stem

    def role_of(self, side: Side, attacker: Side | None = None) -> str:
        if not self.is_attack:
            return side.value
        attacker = attacker or self.attacker_side
        if attacker is None:
            raise ValueError(f"{self.title}: say which side attacks")
        return "attacker" if side is attacker else "defender"

    def side_of(self, role: str, attacker: Side | None = None) -> Side:
        if role in SIDE_ROLES:
            return Side.parse(role)
        attacker = attacker or self.attacker_side
        if attacker is None:
            raise ValueError(f"{self.title}: say which side attacks")
        return attacker if role == "attacker" else attacker.other

    def force_of(self, side: Side, attacker: Side | None = None) -> Force:
        return self.doc.force(self.role_of(side, attacker))

    def fixed_ends(self, attacker: Side | None = None) -> dict[Side, str] | None:
        """Each side's end when the scenario fixes them (one fixed end fixes both), else None."""
        return fixed_ends(
            (self.side_of(role, attacker), force.end) for role, force in self.doc.forces if force.end
        )

    def objective_hex(self, board: Board) -> Hex | None:
        """The objective the scenario sets on `board` (None: the defender chooses it at set-up)."""
        return objective_of(self.doc.objective, board)

    def zone(self, board: Board, side: Side, end: str, attacker: Side | None = None) -> frozenset[Hex]:
        """Where `side`, at `end` of the map, deploys (the editor draws it)."""
        return zone_hexes(board, self.force_of(side, attacker).zone, end)

    def _preset_ids(self, attacker: Side | None) -> list[tuple[str, Side, str, Facing | None]]:
        """(id, side, card id, facing) of each preset unit; ids made unique among the presets, as the
        engine keeps them (`minis.content.unit_ids.preset_ids`: the armies' ids avoid the presets')."""
        ids = preset_ids(preset.id or preset.card for preset in self.doc.units)
        return [
            (
                unit_id,
                self.side_of(preset.side, attacker),
                preset.card,
                Facing[preset.facing.strip().upper()] if preset.facing else None,
            )
            for preset, unit_id in zip(self.doc.units, ids, strict=True)
        ]

    def preset_units(
        self, board: Board, attacker: Side | None = None
    ) -> list[tuple[str, Side, str, Hex, Facing | None]]:
        """(id, side, card id, hex, facing) of each preset unit on `board` (the editor shows them; an
        aircraft, which starts off the map, is not on it)."""
        return [
            (unit_id, side, card_id, board.parse(preset.at), facing)
            for preset, (unit_id, side, card_id, facing) in zip(
                self.doc.units, self._preset_ids(attacker), strict=True
            )
            if preset.at.strip().lower() != OFF_MAP
        ]

    def army_problems(
        self,
        army: Army,
        cards: Mapping[str, StatCard],
        side: Side | None = None,
        attacker: Side | None = None,
    ) -> list[str]:
        """Every way `army` breaks this scenario's limits for its player, in plain words (army builder)."""
        return messages(self.army_rule_problems(army, cards, side, attacker))

    def army_rule_problems(
        self,
        army: Army,
        cards: Mapping[str, StatCard],
        side: Side | None = None,
        attacker: Side | None = None,
    ) -> list[ArmyProblem]:
        """`army_problems` with what in the army file causes each (army.py's own checks, reused), under
        the scenario's rule set. A `units` limit the scenario sets wins; left at the rulebook's 15 (the
        default, which the file need not write) it is the set's `max_units`."""
        side = side or army.side
        force = self.force_of(side, attacker)
        year = army.year if force.year is None else min(force.year, army.year or force.year)
        checked = attrs.evolve(army, year=year, historical=army.historical or force.historical)
        units = None if force.units == MAX_UNITS else force.units
        limits = rule_problems(
            checked, cards, points_limit=force.points, unit_limit=units, rules=self.doc.rules
        )
        return wrong_side(army, side) + limits

    # --- the battle's terms -------------------------------------------------------------------------

    def header(self) -> dict[str, str]:
        """What a game record needs to find this scenario again: a shipped one by its name (`breakout`),
        any other by its absolute path."""
        path = resolved(self.file)
        if path.parent == resolved(SCENARIOS_DIR) and is_file(SCENARIOS_DIR / path.name):
            return {"scenario_file": path.stem}
        return {"scenario_file": str(path)}

    def terms(self, attacker: Side | None, cards: Mapping[str, StatCard]) -> Terms:
        """The engine's terms of this scenario, its roles resolved (`attacker`: the side that attacks)."""
        if self.is_attack:
            attacker = attacker or self.attacker_side
            if attacker is None:
                raise ValueError(f"{self.title}: say which side attacks")
        else:
            attacker = None
        forces = {side: self.force_of(side, attacker) for side in (Side.AXIS, Side.ALLIES)}
        sides = {
            side: SideTerms(f.points, f.units, f.year, f.historical, f.end, f.zone)
            for side, f in forces.items()
        }
        presets = tuple(
            PresetUnit(unit_id, side, cards[card_id], preset.at.strip(), facing, preset.deploy)
            for preset, (unit_id, side, card_id, facing) in zip(
                self.doc.units, self._preset_ids(attacker), strict=True
            )
        )
        return Terms(
            kind=BattleKind.ASSAULT if self.is_attack else BattleKind.STANDARD,
            attacker=attacker,
            axis=sides[Side.AXIS],
            allies=sides[Side.ALLIES],
            victory=tuple(self._victory(c, attacker) for c in self.doc.victory),
            presets=presets,
            objective=self.doc.objective,
            board=self.board if self.configuration is None else None,
            turn_limit=self.doc.turns,
            source=tuple(self.header().items()),
            rules=self.doc.rules,
        )

    def _victory(self, condition: Condition, attacker: Side | None) -> Victory:
        side = self.side_of(condition.side, attacker) if condition.side else None
        if condition.kind == "objective":
            return ObjectiveFrom(condition.from_turn or 1, side)
        if condition.kind == "points":
            return PointsFrom(condition.from_turn or 1)
        assert side is not None
        if condition.kind == "hold":
            return Hold(condition.turn or 1, side)
        return Exit(side, condition.units, condition.points, condition.by_turn)


def _board_of(doc: ScenarioDoc, path: Path, report: _Report) -> tuple[Board | None, Path | None]:
    """The scenario's map (None for rolled/chosen maps); the map's own problems go into the report."""
    if isinstance(doc.map, int):
        try:
            return load_configuration(doc.map), None
        except MinisError as error:
            report.add(("map",), f"configuration {doc.map} cannot be used: {error.problems[0].message}")
            report.problems.extend(error.problems)
            return None, None
    file = doc.map_file
    if file is None:
        return None, None
    target = Path(file) if Path(file).is_absolute() else path.parent / file
    try:
        kind, board = check_file(target)
    except UnreadablePath as error:
        if look(target).missing:
            report.add(
                ("map",), f"no map file {file!r} (looked for {target})", "the path is relative to this file"
            )
        else:
            report.add(("map",), error.named("the map file", file))
        return None, None
    except MinisError as error:
        report.add(
            ("map",),
            f"the map file {file} has {len(error.problems)} problem(s)",
            f"run: minis map check {target}",
        )
        report.problems.extend(error.problems)
        return None, None
    if kind == "section":
        report.add(
            ("map",),
            f"{file} is a section: a quarter of a battle map",
            "name a configuration or a map file (minis map new makes one)",
        )
        return None, None
    return board, target


def _check_with_board(doc: ScenarioDoc, board: Board, shape_only: bool, report: _Report) -> None:
    """Everything that needs the map but the preset units: objective, zones, conditions that need an
    objective (`_check_presets` does the units)."""
    if doc.objective not in (OWN, CHOOSE):
        try:
            board.parse(doc.objective)
        except ValueError as error:
            report.add(("objective",), f"the objective: {error}")
    needs_objective = [c for c in doc.victory if c.kind in ("objective", "hold")]
    if needs_objective and doc.objective == OWN and board.objective is None and not shape_only:
        index = doc.victory.index(needs_objective[0])
        report.add(
            ("victory", index, "kind"),
            f'a victory of kind "{needs_objective[0].kind}" needs an objective, and the map has none',
            'place one on the map, or in the scenario: objective = "E9"',
        )
    zones: dict[str, frozenset[Hex]] = {}
    for role, force in doc.forces:
        path: KeyPath = (role, "zone")
        if isinstance(force.zone, tuple):
            for index, entry in enumerate(force.zone):
                for start, token in tokens(entry):
                    if token_problem(token):
                        continue
                    try:
                        expand_token(board, token)
                    except ValueError as error:
                        report.add_at(report.item(path, index, start), f"zone of [{role}]: {error}")
        elif isinstance(force.zone, int):
            longest = max(len(board.row(r)) for r in range(board.rows))
            if force.zone > longest:
                report.add(path, f"a zone {force.zone} hexes deep is deeper than the map ({longest} hexes)")
    ends = {role: force.end for role, force in doc.forces if force.end is not None}
    if len(ends) == 1:
        (role, end), other = next(iter(ends.items())), next(r for r, _ in doc.forces if r not in ends)
        ends[other] = other_end(end)
    for role, force in doc.forces:
        if role in ends:
            zones[role] = zone_hexes(board, force.zone, ends[role])
    if len(zones) == 2:
        (first, a), (second, b) = zones.items()
        both = a & b
        if both:
            report.add(
                (second, "zone"),
                f"the zones of [{first}] and [{second}] overlap: {hexes_text(board, both)}",
                "a hex belongs to one zone at most",
            )


#: The two armies of preset units, for counting them against the stacking limit (with roles, the
#: sides only keep the attacker's and the defender's units apart).
_ARMIES = {"axis": Side.AXIS, "allies": Side.ALLIES, "attacker": Side.AXIS, "defender": Side.ALLIES}


def _check_presets(doc: ScenarioDoc, boards: Mapping[int | None, Board], report: _Report) -> None:
    """Preset units against the rules: a known card of its player's side, a facing for Vehicles only,
    unique ids, and, on every map the scenario can be played on, a hex of the map it can enter within
    the stacking limit.

    `boards` holds the scenario's one map (key None) or, when the map is rolled or chosen at set-up, the
    six configurations by number: a preset must fit on each, and a problem names the ones it fails on.
    """
    if not doc.units:
        return
    cards = card_catalogue()
    seen: set[str] = set()
    for index, preset in enumerate(doc.units):
        path = report.preset(index)
        card = cards.get(preset.card)
        if card is None:
            hint = report.source.hints(preset.card, cards)
            report.add((*path, "card"), f"unknown card '{preset.card}'", hint)
        else:
            role_side = preset.side if preset.side in SIDE_ROLES else None
            if role_side is not None and card.side is not None and card.side.value != role_side:
                report.add(
                    (*path, "card"),
                    f"{card.name} is an {card.side.title} unit, not an {Side.parse(role_side).title} one",
                )
            off = preset.at.strip().lower() == OFF_MAP
            if card.is_aircraft and not off:
                report.add(
                    (*path, "at"),
                    f"{card.name} is an aircraft: it starts off the map and flies in each flight phase",
                    'at = "off"',
                )
            if off and not card.is_aircraft:
                report.add((*path, "at"), f"{card.name} is not an aircraft: only aircraft start off the map")
            if card.is_vehicle and preset.facing is None:
                report.add(path, f"{card.name} is a Vehicle: give its facing", 'facing = "E"')
            if not card.is_vehicle and preset.facing is not None:
                report.add((*path, "facing"), f"{card.name} is a Soldier: only Vehicles have a facing")
        unit_id = preset.id
        if unit_id is not None:
            if unit_id in seen:
                report.add((*path, "id"), f"two preset units are called '{unit_id}'")
            seen.add(unit_id)
    failed: dict[tuple[int, str], list[int]] = {}
    for number, board in boards.items():
        for index, message in _placement_problems(doc, board, cards):
            failed.setdefault((index, message), []).append(number or 0)
    for (index, message), numbers in failed.items():
        if None in boards or len(numbers) == len(boards):
            report.add(report.preset(index, "at"), message)
            continue
        who = "a die picks" if doc.map == MAP_ROLL else "the defender chooses"
        where = _configurations_text(numbers)
        report.add(
            report.preset(index, "at"),
            f"{message} on {where} ({who} the map: a preset unit must fit on all six)",
            "choose a hex that suits every configuration (minis map show N), or name the map",
        )


def _placement_problems(
    doc: ScenarioDoc, board: Board, cards: Mapping[str, StatCard]
) -> list[tuple[int, str]]:
    """(index, message) for each preset unit that can't stand where the file puts it on `board`: off the
    map, in terrain it can't enter, or beyond the stacking limit (of the scenario's rule set) with the
    presets before it."""
    terms = attrs.evolve(standard(), rules=doc.rules)
    state = GameState(battle=Battle.make(board, (), terms, standard_abilities()), units={})
    present: dict[Hex, list[Unit]] = {}  # the presets placed so far, by hex (no rescan per preset)
    problems = []
    for index, preset in enumerate(doc.units):
        card = cards.get(preset.card)
        if card is None or preset.side not in _ARMIES or card.is_aircraft:
            continue  # an aircraft starts off the map (`at = "off"`, checked above)
        try:
            hex_ = board.parse(preset.at)
        except ValueError as error:
            problems.append((index, str(error)))
            continue
        terrain = board.terrain(hex_)
        label = board.label(hex_)
        unit = Unit(f"preset {index}", card, _ARMIES[preset.side], hex=hex_)
        if not abilities.enters_terrain(state, unit, hex_, terrain.effects.can_enter(card.is_vehicle)):
            problems.append(
                (index, f"{card.name} can't be in {label}: {terrain.name.lower()} is impassable to it")
            )
            continue
        here = present.setdefault(hex_, [])
        if not room_for(state, unit, hex_, here):
            problems.append(
                (
                    index,
                    f"no room for {card.name} in {label}: {stacking_limit_text(doc.rules)}",
                )
            )
            continue
        here.append(unit)
    return problems


_COUNTS = ("no", "one", "two", "three", "four", "five", "six")


def stacking_limit_text(rules: RuleSet) -> str:
    """The stacking limit of a rule set in plain words (a preset's problem says which limit it breaks)."""
    count = rules.stack_per_army
    units = _COUNTS[count] if count < len(_COUNTS) else str(count)
    vehicles = "one Vehicle in all" if rules.vehicle_scope == "hex" else "one Vehicle of each army"
    return f"a hex holds at most {units} units of each army and {vehicles} (the stacking limit)"


def _configurations_text(numbers: Sequence[int]) -> str:
    """`configuration 3`, `configurations 2 and 5`, `configurations 1, 2 and 6`."""
    if len(numbers) == 1:
        return f"configuration {numbers[0]}"
    return f"configurations {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"


def scenario_from_text(text: str | bytes, file: str, *, board: Board | None = None) -> Scenario:
    """Read and check a scenario from its text (`file` locates the map file and names problems).

    `board` stands in for the scenario's map file (the editor checks a scenario against the map it is
    editing, which may not be saved yet).
    """
    source = parse_toml(text, file)
    return _load(source, Path(file), board)


def load_scenario(path: str | Path) -> Scenario:
    """Read and check a scenario file and its map; MinisError with every problem otherwise.

    A bare name (`standard`, `assault`) means a shipped scenario.
    """
    path = shipped_file(path, "scenarios")
    atomic.finish_interrupted_save(path)  # a save of it and its map that was killed half-way
    return _load(read_toml(path), path)


def _load(source: TomlSource, path: Path, override: Board | None = None) -> Scenario:
    doc, report = _read(source)
    if doc is None:
        # the map file is still read, so that its problems come with the others, all at once
        value = source.data.get("map")
        if isinstance(value, str) and value.lower().endswith(".toml"):
            _board_of(ScenarioDoc(title="", map=value, forces=(), victory=()), path, report)
        report.raise_if_any()
    assert doc is not None
    if not report.problems:  # a force with a wrong value holds a stand-in (points 1) that says nothing
        _check_buyable(doc, report)
    board: Board | None
    map_path: Path | None
    if override is not None and doc.map_file is not None:
        board, map_path = override, path.parent / doc.map_file
    else:
        board, map_path = _board_of(doc, path, report)
    if isinstance(doc.map, str) and doc.map in (MAP_ROLL, CHOOSE):
        # zones are checked for their form on one configuration (they all have the same shape); preset
        # units on each of the six, since the set-up may pick any of them
        numbers = CONFIGURATIONS if doc.units else CONFIGURATIONS[:1]
        boards: dict[int | None, Board] = {
            n: b for n in numbers if (b := _board_of(attrs.evolve(doc, map=n), path, report)[0])
        }
        if boards:
            _check_with_board(doc, next(iter(boards.values())), True, report)
        _check_presets(doc, boards, report)
    elif board is not None:
        _check_with_board(doc, board, False, report)
        _check_presets(doc, {None: board}, report)
    report.raise_if_any()
    configuration = doc.map if isinstance(doc.map, int) else None
    return Scenario(doc, source.file, board, configuration, map_path)


def _check_buyable(doc: ScenarioDoc, report: _Report) -> None:
    """Each player must be able to buy an army: some card of the side within the points and the year
    (a one-card army keeps every limit but those). Else no army could ever be built or drawn for it."""
    cards = [card for card in card_catalogue().values() if not card.needs and not card.is_obstacle]
    attacker = doc.force("attacker").side if doc.is_attack else None
    for role, force in doc.forces:
        if role in SIDE_ROLES:
            sides = [Side.parse(role)]
        elif attacker in SIDE_ROLES:
            fixed = Side.parse(str(attacker))
            sides = [fixed if role == "attacker" else fixed.other]
        else:
            sides = list(Side)
        for side in sides:
            if not any(
                card.serves(side)
                and card.cost <= force.points
                and (force.year is None or card.year <= force.year)
                for card in cards
            ):
                by_year = f" from {force.year} or earlier" if force.year is not None else ""
                report.add(
                    (role, "points"),
                    f"no {side.title} army can be built for [{role}]: no {side.title} card{by_year} costs "
                    f"{force.points} points or less",
                )


def shipped_scenarios() -> list[Path]:
    return sorted(SCENARIOS_DIR.glob("*.toml"))


def is_scenario_text(text: str) -> bool:
    """True when TOML text says kind = "scenario" (cheap: for tools that take map or scenario files)."""
    return re.search(r'^[ \t]*kind[ \t]*=[ \t]*["\']scenario["\']', text, re.MULTILINE) is not None


# --- writing ---------------------------------------------------------------------------------------


def _zone_text(zone: int | str | tuple[str, ...]) -> str:
    if isinstance(zone, int):
        return f"zone = {zone}\n"
    if isinstance(zone, str):
        return f"zone = {toml_string(zone)}\n"
    return "zone = [\n" + "".join(f"    {toml_string(entry)},\n" for entry in zone) + "]\n"


def _rules_text(doc: ScenarioDoc) -> str:
    """`rules = "NAME"` and a `[rule_options]` table (their own table: after the top-level keys, before
    the players'); nothing for the default set unless the file named it."""
    if doc.rules == RULEBOOK and doc.rules_named:
        return f"{rule_sets.RULES_KEY} = {toml_string(rule_sets.DEFAULT)}\n"
    return rule_sets.rules_toml(doc.rules)


def dump_scenario(doc: ScenarioDoc) -> str:
    """The canonical file text of a scenario (the layout of the shipped files)."""
    text = "".join(f"{line}\n" for line in doc.notes) + ("\n" if doc.notes else "")
    text += 'kind = "scenario"\n'
    text += f"title = {toml_string(doc.title)}\n"
    if doc.description:
        text += f"description = {toml_string(doc.description)}\n"
    text += f"map = {doc.map}\n" if isinstance(doc.map, int) else f"map = {toml_string(doc.map)}\n"
    if doc.objective != OWN:
        text += f"objective = {toml_string(doc.objective)}\n"
    if doc.turns is not None:
        text += f"turns = {doc.turns}\n"
    text += _rules_text(doc)
    for role, force in doc.forces:
        text += f"\n[{role}]\n"
        if force.side is not None:
            text += f"side = {toml_string(force.side)}\n"
        text += f"points = {force.points}\n"
        if force.units != MAX_UNITS:
            text += f"units = {force.units}\n"
        if force.year is not None:
            text += f"year = {force.year}\n"
        if force.historical:
            text += "historical = true\n"
        if force.end is not None:
            text += f"end = {toml_string(force.end)}\n"
        text += _zone_text(force.zone)
    for condition in doc.victory:
        text += f"\n[[victory]]\nkind = {toml_string(condition.kind)}\n"
        for key in VICTORY_FIELDS[condition.kind]:
            value = getattr(condition, key)
            if value is None:
                continue
            text += f"{key} = {toml_string(value) if isinstance(value, str) else value}\n"
    for preset in doc.units:
        text += "\n[[units]]\n"
        if preset.id is not None:
            text += f"id = {toml_string(preset.id)}\n"
        text += f"side = {toml_string(preset.side)}\ncard = {toml_string(preset.card)}\n"
        text += f"at = {toml_string(preset.at)}\n"
        if preset.facing is not None:
            text += f"facing = {toml_string(preset.facing)}\n"
        if preset.deploy:
            text += "deploy = true\n"
    return text


def write_atomic(path: str | Path, text: str) -> None:
    """`minis.base.atomic.write_atomic`, with a failed write reported as the project's error (exit 2)."""
    try:
        atomic.write_atomic(path, text)
    except OSError as error:
        raise unreadable(str(path), f"cannot write the file: {error.strerror or error}") from None


def save_scenario(doc: ScenarioDoc, path: str | Path) -> None:
    write_atomic(path, dump_scenario(doc))


# --- playing a scenario --------------------------------------------------------------------------------


def army_problems(
    scenario: Scenario,
    armies: Mapping[Side, Army],
    *,
    attacker: Side | None = None,
    cards: Mapping[str, StatCard] | None = None,
) -> list[Problem]:
    """Every way two armies break a scenario's limits, as problems of the army files."""
    cards = cards if cards is not None else card_catalogue()
    problems = []
    for side, army in armies.items():
        found = scenario.army_rule_problems(army, cards, side=side, attacker=attacker)
        problems.extend(locate(army, found, f"{side.title} army"))
    return problems


def start_game(
    scenario: Scenario,
    axis: Army,
    allies: Army,
    *,
    attacker: Side | None = None,
    dice: Dice | None = None,
    cards: Mapping[str, StatCard] | None = None,
    check_armies: bool = True,
) -> Game:
    """A new engine Game for `scenario` between two armies, from its set-up on.

    `attacker` says which side attacks when the scenario leaves it to the players. With `check_armies`
    (the default), armies that break the scenario's limits raise MinisError (the army files' problems).
    """
    catalogue = cards if cards is not None else card_catalogue()
    terms = scenario.terms(attacker, catalogue)
    attacker = terms.attacker
    if check_armies:
        problems = army_problems(
            scenario, {Side.AXIS: axis, Side.ALLIES: allies}, attacker=attacker, cards=cards
        )
        if problems:
            raise MinisError(problems)
    return Game.new(
        axis,
        allies,
        configuration=scenario.configuration,
        dice=dice,
        cards=catalogue,
        turn_limit=scenario.doc.turns,
        terms=terms,
    )
