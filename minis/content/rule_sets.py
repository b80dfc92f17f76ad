"""Rule sets: the 2005 rulebook and the later official updates (2008, 2009, 2010) as named choices.

A rule set is a frozen bundle of options (`RuleSet`). Every rule that changed between the editions asks
its option here (army validation, stacking, the flight phase, who may attack aircraft, heroes,
obstacles); no rule reads a set's name. A file names its set with a top-level `rules = "NAME"`
(docs/contracts.md#rule-sets-in-files; left out: `2005`) and may set single options over it in a
`[rule_options]` table: the set is then "custom", shown as its base name with the options changed.
docs/rule-sets.md has the table of every option per set and the reasons behind each choice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal, get_args

import attrs

from minis.base.errors import Problem, did_you_mean
from minis.base.fields import same
from minis.base.limits import MAX_ARMY_POINTS, MAX_ARMY_UNITS
from minis.base.tomlfile import TomlSource, describe, toml_string
from minis.cards import Nation

#: The set a file plays under when it names none: the rulebook with the sets' rules inserts.
DEFAULT = "2005"

#: The values a file may give each option that is a word; mypy checks every comparison with them.
NationalityTable = Literal["2005", "2008", "2010"]
HeroCap = Literal["one-per-army", "per-100-points"]
VehicleScope = Literal["hex", "army"]
StackingCheck = Literal["each-move", "end-of-phase"]
AircraftPlacement = Literal["own-phase", "alternate", "alternate-with-pass"]

#: `max_units` without a limit (a file writes `max_units = "any"`).
ANY: Final = "any"

#: Stacking checked as each unit ends its move (2005): a move may never end beyond the limit.
EACH_MOVE: Final = "each-move"
#: Stacking checked at the end of each player's movement and assault phase (2008-2010): during his own
#: phase a player's moves may leave a hex over the limit (by one unit of his from 2009, by any number
#: under 2008: `RuleSet.overstack_while_moving`); at the phase's end each such hex costs him a face-down
#: hit counter on a unit there of his opponent's choice (`penalty U`).
END_OF_PHASE: Final = "end-of-phase"

#: Aircraft placement: each player places in his own flight phase (2006).
OWN_PHASE: Final = "own-phase"
#: One shared flight phase; the players place one aircraft at a time, first player first, until all that
#: may fly are placed (2008).
ALTERNATE: Final = "alternate"
#: As ALTERNATE, but a player may decline; once he does he places no more that turn (2010).
ALTERNATE_WITH_PASS: Final = "alternate-with-pass"

#: `hero_cap`: one Hero per army (2006), or one per 100 points of the army's limit (2010).
ONE_PER_ARMY: Final = "one-per-army"
PER_100_POINTS: Final = "per-100-points"


@attrs.frozen
class RuleSet:
    """The options of one rule set. `name` is the named set it is (or is based on); `changed` names the
    options a file set over it (a custom set)."""

    name: str = DEFAULT
    #: Most units in an army (None: any number).
    max_units: int | None = 15
    #: The army sizes a Standard battle may be played at, in points (the first is the usual one).
    point_levels: tuple[int, ...] = (100,)
    #: Obstacles may cost at most this percentage of the army's points limit (None: no cap).
    obstacle_percent: int | None = 10
    #: The historical nationality table (`minis.content.nationalities.TABLES`).
    nationality_table: NationalityTable = "2005"
    #: True: every army keeps the historical limits; False: only where the battle asks for them.
    nationality_required: bool = False
    #: Points limits for an army of one nation only (2010: Finland and Greece, 110).
    single_nation_points: tuple[tuple[Nation, int], ...] = ()
    #: ONE_PER_ARMY or PER_100_POINTS.
    hero_cap: HeroCap = ONE_PER_ARMY
    #: Units of one army that may share a hex.
    stack_per_army: int = 2
    #: "hex": one Vehicle among all the units in a hex; "army": one Vehicle of each army.
    vehicle_scope: VehicleScope = "hex"
    #: EACH_MOVE or END_OF_PHASE.
    stacking_checked: StackingCheck = EACH_MOVE
    #: Under END_OF_PHASE, by how many units of his a player's moves may leave a hex over the limit
    #: during his own phase: 1 (the 2009 update's one extra unit) or None (any number: the 2008 update
    #: checks only the end of the half phase). Unused under EACH_MOVE.
    overstack_while_moving: int | None = 1
    #: OWN_PHASE, ALTERNATE or ALTERNATE_WITH_PASS.
    aircraft_placement: AircraftPlacement = OWN_PHASE
    #: False: Artillery without Antiair can't attack aircraft.
    artillery_vs_aircraft: bool = True
    #: False: Crack Shot's +1 doesn't apply against aircraft.
    crack_shot_vs_aircraft: bool = True
    #: True: an aircraft disrupted by a reaction shot keeps the counter through the turn's casualty
    #: phase (the official Q&A); False: it loses it there, as a literal reading of the insert says.
    reaction_grounds_next_turn: bool = True
    changed: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        """'2009', or '2009 (custom: stack_per_army 2)' for a set with options changed."""
        if not self.changed:
            return self.name
        return f"{self.name} (custom: " + ", ".join(f"{o} {self.value_text(o)}" for o in self.changed) + ")"

    def value_text(self, option: str) -> str:
        """An option's value as a file writes it."""
        return option_text(getattr(self, option))

    def single_nation_limit(self, nation: Nation) -> int | None:
        return dict(self.single_nation_points).get(nation)


def option_text(value: object) -> str:
    if value is None:
        return ANY
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        if value and isinstance(value[0], tuple):
            return "{ " + ", ".join(f"{n.value} = {p}" for n, p in value) + " }"
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


RULEBOOK = RuleSet()

#: Each update built on the one before it: 2008 the October 2008 update, 2009 it with the January 2009
#: stacking update and the late-2009 aircraft rulings, 2010 the September 2010 update.
_2008 = RuleSet(
    name="2008",
    max_units=None,
    point_levels=(200, 100, 400),
    nationality_table="2008",
    nationality_required=True,
    stack_per_army=3,
    vehicle_scope="army",
    stacking_checked=END_OF_PHASE,
    overstack_while_moving=None,
    aircraft_placement=ALTERNATE,
)
_2009 = attrs.evolve(
    _2008,
    name="2009",
    vehicle_scope="hex",
    overstack_while_moving=1,
    artillery_vs_aircraft=False,
    crack_shot_vs_aircraft=False,
)
_2010 = attrs.evolve(
    _2009,
    name="2010",
    nationality_table="2010",
    nationality_required=False,
    single_nation_points=((Nation.FINLAND, 110), (Nation.GREECE, 110)),
    hero_cap=PER_100_POINTS,
    aircraft_placement=ALTERNATE_WITH_PASS,
)

#: The named sets, oldest first (docs/rule-sets.md says where each value comes from).
NAMED: Mapping[str, RuleSet] = {"2005": RULEBOOK, "2008": _2008, "2009": _2009, "2010": _2010}

#: The options a file may set over a named set, with what each takes.
CHOICES: Mapping[str, tuple[str, ...]] = {
    "nationality_table": get_args(NationalityTable),
    "hero_cap": get_args(HeroCap),
    "vehicle_scope": get_args(VehicleScope),
    "stacking_checked": get_args(StackingCheck),
    "aircraft_placement": get_args(AircraftPlacement),
}
FLAGS = (
    "nationality_required",
    "artillery_vs_aircraft",
    "crack_shot_vs_aircraft",
    "reaction_grounds_next_turn",
)
OPTIONS: tuple[str, ...] = tuple(f.name for f in attrs.fields(RuleSet) if f.name not in ("name", "changed"))


def named(name: str) -> RuleSet:
    """The named set `name` (KeyError if there is none: `problem_with_name` says it for a file)."""
    return NAMED[name]


def name_problem(name: object) -> tuple[str, str] | None:
    """(message, hint) if `name` names no rule set, else None. A file's value may be of any TOML type:
    `rules = 2010`, a number, names none (the name is text in quotes)."""
    known = ", ".join(NAMED)
    if not isinstance(name, str):
        return (
            f"'{RULES_KEY}' is the name of a rule set in quotes, not {describe(name)} "
            f"(the rule sets: {known})",
            f'{RULES_KEY} = "{name}"' if _whole(name) and str(name) in NAMED else "",
        )
    if name in NAMED:
        return None
    return f"unknown rule set '{name}' (the rule sets: {known})", did_you_mean(name, NAMED)


def option_problem(option: str, value: Any) -> tuple[str, str] | None:
    """(message, hint) if `value` is not a value `option` takes (or no option is called so), else None."""
    if option not in OPTIONS:
        return f"unknown rule option '{option}'", did_you_mean(option, list(OPTIONS)) or (
            "the options: " + ", ".join(OPTIONS)
        )
    if option in CHOICES:
        if value not in CHOICES[option]:
            return f"{option} is one of: " + ", ".join(CHOICES[option]), ""
        return None
    if option in FLAGS:
        return None if isinstance(value, bool) else (f"{option} is true or false", "")
    if option == "max_units":
        if value == ANY or (_whole(value) and 1 <= value <= MAX_ARMY_UNITS):
            return None
        return f'max_units is a number of units (1-{MAX_ARMY_UNITS}) or "{ANY}"', ""
    if option == "obstacle_percent":
        if value == ANY or (_whole(value) and 0 <= value <= 100):
            return None
        return f'obstacle_percent is a percentage (0-100) or "{ANY}"', ""
    if option == "overstack_while_moving":
        if value == ANY or (_whole(value) and 1 <= value <= 6):
            return None
        return f'overstack_while_moving is a number of units (1-6) or "{ANY}"', ""
    if option == "stack_per_army":
        return None if _whole(value) and 1 <= value <= 6 else ("stack_per_army is a number from 1 to 6", "")
    if option == "point_levels":
        if isinstance(value, list) and value and all(_whole(v) and 1 <= v <= MAX_ARMY_POINTS for v in value):
            return None
        return (
            f"point_levels is a list of army sizes in points (1-{MAX_ARMY_POINTS}), like [200, 100, 400]",
            "",
        )
    if option == "single_nation_points":
        if not isinstance(value, dict):
            return "single_nation_points is a table of nations and points, like { Finland = 110 }", ""
        for nation, points in value.items():
            try:
                Nation.parse(nation)
            except ValueError as error:
                return str(error), Nation.hint(nation)
            if not (_whole(points) and 1 <= points <= 10_000):
                return f"single_nation_points.{nation} is a number of points", ""
        return None
    raise AssertionError(f"option {option} has no check")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def with_options(base: RuleSet, options: Mapping[str, Any]) -> RuleSet:
    """`base` with some options set (values already checked by `option_problem`): a custom set."""
    values: dict[str, Any] = {}
    for option, value in options.items():
        if value == ANY:
            values[option] = None
        elif option == "point_levels":
            values[option] = tuple(value)
        elif option == "single_nation_points":
            values[option] = tuple((Nation.parse(n), p) for n, p in value.items())
        else:
            values[option] = value
    changed = tuple(o for o in OPTIONS if o in values and values[o] != getattr(base, o))
    return attrs.evolve(base, changed=tuple(dict.fromkeys((*base.changed, *changed))), **values)


# --- files ---------------------------------------------------------------------------------------------

#: The top-level keys a file names its rule set with (docs/contracts.md#rule-sets-in-files).
RULES_KEY = "rules"
OPTIONS_KEY = "rule_options"


def read(source: TomlSource, out: list[Problem], data: Mapping[str, Any] | None = None) -> RuleSet:
    """The rule set a file names (`rules = "NAME"`, `[rule_options]`), adding its problems to `out` at
    their line and column; the default set when the file names none (or names a wrong one)."""
    data = source.data if data is None else data
    base = RULEBOOK
    name = data.get(RULES_KEY)
    if name is not None:
        problem = name_problem(name)
        if problem is not None:
            out.append(source.problem((RULES_KEY,), *problem))
        else:
            base = NAMED[name]
    options = data.get(OPTIONS_KEY)
    if options is None:
        return base
    if not isinstance(options, dict):
        out.append(source.problem((OPTIONS_KEY,), f"'{OPTIONS_KEY}' must be a table: [{OPTIONS_KEY}]"))
        return base
    good: dict[str, Any] = {}
    for option, value in options.items():
        problem = option_problem(option, value)
        if problem is not None:
            out.append(source.problem((OPTIONS_KEY, option), *problem))
        else:
            good[option] = value
    return with_options(base, good) if good else base


def file_values(rules: RuleSet) -> dict[str, Any]:
    """What a file writes for `rules`: nothing for the default set, else its name and the options changed
    (as TOML values: `rules_toml` writes them)."""
    if same(rules, RULEBOOK):
        return {}
    values: dict[str, Any] = {RULES_KEY: rules.name}
    if rules.changed:
        values[OPTIONS_KEY] = {option: _file_value(getattr(rules, option)) for option in rules.changed}
    return values


def _file_value(value: Any) -> Any:
    if value is None:
        return ANY
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return {nation.value: points for nation, points in value}
    if isinstance(value, tuple):
        return list(value)
    return value


def rules_toml(rules: RuleSet) -> str:
    """The lines a file writes for `rules` (empty for the default set): `rules = "2009"` and, for a custom
    set, a `[rule_options]` table (which must come after the file's other top-level keys)."""
    values = file_values(rules)
    if not values:
        return ""
    text = f"{RULES_KEY} = {toml_string(rules.name)}\n"
    options = values.get(OPTIONS_KEY)
    if options:
        text += f"\n[{OPTIONS_KEY}]\n" + "".join(f"{k} = {toml_value(v)}\n" for k, v in options.items())
    return text


def toml_value(value: Any) -> str:
    """A rule option's value as TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"not a rule option value: {value!r}")


def _key(word: str) -> str:
    """A TOML key: bare where TOML allows it (`stack_per_army`, `Finland`), else quoted."""
    return (
        word if word and all(c.isascii() and (c.isalnum() or c in "_-") for c in word) else toml_string(word)
    )


def from_values(name: Any, options: Any) -> RuleSet:
    """The rule set of already checked values (a record header); ValueError saying what is wrong."""
    problem = name_problem(name)
    if problem is not None:
        raise ValueError(problem[0])
    base = NAMED[name]
    if options is None:
        return base
    if not isinstance(options, dict):
        raise ValueError(f"'{OPTIONS_KEY}' must be a table")
    for option, value in options.items():
        problem = option_problem(option, value)
        if problem is not None:
            raise ValueError(problem[0])
    return with_options(base, options)
