"""Write a card file in `cards/` for every card of the reference catalogue we don't have yet.

The reference (`../shared/reference/catalogue-units.csv`, beside the repository) holds the facts of
every Soldier, Vehicle and Obstacle card: numbers, nation, year, type, subtype and abilities with their
numbers; `catalogue-aircraft.csv` beside it those of the 86 aircraft cards (speed "A", one defense,
short and medium attacks only). This turns each row into our own card file
(`minis.cards.dump_card`), with each ability's description from our catalogue
(`minis.content.ability_catalogue`), never the card's text. Cards we already
have are left alone: they keep their ids, numbers and our rulebook-based corrections (the 6-Pounder's
cost of 9). Run it again after the catalogue gains a card; `--check` only reports what it would write.
`--descriptions` rewrites the ability descriptions of every card file (ours included) from the
catalogue's templates, after a template changed (the tests demand that they agree).

    python tools/import_catalogue.py [--reference DIR] [--check] [--descriptions]
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import attrs

from minis.base.sides import Side
from minis.cards import (
    AIR_FORCE_CONVERSION,
    AbilityRef,
    Attack,
    Nation,
    StatCard,
    UnitType,
    card_id,
    dump_card,
    load_card,
    parse_card,
)
from minis.content.ability_catalogue import ABILITIES, find_ability, split_label

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT.parent / "shared" / "reference"
#: The catalogue writes one subtype with a spaced hyphen; our cards write it as a name.
SUBTYPE_NAMES = {"Para - Commander": "Para Commander"}
#: The aircraft catalogue's `source_group` of the cards printed in the ground sets (ids 12-499); the
#: others are probably conversions from the separate air game and get `set = AIR_FORCE_CONVERSION`.
GROUND_SET = "ground-set card"


def _dice(text: str) -> int | None:
    return None if text.strip() in ("", "-") else int(text)


def _cost(text: str) -> float:
    value = float(text)
    return int(value) if value == int(value) else value


def _abilities(text: str, where: str) -> tuple[AbilityRef, ...]:
    refs = []
    for label in (item.strip() for item in text.split(";")):
        if not label:
            continue
        name, number = split_label(label)
        info = find_ability(name)
        if info is None:
            raise SystemExit(
                f"{where}: unknown ability '{label}' (add it to minis/content/ability_catalogue.py)"
            )
        refs.append(AbilityRef(info.id, info.name, number, info.describe(number), info.commander))
    return tuple(refs)


def _with_aircraft_keyword(refs: tuple[AbilityRef, ...]) -> tuple[AbilityRef, ...]:
    """Every aircraft card carries the Aircraft keyword, first if it was missing (the source's I-16
    "Ishak" row lists "Antiair; Antiair" instead: a data error, aircraft-rules.md rule 8); an ability
    the source repeats is kept once."""
    first: dict[str, AbilityRef] = {}
    for ref in refs:
        first.setdefault(ref.id, ref)
    kept = tuple(first.values())
    if any(ref.id == "aircraft" for ref in kept):
        return kept
    info = ABILITIES["aircraft"]
    return (AbilityRef(info.id, info.name, None, info.describe(None), info.commander), *kept)


def card_from_row(row: dict[str, str]) -> StatCard:
    """Our card for one row of the reference (checked again by parsing what `dump_card` writes)."""
    where = f"catalogue-units.csv: {row['id']}"
    kind = UnitType(row["type"].lower())
    nation = None if row["nation"] == "none" else Nation.parse(row["nation"])
    obstacle = kind is UnitType.OBSTACLE
    card = StatCard(
        id=row["id"],
        name=row["name"],
        nation=nation,
        side=nation.side if nation is not None else None,
        type=kind,
        subtype=SUBTYPE_NAMES.get(row["subtype"], row["subtype"]) or None,
        year=int(row["year"]),
        cost=_cost(row["cost"]),
        speed=0 if obstacle else int(row["speed"]),
        defense_front=0 if obstacle else int(row["defense_front"]),
        defense_rear=0 if obstacle else int(row["defense_rear"]),
        vs_soldiers=Attack(*(_dice(row[f"vs_soldier_{band}"]) for band in ("short", "medium", "long"))),
        vs_vehicles=Attack(*(_dice(row[f"vs_vehicle_{band}"]) for band in ("short", "medium", "long"))),
        abilities=_abilities(row["abilities"], where),
        set_name=None,
    )
    text = dump_card(card)
    if parse_card(text, card.id) != card:
        raise SystemExit(f"{where}: the card file does not read back as the same card")
    if card_id(card.name) != card.id and not card.id.startswith(card_id(card.name)):
        raise SystemExit(f"{where}: the id does not follow from the name '{card.name}'")
    return card


def aircraft_card_from_row(row: dict[str, str]) -> StatCard:
    """Our card for one row of the aircraft catalogue (checked again by parsing what `dump_card` writes)."""
    where = f"catalogue-aircraft.csv: {row['id']}"
    if row["type"] != "Aircraft" or row["speed"] != "A":
        raise SystemExit(f"{where}: not an aircraft (type '{row['type']}', speed '{row['speed']}')")
    nation = Nation.parse(row["nation"])
    defense = int(row["defense"])
    card = StatCard(
        id=row["id"],
        name=row["name"],
        nation=nation,
        side=nation.side,
        type=UnitType.AIRCRAFT,
        subtype=None,
        year=int(row["year"]),
        cost=_cost(row["cost"]),
        speed=0,
        defense_front=defense,
        defense_rear=defense,
        vs_soldiers=Attack(_dice(row["vs_soldier_short"]), _dice(row["vs_soldier_medium"])),
        vs_vehicles=Attack(_dice(row["vs_vehicle_short"]), _dice(row["vs_vehicle_medium"])),
        abilities=_with_aircraft_keyword(_abilities(row["abilities"], where)),
        set_name=None if row["source_group"] == GROUND_SET else AIR_FORCE_CONVERSION,
    )
    if Side.parse(row["side"]) is not nation.side:
        raise SystemExit(f"{where}: side '{row['side']}' is not that of {nation.value}")
    text = dump_card(card)
    if parse_card(text, card.id) != card:
        raise SystemExit(f"{where}: the card file does not read back as the same card")
    return card


def refresh_descriptions(folder: Path, check: bool) -> int:
    """Every card file whose ability descriptions differ from the catalogue's templates, rewritten."""
    changed = 0
    for path in sorted(folder.glob("*.toml")):
        card = load_card(path)
        abilities = tuple(
            attrs.evolve(ref, description=ref.info.describe(ref.number)) for ref in card.abilities
        )
        if abilities != card.abilities:
            changed += 1
            if not check:
                path.write_text(dump_card(attrs.evolve(card, abilities=abilities)), encoding="utf-8")
    print(f"{'would rewrite' if check else 'rewrote'} the descriptions of {changed} card files")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--reference", type=Path, default=REFERENCE)
    parser.add_argument("--check", action="store_true", help="report what would be written, write nothing")
    parser.add_argument(
        "--descriptions",
        action="store_true",
        help="rewrite every card's ability descriptions from the catalogue",
    )
    args = parser.parse_args()
    folder = ROOT / "cards"
    if args.descriptions:
        return refresh_descriptions(folder, args.check)
    with open(args.reference / "catalogue-units.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    with open(args.reference / "catalogue-aircraft.csv", encoding="utf-8", newline="") as handle:
        aircraft_rows = list(csv.DictReader(handle))
    cards = [card_from_row(row) for row in rows] + [aircraft_card_from_row(row) for row in aircraft_rows]
    written = 0
    for card in cards:
        path = folder / f"{card.id}.toml"
        if path.exists():
            continue
        written += 1
        if not args.check:
            path.write_text(dump_card(card), encoding="utf-8")
    verb = "would write" if args.check else "wrote"
    print(f"{len(cards)} catalogue cards ({len(aircraft_rows)} aircraft); {verb} {written} new card files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
