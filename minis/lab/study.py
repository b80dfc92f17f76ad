"""Study files: what a lab run plays (`minis lab run STUDY.toml`), in our own TOML format.

A study names everything its games are played from, so that the same file always gives the same games:

```toml
name = "random bots, whole catalogue"   # shown in the report
bots = ["random", "random"]             # the Axis bot, then the Allied bot (random, heuristic, search)
playouts = 32                           # the search bot's playouts a decision (default 32); the lab's
                                        # bots decide by this count, never by the clock
rules = "2005"                          # a rule set name (minis.content.rule_sets); [rule_options] may
                                        # change it
configurations = [1, 2, 3, 4, 5, 6]     # Standard battle map configurations, used in turn, game by game
games = 10000                           # how many games
seed = 1                                # the study's seed: every game's seed comes from it and its number
batch = 25                              # games a task (default 25)
turn_limit = 30                         # a game still running after this turn is a draw (default 30)

[armies]
points = 100                            # each army's points (default 100); [80, 120]: each game's
                                        # armies get from 80 to 120 points, drawn game by game
year = 1942                             # optional: only cards from this year or earlier
historical = false                      # hold both armies to the nationality table (default false)
cards = ["m4a1-sherman", "tiger-i"]     # optional: the cards armies are drawn from (default: every
                                        # card the computer may buy, for either side)
draw = "strong"                         # "strong": as the computer builds its armies (default);
                                        # "varied": one quicker, less greedy draw, so that every card
                                        # comes up often enough to be measured

[armies.allies]                         # optional: what changes for one side ([armies.axis] too)
points = 120
cards = ["m4a1-sherman", "m18-hellcat"]
```

Without `scenario` the games are Standard battles, on the configurations in turn. With
`scenario = "breakout"` (a shipped scenario's name) or `scenario = "my-battle.toml"` (a scenario file,
found from the study's folder) every game is that scenario: its map, its rule set, its army limits, its
victory conditions and turns (a scenario without a turn limit ends at `turn_limit`). The scenario sets
what `configurations`, `rules`, `[rule_options]` and the army's `points`, `year` and `historical` would,
so a study with a scenario leaves them out. Where a scenario lets the players choose the attacker, the
Axis attacks in even-numbered games and the Allies in odd ones. Workers of a cluster must find the
scenario file at the same path (a shipped one by its name), and check that it is the driver's.

Each game's two armies are drawn from the game's seed by the computer's army maker
(`minis.ai.army_maker.make_army`, or `army_for_scenario` within a scenario's limits), legal under the
rule set, from printed costs only (never the card-values table, which is measured from studies); with
`cards`, the army maker is offered only those cards. Every mistake is reported at its FILE:LINE:COL.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from minis.ai.army_maker import CANDIDATES, GREED, army_for_scenario, make_army
from minis.ai.registry import BOT_NAMES, UnknownBot, make_bot
from minis.base.data import shipped_file
from minis.base.errors import MinisError, Problem
from minis.base.limits import MAX_ARMY_POINTS, MAX_STUDY_GAMES, MAX_TURNS
from minis.base.paths import is_file, read_bytes, resolved
from minis.base.sides import Side
from minis.base.tomlfile import TomlSource, read_toml
from minis.cards import StatCard, card_catalogue
from minis.content import rule_sets
from minis.content.rule_sets import RuleSet
from minis.engine.scenario import Scenario, load_scenario, shipped_scenarios

#: The Standard battle's map configurations.
CONFIGURATIONS = (1, 2, 3, 4, 5, 6)
DEFAULT_BATCH = 25
DEFAULT_POINTS = 100
DEFAULT_TURN_LIMIT = 30
#: The search bot's playouts a decision unless the study says otherwise (its own MAX_PLAYOUTS).
DEFAULT_PLAYOUTS = 32
#: Keys that would make a study's games depend on the clock: refused, with a word on `playouts`.
TIME_KEYS = ("budget", "time", "seconds")
#: The keys a study may have, at the top and in [armies].
TOP_KEYS = (
    "name",
    "scenario",
    "bots",
    "playouts",
    "rules",
    "rule_options",
    "configurations",
    "games",
    "seed",
    "batch",
    "turn_limit",
    "armies",
)
ARMY_KEYS = ("points", "year", "historical", "cards", "draw")
#: The tables of [armies] that change the draw of one side only.
SIDE_TABLES = ("axis", "allies")
#: How armies may be drawn: the army maker's greed and how many candidate armies it keeps the best of.
DRAWS: Mapping[str, tuple[float, int]] = {"strong": (GREED, CANDIDATES), "varied": (1.0, 1)}


@attrs.frozen
class ArmyDraw:
    """How one side's armies are drawn: `[armies]`, with what `[armies.axis]` or `[armies.allies]` changes."""

    points: int = DEFAULT_POINTS
    year: int | None = None
    historical: bool = False
    cards: tuple[str, ...] | None = None
    draw: str = "strong"
    #: With `points = [LOW, HIGH]`: the most points, each game's army getting a whole number from
    #: `points` to this, drawn evenly (armies that differ in points are what measure a point's worth).
    points_high: int | None = None

    def points_for(self, army_seed: int) -> int:
        """The points of the army drawn from `army_seed`: `points`, or one of the range from a stream of
        its own (so that a study of fixed points plays the games it always did)."""
        if self.points_high is None:
            return self.points
        return random.Random(f"points:{army_seed}").randint(self.points, self.points_high)

    @property
    def greed(self) -> float:
        return DRAWS[self.draw][0]

    @property
    def candidates(self) -> int:
        return DRAWS[self.draw][1]


@attrs.frozen
class Study:
    """A study as read from its file; `sha256` is of its text, so a changed study is noticed."""

    path: Path
    name: str
    bots: tuple[str, str]
    rules: RuleSet
    configurations: tuple[int, ...]
    games: int
    seed: int
    batch: int
    turn_limit: int
    #: How the Axis armies and the Allied armies are drawn.
    armies: tuple[ArmyDraw, ArmyDraw]
    sha256: str
    #: The scenario as workers find it (a shipped scenario's name, else its absolute path), or None.
    scenario: str | None = None
    #: The scenario file's and its map file's fingerprint, which every worker's copy must match.
    scenario_sha256: str = ""
    #: The search bot's playouts a decision: in the lab it decides by this count, never by the clock.
    playouts: int = DEFAULT_PLAYOUTS

    def army(self, side: Side) -> ArmyDraw:
        return self.armies[0 if side is Side.AXIS else 1]


def load_study(path: str | Path) -> Study:
    """The study in `path`; MinisError with every mistake at its line and column."""
    source = read_toml(path)
    problems: list[Problem] = []
    study = _read(source, Path(path), problems)
    if problems or study is None:
        raise MinisError(problems)
    return study


def card_pool(cards: tuple[str, ...] | None) -> Mapping[str, StatCard]:
    """The cards the armies are drawn from: the whole catalogue, or only the study's list."""
    catalogue = card_catalogue()
    if cards is None:
        return catalogue
    return {card_id: catalogue[card_id] for card_id in cards}


def _read(source: TomlSource, path: Path, out: list[Problem]) -> Study | None:
    data = source.data
    for key in data:
        if key in TIME_KEYS:
            out.append(
                source.problem(
                    (key,),
                    "the lab's bots decide by a count of playouts, never by time (a busy machine would "
                    "play other games)",
                    "give the search bot's playouts a decision instead: playouts = 32",
                )
            )
        elif key not in TOP_KEYS:
            out.append(source.problem((key,), f"unknown key '{key}'", source.hints(key, TOP_KEYS)))
    name = _text(source, out, ("name",), required=True) or ""
    bots = _bots(source, out)
    scenario, reference = _scenario(source, path, out)
    rules = rule_sets.read(source, out) if scenario is None else scenario.doc.rules
    configurations = _configurations(source, out) if scenario is None else ()
    games = _whole(source, out, ("games",), None, least=1, most=MAX_STUDY_GAMES)
    seed = _whole(source, out, ("seed",), None, least=-(2**63))
    batch = _whole(source, out, ("batch",), DEFAULT_BATCH, least=1)
    turn_limit = _whole(source, out, ("turn_limit",), DEFAULT_TURN_LIMIT, least=1, most=MAX_TURNS)
    playouts = _whole(source, out, ("playouts",), DEFAULT_PLAYOUTS, least=1)
    draws = _armies(source, out)
    if scenario is not None:
        _scenario_sets(source, out, scenario.title)
    if out or games is None or seed is None or bots is None:
        return None
    assert batch is not None and turn_limit is not None and playouts is not None
    for side, draw in zip((Side.AXIS, Side.ALLIES), draws, strict=True):
        _check_draw(source, out, scenario, side, draw, rules)
    if out:
        return None
    return Study(
        path=path,
        name=name,
        bots=bots,
        rules=rules,
        configurations=configurations,
        games=games,
        seed=seed,
        batch=batch,
        turn_limit=turn_limit,
        armies=draws,
        sha256=hashlib.sha256(source.text.encode()).hexdigest(),
        scenario=reference,
        scenario_sha256=scenario_fingerprint(scenario) if scenario is not None else "",
        playouts=playouts,
    )


def attackers(scenario: Scenario) -> tuple[Side | None, ...]:
    """The attackers a study plays the scenario with: its own, both in turn when the players choose, or
    none (a battle without attacker and defender)."""
    if not scenario.is_attack:
        return (None,)
    fixed = scenario.attacker_side
    return (fixed,) if fixed is not None else (Side.AXIS, Side.ALLIES)


def scenario_fingerprint(scenario: Scenario) -> str:
    """The sha256 of the scenario file's bytes and its map file's (a worker's copy must be the same)."""
    digest = hashlib.sha256(read_bytes(Path(scenario.file)))
    if scenario.map_path is not None:
        digest.update(read_bytes(scenario.map_path))
    return digest.hexdigest()


def _scenario(source: TomlSource, path: Path, out: list[Problem]) -> tuple[Scenario | None, str | None]:
    """The study's scenario and how workers find it, or (None, None) for Standard battles."""
    value = source.data.get("scenario")
    if value is None:
        return None, None
    if not isinstance(value, str) or not value.strip():
        out.append(source.problem(("scenario",), "'scenario' is a scenario's name or file, in quotes"))
        return None, None
    bare = Path(value)
    shipped = not bare.suffix and bare.parent == Path(".")
    file = shipped_file(value, "scenarios") if shipped else (path.parent / bare)
    if not is_file(file):
        names = [p.stem for p in shipped_scenarios()]
        hint = f"shipped scenarios: {', '.join(names)}" if shipped else ""
        what = f"no shipped scenario '{value}'" if shipped else f"no scenario file {file}"
        out.append(source.problem(("scenario",), what, hint))
        return None, None
    try:
        scenario = load_scenario(file)
    except MinisError as error:  # the scenario file's own problems, at their lines in that file
        out.extend(error.problems)
        return None, None
    return scenario, value if shipped else str(resolved(file))


def _scenario_sets(source: TomlSource, out: list[Problem], title: str) -> None:
    """A study with a scenario leaves out what the scenario sets."""
    armies = source.data.get("armies")
    keys: list[tuple[str, ...]] = [
        (key,) for key in ("configurations", "rules", "rule_options") if key in source.data
    ]
    if isinstance(armies, dict):
        keys += [("armies", key) for key in ("points", "year", "historical") if key in armies]
        for side in SIDE_TABLES:
            own = armies.get(side)
            if isinstance(own, dict):
                keys += [("armies", side, key) for key in ("points", "year", "historical") if key in own]
    for key in keys:
        out.append(
            source.problem(key, f"the scenario '{title}' sets this: leave '{key[-1]}' out of the study")
        )


def _text(source: TomlSource, out: list[Problem], key: tuple[str, ...], *, required: bool) -> str | None:
    value = _get(source.data, key)
    if value is None:
        if required:
            out.append(source.problem(key, f"the study needs '{key[-1]}'"))
        return None
    if not isinstance(value, str) or not value.strip():
        out.append(source.problem(key, f"'{key[-1]}' must be a text in quotes"))
        return None
    return value


def _whole(
    source: TomlSource,
    out: list[Problem],
    key: tuple[str, ...],
    default: int | None,
    *,
    least: int,
    most: int = 2**63 - 1,
    required: bool = True,
) -> int | None:
    value = _get(source.data, key)
    if value is None:
        if default is None and required:
            out.append(source.problem(key, f"the study needs '{key[-1]}', a whole number"))
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        within = f"from {least:,} to {most:,}" if most < 2**63 - 1 else f"of at least {least}"
        out.append(source.problem(key, f"'{key[-1]}' must be a whole number {within}"))
        return default
    return value


def _points(
    source: TomlSource, out: list[Problem], key: tuple[str, ...], value: object
) -> dict[str, int | None]:
    """`points = N`, or `points = [LOW, HIGH]` for armies of LOW to HIGH points, drawn game by game; at
    most MAX_ARMY_POINTS (an army's draw takes work in proportion to its points)."""
    if not isinstance(value, list):
        points = _whole(source, out, key, DEFAULT_POINTS, least=1, most=MAX_ARMY_POINTS)
        return {"points": points, "points_high": None}
    if (
        len(value) != 2
        or not all(
            isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= MAX_ARMY_POINTS for n in value
        )
        or value[0] > value[1]
    ):
        out.append(
            source.problem(
                key,
                "'points' is a whole number, or [LOW, HIGH] with 1 <= LOW <= HIGH, like [80, 120]; "
                f"an army has at most {MAX_ARMY_POINTS} points",
            )
        )
        return {}
    return {"points": value[0], "points_high": value[1]}


def _bots(source: TomlSource, out: list[Problem]) -> tuple[str, str] | None:
    value = source.data.get("bots")
    if value is None:
        out.append(source.problem(("bots",), "the study needs 'bots': the Axis bot and the Allied bot"))
        return None
    if not isinstance(value, list) or len(value) != 2 or not all(isinstance(name, str) for name in value):
        out.append(
            source.problem(("bots",), f"'bots' is two bot names, Axis then Allies: {', '.join(BOT_NAMES)}")
        )
        return None
    for name in dict.fromkeys(value):
        try:
            make_bot(name, 0, workers=0)  # no pool: only the name is checked
        except UnknownBot as error:
            out.append(source.problem(("bots",), str(error)))
            return None
    return value[0], value[1]


def _configurations(source: TomlSource, out: list[Problem]) -> tuple[int, ...]:
    value = source.data.get("configurations", list(CONFIGURATIONS))
    message = "'configurations' is a list of Standard battle map configurations, 1 to 6"
    if not isinstance(value, list) or not value:
        out.append(source.problem(("configurations",), message))
        return CONFIGURATIONS
    if not all(isinstance(c, int) and not isinstance(c, bool) and c in CONFIGURATIONS for c in value):
        out.append(source.problem(("configurations",), message))
        return CONFIGURATIONS
    return tuple(value)


def _armies(source: TomlSource, out: list[Problem]) -> tuple[ArmyDraw, ArmyDraw]:
    """The Axis and Allied draws: `[armies]` for both, changed for one side by its own table."""
    armies = source.data.get("armies", {})
    if not isinstance(armies, dict):
        out.append(source.problem(("armies",), "'armies' must be a table: [armies]"))
        return ArmyDraw(), ArmyDraw()
    both = _draw_keys(source, out, ("armies",), armies, SIDE_TABLES)
    draws = []
    for side in SIDE_TABLES:
        own = armies.get(side, {})
        if not isinstance(own, dict):
            out.append(source.problem(("armies", side), f"'{side}' must be a table: [armies.{side}]"))
            own = {}
        draws.append(ArmyDraw(**{**both, **_draw_keys(source, out, ("armies", side), own, ())}))
    return draws[0], draws[1]


def _draw_keys(
    source: TomlSource,
    out: list[Problem],
    where: tuple[str, ...],
    table: Mapping[str, Any],
    tables: tuple[str, ...],
) -> dict[str, Any]:
    """The army keys one table gives (only those it has), each checked."""
    for key in table:
        if key not in ARMY_KEYS and key not in tables:
            known = [*ARMY_KEYS, *tables]
            out.append(source.problem((*where, key), f"unknown key '{key}'", source.hints(key, known)))
    found: dict[str, Any] = {}
    if "points" in table:
        found.update(_points(source, out, (*where, "points"), table["points"]))
    if "year" in table:
        found["year"] = _whole(source, out, (*where, "year"), None, least=1, required=False)
    if "historical" in table:
        found["historical"] = table["historical"] if isinstance(table["historical"], bool) else False
        if not isinstance(table["historical"], bool):
            out.append(source.problem((*where, "historical"), "'historical' is true or false"))
    if "cards" in table:
        found["cards"] = _cards(source, out, (*where, "cards"), table["cards"])
    if "draw" in table:
        named = isinstance(table["draw"], str) and table["draw"] in DRAWS  # `["varied"]` names no draw
        found["draw"] = table["draw"] if named else "strong"
        if not named:
            choices = ", ".join(repr(d) for d in DRAWS)
            out.append(source.problem((*where, "draw"), f"'draw' is one of: {choices}"))
    return found


def _cards(
    source: TomlSource, out: list[Problem], key: tuple[str, ...], value: object
) -> tuple[str, ...] | None:
    if not isinstance(value, list) or not value or not all(isinstance(card, str) for card in value):
        out.append(source.problem(key, "'cards' is a list of card ids, like [\"m4a1-sherman\"]"))
        return None
    catalogue = card_catalogue()
    unknown = [card for card in value if card not in catalogue]
    for card in unknown:
        out.append(source.problem(key, f"unknown card '{card}'", source.hints(card, catalogue)))
    return None if unknown else tuple(dict.fromkeys(value))


def _check_draw(
    source: TomlSource,
    out: list[Problem],
    scenario: Scenario | None,
    side: Side,
    draw: ArmyDraw,
    rules: RuleSet,
) -> None:
    """Say before any game is played if a side's army can't be drawn (one quick draw per case)."""
    own = "axis" if side is Side.AXIS else "allies"
    where = ("armies", own) if own in source.data.get("armies", {}) else ("armies",)
    try:
        if scenario is None:
            make_army(
                card_pool(draw.cards),
                side,
                draw.points,
                rng=random.Random(0),
                year=draw.year,
                historical=draw.historical,
                rules=rules,
                worth={},
                greed=draw.greed,
                candidates=1,
            )
            return
        for attacker in attackers(scenario):
            army_for_scenario(
                scenario,
                side,
                random.Random(0),
                attacker=attacker,
                cards=card_pool(draw.cards),
                worth={},
                greed=draw.greed,
                candidates=1,
            )
    except MinisError as error:
        out.extend(source.problem(where, problem.message) for problem in error.problems)


def _get(data: Mapping[str, Any], key: tuple[str, ...]) -> Any:
    value: Any = data
    for part in key:
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value
