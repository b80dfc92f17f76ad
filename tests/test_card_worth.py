"""The card-values table: read with every mistake at its place, turned into worths with care for how sure
each one is, shipped with the game, and used by the computer when it builds an army."""

from __future__ import annotations

import collections
import random
from pathlib import Path

import pytest

from minis.ai.army_maker import make_army
from minis.base.errors import MinisError
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.content import card_worth
from minis.content.card_worth import MIN_GAMES, Measured, read_table, table_text, worth
from minis.lab.study import load_study

GOOD = """# a comment
study = "a study"
games = 5000

[cards]
panzer-iv-ausf-g = { cost = 27, games = 800, fair = 31.5, low = 25.0, high = 38.0 }
pioneers = { cost = 8, games = 12, fair = 20.0, low = -10.0, high = 50.0 }
"""


def test_a_table_reads_back_what_was_written(tmp_path: Path) -> None:
    lines = [("b-card", Measured(10, 300, 12.25, 8.5, 16.0)), ("a-card", Measured(5, 0, float("nan"), 0, 0))]
    path = tmp_path / "table.toml"
    path.write_text(table_text('study "x"', 42, lines, ["made here"]), encoding="utf-8")
    table = read_table(path)
    assert (table.study, table.games, list(table.cards)) == ('study "x"', 42, ["a-card", "b-card"])
    assert table.cards["b-card"] == Measured(10, 300, 12.25, 8.5, 16.0)
    assert path.read_text(encoding="utf-8").startswith("# made here\n")


@pytest.mark.parametrize(
    ("change", "where", "message"),
    [
        (("games = 5000", "games = -1"), "3:1", "'games', the study's games"),
        (('study = "a study"', "studie = 1"), "2:1", "unknown key 'studie'"),
        (("high = 38.0 }", "high = 38.0, highest = 40 }"), "6:", "unknown key 'highest'"),
        (("fair = 31.5", 'fair = "31.5"'), "6:", "'fair' must be a number"),
        (("games = 800", "games = 800.5"), "6:", "'games' must be a whole number"),
        ((", low = 25.0", ""), "6:1", "has no 'low'"),
        (("pioneers = {", "pioneers = 3 #"), "7:1", "a card's line is"),
    ],
)
def test_mistakes_are_shown_at_their_place(
    tmp_path: Path, change: tuple[str, str], where: str, message: str
) -> None:
    assert change[0] in GOOD
    path = tmp_path / "table.toml"
    path.write_text(GOOD.replace(change[0], change[1], 1), encoding="utf-8")
    with pytest.raises(MinisError) as error:
        read_table(path)
    text = str(error.value)
    assert f"{path}:{where}" in text and message in text, text


def test_worth_is_the_fair_cost_pulled_towards_the_printed_one_by_its_doubt() -> None:
    assert worth(Measured(10, MIN_GAMES - 1, 20.0, 19.0, 21.0)) is None  # too few games: the price stands
    assert worth(Measured(10, 500, float("nan"), 0.0, 1.0)) is None
    sure = worth(Measured(10, 5000, 20.0, 19.0, 21.0))
    unsure = worth(Measured(10, 500, 20.0, 0.0, 40.0))
    assert sure is not None and unsure is not None
    assert 19.5 < sure < 20.0  # a narrow interval: nearly the fair cost
    assert 10.0 < unsure < 12.5  # an interval of +-20 points: near the printed cost
    error, prior = 40.0 / (2 * card_worth.Z95), card_worth.PRIOR_SHARE * 10
    assert unsure == pytest.approx((20.0 / error**2 + 10.0 / prior**2) / (1 / error**2 + 1 / prior**2))


def test_the_shipped_table_covers_the_catalogue_and_is_used() -> None:
    path = card_worth.shipped_path()
    table = read_table(path)
    catalogue = card_catalogue()
    assert set(table.cards) <= set(catalogue)
    study = load_study(path.parent / "card-values.toml")  # the documented study it comes from, whole
    assert (table.study, table.games) == (study.name, study.games) and study.games >= 5_000
    measured = card_worth.shipped_worth()
    assert len(measured) >= 200  # most of the cards the computer buys have a measured worth
    for card_id, line in table.cards.items():
        assert line.cost == catalogue[card_id].cost
    # the computer's armies are built with it by default
    built = [make_army(catalogue, Side.AXIS, 100, rng=random.Random(seed)).units for seed in range(6)]
    shipped = [
        make_army(catalogue, Side.AXIS, 100, rng=random.Random(s), worth=measured).units for s in range(6)
    ]
    printed = [make_army(catalogue, Side.AXIS, 100, rng=random.Random(s), worth={}).units for s in range(6)]
    assert built == shipped and built != printed


def test_a_card_worth_little_is_bought_less() -> None:
    """The same draws with one card's worth a tenth of its price: the computer takes it far less often."""
    catalogue = card_catalogue()
    counts: dict[str, collections.Counter[str]] = {}
    plain = collections.Counter(
        unit
        for seed in range(40)
        for unit in make_army(catalogue, Side.ALLIES, 100, rng=random.Random(seed), worth={}).units
    )
    favourite, times = plain.most_common(1)[0]
    assert times >= 10
    low = {favourite: catalogue[favourite].cost * 0.1}
    counts["low"] = collections.Counter(
        unit
        for seed in range(40)
        for unit in make_army(catalogue, Side.ALLIES, 100, rng=random.Random(seed), worth=low).units
    )
    assert counts["low"][favourite] < times / 3
