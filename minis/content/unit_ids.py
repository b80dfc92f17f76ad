"""Unit ids: how a battle names its units, so that a side's own ids tell it nothing of the other army.

Every unit, obstacle and preset of a battle has an id, unique in the battle, that actions name
("attack mauser-kar-98k#2 bazooka"). The secrets standard (issue 33) asks that nothing a side sees
carries the other army before the rules reveal it, and a side sees its own ids from the start. So an
id depends only on what is public (the scenario's presets, the card catalogue) and its own army:

- a scenario's presets keep their ids, made unique among the presets only (`preset_ids`);
- each army's units are numbered within that army (`card`, `card#2`, `card#3` ...), avoiding the
  presets' ids (`army_ids`);
- a card of no nation (an obstacle, a depot), which both armies may field, would still collide: the
  Allied copies carry a side mark, `allied-pillbox`, `allied-pillbox#2`, so neither side's copies need
  to know whether the other army has one.

Records of format 1 were written with the old numbering (`old_ids`): across both armies, Axis first,
then the presets made unique after the armies' units. A format-1 record replays with it, and a new game
whose ids are the same either way (every game without a card of no nation in the Allied army or an
army card named like a preset) is still written as format 1 (`minis.record`).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence

from minis.base.sides import Side
from minis.cards import StatCard

#: The id schemes, by the record format that uses them.
OLD_IDS = 1
ARMY_IDS = 2
#: The side mark of the Allied copies of a card both armies may field.
ALLIED_MARK = "allied-"


def unique_id(card_id: str, taken: Container[str]) -> str:
    """The unit id for another copy of a card: the card id, then `<id>#2`, `<id>#3`, ..."""
    if card_id not in taken:
        return card_id
    number = 2
    while f"{card_id}#{number}" in taken:
        number += 1
    return f"{card_id}#{number}"


def _numbered(bases: Iterable[str], taken: set[str]) -> list[str]:
    """Each base made unique against `taken` and the ones before it (`unique_id`; `taken` grows).

    Per base, the search goes on from the number that ended the last one (all below are taken), so an
    army of many copies is not numbered in quadratic time."""
    names: list[str] = []
    tried: dict[str, int] = {}
    for base in bases:
        name = base
        if name in taken:
            number = tried.get(base, 2)
            while f"{base}#{number}" in taken:
                number += 1
            tried[base] = number
            name = f"{base}#{number}"
        taken.add(name)
        names.append(name)
    return names


def preset_ids(ids: Iterable[str]) -> list[str]:
    """The presets' ids, in order, made unique among the presets only (the engine and the editor)."""
    return _numbered(ids, set())


def shared(card: StatCard) -> bool:
    """True for a card both armies may field (no nation: obstacles, depots)."""
    return card.side is None


def marked(card_id: str, card_ids: Container[str]) -> str:
    """The base of the Allied copies' ids of a shared card: `allied-<id>`, marked again while that is
    some card's id (the catalogue is public), so it is never the id of a card either army fields."""
    name = ALLIED_MARK + card_id
    while name in card_ids:
        name = ALLIED_MARK + name
    return name


def army_ids(
    cards: Sequence[StatCard], side: Side, presets: Iterable[str], card_ids: Container[str]
) -> list[str]:
    """The ids of an army's units (scheme 2): numbered within the army, avoiding the presets' ids, the
    Allied copies of a shared card marked. Nothing here looks at the other army."""
    bases = [marked(c.id, card_ids) if side is Side.ALLIES and shared(c) else c.id for c in cards]
    return _numbered(bases, set(presets))


def old_ids(
    armies: Sequence[Sequence[StatCard]], presets: Sequence[tuple[str, StatCard]]
) -> tuple[list[list[str]], list[str]]:
    """The ids of format 1 (the armies', then the presets'): the armies numbered across both, Axis
    first; each preset made unique after them, against the units that are not obstacles (those were
    taken out of the units before the map) and the earlier presets that are units, as the engine did."""
    taken: set[str] = set()
    names = [_numbered((card.id for card in cards), taken) for cards in armies]
    units = {
        name
        for cards, army in zip(armies, names, strict=True)
        for card, name in zip(cards, army, strict=True)
        if not card.is_obstacle
    }
    placed = []
    for preset_id, card in presets:
        name = unique_id(preset_id, units)
        if not card.is_obstacle:
            units.add(name)
        placed.append(name)
    return names, placed
