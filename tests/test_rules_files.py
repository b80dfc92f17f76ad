"""The rules tests: every file under tests/rules runs through the rules-test runner, one pytest case each.

The files are the specification in executable form (one or more per rule of the rulebook, see
docs/rules-coverage.md), so a broken rule shows up in `make test` with the file and the reason.

The rules-test format starts a position in a phase of a turn; it cannot start before deployment. The
set-up rules (map roll, coin flip, ends, deployment zones, the Assault objective) are therefore tested
at the bottom of this file by driving `Game.new` with scripted dice, in the same action notation.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from minis.army import Army
from minis.dice import Dice
from minis.game import Game
from minis.rules.errors import IllegalAction
from minis.sides import Side
from minis.state import Phase, Scenario

rulestest = pytest.importorskip("minis.rulestest", reason="the rules-test runner is not written yet")

RULES = Path(__file__).parent / "rules"
FILES = sorted(RULES.rglob("*.toml"))
#: The rulebook's own rules (abilities/, the special abilities, documents itself separately).
RULEBOOK_FILES = [p for p in FILES if p.relative_to(RULES).parts[0] != "abilities"]


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
    assert data.get("checks") or refused, "a file with no check and no refused step can't fail"


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


# --- set-up (rulebook: Getting Started; Standard and Assault scenarios) -------------------------------

AXIS = Army("Axis", "axis", units=("panzer-iv-ausf-g", "mauser-kar-98k", "mauser-kar-98k"))
ALLIES = Army("Allies", "allies", units=("m4a1-sherman", "smle-no-4-rifleman", "jeep"))


def _new(dice: list[int], **kwargs: object) -> Game:
    return Game.new(AXIS, ALLIES, dice=Dice.scripted(dice), **kwargs)  # type: ignore[arg-type]


def _refused(game: Game, action: str) -> None:
    before = game.state.snapshot()
    with pytest.raises(IllegalAction):
        game.apply(action)
    assert game.state.snapshot() == before


@pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
def test_map_roll_picks_the_configuration(die: int) -> None:
    """Roll a die and set up the map sections as that configuration (its objective comes with it)."""
    game = _new([die, 1])
    objectives = {1: "E9", 2: "E9", 3: "G9", 4: "H9", 5: "E9", 6: "D7"}
    assert game.state.configuration == die
    assert game.label(game.state.objective) == objectives[die]


@pytest.mark.parametrize(
    ("die", "winner"), [(1, Side.AXIS), (3, Side.AXIS), (4, Side.ALLIES), (6, Side.ALLIES)]
)
def test_coin_flip_winner_chooses_first_player(die: int, winner: Side) -> None:
    game = _new([die], configuration=1)
    assert game.decider() is winner
    game.apply("first allies" if winner is Side.AXIS else "first axis")
    assert game.state.first is winner.other
    assert game.decider() is winner.other  # the first player picks the end


def _deploying(first: str = "allies", end: str = "west") -> Game:
    game = _new([4], configuration=1)  # the Allies win the coin flip
    game.apply(f"first {first}")
    game.apply(f"end {end}")
    return game


def test_first_player_deploys_within_five_full_hexes_of_its_end() -> None:
    game = _deploying()
    assert game.decider() is Side.ALLIES
    game.apply("deploy smle-no-4-rifleman A5")
    _refused(game, "deploy m4a1-sherman A6")
    game.apply("deploy m4a1-sherman B5 face E")  # an indented row: its fifth full hex
    _refused(game, "deploy jeep B6")
    assert game.label(game.state.units["m4a1-sherman"].hex) == "B5"


def test_no_deployment_on_half_hexes() -> None:
    game = _deploying(end="east")
    _refused(game, "deploy smle-no-4-rifleman B16")
    _refused(game, "deploy smle-no-4-rifleman J16")
    game.apply("deploy smle-no-4-rifleman B15")


def test_no_deployment_where_the_unit_cannot_enter() -> None:
    """Configuration 1, east end: D13 and E13 are marsh, C13 and D12 pond."""
    game = _deploying(end="east")
    _refused(game, "deploy m4a1-sherman D13")  # Vehicles can't enter marsh
    _refused(game, "deploy smle-no-4-rifleman C13")  # nobody enters a pond
    game.apply("deploy smle-no-4-rifleman D13")  # Soldiers may deploy in marsh
    game.apply("deploy m4a1-sherman E12")  # difficult terrain (forest) is allowed


def test_deployment_respects_stacking() -> None:
    game = _deploying()
    game.apply("deploy m4a1-sherman A1")
    _refused(game, "deploy jeep A1")  # two friendly Vehicles


def test_second_player_deploys_at_the_other_end_then_turn_1_begins() -> None:
    game = _deploying(first="axis", end="west")  # the Allies won the flip and let the Axis go first
    assert game.decider() is Side.AXIS
    _refused(game, "ready")  # every unit must be deployed first
    for action in ("deploy panzer-iv-ausf-g A2", "deploy mauser-kar-98k A3", "deploy mauser-kar-98k#2 C3"):
        game.apply(action)
    game.apply("ready")
    assert game.decider() is Side.ALLIES
    _refused(game, "deploy smle-no-4-rifleman A5")  # the west end belongs to the Axis
    for action in ("deploy smle-no-4-rifleman A12", "deploy m4a1-sherman B11", "deploy jeep C16"):
        game.apply(action)
    game.apply("ready")
    assert game.state.turn == 1
    assert game.state.phase is Phase.INITIATIVE
    assert game.waiting_for_dice() or game.decider() is None
    game.push_dice([1, 1, 6, 6])
    assert game.decider() is Side.ALLIES


def test_start_the_game_with_a_soldier_mounted() -> None:
    """Glossary, transport: you can start the game with a Soldier already mounted on a transport."""
    game = _deploying()
    game.apply("deploy jeep C2")
    game.apply("deploy smle-no-4-rifleman C2")
    game.apply("board smle-no-4-rifleman jeep")
    assert game.state.units["smle-no-4-rifleman"].carried_by == "jeep"


def _assault(attacker: str = "axis") -> Game:
    return _new([], scenario=Scenario.ASSAULT, attacker=Side.parse(attacker))


def test_assault_defender_chooses_the_configuration() -> None:
    game = _assault("axis")
    assert game.decider() is Side.ALLIES
    _refused(game, "configuration 7")
    game.apply("configuration 3")
    assert game.state.configuration == 3


def test_assault_objective_not_next_to_the_edge_or_a_half_hex() -> None:
    game = _assault("axis")
    game.apply("configuration 1")
    for label in ("A5", "B1", "C1", "K8", "A16", "F15"):
        _refused(game, f"objective {label}")
    game.apply("objective C2")
    assert game.label(game.state.objective) == "C2"


def test_assault_defender_deploys_first_anywhere_on_its_half() -> None:
    game = _assault("axis")  # the Allies defend
    game.apply("configuration 1")
    game.apply("objective E7")
    assert game.decider() is Side.ALLIES
    game.apply("end east")
    game.apply("deploy smle-no-4-rifleman E9")  # deep in its half, far outside five hexes
    game.apply("deploy m4a1-sherman F9")  # the seam row F belongs to the sections of its half
    _refused(game, "deploy jeep E7")  # the west half
    game.apply("deploy jeep K9")
    game.apply("ready")
    assert game.decider() is Side.AXIS
    _refused(game, "deploy mauser-kar-98k A6")  # the attacker: within five hexes of its end
    game.apply("deploy mauser-kar-98k A5")
