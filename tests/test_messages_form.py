"""Every problem prints as one line `FILE:LINE:COL: message`: control characters in a value or a file
name are shown escaped, and a file's problems are capped (the rest counted on one last line)."""

from __future__ import annotations

import contextlib
import io
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minis.base.errors import MAX_SHOWN_PROBLEMS, MinisError, Problem, problem_lines
from minis.base.tomlfile import toml_string
from minis.cli import main

#: What must never reach a printed message raw.
BREAKING = "\r\n\t\x00\x1b\x7f\x85\u2028\u2029\u202e"


def is_breaking(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Zl", "Zp") or char in "\u202e\u2066"


def run(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, err.getvalue()


def assert_one_problem_a_line(err: str, file: str) -> None:
    """Each line of stderr is FILE:LINE:COL: message, with no raw control character anywhere."""
    assert err.endswith("\n")
    prefix = re.compile(re.escape(file) + r":\d+:\d+: \S")
    for line in err[:-1].split("\n"):
        assert prefix.match(line), repr(line)
        assert not any(is_breaking(char) for char in line), repr(line)


# --- Problem itself ------------------------------------------------------------------------------------


def test_a_problem_shows_control_characters_escaped_in_file_message_and_hint() -> None:
    problem = Problem("a\rb.toml", 3, 7, "'x\ty' is not a hex label\u2028", "not \x1b[2J or \u202e")
    assert str(problem) == r"a\rb.toml:3:7: 'x\ty' is not a hex label\u2028 (hint: not \x1b[2J or \u202e)"


def test_ordinary_text_is_shown_as_it_is() -> None:
    problem = Problem("cartes/char-d'assaut.toml", 1, 1, "« unknown » café 🙂, \\t stays")
    assert str(problem) == "cartes/char-d'assaut.toml:1:1: « unknown » café 🙂, \\t stays"


@given(st.text(), st.text(), st.text())
def test_a_problem_is_always_one_line(file: str, message: str, hint: str) -> None:
    shown = str(Problem(file, 1, 2, message, hint))
    assert not any(is_breaking(char) for char in shown)
    assert len(shown.splitlines()) <= 1


# --- values in files -----------------------------------------------------------------------------------


def test_a_value_with_control_characters_is_quoted_escaped(tmp_path: Path) -> None:
    path = tmp_path / "map.toml"
    path.write_text(
        'kind = "map"\nterrain = """\nC C\n"""\nroads = ["A1 \\u001b[2J"]\nobjective = "Z\\r9"\n',
        encoding="utf-8",
    )
    code, err = run(["map", "check", str(path)])
    assert code == 1
    assert f"{path}:5:14: '\\x1b[2J' is not a hex label" in err
    assert f"{path}:6:14: objective: 'Z\\r9' is not a hex label" in err
    assert_one_problem_a_line(err, str(path))


def test_a_file_name_with_control_characters_is_printed_escaped(tmp_path: Path) -> None:
    path = tmp_path / "army\r\tone\u2028.toml"
    path.write_text('name = "x"\nside = "axis"\nunits = ["no-such-card"]\n', encoding="utf-8")
    code, err = run(["army", "check", str(path)])
    assert code == 1
    shown = str(tmp_path) + "/army\\r\\tone\\u2028.toml"
    assert err.startswith(f"{shown}:3:")
    assert_one_problem_a_line(err, shown)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    value=st.text(  # no lone surrogates: a UTF-8 file can't hold one
        alphabet=st.sampled_from(BREAKING) | st.characters(exclude_categories=("Cs",)), min_size=1, max_size=8
    ).filter(lambda text: any(is_breaking(char) for char in text)),
    kind=st.sampled_from(["army name", "army unit", "objective", "road", "title", "raw"]),
)
def test_any_value_with_control_characters_gives_one_line_problems(
    tmp_path: Path, value: str, kind: str
) -> None:
    """Whatever control characters a value holds (escaped in TOML, or raw in the file), every message is
    one line that starts with FILE:LINE:COL."""
    quoted = toml_string(value)
    if kind.startswith("army"):
        path = tmp_path / "army.toml"
        name, unit = (quoted, '"pioneers"') if kind == "army name" else ('"x"', quoted)
        path.write_text(f'name = {name}\nside = "axis"\nunits = [{unit}]\n', encoding="utf-8")
        argv = ["army", "check", str(path)]
    else:
        path = tmp_path / "map.toml"
        extra = {
            "objective": f"objective = {quoted}",
            "road": f"roads = [{quoted}]",
            "title": f"title = {quoted}",
            "raw": f"title = {value}",
        }[kind]
        path.write_text(f'kind = "map"\n{extra}\nterrain = """\nC C\n"""\n', encoding="utf-8", newline="")
        argv = ["map", "check", str(path)]
    code, err = run(argv)
    assert code in (0, 1, 2)
    if code:
        assert_one_problem_a_line(err, str(path))


# --- how many problems are shown ---------------------------------------------------------------------


def test_sixty_problems_print_as_fifty_lines_and_a_count(tmp_path: Path) -> None:
    path = tmp_path / "map.toml"
    path.write_text(f'kind = "map"\nterrain = """\n{" ".join("X" * 60)}\n"""\n', encoding="utf-8")
    code, err = run(["map", "check", str(path)])
    assert code == 1
    lines = err.splitlines()
    assert len(lines) == MAX_SHOWN_PROBLEMS + 1 == 51
    assert all("unknown terrain letter 'X'" in line for line in lines[:50])
    assert lines[50] == f"{path}:3:101: and 10 more problems"  # where the first one not shown is


def test_the_window_and_the_command_line_cap_with_the_same_helper() -> None:
    problems = [Problem("f.toml", line, 1, "wrong") for line in range(1, 8)]
    assert problem_lines(problems, 5)[-1] == "f.toml:6:1: and 2 more problems"
    assert problem_lines(problems[:6], 5)[-1] == "f.toml:6:1: and 1 more problem"
    assert problem_lines(problems, 7) == [str(problem) for problem in problems]
    assert str(MinisError(problems * 10)).splitlines()[-1] == "f.toml:2:1: and 20 more problems"


def test_the_scenario_dialog_caps_its_problems_with_the_helper(tmp_path: Path) -> None:
    pytest.importorskip("arcade")
    from minis.ui.scenariochoice import SHOWN_PROBLEMS, problems_text

    path = tmp_path / "broken.toml"
    path.write_text('kind = "scenario"\n', encoding="utf-8")
    problems = [Problem(str(path), line, 1, "wrong\r") for line in range(1, 12)]
    lines = problems_text(path, MinisError(problems)).splitlines()
    assert lines[-1] == f"{path}:{SHOWN_PROBLEMS + 1}:1: and {11 - SHOWN_PROBLEMS} more problems"
    assert lines[0] == f"{path}:1:1: wrong\\r"
