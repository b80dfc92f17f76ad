"""Inline boards of rules tests (docs/contracts.md#rules-test-files): a `board` grid with `streams`,
`roads` and `objective` keys, or `configuration = N`. Problems are placed in the rules test's own file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from minis.base.errors import MinisError
from minis.base.tomlfile import TomlLayout
from minis.board import Board
from minis.mapfile.freemap import board_parts
from minis.mapfile.labels import split
from minis.mapfile.loading import load_configuration
from minis.mapfile.syntax import Where


def parse_board_text(
    grid: str,
    streams: Sequence[str] = (),
    roads: Sequence[str] = (),
    objective: str | None = None,
    *,
    file: str = "<board>",
    source: str | None = None,
    table: str | None = None,
) -> Board:
    """A Board from an inline grid (docs/contracts.md#rules-test-files) with its streams, roads and
    objective.

    Problems are located in `source`, the text of the caller's TOML file, where the pieces are the keys
    `board`, `streams`, `roads` and `objective` (of `table` if they sit in one). Without `source` the grid's
    own lines are counted from 1.
    """
    layout = TomlLayout.scan(source) if source is not None else None
    where = Where(file, layout, table=table)
    for key, value in (("streams", streams), ("roads", roads)):
        if not all(isinstance(s, str) for s in value):
            where.add(where.value(key), f"'{key}' must be a list of strings")
    where.raise_if_any()
    return _board(grid, streams, roads, objective, where)


def _board(
    grid: str, streams: Sequence[str], roads: Sequence[str], objective: str | None, where: Where
) -> Board:
    _, board = board_parts(
        grid,
        where.block("board"),
        where,
        tuple(split(s) for s in roads if s.strip()),
        tuple(split(s) for s in streams if s.strip()),
        objective,
        {"streams": list(streams), "roads": list(roads)},
    )
    where.raise_if_any()
    assert board is not None
    return board


def board_from_toml(table: Mapping[str, Any], source: str, file: str) -> Board:
    """The board a rules test describes: `board` (with `streams`, `roads`, `objective`) or `configuration`.

    `table` is the parsed file, `source` its text (for line and column), `file` its name.
    """
    where = Where(file, TomlLayout.scan(source))
    grid, number = table.get("board"), table.get("configuration")
    if (grid is None) == (number is None):
        where.add(
            where.key("configuration") if number is not None else (1, 1),
            'give either board = """...""" or configuration = N'
            if grid is None
            else "give board or configuration, not both",
        )
        where.raise_if_any()
    if number is not None:
        for key in ("streams", "roads", "objective"):
            if key in table:
                where.add(
                    where.key(key),
                    f"'{key}' only goes with an inline board",
                    "a configuration has its own roads, streams and objective",
                )
        if isinstance(number, bool) or not isinstance(number, int):
            where.add(
                where.value("configuration"),
                "'configuration' must be a number from 1 to 6",
                "configuration = 3",
            )
        where.raise_if_any()
        try:
            return load_configuration(int(number))
        except MinisError as error:
            problem = error.problems[0]
            where.add(where.value("configuration"), problem.message, problem.hint)
            where.raise_if_any()
    if not isinstance(grid, str):
        where.add(
            where.value("board"), "'board' must be a multi-line string", 'board = """\nC C C\n C C\n"""'
        )
    for key in ("streams", "roads"):
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
            where.add(where.value(key), f"'{key}' must be a list of strings")
    objective = table.get("objective")
    if objective is not None and not isinstance(objective, str):
        where.add(where.value("objective"), "'objective' must be a hex label in quotes", 'objective = "B2"')
    where.raise_if_any()
    assert isinstance(grid, str)  # anything else was reported, and raise_if_any stopped there
    return _board(grid, table.get("streams", []), table.get("roads", []), objective, where)
