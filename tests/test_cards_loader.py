"""The card loader: types, ranges, unknown keys and abilities refused, every problem of a file at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from minis.base.errors import EXIT_CHECK, EXIT_UNREADABLE, MinisError
from minis.base.sides import Side
from minis.cards import (
    Attack,
    Nation,
    RangeBand,
    UnitType,
    card_catalogue,
    dump_card,
    load_card,
    load_cards,
    parse_card,
    range_band,
)
from minis.content.ability_catalogue import find_ability, split_label

GOOD = """\
name = "Test Tank"
nation = "Germany"
type = "Vehicle"
subtype = "Tank"
year = 1941
cost = 20
speed = 3
defense = { front = 5, rear = 3 }
vs_soldiers = { short = 7, medium = 7, long = 6 }
vs_vehicles = { short = 12, medium = 10 }
set = "Base Set"

[[abilities]]
ability = "Extended Range 10"

[[abilities]]
ability = "Heavy Armor"
description = "Shrugs off its first Damaged counter."
"""


def problems_of(text: str | bytes, card_id: str = "test-tank") -> list[tuple[int, str]]:
    with pytest.raises(MinisError) as caught:
        parse_card(text, card_id)
    return [(problem.line, problem.message) for problem in caught.value.problems]


def error_of(text: str | bytes, card_id: str = "test-tank") -> MinisError:
    with pytest.raises(MinisError) as caught:
        parse_card(text, card_id)
    return caught.value


def test_a_good_card_loads_with_all_fields() -> None:
    card = parse_card(GOOD, "test-tank")
    assert card.id == "test-tank" and card.name == "Test Tank"
    assert card.nation is Nation.GERMANY and card.side is Side.AXIS
    assert card.type is UnitType.VEHICLE and card.subtype == "Tank"
    assert (card.year, card.cost, card.speed, card.defense_front, card.defense_rear) == (1941, 20, 3, 5, 3)
    assert card.vs_vehicles == Attack(12, 10, None)
    assert [ability.text for ability in card.abilities] == ["Extended Range 10", "Heavy Armor"]
    assert card.abilities[0].number == 10
    assert card.abilities[0].description == "Against Vehicles its long range reaches out to 10 hexes."
    assert card.abilities[1].description == "Shrugs off its first Damaged counter."
    assert card.has("heavy-armor") and not card.has("blast")
    assert card.set_name == "Base Set" and card.collector is None and card.rarity is None


def test_range_bands() -> None:
    assert [range_band(d) for d in range(-1, 10)] == [
        None,
        RangeBand.SHORT,
        RangeBand.SHORT,
        RangeBand.MEDIUM,
        RangeBand.MEDIUM,
        RangeBand.MEDIUM,
        RangeBand.LONG,
        RangeBand.LONG,
        RangeBand.LONG,
        RangeBand.LONG,
        None,
    ]


def test_attack_dice_by_target_and_band() -> None:
    sherman = card_catalogue()["m4a1-sherman"]
    assert sherman.attack_dice(UnitType.SOLDIER, RangeBand.LONG) == 7
    assert sherman.attack_dice(UnitType.VEHICLE, RangeBand.MEDIUM) == 11
    captain = card_catalogue()["red-devil-captain"]
    assert captain.attack_dice(UnitType.VEHICLE, RangeBand.SHORT) == 2
    assert captain.attack_dice(UnitType.VEHICLE, RangeBand.MEDIUM) is None
    assert captain.attack_dice(UnitType.SOLDIER, RangeBand.LONG) is None


def test_nations_parse_in_any_form_and_know_their_side() -> None:
    assert Nation.parse("USSR") is Nation.SOVIET_UNION
    assert Nation.parse("usa") is Nation.UNITED_STATES
    assert Nation.parse("UK") is Nation.UNITED_KINGDOM
    assert Nation.parse("soviet union") is Nation.SOVIET_UNION
    assert {nation for nation in Nation if nation.side is Side.AXIS} == {
        Nation.HUNGARY,
        Nation.ROMANIA,
        Nation.FINLAND,
        Nation.SLOVAKIA,
        Nation.CROATIA,
        Nation.BULGARIA,
        Nation.GERMANY,
        Nation.ITALY,
        Nation.JAPAN,
    }
    with pytest.raises(ValueError):
        Nation.parse("Prussia")


def test_ability_labels_split_into_name_and_number() -> None:
    assert split_label("Close Assault 7") == ("Close Assault", 7)
    assert split_label("Commander: Initiative +2") == ("Commander: Initiative", 2)
    assert split_label("Tally-Ho!") == ("Tally-Ho!", None)
    assert find_ability("tally ho").name == "Tally-Ho!"
    assert find_ability("commander initiative").id == "commander-initiative"


def test_every_problem_of_a_file_at_once_with_lines() -> None:
    text = (
        GOOD.replace("cost = 20", 'cost = "20"')
        .replace("speed = 3", "sped = 3")
        .replace('ability = "Heavy Armor"', 'ability = "Heavy Armour"')
    )
    found = problems_of(text)
    assert (6, "'cost' must be a number of points, like 7 or 0.5, not the string '20'") in found
    assert (7, "unknown key 'sped'") in found
    assert (1, "missing key 'speed'") in found
    assert (17, "unknown ability 'Heavy Armour'") in found
    assert len(found) == 4
    assert error_of(text).exit_code == EXIT_CHECK


def test_unknown_key_gets_a_did_you_mean_hint() -> None:
    error = error_of(GOOD.replace("vs_soldiers = { short", "vs_soldiers = { shrot"))
    (problem,) = error.problems
    assert problem.line == 9
    assert problem.message == "unknown key 'shrot' in 'vs_soldiers'"
    assert problem.hint == "did you mean 'short'?"


def test_out_of_range_numbers_are_refused() -> None:
    text = GOOD.replace("year = 1941", "year = 1899").replace("speed = 3", "speed = -1")
    text = text.replace("short = 7,", "short = 99,")
    found = problems_of(text)
    assert (5, "year 1899 is out of range (1930-1950)") in found
    assert (7, "speed -1 is out of range (0-12)") in found
    assert (9, "vs_soldiers.short 99 is out of range (1-40)") in found


def test_zero_attack_dice_is_refused_with_a_hint() -> None:
    error = error_of(GOOD.replace("long = 6", "long = 0"))
    assert error.problems[0].message == "vs_soldiers.long is 0"
    assert "leave the key out" in error.problems[0].hint


def test_booleans_and_floats_are_not_numbers() -> None:
    found = problems_of(GOOD.replace("cost = 20", "cost = true").replace("year = 1941", "year = 1941.0"))
    assert (5, "'year' must be an integer, not the number 1941.0") in found
    assert (6, "'cost' must be a number of points, like 7 or 0.5, not true (true/false)") in found


def test_unknown_nation_type_subtype_and_rarity() -> None:
    text = GOOD.replace('"Germany"', '"Germny"').replace('"Vehicle"', '"Vehical"').replace('"Tank"', '"Tnak"')
    text = text.replace('set = "Base Set"', 'set = "Base Set"\nrarity = "Legendary"')
    error = error_of(text)
    messages = {problem.message: problem.hint for problem in error.problems}
    assert messages["unknown nation 'Germny'"] == "did you mean 'Germany'?"
    assert (
        messages["unknown type 'Vehical' (Soldier, Vehicle, Obstacle or Aircraft)"]
        == "did you mean 'Vehicle'?"
    )
    assert "unknown subtype 'Tnak'" in messages
    assert "unknown rarity 'Legendary' (Common, Uncommon or Rare)" in messages


def test_ability_problems() -> None:
    text = GOOD + '\n[[abilities]]\nability = "Pinpointer 3"\n\n[[abilities]]\nability = "Close Assault"\n'
    text += '\n[[abilities]]\nability = "Heavy Armor"\n\n[[abilities]]\nability = "Blst"\n'
    found = problems_of(text)
    assert (21, "ability 'Pinpointer' takes no number (found 'Pinpointer 3')") in found
    assert (24, "ability 'Close Assault' needs a number, like 'Close Assault 2'") in found
    assert (27, "ability 'Heavy Armor' is listed twice") in found
    assert (30, "unknown ability 'Blst'") in found


def test_commander_ability_is_flagged_and_gives_the_initiative_bonus() -> None:
    text = GOOD + '\n[[abilities]]\nability = "commander: initiative 3"\n'
    card = parse_card(text, "test-tank")
    ability = card.ability("commander-initiative")
    assert ability is not None and ability.commander and ability.number == 3
    assert ability.text == "Commander: Initiative +3"
    assert card.initiative_bonus == 3 and card.is_commander


def test_defense_forms() -> None:
    soldier = GOOD.replace('type = "Vehicle"', 'type = "Soldier"').replace('subtype = "Tank"\n', "")
    card = parse_card(soldier.replace("defense = { front = 5, rear = 3 }", "defense = 4"), "x")
    assert (card.defense_front, card.defense_rear) == (4, 4)
    assert card.defense_text == "4"
    assert problems_of(soldier) == [(7, "a Soldier has one defense value, not 5/3")]
    vehicle = parse_card(GOOD.replace("defense = { front = 5, rear = 3 }", "defense = 6"), "x")
    assert (vehicle.defense_front, vehicle.defense_rear) == (6, 6)
    assert sorted(problems_of(GOOD.replace("rear = 3", "raer = 3"))) == [
        (8, "missing key 'rear' in 'defense'"),
        (8, "unknown key 'raer' in 'defense'"),
    ]
    assert problems_of(GOOD.replace("front = 5", 'front = "5"')) == [
        (8, "'defense.front' must be an integer, not the string '5'")
    ]
    assert problems_of(GOOD.replace("defense = { front = 5, rear = 3 }", "defense = [5, 3]")) == [
        (8, "'defense' must be an integer or a table { front = N, rear = N }, not a list")
    ]
    assert problems_of(GOOD.replace("defense = { front = 5, rear = 3 }\n", "")) == [
        (1, "missing key 'defense'")
    ]


def test_unreadable_files_exit_2_with_a_position(tmp_path: Path) -> None:
    error = error_of('name = "x"\ncost = \n')
    assert error.exit_code == EXIT_UNREADABLE
    assert error.problems[0].line == 2 and error.problems[0].message.startswith("TOML syntax:")
    error = error_of(b'name = "\xff"\n')
    assert error.exit_code == EXIT_UNREADABLE and error.problems[0].message == "not UTF-8 text"
    assert (error.problems[0].line, error.problems[0].col) == (1, 9)
    with pytest.raises(MinisError) as caught:
        load_card(tmp_path / "missing.toml")
    assert caught.value.exit_code == EXIT_UNREADABLE


def test_file_name_must_be_a_card_id(tmp_path: Path) -> None:
    path = tmp_path / "Test Tank.toml"
    path.write_text(GOOD, encoding="utf-8")
    with pytest.raises(MinisError) as caught:
        load_card(path)
    assert caught.value.problems[0].message == "'Test Tank' is not a card id"
    assert caught.value.problems[0].hint == "call the file 'test-tank.toml'"


def test_load_cards_reports_all_files_together(tmp_path: Path) -> None:
    (tmp_path / "good.toml").write_text(GOOD, encoding="utf-8")
    (tmp_path / "bad-one.toml").write_text(GOOD.replace("cost = 20", "cost = 0"), encoding="utf-8")
    (tmp_path / "bad-two.toml").write_text(GOOD.replace("speed = 3", ""), encoding="utf-8")
    with pytest.raises(MinisError) as caught:
        load_cards(tmp_path)
    files = sorted(Path(problem.file).name for problem in caught.value.problems)
    assert files == ["bad-one.toml", "bad-two.toml"]
    (tmp_path / "bad-one.toml").unlink()
    (tmp_path / "bad-two.toml").unlink()
    assert list(load_cards(tmp_path)) == ["good"]


# --- the catalogue's cards: more nations, no nation, half points, obstacles ------------------------

OBSTACLE = """\
name = "Test Wire"
nation = "None"
type = "Obstacle"
subtype = "Fortification"
year = 1939
cost = 0.5
set = "Test Set"
"""


def test_the_later_sets_nations_know_their_side() -> None:
    assert Nation.parse("Hungary").side is Side.AXIS
    assert Nation.parse("finland").side is Side.AXIS
    assert Nation.parse("New Zealand").side is Side.ALLIES
    assert Nation.parse("yugoslavia").side is Side.ALLIES
    assert Nation.parse("China").adjective == "Chinese"


def test_a_card_of_no_nation_serves_either_side() -> None:
    card = parse_card(GOOD.replace('"Germany"', '"None"'), "test-tank")
    assert card.nation is None and card.side is None
    assert card.serves(Side.AXIS) and card.serves(Side.ALLIES)
    assert card.nation_name == "No nation" and card.side_name == "Either side"
    german = parse_card(GOOD, "test-tank")
    assert german.serves(Side.AXIS) and not german.serves(Side.ALLIES)


def test_an_obstacle_has_no_speed_defense_or_attacks_and_may_cost_half_a_point() -> None:
    card = parse_card(OBSTACLE, "test-wire")
    assert card.type is UnitType.OBSTACLE and card.is_obstacle
    assert card.cost == 0.5 and card.cost_text == "0.5"
    assert card.speed == 0 and card.defense_text == "-"
    assert parse_card(dump_card(card), "test-wire") == card


def test_an_obstacle_with_unit_numbers_is_refused_at_their_lines() -> None:
    found = problems_of(OBSTACLE + "speed = 2\n", "test-wire")
    assert found == [(8, "an obstacle has no speed")]


def test_a_soldier_or_vehicle_without_attacks_is_refused() -> None:
    text = "\n".join(line for line in GOOD.splitlines() if not line.startswith("vs_vehicles"))
    assert (1, "missing key 'vs_vehicles'") in problems_of(text)


@pytest.mark.parametrize("cost", ["0.25", "0", "200.5", "7.3", "inf", "nan", "-0.5"])
def test_a_cost_must_be_whole_or_half_points_in_range(cost: str) -> None:
    found = problems_of(GOOD.replace("cost = 20", f"cost = {cost}"))
    assert len(found) == 1 and found[0][0] == 6 and "cost" in found[0][1]


def test_whole_costs_written_as_floats_are_whole_numbers() -> None:
    card = parse_card(GOOD.replace("cost = 20", "cost = 20.0"), "test-tank")
    assert card.cost == 20 and type(card.cost) is int and card.cost_text == "20"


def test_the_catalogue_subtypes_and_their_commanders() -> None:
    for subtype, leads in (("Tank Commander", True), ("Para - Commander", True), ("Hero", False)):
        card = parse_card(GOOD.replace('"Tank"', f'"{subtype}"'), "test-tank")
        assert card.is_commander is leads
    assert parse_card(GOOD.replace('"Tank"', '"Para - Commander"'), "test-tank").subtype == "Para Commander"
