"""Every file we read is checked against the limits of `minis.base.limits` before it is parsed: no file makes
the command hang or fill memory, and a file past a limit is refused where the limit is passed (exit 2).
Free maps stop at one size everywhere (map files, rules tests' boards, `minis map new`, the editor)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from fuzzing import alarm
from helpers_toml import toml_value
from hypothesis import given
from hypothesis import strategies as st

from minis.base.errors import EXIT_CHECK, EXIT_UNREADABLE, MinisError
from minis.base.limits import (
    MAX_ENTRIES,
    MAX_FILE_BYTES,
    MAX_KEY_PARTS,
    MAX_LINE_CHARS,
    MAX_MAP_COLUMNS,
    MAX_MAP_ROWS,
    MAX_NESTING,
    check_toml,
)
from minis.base.tomlfile import TomlLayout, parse_toml
from minis.cli import main
from minis.mapfile import parse_document
from minis.record import MAGIC, SEPARATOR
from minis.ui.editor.model import new_map

ROOT = Path(__file__).resolve().parents[1]


def deadline(seconds: float) -> AbstractContextManager[None]:
    """Fail (not hang) when the block takes longer."""
    return alarm(seconds, lambda: TimeoutError(f"took more than {seconds} s"))


def run(argv: list[str], capsys: pytest.CaptureFixture[str], seconds: float = 2.0) -> tuple[int, str]:
    """`minis ARGV` within `seconds`: the exit code and stderr."""
    capsys.readouterr()
    with deadline(seconds):
        code = main(argv)
    return code, capsys.readouterr().err


# --- one file of each kind, with a line of our choosing as line 2 --------------------------------------


def card_file(tmp_path: Path, line: str) -> list[str]:
    text = (ROOT / "cards" / "pioneers.toml").read_text(encoding="utf-8")
    (tmp_path / "pioneers.toml").write_text(f"# a card\n{line}\n{text}", encoding="utf-8")
    return ["cards", "show", "--cards", str(tmp_path), "pioneers"]


def army_file(tmp_path: Path, line: str) -> list[str]:
    text = (ROOT / "armies" / "sample-axis.toml").read_text(encoding="utf-8")
    path = tmp_path / "army.toml"
    path.write_text(f"# an army\n{line}\n{text}", encoding="utf-8")
    return ["army", "check", str(path)]


def map_file(tmp_path: Path, line: str) -> list[str]:
    path = tmp_path / "map.toml"
    path.write_text(f'# a map\n{line}\nkind = "map"\nterrain = """\nC C\n"""\n', encoding="utf-8")
    return ["map", "check", str(path)]


def section_file(tmp_path: Path, line: str) -> list[str]:
    text = (ROOT / "maps" / "sections" / "able-1.toml").read_text(encoding="utf-8")
    path = tmp_path / "able-1.toml"
    path.write_text(f"# a section\n{line}\n{text}", encoding="utf-8")
    return ["map", "check", str(path)]


def scenario_file(tmp_path: Path, line: str) -> list[str]:
    text = (ROOT / "scenarios" / "standard.toml").read_text(encoding="utf-8")
    path = tmp_path / "scenario.toml"
    path.write_text(f"# a scenario\n{line}\n{text}", encoding="utf-8")
    return ["edit", "--check", str(path)]


def rules_test_file(tmp_path: Path, line: str) -> list[str]:
    path = tmp_path / "rule.toml"
    path.write_text(f'# a rules test\n{line}\ntitle = "t"\nboard = """\nC C\n"""\n', encoding="utf-8")
    return ["rules-test", str(path)]


def record_file(tmp_path: Path, line: str) -> list[str]:
    path = tmp_path / "game.record"
    path.write_text(f"{MAGIC}\n{line}\nformat = 1\n{SEPARATOR}\nstart\n", encoding="utf-8")
    return ["replay", str(path)]


KINDS: dict[str, Callable[[Path, str], list[str]]] = {
    "card": card_file,
    "army": army_file,
    "map": map_file,
    "section": section_file,
    "scenario": scenario_file,
    "rules test": rules_test_file,
    "record": record_file,
}


def refused_at(err: str, file_part: str, line: int, col: int, words: str) -> None:
    """stderr is one problem of `file_part`, at LINE:COL, saying `words`."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    match = re.match(r"(.*):(\d+):(\d+): (.*)$", lines[0])
    assert match, err
    assert match.group(1).endswith(file_part)
    assert (int(match.group(2)), int(match.group(3))) == (line, col), err
    assert words in match.group(4), err


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_dotted_key_of_20000_parts_is_refused_within_two_seconds(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = KINDS[kind](tmp_path, ".".join(["a"] * 20_000) + " = 1")
    started = time.monotonic()
    code, err = run(argv, capsys)
    assert time.monotonic() - started < 2
    assert code == EXIT_UNREADABLE
    assert f"line 2 is 40,003 characters long; a line may hold at most {MAX_LINE_CHARS:,}" in err
    assert f":2:{MAX_LINE_CHARS + 1}: " in err


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_key_with_too_many_parts_is_refused_at_the_key(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parts = 3000  # a line within the limit: the key's parts are what is refused
    code, err = run(KINDS[kind](tmp_path, "  " + ".".join(["a"] * parts) + " = 1"), capsys)
    assert code == EXIT_UNREADABLE
    assert f":2:3: this key has {parts:,} parts; a key may have at most {MAX_KEY_PARTS}" in err


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_long_line_is_refused_at_its_first_character_past_the_limit(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run(KINDS[kind](tmp_path, "#" + "x" * 69_999), capsys)
    assert code == EXIT_UNREADABLE
    assert f"line 2 is 70,000 characters long; a line may hold at most {MAX_LINE_CHARS:,}" in err
    assert f":2:{MAX_LINE_CHARS + 1}: " in err


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_file_over_the_size_limit_is_refused_at_the_first_byte_past_it(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    comments = "\n".join("#" + "x" * 9_000 for _ in range(MAX_FILE_BYTES // 9_000 + 1))
    argv = KINDS[kind](tmp_path, comments)
    data = next(path for path in tmp_path.iterdir()).read_bytes()
    line = data.count(b"\n", 0, MAX_FILE_BYTES) + 1
    col = MAX_FILE_BYTES - data.rfind(b"\n", 0, MAX_FILE_BYTES)
    code, err = run(argv, capsys)
    assert code == EXIT_UNREADABLE
    message = f"the file is {len(data):,} bytes long; a file may hold at most {MAX_FILE_BYTES:,} bytes"
    assert f":{line}:{col}: {message}" in err


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_values_nested_too_deeply_are_refused_at_the_bracket(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run(KINDS[kind](tmp_path, "deep = " + "[" * 2000 + "]" * 2000), capsys)
    assert code == EXIT_UNREADABLE
    assert f":2:{len('deep = ') + MAX_NESTING + 1}: values nested too deeply" in err


def test_nesting_within_the_limit_is_read() -> None:
    depth = MAX_NESTING
    source = parse_toml("a = 1\nb = " + "[" * depth + "]" * depth + "\n", "f.toml")
    assert source.data["a"] == 1


@pytest.mark.parametrize("kind", ["army", "map", "record"])
def test_too_many_entries_are_refused_at_the_first_one_past_the_limit(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entries = "\n".join(f"k{i} = {i}" for i in range(MAX_ENTRIES + 5))
    code, err = run(KINDS[kind](tmp_path, entries), capsys)
    assert code == EXIT_UNREADABLE
    assert f":{MAX_ENTRIES + 2}:{len(f'k{MAX_ENTRIES} ') + 1}: the file holds more than" in err


def test_a_record_action_line_past_the_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.record"
    path.write_text(f"{MAGIC}\nformat = 1\n{SEPARATOR}\n{'x' * 20_000} | 1\n", encoding="utf-8")
    code, err = run(["replay", str(path)], capsys)
    assert code == EXIT_UNREADABLE
    refused_at(err, "game.record", 4, MAX_LINE_CHARS + 1, "line 4 is 20,004 characters long")


def test_the_layout_scanner_keeps_a_bounded_number_of_prefixes() -> None:
    parts = 3000
    with deadline(2):
        layout = TomlLayout.scan(".".join(["a"] * parts) + " = 1\n")
    assert len(layout.keys) <= MAX_KEY_PARTS


def test_the_shipped_files_are_far_within_the_limits() -> None:
    for path in sorted(ROOT.glob("**/*.toml")):
        if ".venv" not in path.parts:
            check_toml(path.read_text(encoding="utf-8"), str(path))


@given(
    st.recursive(
        st.integers() | st.text(max_size=5) | st.booleans() | st.floats(allow_nan=False),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
        max_leaves=12,
    ),
    st.lists(st.from_regex(r"[a-z]{1,3}", fullmatch=True), min_size=1, max_size=MAX_KEY_PARTS),
)
def test_any_toml_within_the_limits_is_read(value: object, key: list[str]) -> None:
    """The scan before parsing never refuses TOML that stays within the limits, however it is laid out."""
    text = f"# note\n[{'.'.join(key)}]\nx = {toml_value(value)}  # end\n[[list]]\ny = 1979-05-27 07:32:00Z\n"
    check_toml(text, "f.toml")
    assert parse_toml(text, "f.toml").data["list"][0]["y"].year == 1979


# --- the size of a map -----------------------------------------------------------------------------------


def grid(rows: int, columns: int) -> str:
    return "\n".join((" " if y % 2 else "") + " ".join("C" * (columns - y % 2)) for y in range(rows))


def map_text(rows: int, columns: int) -> str:
    return f'kind = "map"\ntitle = "big"\nterrain = """\n{grid(rows, columns)}\n"""\n'


def map_problems(text: str) -> list[str]:
    with deadline(5), pytest.raises(MinisError) as error:
        parse_document(text, "big.toml")
    assert error.value.exit_code == EXIT_CHECK
    return [str(problem) for problem in error.value.problems]


def test_a_300_by_300_map_is_refused_quickly_at_its_first_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "big.toml"
    path.write_text(map_text(300, 300), encoding="utf-8")
    code, err = run(["map", "check", str(path)], capsys)
    assert code == EXIT_CHECK
    col = 2 * MAX_MAP_COLUMNS + 1  # the 101st hex of row A, on line 4
    refused_at(err, "big.toml", 4, col, f"row A has 300 hexes; a row may have at most {MAX_MAP_COLUMNS}")


def test_a_map_with_too_many_rows_is_refused_at_the_first_row_past_the_limit() -> None:
    problems = map_problems(map_text(MAX_MAP_ROWS + 20, 5))
    first_past = 4 + MAX_MAP_ROWS  # the grid starts on line 4
    assert problems == [
        f"big.toml:{first_past}:1: the map has {MAX_MAP_ROWS + 20} rows; "
        f"a map may have at most {MAX_MAP_ROWS} "
        f"(hint: the largest map has {MAX_MAP_ROWS} rows of {MAX_MAP_COLUMNS} hexes)"
    ]


def test_a_row_with_too_many_hexes_is_refused_at_the_first_hex_past_the_limit() -> None:
    problems = map_problems(map_text(3, MAX_MAP_COLUMNS + 1))
    assert len(problems) == 1
    assert problems[0].startswith(
        f"big.toml:4:{2 * MAX_MAP_COLUMNS + 1}: row A has {MAX_MAP_COLUMNS + 1} hexes"
    )


def test_the_largest_map_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "largest.toml"
    code, _ = run(
        ["map", "new", "--rows", str(MAX_MAP_ROWS), "--cols", str(MAX_MAP_COLUMNS), str(path)], capsys
    )
    assert code == 0
    code, err = run(["map", "check", str(path)], capsys, seconds=10)
    assert (code, err) == (0, "")


def test_map_new_and_the_editor_stop_at_the_same_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "big.toml"
    code, err = run(["map", "new", "--rows", str(MAX_MAP_ROWS + 1), "--cols", "5", str(path)], capsys)
    assert code != 0 and f"1 to {MAX_MAP_ROWS} rows" in err
    with pytest.raises(ValueError, match=f"2 to {MAX_MAP_COLUMNS} hexes"):
        new_map(5, MAX_MAP_COLUMNS + 1)


def test_a_rules_test_board_over_the_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rule.toml"
    path.write_text(f'title = "t"\nboard = """\n{grid(MAX_MAP_ROWS + 1, 3)}\n"""\n', encoding="utf-8")
    code, err = run(["rules-test", str(path)], capsys)
    assert code != 0
    assert f"rule.toml:{3 + MAX_MAP_ROWS}:1: the map has {MAX_MAP_ROWS + 1} rows" in err


@pytest.mark.parametrize("module", ["minis.base.tomlfile", "minis.mapfile.syntax"])
def test_a_recursion_error_in_the_parser_is_reported_at_the_deepest_bracket(
    module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should the parser run out of stack anyway (called deep in the window), the place is still known."""
    import importlib

    target = importlib.import_module(module)
    monkeypatch.setattr(target, "check_toml", lambda text, file: None)
    text = "a = 1\n\nb = " + "[" * 5000 + "]" * 5000 + "\n"
    with pytest.raises(MinisError) as error:
        target.parse_toml(text, "deep.toml")
    problem = error.value.problems[0]
    assert (problem.line, problem.col, error.value.exit_code) == (3, 4 + 5000, EXIT_UNREADABLE)
    assert "nested too deeply" in problem.message
