"""The six starter configurations assemble to the reference boards, hex by hex, with their objectives.

Two independent expectations: the reference file beside the repository (`../shared/reference/`, skipped when
absent) and our own transcription in `helpers_boards.py` (row letters only, one string per row).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from helpers_boards import EXPECTED

from minis.hexgrid import Hex, row_letters
from minis.mapfile import MAPS_DIR, board_rows, load_configuration, load_section, terrain_lines
from minis.terrain import Terrain

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "starter-configurations.md"

NAMES = {
    1: "Half and Half",
    2: "Knife Fight",
    3: "High Ground",
    4: "Urban Combat",
    5: "Hill 107",
    6: "Tiger Heaven",
}


def reference_boards() -> dict[int, tuple[str, list[str]]]:
    """Each configuration of the reference file: objective and its 11 printed lines."""
    text = REFERENCE.read_text(encoding="utf-8")
    found = re.findall(r"### (\d)\. [^\n]*\n.*?Objective: \*\*(\w+)\*\*.*?```\n(.*?)```", text, re.S)
    return {int(n): (objective, body.rstrip("\n").split("\n")) for n, objective, body in found}


@pytest.mark.skipif(not REFERENCE.is_file(), reason="../shared/reference is not beside the repository")
@pytest.mark.parametrize("number", range(1, 7))
def test_configuration_matches_the_reference_file(number: int) -> None:
    objective, lines = reference_boards()[number]
    board = load_configuration(number)
    assert len(lines) == 11
    matches = 0
    for r, line in enumerate(lines):
        letters = line[2:].split()
        row = board.row(r)
        assert len(row) == len(letters), f"row {row_letters(r)}"
        matches += sum(board.terrain(h).value == letter for h, letter in zip(row, letters, strict=True))
    assert matches == 171
    assert len(board.hexes) == 171
    assert board.objective is not None and board.label(board.objective) == objective
    assert terrain_lines(board) == lines  # the same text as the reference, byte for byte


@pytest.mark.parametrize("number", range(1, 7))
def test_configuration_matches_our_transcription(number: int) -> None:
    objective, rows = EXPECTED[number]
    board = load_configuration(number)
    got = {board.label(h): board.terrain(h).value for h in board.hexes}
    want = {f"{row_letters(r)}{n}": letter for r, row in enumerate(rows) for n, letter in enumerate(row, 1)}
    assert len(want) == 171
    mismatched = sorted(label for label in want if got.get(label) != want[label])
    assert mismatched == []
    assert set(got) == set(want)
    assert board.objective is not None and board.label(board.objective) == objective
    assert board_rows(board) == rows


def test_objectives_lie_on_the_terrain_the_reference_names() -> None:
    kinds = {
        1: Terrain.FOREST,
        2: Terrain.HILL,
        3: Terrain.HILL,
        4: Terrain.TOWN,
        5: Terrain.HILL,
        6: Terrain.FOREST,
    }
    for number, kind in kinds.items():
        board = load_configuration(number)
        assert board.objective is not None
        assert board.terrain(board.objective) is kind


@pytest.mark.parametrize("number", range(1, 7))
def test_terrain_lines_have_the_reference_layout(number: int) -> None:
    lines = terrain_lines(load_configuration(number))
    assert len(lines) == 11
    for r, line in enumerate(lines):
        prefix = f"{row_letters(r)} " + (" " if r % 2 else "")
        assert line.startswith(prefix)
        assert line[len(prefix) :] == " ".join(EXPECTED[number][1][r])


def test_configuration_names() -> None:
    for number, name in NAMES.items():
        board = load_configuration(number)
        assert board.name == f"Configuration {number}: {name}"


def test_each_configuration_uses_one_side_of_each_sheet() -> None:
    for number in range(1, 7):
        path = next((MAPS_DIR / "configurations").glob(f"{number}-*.toml"))
        sheets = re.findall(r'^(?:nw|ne|sw|se) = "(able|baker|charlie|dog)-[12]', path.read_text(), re.M)
        assert sorted(sheets) == ["able", "baker", "charlie", "dog"]


def test_the_eight_sections_are_there_with_the_reference_rows() -> None:
    names = sorted(p.stem for p in (MAPS_DIR / "sections").glob("*.toml"))
    assert names == [f"{sheet}-{side}" for sheet in ("able", "baker", "charlie", "dog") for side in (1, 2)]
    # spot checks against the reference's printing of two sections, transcribed
    assert load_section(MAPS_DIR / "sections" / "able-1.toml").terrain == (
        "HCCCCCCC",
        "HCFCCCC",
        "CCCCMCFC",
        "CCCMCFC",
        "HHCCMCCH",
    )
    assert load_section(MAPS_DIR / "sections" / "dog-1.toml").terrain == (
        "CCCFFCCC",
        "CCFCCCT",
        "CCCCCCTT",
        "CCCCCTT",
        "CCCCCCTT",
    )


def test_roads_streams_and_bridges_as_designed() -> None:
    sections = [load_section(p) for p in sorted((MAPS_DIR / "sections").glob("*.toml"))]
    with_roads = [s.name for s in sections if s.roads]
    with_streams = [s.name for s in sections if s.streams]
    assert len(with_roads) >= 2
    assert len(with_streams) >= 2
    bridges = {n: load_configuration(n).bridges for n in range(1, 7)}
    assert all(bridges.values()), "every starter map has at least one bridge"
    board = load_configuration(4)
    assert board.is_bridge(board.parse("C4"), board.parse("C5"))
    assert board.has_stream(board.parse("C4"), board.parse("C5"))


@pytest.mark.parametrize("number", range(1, 7))
def test_roads_meet_across_seams(number: int) -> None:
    """In maps 1-5 a road network runs on in two sections: the roads meet across a seam. Map 6 has
    only stubs that end one hex past a seam."""
    board = load_configuration(number)
    parent: dict[Hex, Hex] = {}

    def find(h: Hex) -> Hex:
        while parent.setdefault(h, h) != h:
            h = parent[h]
        return h

    for link in board.roads:
        a, b = tuple(link)
        parent[find(a)] = find(b)
    networks: dict[Hex, set[Hex]] = {}
    for link in board.roads:
        for h in link:
            networks.setdefault(find(h), set()).add(h)

    def quadrant(h: Hex) -> str:
        x, y = board.doubled_of(h)
        return ("n" if y < 5 else "s" if y > 5 else "-") + ("w" if x < 15 else "e" if x > 15 else "-")

    def meets(hexes: set[Hex]) -> bool:
        """At least two sections hold two or more hexes of this road network."""
        counts = Counter(quadrant(h) for h in hexes)
        return sum(1 for q, n in counts.items() if "-" not in q and n >= 2) >= 2

    assert any(meets(hexes) for hexes in networks.values()) is (number != 6)
