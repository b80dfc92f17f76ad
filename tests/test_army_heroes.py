"""The Hero cap (army building): one Hero per 100 points of the army's limit, at least one, reported at
each Hero beyond the cap (the later rules inserts' rule, /work/shared/reference/rule-editions.md row 6)."""

from __future__ import annotations

import pytest

from minis.army import Army, hero_limit, locate, parse_army, rule_problems, validate_army
from minis.cards import StatCard, card_catalogue
from minis.sides import Side

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
        "Stalwart Hero is one Hero too many: a 100-point army may have 1 Hero (one per 100 points)"
    )


def test_the_same_hero_twice_is_two_heroes(cards: dict[str, StatCard]) -> None:
    problems = rule_problems(axis("grizzled-veteran", "grizzled-veteran"), cards)
    assert [p.where for p in problems if CAP in p.message] == [("units", 1)]


def test_a_200_point_limit_allows_two_heroes_not_three(cards: dict[str, StatCard]) -> None:
    two = axis("grizzled-veteran", "stalwart-hero")
    assert not [p for p in rule_problems(two, cards, points_limit=200) if CAP in p.message]
    three = axis("grizzled-veteran", "stalwart-hero", "grizzled-veteran")
    problems = [p for p in rule_problems(three, cards, points_limit=200) if CAP in p.message]
    assert [p.where for p in problems] == [("units", 2)] and "may have 2 Heroes" in problems[0].message


@pytest.mark.parametrize(("limit", "heroes"), [(80, 1), (100, 1), (120, 1), (199, 1), (200, 2), (400, 4)])
def test_the_cap_is_one_per_100_points_and_at_least_one(limit: int, heroes: int) -> None:
    assert hero_limit(limit) == heroes


def test_paratroopers_and_partisans_are_not_heroes(cards: dict[str, StatCard]) -> None:
    army = axis("grizzled-veteran", "fallschirmjager", "werwolf-partisans")
    assert not [p for p in rule_problems(army, cards) if CAP in p.message]


def test_the_problem_is_located_at_the_heros_line_and_column(cards: dict[str, StatCard]) -> None:
    text = 'name = "Two heroes"\nside = "axis"\nunits = [\n  "grizzled-veteran",\n  "stalwart-hero",\n]\n'
    army = parse_army(text, "heroes.toml")
    [problem] = [p for p in locate(army, rule_problems(army, cards)) if CAP in p.message]
    assert (problem.file, problem.line, problem.col) == ("heroes.toml", 5, 4)
