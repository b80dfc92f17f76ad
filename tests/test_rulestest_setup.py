"""The rules-test runner's extensions: tests that start at set-up, and checks carried by a step.

The set-up rules themselves are rules-test files under tests/rules/set-up/; these tests are about the
runner: that a step's own checks are checked where they stand (and fail with a message naming the step
and the check), that a refusal for the wrong reason fails, and that a malformed set-up test is reported
as FILE:LINE:COL with exit code 2, never a traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minis.base.errors import EXIT_UNREADABLE, MinisError
from minis.base.tomlfile import TomlLayout, parse_toml
from minis.cli import main
from minis.rulestest import load_rules_test, parse_rules_test, run_file, run_rules_test

SETUP = """title = "probe"
source = "rulebook: probe"
configuration = 1

[armies]
axis = ["mauser-kar-98k"]
allies = ["smle-no-4-rifleman", "m4a1-sherman"]

[start]
phase = "setup"

[[steps]]
dice = [4]

[[steps.checks]]
decider = "allies"

[[steps]]
action = "first allies"

[[steps]]
action = "end west"
"""

POSITION = '''title = "probe"
source = "rulebook: probe"
board = """
C C C C C
 C C C C
"""

[[units]]
id = "rifle"
card = "smle-no-4-rifleman"
side = "allies"
at = "A1"

[start]
turn = 1
phase = "movement"
first = "allies"
active = "allies"

[[steps]]
action = "move rifle A2"

[[steps.checks]]
unit = "rifle"
at = "A2"

[[steps]]
action = "move rifle A3"
expect = "illegal"
'''


def _write(tmp_path: Path, text: str, name: str = "probe.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _problems(tmp_path: Path, text: str) -> list[str]:
    """The problems of a file that can't be read, as printed: `FILE:LINE:COL: message`."""
    path = _write(tmp_path, text)
    with pytest.raises(MinisError) as caught:
        load_rules_test(path)
    assert caught.value.exit_code == EXIT_UNREADABLE
    return [str(p).removeprefix(f"{path}:") for p in caught.value.problems]


# --- a test that starts at set-up --------------------------------------------------------------------


def test_a_set_up_test_plays_from_the_coin_flip_to_deployment(tmp_path: Path) -> None:
    text = (
        SETUP + '[[steps]]\naction = "deploy m4a1-sherman B5"\n[[checks]]\nunit = "m4a1-sherman"\nat = "B5"\n'
    )
    outcome = run_file(_write(tmp_path, text))
    assert outcome.passed, outcome.reason


def test_a_set_up_test_starts_with_the_map_roll_unless_a_configuration_is_given(tmp_path: Path) -> None:
    rolled = SETUP.replace("configuration = 1\n", "").replace("dice = [4]", "dice = [5, 4]")
    rolled += '[[checks]]\nconfiguration = 5\nobjective = "E9"\n'
    outcome = run_file(_write(tmp_path, rolled))
    assert outcome.passed, outcome.reason
    outcome = run_file(_write(tmp_path, SETUP.replace("dice = [4]", "dice = [5, 4]")))
    assert not outcome.passed
    assert outcome.reason == "step 1 (line 12): dice left unused: [4]"


@settings(max_examples=15, deadline=None)
@given(roll=st.integers(1, 6), claimed=st.integers(1, 6))
def test_the_configuration_check_passes_only_for_the_rolled_map(roll: int, claimed: int) -> None:
    text = SETUP.replace("configuration = 1\n", "").replace("dice = [4]", f"dice = [{roll}, 4]")
    text += f"[[checks]]\nconfiguration = {claimed}\n"
    reason = run_rules_test(parse_rules_test(parse_toml(text, "probe.toml")))
    if roll == claimed:
        assert reason is None
    else:
        assert reason == f"check at line 22: the battle map is configuration {roll}, expected {claimed}"


def test_an_assault_set_up_test_waits_for_the_defenders_choices(tmp_path: Path) -> None:
    text = (
        SETUP.replace("configuration = 1\n", 'scenario = "assault"\nattacker = "axis"\n')
        .replace("dice = [4]", "")
        .replace('action = "first allies"', 'action = "configuration 2"')
        .replace('action = "end west"', 'action = "objective C2"')
    )
    text += '[[checks]]\nconfiguration = 2\nobjective = "C2"\ndecider = "allies"\n'
    outcome = run_file(_write(tmp_path, text))
    assert outcome.passed, outcome.reason


def test_ends_and_objective_checks_say_what_is_wrong(tmp_path: Path) -> None:
    text = SETUP + '[[checks]]\nends = { allies = "east" }\n'
    outcome = run_file(_write(tmp_path, text))
    assert outcome.reason == "check at line 23: the Allies end is west, expected east"
    text = SETUP + '[[checks]]\nobjective = "E8"\n'
    outcome = run_file(_write(tmp_path, text))
    assert outcome.reason == "check at line 23: the objective is E9, expected E8"


# --- a step's own checks -----------------------------------------------------------------------------


def test_a_steps_checks_are_checked_right_after_it(tmp_path: Path) -> None:
    """In the middle of the test the rifle is in A2; at the end, after a second move, in A3."""
    text = POSITION.replace('action = "move rifle A3"\nexpect = "illegal"', 'action = "pass"')
    outcome = run_file(_write(tmp_path, text))
    assert outcome.passed, outcome.reason
    wrong = text.replace('unit = "rifle"\nat = "A2"', 'unit = "rifle"\nat = "A1"')
    outcome = run_file(_write(tmp_path, wrong))
    assert not outcome.passed
    assert outcome.reason == "step 1 (line 20), its check at line 23: rifle is in A2, expected A1"


def test_a_steps_checks_follow_an_expected_refusal(tmp_path: Path) -> None:
    text = POSITION + '[[steps.checks]]\nunit = "rifle"\nat = "A3"\n'
    outcome = run_file(_write(tmp_path, text))
    assert outcome.reason == "step 2 (line 27), its check at line 30: rifle is in A2, expected A3"


def test_a_step_with_only_checks_checks_the_state_there(tmp_path: Path) -> None:
    text = SETUP.replace(
        "[[steps]]\ndice = [4]\n", '[[steps]]\n[[steps.checks]]\ndecider = "axis"\n[[steps]]\ndice = [4]\n', 1
    )
    outcome = run_file(_write(tmp_path, text))
    assert outcome.reason == "step 1 (line 12), its check at line 13: the game waits for none, expected axis"


def test_a_refusal_for_another_reason_fails(tmp_path: Path) -> None:
    outcome = run_file(_write(tmp_path, POSITION + 'reason = "stacking limit"\n'))
    assert not outcome.passed
    assert outcome.reason.startswith(
        "step 2 (line 27): 'move rifle A3' was refused, but for another reason: "
    )
    assert outcome.reason.endswith("(expected: stacking limit)")


# --- malformed set-up tests: FILE:LINE:COL -----------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (('"m4a1-sherman"]', '"m4a1-shermann"]'), "7:34: unknown card 'm4a1-shermann'"),
        (("configuration = 1", "configuration = 9"), "3:1: 'configuration' must be a number from 1 to 6"),
        (('phase = "setup"', 'phase = "setup"\nturn = 1'), "11:1: a set-up test starts before turn 1"),
        (("[armies]", 'board = "C C"\n[armies]'), "5:1: a set-up test has no 'board'"),
        (("decider", "decidr"), "16:1: unknown key 'decidr' in [[steps.checks]]"),
        (
            ('action = "end west"', 'action = "end west"\nreason = "x"'),
            "23:1: 'reason' is why a step is refused",
        ),
        (("[armies]", "[armys]"), "10:1: a set-up test needs the armies"),
        (('allies = ["smle', 'alies = ["smle'), "7:1: unknown key 'alies' in [armies]"),
    ],
    ids=["card", "configuration", "start-turn", "board", "step-check-key", "reason", "no-armies", "side"],
)
def test_a_malformed_set_up_test_names_the_line_and_column(
    tmp_path: Path, change: tuple[str, str], expected: str
) -> None:
    problems = _problems(tmp_path, SETUP.replace(*change))
    assert any(p.startswith(expected) for p in problems), problems


def test_armies_without_a_set_up_start_are_refused(tmp_path: Path) -> None:
    text = POSITION.replace("[start]", "[armies]\naxis = []\nallies = []\n\n[start]")
    problems = _problems(tmp_path, text)
    assert problems == ['14:1: [armies] go with a test that starts at set-up (hint: [start] phase = "setup")']


def test_the_command_reports_a_malformed_set_up_test_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, SETUP.replace('"mauser-kar-98k"]', '"mauser-kar-98"]'))
    assert main(["rules-test", str(path)]) == EXIT_UNREADABLE
    captured = capsys.readouterr()
    assert f"{path}:6:10: unknown card 'mauser-kar-98'" in captured.err
    assert "Traceback" not in captured.err
    assert captured.out.splitlines()[-1] == "0 passed, 1 failed"


def test_a_steps_checks_are_located_in_their_own_step() -> None:
    """`[[steps.checks]]` belongs to the latest `[[steps]]` (TOML), so its problems point at it."""
    layout = TomlLayout.scan("[[steps]]\n[[steps.checks]]\na = 1\n[[steps]]\n[[steps.checks]]\nb = 2\n")
    assert layout.key(("steps", 1, "checks", 0, "b")) == (6, 1)
    assert layout.key(("steps", 0, "checks", 0, "a")) == (3, 1)
