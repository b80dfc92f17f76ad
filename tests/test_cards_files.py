"""The shipped card files: all 387 ground cards and 86 aircraft load, round-trip through dump_card, and
match the reference lists (the Base Set's 56 with their rulebook corrections, the whole ground catalogue
and the aircraft catalogue)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from minis.base.sides import Side
from minis.cards import (
    AIR_FORCE_CONVERSION,
    AIRCRAFT_SPEED,
    Nation,
    UnitType,
    card_catalogue,
    card_id,
    cards_folder,
    dump_card,
    load_card,
    parse_card,
)
from minis.content.ability_catalogue import ABILITIES, find_ability, split_label

REPO = Path(__file__).resolve().parents[1]
REFERENCE_CSV = REPO.parent / "shared" / "reference" / "base-set-cards.csv"
CATALOGUE_CSV = REPO.parent / "shared" / "reference" / "catalogue-units.csv"
AIRCRAFT_CSV = REPO.parent / "shared" / "reference" / "catalogue-aircraft.csv"
#: How many distinct Soldier, Vehicle and Obstacle cards the catalogue has.
GROUND_CARDS = 387
#: How many distinct aircraft cards (one the source lists twice is kept once).
AIRCRAFT_CARDS = 86

#: Where the 2005 rulebook gives a number, it wins over the reference list (docs/cards.md).
RULEBOOK_OVERRIDES = {"6-pounder-anti-tank-gun": {"cost": 9}}
#: Display names corrected to the rulebook's spelling; the id stays that of the reference name.
NAME_CORRECTIONS = {
    "6-pounder-anti-tank-gun": "6-Pounder Antitank Gun",
    "vickers-machine-gun-team": "Vickers Machine-Gun Team",
    "mg-42-machine-gun-team": "MG-42 Machine-Gun Team",
}
CARD_FILES = sorted(cards_folder().glob("*.toml"))


def test_there_is_a_file_for_every_ground_card_and_aircraft() -> None:
    assert len(CARD_FILES) == GROUND_CARDS + AIRCRAFT_CARDS
    assert len(card_catalogue()) == GROUND_CARDS + AIRCRAFT_CARDS
    assert sum(card.is_aircraft for card in card_catalogue().values()) == AIRCRAFT_CARDS


@pytest.mark.parametrize("path", CARD_FILES, ids=lambda path: path.stem)
def test_card_loads_dumps_and_loads_back_equal(path: Path) -> None:
    card = load_card(path)
    assert card.id == path.stem
    text = dump_card(card)
    assert parse_card(text, card.id) == card
    assert parse_card(text.encode("utf-8"), card.id) == card


@pytest.mark.parametrize("path", CARD_FILES, ids=lambda path: path.stem)
def test_card_file_is_in_canonical_form(path: Path) -> None:
    assert path.read_text(encoding="utf-8") == dump_card(load_card(path))


def test_card_ids_follow_the_contract_rule() -> None:
    for card in card_catalogue().values():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", card.id)
        if card.id not in NAME_CORRECTIONS:
            # cards that share a name carry their nation too, as the catalogue writes it
            # (docs/contracts.md#card-ids)
            base = card_id(card.name)
            if card.id != base:
                assert (
                    card.id.startswith(base + "-") and Nation.parse(card.id[len(base) + 1 :]) is card.nation
                )


def test_contract_examples_of_card_ids() -> None:
    assert card_id("M4A1 Sherman") == "m4a1-sherman"
    assert card_id("6 Pounder Anti-Tank Gun") == "6-pounder-anti-tank-gun"
    assert card_id('"Red Devil" Captain') == "red-devil-captain"
    assert card_id("PaK 38 Anti-Tank Gun") == "pak-38-anti-tank-gun"
    assert card_id("Panzer IV Ausf. G") == "panzer-iv-ausf-g"
    for example in ("m4a1-sherman", "6-pounder-anti-tank-gun", "red-devil-captain", "pak-38-anti-tank-gun"):
        assert example in card_catalogue()
    assert "panzer-iv-ausf-g" in card_catalogue()


def test_sample_army_costs_from_the_rulebook() -> None:
    cards = card_catalogue()
    costs = {
        "m4a1-sherman": 21,
        "6-pounder-anti-tank-gun": 9,
        "red-devil-captain": 7,
        "bazooka": 4,
        "m1-garand-rifle": 4,
        "vickers-machine-gun-team": 8,
        "kv-1": 32,
        "m3-stuart": 15,
    }
    assert {unit: cards[unit].cost for unit in costs} == costs
    assert cards["6-pounder-anti-tank-gun"].name == "6-Pounder Antitank Gun"


def test_every_card_has_descriptions_and_known_abilities() -> None:
    for card in card_catalogue().values():
        for ability in card.abilities:
            assert ability.id in ABILITIES
            assert ability.description and "\n" not in ability.description
            assert (ability.number is not None) == ABILITIES[ability.id].takes_number


def test_card_helpers_on_shipped_cards() -> None:
    cards = card_catalogue()
    assert cards["red-devil-captain"].is_commander and cards["red-devil-captain"].initiative_bonus == 2
    assert cards["ss-haupsturmfuhrer"].initiative_bonus == 3
    assert cards["m4a1-sherman"].initiative_bonus == 0 and not cards["m4a1-sherman"].is_commander
    assert cards["pak-38-anti-tank-gun"].is_artillery and cards["pak-38-anti-tank-gun"].is_soldier
    assert cards["tiger-i"].is_vehicle and cards["tiger-i"].side is Side.AXIS
    assert cards["kv-1"].nation is Nation.SOVIET_UNION and cards["kv-1"].side is Side.ALLIES
    assert cards["m3-stuart"].nation is Nation.UNITED_KINGDOM
    assert cards["commissar"].ability("commander-initiative").commander


def test_every_catalogue_ability_is_documented() -> None:
    text = (REPO / "docs" / "cards.md").read_text(encoding="utf-8")
    for ability in ABILITIES.values():
        assert f"`{ability.id}`" in text, ability.id


def _number(text: str) -> int | None:
    return int(text) if text.strip() else None


def _reference_rows() -> list[dict[str, str]]:
    if not REFERENCE_CSV.is_file():
        pytest.skip("../shared/reference/base-set-cards.csv is not beside the repository")
    with REFERENCE_CSV.open(encoding="utf-8", newline="") as handle:
        return [row for row in csv.DictReader(handle) if row["checklist_confirmed"] != "no"]


def test_cards_are_exactly_the_reference_rows() -> None:
    rows = _reference_rows()
    assert len(rows) == 56
    assert {card_id(row["name"]) for row in rows} <= set(card_catalogue())


def test_card_numbers_equal_the_reference_except_rulebook_overrides() -> None:
    cards = card_catalogue()
    for row in _reference_rows():
        cid = card_id(row["name"])
        card = cards[cid]
        expected = {
            "name": NAME_CORRECTIONS.get(cid, row["name"]),
            "nation": Nation.parse(row["nation"]),
            "side": Side.parse(row["side"]),
            "type": UnitType(row["type"].lower()),
            "subtype": row["subtype"] or None,
            "year": int(row["year"]),
            "cost": int(row["cost"]),
            "speed": int(row["speed"]),
            "defense_front": int(row["defense_front"]),
            "defense_rear": int(row["defense_rear"]),
            "collector": row["collector"] or None,
            "rarity": row["rarity"] or None,
            "vs_soldiers": tuple(_number(row[f"soldier_{band}"]) for band in ("short", "medium", "long")),
            "vs_vehicles": tuple(_number(row[f"vehicle_{band}"]) for band in ("short", "medium", "long")),
            "abilities": [
                (find_ability(name).id, number)
                for name, number in (
                    split_label(text) for text in row["abilities"].split(";") if text.strip()
                )
            ],
        }
        expected.update(RULEBOOK_OVERRIDES.get(cid, {}))
        actual = {
            "name": card.name,
            "nation": card.nation,
            "side": card.side,
            "type": card.type,
            "subtype": card.subtype,
            "year": card.year,
            "cost": card.cost,
            "speed": card.speed,
            "defense_front": card.defense_front,
            "defense_rear": card.defense_rear,
            "collector": card.collector,
            "rarity": card.rarity,
            "vs_soldiers": (card.vs_soldiers.short, card.vs_soldiers.medium, card.vs_soldiers.long),
            "vs_vehicles": (card.vs_vehicles.short, card.vs_vehicles.medium, card.vs_vehicles.long),
            "abilities": [(ability.id, ability.number) for ability in card.abilities],
        }
        assert actual == expected, cid


def test_the_only_cost_override_is_the_six_pounder() -> None:
    rows = {card_id(row["name"]): row for row in _reference_rows()}
    cards = card_catalogue()
    differing = {cid for cid, row in rows.items() if cards[cid].cost != int(row["cost"])}
    assert differing == {"6-pounder-anti-tank-gun"}


def _catalogue_rows() -> list[dict[str, str]]:
    if not CATALOGUE_CSV.is_file():
        pytest.skip("../shared/reference/catalogue-units.csv is not beside the repository")
    with CATALOGUE_CSV.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _dice(text: str) -> int | None:
    return None if text.strip() in ("", "-") else int(text)


def test_cards_are_exactly_the_catalogue_rows() -> None:
    rows = _catalogue_rows()
    assert len(rows) == GROUND_CARDS
    ground = {card.id for card in card_catalogue().values() if not card.is_aircraft}
    assert {row["id"] for row in rows} == ground


def test_card_numbers_equal_the_catalogue_except_our_corrections() -> None:
    """Every number, nation, type, subtype and ability of every card is the catalogue's, but for the
    Base Set corrections above (the 6-Pounder's rulebook cost, three display names)."""
    cards = card_catalogue()
    for row in _catalogue_rows():
        card = cards[row["id"]]
        obstacle = row["type"] == "Obstacle"
        expected = {
            "name": NAME_CORRECTIONS.get(card.id, row["name"]),
            "nation": None if row["nation"] == "none" else Nation.parse(row["nation"]),
            "type": UnitType(row["type"].lower()),
            "subtype": row["subtype"].replace(" - ", " ") or None,
            "year": int(row["year"]),
            "cost": RULEBOOK_OVERRIDES.get(card.id, {}).get("cost", float(row["cost"])),
            "numbers": None
            if obstacle
            else (int(row["speed"]), int(row["defense_front"]), int(row["defense_rear"])),
            "vs_soldiers": tuple(_dice(row[f"vs_soldier_{band}"]) for band in ("short", "medium", "long")),
            "vs_vehicles": tuple(_dice(row[f"vs_vehicle_{band}"]) for band in ("short", "medium", "long")),
            "abilities": [
                (found.id, number)
                for name, number in (
                    split_label(text) for text in row["abilities"].split(";") if text.strip()
                )
                if (found := find_ability(name)) is not None
            ],
        }
        actual = {
            "name": card.name,
            "nation": card.nation,
            "type": card.type,
            "subtype": card.subtype,
            "year": card.year,
            "cost": card.cost,
            "numbers": None if card.is_obstacle else (card.speed, card.defense_front, card.defense_rear),
            "vs_soldiers": (card.vs_soldiers.short, card.vs_soldiers.medium, card.vs_soldiers.long),
            "vs_vehicles": (card.vs_vehicles.short, card.vs_vehicles.medium, card.vs_vehicles.long),
            "abilities": [(ability.id, ability.number) for ability in card.abilities],
        }
        assert actual == expected, card.id


def _aircraft_rows() -> list[dict[str, str]]:
    if not AIRCRAFT_CSV.is_file():
        pytest.skip("../shared/reference/catalogue-aircraft.csv is not beside the repository")
    with AIRCRAFT_CSV.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _aircraft_abilities(text: str) -> list[tuple[str, int | None]]:
    """The row's abilities as (id, number), each once, with the Aircraft keyword first if the row lacks it
    (the source's I-16 "Ishak" data error: aircraft-rules.md rule 8)."""
    found: list[tuple[str, int | None]] = []
    for name, number in (split_label(label) for label in text.split(";") if label.strip()):
        info = find_ability(name)
        assert info is not None, name
        if (info.id, number) not in found:
            found.append((info.id, number))
    return found if ("aircraft", None) in found else [("aircraft", None), *found]


def test_aircraft_are_exactly_the_aircraft_catalogue_rows() -> None:
    rows = _aircraft_rows()
    assert len(rows) == AIRCRAFT_CARDS == len({row["id"] for row in rows})
    aircraft = {card.id for card in card_catalogue().values() if card.is_aircraft}
    assert {row["id"] for row in rows} == aircraft


def test_aircraft_numbers_equal_the_aircraft_catalogue_row_by_row() -> None:
    """Every number, nation, side, year, ability and set of every aircraft is its row's: speed "A", one
    defense for every direction, attacks at short and medium range only."""
    cards = card_catalogue()
    for row in _aircraft_rows():
        card = cards[row["id"]]
        assert row["type"] == "Aircraft" and row["speed"] == AIRCRAFT_SPEED, row["id"]
        expected = {
            "name": row["name"],
            "nation": Nation.parse(row["nation"]),
            "side": Side.parse(row["side"]),
            "type": UnitType.AIRCRAFT,
            "subtype": None,
            "year": int(row["year"]),
            "cost": float(row["cost"]),
            "speed": AIRCRAFT_SPEED,
            "defense": (int(row["defense"]), int(row["defense"])),
            "defense_text": row["defense"],
            "vs_soldiers": (_dice(row["vs_soldier_short"]), _dice(row["vs_soldier_medium"]), None),
            "vs_vehicles": (_dice(row["vs_vehicle_short"]), _dice(row["vs_vehicle_medium"]), None),
            "abilities": _aircraft_abilities(row["abilities"]),
            "set": None if row["source_group"] == "ground-set card" else AIR_FORCE_CONVERSION,
        }
        actual = {
            "name": card.name,
            "nation": card.nation,
            "side": card.side,
            "type": card.type,
            "subtype": card.subtype,
            "year": card.year,
            "cost": card.cost,
            "speed": card.speed_text,
            "defense": (card.defense_front, card.defense_rear),
            "defense_text": card.defense_text,
            "vs_soldiers": (card.vs_soldiers.short, card.vs_soldiers.medium, card.vs_soldiers.long),
            "vs_vehicles": (card.vs_vehicles.short, card.vs_vehicles.medium, card.vs_vehicles.long),
            "abilities": [(ability.id, ability.number) for ability in card.abilities],
            "set": card.set_name,
        }
        assert actual == expected, card.id


def test_the_aircraft_groups_by_source() -> None:
    """24 aircraft come from the ground sets (aamcardbase ids 12-499), 62 are probable conversions from the
    air game (ids 599-661), and the row with a missing Aircraft keyword got it."""
    rows = _aircraft_rows()
    ground = {row["id"] for row in rows if row["source_group"] == "ground-set card"}
    assert len(ground) == 24
    assert all(int(row["aamcardbase_id"]) < 500 for row in rows if row["id"] in ground)
    assert all(int(row["aamcardbase_id"]) >= 599 for row in rows if row["id"] not in ground)
    cards = card_catalogue()
    assert {cid for cid, card in cards.items() if card.set_name == AIR_FORCE_CONVERSION} == {
        row["id"] for row in rows
    } - ground
    assert all(cards[row["id"]].has("aircraft") for row in rows)
    assert not any(card.has("aircraft") for card in cards.values() if not card.is_aircraft)
