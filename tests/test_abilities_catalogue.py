"""Every ability a card may name has rule hooks, and each card's description says what the code does."""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import attrs
import pytest
from engine_support import board

from minis.ability_api import UnimplementedAbility
from minis.ability_catalogue import ABILITIES
from minis.ability_loader import standard_abilities
from minis.army import Army
from minis.cards import AbilityRef, StatCard, card_catalogue
from minis.game import Game
from minis.hexgrid import Facing
from minis.sides import Side
from minis.state import Unit


def test_every_ability_on_a_card_is_implemented() -> None:
    used = {ref.id for card in card_catalogue().values() for ref in card.abilities}
    assert len(used) >= 55  # 58 in the Base Set
    assert used <= standard_abilities().ids, sorted(used - standard_abilities().ids)


def test_every_catalogue_ability_is_implemented() -> None:
    """Abilities no Base Set card uses (Gung Ho, Urban Combat, ...) are implemented too."""
    assert set(ABILITIES) <= standard_abilities().ids, sorted(set(ABILITIES) - standard_abilities().ids)


def test_card_descriptions_are_the_catalogue_descriptions() -> None:
    """The catalogue's one-liners are written to match the implementation; cards repeat them."""
    for card in card_catalogue().values():
        for ref in card.abilities:
            assert ref.description == ref.info.describe(ref.number), (card.id, ref.id)


def test_every_card_has_handlers_for_all_its_abilities() -> None:
    for card in card_catalogue().values():
        assert len(standard_abilities().hooks(card).handlers) == len(card.abilities), card.id


RULES = Path(__file__).parent / "rules" / "abilities"
DOCS = Path(__file__).parent.parent / "docs" / "abilities.md"


def test_every_ability_rules_test_is_listed_in_the_docs() -> None:
    """docs/abilities.md names each file or a `prefix-*` pattern that matches it."""
    patterns = re.findall(r"`([a-z0-9*-]+)`", DOCS.read_text(encoding="utf-8"))
    missing = [p.stem for p in RULES.glob("*.toml") if not any(fnmatch(p.stem, pat) for pat in patterns)]
    assert not missing, f"not in docs/abilities.md: {missing}"


def test_every_ability_rules_test_names_its_source_and_can_fail() -> None:
    for path in sorted(RULES.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        assert data.get("title"), path.name
        assert "reference" in data["source"] or "rulebook" in data["source"], path.name
        refused = any(step.get("expect") == "illegal" for step in data.get("steps", []))
        assert data.get("checks") or refused, path.name


def _card_with_unknown_ability() -> StatCard:
    """The Ha-Go with Forest Runner, an ability named by one source whose text nobody knows."""
    hago = card_catalogue()["type-95-ha-go"]
    runner = AbilityRef("forest-runner", "Forest Runner", None, "unknown")
    return attrs.evolve(hago, abilities=(*hago.abilities, runner))


def test_a_position_with_an_unimplemented_ability_is_refused() -> None:
    card = _card_with_unknown_ability()
    b = board("""
C C C
 C C
""")
    ha_go = Unit("hago", card, Side.AXIS, b.parse("A1"), Facing.E)
    with pytest.raises(UnimplementedAbility, match=r"type-95-ha-go.*'Forest Runner'"):
        Game.from_position(b, [ha_go])


def test_a_battle_with_an_unimplemented_ability_is_refused() -> None:
    cards = dict(card_catalogue())
    cards["type-95-ha-go"] = _card_with_unknown_ability()
    axis = Army("a", Side.AXIS, units=("type-95-ha-go",))
    allies = Army("b", Side.ALLIES, units=("jeep",))
    with pytest.raises(UnimplementedAbility, match="Forest Runner"):
        Game.new(axis, allies, cards=cards, configuration=1)


def test_every_card_loads_into_a_game() -> None:
    """All 56 cards in one position, one unit per hex (no ability is refused)."""
    b = board("\n".join((" " if r % 2 else "") + "C " * 16 for r in range(6)))
    units = []
    for side, rows in ((Side.AXIS, "AB"), (Side.ALLIES, "EF")):
        cards = sorted((c for c in card_catalogue().values() if c.side is side), key=lambda c: c.id)
        for n, card in enumerate(cards):
            at = b.parse(f"{rows[n % 2]}{n // 2 + 1}")
            units.append(Unit(card.id, card, side, at, Facing.E if card.is_vehicle else None))
    assert len(units) == 56
    game = Game.from_position(b, units)
    assert set(game.state.units) == set(card_catalogue())
