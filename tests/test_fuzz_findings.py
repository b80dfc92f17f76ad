"""Regression tests for what the large fuzz run (tools/fuzz_inputs.py) found: each case once gave a
traceback or a problem at line 0. Every one drives `minis` as a user would, in-process."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from minis.cli import main
from minis.errors import EXIT_CHECK, EXIT_UNREADABLE

ROOT = Path(__file__).resolve().parents[1]
#: More digits than Python converts to an integer (4,300): `int()` raises ValueError on them.
HUGE = "9" * 5000


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, list[str]]:
    """`minis ARGV`: the exit code and the problem lines (no traceback may escape)."""
    capsys.readouterr()
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().err.splitlines()


def positions(lines: list[str], path: Path) -> list[tuple[int, int, str]]:
    """(line, col, message) of every `FILE:LINE:COL: message` line about `path`; all lines must be so."""
    found = []
    for text in lines:
        match = re.match(rf"^{re.escape(str(path))}:(\d+):(\d+): (.*)$", text)
        assert match, f"not a located problem: {text[:200]}"
        found.append((int(match.group(1)), int(match.group(2)), match.group(3)))
    return found


def card_folder(tmp_path: Path, text: str) -> tuple[Path, Path]:
    folder = tmp_path / "cards"
    folder.mkdir()
    card = folder / "jeep.toml"
    card.write_text(text, encoding="utf-8")
    return folder, card


def test_a_number_of_5000_digits_is_refused_where_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (ROOT / "cards" / "jeep.toml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^cost = .*$", f"cost = {HUGE}", text)
    folder, card = card_folder(tmp_path, text)
    code, lines = run(capsys, "cards", "list", "--cards", folder)
    line = text.split("\n").index(f"cost = {HUGE}") + 1
    assert code == EXIT_UNREADABLE
    assert positions(lines, card) == [
        (
            line,
            8,
            "this value is 5,000 characters long; a number may have at most 100"
            " (hint: is it the right value?)",
        )
    ]


def test_an_ability_number_of_5000_digits_is_an_unknown_ability(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (ROOT / "cards" / "jeep.toml").read_text(encoding="utf-8")
    text += f'\n[[abilities]]\nability = "Shrapnel {HUGE}"\ndescription = "x"\n'
    folder, card = card_folder(tmp_path, text)
    code, lines = run(capsys, "cards", "list", "--cards", folder)
    assert code == EXIT_CHECK
    (found,) = positions(lines, card)
    assert found[0] > 1 and found[2].startswith("unknown ability 'Shrapnel 999")


def test_a_die_of_5000_digits_or_a_superscript_in_a_record_is_not_a_die(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "records"
    code, _ = run(
        capsys,
        *("simulate", "--axis", ROOT / "armies" / "sample-axis.toml"),
        *("--allies", ROOT / "armies" / "sample-allies.toml", "--games", "1", "--config", "1"),
        *("--seed", "3", "--records", folder, "--quiet"),
    )
    assert code == 0
    good = (folder / "game-0001.rec").read_text(encoding="utf-8")
    lines = good.split("\n")
    start = lines.index("---") + 1  # the start line: "start | D D ..."
    for word in (HUGE, "\u00b2"):  # '²' passes str.isdigit but int() refuses it
        bad = tmp_path / "bad.rec"
        bad.write_text("\n".join([*lines[:start], f"start | {word}", *lines[start + 1 :]]), encoding="utf-8")
        code, found = run(capsys, "replay", bad)
        assert code == EXIT_CHECK
        ((line, col, message), *_) = positions(found, bad)
        assert (line, col) == (start + 1, 9) and message.startswith(f"'{word[:20]}")


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        # a key written as a dotted table: the reader looks for `kind`, the file has `kind.kind`
        ('kind . kind = "section"\n', 1, "'kind' must be a string, not a table"),
        ('title = "T"\nkind."".y = "map"\n', 2, "'kind' must be a string, not a table"),
    ],
)
def test_a_map_key_written_as_a_table_is_reported_on_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: int, message: str
) -> None:
    path = tmp_path / "map.toml"
    path.write_text(text + 'terrain = """\nC C\n C\n"""\n', encoding="utf-8")
    code, lines = run(capsys, "map", "check", path)
    assert code == EXIT_CHECK
    assert (line, 1) in [(found[0], found[1]) for found in positions(lines, path) if message in found[2]]


def test_a_configuration_section_written_as_a_table_is_on_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "maps"
    shutil.copytree(ROOT / "maps", folder)
    path = folder / "configurations" / "1-half-and-half.toml"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r'(?m)^sw = "', 'sw.x = "', text)
    path.write_text(text, encoding="utf-8")
    code, lines = run(capsys, "map", "check", path)
    line = next(i for i, row in enumerate(text.split("\n"), 1) if row.startswith("sw.x"))
    assert code == EXIT_CHECK
    assert (line, 1, "'sw' must be a string in quotes (hint: sw = \"...\")") in positions(lines, path)
