"""Every mistake a designer can make in a map file is reported with line, column and a hint, all at once."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from minis.base.errors import EXIT_CHECK, EXIT_UNREADABLE, MinisError, Problem
from minis.mapfile import (
    board_from_toml,
    check_file,
    load_configuration,
    load_section,
    parse_board_text,
    parse_document,
)

SECTION = '''kind = "section"
terrain = """
H C C C C C C C
 H C F C C C C
C C C C M C F C
 C C C M C F C
H H C C M C C H
"""
'''

MAP = '''kind = "map"
terrain = """
C C C C C
 C T C C
C C C C C
"""
'''


def problems(text: str, file: str = "x.toml") -> list[Problem]:
    with pytest.raises(MinisError) as error:
        parse_document(text, file)
    assert error.value.exit_code == EXIT_CHECK
    return error.value.problems


def only(text: str, file: str = "x.toml") -> Problem:
    found = problems(text, file)
    assert len(found) == 1, found
    return found[0]


def spot(problem: Problem) -> tuple[int, int]:
    return (problem.line, problem.col)


# --- the grid -------------------------------------------------------------------------------------


def test_unknown_letter() -> None:
    problem = only(SECTION.replace(" H C F C", " H C X C"))
    assert spot(problem) == (4, 6)
    assert "unknown terrain letter 'X'" in problem.message
    assert "F forest" in problem.hint


def test_lower_case_letter_hints_at_capitals() -> None:
    problem = only(MAP.replace(" C T C C", " C t C C"))
    assert spot(problem) == (4, 4)
    assert "'T' (town)" in problem.hint


def test_wrong_row_length_in_a_section() -> None:
    short = only(SECTION.replace("C C C C M C F C\n", "C C C C M C F\n"))
    assert spot(short) == (5, 14)  # just after the last letter
    assert "row C has 7 hexes" in short.message and "8" in short.message
    long = only(SECTION.replace(" H C F C C C C\n", " H C F C C C C C\n"))
    assert spot(long) == (4, 16)  # at the extra hex
    assert "row B has 8 hexes" in long.message


def test_missing_and_extra_rows_in_a_section() -> None:
    missing = only(SECTION.replace("H H C C M C C H\n", ""))
    assert spot(missing) == (7, 1)  # where the fifth row should be
    assert "4 rows" in missing.message and "5" in missing.message
    extra = only(SECTION.replace('H H C C M C C H\n"""', 'H H C C M C C H\n C C C C C C C\n"""'))
    assert spot(extra) == (8, 1)
    assert "sixth" in extra.message


def test_wrong_indentation() -> None:
    found = problems(SECTION.replace(" H C F C C C C\n", "H C F C C C C\n"))
    assert [spot(p) for p in found] == [(4, 1)]
    assert "start it with exactly one space" in found[0].message
    found = problems(SECTION.replace("C C C C M C F C\n", " C C C C M C F C\n"))
    assert [spot(p) for p in found] == [(5, 1)]
    assert "long row" in found[0].message


def test_ragged_rows_in_a_map() -> None:
    ragged = only(MAP.replace('C C C C C\n"""', 'C C C C\n"""'))
    assert spot(ragged) == (5, 8)
    assert "row C has 4 hexes but row A has 5" in ragged.message
    wide = only(MAP.replace(" C T C C\n", " C T C C C C\n"))
    assert spot(wide) == (4, 12)  # at the sixth hex
    assert "indented rows have 6 hexes and long rows 5" in wide.message


def test_spacing_tabs_and_blank_lines() -> None:
    assert "more than one space" in only(MAP.replace("C C C C C\n C", "C C  C C C\n C", 1)).message
    joined = problems(MAP.replace("C C C C C\n C", "CC C C C\n C", 1))
    assert spot(joined[0]) == (3, 2) and "without a space" in joined[0].message
    tab = only(MAP.replace(" C T C C", "\tC T C C"))
    assert spot(tab) == (4, 1) and "tab" in tab.message
    blank = only(MAP.replace(" C T C C\n", " C T C C\n\n"))
    assert spot(blank) == (5, 1) and "blank line" in blank.message


def test_empty_grid() -> None:
    assert "empty" in only('kind = "map"\nterrain = ""\n').message


# --- roads, streams, objective ----------------------------------------------------------------------


def test_road_between_hexes_that_are_not_adjacent() -> None:
    problem = only(MAP + 'roads = ["A1 A2 C3"]\n')
    assert spot(problem) == (7, 17)  # at C3
    assert "not adjacent" in problem.message
    assert "B2 lies between them" in problem.hint


def test_road_problems_in_a_list_over_several_lines() -> None:
    text = MAP + 'roads = [\n    "A1 A2",\n    "B1 Q1",\n    "C1",\n]\n'
    found = problems(text)
    assert [spot(p) for p in found] == [(9, 9), (10, 6)]
    assert "no hex Q1" in found[0].message
    assert "at least two hexes" in found[1].message


def test_stream_on_a_hexside_that_does_not_exist() -> None:
    found = problems(MAP + 'streams = ["A1/A3", "A1/NW", "A1-A2", "B2/E9"]\n')
    assert [spot(p) for p in found] == [(7, 13), (7, 25), (7, 31), (7, 43)]
    assert "not adjacent" in found[0].message
    assert "edge of this map" in found[1].message
    assert "not a hexside" in found[2].message and "B2/B3" in found[2].hint
    assert "no hex E9" in found[3].message


def test_objective_off_the_map() -> None:
    problem = only(MAP + 'objective = "D1"\n')
    assert spot(problem) == (7, 14)
    assert "off this map" in problem.message and "A to C" in problem.hint


def test_objective_that_is_not_a_label() -> None:
    assert "not a hex label" in only(MAP + 'objective = "the bridge"\n').message


def test_section_roads_and_streams_use_the_section_frame() -> None:
    ok = SECTION + 'roads = ["C0 C1 C2", "E4 F4", "B7 B8 C8 C9"]\nstreams = ["A1:NW/A1:NE A1/NE", "E8/E9"]\n'
    parse_document(ok, "ok.toml")
    found = problems(SECTION + 'roads = ["B7 B8 C9"]\nstreams = ["D8/D9"]\n')
    assert [spot(p) for p in found] == [(9, 17), (10, 16)]
    assert "west or east edge" in found[0].message
    assert "no hex D9" in found[1].message


# --- keys and values -------------------------------------------------------------------------------


def test_unknown_key_and_wrong_types() -> None:
    found = problems(MAP + 'road = ["A1 A2"]\nstreams = "B2/B3"\ntitle = 3\n')
    assert [spot(p) for p in found] == [(7, 1), (8, 11), (9, 9)]
    assert "unknown key 'road'" in found[0].message and "roads" in found[0].hint
    assert "list of strings" in found[1].message
    assert "string" in found[2].message


def test_missing_and_unknown_kind() -> None:
    missing = only(MAP.replace('kind = "map"\n', ""))
    assert spot(missing) == (1, 1) and "kind" in missing.message
    unknown = only(MAP.replace('kind = "map"', 'kind = "sectoin"'))
    assert spot(unknown) == (1, 8) and "section" in unknown.hint


def test_keys_after_a_table_header() -> None:
    text = SECTION + '\n[half-hexes]\nnorth = "C C C C C C C"\nroads = ["A1 A2"]\n'
    problem = only(text)
    assert spot(problem) == (12, 1)
    assert "[half-hexes]" in problem.message and "above the header" in problem.hint


def test_half_hexes_of_a_section() -> None:
    found = problems(SECTION + '\n[half-hexes]\nnorth = "C C C"\nsouth = "C C C C C C X"\nwest = 7\n')
    assert [spot(p) for p in found] == [(11, 15), (12, 22), (13, 8)]
    assert "3 north half-hexes" in found[0].message
    assert "unknown terrain letter 'X'" in found[1].message


def test_duplicate_keys_cannot_be_read() -> None:
    with pytest.raises(MinisError) as error:
        parse_document(MAP + 'kind = "map"\n', "x.toml")
    assert error.value.exit_code == EXIT_UNREADABLE
    [problem] = error.value.problems
    assert spot(problem) == (7, 1) and "'kind' is given twice" in problem.message


def test_toml_syntax_errors_cannot_be_read() -> None:
    with pytest.raises(MinisError) as error:
        parse_document('kind = "map\n', "x.toml")
    assert error.value.exit_code == EXIT_UNREADABLE
    assert error.value.problems[0].line == 1 and "not valid TOML" in error.value.problems[0].message


def test_all_problems_at_once() -> None:
    text = (
        SECTION.replace(" H C F C", " H C X C")
        + 'roads = ["A1 A3", "Z1 A1"]\nstreams = ["A1/A3"]\nbogus = 1\n'
    )
    assert len(problems(text)) == 5


# --- configurations ---------------------------------------------------------------------------------


def configuration_folder(tmp_path: Path, body: str) -> Path:
    (tmp_path / "sections").mkdir()
    (tmp_path / "configurations").mkdir()
    (tmp_path / "sections" / "able-1.toml").write_text(SECTION)
    path = tmp_path / "configurations" / "7-test.toml"
    path.write_text(body)
    return path


def test_configuration_naming_a_missing_section(tmp_path: Path) -> None:
    body = 'kind = "configuration"\nnw = "able-1"\nne = "able-2"\nsw = "able-1 turned"\nse = "able-1 trned"\n'
    path = configuration_folder(tmp_path, body)
    with pytest.raises(MinisError) as error:
        check_file(path)
    found = error.value.problems
    assert [spot(p) for p in found] == [(3, 7), (5, 7)]
    assert "no section 'able-2'" in found[0].message and "able-1" in found[0].hint
    assert "turned" in found[1].hint


def test_configuration_objective_on_a_half_hex_or_off_the_map(tmp_path: Path) -> None:
    body = 'kind = "configuration"\nnw = "able-1"\nne = "able-1"\nsw = "able-1"\nse = "able-1"\n'
    body += 'objective = "B16"\n'
    path = configuration_folder(tmp_path, body)
    with pytest.raises(MinisError) as error:
        load_configuration(path)
    [problem] = error.value.problems
    assert spot(problem) == (6, 14) and "half-hex" in problem.message
    path.write_text(body.replace("B16", "M3"))
    with pytest.raises(MinisError, match="off the assembled map"):
        load_configuration(path)


def test_configuration_with_a_broken_section(tmp_path: Path) -> None:
    body = 'kind = "configuration"\nnw = "able-1"\nne = "able-1"\nsw = "able-1"\nse = "able-1"\n'
    path = configuration_folder(tmp_path, body)
    (tmp_path / "sections" / "able-1.toml").write_text(SECTION.replace(" H C F C", " H C X C"))
    with pytest.raises(MinisError) as error:
        check_file(path)
    assert all("section 'able-1' cannot be used" in p.message for p in error.value.problems)
    assert [spot(p) for p in error.value.problems] == [(2, 7)]  # reported once


def test_a_section_file_of_the_wrong_kind(tmp_path: Path) -> None:
    path = tmp_path / "m.toml"
    path.write_text(MAP)
    with pytest.raises(MinisError, match="not a section"):
        load_section(path)


# --- unreadable files ---------------------------------------------------------------------------------


def test_unreadable_files(tmp_path: Path) -> None:
    for path, words in [
        (tmp_path / "missing.toml", "no such file"),
        (tmp_path, "folder"),
    ]:
        with pytest.raises(MinisError, match=words) as error:
            check_file(path)
        assert error.value.exit_code == EXIT_UNREADABLE
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'kind = "map"\ntitle = "caf\xe9"\n')
    with pytest.raises(MinisError) as error:
        check_file(latin)
    assert error.value.exit_code == EXIT_UNREADABLE
    assert spot(error.value.problems[0]) == (2, 13)


# --- inline boards (rules tests) ----------------------------------------------------------------------

RULES_TEST = '''title = "a test"
board = """
C C C C C
 C T C C
C C C C C
"""
streams = ["B2/B3"]
roads = ["A1 A2 B2 C3"]
objective = "B2"
'''


def test_inline_board_from_a_rules_test() -> None:
    board = board_from_toml(tomllib.loads(RULES_TEST), RULES_TEST, "t.toml")
    assert len(board.hexes) == 14
    assert board.has_stream(board.parse("B2"), board.parse("B3"))
    assert board.has_road(board.parse("B2"), board.parse("C3"))
    assert board.label(board.objective) == "B2"


def test_inline_board_problems_are_located_in_the_callers_file() -> None:
    text = RULES_TEST.replace('"B2/B3"', '"B2/B4"').replace('"A1 A2 B2 C3"', '"A1 A2 B2 C5"')
    text = text.replace('"B2"', '"F9"')
    with pytest.raises(MinisError) as error:
        board_from_toml(tomllib.loads(text), text, "t.toml")
    found = error.value.problems
    assert [(p.file, p.line, p.col) for p in found] == [
        ("t.toml", 7, 13),
        ("t.toml", 8, 20),
        ("t.toml", 9, 14),
    ]
    grid = RULES_TEST.replace(" C T C C", " C T Q C")
    with pytest.raises(MinisError) as error:
        board_from_toml(tomllib.loads(grid), grid, "t.toml")
    assert [spot(p) for p in error.value.problems] == [(4, 6)]


def test_inline_board_or_configuration() -> None:
    text = "configuration = 3\n"
    assert board_from_toml(tomllib.loads(text), text, "t.toml") == load_configuration(3)
    both = RULES_TEST + "configuration = 3\n"
    with pytest.raises(MinisError, match="not both"):
        board_from_toml(tomllib.loads(both), both, "t.toml")
    bad = "configuration = 9\n"
    with pytest.raises(MinisError, match="no configuration 9") as error:
        board_from_toml(tomllib.loads(bad), bad, "t.toml")
    assert spot(error.value.problems[0]) == (1, 17)


def test_parse_board_text_without_a_source_counts_grid_lines() -> None:
    with pytest.raises(MinisError) as error:
        parse_board_text("C C\n C X\n", roads=["A1 B9"])
    assert [spot(p) for p in error.value.problems] == [(2, 4)]
    board = parse_board_text("C C\n C\n", streams=["A1/B1"], roads=["A1 A2"], objective="b1")
    assert board.has_stream(board.parse("A1"), board.parse("B1"))
