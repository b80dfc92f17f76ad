"""Army-rule problems point at what causes them: `FILE:LINE:COL: message`, like every other file.

A unit that breaks a rule (unknown, the other side, too late for the year, against the historical limits)
is reported at its own card id string in `units`, the Nth copy of an id at the Nth string; the limits at
the `units` key (or the `scenario` key that sets the points); another side's army at the `side` key.
`minis army check`, `minis army show`, `minis simulate` and a scenario's army check all agree.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minis.army import load_army, parse_army, validate_army
from minis.base.errors import MinisError
from minis.base.sides import Side
from minis.cards import StatCard, card_catalogue
from minis.cli import main
from minis.engine.scenario import load_scenario, start_game

ROOT = Path(__file__).resolve().parent.parent
AXIS = ROOT / "armies" / "sample-axis.toml"
ALLIES = ROOT / "armies" / "sample-allies.toml"


@pytest.fixture(scope="module")
def cards() -> dict[str, StatCard]:
    return card_catalogue()


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def check(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, list[str]]:
    """Exit code and standard-error lines of a `minis` command."""
    code = main([str(arg) for arg in argv])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err.splitlines()


def test_unknown_cards_each_copy_at_its_own_string(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    army = write(
        tmp_path / "army.toml",
        'name = "x"\nside = "axis"\nunits = [\n'
        '    "tigr-i", "tiger-i",  # a "quoted" comment\n'
        '  "tigr-i",\n'
        "\t'zzzz', \"tigr-i\"]\n",
    )
    code, lines = check(capsys, "army", "check", army)
    unknown = "unknown card 'tigr-i' (did you mean 'tiger-i'?)"
    assert code == 1 and lines == [
        f"{army}:4:6: {unknown}",
        f"{army}:5:4: {unknown}",
        f"{army}:6:3: unknown card 'zzzz'",
        f"{army}:6:11: {unknown}",
    ]


def test_a_card_of_the_other_side_at_its_string(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    army = write(tmp_path / "a.toml", 'name = "x"\nside = "axis"\nunits = ["tiger-i",\n  "m4a1-sherman"]\n')
    code, lines = check(capsys, "army", "check", army)
    assert code == 1 and lines == [f"{army}:4:4: M4A1 Sherman is an Allied unit in an Axis army"]


def test_a_card_too_late_for_the_year_at_its_string(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    army = write(
        tmp_path / "a.toml",
        'name = "x"\nside = "axis"\nyear = 1941\n'
        'units = ["arisaka-rifleman", "mg-42-machine-gun-team", "mg-42-machine-gun-team"]\n',
    )
    code, lines = check(capsys, "army", "check", army)
    late = "MG-42 Machine-Gun Team is from 1942, later than the army's year 1941"
    assert code == 1 and lines == [f"{army}:4:31: {late}", f"{army}:4:57: {late}"]


def test_historical_limits_at_the_units_they_are_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    army = write(
        tmp_path / "a.toml",
        'name = "x"\nside = "axis"\nhistorical = true\n'
        'units = [\n  "tiger-i",\n  "arisaka-rifleman",\n  "pioneers",\n  "arisaka-rifleman",\n]\n',
    )
    code, lines = check(capsys, "army", "check", army)
    message = (
        "historical army limits: Japanese units can't be in an army with any other nationality "
        "(this army also has Germany)"
    )
    assert code == 1 and lines == [f"{army}:6:4: {message}", f"{army}:8:4: {message}"]


def test_over_the_points_limit_at_the_units_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    army = write(tmp_path / "a.toml", 'name = "x"\nside = "axis"\n  units = ["tiger-i", "tiger-i"]\n')
    code, lines = check(capsys, "army", "check", army)
    assert code == 1 and lines == [f"{army}:3:3: 112 points, 12 over the 100-point limit"]


def test_over_the_points_limit_at_the_scenario_key_that_sets_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    army = write(
        tmp_path / "a.toml",
        'units = ["tiger-i", "tiger-i"]\nname = "x"\nside = "axis"\n scenario = "assault-defender"\n',
    )
    code, lines = check(capsys, "army", "check", army)
    assert code == 1 and lines == [f"{army}:4:2: 112 points, 32 over the 80-point limit"]
    code, lines = check(capsys, "army", "show", army)
    assert code == 1 and lines == [f"{army}:4:2: 112 points, 32 over the 80-point limit"]


def test_over_the_unit_limit_and_no_units_at_the_units_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    many = write(
        tmp_path / "many.toml", 'name = "x"\nside = "axis"\n\nunits = [' + '"pioneers", ' * 16 + "]\n"
    )
    empty = write(tmp_path / "empty.toml", 'name = "x"\nside = "axis"\nunits = [\n]\n')
    code, lines = check(capsys, "army", "check", many, empty)
    assert code == 1 and lines == [
        f"{many}:4:1: 112 points, 12 over the 100-point limit",
        f"{many}:4:1: 16 units, 1 over the 15-unit limit",
        f"{empty}:3:1: no units: an army needs at least one",
    ]


def test_problems_print_in_file_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    army = write(
        tmp_path / "a.toml",
        'name = "x"\nside = "allies"\nyear = 1941\nunits = ["m4a1-sherman",\n "tiger-i", "zzzz"]\n',
    )
    code, lines = check(capsys, "army", "check", army)
    assert code == 1 and lines == [
        f"{army}:4:11: M4A1 Sherman is from 1942, later than the army's year 1941",
        f"{army}:5:3: Tiger I is an Axis unit in an Allied army",
        f"{army}:5:3: Tiger I is from 1942, later than the army's year 1941",
        f"{army}:5:14: unknown card 'zzzz'",
    ]


def test_the_army_builder_still_shows_each_message_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cards: dict[str, StatCard]
) -> None:
    army = write(
        tmp_path / "a.toml", 'name = "x"\nside = "axis"\nunits = ["tigr-i", "tigr-i", "kv-1", "kv-1"]\n'
    )
    unknown, allied = (
        "unknown card 'tigr-i' (did you mean 'tiger-i'?)",
        "KV-1 is an Allied unit in an Axis army",
    )
    assert validate_army(load_army(army), cards) == [unknown, allied]
    code, lines = check(capsys, "army", "check", army)
    assert code == 1 and lines == [
        f"{army}:3:11: {unknown}",
        f"{army}:3:21: {unknown}",
        f"{army}:3:31: {allied}",
        f"{army}:3:39: {allied}",
    ]


# --- the other commands that check army files ----------------------------------------------------------


def test_simulate_another_sides_army_at_the_side_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    allies = write(tmp_path / "allies.toml", ALLIES.read_text(encoding="utf-8").replace("side =", "  side ="))
    side_line = allies.read_text(encoding="utf-8").splitlines().index('  side = "allies"') + 1
    code, lines = check(capsys, "simulate", "--axis", allies, "--allies", ALLIES, "--games", "1", "--quiet")
    assert code == 1 and lines == [f"{allies}:{side_line}:3: this is an Allies army, not an Axis one"]


def test_simulate_points_at_the_repeated_copy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = AXIS.read_text(encoding="utf-8")
    axis = write(tmp_path / "axis.toml", text.replace('"mauser-kar-98k"', '"mauser-kar-98"'))
    rows = [number for number, line in enumerate(text.splitlines(), start=1) if "mauser-kar-98k" in line]
    code, lines = check(capsys, "simulate", "--axis", axis, "--allies", ALLIES, "--games", "1", "--quiet")
    unknown = "unknown card 'mauser-kar-98' (did you mean 'mauser-kar-98k'?)"
    assert code == 1 and lines == [f"{axis}:{row}:6: {unknown}" for row in rows] and len(rows) == 2


def test_a_scenarios_limits_at_the_army_files_keys(tmp_path: Path) -> None:
    scenario = write(
        tmp_path / "early.toml",
        (ROOT / "scenarios" / "standard.toml")
        .read_text(encoding="utf-8")
        .replace("[axis]\npoints = 100", "[axis]\npoints = 60\nyear = 1941"),
    )
    axis = write(
        tmp_path / "axis.toml",
        'name = "x"\nside = "axis"\nscenario = "standard"\nunits = [\n  "pioneers",\n  "tiger-i",\n]\n',
    )
    allies = write(tmp_path / "allies.toml", 'name = "y"\nside = "axis"\nunits = ["pioneers"]\n')
    with pytest.raises(MinisError) as raised:
        start_game(load_scenario(scenario), load_army(axis), load_army(allies))
    assert [str(problem) for problem in raised.value.problems] == [
        f"{axis}:4:1: 63 points, 3 over the 60-point limit",
        f"{axis}:6:4: Tiger I is from 1942, later than the army's year 1941",
        f"{allies}:2:1: this is an Axis army, not an Allies one",
    ]


# --- any layout of the units list --------------------------------------------------------------------------

IDS = ("tiger-i", "tigr-i", "kv-1", "zzzz", "pioneers")
SEPARATORS = st.sampled_from([", ", ",", " ,\n  ", ",  # a 'note', \"quoted\"\n", ",\n\n\t"])


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the property test writes its army file (hypothesis runs one test many times)."""
    return tmp_path_factory.mktemp("layouts")


@settings(max_examples=60, deadline=None)
@given(
    units=st.lists(st.sampled_from(IDS), min_size=1, max_size=12),
    separators=st.lists(SEPARATORS, min_size=12, max_size=12),
    quotes=st.lists(st.sampled_from(['"', "'"]), min_size=12, max_size=12),
    opening=st.sampled_from(["[", "[\n", "[ # units\n   "]),
)
def test_every_bad_unit_is_located_at_its_own_string(
    folder: Path, units: list[str], separators: list[str], quotes: list[str], opening: str
) -> None:
    cards = card_catalogue()
    text = f'name = "x"\nside = "axis"\nunits = {opening}'
    expected = []
    for unit, separator, quote in zip(units, separators, quotes, strict=False):
        before = text + quote
        if unit not in cards or cards[unit].side is not Side.AXIS:
            (message,) = validate_army(parse_army(f'name = "x"\nside = "axis"\nunits = ["{unit}"]\n'), cards)
            line, col = before.count("\n") + 1, len(before) - before.rfind("\n")
            expected.append((line, col, f"{folder / 'army.toml'}:{line}:{col}: {message}"))
        text = before + unit + quote + separator
    army = write(folder / "army.toml", text + "]\n")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        main(["army", "check", str(army)])
    assert [line for line in err.getvalue().splitlines() if not line.endswith("limit")] == [
        shown for _, _, shown in sorted(expected)
    ]
