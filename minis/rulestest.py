"""Rules tests (docs/contracts.md#rules-test-files, a contract): a position, scripted actions and dice,
and checks.

`load_rules_test` reads and checks a file (every problem at once, with line and column; a file that is
not a well-formed rules test raises MinisError with exit code 2). `run_rules_test` plays it and returns
None when it passes, or the reason it fails. Dice are fed step by step: a step's dice are added to the
game's scripted source, then its action (if any) is applied, and the game consumes dice as it needs
them; a step fails if it leaves dice unused, or if its action is refused when it should be legal.

Two extensions (docs/engine.md, "Rules tests"): a test with `[start] phase = "setup"` starts before
turn 1 from two armies (`Game.new`), so the map roll, coin flip, ends, deployment and the Assault
objective are steps like any other; and a step may carry its own `[[steps.checks]]`, checked right
after it, so a test can check a state in the middle.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import attrs

from minis.army import Army
from minis.base.errors import EXIT_UNREADABLE, MinisError, Problem
from minis.base.paths import files_in, is_dir
from minis.base.sides import Side
from minis.base.tomlfile import KeyPath, TomlSource, read_toml
from minis.board import Board
from minis.cards import card_catalogue
from minis.content import rule_sets
from minis.content.rule_sets import RULEBOOK, RuleSet
from minis.dice import Dice
from minis.engine.ability_api import AbilityRegistry
from minis.game import Game
from minis.hexgrid import Facing, Hex, direction_to
from minis.mapfile import board_from_toml, load_configuration
from minis.rules import obstacles
from minis.rules.air import OFF_MAP  # `at = "off"`: an aircraft off the map
from minis.rules.errors import IllegalAction
from minis.state import BattleKind, Counter, Phase, Unit

TOP_KEYS = (
    "title",
    "source",
    "board",
    "configuration",
    "streams",
    "roads",
    "objective",
    "scenario",
    "attacker",
    "armies",
    "units",
    "start",
    "steps",
    "checks",
    "rules",  # the rule set (docs/contracts.md#rule-sets-in-files); left out: 2005
    "rule_options",  # options set over it (docs/rule-sets.md)
)
UNIT_KEYS = (
    "id",
    "card",
    "side",
    "at",
    "facing",
    "status",
    "pending",
    "carried_by",
    "removed",
    "acted",
    "fired",
)
START_KEYS = ("turn", "phase", "first", "active")
STEP_KEYS = ("action", "dice", "expect", "reason", "checks")
CHECK_KEYS = (
    "unit",
    "at",
    "removed",
    "facing",
    "status",
    "pending",
    "carried_by",
    "los",
    "visible",
    "winner",
    "first",
    "turn",
    "decider",
    "phase",
    "active",
    "configuration",
    "objective",
    "ends",
)
STATUSES = ("disrupted", "damaged")
PHASES = ("initiative", "movement", "flight", "airstrike", "assault", "casualty")
SIDES = ("axis", "allies")
ENDS = ("west", "east")
#: Top-level keys that describe a position on a map, which a set-up test does not have yet.
POSITION_KEYS = {
    "board": "the map roll picks one of the six configurations, or configuration = N gives it",
    "streams": "a configuration has its own streams",
    "roads": "a configuration has its own roads",
    "objective": "the configuration or the Assault defender's 'objective H' step gives it",
    "units": "a set-up test starts from [armies]; 'deploy U H' steps put the units on the map",
}


@attrs.frozen
class Check:
    values: dict[str, Any]
    line: int


@attrs.frozen
class Step:
    action: str | None
    dice: tuple[int, ...]
    illegal: bool
    line: int
    checks: tuple[Check, ...] = ()  # checked right after the step: a state in the middle of the test
    reason: str = ""  # words the refusal's reason must contain (an expected refusal, for the right reason)


@attrs.frozen
class SetUp:
    """The start of a set-up test: two armies (card ids) and, if given, the configuration (no map roll;
    in Assault, the defender's choice made)."""

    axis: tuple[str, ...]
    allies: tuple[str, ...]
    configuration: int | None

    def game(
        self,
        scenario: BattleKind,
        attacker: Side | None,
        abilities: AbilityRegistry | None = None,
        rules: RuleSet = RULEBOOK,
    ) -> Game:
        """A new battle before turn 1, as `minis play` starts one, with a scripted dice source."""
        return Game.new(
            Army("Axis", Side.AXIS, units=self.axis),
            Army("Allies", Side.ALLIES, units=self.allies),
            scenario=scenario,
            attacker=attacker,
            configuration=self.configuration,
            dice=Dice.scripted(),
            abilities=abilities,
            rules=rules,
        )


@attrs.frozen
class RulesTest:
    path: str
    title: str
    board: Board
    units: tuple[Unit, ...]
    scenario: BattleKind
    attacker: Side | None
    turn: int
    phase: Phase
    first: Side
    active: Side
    extras: dict[str, dict[str, Any]]  # per unit: acted / fired
    steps: tuple[Step, ...]
    checks: tuple[Check, ...]
    setup: SetUp | None = None  # a test that starts before turn 1 (then `units` is empty)
    rules: RuleSet = RULEBOOK

    def game(self, abilities: AbilityRegistry | None = None) -> Game:
        """The test's game; `abilities`: another rule set's (a test switches an ability off)."""
        if self.setup is not None:
            return self.setup.game(self.scenario, self.attacker, abilities, self.rules)
        game = Game.from_position(
            self.board,
            self.units,
            scenario=self.scenario,
            attacker=self.attacker,
            turn=self.turn,
            phase=self.phase,
            first=self.first,
            active=self.active,
            dice=Dice.scripted(),
            abilities=abilities,
            rules=self.rules,
        )
        for unit_id, extra in self.extras.items():
            if extra.get("acted"):
                game.state.activated.add(unit_id)
            if extra.get("fired"):
                game.state.fired[unit_id] = 1
        return game


class _Reader:
    """Collects every problem of one file, located by key path."""

    def __init__(self, source: TomlSource) -> None:
        self.source = source
        self.problems: list[Problem] = []

    def add(self, path: KeyPath, message: str, hint: str = "") -> None:
        self.problems.append(self.source.problem(path, message, hint))

    def fail(self) -> NoReturn:
        """Raise every problem found (exit code 2: the file is not a rules test that can run)."""
        unique = sorted(dict.fromkeys(self.problems), key=lambda p: (p.line, p.col))
        raise MinisError(unique or [Problem(self.source.file, 1, 1, "no board")], exit_code=EXIT_UNREADABLE)

    def keys(self, table: Any, allowed: tuple[str, ...], path: KeyPath, what: str) -> bool:
        if not isinstance(table, dict):
            self.add(path, f"{what} must be a table")
            return False
        for key in table:
            if key not in allowed:
                self.add((*path, key), f"unknown key '{key}' in {what}", self.source.hints(key, allowed))
        return True

    def text(self, table: dict[str, Any], key: str, path: KeyPath, required: bool = False) -> str | None:
        if key not in table:
            if required:
                self.add(path, f"missing key '{key}'")
            return None
        value = table[key]
        if not isinstance(value, str):
            self.add((*path, key), f"'{key}' must be a string")
            return None
        return value

    def choice(
        self, table: dict[str, Any], key: str, path: KeyPath, choices: tuple[str, ...], required: bool = False
    ) -> str | None:
        value = self.text(table, key, path, required)
        if value is None:
            return None
        if value.lower() not in choices:
            self.add(
                (*path, key),
                f"'{key}' must be one of {', '.join(choices)}, not '{value}'",
                self.source.hints(value.lower(), choices),
            )
            return None
        return value.lower()

    def strings(self, table: dict[str, Any], key: str, path: KeyPath) -> list[str] | None:
        value = table.get(key)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.add((*path, key), f"'{key}' must be a list of strings")
            return None
        return value

    def integer(self, table: dict[str, Any], key: str, path: KeyPath) -> int | None:
        value = table.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.add((*path, key), f"'{key}' must be a whole number")
            return None
        return value

    def boolean(self, table: dict[str, Any], key: str, path: KeyPath) -> bool | None:
        value = table.get(key)
        if value is None:
            return None
        if not isinstance(value, bool):
            self.add((*path, key), f"'{key}' must be true or false")
            return None
        return value

    def side(self, table: dict[str, Any], key: str, path: KeyPath, required: bool = False) -> Side | None:
        value = self.choice(table, key, path, ("axis", "allies"), required)
        return Side(value) if value else None


def load_rules_test(path: str | Path) -> RulesTest:
    """Read and check one rules test file; MinisError (exit code 2) lists every problem."""
    return parse_rules_test(read_toml(path))


def parse_rules_test(source: TomlSource) -> RulesTest:
    data = source.data
    r = _Reader(source)
    r.keys(data, TOP_KEYS, (), "a rules test")
    title = r.text(data, "title", (), required=True) or Path(source.file).stem
    scenario = BattleKind(r.choice(data, "scenario", (), ("standard", "assault")) or "standard")
    attacker = r.side(data, "attacker", ())
    if scenario is BattleKind.ASSAULT and attacker is None and "attacker" not in data:
        r.add(("scenario",), 'an Assault test needs attacker = "axis" or "allies"')
    rules = rule_sets.read(source, r.problems)
    start = data.get("start", {})
    if isinstance(start, dict) and str(start.get("phase", "")).lower() == "setup":
        return _parse_setup(r, title, scenario, attacker, rules)
    if "armies" in data:
        r.add(("armies",), "[armies] go with a test that starts at set-up", '[start] phase = "setup"')
    board: Board | None = None
    try:
        board = board_from_toml(data, source.text, source.file)
    except MinisError as error:
        r.problems.extend(error.problems)
    units, extras = _units(r, data.get("units", []), board)
    turn, phase, first, active = 1, Phase.MOVEMENT, Side.AXIS, None
    if r.keys(start, START_KEYS, ("start",), "[start]"):
        turn = r.integer(start, "turn", ("start",)) or 1
        if turn < 1:
            r.add(("start", "turn"), "turns count from 1")
        phase = Phase(r.choice(start, "phase", ("start",), ("setup", *PHASES)) or "movement")
        first = r.side(start, "first", ("start",)) or Side.AXIS
        active = r.side(start, "active", ("start",))
    ids = {u.id for u in units}
    steps = tuple(_steps(r, data.get("steps", []), board, ids))
    checks = tuple(_checks(r, data.get("checks", []), board, ids, ("checks",)))
    if not r.problems and board is not None:
        try:
            Game.from_position(
                board,
                units,
                scenario=scenario,
                attacker=attacker,
                turn=turn,
                phase=Phase.MOVEMENT,
                first=first,
                active=active or first,
                rules=rules,
            )
        except ValueError as error:
            r.add(("units",), f"impossible position: {error}")
    if r.problems or board is None:
        r.fail()
    assert board is not None
    return RulesTest(
        source.file,
        title,
        board,
        tuple(units),
        scenario,
        attacker,
        turn,
        phase,
        first,
        active or first,
        extras,
        steps,
        checks,
        rules=rules,
    )


def _parse_setup(
    r: _Reader, title: str, scenario: BattleKind, attacker: Side | None, rules: RuleSet
) -> RulesTest:
    """A test that starts before turn 1: armies, maybe a configuration, then steps and checks."""
    data = r.source.data
    for key, why in POSITION_KEYS.items():
        if key in data:
            r.add((key,), f"a set-up test has no '{key}': {why}")
    for key in data["start"]:
        if key != "phase":
            r.add(("start", key), f"a set-up test starts before turn 1, so its steps decide '{key}'")
    configuration = r.integer(data, "configuration", ())
    if configuration is not None and configuration not in range(1, 7):
        r.add(("configuration",), "'configuration' must be a number from 1 to 6", "configuration = 3")
        configuration = None
    board: Board | None = None
    try:  # labels are the same on the six configurations: the first stands for a map not rolled yet
        board = load_configuration(configuration or 1)
    except MinisError as error:
        r.problems.extend(error.problems)
    setup = _armies(r, configuration)
    ids: set[str] | None = None
    if setup is not None and (attacker is not None or scenario is BattleKind.STANDARD):
        try:
            started = setup.game(scenario, attacker, rules=rules).state
            ids = set(started.units) | {o.id for o in obstacles.all_obstacles(started)}
        except ValueError as error:
            r.add(("armies",), f"impossible set-up: {error}")
    steps = tuple(_steps(r, data.get("steps", []), board, ids))
    checks = tuple(_checks(r, data.get("checks", []), board, ids, ("checks",)))
    if r.problems or board is None or setup is None:
        r.fail()
    return RulesTest(  # turn, first and active: what the game has before turn 1, never read
        r.source.file,
        title,
        board,
        (),
        scenario,
        attacker,
        turn=0,
        phase=Phase.SETUP,
        first=Side.AXIS,
        active=Side.AXIS,
        extras={},
        steps=steps,
        checks=checks,
        setup=setup,
        rules=rules,
    )


def _armies(r: _Reader, configuration: int | None) -> SetUp | None:
    """`[armies]`: the card ids of each side, repeated for copies (unit ids: the card id, then `id#2`...;
    an Allied copy of a card of no nation is `allied-id`: `minis.content.unit_ids`)."""
    raw = r.source.data.get("armies")
    if raw is None:
        r.add(("start", "phase"), "a set-up test needs the armies", '[armies] axis = ["card-id", ...]')
        return None
    if not r.keys(raw, SIDES, ("armies",), "[armies]"):
        return None
    catalogue = card_catalogue()
    cards: dict[str, tuple[str, ...]] = {}
    for side in SIDES:
        path: KeyPath = ("armies", side)
        if side not in raw:
            r.add(("armies",), f"missing key '{side}'", f'{side} = ["card-id", ...]')
            continue
        card_ids = r.strings(raw, side, ("armies",))
        if card_ids is None:
            continue
        spots = r.source.layout.strings(path)
        for index, card_id in enumerate(card_ids):
            if card_id in catalogue:
                continue
            one_for_one = len(spots) == len(card_ids)
            where = r.source.layout.spot(spots[index]) if one_for_one else r.source.where(path)
            r.problems.append(
                Problem(
                    r.source.file, *where, f"unknown card '{card_id}'", r.source.hints(card_id, catalogue)
                )
            )
        cards[side] = tuple(card_ids)
    known = all(card_id in catalogue for card_ids in cards.values() for card_id in card_ids)
    if len(cards) < len(SIDES) or not known:
        return None
    return SetUp(cards["axis"], cards["allies"], configuration)


def _units(r: _Reader, raw: Any, board: Board | None) -> tuple[list[Unit], dict[str, dict[str, Any]]]:
    units: list[Unit] = []
    extras: dict[str, dict[str, Any]] = {}
    if not isinstance(raw, list):
        r.add(("units",), "'units' must be an array of tables: [[units]]")
        return units, extras
    catalogue = card_catalogue()
    seen: set[str] = set()
    carried: list[tuple[int, str, str]] = []
    for index, table in enumerate(raw):
        path: KeyPath = ("units", index)
        if not r.keys(table, UNIT_KEYS, path, "[[units]]"):
            continue
        unit_id = r.text(table, "id", path, required=True)
        if unit_id is not None:
            if not unit_id or any(c.isspace() for c in unit_id):
                r.add((*path, "id"), f"unit id '{unit_id}' must be one word")
            elif unit_id in seen:
                r.add((*path, "id"), f"two units are called '{unit_id}'")
            seen.add(unit_id)
        card_id = r.text(table, "card", path, required=True)
        card = catalogue.get(card_id) if card_id is not None else None
        if card_id is not None and card is None:
            r.add((*path, "card"), f"unknown card '{card_id}'", r.source.hints(card_id, catalogue))
        side = r.side(table, "side", path, required=True)
        removed = bool(r.boolean(table, "removed", path))
        aircraft = card is not None and card.is_aircraft
        at = r.text(table, "at", path, required=not removed and not aircraft)
        if at is not None and at.strip().lower() == OFF_MAP:
            if not aircraft:
                r.add((*path, "at"), 'only an aircraft may be off the map (at = "off")')
            at = None
        hex_ = None
        side_facing = None  # an obstacle on a hexside: `at = "B2/B3"` (minis.rules.obstacles)
        if at is not None and board is not None and "/" in at and card is not None and card.is_obstacle:
            first, _, second = at.partition("/")
            try:
                hex_, across = board.parse(first), board.parse(second)
                side_facing = direction_to(hex_, across)
                if side_facing is None:
                    r.add((*path, "at"), f"{first} and {second} are not next to each other")
            except ValueError as error:
                r.add((*path, "at"), str(error))
        elif at is not None and board is not None:
            try:
                hex_ = board.parse(at)
            except ValueError as error:
                r.add((*path, "at"), str(error))
        facing_text = r.text(table, "facing", path)
        facing = side_facing
        if facing_text is not None:
            try:
                facing = Facing.parse(facing_text)
            except ValueError as error:
                r.add((*path, "facing"), str(error))
        if card is not None and facing is not None and not card.is_vehicle and side_facing is None:
            r.add((*path, "facing"), f"'{card_id}' is a Soldier; only Vehicles have a facing")
        if card is not None and card.is_vehicle and facing is None and facing_text is None and not removed:
            r.add(path, f"the Vehicle '{unit_id}' needs a facing", 'facing = "E"')
        status = r.strings(table, "status", path) or []
        for word in status:
            if word.lower() not in STATUSES:
                r.add((*path, "status"), f"unknown status '{word}' (disrupted, damaged)")
        if card is not None and not card.is_vehicle and "damaged" in [w.lower() for w in status]:
            r.add((*path, "status"), "Soldiers are never damaged")
        pending_words = r.strings(table, "pending", path) or []
        pending: list[Counter] = []
        for word in pending_words:
            try:
                pending.append(Counter(word.lower()))
            except ValueError:
                r.add((*path, "pending"), f"unknown counter '{word}' (disrupted, damaged, destroyed)")
        carrier = r.text(table, "carried_by", path) or None
        if carrier is not None and unit_id is not None:
            carried.append((index, unit_id, carrier))
        extra = {k: r.boolean(table, k, path) for k in ("acted", "fired")}
        if unit_id is not None and any(extra.values()):
            extras[unit_id] = extra
        if unit_id is not None and card is not None and side is not None:
            units.append(
                Unit(
                    unit_id,
                    card,
                    side,
                    None if removed else hex_,
                    facing,
                    "disrupted" in [w.lower() for w in status],
                    "damaged" in [w.lower() for w in status],
                    tuple(pending),
                    carrier,
                    removed,
                )
            )
    for index, unit_id, carrier in carried:
        if carrier not in seen:
            r.add(
                ("units", index, "carried_by"),
                f"'{unit_id}' is carried by an unknown unit '{carrier}'",
                r.source.hints(carrier, seen),
            )
    return units, extras


def _steps(r: _Reader, raw: Any, board: Board | None, ids: set[str] | None) -> Iterator[Step]:
    if not isinstance(raw, list):
        r.add(("steps",), "'steps' must be an array of tables: [[steps]]")
        return
    for index, table in enumerate(raw):
        path: KeyPath = ("steps", index)
        if not r.keys(table, STEP_KEYS, path, "[[steps]]"):
            continue
        action = r.text(table, "action", path)
        dice = table.get("dice", [])
        if not isinstance(dice, list) or not all(
            isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice
        ):
            r.add((*path, "dice"), "'dice' must be a list of die values from 1 to 6")
            dice = []
        expect = r.choice(table, "expect", path, ("ok", "illegal")) or "ok"
        checks = tuple(_checks(r, table.get("checks", []), board, ids, (*path, "checks")))
        if action is None and not dice and not checks:
            r.add(path, "a step needs an action, dice or checks")
        if expect == "illegal" and action is None:
            r.add((*path, "expect"), "only an action can be refused", 'action = "..."')
        reason = r.text(table, "reason", path) or ""
        if "reason" in table and expect != "illegal":
            r.add((*path, "reason"), "'reason' is why a step is refused: it goes with expect = \"illegal\"")
        line = r.source.where(path)[0]
        yield Step(action, tuple(dice), expect == "illegal", line, checks, reason)


def _checks(
    r: _Reader, raw: Any, board: Board | None, ids: set[str] | None, where: KeyPath
) -> Iterator[Check]:
    """The checks at `where` (`checks`, or a step's own); `ids` None: the units are not known."""
    header = "[[" + ".".join(str(part) for part in where if isinstance(part, str)) + "]]"
    if not isinstance(raw, list):
        r.add(where, f"'{where[-1]}' must be an array of tables: {header}")
        return
    for index, table in enumerate(raw):
        path: KeyPath = (*where, index)
        if not r.keys(table, CHECK_KEYS, path, header):
            continue
        values: dict[str, Any] = {}
        unit_id = r.text(table, "unit", path)
        if unit_id is not None:
            if ids is not None and unit_id not in ids:
                r.add((*path, "unit"), f"no unit is called '{unit_id}'", r.source.hints(unit_id, ids))
            values["unit"] = unit_id
        unit_keys = ("at", "removed", "facing", "status", "pending", "carried_by")
        if unit_id is None and any(k in table for k in unit_keys):
            r.add(path, 'a unit check needs unit = "ID"')
        if str(table.get("at", "")).strip().lower() == OFF_MAP:
            values["off"] = True  # an aircraft off the map
            table = {k: v for k, v in table.items() if k != "at"}
        for key in ("at", "objective"):
            hex_ = _hex(r, table, key, path, board)
            if hex_ is not None:
                values[key] = hex_
        if "removed" in table:
            values["removed"] = r.boolean(table, "removed", path)
        if "facing" in table:
            text = r.text(table, "facing", path)
            if text is not None:
                try:
                    values["facing"] = Facing.parse(text)
                except ValueError as error:
                    r.add((*path, "facing"), str(error))
        if "status" in table:
            words = r.strings(table, "status", path) or []
            bad = [w for w in words if w.lower() not in STATUSES]
            if bad:
                r.add((*path, "status"), f"unknown status '{bad[0]}' (disrupted, damaged)")
            values["status"] = sorted({w.lower() for w in words})
        if "pending" in table:
            words = r.strings(table, "pending", path) or []
            bad = [w for w in words if w.lower() not in ("disrupted", "damaged", "destroyed")]
            if bad:
                r.add((*path, "pending"), f"unknown counter '{bad[0]}' (disrupted, damaged, destroyed)")
            values["pending"] = [w.lower() for w in words]
        if "carried_by" in table:
            values["carried_by"] = r.text(table, "carried_by", path) or None
        if "los" in table:
            pair = r.strings(table, "los", path)
            if pair is not None and len(pair) != 2:
                r.add((*path, "los"), '\'los\' must name two hexes: los = ["A1", "C5"]')
            elif pair is not None and board is not None:
                try:
                    values["los"] = (board.parse(pair[0]), board.parse(pair[1]))
                except ValueError as error:
                    r.add((*path, "los"), str(error))
            if "visible" not in table:
                r.add(path, "a line-of-sight check needs visible = true or false")
        if "visible" in table:
            values["visible"] = r.boolean(table, "visible", path)
            if "los" not in table:
                r.add((*path, "visible"), '\'visible\' goes with los = ["A1", "C5"]')
        for key in ("winner", "decider"):
            if key in table:
                values[key] = r.choice(table, key, path, ("axis", "allies", "none"))
        for key in ("first", "active"):
            if key in table:
                values[key] = r.choice(table, key, path, ("axis", "allies", "none"))
        for key in ("turn", "configuration"):
            if key in table:
                values[key] = r.integer(table, key, path)
        if "ends" in table:
            values["ends"] = _ends(r, table["ends"], (*path, "ends"))
        if "phase" in table:
            values["phase"] = r.choice(table, "phase", path, (*PHASES, "setup", "over"))
        if not values:
            r.add(path, "an empty check")
        yield Check(values, r.source.where(path)[0])


def _hex(r: _Reader, table: dict[str, Any], key: str, path: KeyPath, board: Board | None) -> Hex | None:
    text = r.text(table, key, path)
    if text is None or board is None:
        return None
    try:
        return board.parse(text)
    except ValueError as error:
        r.add((*path, key), str(error))
        return None


def _ends(r: _Reader, raw: Any, path: KeyPath) -> dict[Side, str]:
    """`ends = { axis = "west", allies = "east" }`: the end of the map each side named has."""
    if not r.keys(raw, SIDES, path, "'ends'"):
        return {}
    if not raw:
        r.add(path, "'ends' names no side", 'ends = { axis = "west" }')
    return {
        Side(side): end
        for side in SIDES
        if side in raw and (end := r.choice(raw, side, path, ENDS)) is not None
    }


# --- running -----------------------------------------------------------------------------------------


def run_rules_test(test: RulesTest, abilities: AbilityRegistry | None = None) -> str | None:
    """Play a rules test; None if it passes, else why it fails (naming the step or check and its line).
    `abilities`: play it with another rule set's abilities (the shipped ones by default)."""
    try:
        game = test.game(abilities)
    except ValueError as error:
        return f"impossible position: {error}"
    for number, step in enumerate(test.steps, start=1):
        where = f"step {number} (line {step.line})"
        failure = _run_step(game, step, where)
        if failure:
            return failure
        for check in step.checks:
            failure = _run_check(game, check)
            if failure:
                return f"{where}, its check at line {check.line}: {failure}"
    for check in test.checks:
        failure = _run_check(game, check)
        if failure:
            return f"check at line {check.line}: {failure}"
    return None


def _run_step(game: Game, step: Step, where: str) -> str | None:
    if step.action is None and not step.dice:
        return None  # only checks
    if step.action is None:
        if not game.waiting_for_dice():
            return f"{where}: the game is not waiting for dice (it waits for {_who(game)})"
        game.push_dice(step.dice)
    else:
        if game.waiting_for_dice():
            return f"{where}: the game still waits for dice before '{step.action}'"
        game.dice.push(step.dice)
        try:
            game.apply(step.action)
        except IllegalAction as error:
            if step.illegal:
                if step.dice:
                    dice = list(step.dice)
                    return f"{where}: '{step.action}' was refused as expected, but it has dice: {dice}"
                if step.reason.lower() not in error.reason.lower():
                    return (
                        f"{where}: '{step.action}' was refused, but for another reason: {error.reason} "
                        f"(expected: {step.reason})"
                    )
                return None
            return f"{where}: '{step.action}' was refused: {error.reason}"
        if step.illegal:
            return f"{where}: '{step.action}' was accepted, but the test expects it to be refused"
    left = game.dice.unused()
    if left and not game.waiting_for_dice():
        return f"{where}: dice left unused: {left}"
    return None


def _who(game: Game) -> str:
    side = game.decider()
    return f"the {side.title} player" if side else "nobody (the game is over)"


def _side_word(side: Side | None) -> str:
    return side.value if side is not None else "none"


def _run_check(game: Game, check: Check) -> str | None:
    state = game.state
    values = check.values
    label = game.label
    if "unit" in values and values["unit"] not in state.units:  # an obstacle (minis.rules.obstacles)
        obstacle = next((o for o in obstacles.all_obstacles(state) if o.id == values["unit"]), None)
        name = values["unit"]
        if "removed" in values and values["removed"] != (obstacle is None):
            return f"{name} is {'removed' if obstacle is None else 'still on the map'}"
        if "at" in values and (obstacle is None or obstacle.hex != values["at"]):
            where = label(obstacle.hex) if obstacle is not None and obstacle.hex else "no hex"
            return f"{name} is in {where}, expected {label(values['at'])}"
    elif "unit" in values:
        unit = state.units[values["unit"]]
        name = unit.id
        if "removed" in values and values["removed"] != unit.removed:
            return f"{name} is {'removed' if unit.removed else 'still on the map'}"
        if values.get("off") and (unit.removed or unit.hex is not None):
            where = "removed" if unit.removed else f"in {label(unit.hex) if unit.hex else 'no hex'}"
            return f"{name} is {where}, expected off the map"
        if "at" in values:
            if unit.removed:
                return f"{name} was removed, expected in {label(values['at'])}"
            if unit.hex != values["at"]:
                where = label(unit.hex) if unit.hex else "no hex"
                return f"{name} is in {where}, expected {label(values['at'])}"
        if "facing" in values and unit.facing != values["facing"]:
            facing = unit.facing.name if unit.facing else "nothing"
            return f"{name} faces {facing}, expected {values['facing'].name}"
        if "status" in values:
            actual = sorted(s for s, on in (("damaged", unit.damaged), ("disrupted", unit.disrupted)) if on)
            if actual != values["status"]:
                return f"{name} status is {actual}, expected {values['status']}"
        if "pending" in values:
            actual_pending = [c.value for c in unit.pending]
            if actual_pending != values["pending"]:
                return f"{name} face-down counters are {actual_pending}, expected {values['pending']}"
        if "carried_by" in values and unit.carried_by != values["carried_by"]:
            carrier, wanted = unit.carried_by or "nothing", values["carried_by"] or "nothing"
            return f"{name} is carried by {carrier}, expected {wanted}"
    if "los" in values and values.get("visible") is not None:
        a, b = values["los"]
        seen = bool(state.board.visible(a, b)) if state.board is not None else False
        if seen != values["visible"]:
            return (
                f"{label(a)} to {label(b)} is {'visible' if seen else 'blocked'}, expected "
                f"{'visible' if values['visible'] else 'blocked'}"
            )
    if "winner" in values and _side_word(state.winner) != values["winner"]:
        return f"the winner is {_side_word(state.winner)}, expected {values['winner']}"
    if "decider" in values and _side_word(game.decider()) != values["decider"]:
        return f"the game waits for {_side_word(game.decider())}, expected {values['decider']}"
    if "first" in values and _side_word(state.first) != values["first"]:
        return f"the first player is {_side_word(state.first)}, expected {values['first']}"
    if "active" in values and _side_word(state.active) != values["active"]:
        return f"the active player is {_side_word(state.active)}, expected {values['active']}"
    if "turn" in values and state.turn != values["turn"]:
        return f"the turn is {state.turn}, expected {values['turn']}"
    if "phase" in values and state.phase.value != values["phase"]:
        return f"the phase is {state.phase.value}, expected {values['phase']}"
    return _setup_check(game, values)


def _setup_check(game: Game, values: dict[str, Any]) -> str | None:
    """The checks of what set-up decides: the configuration, the objective, the ends."""
    state = game.state
    if "configuration" in values and state.configuration != values["configuration"]:
        if state.configuration is None:
            return f"no battle map is chosen yet, expected configuration {values['configuration']}"
        return f"the battle map is configuration {state.configuration}, expected {values['configuration']}"
    if "objective" in values and state.objective != values["objective"]:
        actual = game.label(state.objective) if state.objective is not None else "no hex"
        return f"the objective is {actual}, expected {game.label(values['objective'])}"
    for side, end in values.get("ends", {}).items():
        if state.ends.get(side) != end:
            return f"the {side.title} end is {state.ends.get(side) or 'not chosen yet'}, expected {end}"
    return None


# --- files and folders -------------------------------------------------------------------------------


@attrs.frozen
class Outcome:
    """The result of one file: passed, or the reason; `problems` when it could not be read."""

    name: str
    passed: bool
    reason: str = ""
    problems: tuple[Problem, ...] = ()


def find_files(paths: Iterable[str | Path]) -> list[Path]:
    """The rules-test files named or inside the folders named, sorted within each folder."""
    found: list[Path] = []
    for path in map(Path, paths):
        if is_dir(path):
            found.extend(files_in(path, recursive=True))
        else:
            found.append(path)
    return found


def run_file(path: str | Path) -> Outcome:
    name = str(path)
    try:
        test = load_rules_test(path)
    except MinisError as error:
        first = error.problems[0]
        return Outcome(name, False, f"cannot read the test: {first.message}", tuple(error.problems))
    try:
        reason = run_rules_test(test)
    except MinisError as error:
        return Outcome(name, False, str(error.problems[0].message))
    return Outcome(name, reason is None, reason or "")
