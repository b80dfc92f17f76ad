"""Aircraft cards (issue 19): the loader takes speed "A", one defense for every direction and short and
medium attacks only, refuses each of those on the wrong card with a FILE:LINE:COL problem, and writes
the card back exactly; the list, the show command and the army rules treat aircraft like any unit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from minis.army import MAX_UNITS, Army, ArmyScenario, validate_army
from minis.base.errors import MinisError
from minis.base.sides import Side
from minis.cards import (
    AIR_FORCE_CONVERSION,
    Attack,
    Nation,
    UnitType,
    card_catalogue,
    dump_card,
    load_card,
    parse_card,
)
from minis.cli import main
from minis.content.card_search import TYPE_WORDS, CardFilter

GOOD = """\
name = "Test Fighter"
nation = "Germany"
type = "Aircraft"
year = 1941
cost = 14
speed = "A"
defense = 4
vs_soldiers = { short = 8, medium = 6 }
vs_vehicles = { short = 4, medium = 3 }
set = "Air Force conversion"

[[abilities]]
ability = "Aircraft"
description = "Placed, not moved."

[[abilities]]
ability = "Rockets 8"
description = "Eight dice once."
"""


def problems_of(text: str, card_id: str = "test-fighter") -> list[tuple[int, int, str, str]]:
    with pytest.raises(MinisError) as caught:
        parse_card(text, card_id)
    return [(p.line, p.col, p.message, p.hint) for p in caught.value.problems]


def test_an_aircraft_card_loads_with_speed_a_and_one_defense() -> None:
    card = parse_card(GOOD, "test-fighter")
    assert card.type is UnitType.AIRCRAFT and card.is_aircraft
    assert not card.is_vehicle and not card.is_soldier and not card.is_obstacle
    assert card.nation is Nation.GERMANY and card.side is Side.AXIS
    assert (card.speed, card.speed_text) == (0, "A")  # the engine never moves it: it is placed
    assert (card.defense_front, card.defense_rear, card.defense_text) == (4, 4, "4")
    assert card.vs_soldiers == Attack(8, 6, None) and card.vs_vehicles == Attack(4, 3, None)
    assert card.type_line == "Aircraft" and card.set_name == AIR_FORCE_CONVERSION
    assert [a.text for a in card.abilities] == ["Aircraft", "Rockets 8"]


def test_an_aircraft_card_is_written_back_exactly() -> None:
    card = parse_card(GOOD, "test-fighter")
    assert dump_card(card) == GOOD
    assert parse_card(dump_card(card), card.id) == card


def test_the_speed_may_be_written_in_any_case_and_is_written_back_as_a() -> None:
    card = parse_card(GOOD.replace('speed = "A"', 'speed = " a "'), "test-fighter")
    assert card.speed_text == "A" and 'speed = "A"' in dump_card(card)


def test_an_aircraft_with_a_speed_in_hexes_is_refused_at_its_line() -> None:
    found = problems_of(GOOD.replace('speed = "A"', "speed = 5"))
    assert found == [
        (6, 1, "an aircraft has no speed in hexes: it is placed, not moved", 'write speed = "A"')
    ]


def test_an_aircraft_without_a_speed_is_told_to_write_a() -> None:
    found = problems_of(GOOD.replace('speed = "A"\n', ""))
    assert [(message, hint) for _, _, message, hint in found] == [
        ("missing key 'speed'", 'an aircraft writes speed = "A"')
    ]


@pytest.mark.parametrize("kind", ["Soldier", "Vehicle"])
def test_speed_a_on_another_type_is_refused(kind: str) -> None:
    text = GOOD.replace('"Aircraft"\nyear', f'"{kind}"\nyear').replace(
        '[[abilities]]\nability = "Aircraft"\ndescription = "Placed, not moved."\n\n', ""
    )
    found = problems_of(text)
    assert [(line, message) for line, _, message, _ in found] == [(6, 'only an aircraft has speed "A"')]


def test_a_speed_text_other_than_a_is_refused() -> None:
    found = problems_of(GOOD.replace('speed = "A"', 'speed = "fast"'))
    assert found == [(6, 1, "'speed' must be an integer, not the string 'fast'", 'or "A" for an aircraft')]


def test_an_aircraft_has_one_defense_not_a_front_and_rear() -> None:
    found = problems_of(GOOD.replace("defense = 4", "defense = { front = 4, rear = 4 }"))
    assert found == [
        (7, 1, "an aircraft has one defense for every direction", "write one number, like defense = 4")
    ]


@pytest.mark.parametrize(("row", "line"), [("vs_soldiers", 8), ("vs_vehicles", 9)])
def test_an_aircraft_has_no_long_range_attack(row: str, line: int) -> None:
    text = GOOD.replace(f"{row} = {{ short = ", f"{row} = {{ long = 2, short = ")
    found = problems_of(text)
    assert [(at, message, hint) for at, _, message, hint in found] == [
        (line, "an aircraft attacks only at short and medium range", f"leave out {row}.long")
    ]


def test_a_vehicle_may_still_have_long_range_and_a_front_and_rear_defense() -> None:
    """The aircraft checks touch aircraft only."""
    text = (
        GOOD.replace('"Aircraft"\nyear', '"Vehicle"\nyear')
        .replace('speed = "A"', "speed = 5")
        .replace("defense = 4", "defense = { front = 4, rear = 3 }")
        .replace("vs_soldiers = { short = 8", "vs_soldiers = { long = 2, short = 8")
        .replace('[[abilities]]\nability = "Aircraft"\ndescription = "Placed, not moved."\n\n', "")
    )
    card = parse_card(text, "test-fighter")
    assert card.is_vehicle and card.vs_soldiers.long == 2 and card.defense_text == "4/3"


def test_the_aircraft_ability_belongs_to_aircraft_cards() -> None:
    text = GOOD.replace('"Aircraft"\nyear', '"Soldier"\nyear').replace('speed = "A"', "speed = 1")
    found = problems_of(text)
    assert [(line, message) for line, _, message, _ in found] == [
        (13, "the Aircraft ability belongs to aircraft cards")
    ]


def test_the_unknown_type_message_names_aircraft() -> None:
    found = problems_of(GOOD.replace('"Aircraft"\nyear', '"Aircraf"\nyear'))
    assert (
        3,
        1,
        "unknown type 'Aircraf' (Soldier, Vehicle, Obstacle or Aircraft)",
        "did you mean 'Aircraft'?",
    ) in found


def test_a_bad_aircraft_file_reports_every_problem_as_file_line_col(tmp_path: Path) -> None:
    path = tmp_path / "bad-fighter.toml"
    path.write_text(
        GOOD.replace('speed = "A"', "speed = 5")
        .replace("defense = 4", "defense = { front = 4, rear = 3 }")
        .replace("vs_vehicles = { short = 4", "vs_vehicles = { long = 1, short = 4"),
        encoding="utf-8",
    )
    with pytest.raises(MinisError) as caught:
        load_card(path)
    lines = [str(problem) for problem in caught.value.problems]
    where = [line.split(": ", 1)[0].rsplit(":", 2) for line in lines]
    assert [(file, int(line)) for file, line, _ in where] == [(str(path), 6), (str(path), 7), (str(path), 9)]
    assert all(int(col) >= 1 for _, _, col in where)


def test_the_shipped_aircraft() -> None:
    cards = card_catalogue()
    aircraft = [card for card in cards.values() if card.is_aircraft]
    assert len(aircraft) == 86
    assert all(card.speed_text == "A" and "/" not in card.defense_text for card in aircraft)
    assert all(card.vs_soldiers.long is None and card.vs_vehicles.long is None for card in aircraft)
    assert all(card.has("aircraft") for card in aircraft)
    assert {card.nation for card in aircraft if card.nation is not None} == {
        Nation.AUSTRALIA,
        Nation.BULGARIA,
        Nation.CANADA,
        Nation.CHINA,
        Nation.FINLAND,
        Nation.FRANCE,
        Nation.GERMANY,
        Nation.ITALY,
        Nation.JAPAN,
        Nation.POLAND,
        Nation.ROMANIA,
        Nation.SOVIET_UNION,
        Nation.UNITED_KINGDOM,
        Nation.UNITED_STATES,
    }
    assert sum(card.set_name == AIR_FORCE_CONVERSION for card in aircraft) == 62
    # no ability of an aircraft waits for a rule system: nothing says "needs: aircraft"
    assert not any(card.needs for card in aircraft)


def test_the_type_filter_finds_the_aircraft() -> None:
    assert TYPE_WORDS["aircraft"] is UnitType.AIRCRAFT
    wanted = CardFilter(type=UnitType.AIRCRAFT)
    found = {card.id for card in card_catalogue().values() if wanted.matches(card, lambda card: ())}
    assert len(found) == 86 and "hawker-typhoon" in found and "m4a1-sherman" not in found


def test_cards_list_type_aircraft_lists_the_86(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "list", "--type", "aircraft"]) == 0
    ids = {line.split()[0] for line in capsys.readouterr().out.splitlines()}
    assert ids == {card.id for card in card_catalogue().values() if card.is_aircraft}
    assert not any("needs: aircraft" in line for line in ids)


def test_cards_show_prints_speed_a_one_defense_and_no_long_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "show", "hawker-typhoon"]) == 0
    out = capsys.readouterr().out
    assert "Aircraft  1943" in out and "Speed A    Defense 4\n" in out and "front/rear" not in out
    soldiers = next(line for line in out.splitlines() if line.strip().startswith("vs Soldiers"))
    assert soldiers.split() == ["vs", "Soldiers", "8", "6", "-"]
    assert main(["cards", "show", "p-40-c-flying-tiger"]) == 0
    assert AIR_FORCE_CONVERSION in capsys.readouterr().out


def _army(units: list[str]) -> Army:
    return Army("Air army", Side.ALLIES, ArmyScenario.STANDARD, units=tuple(units))


def test_aircraft_count_toward_the_15_unit_limit() -> None:
    """Aircraft are units of the army like any other (aircraft-rules.md rule 34): the 16th is refused."""
    rookies = ["buffalo-mk-i-rookie"] * MAX_UNITS  # 7 points each: within a standard army's points
    cards = card_catalogue()
    limit = f"{MAX_UNITS}-unit limit"
    assert f"{MAX_UNITS + 1} units, 1 over the {limit}" in validate_army(_army([*rookies, rookies[0]]), cards)
    assert not any(limit in message for message in validate_army(_army(rookies), cards))
    mixed = [*rookies[:10], *["m1-garand-rifle"] * 6]  # 10 aircraft and 6 Soldiers: 16 units
    assert f"16 units, 1 over the {limit}" in validate_army(_army(mixed), cards)


@pytest.mark.parametrize("size", [(1280, 800), (900, 600)])
def test_the_army_builder_filters_aircraft_and_its_panel_shows_one(
    arcade: Any, shots: Path, size: tuple[int, int]
) -> None:
    """The type button reaches "Aircraft", the list then holds the side's aircraft only, and the card
    panel shows speed A, the one defense and which set the card is from, all within their boxes
    (aircraft-builder*.png)."""
    from minis.ui.armybuilder import ArmyBuilder
    from minis.ui.driver import Driver
    from tests.test_ui_layout import overflows

    driver = Driver.open(*size)
    try:
        builder = ArmyBuilder(driver.window, Side.ALLIES, ArmyScenario.STANDARD, lambda army: None)
        driver.window.open(builder)
        driver.frame()
        for _ in range(10):
            if builder.type_filter.value is UnitType.AIRCRAFT:
                break
            driver.click_box(builder.type_filter.box)
        assert builder.type_filter.text.endswith("Aircraft")
        allied = {c.id for c in card_catalogue().values() if c.is_aircraft and c.serves(Side.ALLIES)}
        assert {card.id for card in builder.shown} == allied
        row = next(i for i, card in enumerate(builder.shown) if card.id == "buffalo-mk-i-rookie")
        builder.cards.highlight(row)
        builder.add("buffalo-mk-i-rookie")
        driver.move(*builder.cards.row_box(row).centre)
        driver.frame()
        page = builder.panel._page
        assert builder.panel.card is card_catalogue()["buffalo-mk-i-rookie"] and page is not None
        assert "Speed A    Defense 3" in page.numbers.text
        assert page.facts.text.endswith(AIR_FORCE_CONVERSION) or size[0] < 1280
        assert [label.text for label in page.table[0]] == ["vs Soldiers", "7", "4", "-"]
        assert not overflows(builder), overflows(builder)
        driver.screenshot(shots / f"aircraft-builder-{size[0]}.png")
    finally:
        driver.close()
