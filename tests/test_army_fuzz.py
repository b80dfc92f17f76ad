"""Mutated army files: loading and checking answer with MinisError or a list of one-line problems only.

Raw text edits and edits of the parsed data (written back as valid TOML) are fed to the loader, to
`validate_army` and to `minis army check`, which must print each problem as one line naming the file.
"""

from __future__ import annotations

import copy
import re
import tomllib
from pathlib import Path

from helpers_toml import either_mutation, mutate_text, of_samples, run_on_file, toml_document
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minis.army import dump_army, parse_army, validate_army
from minis.base.errors import MinisError
from minis.cards import card_catalogue

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
OPERATIONS = ["delete", "insert", "dup-line", "drop-line"]
BAD = [b"\xff", b"\xc3"]
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


def text_mutations(text: str) -> st.SearchStrategy[bytes]:
    return mutate_text(text, SNIPPETS, operations=OPERATIONS, bad_bytes=BAD)


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
    return toml_document(data)


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
@given(of_samples(SAMPLES, text_mutations))
def test_text_mutations_give_only_minis_errors(data: bytes) -> None:
    check_army(data)


@SETTINGS
@given(of_samples(SAMPLES, data_mutations))
def test_data_mutations_give_only_minis_errors_or_problem_lines(text: str) -> None:
    check_army(text)


@settings(max_examples=80, deadline=None)
@given(either_mutation(SAMPLES, text_mutations, data_mutations))
def test_army_check_prints_each_problem_as_one_line(data: bytes) -> None:
    path, code, out, err = run_on_file("army.toml", data, lambda path: ["army", "check", str(path)])
    assert code in (0, 1, 2)
    if code == 0:
        assert out.startswith(f"{path}: ok, ") and err == ""
    else:
        lines = err.splitlines()
        assert lines and out == ""
        assert all(re.match(rf"{re.escape(str(path))}(:\d+:\d+)?: \S", line) for line in lines), lines
