"""Army files: the format of docs/contracts.md#army-files, with every problem of a file reported at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from minis.army import Army, ArmyScenario, dump_army, load_army, parse_army
from minis.base.errors import EXIT_CHECK, EXIT_UNREADABLE, MinisError
from minis.base.sides import Side

CONTRACT_EXAMPLE = """\
name = "Sample Allied army"
side = "allies"                  # axis | allies
scenario = "standard"            # standard (100) | assault-attacker (120) | assault-defender (80)
year = 1942                      # optional: only units available by this year
historical = true                # optional: apply the historical army limits
units = ["m4a1-sherman", "6-pounder-anti-tank-gun", "red-devil-captain", "bazooka"]   # card ids
"""


def error_of(text: str | bytes) -> MinisError:
    with pytest.raises(MinisError) as caught:
        parse_army(text, "army.toml")
    return caught.value


def test_the_design_example_loads() -> None:
    army = parse_army(CONTRACT_EXAMPLE, "army.toml")
    assert army == Army(
        name="Sample Allied army",
        side=Side.ALLIES,
        scenario=ArmyScenario.STANDARD,
        year=1942,
        historical=True,
        units=("m4a1-sherman", "6-pounder-anti-tank-gun", "red-devil-captain", "bazooka"),
    )


def test_optional_keys_default() -> None:
    army = parse_army('name = "A"\nside = "AXIS"\nunits = ["tiger-i", "tiger-i"]\n', "army.toml")
    assert army.side is Side.AXIS and army.scenario is ArmyScenario.STANDARD
    assert army.year is None and army.historical is False
    assert army.units == ("tiger-i", "tiger-i")


def test_scenario_limits() -> None:
    assert [scenario.points_limit for scenario in ArmyScenario] == [100, 120, 80]
    assert ArmyScenario.parse("Assault-Attacker") is ArmyScenario.ASSAULT_ATTACKER


def test_army_accepts_strings_for_side_and_scenario() -> None:
    army = Army("x", "axis", "assault-defender", units=["tiger-i"])
    assert (
        army.side is Side.AXIS
        and army.scenario is ArmyScenario.ASSAULT_DEFENDER
        and army.units == ("tiger-i",)
    )


def test_load_army_remembers_its_source(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(CONTRACT_EXAMPLE, encoding="utf-8")
    assert load_army(path).source == path


def test_every_problem_at_once_with_lines_and_hints() -> None:
    text = 'name = "x"\nside = "axsi"\nscenario = "assault"\nunits = "tiger-i"\nyear = "1942"\n'
    text += "historical = 1\ncolour = 3\n"
    error = error_of(text)
    assert error.exit_code == EXIT_CHECK
    found = [(problem.line, problem.message, problem.hint) for problem in error.problems]
    assert found == [
        (2, "unknown side 'axsi' (axis or allies)", "did you mean 'axis'?"),
        (
            3,
            "unknown scenario 'assault' (standard, assault-attacker, assault-defender)",
            "did you mean 'assault-defender'?",
        ),
        (4, "'units' must be a list, not the string 'tiger-i'", ""),
        (5, "'year' must be an integer, not the string '1942'", ""),
        (6, "'historical' must be true or false, not the integer 1", ""),
        (7, "unknown key 'colour'", ""),
    ]


def test_unknown_key_hint_and_missing_keys() -> None:
    error = error_of('name = "x"\nsid = "axis"\nunit = []\n')
    found = [(problem.line, problem.message, problem.hint) for problem in error.problems]
    assert (1, "missing key 'side'", "") in found
    assert (1, "missing key 'units'", "") in found
    assert (2, "unknown key 'sid'", "did you mean 'side'?") in found
    assert (3, "unknown key 'unit'", "did you mean 'units'?") in found


def test_unit_entries_must_be_strings() -> None:
    error = error_of('name = "x"\nside = "axis"\nunits = ["tiger-i",\n  3,\n  ""]\n')
    messages = [problem.message for problem in error.problems]
    assert messages == [
        "entry 2 of 'units' must be a string, not the integer 3",
        "unit 3 is an empty card id",
    ]


def test_year_out_of_range() -> None:
    error = error_of('name = "x"\nside = "axis"\nyear = 42\nunits = []\n')
    assert [(problem.line, problem.message) for problem in error.problems] == [
        (3, "year 42 is out of range (1930-1950)")
    ]


def test_unreadable_files_exit_2(tmp_path: Path) -> None:
    assert error_of('name = "x\n').exit_code == EXIT_UNREADABLE
    assert error_of(b"\xc3\x28 = 1").exit_code == EXIT_UNREADABLE
    with pytest.raises(MinisError) as caught:
        load_army(tmp_path / "nope.toml")
    assert caught.value.exit_code == EXIT_UNREADABLE
    assert caught.value.problems[0].message == "no such file"
    with pytest.raises(MinisError) as caught:
        load_army(tmp_path)
    assert caught.value.exit_code == EXIT_UNREADABLE


def test_dump_army_reads_back_equal() -> None:
    army = Army(
        'A "quoted" name', Side.AXIS, ArmyScenario.ASSAULT_ATTACKER, 1941, True, ("tiger-i", "pioneers")
    )
    assert parse_army(dump_army(army), "army.toml") == army
    plain = Army("B", Side.ALLIES, units=("bazooka",))
    assert parse_army(dump_army(plain), "army.toml") == plain
