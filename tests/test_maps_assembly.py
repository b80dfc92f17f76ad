"""Assembling a configuration: placing, turning, seams of half-hexes, and roads and streams across them."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from minis.base.errors import MinisError
from minis.hexgrid import Hex, from_doubled, to_doubled
from minis.mapfile import (
    Configuration,
    Placement,
    Section,
    assemble,
    assembled_frame,
    dump,
    load_configuration,
    place,
    section_board,
    section_frame,
)
from minis.terrain import Terrain

CLEAR_ROWS = ("CCCCCCCC", "CCCCCCC", "CCCCCCCC", "CCCCCCC", "CCCCCCCC")


def section(name: str, rows: tuple[str, ...] = CLEAR_ROWS, **fields: object) -> Section:
    return Section(name=name, terrain=rows, **fields)  # type: ignore[arg-type]


def configuration(
    nw: str = "a", ne: str = "b", sw: str = "c", se: str = "d", **fields: object
) -> Configuration:
    def placement(text: str) -> Placement:
        words = text.split()
        return Placement(words[0], len(words) == 2)

    return Configuration(nw=placement(nw), ne=placement(ne), sw=placement(sw), se=placement(se), **fields)  # type: ignore[arg-type]


def plain(**overrides: Section) -> dict[str, Section]:
    sections = {name: section(name) for name in "abcd"}
    sections.update(overrides)
    return sections


def at(board_label: str) -> Hex:
    """A hex of the assembled map (shift 0) from its label, whether full or half."""
    from minis.hexgrid import parse_label

    return parse_label(board_label)


# --- placing and turning -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("quadrant", "turned", "local", "expected"),
    [
        ("nw", False, (0, 0), (0, 0)),  # A1 stays A1
        ("ne", False, (0, 0), (16, 0)),  # A1 of the north-east section is A9
        ("sw", False, (0, 0), (0, 6)),  # ... of the south-west section G1
        ("se", False, (14, 4), (30, 10)),  # E8 of the south-east section is K16
        ("nw", True, (0, 0), (14, 4)),  # turned: A1 goes to E8
        ("nw", True, (1, 1), (13, 3)),  # B1 to D7
        ("se", True, (0, 0), (30, 10)),  # A1 of a turned south-east section is K16
        ("se", True, (1, -1), (29, 11)),  # a north half-hex of it goes off the south edge
        ("ne", True, (-1, 1), (31, 3)),  # B0 (west half) of a turned north-east section: east edge
        ("ne", True, (15, 1), (15, 3)),  # B8 (east half) of it: the seam hex D8
        ("sw", True, (7, 5), (7, 5)),  # F4 (south half) of a turned south-west section: seam F4
    ],
)
def test_place(quadrant: str, turned: bool, local: tuple[int, int], expected: tuple[int, int]) -> None:
    assert to_doubled(place(from_doubled(*local), quadrant, turned)) == expected


def test_turning_twice_is_the_identity_and_keeps_row_kinds() -> None:
    for hex_ in section_frame():
        x, y = to_doubled(hex_)
        turned = to_doubled(place(hex_, "nw", True))
        assert place(from_doubled(*turned), "nw", True) == hex_
        assert (turned[0] + turned[1]) % 2 == (x + y) % 2  # a long row stays a long row


def test_a_turned_section_reads_backwards_from_the_bottom() -> None:
    rows = ("FCCCCCCC", "CCCCCCT", "CCCCCCCC", "CCCCCCC", "CCCCCCCH")
    board = assemble(configuration(nw="a turned"), plain(a=section("a", rows)))
    assert board.terrain(at("A1")) is Terrain.HILL  # E8 turned
    assert board.terrain(at("E8")) is Terrain.FOREST  # A1 turned
    assert board.terrain(at("D1")) is Terrain.TOWN  # B7 turned
    unturned = assemble(configuration(), plain(a=section("a", rows)))
    assert unturned.terrain(at("A1")) is Terrain.FOREST
    assert unturned.terrain(at("B7")) is Terrain.TOWN


def test_every_section_hex_lands_once() -> None:
    rows = tuple("".join("FHTM"[(r + n) % 4] for n in range(len(row))) for r, row in enumerate(CLEAR_ROWS))
    sections = {name: section(name, rows) for name in "abcd"}
    board = assemble(configuration(ne="b turned", se="d turned"), sections)
    assert len(board.hexes) == 171
    non_clear = [h for h in board.hexes if board.terrain(h) is not Terrain.CLEAR]
    assert len(non_clear) == 4 * 38  # every full hex of every section; the 19 seam hexes are clear


# --- seams ------------------------------------------------------------------------------------------


def test_the_seams_are_full_hexes_and_the_edges_half_hexes() -> None:
    board = assemble(configuration(), plain())
    seams = {h for h in board.hexes if h.r == 5} | {at(f"{row}8") for row in "BDFHJ"}
    assert len(seams) == 19
    assert all(board.is_playable(h) for h in seams)
    assert len(board.half_hexes) == 44  # 17 along each long edge, 5 at each end
    assert all(not board.is_playable(h) for h in board.half_hexes)
    assert {h.r for h in board.half_hexes} == {-1, 1, 3, 5, 7, 9, 11}  # long rows reach the edge
    assert set(assembled_frame()) == set(board.hexes) | board.half_hexes


def test_seam_terrain_comes_from_the_half_hexes() -> None:
    north = section("a", south="CFCCCCC", east="HC")
    south = section("c", north="CFCCCCC")
    board = assemble(configuration(), plain(a=north, c=south))
    assert board.terrain(at("F2")) is Terrain.FOREST
    assert board.terrain(at("B8")) is Terrain.HILL  # east half of a's row B with b's clear west half
    assert board.terrain(at("D8")) is Terrain.CLEAR
    only_one = assemble(configuration(), plain(a=section("a", south="CCCCCCT")))
    assert only_one.terrain(at("F7")) is Terrain.TOWN  # a clear half gives way


def test_a_turned_sections_halves_swap_edges() -> None:
    turned = section("d", north="CCCCCCC", south="PCCCCCC", west="CC", east="CM")
    board = assemble(configuration(se="d turned"), plain(d=turned))
    # d's south half-hexes are now along the seam row F, east to west: its first one is F15
    assert board.terrain(at("F15")) is Terrain.POND
    # d's east half of row D becomes, turned, the west half of its row B: the seam hex H8
    assert board.terrain(at("H8")) is Terrain.MARSH


def test_seam_halves_that_disagree_are_a_problem(tmp_path: Path) -> None:
    write(tmp_path, a=section("a", south="CFCCCCC"), c=section("c", north="CTCCCCC"))
    with pytest.raises(MinisError) as error:
        load_configuration(tmp_path / "configurations" / "1-test.toml")
    [problem] = error.value.problems
    assert "F2" in problem.message and "disagree" in problem.message
    assert (problem.line, problem.col) == (4, 6)  # the value of sw in the configuration
    assert problem.hint


def test_outside_half_hexes_keep_their_terrain_but_are_not_playable() -> None:
    board = assemble(configuration(), plain(a=section("a", north="FCCCCCC", west="MC")))
    north = from_doubled(1, -1)
    assert board.terrain(north) is Terrain.FOREST and north in board.half_hexes
    assert board.terrain(from_doubled(-1, 1)) is Terrain.MARSH
    assert board.label(north) == "A1:NE"
    assert board.label(from_doubled(-1, 1)) == "B0"


# --- roads and streams across seams -----------------------------------------------------------------


def test_roads_meet_at_a_seam_hex() -> None:
    north = section("a", roads=(("D4", "E4", "F4"),))
    south = section("c", roads=(("A4:NE", "A4", "B4"),))
    board = assemble(configuration(), plain(a=north, c=south))
    path = [at(label) for label in ("D4", "E4", "F4", "G4", "H4")]
    assert all(board.has_road(a, b) for a, b in itertools.pairwise(path))
    assert len(board.roads) == 4


def test_roads_across_the_long_row_edge() -> None:
    west = section("a", roads=(("C7", "C8", "C9"), ("C0", "C1")))
    east = section("b", roads=(("C0", "C1", "C2"),))
    board = assemble(configuration(), plain(a=west, b=east))
    assert board.has_road(at("C8"), at("C9"))
    assert board.has_road(at("C9"), at("C10"))
    assert not any(from_doubled(-2, 2) in link for link in board.roads)  # off the west edge: gone
    assert len(board.roads) == 3  # C7-C8, C8-C9 (from both sides), C9-C10; west's C0-C1 is cut


def test_a_turned_section_takes_its_roads_along() -> None:
    east = section("b", roads=(("C8", "C9"),), streams=(("A1/A2", "E8/SE"),))
    board = assemble(configuration(ne="b turned"), plain(b=east))
    # turned, its east edge is the vertical seam: C9 beyond its east edge is our C8
    assert board.has_road(at("C8"), at("C9"))
    assert board.has_stream(at("E15"), at("E16"))  # A1/A2 turned
    assert board.has_stream(at("A9"), from_doubled(15, -1))  # E8/SE turned: to a north edge half-hex


def test_streams_and_bridges_across_a_seam_side() -> None:
    north = section("a", roads=(("E4", "F4"),), streams=(("E4/F4", "F3/F4"),))
    south = section("c", streams=(("A4:NW/A4:NE",),))  # the same seam side, from the south
    board = assemble(configuration(), plain(a=north, c=south))
    assert board.is_bridge(at("E4"), at("F4"))
    assert board.has_stream(at("F3"), at("F4"))
    assert len(board.streams) == 2


def test_a_section_board_on_its_own() -> None:
    board = section_board(section("a", roads=(("C0", "C1", "C2"), ("E4", "F4")), south="CCCFCCC"))
    assert len(board.hexes) == 38
    assert len(board.half_hexes) == 7 + 7 + 2 + 2 + 4
    assert board.has_road(at("C1"), at("C2")) and board.has_road(at("E4"), at("F4"))
    assert len(board.roads) == 2  # the link to C0, beyond the edge, is not part of the section alone
    assert board.terrain(at("F4")) is Terrain.FOREST


def write(folder: Path, **sections: Section) -> None:
    (folder / "sections").mkdir(parents=True, exist_ok=True)
    (folder / "configurations").mkdir(parents=True, exist_ok=True)
    for name, doc in plain(**sections).items():
        (folder / "sections" / f"{name}.toml").write_text(dump(doc))
    (folder / "configurations" / "1-test.toml").write_text(
        'kind = "configuration"\nnw = "a"\nne = "b"\nsw = "c"\nse = "d"\nobjective = "F8"\n'
    )


def test_a_configuration_file_with_its_sections(tmp_path: Path) -> None:
    write(tmp_path, a=section("a", roads=(("E8", "F8"),)))
    board = load_configuration(tmp_path / "configurations" / "1-test.toml")
    assert board.objective == at("F8")  # the centre hex, made of four quarter-hexes
    assert board.has_road(at("E8"), at("F8"))
    # the board is cached until a file changes
    assert load_configuration(tmp_path / "configurations" / "1-test.toml") is board
    changed_a = section("a", rows=("FCCCCCCC", *CLEAR_ROWS[1:]), title="changed")  # a new size, too
    (tmp_path / "sections" / "a.toml").write_text(dump(changed_a))
    changed = load_configuration(tmp_path / "configurations" / "1-test.toml")
    assert changed.terrain(at("A1")) is Terrain.FOREST
