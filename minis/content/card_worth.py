"""What cards are worth in play, as the balance lab measured it: the table the computer builds armies with.

A card-values table is a TOML file written by `minis lab report STUDY --table FILE`: the study it comes
from, then one line per card the study's games held,

```toml
study = "heuristic bots, whole catalogue, 80 to 120 points, varied armies"
games = 7000

[cards]
tiger-i = { cost = 56, games = 133, fair = 74.74, low = 66.06, high = 83.42 }
```

with the card's printed cost, the games it was in, and its fair cost in points with the 95% interval
(`minis.lab.report`). The shipped table is `studies/card-values-table.toml`, from `studies/card-values.toml`.

`worth` turns a line into the points the computer believes the card is worth: nothing (the printed cost
stands) below `MIN_GAMES` games, else the fair cost pulled towards the printed cost by how unsure it is
(a precision-weighted mean, the printed cost counting as a measurement with a standard error of
`PRIOR_SHARE` of itself): a card seen in a few hundred games moves only part of the way from its price.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping
from pathlib import Path

import attrs

from minis.base.data import shipped_folder
from minis.base.errors import MinisError, Problem
from minis.base.paths import is_file
from minis.base.tomlfile import TomlSource, read_toml, toml_string

#: A card needs this many games before its measured worth is used at all.
MIN_GAMES = 100
#: The printed cost's weight as a measurement: its standard error, as a share of the cost.
PRIOR_SHARE = 0.5
#: The normal quantile of a two-sided 95% interval (the table's intervals are 95% ones).
Z95 = 1.959963984540054
#: The shipped table's file, in the shipped `studies` folder.
SHIPPED_TABLE = "card-values-table.toml"
TOP_KEYS = ("study", "games", "cards")
CARD_KEYS = ("cost", "games", "fair", "low", "high")
#: A card's printed cost, as on its card (`minis.cards`): 0.5 to 200 points.
COSTS = (0.5, 200.0)
#: A fair cost and its interval lie within this many points either side of 0 (five times the dearest
#: card), or are `nan` (not measured); anything beyond is no measure, and would overflow the arithmetic.
MAX_FAIR = 1000.0
#: An interval narrower than this (in points) counts as certain: the measure stands as it is.
CERTAIN = 1e-6


@attrs.frozen
class Measured:
    """One card's line: printed cost, games it was in, fair cost and its 95% interval (points)."""

    cost: float
    games: int
    fair: float
    low: float
    high: float


@attrs.frozen
class WorthTable:
    """A card-values table as read: the study's name, its games, and each card's line."""

    study: str
    games: int
    cards: Mapping[str, Measured]

    def worth(self) -> dict[str, float]:
        """Each card's worth in points, for the cards whose measure is used (see the module's docstring)."""
        found = {card: worth(line) for card, line in self.cards.items()}
        return {card: value for card, value in found.items() if value is not None}


def worth(line: Measured) -> float | None:
    """The points a card is believed worth, or None where its printed cost should stand."""
    if line.games < MIN_GAMES or line.cost <= 0:
        return None
    if not all(math.isfinite(x) for x in (line.fair, line.low, line.high)) or line.high <= line.low:
        return None
    error = (line.high - line.low) / (2 * Z95)
    if error < CERTAIN:  # 1 / error**2 would overflow
        return line.fair
    prior = PRIOR_SHARE * line.cost
    weight, prior_weight = 1 / error**2, 1 / prior**2
    return (line.fair * weight + line.cost * prior_weight) / (weight + prior_weight)


def read_table(path: str | Path) -> WorthTable:
    """The table in `path`; MinisError with every mistake at its line and column."""
    source = read_toml(path)
    problems: list[Problem] = []
    table = _read(source, problems)
    if problems or table is None:
        raise MinisError(problems)
    return table


def shipped_path() -> Path:
    return shipped_folder("studies") / SHIPPED_TABLE


@functools.cache
def shipped_worth() -> Mapping[str, float]:
    """The shipped table's worths (read once a process); empty when no table ships."""
    path = shipped_path()
    return read_table(path).worth() if is_file(path) else {}


def table_text(
    study: str, games: int, lines: Iterable[tuple[str, Measured]], comments: Iterable[str] = ()
) -> str:
    """A table's text: `comments` first (each a `# ` line), then the study and one line per card, sorted."""
    out = [f"# {comment}".rstrip() for comment in comments]
    out += [f"study = {toml_string(study)}", f"games = {games}", "", "[cards]"]
    for card, line in sorted(lines):
        out.append(
            f"{card} = {{ cost = {_number(line.cost)}, games = {line.games}, fair = {_number(line.fair)}, "
            f"low = {_number(line.low)}, high = {_number(line.high)} }}"
        )
    return "\n".join(out) + "\n"


def _number(value: float) -> str:
    if not math.isfinite(value):
        return "nan"
    return f"{value:.0f}" if value == int(value) and abs(value) < 1e6 else f"{value:.2f}"


def _read(source: TomlSource, out: list[Problem]) -> WorthTable | None:
    data = source.data
    for key in data:
        if key not in TOP_KEYS:
            out.append(source.problem((key,), f"unknown key '{key}'", source.hints(key, TOP_KEYS)))
    study = data.get("study")
    if not isinstance(study, str):
        out.append(source.problem(("study",), "the table needs 'study', the name of its study, in quotes"))
    games = data.get("games")
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        out.append(source.problem(("games",), "the table needs 'games', the study's games, a whole number"))
    cards = data.get("cards", {})
    if not isinstance(cards, dict):
        out.append(source.problem(("cards",), "'cards' must be a table: [cards]"))
        cards = {}
    lines = {}
    for card, value in cards.items():
        line = _line(source, out, card, value)
        if line is not None:
            lines[card] = line
    if out:
        return None
    assert isinstance(study, str) and isinstance(games, int)
    return WorthTable(study, games, lines)


def _line(source: TomlSource, out: list[Problem], card: str, value: object) -> Measured | None:
    where = ("cards", card)
    shape = "a card's line is { cost = N, games = N, fair = X, low = X, high = X }"
    if not isinstance(value, dict):
        out.append(source.problem(where, shape))
        return None
    found = len(out)
    for key in value:
        if key not in CARD_KEYS:
            out.append(source.problem((*where, key), f"unknown key '{key}'", source.hints(key, CARD_KEYS)))
    numbers: dict[str, float] = {}
    for key in CARD_KEYS:
        number = value.get(key)
        if number is None:
            out.append(source.problem(where, f"'{card}' has no '{key}': {shape}"))
        elif isinstance(number, bool) or not isinstance(number, int | float):
            out.append(source.problem((*where, key), f"'{key}' must be a number"))
        elif key == "games" and (not isinstance(number, int) or number < 0):
            out.append(source.problem((*where, key), "'games' must be a whole number of at least 0"))
        elif key == "cost" and not COSTS[0] <= number <= COSTS[1]:
            out.append(
                source.problem((*where, key), f"'cost' is the card's printed cost: {number} is not 0.5-200")
            )
        elif key in ("fair", "low", "high") and not (math.isnan(number) or abs(number) <= MAX_FAIR):
            within = f"from {-MAX_FAIR:g} to {MAX_FAIR:g} (or nan)"
            message = f"'{key}' must be a number of points {within}, not {number}"
            out.append(source.problem((*where, key), message))
        else:
            numbers[key] = float(number)
    if len(out) > found:
        return None
    return Measured(numbers["cost"], int(numbers["games"]), numbers["fair"], numbers["low"], numbers["high"])
