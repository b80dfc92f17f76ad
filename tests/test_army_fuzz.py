"""Mutated army files: loading and checking answer with MinisError or a list of one-line problems only.

Raw text edits and edits of the parsed data (written back as valid TOML) are fed to the loader, to
`validate_army` and to `minis army check`, which must print each problem as one line naming the file.
"""

from __future__ import annotations

import contextlib
import copy
import io
import re
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minis.army import dump_army, parse_army, validate_army
from minis.cards import card_catalogue
from minis.cli import main
from minis.errors import MinisError
from minis.tomlfile import toml_string

REPO = Path(__file__).resolve().parents[1]
SAMPLES = {path.stem: path.read_text(encoding="utf-8") for path in sorted((REPO / "armies").glob("*.toml"))}
KEYS = ["name", "side", "scenario", "year", "historical", "units", "unit", "sid", "x"]
SNIPPETS = [
    '"',
    "'",
    "[",
    "]",
    "{",
    "}",
    "=",
    ",",
    "#",
    "\n",
    " ",
    "\\",
    "0",
    "true",
    '"""',
    "\x00",
    "é",
    "\u2028",
]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CARD_IDS = sorted(card_catalogue())

scalars = st.one_of(
    st.integers(-3, 2100),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=12),
    st.sampled_from(["axis", "Allies", "standard", "assault-attacker", "assault-defender", "", "1942"]),
    st.sampled_from(CARD_IDS),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=20) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=3),
    max_leaves=20,
)


def toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else toml_string(key)


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"


@st.composite
def text_mutations(draw: st.DrawFn, text: str) -> bytes:
    for _ in range(draw(st.integers(1, 4))):
        lines = text.split("\n")
        operation = draw(st.sampled_from(["delete", "insert", "dup-line", "drop-line"]))
        if operation == "delete" and text:
            start = draw(st.integers(0, len(text) - 1))
            text = text[:start] + text[start + draw(st.integers(1, 8)) :]
        elif operation == "insert":
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.sampled_from(SNIPPETS) | st.text(max_size=4)) + text[at:]
        elif operation == "dup-line":
            index = draw(st.integers(0, len(lines) - 1))
            lines.insert(index, lines[index])
            text = "\n".join(lines)
        else:
            del lines[draw(st.integers(0, len(lines) - 1))]
            text = "\n".join(lines)
    data = text.encode("utf-8")
    if draw(st.booleans()) and data:
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\xc3"])) + data[at:]
    return data


@st.composite
def data_mutations(draw: st.DrawFn, text: str) -> str:
    data = copy.deepcopy(tomllib.loads(text))
    for _ in range(draw(st.integers(1, 3))):
        operation = draw(st.sampled_from(["set", "drop", "rename", "unit"]))
        if operation == "unit" and isinstance(data.get("units"), list):
            data["units"].insert(draw(st.integers(0, len(data["units"]))), draw(scalars))
        elif operation in ("drop", "rename") and data:
            value = data.pop(draw(st.sampled_from(sorted(data))))
            if operation == "rename":
                data[draw(st.sampled_from(KEYS) | st.text(min_size=1, max_size=6))] = value
        else:
            data[draw(st.sampled_from(KEYS))] = draw(values)
    return "".join(f"{toml_key(key)} = {toml_value(value)}\n" for key, value in data.items())


def check_army(data: bytes | str) -> None:
    try:
        army = parse_army(data, "army.toml")
    except MinisError as error:
        assert error.exit_code in (1, 2)
        assert all("\n" not in str(problem) for problem in error.problems)
        return
    problems = validate_army(army, card_catalogue())
    assert all(isinstance(problem, str) and problem and "\n" not in problem for problem in problems)
    assert parse_army(dump_army(army), "army.toml") == army


@SETTINGS
@given(st.sampled_from(sorted(SAMPLES)).flatmap(lambda name: text_mutations(SAMPLES[name])))
def test_text_mutations_give_only_minis_errors(data: bytes) -> None:
    check_army(data)


@SETTINGS
@given(st.sampled_from(sorted(SAMPLES)).flatmap(lambda name: data_mutations(SAMPLES[name])))
def test_data_mutations_give_only_minis_errors_or_problem_lines(text: str) -> None:
    check_army(text)


@settings(max_examples=80, deadline=None)
@given(
    st.one_of(
        st.sampled_from(sorted(SAMPLES)).flatmap(lambda name: text_mutations(SAMPLES[name])),
        st.sampled_from(sorted(SAMPLES)).flatmap(lambda name: data_mutations(SAMPLES[name])).map(str.encode),
    )
)
def test_army_check_prints_each_problem_as_one_line(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "army.toml"
        path.write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["army", "check", str(path)])
    assert code in (0, 1, 2)
    if code == 0:
        assert out.getvalue().startswith(f"{path}: ok, ") and err.getvalue() == ""
    else:
        lines = err.getvalue().splitlines()
        assert lines and out.getvalue() == ""
        assert all(re.match(rf"{re.escape(str(path))}(:\d+:\d+)?: \S", line) for line in lines), lines
