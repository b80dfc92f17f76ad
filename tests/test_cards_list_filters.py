"""`minis cards list` with the army builder's filters (issue 15): every option, the order, the
`needs: WHAT` column of the cards this rule set cannot play yet, and bad values as `cards:0:0:` lines.

Which cards are playable is asked of the rule set (`standard_abilities().needs`), never written here.
"""

from __future__ import annotations

import pytest

from minis.base.sides import Side
from minis.cards import StatCard, card_catalogue
from minis.cli import main
from minis.engine.ability_loader import standard_abilities


def listed(capsys: pytest.CaptureFixture[str], *options: str) -> list[str]:
    """The ids `minis cards list OPTIONS` prints, in its order."""
    code = main(["cards", "list", *options])
    captured = capsys.readouterr()
    assert code == 0 and captured.err == "", captured.err
    return [line.split()[0] for line in captured.out.splitlines()]


def ids(cards: list[StatCard] | filter[StatCard]) -> set[str]:
    return {card.id for card in cards}


CARDS = card_catalogue()


def test_every_card_is_listed_and_each_unplayable_one_says_what_it_needs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["cards", "list"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(CARDS)
    needs = standard_abilities().needs
    for line in lines:
        card = CARDS[line.split()[0]]
        missing = needs(card)
        if missing:
            assert line.endswith(f"  needs: {', '.join(missing)}"), line
        else:
            assert "needs:" not in line and line.endswith(f"  {card.cost_text}"), line
    assert any("needs:" in line for line in lines) or all(not needs(card) for card in CARDS.values())


def test_playable_lists_exactly_the_cards_the_rules_play(capsys: pytest.CaptureFixture[str]) -> None:
    needs = standard_abilities().needs
    assert set(listed(capsys, "--playable")) == {card.id for card in CARDS.values() if not needs(card)}


def test_search_finds_names_and_abilities_in_any_case(capsys: pytest.CaptureFixture[str]) -> None:
    assert set(listed(capsys, "--search", "TIGER")) == {
        c.id for c in CARDS.values() if "tiger" in c.name.lower()
    }
    by_ability = set(listed(capsys, "--search", "close assault"))
    assert by_ability == {
        c.id for c in CARDS.values() if any("close assault" in a.text.lower() for a in c.abilities)
    }
    assert listed(capsys, "--search", "no card is called this") == []


def test_side_nation_type_subtype_and_year(capsys: pytest.CaptureFixture[str]) -> None:
    axis = set(listed(capsys, "--side", "AXIS"))
    assert axis == {c.id for c in CARDS.values() if c.serves(Side.AXIS)}  # cards of no nation serve both
    assert set(listed(capsys, "--nation", "ussr")) == {
        c.id for c in CARDS.values() if c.nation_name == "Soviet Union"
    }
    assert set(listed(capsys, "--type", "vehicles")) == {c.id for c in CARDS.values() if c.is_vehicle}
    assert set(listed(capsys, "--type", "obstacle")) == {c.id for c in CARDS.values() if c.is_obstacle}
    tanks = set(listed(capsys, "--subtype", "TANK destroyer"))
    assert tanks and tanks == {c.id for c in CARDS.values() if c.subtype == "Tank Destroyer"}
    assert set(listed(capsys, "--subtype", "none")) == {c.id for c in CARDS.values() if c.subtype is None}
    assert set(listed(capsys, "--year", "1940")) == {c.id for c in CARDS.values() if c.year <= 1940}
    both = set(listed(capsys, "--side", "allies", "--type", "soldier", "--year", "1941"))
    assert both == {c.id for c in CARDS.values() if c.serves(Side.ALLIES) and c.is_soldier and c.year <= 1941}


def test_cost_range_takes_half_points(capsys: pytest.CaptureFixture[str]) -> None:
    cheap = set(listed(capsys, "--max-cost", "0.5"))
    assert cheap == {c.id for c in CARDS.values() if c.cost <= 0.5}
    middle = set(listed(capsys, "--min-cost", "10", "--max-cost", "20"))
    assert middle and middle == {c.id for c in CARDS.values() if 10 <= c.cost <= 20}


@pytest.mark.parametrize(
    ("order", "key"),
    [
        ("cost", lambda card: card.cost),
        ("year", lambda card: card.year),
        ("nation", lambda card: card.nation_name),
    ],
)
def test_sort_orders(capsys: pytest.CaptureFixture[str], order: str, key: object) -> None:
    shown = [CARDS[card_id] for card_id in listed(capsys, "--sort", order)]
    values = [key(card) for card in shown]  # type: ignore[operator]
    assert len(shown) == len(CARDS) and values == sorted(values)


def test_sort_by_name_ignores_case_and_opening_quotes(capsys: pytest.CaptureFixture[str]) -> None:
    names = [CARDS[card_id].name.lower().lstrip("\"'“‘ ") for card_id in listed(capsys)]
    assert names == sorted(names)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--side", "neutral"], "cards:0:0: --side: unknown side 'neutral' (axis or allies)"),
        (
            ["--nation", "Germny"],
            "cards:0:0: --nation: unknown nation 'Germny' (hint: did you mean 'Germany'?)",
        ),
        (
            ["--type", "plane"],
            "cards:0:0: --type: unknown unit type 'plane' (soldier, vehicle, obstacle or aircraft)",
        ),
        (["--subtype", "tnak"], "cards:0:0: --subtype: unknown subtype 'tnak' (hint: did you mean 'Tank'?)"),
        (["--year", "1943a"], "cards:0:0: --year: '1943a' is not a year (like 1942)"),
        (["--min-cost", "cheap"], "cards:0:0: --min-cost: 'cheap' is not a number of points (like 5 or 0.5)"),
        (["--max-cost", "-2"], "cards:0:0: --max-cost: '-2' is not a number of points (like 5 or 0.5)"),
        (["--max-cost", "nan"], "cards:0:0: --max-cost: 'nan' is not a number of points (like 5 or 0.5)"),
        (
            ["--min-cost", "9", "--max-cost", "3"],
            "cards:0:0: --min-cost 9 is more than --max-cost 3: no card costs that",
        ),
        (
            ["--sort", "speed"],
            "cards:0:0: --sort: unknown order 'speed' (name, cost, year or nation)",
        ),
    ],
)
def test_a_bad_value_is_one_line_and_exit_1(
    capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    code = main(["cards", "list", *options])
    captured = capsys.readouterr()
    assert code == 1 and captured.out == ""
    assert captured.err.splitlines() == [message]
