"""Army validation: points per scenario, unit count, side, year and historical limits, each both ways."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from minis.army import (
    MAX_UNITS,
    Army,
    ArmyScenario,
    army_points,
    historical_problems,
    load_army,
    validate_army,
)
from minis.base.sides import Side
from minis.cards import Nation, StatCard, card_catalogue
from minis.content.ability_catalogue import ABILITIES

REPO = Path(__file__).resolve().parents[1]
SAMPLE_UNITS = (
    "m4a1-sherman",
    "6-pounder-anti-tank-gun",
    "red-devil-captain",
    "bazooka",
    "m1-garand-rifle",
    "vickers-machine-gun-team",
    "kv-1",
    "m3-stuart",
)


@pytest.fixture(scope="module")
def cards() -> dict[str, StatCard]:
    return card_catalogue()


def allies(*units: str, scenario: str = "standard", **options: object) -> Army:
    return Army("test", Side.ALLIES, scenario, units=units, **options)


def test_the_rulebook_sample_army_is_valid_at_exactly_100(cards: dict[str, StatCard]) -> None:
    army = load_army(REPO / "armies" / "sample-allies.toml")
    assert army.units == SAMPLE_UNITS
    assert army.side is Side.ALLIES and army.scenario is ArmyScenario.STANDARD
    assert army_points(army, cards) == 100
    assert validate_army(army, cards) == []


def test_the_sample_axis_army_is_valid_at_100_historical_and_1942(cards: dict[str, StatCard]) -> None:
    army = load_army(REPO / "armies" / "sample-axis.toml")
    assert army.side is Side.AXIS and army.historical and army.year == 1942
    assert army_points(army, cards) == 100
    assert validate_army(army, cards) == []


def test_standard_points_boundary(cards: dict[str, StatCard]) -> None:
    at_limit = allies(*SAMPLE_UNITS)
    over = allies(*[unit for unit in SAMPLE_UNITS if unit != "bazooka"], "bren-machine-gunner")
    assert army_points(at_limit, cards) == 100 and validate_army(at_limit, cards) == []
    assert army_points(over, cards) == 101
    assert validate_army(over, cards) == ["101 points, 1 over the 100-point limit"]


def test_the_issue_example_104_points(cards: dict[str, StatCard]) -> None:
    army = allies(*[unit for unit in SAMPLE_UNITS if unit != "bazooka"], "universal-carrier")
    assert validate_army(army, cards) == ["104 points, 4 over the 100-point limit"]


def test_assault_attacker_boundary(cards: dict[str, StatCard]) -> None:
    at_limit = allies(
        *SAMPLE_UNITS, "universal-carrier", "m3-half-track", "bazooka", scenario="assault-attacker"
    )
    over = allies(
        *SAMPLE_UNITS, "universal-carrier", "m3-half-track", "37mm-gun-m3", scenario="assault-attacker"
    )
    assert army_points(at_limit, cards) == 120 and validate_army(at_limit, cards) == []
    assert army_points(over, cards) == 121
    assert validate_army(over, cards) == ["121 points, 1 over the 120-point limit"]
    assert validate_army(attrs.evolve(at_limit, scenario=ArmyScenario.STANDARD), cards) == [
        "120 points, 20 over the 100-point limit"
    ]


def test_assault_defender_boundary(cards: dict[str, StatCard]) -> None:
    base = [unit for unit in SAMPLE_UNITS if unit != "kv-1"]
    at_limit = allies(*base, "vickers-machine-gun-team", "bazooka", scenario="assault-defender")
    over = allies(*base, "vickers-machine-gun-team", "37mm-gun-m3", scenario="assault-defender")
    assert army_points(at_limit, cards) == 80 and validate_army(at_limit, cards) == []
    assert army_points(over, cards) == 81
    assert validate_army(over, cards) == ["81 points, 1 over the 80-point limit"]
    assert validate_army(allies(*SAMPLE_UNITS, scenario="assault-defender"), cards) == [
        "100 points, 20 over the 80-point limit"
    ]


def test_unit_count_boundary(cards: dict[str, StatCard]) -> None:
    fifteen = allies(*["smle-no-4-rifleman"] * MAX_UNITS)
    sixteen = allies(*["smle-no-4-rifleman"] * (MAX_UNITS + 1))
    assert MAX_UNITS == 15
    assert validate_army(fifteen, cards) == []
    assert army_points(sixteen, cards) == 48
    assert validate_army(sixteen, cards) == ["16 units, 1 over the 15-unit limit"]


def test_an_army_needs_a_unit(cards: dict[str, StatCard]) -> None:
    assert validate_army(allies(), cards) == ["no units: an army needs at least one"]


def test_side_rule_both_ways(cards: dict[str, StatCard]) -> None:
    axis = Army("test", Side.AXIS, units=("tiger-i", "m4a1-sherman"))
    assert validate_army(axis, cards) == ["M4A1 Sherman is an Allied unit in an Axis army"]
    allied = allies("m4a1-sherman", "sd-kfz-222", "sd-kfz-222")
    assert validate_army(allied, cards) == ["Sd Kfz 222 is an Axis unit in an Allied army"]
    assert validate_army(Army("test", Side.AXIS, units=("tiger-i", "fucile-modello-1891")), cards) == []


def test_every_nation_is_on_its_rulebook_side(cards: dict[str, StatCard]) -> None:
    axis = {card.nation_name for card in cards.values() if card.side is Side.AXIS}
    allied = {card.nation_name for card in cards.values() if card.side is Side.ALLIES}
    assert {"Germany", "Italy", "Japan", "Hungary", "Romania", "Finland"} <= axis
    assert {"United States", "United Kingdom", "Soviet Union", "France", "Poland", "China"} <= allied
    assert axis.isdisjoint(allied)


def test_year_rule_both_ways(cards: dict[str, StatCard]) -> None:
    assert validate_army(allies("m4a1-sherman", year=1942), cards) == []
    assert validate_army(allies("m4a1-sherman", year=1941), cards) == [
        "M4A1 Sherman is from 1942, later than the army's year 1941"
    ]
    assert validate_army(allies("m4a1-sherman"), cards) == []  # no year: no limit


def test_historical_german_and_italian_together(cards: dict[str, StatCard]) -> None:
    army = Army(
        "test", Side.AXIS, units=("tiger-i", "fucile-modello-1891", "carro-armato-m13-40"), historical=True
    )
    assert validate_army(army, cards) == []


def test_historical_japanese_alone_only(cards: dict[str, StatCard]) -> None:
    alone = Army("test", Side.AXIS, units=("type-97-chi-ha", "arisaka-rifleman"), historical=True)
    assert validate_army(alone, cards) == []
    mixed = attrs.evolve(alone, units=("type-97-chi-ha", "tiger-i", "fucile-modello-1891"))
    assert validate_army(mixed, cards) == [
        "historical army limits: Japanese units can't be in an army with any other nationality "
        "(this army also has Germany and Italy)"
    ]
    assert validate_army(attrs.evolve(mixed, historical=False), cards) == []


def test_historical_soviet_alone_only(cards: dict[str, StatCard]) -> None:
    alone = allies("kv-1", "commissar", "mosin-nagant-1891-30", historical=True)
    assert validate_army(alone, cards) == []
    sample = allies(*SAMPLE_UNITS, historical=True)
    assert validate_army(sample, cards) == [
        "historical army limits: Soviet units can't be in an army with any other nationality "
        "(this army also has United Kingdom and United States)"
    ]


def test_historical_western_allies_together(cards: dict[str, StatCard]) -> None:
    army = allies("m4a1-sherman", "matilda-ii", "renault-r-35", historical=True)
    assert validate_army(army, cards) == []
    french_and_soviet = allies("renault-r-35", "t-34-76", historical=True)
    assert validate_army(french_and_soviet, cards) == [
        "historical army limits: Soviet units can't be in an army with any other nationality "
        "(this army also has France)"
    ]


def test_historical_limits_count_only_the_armys_side(cards: dict[str, StatCard]) -> None:
    army = Army("test", Side.AXIS, units=("tiger-i", "kv-1"), historical=True)
    assert validate_army(army, cards) == ["KV-1 is an Allied unit in an Axis army"]


def test_unknown_cards_are_reported_once_with_a_hint(cards: dict[str, StatCard]) -> None:
    army = allies("m4a1-shermann", "m4a1-shermann", "M4A1 Sherman", "zzzz")
    assert validate_army(army, cards) == [
        "unknown card 'm4a1-shermann' (did you mean 'm4a1-sherman'?)",
        "unknown card 'M4A1 Sherman' (did you mean 'm4a1-sherman'?)",
        "unknown card 'zzzz'",
    ]
    assert army_points(army, cards) == 0


def test_all_problems_are_listed_not_only_the_first(cards: dict[str, StatCard]) -> None:
    army = Army("test", Side.AXIS, units=("m4a1-sherman", "tigr-i", *["tiger-i"] * 15), year=1940)
    problems = validate_army(army, cards)
    assert problems == [
        "unknown card 'tigr-i' (did you mean 'tiger-i'?)",
        "M4A1 Sherman is an Allied unit in an Axis army",
        "M4A1 Sherman is from 1942, later than the army's year 1940",
        "Tiger I is from 1942, later than the army's year 1940",
        "861 points, 761 over the 100-point limit",
        "17 units, 2 over the 15-unit limit",
    ]


def test_historical_limits_as_data_cover_every_rulebook_line() -> None:
    assert historical_problems({Nation.GERMANY, Nation.ITALY}) == []
    assert historical_problems({Nation.UNITED_STATES, Nation.UNITED_KINGDOM, Nation.FRANCE}) == []
    assert historical_problems({Nation.SOVIET_UNION}) == [] and historical_problems({Nation.JAPAN}) == []
    assert historical_problems({Nation.GERMANY, Nation.FRANCE}) == [
        "historical army limits: units from Germany can't be in an army with units from France"
    ]
    assert len(historical_problems({Nation.JAPAN, Nation.SOVIET_UNION})) == 2


def test_a_card_that_waits_for_a_rule_system_is_refused_with_what_it_needs(
    cards: dict[str, StatCard], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every card plays since aircraft came (issue 19): an ability is made to wait again for the test.
    waiting = attrs.evolve(ABILITIES["antiair-support"], needs="aircraft")
    monkeypatch.setitem(ABILITIES, "antiair-support", waiting)
    army = Army("test", Side.AXIS, units=("tiger-i", "luftwaffe-infantrymen"))
    assert validate_army(army, cards) == ["Luftwaffe Infantrymen can't be played yet: it needs aircraft"]
    monkeypatch.undo()
    assert validate_army(army, cards) == []
    assert validate_army(Army("test", Side.AXIS, units=("tiger-i", "wespe")), cards) == []  # issue 16
    either = Army("test", Side.ALLIES, units=("pillbox",))
    assert validate_army(either, cards) == []  # obstacle cards play since the obstacle rules (issue 16)


def test_a_card_of_no_nation_serves_either_army(cards: dict[str, StatCard]) -> None:
    for side in Side:
        assert validate_army(Army("test", side, units=("headquarters",)), cards) == []


def test_historical_limits_for_the_later_sets_nations(cards: dict[str, StatCard]) -> None:
    axis = Army("test", Side.AXIS, units=("tiger-i", "romanian-infantry"), historical=True)
    assert validate_army(axis, cards) == []
    western = Army("test", Side.ALLIES, units=("m4a1-sherman", "owen-smg"), historical=True)
    assert validate_army(western, cards) == []
    polish = Army("test", Side.ALLIES, units=("m4a1-sherman", "7tp"), historical=True)
    assert any(
        "Polish units can't be in an army with any other nationality" in m
        for m in validate_army(polish, cards)
    )
