"""Mutated and random map files never crash the reader: it either reads them or raises MinisError.

Whatever it reads, it writes back so that reading the result gives the same document again.
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minis.base.errors import MinisError
from minis.board import Board
from minis.mapfile import (
    MAPS_DIR,
    MapDoc,
    board_from_toml,
    configuration_board,
    dump,
    map_board,
    map_document,
    parse_board_text,
    parse_document,
)

SECTION_TEXT = (MAPS_DIR / "sections" / "baker-2.toml").read_text(encoding="utf-8")
CONFIGURATION_TEXT = (MAPS_DIR / "configurations" / "4-urban-combat.toml").read_text(encoding="utf-8")
MAP_TEXT = '''# a small map
kind = "map"
title = "Ford"
terrain = """
C C C C C
 C T F C
C C M C C
"""
roads = ["A1 A2 B2 C3", "C3 C4"]
streams = ["B2/B3 B3/C4", "A5/SW"]
objective = "B2"
'''

ALPHABET = st.sampled_from(
    [*"CFHTMPXcf .\n\t\"'=[]{}/:,#0123456789ABEK-\\é\x00\x7f\r", "turned", "SE", '"""']
)
#: MINIS_FUZZ_EXAMPLES=5000 for a longer hunt; the default keeps the suite quick.
EXAMPLES = int(os.environ.get("MINIS_FUZZ_EXAMPLES", "150"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """The text with a few characters inserted, deleted or replaced."""
    for _ in range(draw(st.integers(1, 4))):
        position = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        piece = draw(ALPHABET)
        if action == "insert":
            text = text[:position] + piece + text[position:]
        elif action == "delete":
            text = text[:position] + text[position + draw(st.integers(1, 6)) :]
        else:
            text = text[:position] + piece + text[position + 1 :]
    return text


def read_or_refuse(text: str, file: str) -> None:
    """The property: MinisError or a document that survives writing and reading back."""
    try:
        document = parse_document(text, file)
    except MinisError as error:
        assert error.problems and all(p.file == file for p in error.problems)
        return
    again = parse_document(dump(document), file)
    assert again == document
    if isinstance(document, MapDoc):
        assert map_board(again) == map_board(document)


@SETTINGS
@given(mutated(SECTION_TEXT))
def test_mutated_sections(text: str) -> None:
    read_or_refuse(text, "baker-2.toml")


@SETTINGS
@given(mutated(MAP_TEXT))
def test_mutated_maps(text: str) -> None:
    read_or_refuse(text, "ford.toml")


@pytest.fixture(scope="module")
def configuration_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("maps")
    (root / "configurations").mkdir()
    (root / "sections").mkdir()
    for section in (MAPS_DIR / "sections").glob("*.toml"):
        (root / "sections" / section.name).write_text(section.read_text(encoding="utf-8"), encoding="utf-8")
    return root / "configurations" / "4-test.toml"


@settings(
    max_examples=max(EXAMPLES * 2 // 3, 1),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(text=mutated(CONFIGURATION_TEXT))
def test_mutated_configurations(configuration_file: Path, text: str) -> None:
    configuration_file.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        board = configuration_board(configuration_file)
    except MinisError as error:
        assert error.problems
        return
    assert len(board.hexes) == 171


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    assert isinstance(value, dict)
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


LABELS = st.from_regex(r"\A[A-F][0-9]{1,2}(:(E|NE|NW|W|SW|SE))?\Z")
SCALARS = st.one_of(
    st.integers(-5, 20),
    st.booleans(),
    st.text(max_size=12),
    LABELS,
    st.builds(lambda a, b: f"{a}/{b}", LABELS, LABELS),
    st.lists(st.sampled_from("CFHTMPX"), min_size=1, max_size=9).map(" ".join),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
KEYS = st.sampled_from(
    [
        "kind",
        "title",
        "terrain",
        "roads",
        "streams",
        "objective",
        "number",
        "nw",
        "ne",
        "sw",
        "se",
        "half-hexes",
        "x",
    ]
)


@SETTINGS
@given(st.dictionaries(KEYS, VALUES, max_size=8), st.sampled_from(["section", "map", "configuration", None]))
def test_random_documents(data: dict[str, object], kind: str | None) -> None:
    if kind is not None:
        data["kind"] = kind
    text = "".join(f"{json.dumps(k)} = {toml_value(v)}\n" for k, v in data.items())
    read_or_refuse(text, "random.toml")


GRIDS = st.lists(
    st.lists(st.sampled_from("CFHTMP"), min_size=1, max_size=6).map(" ".join), min_size=1, max_size=5
).map(lambda rows: "\n".join((" " if i % 2 else "") + row for i, row in enumerate(rows)) + "\n")


@SETTINGS
@given(
    GRIDS | st.text(alphabet="CFHTMPX \n\t.", max_size=40),
    st.lists(st.lists(LABELS, min_size=1, max_size=4).map(" ".join), max_size=3),
    st.lists(
        st.builds(lambda a, b: f"{a}/{b}", LABELS, LABELS | st.sampled_from(["E", "NW", "SE"])), max_size=3
    ),
    st.none() | LABELS,
)
def test_random_inline_boards(grid: str, roads: list[str], streams: list[str], objective: str | None) -> None:
    try:
        board = parse_board_text(grid, streams, roads, objective)
    except MinisError as error:
        assert error.problems
        return
    assert isinstance(board, Board) and board.hexes
    source = f"board = {json.dumps(grid)}\nroads = {toml_value(roads)}\nstreams = {toml_value(streams)}\n"
    if objective is not None:
        source += f"objective = {json.dumps(objective)}\n"
    assert board_from_toml(tomllib.loads(source), source, "t.toml") == board


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """A random rectangular board with random roads, streams and objective."""
    shift = draw(st.integers(0, 1))
    long_length = draw(st.integers(2, 6))
    short_length = long_length - draw(st.integers(0, 1))
    lines = []
    for r in range(draw(st.integers(1, 5))):
        indented = (r + shift) % 2 == 1
        letters = draw(
            st.lists(
                st.sampled_from("CFHTMP"),
                min_size=short_length if indented else long_length,
                max_size=short_length if indented else long_length,
            )
        )
        lines.append((" " if indented else "") + " ".join(letters))
    board = parse_board_text("\n".join(lines) + "\n")
    links = sorted({frozenset((a, b)) for a in board.hexes for b in board.neighbours(a)}, key=sorted)
    roads = draw(st.sets(st.sampled_from(links), max_size=6)) if links else set()
    streams = draw(st.sets(st.sampled_from(links), max_size=6)) if links else set()
    objective = draw(st.none() | st.sampled_from(board.hexes))
    return board.replace(roads=roads, streams=streams, objective=objective)


@SETTINGS
@given(boards())
def test_boards_survive_a_map_file(board: Board) -> None:
    text = dump(map_document(board, title="random"))
    document = parse_document(text, "random.toml")
    assert map_board(document) == board
    assert dump(document) == text
