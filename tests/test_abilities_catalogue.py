"""Every ability a card may name has rule hooks, and each card's description says what the code does."""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import attrs
import pytest
from engine_support import board

from minis.army import Army
from minis.base.sides import Side
from minis.board import Board
from minis.cards import AbilityRef, StatCard, card_catalogue
from minis.content.ability_catalogue import ABILITIES, OBSTACLES
from minis.engine.ability_api import UnimplementedAbility
from minis.engine.ability_loader import standard_abilities
from minis.game import Game
from minis.hexgrid import Facing
from minis.rules import obstacles
from minis.state import Unit


def test_every_ability_on_a_card_is_implemented() -> None:
    used = {ref.id for card in card_catalogue().values() for ref in card.abilities}
    assert len(used) >= 170  # 176 families on the catalogue's ground cards
    waiting = {info.id for info in ABILITIES.values() if info.needs}
    assert used - waiting <= standard_abilities().ids, sorted(used - waiting - standard_abilities().ids)


def test_every_catalogue_ability_is_implemented_unless_it_needs_a_rule_system_to_come() -> None:
    """Abilities no card uses (Gung Ho, Urban Combat, ...) are implemented too; only those that need a
    rule system the engine lacks (indirect fire, obstacles, ...) wait, and they say which."""
    waiting = {info.id for info in ABILITIES.values() if info.needs}
    lacking = set(ABILITIES) - standard_abilities().ids - waiting
    assert not lacking, sorted(lacking)


def test_card_descriptions_are_the_catalogue_descriptions() -> None:
    """The catalogue's one-liners are written to match the implementation; cards repeat them."""
    for card in card_catalogue().values():
        for ref in card.abilities:
            assert ref.description == ref.info.describe(ref.number), (card.id, ref.id)


def test_every_card_has_handlers_for_all_its_abilities() -> None:
    """A playable card has a handler per ability, in its order; a refused card lacks only abilities that
    wait for a rule system, and the engine says it needs exactly those systems."""
    registry = standard_abilities()
    for card in card_catalogue().values():
        handled = [ref.id for ref in card.abilities if ref.id in registry.ids]
        assert [type(h).id for h in registry.hooks(card).handlers] == handled, card.id
        missing = [ref.id for ref in card.abilities if ref.id not in registry.ids]
        if registry.playable(card):
            assert not missing, card.id
            continue
        assert all(i in ABILITIES and ABILITIES[i].needs for i in missing), (card.id, missing)
        systems = {ABILITIES[i].needs for i in missing} | ({OBSTACLES} if card.is_obstacle else set())
        assert set(registry.needs(card)) == systems, card.id


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


def _sixteen_columns() -> Board:
    """Six rows of 16 clear hexes: Axis units in rows A and B, Allied units in rows E and F."""
    return board("\n".join((" " if r % 2 else "") + "C " * 16 for r in range(6)))


def test_every_card_loads_into_a_game() -> None:
    """Every playable card in a position, one unit per hex, on as many boards as it takes (a card of no
    nation on both sides); every other card is refused, saying what it needs."""
    registry = standard_abilities()
    playable = sorted((c for c in card_catalogue().values() if registry.playable(c)), key=lambda c: c.id)
    by_side = {side: [c for c in playable if c.serves(side)] for side in Side}
    per_board = 32  # two rows of 16 hexes a side
    boards = max(-(-len(cards) // per_board) for cards in by_side.values())
    loaded: set[str] = set()
    for n in range(boards):
        b = _sixteen_columns()
        units = []
        for side, rows in ((Side.AXIS, "AB"), (Side.ALLIES, "EF")):
            for k, card in enumerate(by_side[side][n::boards]):
                at = b.parse(f"{rows[k % 2]}{k // 2 + 1}")
                facing = Facing.E if card.is_vehicle else None
                units.append(Unit(f"{card.id}@{side.value}", card, side, at, facing))
        game = Game.from_position(b, units)
        obstacle_ids = {o.id for o in obstacles.all_obstacles(game.state)}  # obstacles are not units
        assert set(game.state.units) | obstacle_ids == {u.id for u in units}
        loaded |= {u.card.id for u in units}
    assert loaded == {c.id for c in playable}
    refused = [c for c in card_catalogue().values() if not registry.playable(c)]
    assert len(playable) + len(refused) == len(card_catalogue())
    for card in refused:
        b = _sixteen_columns()
        side = card.side or Side.AXIS
        unit = Unit(card.id, card, side, b.parse("A1"), Facing.E if card.is_vehicle else None)
        with pytest.raises(UnimplementedAbility) as refusal:
            Game.from_position(b, [unit])
        assert all(need in str(refusal.value) for need in registry.needs(card)), card.id
