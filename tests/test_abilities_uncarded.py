"""Abilities in the catalogue that no Base Set card uses (so no rules-test file can show them): Stars &
Stripes, Gung Ho, Urban Combat, Undermanned, Poor Suspension. Tested on copies of real cards with the
ability swapped in."""

from __future__ import annotations

import attrs
from engine_support import board, position

from minis.ability_catalogue import ABILITIES
from minis.cards import AbilityRef, StatCard, card_catalogue
from minis.game import Game
from minis.hexgrid import Facing
from minis.rules.errors import IllegalAction
from minis.sides import Side
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


def test_gung_ho_plus_one_on_defensive_fire_only() -> None:
    rifle = card_with("smle-no-4-rifleman", "gung-ho")
    units = [put("rifle", rifle, "allies", "A1"), put("mover", "mauser-kar-98k", "axis", "A2")]
    game = position(B, units, phase="movement", active="axis")
    game.apply("move mover B1")
    attack(game, "fire rifle at B1", [3, 3, 3, 3, 1, 1, 1, 1])  # +1 each: four successes
    assert game.state.units["mover"].disrupted


def test_gung_ho_not_on_normal_attacks() -> None:
    rifle = card_with("smle-no-4-rifleman", "gung-ho")
    units = [put("rifle", rifle, "allies", "A1"), put("target", "mauser-kar-98k", "axis", "A2")]
    game = position(B, units, phase="assault", active="allies")
    attack(game, "attack rifle target", [3, 3, 3, 3, 1, 1, 1, 1])
    assert game.state.units["target"].pending == ()


def test_urban_combat_plus_one_cover_in_town() -> None:
    rifle = card_with("mas-7-5mm-rifle", "urban-combat")
    units = [put("rifle", rifle, "allies", "A3"), put("attacker", "mauser-kar-98k", "axis", "A1")]
    game = position(B, units, phase="assault", active="axis")
    attack(game, "attack attacker rifle", [6, 6, 6, 6, 6, 1, 3])  # two hits; cover 3 + 1 succeeds
    assert game.state.units["rifle"].pending == (Counter.DISRUPTED,)


def test_undermanned_no_attack_while_disrupted() -> None:
    tank = card_with("renault-r-35", "undermanned")
    units = [put("tank", tank, "allies", "A1", disrupted=True), put("target", "mauser-kar-98k", "axis", "A3")]
    game = position(B, units, phase="assault", active="allies")
    try:
        game.apply("attack tank target")
    except IllegalAction as error:
        assert "ability" in error.reason
    else:  # pragma: no cover - a failure message
        raise AssertionError("a disrupted Undermanned unit attacked")


def test_undermanned_attacks_when_not_disrupted() -> None:
    tank = card_with("renault-r-35", "undermanned")
    units = [put("tank", tank, "allies", "A1"), put("target", "mauser-kar-98k", "axis", "A3")]
    game = position(B, units, phase="assault", active="allies")
    attack(game, "attack tank target", [1] * 6)


def test_poor_suspension_no_hill_off_road() -> None:
    tank = card_with("type-95-ha-go", "poor-suspension")
    game = position(B, [put("tank", tank, "axis", "B3")], phase="movement", active="axis")
    assert game.is_legal("move tank B4") is not None
    assert game.is_legal("move tank B2") is None


def test_poor_suspension_hill_along_road() -> None:
    roads = board(
        """
C C T C C C
 C C C H C
""",
        roads=("B3 B4",),
    )
    tank = card_with("type-95-ha-go", "poor-suspension")
    unit = Unit("tank", tank, Side.AXIS, roads.parse("B3"), Facing.E)
    game = position(roads, [unit], phase="movement", active="axis")
    assert game.is_legal("move tank B4") is None


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
