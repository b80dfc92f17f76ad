"""Every ability label of the ground card catalogue resolves to a known ability, and abilities whose rule
system the engine lacks say so (`needs`), so card files for the whole catalogue can be written and checked."""

from __future__ import annotations

import csv
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path

import attrs
import pytest

from minis.content.ability_catalogue import (
    _ALL,
    ABILITIES,
    AIRCRAFT,
    INDIRECT_FIRE,
    OBSTACLES,
    SPECIAL_DEPLOYMENT,
    WATER,
    AbilityInfo,
    find_ability,
    slug,
    split_label,
)

ROOT = Path(__file__).resolve().parents[1]
#: The outside reference beside the repository: only the tests that check against it skip without it.
REFERENCE = ROOT.parent / "shared" / "reference"
UNITS_CSV = REFERENCE / "catalogue-units.csv"
FAMILIES_MD = REFERENCE / "catalogue-abilities.md"

#: Section titles of the reference's "Families that need a new rule system" and the constant each maps to;
#: rerolls and unit tags are being built now, so those families need nothing.
SYSTEMS: dict[str, str | None] = {
    "Aircraft": AIRCRAFT,
    "Indirect fire and spotters": INDIRECT_FIRE,
    "Special deployment": SPECIAL_DEPLOYMENT,
    "Obstacles and fortifications": OBSTACLES,
    "Water hexes": WATER,
    "Rerolls": None,
    "Unit tags": None,
}
#: Antiair already plays as a no-op, so it keeps `needs=None` although aircraft are missing.
PLAYS_ALREADY = {"antiair"}
#: The rule systems the engine has built since (issue 16): their families need nothing any more.
BUILT = {INDIRECT_FIRE, SPECIAL_DEPLOYMENT, OBSTACLES, WATER, AIRCRAFT}
#: A family listed under two systems gets the first of them in this order (Spotter: indirect fire).
PREFERENCE = (INDIRECT_FIRE, AIRCRAFT, SPECIAL_DEPLOYMENT, OBSTACLES, WATER)


def _labels() -> list[str]:
    if not UNITS_CSV.is_file():
        pytest.skip("../shared/reference/catalogue-units.csv is not beside the repository")
    with UNITS_CSV.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return sorted({label.strip() for row in rows for label in row["abilities"].split(";") if label.strip()})


def _our_labels() -> list[str]:
    """The ability labels of our own card files (`ability = "Fury 2"`), which every clone has."""
    found = set()
    for path in (ROOT / "cards").glob("*.toml"):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        found |= {entry["ability"] for entry in data.get("abilities", [])}
    return sorted(found)


def _reference_text() -> str:
    if not FAMILIES_MD.is_file():
        pytest.skip("../shared/reference/catalogue-abilities.md is not beside the repository")
    return FAMILIES_MD.read_text(encoding="utf-8")


def _heroes(text: str) -> list[str]:
    """The seven national heroes, named in the reference's header ('... Hero, ... Hero) are one family')."""
    match = re.search(r"national hero abilities \(([^)]*)\)", text)
    assert match, "the reference no longer names the national heroes"
    return [name.strip() for name in match.group(1).split(",")]


def _expected_needs(text: str) -> dict[str, str | None]:
    """Ability id -> the rule system the reference's last section says it needs (None: none to mark)."""
    section = text.split("## Families that need a new rule system", 1)[1]
    found: dict[str, set[str | None]] = {}
    system: str | None = None
    for line in section.splitlines():
        if heading := re.match(r"### (.+?) \(\d+ cards?\)$", line):
            assert heading.group(1) in SYSTEMS, f"unknown rule system {heading.group(1)!r}"
            system = SYSTEMS[heading.group(1)]
        elif item := re.match(r"- (.+?)(?: \(partly\))?: ", line):
            partly = "(partly)" in line.split(":", 1)[0]
            names = _heroes(text) if item.group(1) == "<Nation> Hero" else [item.group(1)]
            for name in names:
                found.setdefault(slug(name), set()).add(None if partly else system)
    expected: dict[str, str | None] = {}
    for ability_id, systems in found.items():
        if ability_id in PLAYS_ALREADY or systems == {None}:
            expected[ability_id] = None
        else:
            system = next(s for s in PREFERENCE if s in systems)
            expected[ability_id] = None if system in BUILT else system
    return expected


def _unresolved(labels: list[str], abilities: Mapping[str, AbilityInfo]) -> list[str]:
    """The labels that don't name a known ability with the right number-ness."""
    bad = []
    for label in labels:
        name, number = split_label(label)
        info = abilities.get(slug(name))
        if info is None or info.takes_number != (number is not None):
            bad.append(label)
    return bad


def _wrong_needs(expected: dict[str, str | None], abilities: Mapping[str, AbilityInfo]) -> list[str]:
    """Abilities whose `needs` differs from the reference, listed or not (unlisted ones need nothing)."""
    wrong = [i for i, need in expected.items() if i not in abilities or abilities[i].needs != need]
    wrong += [i for i, info in abilities.items() if i not in expected and info.needs is not None]
    return sorted(wrong)


def test_every_catalogue_label_resolves_with_its_number() -> None:
    labels = _labels()
    assert len(labels) > 150
    assert not _unresolved(labels, ABILITIES)


def test_labels_are_split_into_name_and_number() -> None:
    assert find_ability("HE round") is find_ability("HE Round") is ABILITIES["he-round"]
    assert split_label("Coordinated Fire (C. A.)") == ("Coordinated Fire (C. A.)", None)
    assert ABILITIES["coordinated-fire-c-a"] is not ABILITIES["coordinated-fire"]
    assert split_label("Steely Resolve 2") == ("Steely Resolve", 2)
    assert (
        split_label("U.K. Hero") == ("U.K. Hero", None) and find_ability("U.K. Hero") is ABILITIES["u-k-hero"]
    )


def test_a_missing_or_misnumbered_ability_is_caught() -> None:
    labels = _our_labels()
    assert len(labels) > 150 and not _unresolved(labels, ABILITIES)
    without = {i: a for i, a in ABILITIES.items() if i != "robust"}
    assert _unresolved(labels, without) == ["Robust"]
    numberless = dict(ABILITIES, fury=attrs.evolve(ABILITIES["fury"], takes_number=False))
    assert _unresolved(labels, numberless) == ["Fury 2"]


def test_ids_are_unique_and_entries_sorted_by_name() -> None:
    ids = [ability.id for ability in _ALL]
    assert len(ids) == len(set(ids)) == len(ABILITIES)
    names = [ability.name for ability in _ALL]
    assert names == sorted(names, key=str.casefold)


def test_every_template_is_one_line() -> None:
    for ability in _ALL:
        assert "\n" not in ability.template and ability.template.strip() == ability.template, ability.id
        assert ("{n}" in ability.template) <= ability.takes_number, ability.id


def test_needs_match_the_reference_rule_systems() -> None:
    expected = _expected_needs(_reference_text())
    assert expected["spotter"] is None  # its indirect-fire half plays; its aircraft half comes with aircraft
    assert expected["u-s-hero"] is None and expected["minefield"] is None and expected["amphibious"] is None
    assert expected["antiair-support"] is None
    assert expected["bridge-demolition"] is None and expected["paratrooper-commander"] is None
    assert expected["guard-crew"] is None and expected["antiair"] is None
    assert not _wrong_needs(expected, ABILITIES)


def test_a_wrong_need_is_caught() -> None:
    expected = _expected_needs(_reference_text())
    stale = dict(ABILITIES, **{"antiair-support": attrs.evolve(ABILITIES["antiair-support"], needs=AIRCRAFT)})
    assert _wrong_needs(expected, stale) == ["antiair-support"]
    added = dict(ABILITIES, robust=attrs.evolve(ABILITIES["robust"], needs=WATER))
    assert _wrong_needs(expected, added) == ["robust"]


def test_command_abilities_are_commander_abilities() -> None:
    """A disrupted commander's commander abilities don't work (2005 rulebook, Commander Abilities)."""
    for ability_id in (
        "command-awareness",
        "command-leadership",
        "command-quick-reactions",
        "command-ruthless",
    ):
        assert ABILITIES[ability_id].commander, ability_id
    assert ABILITIES["coordinated-fire-c-a"].commander
    assert not ABILITIES["recon"].commander and not ABILITIES["organization"].commander
