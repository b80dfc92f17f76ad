"""Study files: what a lab run plays (`minis lab run STUDY.toml`), in our own TOML format.

A study names everything its games are played from, so that the same file always gives the same games:

```toml
name = "random bots, whole catalogue"   # shown in the report
bots = ["random", "random"]             # the Axis bot, then the Allied bot (random, heuristic, search)
rules = "2005"                          # a rule set name (minis.rule_sets); [rule_options] may change it
configurations = [1, 2, 3, 4, 5, 6]     # Standard battle map configurations, used in turn, game by game
games = 10000                           # how many games
seed = 1                                # the study's seed: every game's seed comes from it and its number
batch = 25                              # games a task (default 25)
turn_limit = 30                         # a game still running after this turn is a draw (default 30)

[armies]
points = 100                            # each army's points (default 100)
year = 1942                             # optional: only cards from this year or earlier
historical = false                      # hold both armies to the nationality table (default false)
cards = ["us-sherman", "de-panzer-iv"]  # optional: the cards armies are drawn from (default: every
                                        # card the computer may buy, for either side)
```

Only the Standard battle is played for now (no `scenario` key): the configurations are its maps.
Each game's two armies are drawn from the game's seed by the computer's army maker
(`minis.ai.army_maker.make_army`), strong for their points and legal under the rule set; with `cards`,
the army maker is offered only those cards. Every mistake is reported at its FILE:LINE:COL.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from minis import rule_sets
from minis.ai.army_maker import make_army
from minis.ai.registry import BOT_NAMES, UnknownBot, make_bot
from minis.cards import StatCard, card_catalogue
from minis.errors import MinisError, Problem, did_you_mean
from minis.rule_sets import RuleSet
from minis.sides import Side
from minis.tomlfile import TomlSource, read_toml

#: The Standard battle's map configurations.
CONFIGURATIONS = (1, 2, 3, 4, 5, 6)
DEFAULT_BATCH = 25
DEFAULT_POINTS = 100
DEFAULT_TURN_LIMIT = 30
#: The keys a study may have, at the top and in [armies].
TOP_KEYS = (
    "name",
    "bots",
    "rules",
    "rule_options",
    "configurations",
    "games",
    "seed",
    "batch",
    "turn_limit",
    "armies",
)
ARMY_KEYS = ("points", "year", "historical", "cards")


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
    points: int
    year: int | None
    historical: bool
    cards: tuple[str, ...] | None
    sha256: str


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
        if key not in TOP_KEYS:
            out.append(source.problem((key,), f"unknown key '{key}'", did_you_mean(key, list(TOP_KEYS))))
    name = _text(source, out, ("name",), required=True) or ""
    bots = _bots(source, out)
    rules = rule_sets.read(source, out)
    configurations = _configurations(source, out)
    games = _whole(source, out, ("games",), None, least=1)
    seed = _whole(source, out, ("seed",), None, least=-(2**63))
    batch = _whole(source, out, ("batch",), DEFAULT_BATCH, least=1)
    turn_limit = _whole(source, out, ("turn_limit",), DEFAULT_TURN_LIMIT, least=1)
    armies = data.get("armies", {})
    if not isinstance(armies, dict):
        out.append(source.problem(("armies",), "'armies' must be a table: [armies]"))
        armies = {}
    for key in armies:
        if key not in ARMY_KEYS:
            out.append(
                source.problem(("armies", key), f"unknown key '{key}'", did_you_mean(key, list(ARMY_KEYS)))
            )
    points = _whole(source, out, ("armies", "points"), DEFAULT_POINTS, least=1)
    year = _whole(source, out, ("armies", "year"), None, least=1, required=False)
    historical = armies.get("historical", False)
    if not isinstance(historical, bool):
        out.append(source.problem(("armies", "historical"), "'historical' is true or false"))
        historical = False
    cards = _cards(source, out)
    if out or games is None or seed is None or bots is None:
        return None
    assert batch is not None and turn_limit is not None and points is not None
    for side in (Side.AXIS, Side.ALLIES):  # an army that can't be drawn is said before any game
        try:
            make_army(
                card_pool(cards),
                side,
                points,
                rng=random.Random(0),
                year=year,
                historical=historical,
                rules=rules,
            )
        except MinisError as error:
            where = ("armies", "cards") if cards is not None else ("armies",)
            out.extend(source.problem(where, problem.message) for problem in error.problems)
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
        points=points,
        year=year,
        historical=historical,
        cards=cards,
        sha256=hashlib.sha256(source.text.encode()).hexdigest(),
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
    required: bool = True,
) -> int | None:
    value = _get(source.data, key)
    if value is None:
        if default is None and required:
            out.append(source.problem(key, f"the study needs '{key[-1]}', a whole number"))
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value < 2**63:
        out.append(source.problem(key, f"'{key[-1]}' must be a whole number of at least {least}"))
        return default
    return value


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
            make_bot(name, 0, workers=1)
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


def _cards(source: TomlSource, out: list[Problem]) -> tuple[str, ...] | None:
    armies = source.data.get("armies")
    value = armies.get("cards") if isinstance(armies, dict) else None
    if value is None:
        return None
    key = ("armies", "cards")
    if not isinstance(value, list) or not value or not all(isinstance(card, str) for card in value):
        out.append(source.problem(key, "'cards' is a list of card ids, like [\"us-sherman\"]"))
        return None
    catalogue = card_catalogue()
    unknown = [card for card in value if card not in catalogue]
    for card in unknown:
        out.append(source.problem(key, f"unknown card '{card}'", did_you_mean(card, list(catalogue))))
    return None if unknown else tuple(dict.fromkeys(value))


def _get(data: Mapping[str, Any], key: tuple[str, ...]) -> Any:
    value: Any = data
    for part in key:
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value
