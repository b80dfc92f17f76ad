"""The Hero cap (army building), reported at each Hero beyond the cap: under the 2005 set one Hero per
army (one per 500 points in very large games), under the 2010 set one per 100 points of the army's
limit, at least one either way (`../shared/reference/rule-editions.md`, row 6)."""

from __future__ import annotations

import pytest

from minis.army import Army, hero_limit, locate, parse_army, rule_problems, validate_army
from minis.base.sides import Side
from minis.cards import StatCard, card_catalogue
from minis.content.rule_sets import NAMED, RULEBOOK

CAP = "one Hero too many"


@pytest.fixture(scope="module")
def cards() -> dict[str, StatCard]:
    return card_catalogue()


def axis(*units: str, scenario: str = "standard") -> Army:
    return Army("test", Side.AXIS, scenario, units=units)


def test_one_hero_in_a_100_point_army_is_allowed(cards: dict[str, StatCard]) -> None:
    assert validate_army(axis("grizzled-veteran", "mauser-kar-98k"), cards) == []


def test_a_second_hero_in_a_100_point_army_is_refused_at_that_unit(cards: dict[str, StatCard]) -> None:
    army = axis("mauser-kar-98k", "grizzled-veteran", "stalwart-hero")
    problems = [p for p in rule_problems(army, cards) if CAP in p.message]
    assert [p.where for p in problems] == [("units", 2)]
    assert problems[0].message == (
        "Stalwart Hero is one Hero too many: a 100-point army may have 1 Hero "
        "(one per army, one per 500 points in larger games)"
    )


def test_the_same_hero_twice_is_two_heroes(cards: dict[str, StatCard]) -> None:
    problems = rule_problems(axis("grizzled-veteran", "grizzled-veteran"), cards)
    assert [p.where for p in problems if CAP in p.message] == [("units", 1)]


def test_a_200_point_limit_allows_two_heroes_not_three_under_2010(cards: dict[str, StatCard]) -> None:
    rules = NAMED["2010"]
    two = axis("grizzled-veteran", "stalwart-hero")
    assert not [p for p in rule_problems(two, cards, points_limit=200, rules=rules) if CAP in p.message]
    three = axis("grizzled-veteran", "stalwart-hero", "grizzled-veteran")
    problems = [p for p in rule_problems(three, cards, points_limit=200, rules=rules) if CAP in p.message]
    assert [p.where for p in problems] == [("units", 2)] and "may have 2 Heroes" in problems[0].message


def test_a_200_point_limit_allows_one_hero_under_2005(cards: dict[str, StatCard]) -> None:
    two = axis("grizzled-veteran", "stalwart-hero")
    problems = [p for p in rule_problems(two, cards, points_limit=200) if CAP in p.message]
    assert [p.where for p in problems] == [("units", 1)] and "may have 1 Hero " in problems[0].message


@pytest.mark.parametrize(("limit", "heroes"), [(80, 1), (100, 1), (120, 1), (199, 1), (200, 2), (400, 4)])
def test_the_2010_cap_is_one_per_100_points_and_at_least_one(limit: int, heroes: int) -> None:
    assert hero_limit(limit, NAMED["2010"]) == heroes


@pytest.mark.parametrize(("limit", "heroes"), [(80, 1), (100, 1), (400, 1), (500, 1), (999, 1), (1000, 2)])
def test_the_2005_cap_is_one_per_army_one_per_500_points(limit: int, heroes: int) -> None:
    assert hero_limit(limit) == hero_limit(limit, RULEBOOK) == heroes


def test_paratroopers_and_partisans_are_not_heroes(cards: dict[str, StatCard]) -> None:
    army = axis("grizzled-veteran", "fallschirmjager", "werwolf-partisans")
    assert not [p for p in rule_problems(army, cards) if CAP in p.message]


def test_the_problem_is_located_at_the_heros_line_and_column(cards: dict[str, StatCard]) -> None:
    text = 'name = "Two heroes"\nside = "axis"\nunits = [\n  "grizzled-veteran",\n  "stalwart-hero",\n]\n'
    army = parse_army(text, "heroes.toml")
    [problem] = [p for p in locate(army, rule_problems(army, cards)) if CAP in p.message]
    assert (problem.file, problem.line, problem.col) == ("heroes.toml", 5, 4)
