"""Mutated card files: the loader answers with a card or with MinisError, never with another exception.

Two kinds of mutation: edits of the raw text (mostly syntax errors and odd bytes) and edits of the parsed
data written back as valid TOML (wrong types, unknown keys, missing keys, odd values). A card that
still loads must survive dump_card and load back equal, and the command line prints every problem as one
`FILE:LINE:COL: message` line.
"""

from __future__ import annotations

import copy
import re
import tomllib

from helpers_toml import either_mutation, mutate_text, of_samples, run_on_file, toml_document
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minis.base.errors import MinisError
from minis.cards import cards_folder, dump_card, parse_card

SAMPLES = {
    path.stem: path.read_text(encoding="utf-8")
    for path in sorted(cards_folder().glob("*.toml"))
    if path.stem in ("m4a1-sherman", "red-devil-captain", "jeep", "sig-33", "6-pounder-anti-tank-gun")
}
KEYS = [
    "name",
    "nation",
    "type",
    "subtype",
    "year",
    "cost",
    "speed",
    "defense",
    "vs_soldiers",
    "vs_vehicles",
    "set",
    "collector",
    "rarity",
    "abilities",
    "ability",
    "description",
    "short",
    "medium",
    "long",
    "front",
    "rear",
    "shrot",
    "abilty",
    "x",
]
SNIPPETS = [
    '"',
    "'",
    "[",
    "]",
    "{",
    "}",
    "=",
    ",",
    ".",
    "#",
    "\n",
    " ",
    "\\",
    "x",
    "0",
    "-1",
    "1e3",
    "true",
    "inf",
    '"""',
    "[[abilities]]",
    "[defense]",
    "\x00",
    "é",
    "\u2028",
    "99999999999999999999",
    "ability = ",
]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = st.one_of(
    st.integers(-3, 2100),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=12),
    st.sampled_from(
        [
            "Germany",
            "USSR",
            "Soldier",
            "vehicle",
            "Tank",
            "Rare",
            "12/48",
            "",
            "Close Assault 7",
            "Commander: Initiative +2",
            "Pinpointer 2",
            "Blast",
            "Base Set",
        ]
    ),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=3),
    max_leaves=6,
)


def text_mutations(text: str) -> st.SearchStrategy[bytes]:
    """Raw edits: delete, insert, duplicate, drop or swap lines, or insert invalid UTF-8."""
    return mutate_text(text, SNIPPETS)


@st.composite
def data_mutations(draw: st.DrawFn, text: str) -> str:
    """Edits of the parsed data, written back as valid TOML: keys dropped, renamed, or given odd values."""
    data = copy.deepcopy(tomllib.loads(text))
    for _ in range(draw(st.integers(1, 3))):
        tables = [data] + [value for value in data.values() if isinstance(value, dict)]
        abilities = data.get("abilities", [])
        if isinstance(abilities, list):
            tables += [item for item in abilities if isinstance(item, dict)]
        table = draw(st.sampled_from(tables))
        operation = draw(st.sampled_from(["set", "drop", "rename"]))
        if operation == "set" or not table:
            table[draw(st.sampled_from(KEYS))] = draw(values)
        else:
            key = draw(st.sampled_from(sorted(table)))
            value = table.pop(key)
            if operation == "rename":
                table[draw(st.sampled_from(KEYS) | st.text(min_size=1, max_size=6))] = value
    return toml_document(data)


def check_card(data: bytes | str) -> None:
    try:
        card = parse_card(data, "fuzzed-card")
    except MinisError as error:
        assert error.exit_code in (1, 2)
        for problem in error.problems:
            assert problem.message and "\n" not in str(problem) and "\r" not in str(problem)
            assert problem.line >= 0 and problem.col >= 0
        return
    assert parse_card(dump_card(card), card.id) == card


@SETTINGS
@given(of_samples(SAMPLES, text_mutations))
def test_text_mutations_give_only_minis_errors(data: bytes) -> None:
    check_card(data)


@SETTINGS
@given(of_samples(SAMPLES, data_mutations))
def test_data_mutations_give_only_minis_errors(text: str) -> None:
    check_card(text)


@settings(max_examples=60, deadline=None)
@given(either_mutation(SAMPLES, text_mutations, data_mutations))
def test_the_command_line_prints_each_card_problem_as_one_line(data: bytes) -> None:
    path, code, out, err = run_on_file(
        "fuzzed-card.toml", data, lambda path: ["cards", "list", "--cards", str(path.parent)]
    )
    assert code in (0, 1, 2)
    if code == 0:
        assert out.startswith("fuzzed-card ")
    else:
        lines = err.splitlines()
        assert lines
        assert all(re.match(rf"{re.escape(str(path))}:\d+:\d+: \S", line) for line in lines), lines
