"""The computer's army building (minis/ai/army_maker.py): legal for any limits, strong, varied."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minis.ai.army_maker import army_for_scenario, army_strength, card_value, make_army
from minis.army import HISTORICAL_GROUPS, army_points, rule_problems
from minis.base.errors import MinisError
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.engine.scenario import load_scenario

CARDS = card_catalogue()
ROOT = Path(__file__).resolve().parent.parent


@settings(max_examples=60, deadline=None)
@given(
    points=st.integers(50, 300),
    units=st.integers(1, 15),
    side=st.sampled_from(Side),
    year=st.none() | st.integers(1930, 1950),
    historical=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_an_army_is_legal_for_any_limits_or_a_clear_error(
    points: int, units: int, side: Side, year: int | None, historical: bool, seed: int
) -> None:
    fitting = [
        c for c in CARDS.values() if c.side is side and c.cost <= points and (year is None or c.year <= year)
    ]
    try:
        army = make_army(
            CARDS, side, points, rng=random.Random(seed), unit_limit=units, year=year, historical=historical
        )
    except MinisError as error:
        assert not fitting
        (problem,) = error.problems
        assert problem.message.startswith(f"no {side.title} army can be built: no {side.title} card")
        return
    assert rule_problems(army, CARDS, points_limit=points, unit_limit=units) == []
    assert army.side is side and army.year == year and army.historical is historical
    # Most of the points are spent: nothing that could join the army is left out for want of a slot
    # filled by nothing, i.e. the units are all used or no card of the army's nations fits what is left.
    left = points - army_points(army, CARDS)
    nations = {CARDS[unit].nation for unit in army.units}
    if historical:
        nations = next(set(group) for group in HISTORICAL_GROUPS if nations <= group)
    still = [c for c in fitting if c.cost <= left and c.nation in nations]
    assert len(army.units) == units or not still


def test_no_card_that_early_is_a_clear_error() -> None:
    with pytest.raises(MinisError) as caught:
        make_army(CARDS, Side.AXIS, 100, rng=random.Random(1), year=1935, source="scenario.toml")
    assert str(caught.value) == (
        "scenario.toml:0:0: no Axis army can be built: "
        "no Axis card from 1935 or earlier costs 100 points or less"
    )


def test_a_standard_army_spends_its_points_on_a_sensible_mix() -> None:
    for seed in range(8):
        for side in Side:
            army = make_army(CARDS, side, 100, rng=random.Random(seed))
            cards = [CARDS[unit] for unit in army.units]
            assert army_points(army, CARDS) >= 90
            assert sum(card.is_commander for card in cards) <= 1
            assert any(card_value(card).vehicles > 0.1 for card in cards), army.units  # something for tanks
            assert sum(card_value(card).soldiers > 0.1 for card in cards) >= 3, army.units  # and for soldiers


def test_armies_differ_from_seed_to_seed_and_repeat_for_a_seed() -> None:
    armies = {make_army(CARDS, Side.ALLIES, 100, rng=random.Random(seed)).units for seed in range(10)}
    assert len(armies) >= 6
    again = make_army(CARDS, Side.ALLIES, 100, rng=random.Random(3))
    assert again == make_army(CARDS, Side.ALLIES, 100, rng=random.Random(3))


def test_a_built_army_is_stronger_than_a_random_one_for_the_points() -> None:
    """The builder beats armies drawn at random from the same cards (the strength it maximises)."""
    rng = random.Random(5)
    pool = [card for card in CARDS.values() if card.side is Side.AXIS]
    built = army_strength(make_army(CARDS, Side.AXIS, 100, rng=random.Random(1)).units, CARDS)
    for _ in range(50):
        units: list[str] = []
        left = 100
        while len(units) < 15 and (fits := [c for c in pool if c.cost <= left]):
            card = rng.choice(fits)
            units.append(card.id)
            left -= card.cost
        assert army_strength(units, CARDS) < built


def test_values_follow_the_cards_numbers() -> None:
    tiger, rifle, bazooka = CARDS["tiger-i"], CARDS["mauser-kar-98k"], CARDS["bazooka"]
    assert card_value(tiger).vehicles > card_value(bazooka).vehicles > card_value(rifle).vehicles
    assert card_value(tiger).toughness > card_value(rifle).toughness
    assert card_value(CARDS["mg-42-machine-gun-team"]).soldiers > card_value(rifle).soldiers


@pytest.mark.parametrize(("attacker", "points"), [(Side.AXIS, 120), (Side.ALLIES, 80)])
def test_an_army_for_a_scenario_files_limits(attacker: Side, points: int) -> None:
    scenario = load_scenario(ROOT / "scenarios" / "assault.toml")
    army = army_for_scenario(scenario, Side.AXIS, random.Random(2), attacker=attacker, cards=CARDS)
    assert scenario.army_problems(army, CARDS, side=Side.AXIS, attacker=attacker) == []
    assert points - 10 <= army_points(army, CARDS) <= points
