"""The rules tests: every file under tests/rules runs through the rules-test runner, one pytest case each.

The files are the specification in executable form (one or more per rule of the rulebook, see
docs/rules-coverage.md), so a broken rule shows up in `make test` with the file and the reason.

The set-up rules (map roll, coin flip, ends, deployment zones, the Assault objective) are files too,
under tests/rules/set-up/: they start before turn 1 (`[start] phase = "setup"`).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

rulestest = pytest.importorskip("minis.rulestest", reason="the rules-test runner is not written yet")

RULES = Path(__file__).parent / "rules"
FILES = sorted(RULES.rglob("*.toml"))
#: The rulebook's own rules (abilities/ and aircraft-abilities/, the special abilities, document
#: themselves separately: docs/abilities.md).
ABILITY_FOLDERS = ("abilities", "aircraft-abilities")
RULEBOOK_FILES = [p for p in FILES if p.relative_to(RULES).parts[0] not in ABILITY_FOLDERS]


def _name(path: Path) -> str:
    return path.relative_to(RULES).as_posix()


@pytest.mark.parametrize("path", FILES, ids=_name)
def test_rules_file(path: Path) -> None:
    outcome = rulestest.run_file(path)
    problems = "\n".join(str(p) for p in outcome.problems)
    assert outcome.passed, f"{_name(path)}: {outcome.reason}\n{problems}"


def test_every_rulebook_section_has_files() -> None:
    """A folder per rulebook section; an empty one means a section lost its tests."""
    folders = {p.parent.name for p in RULEBOOK_FILES}
    expected = {
        "getting-started",
        "sequence-of-play",
        "initiative",
        "movement",
        "stacking",
        "facing",
        "attack",
        "line-of-sight",
        "attack-effects",
        "defensive-fire",
        "casualty-phase",
        "terrain",
        "roads",
        "cover",
        "transport",
        "victory",
        "scenarios",
        "set-up",
    }
    assert expected <= folders, f"no rules tests in: {sorted(expected - folders)}"


@pytest.mark.parametrize("path", RULEBOOK_FILES, ids=_name)
def test_rules_file_is_documented_and_can_fail(path: Path) -> None:
    """Every file names its rule and its rulebook section and checks something (so it can fail)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data.get("title"), "a rules test needs a title"
    assert "rulebook" in data.get("source", ""), "the source should name the rulebook section"
    steps = data.get("steps", [])
    refused = any(step.get("expect") == "illegal" for step in steps)
    checked = data.get("checks") or any(step.get("checks") for step in steps)
    assert checked or refused, "a file with no check and no refused step can't fail"


def test_every_file_is_listed_in_the_coverage_matrix() -> None:
    matrix = (Path(__file__).parent.parent / "docs" / "rules-coverage.md").read_text(encoding="utf-8")
    missing = [_name(p) for p in RULEBOOK_FILES if _name(p) not in matrix]
    assert not missing, f"not in docs/rules-coverage.md: {missing}"


# --- the runner really fails -------------------------------------------------------------------------

_BASE = '''
title = "probe"
source = "rulebook: probe"
board = """
C C C C C
 C C C C
"""

[[units]]
id = "sherman"
card = "m4a1-sherman"
side = "allies"
at = "A1"
facing = "E"

[start]
turn = 1
phase = "movement"
first = "allies"
active = "allies"
'''


@pytest.mark.parametrize(
    ("tail", "reason"),
    [
        ('[[steps]]\naction = "move sherman A2"\n[[checks]]\nunit = "sherman"\nat = "A3"\n', "expected A3"),
        ('[[steps]]\naction = "move sherman A2"\ndice = [4]\n', "unused"),
        ('[[steps]]\naction = "move sherman A2"\nexpect = "illegal"\n', "refused"),
        ('[[steps]]\naction = "move sherman A2 A3 A4 A5 A6"\n', "refused"),
    ],
    ids=["wrong-check", "unused-dice", "accepted-illegal", "refused-legal"],
)
def test_a_wrong_expectation_fails(tmp_path: Path, tail: str, reason: str) -> None:
    path = tmp_path / "probe.toml"
    path.write_text(_BASE + tail, encoding="utf-8")
    outcome = rulestest.run_file(path)
    assert not outcome.passed
    assert reason in outcome.reason
