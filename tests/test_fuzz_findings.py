"""Regression tests for what the large fuzz run (tools/fuzz_inputs.py) found: each case once gave a
traceback or a problem at line 0. Every one drives `minis` as a user would, in-process."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from minis.base.errors import EXIT_CHECK, EXIT_UNREADABLE
from minis.cli import main

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


# --- issue 33: values of the wrong type, numbers out of range, unbounded work ----------------------------

#: The most an army may be drawn with (docs/file-limits.md).
BIG = 2**63 - 1


@pytest.fixture(scope="module")
def record_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A record of one game played under 2010 (its header names the set: `rules = "2010"`)."""
    folder = tmp_path_factory.mktemp("records")
    code = main(
        [
            *("simulate", "--axis", str(ROOT / "armies" / "sample-axis.toml")),
            *("--allies", str(ROOT / "armies" / "sample-allies.toml"), "--games", "1", "--config", "1"),
            *("--seed", "3", "--rules", "2010", "--records", str(folder), "--quiet"),
        ]
    )
    assert code == 0
    return (folder / "game-0001.rec").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("2010", "'rules' is the name of a rule set in quotes, not the integer 2010"),
        ('["2010"]', "'rules' is the name of a rule set in quotes, not a list"),
        ("20.10", "'rules' is the name of a rule set in quotes, not the number 20.1"),
    ],
)
def test_a_record_naming_its_rule_set_with_a_number_is_refused_at_the_rules_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record_text: str, value: str, message: str
) -> None:
    """`rules = 2010` once crashed `minis replay` (and the window's Load) in the did-you-mean hint."""
    assert 'rules = "2010"\n' in record_text
    path = tmp_path / "game.rec"
    path.write_text(record_text.replace('rules = "2010"\n', f"rules = {value}\n"), encoding="utf-8")
    code, lines = run(capsys, "replay", path)
    line = record_text.split("\n").index('rules = "2010"') + 1
    assert code == EXIT_CHECK
    [(found_line, col, found)] = positions(lines, path)
    assert (found_line, col) == (line, 1) and found.startswith(message)


def test_a_card_values_table_with_a_huge_cost_is_refused_not_a_crash_of_every_army(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`cost = 1e308` in the card-values table once crashed every army the computer built (an overflow
    in the worth arithmetic); now the table's own line says what is wrong."""
    import random

    from minis.ai.army_maker import make_army
    from minis.base.errors import MinisError
    from minis.base.sides import Side
    from minis.cards import card_catalogue
    from minis.content import card_worth

    text = card_worth.shipped_path().read_text(encoding="utf-8")
    bad = re.sub(r"(?m)^(tiger-i = \{ )cost = \d+", r"\1cost = 1e308", text)
    assert bad != text
    table = tmp_path / "card-values-table.toml"
    table.write_text(bad, encoding="utf-8")
    monkeypatch.setattr(card_worth, "shipped_path", lambda: table)
    card_worth.shipped_worth.cache_clear()
    try:
        with pytest.raises(MinisError) as caught:
            make_army(card_catalogue(), Side.AXIS, 100, rng=random.Random(1))
    finally:
        card_worth.shipped_worth.cache_clear()
    [problem] = caught.value.problems
    line = bad.split("\n").index(next(row for row in bad.split("\n") if row.startswith("tiger-i ="))) + 1
    assert (problem.file, problem.line) == (str(table), line)
    assert problem.message == "'cost' is the card's printed cost: 1e+308 is not 0.5-200"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("cost = 0", "'cost' is the card's printed cost: 0 is not 0.5-200"),
        ("fair = inf", "'fair' must be a number of points from -1000 to 1000 (or nan), not inf"),
        ("low = -1e300", "'low' must be a number of points from -1000 to 1000 (or nan), not -1e+300"),
    ],
)
def test_a_card_values_table_with_numbers_out_of_range(tmp_path: Path, line: str, message: str) -> None:
    from minis.base.errors import MinisError
    from minis.content.card_worth import read_table

    key = line.split(" = ")[0]
    row = re.sub(
        rf"{key} = [^,}}]+", line, "jeep = { cost = 5, games = 300, fair = 6.0, low = 4.0, high = 8.0 }"
    )
    path = tmp_path / "table.toml"
    path.write_text(f'study = "s"\ngames = 1\n\n[cards]\n{row}\n', encoding="utf-8")
    with pytest.raises(MinisError) as caught:
        read_table(path)
    assert [(p.line, p.message) for p in caught.value.problems] == [(5, message)]


def test_a_measure_with_no_spread_stands_as_measured() -> None:
    """An interval of a millionth of a point or less: 1 / error**2 would overflow (or divide by 0)."""
    from minis.content.card_worth import Measured, worth

    assert worth(Measured(10, 500, 0.0, -1e-200, 1e-200)) == 0.0
    assert worth(Measured(10, 500, 12.5, 0.0, 5e-324)) == 12.5


def tiny_study(folder: Path, armies: str, extra: str = "") -> Path:
    path = folder / "study.toml"
    path.write_text(
        f'name = "x"\nbots = ["random", "random"]\ngames = 1\nseed = 1\n{extra}\n[armies]\n{armies}\n',
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ('["varied"]', "'draw' is one of: 'strong', 'varied'"),
        ("{ varied = 1 }", "'draw' is one of: 'strong', 'varied'"),
    ],
)
def test_a_study_draw_that_is_not_a_name_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, message: str
) -> None:
    """`draw = ["varied"]` once crashed `minis lab run` (a list is no dictionary key)."""
    path = tiny_study(tmp_path, f"points = 60\ndraw = {value}")
    code, lines = run(capsys, "lab", "run", path)
    assert code == EXIT_CHECK
    assert positions(lines, path) == [(8, 1, message)]


def test_a_study_of_endless_points_is_refused_at_once_not_drawn_for_ever(tmp_path: Path) -> None:
    """The issue's 146-byte study: points 2^63-1 with no unit limit once drew its first army for ever.
    The run is stopped after 5 seconds (an alarm) if it still would."""
    from tests.fuzzing import run_minis

    path = tiny_study(tmp_path, f"points = {BIG}", '[rule_options]\nmax_units = "any"\n')
    assert len(path.read_bytes()) < 150
    done = run_minis(["lab", "run", str(path)])
    assert not done.timed_out and not done.error
    assert done.code == EXIT_CHECK
    assert done.err.splitlines() == [
        f"{path}:9:1: 'points' must be a whole number from 1 to 400",
    ]


@pytest.mark.parametrize(
    ("armies", "message"),
    [
        (
            "points = [80, 401]",
            "'points' is a whole number, or [LOW, HIGH] with 1 <= LOW <= HIGH, like [80, 120]",
        ),
        ("points = 0", "'points' must be a whole number from 1 to 400"),
    ],
)
def test_a_study_s_points_are_within_the_largest_army(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], armies: str, message: str
) -> None:
    path = tiny_study(tmp_path, armies)
    code, lines = run(capsys, "lab", "run", path)
    assert code == EXIT_CHECK
    [(_, _, found)] = positions(lines, path)
    assert found.startswith(message)


def test_a_study_of_too_many_games_is_refused(tmp_path: Path) -> None:
    """The run lists the games it has still to play: 2^63-1 of them would fill the memory. (Checked at
    `load_study`, which refuses it, so that the old code fails here without trying to list them.)"""
    from minis.base.errors import MinisError
    from minis.lab.study import load_study

    path = tiny_study(tmp_path, "points = 60")
    path.write_text(path.read_text(encoding="utf-8").replace("games = 1", f"games = {BIG}"), encoding="utf-8")
    with pytest.raises(MinisError) as caught:
        load_study(path)
    assert [str(p) for p in caught.value.problems] == [
        f"{path}:3:1: 'games' must be a whole number from 1 to 1,000,000"
    ]


def endless_scenario(folder: Path) -> Path:
    """The Standard scenario with Axis points 2^63-1 and no unit limit: no army can ever be drawn."""
    text = (ROOT / "scenarios" / "standard.toml").read_text(encoding="utf-8")
    text = text.replace("[axis]\npoints = 100", f"[axis]\npoints = {BIG}", 1)
    path = folder / "endless.toml"
    path.write_text(text + '\n[rule_options]\nmax_units = "any"\n', encoding="utf-8")
    return path


def test_a_scenario_of_endless_points_fails_its_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = endless_scenario(tmp_path)
    code, lines = run(capsys, "edit", "--check", path)
    line = path.read_text(encoding="utf-8").split("\n").index(f"points = {BIG}") + 1
    assert code == EXIT_CHECK
    assert positions(lines, path) == [
        (line, 1, f"the points limit must be at most 400, not {BIG:,} (hint: points = 100)")
    ]


def test_a_study_of_a_scenario_of_endless_points_is_refused_not_drawn_for_ever(tmp_path: Path) -> None:
    from tests.fuzzing import run_minis

    scenario = endless_scenario(tmp_path)
    study = tmp_path / "study.toml"
    study.write_text(
        f'name = "x"\nbots = ["random", "random"]\nscenario = "{scenario.name}"\ngames = 1\nseed = 1\n',
        encoding="utf-8",
    )
    done = run_minis(["lab", "run", str(study)])
    assert not done.timed_out and not done.error and done.code == EXIT_CHECK
    assert f"{scenario}:" in done.err and "the points limit must be at most 400" in done.err


def test_an_army_is_never_drawn_beyond_the_largest_points(tmp_path: Path) -> None:
    """Whoever asks (a caller the files' checks don't cover): a clear refusal, never an endless fill."""
    import random

    from minis.ai.army_maker import make_army
    from minis.base.errors import MinisError
    from minis.base.sides import Side
    from minis.cards import card_catalogue
    from minis.content.rule_sets import NAMED
    from tests.fuzzing import alarm

    with alarm(5.0), pytest.raises(MinisError, match="no army of 9,223,372,036,854,775,807 points is drawn"):
        make_army(card_catalogue(), Side.AXIS, BIG, rng=random.Random(1), rules=NAMED["2010"])


def test_a_scenario_no_army_can_be_bought_for_fails_its_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No Axis card of 1939 costs a point: no player could build that army, nor the computer draw one
    (a study of it once failed only at its first draw, at the study's line 1)."""
    text = (ROOT / "scenarios" / "standard.toml").read_text(encoding="utf-8")
    path = tmp_path / "nothing.toml"
    path.write_text(
        text.replace("[axis]\npoints = 100", "[axis]\npoints = 1\nyear = 1939", 1), encoding="utf-8"
    )
    code, lines = run(capsys, "edit", "--check", path)
    line = path.read_text(encoding="utf-8").split("\n").index("points = 1") + 1
    assert code == EXIT_CHECK
    assert positions(lines, path) == [
        (
            line,
            1,
            "no Axis army can be built for [axis]: no Axis card from 1939 or earlier costs 1 points or less",
        )
    ]


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ("points = 5000\n", "points 5000 is out of range (1-400)"),
        (
            '\nrules = "2010"\n[rule_options]\npoint_levels = [5000]\n',
            "point_levels is a list of army sizes in points (1-400), like [200, 100, 400]",
        ),
    ],
)
def test_an_army_file_asks_for_no_more_than_the_largest_army(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: str, message: str
) -> None:
    path = tmp_path / "army.toml"
    path.write_text(
        f'name = "x"\nside = "axis"\nscenario = "standard"\nunits = ["pioneers"]\n{lines}', encoding="utf-8"
    )
    code, found = run(capsys, "army", "check", path)
    assert code == EXIT_CHECK
    assert message in [text for _, _, text in positions(found, path)]


def test_a_battle_is_given_at_most_1000_turns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A battle nobody can win plays on to its last turn: a study's games would never end."""
    from minis.base.errors import MinisError
    from minis.lab.study import load_study

    study = tiny_study(tmp_path, "points = 60", f"turn_limit = {BIG}\n")
    with pytest.raises(MinisError) as caught:
        load_study(study)
    assert [p.message for p in caught.value.problems] == [
        "'turn_limit' must be a whole number from 1 to 1,000"
    ]
    text = (ROOT / "scenarios" / "standard.toml").read_text(encoding="utf-8")
    path = tmp_path / "long.toml"
    path.write_text(text.replace('map = "roll"\n', 'map = "roll"\nturns = 1001\n'), encoding="utf-8")
    code, lines = run(capsys, "edit", "--check", path)
    assert code == EXIT_CHECK
    assert [found for _, _, found in positions(lines, path)] == [
        "'turns' must be at most 1,000, not 1,001 (hint: turns = 12)"
    ]
