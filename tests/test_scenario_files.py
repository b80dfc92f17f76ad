"""Scenario files: the shipped ones, writing back byte for byte, every mistake as FILE:LINE:COL, zones."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minis.army import Army
from minis.base.errors import MinisError
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.cli import main
from minis.engine.scenario import (
    SCENARIOS_DIR,
    Condition,
    Force,
    dump_scenario,
    load_scenario,
    parse_scenario_doc,
    scenario_from_text,
    shipped_scenarios,
    zone_entries,
    zone_hexes,
)
from minis.mapfile import load_configuration

BREAKOUT_MAP = SCENARIOS_DIR / "maps" / "river-line.toml"


def problems_of(text: str, tmp_path: Path, name: str = "s.toml") -> list[str]:
    """Every problem of a scenario file with this text (written beside a copy of the Breakout map)."""
    (tmp_path / "river.toml").write_text(BREAKOUT_MAP.read_text())
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(MinisError) as raised:
        load_scenario(path)
    return [str(p).replace(f"{tmp_path}/", "") for p in raised.value.problems]


def check(*paths: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["edit", "--check", *paths])
    return code, out.getvalue(), err.getvalue()


# --- the shipped scenarios --------------------------------------------------------------------------
@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: p.name)
def test_shipped_scenarios_load_and_write_back_byte_for_byte(path: Path) -> None:
    scenario = load_scenario(path)
    text = path.read_text(encoding="utf-8")
    assert dump_scenario(scenario.doc) == text
    assert parse_scenario_doc(dump_scenario(scenario.doc), path.name) == scenario.doc
    assert scenario.doc.notes and scenario.doc.notes[0].startswith("# ")


def test_the_standard_scenario_is_the_rulebooks() -> None:
    standard = load_scenario("standard")
    doc = standard.doc
    assert (doc.title, doc.map, doc.objective, doc.turns) == ("Standard", "roll", "map", None)
    assert doc.forces == (("axis", Force(points=100, zone=5)), ("allies", Force(points=100, zone=5)))
    assert doc.victory == (Condition("objective", from_turn=7), Condition("points", from_turn=10))
    assert standard.board is None and not standard.is_attack and standard.fixed_ends() is None
    board = load_configuration(4)
    assert standard.zone(board, Side.AXIS, "west") == board.deployment_zone("west")


def test_the_assault_scenario_is_the_rulebooks() -> None:
    assault = load_scenario("assault")
    doc = assault.doc
    assert (doc.map, doc.objective) == ("choose", "choose")
    assert doc.forces == (
        ("attacker", Force(points=120, zone=5, side="either")),
        ("defender", Force(points=80, zone="half")),
    )
    assert doc.victory == (Condition("hold", turn=10, side="defender"),)
    assert assault.is_attack and assault.attacker_side is None
    assert assault.role_of(Side.ALLIES, attacker=Side.ALLIES) == "attacker"
    assert assault.side_of("defender", attacker=Side.ALLIES) is Side.AXIS
    board = load_configuration(2)
    assert assault.zone(board, Side.AXIS, "east", attacker=Side.ALLIES) == board.half_of_map("east")
    assert assault.zone(board, Side.ALLIES, "west", attacker=Side.ALLIES) == board.deployment_zone("west")


def test_breakout_plays_on_its_own_map_with_a_preset_gun() -> None:
    breakout = load_scenario(SCENARIOS_DIR / "breakout.toml")
    assert breakout.map_path == SCENARIOS_DIR / "maps" / "river-line.toml"
    board = breakout.board
    assert board is not None and len(board.hexes) == 158 and len(board.bridges) == 1
    assert breakout.fixed_ends() == {Side.AXIS: "east", Side.ALLIES: "west"}
    assert len(breakout.zone(board, Side.ALLIES, "west")) == 27
    (preset,) = breakout.preset_units(board)
    assert preset == ("bridge-gun", Side.AXIS, "pak-38-anti-tank-gun", board.parse("E11"), None)
    assert breakout.doc.victory == (Condition("exit", side="allies", units=3, by_turn=8),)


def test_minis_edit_check_accepts_the_shipped_files() -> None:
    paths = [str(p) for p in shipped_scenarios()] + [str(BREAKOUT_MAP)]
    code, out, err = check(*paths)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"OK {SCENARIOS_DIR / 'air-cover.toml'} (scenario: Air Cover, on roll)",
        f"OK {SCENARIOS_DIR / 'airborne-drop.toml'} (scenario: Airborne Drop, 171 hexes)",
        f"OK {SCENARIOS_DIR / 'assault.toml'} (scenario: Assault, on choose)",
        f"OK {SCENARIOS_DIR / 'bombardment.toml'} (scenario: Bombardment, 98 hexes)",
        f"OK {SCENARIOS_DIR / 'breakout.toml'} (scenario: Breakout, 158 hexes)",
        f"OK {SCENARIOS_DIR / 'river-crossing.toml'} (scenario: River Crossing, 140 hexes)",
        f"OK {SCENARIOS_DIR / 'standard.toml'} (scenario: Standard, on roll)",
        f"OK {BREAKOUT_MAP} (map: 158 hexes)",
    ]


# --- mistakes ------------------------------------------------------------------------------------
GOOD = """kind = "scenario"
title = "Crossing"
map = "river.toml"

[axis]
points = 100
end = "west"
zone = 3

[allies]
points = 100
zone = 3

[[victory]]
kind = "objective"
from_turn = 5
"""


def test_a_good_file_has_no_problems(tmp_path: Path) -> None:
    (tmp_path / "river.toml").write_text(BREAKOUT_MAP.read_text())
    (tmp_path / "s.toml").write_text(GOOD)
    scenario = load_scenario(tmp_path / "s.toml")
    assert scenario.fixed_ends() == {Side.AXIS: "west", Side.ALLIES: "east"}


def test_every_mistake_of_a_file_at_once_with_line_and_column(tmp_path: Path) -> None:
    text = """kind = "scenario"
title = "Bad"
map = "river.toml"
objectiv = "E9"
turns = "ten"

[axis]
points = "100"
zone = ["A1-A3", "B1-C3", "C1 C99"]
end = "north"
colour = "grey"

[allies]
points = 0
zone = "halve"

[[victory]]
kind = "objectve"
from_turn = 7

[[victory]]
kind = "exit"
side = "allied"

[[victory]]
kind = "points"
turn = 10
"""
    assert problems_of(text, tmp_path) == [
        "s.toml:4:1: unknown key 'objectiv' (hint: did you mean 'objective'?)",
        "s.toml:5:1: 'turns' must be a whole number, not the string 'ten' (hint: turns = 12)",
        "s.toml:8:1: 'axis.points' must be an integer, not the string '100'",
        "s.toml:9:19: the range B1-C3 spans two rows; a range stays in one row "
        "(hint: a label like B3, or a range in one row like B1-B5)",
        's.toml:10:1: unknown end \'north\' (hint: end = "west" or end = "east")',
        "s.toml:11:1: unknown key 'colour' in 'axis'",
        "s.toml:14:1: the points limit must be 1 or more, not 0",
        "s.toml:15:1: unknown zone 'halve' (hint: did you mean 'half'?)",
        "s.toml:18:1: unknown kind of victory 'objectve' (hint: did you mean 'objective'?)",
        "s.toml:21:1: an exit victory needs 'units' (how many must get off the map) or 'points', one of them "
        "(hint: units = 3)",
        "s.toml:23:1: unknown side 'allied' (hint: did you mean 'allies'?)",
        "s.toml:25:1: a victory of kind \"points\" needs 'from_turn' (hint: from_turn = ...)",
        "s.toml:27:1: 'turn' does not go with kind \"points\" (hint: it takes: from_turn)",
    ]


def test_mistakes_against_the_map_point_at_the_value(tmp_path: Path) -> None:
    text = """kind = "scenario"
title = "Bad map"
map = "river.toml"
objective = "Z3"

[axis]
points = 100
end = "west"
zone = [
    "A1-A5",
    "B1-B9",
    "C1 C99",
]

[allies]
points = 100
zone = 12

[[victory]]
kind = "hold"
turn = 10
side = "axis"

[[units]]
side = "allies"
card = "tiger-i"
at = "C9"

[[units]]
side = "axis"
card = "pak-38-anti-tank-gun"
at = "E11"
facing = "W"
"""
    assert problems_of(text, tmp_path) == [
        "s.toml:4:1: the objective: Z3 is off the map: rows run from A to I",
        "s.toml:12:9: zone of [axis]: C99 is off the map: row C runs from C1 to C18",
        "s.toml:17:1: the zones of [axis] and [allies] overlap: B6 B7 B8 B9 "
        "(hint: a hex belongs to one zone at most)",
        's.toml:24:1: Tiger I is a Vehicle: give its facing (hint: facing = "E")',
        "s.toml:26:1: Tiger I is an Axis unit, not an Allies one",
        "s.toml:27:1: Tiger I can't be in C9: marsh is impassable to it",
        "s.toml:33:1: PaK 38 Anti-Tank Gun is a Soldier: only Vehicles have a facing",
    ]


def test_a_broken_map_file_is_reported_with_its_own_lines(tmp_path: Path) -> None:
    (tmp_path / "river.toml").write_text(
        BREAKOUT_MAP.read_text().replace('objective = "E11"', 'objective = "E99"')
    )
    (tmp_path / "s.toml").write_text(GOOD)
    with pytest.raises(MinisError) as raised:
        load_scenario(tmp_path / "s.toml")
    assert [str(p).replace(f"{tmp_path}/", "") for p in raised.value.problems] == [
        "s.toml:3:1: the map file river.toml has 1 problem(s) (hint: run: minis map check river.toml)",
        "river.toml:25:14: the objective E99 is off this map (hint: row E runs from E1 to E18)",
    ]


SINGLE_MISTAKES = [
    ('map = "river.toml"', 'map = "nowhere.toml"', "s.toml:3:1: no map file 'nowhere.toml'"),
    ('kind = "scenario"', 'kind = "map"', "s.toml:1:1: this is a map file, not a scenario"),
    ('title = "Crossing"', "", "s.toml:1:1: missing 'title' (hint: add title = \"...\")"),
    ("[allies]", "[allied]", "s.toml:1:1: missing [allies]: the allies player's terms"),
    ('map = "river.toml"', "map = 9", "s.toml:3:1: there is no configuration 9 (1 to 6)"),
    ('map = "river.toml"', 'map = "3"', "s.toml:3:1: 'map' is the string '3' (hint: write the number"),
    ('map = "river.toml"', 'map = "choose"', 's.toml:3:1: map = "choose" means the defender chooses'),
    ("zone = 3\n\n[allies]", "zone = 30\n\n[allies]", "s.toml:8:1: a zone 30 hexes deep is deeper"),
    ("[[victory]]", "[[victor]]", "s.toml:1:1: missing [[victory]]: how the battle is won"),
    ("[allies]", '[allies]\nside = "axis"', "s.toml:11:1: 'side' goes only in [attacker]"),
    ("[allies]\npoints = 100", '[allies]\npoints = 100\nend = "west"', "s.toml:12:1: both players"),
]


@pytest.mark.parametrize(
    ("old", "new", "expected"), SINGLE_MISTAKES, ids=[m[2][10:40] for m in SINGLE_MISTAKES]
)
def test_single_mistakes(old: str, new: str, expected: str, tmp_path: Path) -> None:
    assert old in GOOD
    found = problems_of(GOOD.replace(old, new, 1), tmp_path)
    assert any(problem.startswith(expected) for problem in found), found


def test_unreadable_files_exit_with_code_2_and_mistakes_with_code_1(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text('kind = "scenario"\ntitle = "x\n')
    code, _, err = check(str(broken))
    assert code == 2 and err.startswith(f"{broken}:2:")
    code, _, err = check(str(tmp_path / "missing.toml"))
    assert code == 2 and "no such file" in err
    (tmp_path / "river.toml").write_text(BREAKOUT_MAP.read_text())
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace("points = 100\nend", "points = -5\nend"))
    code, out, err = check(str(bad))
    assert (code, out) == (1, "")
    assert err == f"{bad}:6:1: the points limit must be 1 or more, not -5\n"


# --- zones ---------------------------------------------------------------------------------------
def test_zones_by_depth_and_half_match_the_board() -> None:
    board = load_configuration(1)
    for end in ("west", "east"):
        assert zone_hexes(board, 5, end) == board.deployment_zone(end)
        assert zone_hexes(board, "half", end) == board.half_of_map(end)
        assert len(zone_hexes(board, 1, end)) == 11
    assert zone_hexes(board, ("A1-A3 B2", "K16"), "west") == {
        board.parse(x) for x in ("A1", "A2", "A3", "B2", "K16")
    }


@settings(max_examples=150, deadline=None)
@given(st.sets(st.integers(0, 170), max_size=40))
def test_zone_entries_name_exactly_the_hexes(indices: set[int]) -> None:
    board = load_configuration(3)
    hexes = frozenset(board.hexes[i] for i in indices)
    entries = zone_entries(board, hexes)
    assert len(entries) == len({h.r for h in hexes})  # one entry per row
    assert zone_hexes(board, entries, "west") == hexes


# --- armies ----------------------------------------------------------------------------------------
def test_armies_are_checked_against_the_scenarios_limits_with_the_army_rules() -> None:
    breakout = load_scenario(SCENARIOS_DIR / "breakout.toml")
    cards = card_catalogue()
    axis = Army(
        "Rearguard", Side.AXIS, units=("panzer-iv-ausf-g", "pak-40-anti-tank-gun", "mauser-kar-98k") * 2
    )
    assert breakout.army_problems(axis, cards) == ["74 points, 4 over the 70-point limit"]
    tiger = Army("Tigers", Side.AXIS, units=("tiger-i",))
    assert breakout.army_problems(tiger, cards) == []
    japanese = Army("Mixed", Side.AXIS, units=("mauser-kar-98k", "arisaka-rifleman"))
    assert breakout.army_problems(japanese, cards)[0].startswith("historical army limits:")
    allies = Army("Column", Side.ALLIES, units=("m18-hellcat",))
    assert breakout.army_problems(allies, cards) == []
    assert (
        breakout.army_problems(allies, cards, side=Side.AXIS)[0] == "this is an Allies army, not an Axis one"
    )
    standard = load_scenario("standard")
    big = Army("Big", Side.ALLIES, units=("m1-garand-rifle",) * 16)
    assert standard.army_problems(big, cards) == ["16 units, 1 over the 15-unit limit"]


def test_a_scenario_checked_against_a_map_in_memory() -> None:
    text = GOOD.replace('map = "river.toml"', 'map = "not-saved-yet.toml"')
    board = load_configuration(2)
    scenario = scenario_from_text(text, "s.toml", board=board)
    assert scenario.board is board
