"""Abilities of the catalogue that no rules-test file can show: Stars & Stripes (no card has it; the M1
Garand Rifle's 2005 name for Coordinated Fire), and Blast's separate cover rolls (every card with Blast
also has Bombardment, which takes the cover rolls away). Tested on copies of real cards with the abilities
swapped in. Abilities whose every card waits for a rule system are in
tests/test_abilities_waiting_cards.py; Gung Ho, Poor Suspension and Undermanned have rules tests with
their own cards in tests/rules/abilities/."""

from __future__ import annotations

import attrs
from engine_support import board, position

from minis.base.sides import Side
from minis.cards import AbilityRef, StatCard, card_catalogue
from minis.content.ability_catalogue import ABILITIES
from minis.game import Game
from minis.hexgrid import Facing
from minis.state import Counter, Unit

B = board("""
C C T C C C
 C C C H C
""")


def card_with(card_id: str, *ability_ids: str) -> StatCard:
    """A copy of a real card whose abilities are replaced by `ability_ids`."""
    refs = tuple(
        AbilityRef(i, ABILITIES[i].name, None, ABILITIES[i].describe(None), ABILITIES[i].commander)
        for i in ability_ids
    )
    return attrs.evolve(card_catalogue()[card_id], id=f"{card_id}-test", abilities=refs)


def put(uid: str, card: StatCard | str, side: str, at: str, **changes: object) -> Unit:
    if isinstance(card, str):
        card = card_catalogue()[card]
    facing = Facing.E if card.is_vehicle else None
    return Unit(uid, card, Side.parse(side), B.parse(at), facing, **changes)  # type: ignore[arg-type]


def attack(game: Game, action: str, dice: list[int]) -> None:
    game.dice.push(dice)
    game.apply(action)
    assert not game.waiting_for_dice()
    assert not game.dice.unused()


def test_stars_and_stripes_extra_die_next_to_commander() -> None:
    rifle = card_with("m1-garand-rifle", "stars-stripes")
    units = [
        put("rifle", rifle, "allies", "B1"),
        put("captain", "red-devil-captain", "allies", "A1"),
        put("target", "mauser-kar-98k", "axis", "B3"),
    ]
    game = position(B, units, phase="assault", active="allies")
    attack(game, "attack rifle target", [6, 6, 6, 6, 1, 1, 1, 1])  # 7 + 1 dice
    assert game.state.units["target"].pending == (Counter.DISRUPTED,)


def test_stars_and_stripes_no_commander_no_die() -> None:
    rifle = card_with("m1-garand-rifle", "stars-stripes")
    units = [put("rifle", rifle, "allies", "B1"), put("target", "mauser-kar-98k", "axis", "B3")]
    game = position(B, units, phase="assault", active="allies")
    attack(game, "attack rifle target", [6, 6, 6, 6, 1, 1, 1])  # 7 dice


def test_blast_each_target_makes_its_own_cover_roll() -> None:
    """The sIG 33 also has Bombardment, so its cover rolls never happen; a copy with Blast alone shows the
    glossary's rule: each unit in the hex rolls its own cover, the chosen target first."""
    gun = card_with("sig-33", "blast", "fixed-howitzer")
    units = [
        put("gun", gun, "axis", "A1"),
        put("rifle", "smle-no-4-rifleman", "allies", "A3"),
        put("bar", "bar-gunner", "allies", "A3"),
    ]
    game = position(B, units, phase="assault", active="axis")
    two_hits = [6, 6, 6, 6, 6, 1, 1, 1, 1]
    attack(game, "attack gun rifle", [*two_hits, 4, *two_hits, 3])  # cover 4 succeeds, then 3 fails
    assert game.state.units["rifle"].pending == (Counter.DISRUPTED,)
    assert game.state.units["bar"].pending == (Counter.DISRUPTED, Counter.DESTROYED)
