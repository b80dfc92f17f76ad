"""Abilities whose every card waits for a rule system the engine lacks (indirect fire and spotters, water,
special deployment): the engine refuses those cards, so no rules-test file can show the ability. They are
tested here on copies of their real cards with only the waiting abilities taken out, and each ability's
scenario also fails with the ability switched off (as tests/test_abilities_mutation.py does for the
rules tests). tests/test_abilities_mutation.py checks that `TESTED_ON_COPIES` lists every such ability.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest
from engine_support import board, position

from minis.ability_api import Ability, AbilityRegistry, ability
from minis.ability_catalogue import ABILITIES
from minis.ability_loader import standard_abilities
from minis.board import Board
from minis.cards import StatCard, card_catalogue
from minis.game import Game
from minis.hexgrid import Facing
from minis.rules.errors import IllegalAction
from minis.sides import Side
from minis.state import Counter, Unit

#: A forest hex at A3, clear elsewhere (cover against attacks into A3).
WOODS = board("""
C C F C C C C C C
 C C C C C C C C
""")
#: All clear: no cover roll anywhere.
OPEN = board("""
C C C C C C
 C C C C C
""")
#: A town hex at A3.
TOWN = board("""
C C T C C C
 C C C C C
""")


# --- shared helpers --------------------------------------------------------------------------------


def card_without_waiting(card_id: str) -> StatCard:
    """A copy of a real card without the abilities the shipped rule set can't play yet. Only abilities
    that wait for a rule system (`needs`) may go, so the copy keeps everything else the card does."""
    card = card_catalogue()[card_id]
    implemented = standard_abilities().ids
    dropped = [ref.id for ref in card.abilities if ref.id not in implemented]
    assert dropped and all(ABILITIES[i].needs for i in dropped), (card_id, dropped)
    kept = tuple(ref for ref in card.abilities if ref.id in implemented)
    return attrs.evolve(card, id=f"{card_id}-test", abilities=kept)


def put(
    uid: str,
    card: StatCard | str,
    side: str,
    at: str,
    facing: Facing = Facing.E,
    on: Board = WOODS,
    **changes: object,
) -> Unit:
    """A unit of `card` (a card id or a copy) on board `on`; only a Vehicle keeps the facing."""
    if isinstance(card, str):
        card = card_catalogue()[card]
    chosen = facing if card.is_vehicle else None
    return Unit(uid, card, Side.parse(side), on.parse(at), chosen, **changes)  # type: ignore[arg-type]


def play(
    units: list[Unit],
    rules: AbilityRegistry,
    active: str = "allies",
    phase: str = "assault",
    on: Board = WOODS,
) -> Game:
    """A position with `rules` as the rule set (the shipped one, or one with an ability switched off)."""
    return position(on, units, phase=phase, active=active, abilities=rules)


def roll(game: Game, action: str | None, dice: list[int]) -> None:
    """Apply `action` with exactly these dice (None: an automatic phase waiting for dice)."""
    if action is None:
        game.push_dice(dice)
    else:
        game.dice.push(dice)
        game.apply(action)
    assert not game.waiting_for_dice()
    assert not game.dice.unused()


def off(ability_id: str) -> AbilityRegistry:
    """The shipped rule set with one ability's hooks replaced by the do-nothing base class."""
    return standard_abilities().with_classes(ability(ability_id)(type("Off", (Ability,), {})))


SHIPPED = standard_abilities()


# --- Concealed (Disciplined Spotter without Spotter and Chatting on the Radio) -----------------------

SPOTTER = card_without_waiting("disciplined-spotter")


def concealed_in_forest_long_range(rules: AbilityRegistry) -> None:
    units = [put("sherman", "m4a1-sherman", "axis", "A8", Facing.W), put("spotter", SPOTTER, "allies", "A3")]
    game = play(units, rules, active="axis")
    with pytest.raises(IllegalAction, match="an ability keeps"):
        game.apply("attack sherman spotter")


def test_concealed_in_cover_no_attack_from_long_range() -> None:
    concealed_in_forest_long_range(SHIPPED)


def test_concealed_medium_range_allowed() -> None:
    units = [put("sherman", "m4a1-sherman", "axis", "A7", Facing.W), put("spotter", SPOTTER, "allies", "A3")]
    game = play(units, SHIPPED, active="axis")
    roll(game, "attack sherman spotter", [6, 6, 6, 1, 1, 1, 1, 1, 1, 1])  # 9 dice: one hit; cover 1
    assert game.state.units["spotter"].pending == (Counter.DISRUPTED,)


def test_concealed_without_cover_long_range_allowed() -> None:
    units = [put("sherman", "m4a1-sherman", "axis", "B7", Facing.W), put("spotter", SPOTTER, "allies", "B2")]
    game = play(units, SHIPPED, active="axis")
    roll(game, "attack sherman spotter", [6, 6, 6, 1, 1, 1, 1])  # long: 7 dice, one hit, clear: no cover
    assert game.state.units["spotter"].pending == (Counter.DISRUPTED,)


# --- Low Silhouette (T-38 without Amphibious) -------------------------------------------------------

T38 = card_without_waiting("t-38-light-amphibious-tank")


def low_silhouette_six_in_the_open(rules: AbilityRegistry) -> None:
    units = [put("sherman", "m4a1-sherman", "axis", "B1"), put("t38", T38, "allies", "B4", Facing.W)]
    game = play(units, rules, active="axis")
    # medium: 11 dice, 3 successes > front 2: two hits; a clear hex, yet a cover die: 6 succeeds
    roll(game, "attack sherman t38", [6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 6])
    assert game.state.units["t38"].pending == (Counter.DISRUPTED,)


def test_low_silhouette_cover_roll_in_the_open() -> None:
    low_silhouette_six_in_the_open(SHIPPED)


def test_low_silhouette_five_fails_in_the_open() -> None:
    units = [put("sherman", "m4a1-sherman", "axis", "B1"), put("t38", T38, "allies", "B4", Facing.W)]
    game = play(units, SHIPPED, active="axis")
    roll(game, "attack sherman t38", [6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 5])
    assert game.state.units["t38"].pending == (Counter.DISRUPTED, Counter.DAMAGED)


def test_low_silhouette_terrain_cover_unchanged() -> None:
    units = [put("sherman", "m4a1-sherman", "axis", "A1"), put("t38", T38, "allies", "A3", Facing.W)]
    game = play(units, SHIPPED, active="axis")
    roll(game, "attack sherman t38", [6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 5])  # forest: 5+ as usual
    assert game.state.units["t38"].pending == (Counter.DISRUPTED,)


# --- Subtle (Yugoslav Partisan Infantry without Partisan) -------------------------------------------

PARTISAN = card_without_waiting("yugoslav-partisan-infantry")


def subtle_plus_one_at_long_range(rules: AbilityRegistry) -> None:
    units = [
        put("sherman", "m4a1-sherman", "axis", "A8", Facing.W),
        put("partisan", PARTISAN, "allies", "A3"),
    ]
    game = play(units, rules, active="axis")
    # long: 7 dice, 5 successes > defense 4: two hits; forest cover die 3 + 1 = 4 succeeds
    roll(game, "attack sherman partisan", [6, 6, 6, 6, 6, 1, 1, 3])
    assert game.state.units["partisan"].pending == (Counter.DISRUPTED,)


def test_subtle_cover_plus_one_at_long_range() -> None:
    subtle_plus_one_at_long_range(SHIPPED)


def test_subtle_no_bonus_at_medium_range() -> None:
    units = [
        put("sherman", "m4a1-sherman", "axis", "A7", Facing.W),
        put("partisan", PARTISAN, "allies", "A3"),
    ]
    game = play(units, SHIPPED, active="axis")
    roll(game, "attack sherman partisan", [6, 6, 6, 6, 6, 1, 1, 1, 1, 3])  # 9 dice; cover 3 fails
    assert game.state.units["partisan"].pending == (Counter.DISRUPTED, Counter.DESTROYED)


# --- Open-exposed Crew (Type 4 Ho-Ro without Indirect Fire) -----------------------------------------

HORO = card_without_waiting("type-4-ho-ro")


def open_crew_front_attack(rules: AbilityRegistry) -> None:
    units = [put("rifle", "smle-no-4-rifleman", "allies", "A2"), put("horo", HORO, "axis", "A3", Facing.W)]
    game = play(units, rules)
    # the rifle is in the Ho-Ro's front arc: its 8 anti-Soldier dice, 4 successes = front 4: one hit
    roll(game, "attack rifle horo", [6, 6, 6, 6, 1, 1, 1, 1, 1])  # forest: cover die 1 fails
    assert game.state.units["horo"].pending == (Counter.DISRUPTED,)


def test_open_exposed_crew_front_attack_with_anti_soldier_dice() -> None:
    open_crew_front_attack(SHIPPED)


def test_open_exposed_crew_rear_attack_too() -> None:
    units = [put("rifle", "smle-no-4-rifleman", "allies", "A4"), put("horo", HORO, "axis", "A3", Facing.W)]
    game = play(units, SHIPPED)
    roll(game, "attack rifle horo", [6, 6, 1, 1, 1, 1, 1, 1, 1])  # rear 2: 2 successes, one hit; cover 1
    assert game.state.units["horo"].pending == (Counter.DISRUPTED,)


# --- Endurance (Hero of the Soviet Union without Soviet Hero) ---------------------------------------

SOVIET_HERO = card_without_waiting("hero-of-the-soviet-union")


def _hero(rules: AbilityRegistry, pending: tuple[Counter, ...]) -> Game:
    units = [
        put("hero", SOVIET_HERO, "allies", "A1", on=OPEN, pending=pending),
        put("rifle", "mauser-kar-98k", "axis", "A6", on=OPEN),
    ]
    return play(units, rules, phase="casualty", on=OPEN)


def endurance_throws_the_destroyed_counter_away(rules: AbilityRegistry) -> None:
    game = _hero(rules, (Counter.DISRUPTED, Counter.DESTROYED))
    roll(game, None, [5, 4, 4, 3, 3])  # the Endurance die, then initiative
    hero = game.state.units["hero"]
    assert not hero.removed and hero.disrupted  # its Disrupted counter still counts


def test_endurance_throws_the_destroyed_counter_away_on_a_five() -> None:
    endurance_throws_the_destroyed_counter_away(SHIPPED)


def test_endurance_a_four_is_not_enough() -> None:
    game = _hero(SHIPPED, (Counter.DISRUPTED, Counter.DESTROYED))
    roll(game, None, [4, 4, 4, 3, 3])
    assert game.state.units["hero"].removed


def test_endurance_no_die_without_a_destroyed_counter() -> None:
    game = _hero(SHIPPED, (Counter.DISRUPTED,))
    roll(game, None, [4, 4, 3, 3])  # initiative only
    assert game.state.units["hero"].disrupted


# --- Hardened Veteran (Veteran Fallschirmjager without Paratrooper) ---------------------------------

VETERAN = card_without_waiting("veteran-fallshirmjager")


def _veteran(disrupted: bool = False) -> list[Unit]:
    return [
        put("vet", VETERAN, "axis", "A1", on=OPEN, disrupted=disrupted),
        put("target", "m1-garand-rifle", "allies", "A3", on=OPEN),
    ]


def hardened_veteran_rolls_one_die_again(rules: AbilityRegistry) -> None:
    game = play(_veteran(), rules, active="axis", on=OPEN)
    roll(game, "attack vet target", [6, 6, 6, 1, 1, 1, 1, 6])  # medium 7 dice: 3 < 4; the 1 again: 6
    assert game.state.units["target"].pending == (Counter.DISRUPTED,)


def test_hardened_veteran_rolls_one_attack_die_again() -> None:
    hardened_veteran_rolls_one_die_again(SHIPPED)


def test_hardened_veteran_once_a_turn() -> None:
    units = [*_veteran(), put("mover", "m1-garand-rifle", "allies", "A2", on=OPEN)]
    game = play(units, SHIPPED, active="allies", phase="movement", on=OPEN)
    game.apply("move mover B1")
    roll(game, "fire vet at B1", [6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 6])  # short 10 dice: 3; again: 6 -> hit
    assert game.state.units["mover"].disrupted
    for _ in range(3):  # the Allied and Axis movement phases, the Allied assault phase
        game.apply("pass")
    roll(game, "attack vet target", [6, 6, 6, 1, 1, 1, 1])  # spent this turn: no die again
    assert game.state.units["target"].pending == ()


def test_hardened_veteran_moves_while_disrupted() -> None:
    game = play(_veteran(disrupted=True), SHIPPED, active="axis", phase="movement", on=OPEN)
    game.apply("move vet A2")
    assert game.state.units["vet"].hex == OPEN.parse("A2")


# --- Vast Experience (Grizzled Veteran without German Hero) -----------------------------------------

GRIZZLED = card_without_waiting("grizzled-veteran")


def _grizzled(rules: AbilityRegistry, dice: list[int]) -> Unit:
    """The Grizzled Veteran attacks a rifle next to it (short range: 9 dice; defense 4); the rifle after."""
    units = [
        put("vet", GRIZZLED, "axis", "A1", on=OPEN),
        put("rifle", "smle-no-4-rifleman", "allies", "A2", on=OPEN),
    ]
    game = play(units, rules, active="axis", on=OPEN)
    roll(game, "attack vet rifle", dice)
    return game.state.units["rifle"]


def vast_experience_six_counts_twice(rules: AbilityRegistry) -> None:
    rifle = _grizzled(rules, [6, 6, 1, 1, 1, 1, 1, 1, 1])  # two 6s: four successes = defense: one hit
    assert rifle.pending == (Counter.DISRUPTED,)


def test_vast_experience_each_six_counts_as_two_successes() -> None:
    vast_experience_six_counts_twice(SHIPPED)


def test_vast_experience_other_dice_count_once() -> None:
    rifle = _grizzled(SHIPPED, [6, 5, 4, 4, 1, 1, 1, 1, 1])  # 6 (two) + 5 + 4 + 4: five successes: two hits
    assert rifle.pending == (Counter.DISRUPTED, Counter.DESTROYED)


def test_vast_experience_no_six_no_bonus() -> None:
    rifle = _grizzled(SHIPPED, [5, 5, 4, 1, 1, 1, 1, 1, 1])  # three successes < defense 4: no hit
    assert rifle.pending == ()


# --- Paratrooper Commander ("Screaming Eagle" Captain without Paratrooper) --------------------------

CAPTAIN = card_without_waiting("screaming-eagle-captain")
PARATROOPERS = card_without_waiting("defiant-paratroopers")  # still of subtype Paratrooper


def _next_to_the_captain(rules: AbilityRegistry, soldier: StatCard | str, dice: list[int]) -> Unit:
    """A Soldier next to the captain attacks a rifle next to it (short range); the rifle after."""
    units = [
        put("captain", CAPTAIN, "allies", "A1", on=OPEN),
        put("soldier", soldier, "allies", "A2", on=OPEN),
        put("rifle", "mauser-kar-98k", "axis", "A3", on=OPEN),
    ]
    game = play(units, rules, on=OPEN)
    roll(game, "attack soldier rifle", dice)
    return game.state.units["rifle"]


def paratrooper_commander_extra_die(rules: AbilityRegistry) -> None:
    rifle = _next_to_the_captain(rules, PARATROOPERS, [6, 6, 6, 6, 1, 1, 1, 1, 1, 1])  # 9 + 1 dice
    assert rifle.pending == (Counter.DISRUPTED,)


def test_paratrooper_commander_extra_die_for_a_paratrooper_next_to_it() -> None:
    paratrooper_commander_extra_die(SHIPPED)


def test_paratrooper_commander_no_die_for_other_soldiers() -> None:
    rifle = _next_to_the_captain(SHIPPED, "smle-no-4-rifleman", [6, 6, 6, 6, 1, 1, 1, 1])  # 8 dice only
    assert rifle.pending == (Counter.DISRUPTED,)


# --- Heavy Transport (Higgins Boat without Water Craft) ---------------------------------------------

HIGGINS = card_without_waiting("higgins-boat")


def _boat(rules: AbilityRegistry, aboard: list[str], boarding: str) -> Game:
    """The Higgins Boat at A1 carrying the units of `aboard`, and unit "new" of card `boarding` in its hex
    (boarded units don't count for stacking), in the Allied movement phase."""
    units = [
        put("boat", HIGGINS, "allies", "A1", on=OPEN),
        *(
            put(f"aboard{n}", card, "allies", "A1", on=OPEN, carried_by="boat")
            for n, card in enumerate(aboard)
        ),
        put("new", boarding, "allies", "A1", on=OPEN),
    ]
    return play(units, rules, phase="movement", on=OPEN)


def heavy_transport_second_artillery(rules: AbilityRegistry) -> None:
    game = _boat(rules, ["17-pounder-anti-tank-gun"], "2-pounder-anti-tank-gun")  # a Large gun aboard
    game.apply("board new boat")  # Large Transport would refuse a second Artillery unit
    assert game.state.units["new"].carried_by == "boat"


def test_heavy_transport_carries_two_artillery_units() -> None:
    heavy_transport_second_artillery(SHIPPED)


def test_heavy_transport_carries_two_soldiers() -> None:
    game = _boat(SHIPPED, ["smle-no-4-rifleman"], "smle-no-4-rifleman")
    game.apply("board new boat")
    game.apply("move boat A2 A3")
    riders = {u.id for u in game.state.units.values() if u.carried_by == "boat" and u.hex == OPEN.parse("A3")}
    assert riders == {"aboard0", "new"}


def test_heavy_transport_no_third_soldier() -> None:
    game = _boat(SHIPPED, ["smle-no-4-rifleman", "2-pounder-anti-tank-gun"], "smle-no-4-rifleman")
    assert game.is_legal("board new boat") is not None


# --- Urban Combat (Communist Partisans without Partisan) --------------------------------------------

COMMUNISTS = card_without_waiting("communist-partisans")


def urban_combat_plus_one_cover_in_town(rules: AbilityRegistry) -> None:
    units = [
        put("partisans", COMMUNISTS, "allies", "A3", on=TOWN),
        put("rifle", "mauser-kar-98k", "axis", "A1", on=TOWN),
    ]
    game = play(units, rules, active="axis", on=TOWN)
    roll(game, "attack rifle partisans", [6, 6, 6, 6, 6, 1, 3])  # two hits; town cover 3 + 1 succeeds
    assert game.state.units["partisans"].pending == (Counter.DISRUPTED,)


def test_urban_combat_plus_one_cover_in_town() -> None:
    urban_combat_plus_one_cover_in_town(SHIPPED)


def test_urban_combat_not_outside_town() -> None:
    units = [
        put("partisans", COMMUNISTS, "allies", "B2", on=TOWN),
        put("rifle", "mauser-kar-98k", "axis", "A1", on=TOWN),
    ]
    game = play(units, SHIPPED, active="axis", on=TOWN)
    roll(game, "attack rifle partisans", [6, 6, 6, 6, 6, 1])  # medium: 6 dice, two hits; clear: no cover
    assert game.state.units["partisans"].pending == (Counter.DISRUPTED, Counter.DESTROYED)


# --- Firepower (Intrepid Hero without Canadian Hero) ------------------------------------------------

INTREPID = card_without_waiting("intrepid-hero")


def _intrepid(rules: AbilityRegistry, near: str, far: str) -> Game:
    """The hero at A1 with an Axis rifle at `near` and another at `far`, in the Allied assault phase."""
    units = [
        put("hero", INTREPID, "allies", "A1", on=OPEN),
        put("near", "mauser-kar-98k", "axis", near, on=OPEN),
        put("far", "mauser-kar-98k", "axis", far, on=OPEN),
    ]
    return play(units, rules, on=OPEN)


def firepower_second_attack_in_own_hex(rules: AbilityRegistry) -> None:
    game = _intrepid(rules, "A1", "A3")
    roll(game, "attack hero far", [1, 1, 1, 1, 1, 1])  # medium: 6 dice
    roll(game, "attack hero near", [6, 6, 6, 6, 1, 1, 1, 1, 1])  # Hand to Hand 9 in its own hex
    assert game.state.units["near"].pending == (Counter.DISRUPTED,)


def test_firepower_one_more_attack_in_own_hex_after_attacking() -> None:
    firepower_second_attack_in_own_hex(SHIPPED)


def test_firepower_attack_in_own_hex_after_moving() -> None:
    game = _intrepid(SHIPPED, "A2", "A4")
    roll(game, "move hero A2", [])
    with pytest.raises(IllegalAction):
        game.apply("attack hero far")  # only a unit in its own hex
    roll(game, "attack hero near", [6, 6, 6, 6, 1, 1, 1, 1, 1])  # Hand to Hand 9 in its own hex
    assert game.state.units["near"].pending == (Counter.DISRUPTED,)


# --- Improvisation (Resourceful Hero without U.S. Hero) ---------------------------------------------

RESOURCEFUL = card_without_waiting("resourceful-hero")


def _panzer_lost_in_the_heros_hex(rules: AbilityRegistry, hero_moves_to: str | None) -> Game:
    """The hero destroys a Panzer in its own hex (A1); the turn goes on to the Allied assault phase of
    turn 2, the hero moving to `hero_moves_to` on the way if given. Another Panzer waits at A4."""
    units = [
        put("hero", RESOURCEFUL, "allies", "A1", on=OPEN),
        put("wreck", "panzer-iii-ausf-f", "axis", "A1", Facing.W, on=OPEN),
        put("enemy", "panzer-iii-ausf-f", "axis", "A4", Facing.W, on=OPEN),
    ]
    game = play(units, rules, on=OPEN)
    # Close Assault 8 on the Panzer in its hex: 6 successes against 3: three hits, Destroyed.
    roll(game, "attack hero wreck", [6, 6, 6, 6, 6, 6, 1, 1])
    roll(game, "pass", [])
    roll(game, "pass", [4, 4, 3, 3])  # casualty phase (the Panzer goes), initiative: Axis 8, Allies 6
    roll(game, "first axis", [])
    roll(game, "pass", [])  # Axis movement
    roll(game, f"move hero {hero_moves_to}" if hero_moves_to else "pass", [])  # Allied movement
    roll(game, "pass", [])  # Axis assault
    assert game.state.units["wreck"].removed
    return game


def improvisation_takes_over_a_lost_units_attack(rules: AbilityRegistry) -> None:
    game = _panzer_lost_in_the_heros_hex(rules, None)
    # The Panzer's 8 dice against Vehicles at medium range (the hero's own card has no such attack).
    roll(game, "attack hero enemy", [6, 6, 6, 6, 1, 1, 1, 1])
    assert game.state.units["enemy"].pending == (Counter.DISRUPTED, Counter.DAMAGED)


def test_improvisation_takes_over_a_lost_units_attack() -> None:
    improvisation_takes_over_a_lost_units_attack(SHIPPED)


def test_improvisation_lost_after_leaving_the_hex() -> None:
    game = _panzer_lost_in_the_heros_hex(SHIPPED, "B1")
    with pytest.raises(IllegalAction):
        game.apply("attack hero enemy")


# --- each ability switched off fails its scenario --------------------------------------------------

SWITCHED: list[tuple[str, Callable[[AbilityRegistry], None]]] = [
    ("concealed", concealed_in_forest_long_range),
    ("low-silhouette", low_silhouette_six_in_the_open),
    ("subtle", subtle_plus_one_at_long_range),
    ("open-exposed-crew", open_crew_front_attack),
    ("endurance", endurance_throws_the_destroyed_counter_away),
    ("hardened-veteran", hardened_veteran_rolls_one_die_again),
    ("vast-experience", vast_experience_six_counts_twice),
    ("paratrooper-commander", paratrooper_commander_extra_die),
    ("heavy-transport", heavy_transport_second_artillery),
    ("urban-combat", urban_combat_plus_one_cover_in_town),
    ("firepower", firepower_second_attack_in_own_hex),
    ("improvisation", improvisation_takes_over_a_lost_units_attack),
]

#: The abilities this module tests on copies of their cards (each with a switched-off check).
TESTED_ON_COPIES: frozenset[str] = frozenset(ability_id for ability_id, _ in SWITCHED)


@pytest.mark.parametrize(("ability_id", "scenario"), SWITCHED, ids=[a for a, _ in SWITCHED])
def test_switched_off_fails(ability_id: str, scenario: Callable[[AbilityRegistry], None]) -> None:
    scenario(SHIPPED)  # it passes with the ability on
    try:
        scenario(off(ability_id))
    except (AssertionError, IllegalAction, pytest.fail.Exception):  # pytest.raises not raising is a fail
        return
    pytest.fail(f"the scenario still passes with {ability_id} switched off")
