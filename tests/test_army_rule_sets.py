"""Army building under every rule set (issue 20): each option read from the set, in both states.

Each option has a test of the rule as in 2005 and as changed, so that a check that ignored the option
would fail one of them: the unit count, the points levels, the obstacle cap, the nationality tables
and whether they bind every army, the single-nation bonus, the Hero cap. Then the files (`rules` in an
army file, `dump_army`), `minis army check --rules`, the scenario check and the sample armies' claims.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from minis.army import (
    Army,
    army_limit,
    dump_army,
    load_army,
    locate,
    parse_army,
    rule_problems,
    validate_army,
)
from minis.base.data import shipped_folder
from minis.base.errors import MinisError
from minis.base.sides import Side
from minis.cards import Nation, StatCard, card_catalogue
from minis.cli import main
from minis.content import nationalities
from minis.content.rule_sets import NAMED, RULEBOOK, RuleSet, with_options
from minis.engine.scenario import scenario_from_text

R2005, R2008, R2009, R2010 = (NAMED[name] for name in ("2005", "2008", "2009", "2010"))


@pytest.fixture(scope="module")
def cards() -> dict[str, StatCard]:
    return card_catalogue()


def allies(*units: str, **fields: object) -> Army:
    return Army("test", Side.ALLIES, units=units, **fields)  # type: ignore[arg-type]


def axis(*units: str, **fields: object) -> Army:
    return Army("test", Side.AXIS, units=units, **fields)  # type: ignore[arg-type]


def problems(army: Army, cards: dict[str, StatCard], rules: RuleSet, **limits: int) -> list[str]:
    return validate_army(army, cards, rules=rules, **limits)  # type: ignore[arg-type]


# --- max_units -----------------------------------------------------------------------------------------


def test_sixteen_units_break_the_2005_limit_and_no_later_one(cards: dict[str, StatCard]) -> None:
    sixteen = allies(*["smle-no-4-rifleman"] * 16)  # 16 x 4 = 64 points
    assert problems(sixteen, cards, R2005) == ["16 units, 1 over the 15-unit limit"]
    for rules in (R2008, R2009, R2010):
        assert problems(sixteen, cards, rules) == []


def test_a_custom_unit_limit_over_a_later_set(cards: dict[str, StatCard]) -> None:
    rules = with_options(R2010, {"max_units": 12})
    assert problems(allies(*["smle-no-4-rifleman"] * 13), cards, rules) == [
        "13 units, 1 over the 12-unit limit"
    ]


SCENARIO = """kind = "scenario"
title = "Limits"
map = 1
{rules}
[axis]
points = 100
{units}
[allies]
points = 100

[[victory]]
kind = "points"
from_turn = 6
"""


def _scenario(rules: str = "", units: str = "") -> object:
    return scenario_from_text(SCENARIO.format(rules=rules, units=units), "limits.toml")


def test_a_scenario_without_its_own_unit_limit_follows_the_set(cards: dict[str, StatCard]) -> None:
    army = axis(*["mauser-kar-98k"] * 16)
    assert "16 units, 1 over the 15-unit limit" in _scenario().army_problems(army, cards)  # type: ignore[attr-defined]
    assert _scenario('rules = "2010"').army_problems(army, cards) == []  # type: ignore[attr-defined]


def test_a_scenarios_own_unit_limit_wins_under_every_set(cards: dict[str, StatCard]) -> None:
    army = axis(*["mauser-kar-98k"] * 11)
    for rules in ("", 'rules = "2010"'):
        found = _scenario(rules, "units = 10").army_problems(army, cards)  # type: ignore[attr-defined]
        assert "11 units, 1 over the 10-unit limit" in found


# --- point_levels ---------------------------------------------------------------------------------------


def test_the_usual_army_size_is_the_sets_first_level() -> None:
    army = allies("bazooka")
    assert army_limit(army, R2005) == 100
    assert army_limit(army, R2010) == 200
    assert army_limit(allies("bazooka", points=400), R2010) == 400
    assert army_limit(allies("bazooka", scenario="assault-attacker"), R2010) == 120


def test_a_150_point_army_fits_2010s_usual_size_not_2005s(cards: dict[str, StatCard]) -> None:
    army = allies(*["m4a1-sherman"] * 7)  # 147 points
    assert problems(army, cards, R2005) == ["147 points, 47 over the 100-point limit"]
    assert problems(army, cards, R2010) == []


def test_a_points_level_the_set_does_not_have_is_refused_at_the_points_key(
    cards: dict[str, StatCard],
) -> None:
    text = 'name = "Big"\nside = "allies"\npoints = 200\nunits = ["bazooka"]\n'
    army = parse_army(text, "big.toml")
    [problem] = locate(army, rule_problems(army, cards, rules=R2005))
    assert (problem.line, problem.col) == (3, 1)
    assert (
        problem.message
        == "a 200-point army is not played under the rule set 2005 (Standard armies of 100 points)"
    )
    assert locate(army, rule_problems(army, cards, rules=R2008)) == []
    odd = parse_army(text.replace("200", "150"), "odd.toml")
    [problem] = locate(odd, rule_problems(odd, cards, rules=R2010))
    assert "(Standard armies of 100, 200 or 400 points)" in problem.message


def test_points_are_for_a_standard_army_only(cards: dict[str, StatCard]) -> None:
    army = allies("bazooka", scenario="assault-defender", points=200)
    assert problems(army, cards, R2010) == [
        "'points' is for a Standard battle's army; this assault-defender army has the scenario's 80 points"
    ]


# --- obstacle_percent -----------------------------------------------------------------------------------

OBSTACLES = ("pillbox",) * 6  # 12 points of obstacles


def test_obstacles_are_capped_at_a_tenth_unless_the_set_has_no_cap(cards: dict[str, StatCard]) -> None:
    army = allies("bazooka", *OBSTACLES, points=100)
    cap = "obstacles cost 12 points, more than a tenth of the 100-point limit (10 points)"
    for rules in (R2005, R2008, R2009, R2010):
        assert problems(army, cards, rules) == [cap]
    assert problems(army, cards, with_options(R2010, {"obstacle_percent": "any"})) == []
    assert problems(army, cards, with_options(R2010, {"obstacle_percent": 5})) == [
        "obstacles cost 12 points, more than 5% of the 100-point limit (5 points)"
    ]


def test_the_obstacle_cap_grows_with_the_army_size(cards: dict[str, StatCard]) -> None:
    assert problems(allies("bazooka", *OBSTACLES), cards, R2010) == []  # 200 points: 20 of obstacles


# --- nationality_table and nationality_required ---------------------------------------------------------

MIXED = ("m4a1-sherman", "smle-no-4-rifleman", "t-34-76")  # American, British, Soviet


def test_the_2008_and_2009_limits_bind_every_army(cards: dict[str, StatCard]) -> None:
    army = allies(*MIXED)
    assert problems(army, cards, R2005) == []
    assert problems(army, cards, R2010) == []
    for rules in (R2008, R2009):
        assert problems(army, cards, rules) == [
            "historical army limits: Soviet units can't be in an army with units from "
            "United Kingdom or United States"
        ]
    assert problems(army, cards, with_options(R2008, {"nationality_required": False})) == []
    assert problems(army, cards, with_options(R2005, {"nationality_required": True})) != []


def test_the_2010_limits_bind_an_army_that_asks_for_them(cards: dict[str, StatCard]) -> None:
    assert problems(allies(*MIXED, historical=True), cards, R2010) != []


@pytest.mark.parametrize(
    ("units", "legal"),
    [
        # Greece with the UK and Australia: not in 2008 (Greece with the UK alone)
        (("greek-soldier", "smle-no-4-rifleman", "owen-smg"), {"2005", "2010"}),
        (("greek-soldier", "smle-no-4-rifleman"), {"2005", "2008", "2010"}),
        # China with the US and the UK from 2008 on; alone in 2005
        (("kuomintang-rifleman", "bazooka", "smle-no-4-rifleman"), {"2008", "2010"}),
        # Free Poland (cards from 1940 on) with the Western Allies; the 1939 Poles alone
        (("determined-infantryman", "bazooka"), {"2008", "2010"}),
        (("polish-mauser-kar-98", "bazooka"), set()),
        # Free France (cards from 1941 on) with the Americans; France of 1940 with Belgium and the UK
        (("free-french-infantryman", "bazooka"), {"2005", "2008", "2010"}),
        (("char-b1-bis", "bazooka"), {"2005"}),
        (("char-b1-bis", "belgian-infantry", "smle-no-4-rifleman"), {"2005", "2008", "2010"}),
        # New Zealand: with the Western Allies in our 2005 table, unlisted (alone) in the updates'
        (("new-zealand-infantry", "smle-no-4-rifleman"), {"2005"}),
        (("new-zealand-infantry", "new-zealand-commander"), {"2005", "2008", "2010"}),
    ],
)
def test_each_table_admits_its_own_groups(
    cards: dict[str, StatCard], units: tuple[str, ...], legal: set[str]
) -> None:
    for table in ("2005", "2008", "2010"):
        rules = with_options(RULEBOOK, {"nationality_table": table})
        found = problems(allies(*units, historical=True), cards, rules)
        assert (found == []) == (table in legal), (table, found)


def test_finland_joins_the_german_group_in_2005_and_2010_not_2008(cards: dict[str, StatCard]) -> None:
    army = axis("finnish-infantry", "mauser-kar-98k")
    assert problems(army, cards, R2005) == []  # not historical: 2005 doesn't ask
    assert problems(axis("finnish-infantry", "mauser-kar-98k", historical=True), cards, R2005) == []
    assert problems(army, cards, R2008) == [
        "historical army limits: Finnish units can't be in an army with units from Germany"
    ]
    assert problems(axis("finnish-infantry", "mauser-kar-98k", historical=True), cards, R2010) == []


def test_a_unit_too_early_for_its_free_group_says_so(cards: dict[str, StatCard]) -> None:
    army = allies("polish-mauser-kar-98", "determined-infantryman", "bazooka", "bazooka")
    found = rule_problems(army, cards, rules=R2008)
    assert [(p.where, p.message) for p in found] == [
        (
            ("units", 0),
            "historical army limits: Polish Mauser Kar 98 is from 1939; only Polish units from 1940 on "
            "may be in an army with units from United States",
        )
    ]


def test_the_tables_place_every_nation() -> None:
    for table in nationalities.TABLES.values():
        placed = set().union(*(group.nations for group in table.groups))
        assert placed == set(Nation)
    assert nationalities.TABLE_2005.disjoint and not nationalities.TABLE_2008.disjoint


# --- single_nation_points -------------------------------------------------------------------------------

FINNS = ("stug-iii-ausf-g-finland",) * 5 + ("finnish-mg-team",)  # 104 points
GREEKS = ("greek-officer",) * 11 + ("greek-cavalry",)  # 103 points


def test_a_finnish_or_greek_army_may_spend_110_of_100_points_in_2010(cards: dict[str, StatCard]) -> None:
    for units, side in ((FINNS, Side.AXIS), (GREEKS, Side.ALLIES)):
        army = Army("one nation", side, units=units, points=100)
        assert problems(army, cards, R2010) == []
        assert problems(army, cards, R2005) == [
            f"{103 if units == GREEKS else 104} points, "
            f"{3 if units == GREEKS else 4} over the 100-point limit"
        ]
    over = axis(*FINNS, "finnish-officer", "finnish-infantry", points=100)  # 113 points
    assert problems(over, cards, R2010) == [
        "113 points, 3 over the 110-point limit of an army of Finnish units only"
    ]


def test_the_bonus_is_for_one_nation_only(cards: dict[str, StatCard]) -> None:
    mixed = axis(*FINNS[:-1], "mauser-kar-98k", "mauser-kar-98k", "mauser-kar-98k", points=100)  # 95 + 9
    assert problems(mixed, cards, R2010) == ["104 points, 4 over the 100-point limit"]
    assert problems(axis(*FINNS, "pillbox", points=100), cards, R2010) == []  # a card of no nation


def test_the_bonus_is_the_same_share_at_other_limits(cards: dict[str, StatCard]) -> None:
    army = axis(*FINNS * 2, points=200)  # 208 points of 220
    assert problems(army, cards, R2010) == []
    assert problems(axis(*FINNS, "finnish-officer"), cards, R2010, points_limit=80) == [
        "110 points, 22 over the 88-point limit of an army of Finnish units only"
    ]


# --- hero_cap --------------------------------------------------------------------------------------------


def test_two_heroes_in_a_200_point_army_only_in_2010(cards: dict[str, StatCard]) -> None:
    army = allies("inspiring-hero", "resourceful-hero", points=200)
    assert problems(army, cards, R2010) == []
    assert problems(army, cards, R2008) == [
        "Resourceful Hero is one Hero too many: a 200-point army may have 1 Hero "
        "(one per army, one per 500 points in larger games)"
    ]
    assert problems(army, cards, with_options(R2008, {"hero_cap": "per-100-points"})) == []


# --- files and the command ------------------------------------------------------------------------------


def test_an_army_file_names_its_set_and_is_checked_under_it(cards: dict[str, StatCard]) -> None:
    text = 'name = "Many"\nside = "allies"\nrules = "2010"\nunits = [' + '"bazooka", ' * 16 + "]\n"
    army = parse_army(text, "many.toml")
    assert army.rules == R2010
    assert validate_army(army, cards) == []
    assert validate_army(army, cards, rules=RULEBOOK) == ["16 units, 1 over the 15-unit limit"]


def test_an_unknown_set_in_an_army_file_is_reported_at_its_place() -> None:
    text = 'name = "x"\nside = "axis"\nrules = "2007"\nunits = ["mauser-kar-98k"]\n'
    with pytest.raises(MinisError) as error:
        parse_army(text, "bad.toml")
    [problem] = error.value.problems
    assert (problem.file, problem.line, problem.col) == ("bad.toml", 3, 1)
    assert "2005, 2008, 2009, 2010" in problem.message


@pytest.mark.parametrize(
    "rules",
    [RULEBOOK, R2009, with_options(R2010, {"max_units": 20, "single_nation_points": {"Poland": 120}})],
)
def test_dump_army_writes_the_set_back(rules: RuleSet) -> None:
    army = Army("x", Side.AXIS, units=("mauser-kar-98k",), points=400, year=1942, rules=rules)
    text = dump_army(army)
    assert ("rules" in text) == (rules != RULEBOOK)
    assert parse_army(text) == army


def test_army_check_takes_a_rule_set_over_the_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "many.toml"
    path.write_text('name = "Many"\nside = "allies"\nunits = [' + '"bazooka", ' * 16 + "]\n")
    assert main(["army", "check", str(path)]) == 1
    assert "16 units, 1 over the 15-unit limit" in capsys.readouterr().err
    assert main(["army", "check", "--rules", "2010", str(path)]) == 0
    assert "up to 200 points, rules 2010" in capsys.readouterr().out
    path.write_text(path.read_text().replace('side = "allies"', 'side = "allies"\nrules = "2010"'))
    assert main(["army", "check", str(path)]) == 0
    assert main(["army", "check", "--rules", "2005", str(path)]) == 1


def test_army_check_refuses_an_unknown_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["army", "check", "--rules", "2011", str(shipped_folder("armies") / "sample-axis.toml")]) == 2
    assert "unknown rule set '2011' (the rule sets: 2005, 2008, 2009, 2010)" in capsys.readouterr().err


# --- the sample armies ----------------------------------------------------------------------------------

CLAIM = re.compile(r"^# legal under the rule sets: ([0-9, ]+)", re.MULTILINE)


@pytest.mark.parametrize("path", sorted(shipped_folder("armies").glob("*.toml")), ids=lambda p: p.stem)
def test_each_sample_army_is_legal_under_the_sets_it_claims(path: Path, cards: dict[str, StatCard]) -> None:
    match = CLAIM.search(path.read_text())
    assert match, f"{path.name} says no rule sets"
    claimed = {name.strip() for name in match.group(1).split(",") if name.strip()}
    army = load_army(path)
    for name, rules in NAMED.items():
        assert (validate_army(army, cards, rules=rules) == []) == (name in claimed), (path.name, name)


# --- the army builder (a headless window, driven by clicks) ---------------------------------------------


def _builder(driver: Any, rules: RuleSet, scenario: str = "standard") -> Any:
    from minis.army import ArmyScenario
    from minis.ui.armybuilder import ArmyBuilder

    driver.window.stack.clear()
    screen = ArmyBuilder(driver.window, Side.ALLIES, ArmyScenario(scenario), lambda army: None, rules=rules)
    driver.window.open(screen)
    driver.frame()
    return screen


def test_the_builder_checks_by_its_set_and_names_it(driver: Any) -> None:
    builder = _builder(driver, R2010)
    assert "Rules: 2010" in builder._title.text
    assert builder.sized and builder.army_size in builder.widgets
    for _ in range(16):
        builder.add("bazooka")
    assert builder.verdict == ["The army is legal."]
    assert builder.totals.text.startswith("64 / 200 points · 16 units")
    driver.click_box(builder.army_size.box)  # the next size: 100 points
    assert builder.army.points == 100 and builder.limit == 100
    assert 'rules = "2010"' in dump_army(builder.army) and "points = 100" in dump_army(builder.army)
    old = _builder(driver, RULEBOOK)
    assert "Rules: 2005" in old._title.text and not old.sized
    for _ in range(16):
        old.add("bazooka")
    assert old.verdict == ["16 units, 1 over the 15-unit limit"]
    assert old.totals.text.startswith("64 / 100 points · 16 / 15 units")
    assert not _builder(driver, R2010, "assault-defender").sized
