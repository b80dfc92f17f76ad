"""Attack and Defense, Attack Effects and Cover as engine functions (rulebook tables and examples)."""

from __future__ import annotations

import attrs
import pytest
from engine_support import board, position, unit

from minis.dice import Dice
from minis.rules.combat import AttackPlan, hits_for, next_counter, place_hits, plan_attack, resolve_attack
from minis.state import Counter

OPEN = board("""
C C C C C C C C C C
 C C C C C C C C C
C C C C C C C C C C
""")


@pytest.mark.parametrize(
    ("successes", "defense", "hits"),
    [
        (3, 4, 0),
        (4, 4, 1),
        (5, 4, 2),
        (7, 4, 2),
        (8, 4, 3),
        (9, 4, 3),
        (6, 5, 2),
        (10, 5, 3),
        (1, 1, 1),
        (2, 1, 3),
        (0, 1, 0),
        (2, 2, 1),
        (3, 2, 2),
        (4, 2, 3),
    ],
)
def test_successes_to_hits_table(successes: int, defense: int, hits: int) -> None:
    assert hits_for(successes, defense) == hits


def _plan(game, attacker: str, target: str, defensive: bool = False) -> AttackPlan:
    plan = plan_attack(game.state, game.state.units[attacker], game.state.units[target], defensive)
    assert isinstance(plan, AttackPlan), plan
    return plan


def test_sherman_attacks_panzer_example() -> None:
    """Rulebook example: 11 dice at 4 hexes, six successes against front defense 5: two hits."""
    b = OPEN
    game = position(
        b,
        [
            unit(b, "sherman", "m4a1-sherman", "allies", "B1", "E"),
            unit(b, "panzer", "panzer-iv-ausf-g", "axis", "B5", "W"),
        ],
        phase="assault",
    )
    plan = _plan(game, "sherman", "panzer")
    assert (plan.dice, plan.defense, plan.modifier, plan.cover) == (11, 5, 0, None)
    state = game.state.clone()
    result = resolve_attack(state, plan, Dice.scripted([6, 6, 6, 5, 4, 4, 3, 3, 3, 1, 1]), [])
    assert (result.successes, result.hits) == (6, 2)
    assert state.units["panzer"].pending == (Counter.DISRUPTED, Counter.DAMAGED)


def test_front_and_rear_defense_follow_facing() -> None:
    b = OPEN
    units = [
        unit(b, "panzer", "m4a1-sherman", "axis", "B5", "E"),
        unit(b, "ahead", "m4a1-sherman", "allies", "B7", "W"),
        unit(b, "behind", "m4a1-sherman", "allies", "B3", "E"),
        unit(b, "same", "6-pounder-anti-tank-gun", "allies", "B5"),
    ]
    game = position(b, units, phase="assault")
    assert _plan(game, "ahead", "panzer").defense == 5
    assert _plan(game, "behind", "panzer").defense == 4
    assert _plan(game, "same", "panzer").defense == 4  # the same hex is rear


def test_penalties_for_disruption_and_damage_never_add() -> None:
    b = OPEN
    units = [
        unit(b, "tank", "m4a1-sherman", "allies", "B1", "E", status=("disrupted", "damaged")),
        unit(b, "target", "panzer-iv-ausf-g", "axis", "B3", "W", status=("disrupted", "damaged")),
    ]
    plan = _plan(position(b, units, phase="assault"), "tank", "target")
    assert plan.modifier == -1
    assert plan.defense == 4


def test_face_down_counters_do_not_weaken_the_target() -> None:
    b = OPEN
    units = [
        unit(b, "rifle", "mauser-kar-98k", "axis", "B1"),
        unit(b, "target", "m1-garand-rifle", "allies", "B2", pending=("disrupted",)),
    ]
    assert _plan(position(b, units, phase="assault", active="axis"), "rifle", "target").defense == 4


def test_no_attack_value_or_out_of_range_is_refused() -> None:
    b = OPEN
    units = [
        unit(b, "jeep", "jeep", "allies", "A1", "E"),
        unit(b, "rifle", "mauser-kar-98k", "axis", "A2"),
        unit(b, "far", "mauser-kar-98k", "axis", "A10"),
        unit(b, "sherman", "m4a1-sherman", "allies", "C1", "E"),
    ]
    game = position(b, units, phase="assault")
    state = game.state
    assert "no attack" in plan_attack(state, state.units["jeep"], state.units["rifle"])  # type: ignore[operator]
    assert "out of range" in plan_attack(state, state.units["sherman"], state.units["far"])  # type: ignore[operator]
    assert isinstance(plan_attack(state, state.units["sherman"], state.units["rifle"]), AttackPlan)


def test_line_of_sight_is_needed() -> None:
    b = board("""
C C C C C
 C F C C
C C C C C
""")
    units = [unit(b, "a", "mauser-kar-98k", "axis", "B1"), unit(b, "t", "m1-garand-rifle", "allies", "B3")]
    state = position(b, units, phase="assault", active="axis").state
    assert "line of sight" in plan_attack(state, state.units["a"], state.units["t"])  # type: ignore[operator]


def test_cover_roll_only_after_a_hit_and_only_in_defensive_terrain() -> None:
    b = board("""
C F C C C
 C M C C
""")
    units = [
        unit(b, "a", "mauser-kar-98k", "axis", "A1"),
        unit(b, "soldier", "m1-garand-rifle", "allies", "A2"),
        unit(b, "same", "m1-garand-rifle", "allies", "A1"),
    ]
    game = position(b, units, phase="assault", active="axis")
    plan = _plan(game, "a", "soldier")
    assert (plan.cover, plan.cover_modifier) == (4, 0)
    assert _plan(game, "a", "same").cover is None  # clear hex: no cover
    miss = Dice.scripted([1] * 8)
    resolve_attack(game.state.clone(), plan, miss, [])
    assert miss.remaining() == 0  # no cover die after a miss
    hit = Dice.scripted([6, 6, 6, 6, 6, 1, 1, 1, 4])  # 5 successes: two hits, cover 4 succeeds
    state = game.state.clone()
    result = resolve_attack(state, plan, hit, [])
    assert (result.hits, result.cover) == (2, True)
    assert state.units["soldier"].pending == (Counter.DISRUPTED,)


def test_same_hex_cover_penalty_and_vehicle_cover() -> None:
    b = board("""
T C C
 C C
""")
    units = [
        unit(b, "gun", "6-pounder-anti-tank-gun", "allies", "A1"),
        unit(b, "tank", "m4a1-sherman", "axis", "A1", "E"),
    ]
    plan = _plan(position(b, units, phase="assault"), "gun", "tank")
    assert (plan.cover, plan.cover_modifier) == (5, -1)


def test_vehicle_in_a_marsh_gets_no_cover() -> None:
    b = board(
        """
M C C
 C C
""",
        roads=("A1 A2",),
    )
    units = [unit(b, "a", "mauser-kar-98k", "axis", "B1"), unit(b, "jeep", "jeep", "allies", "A1", "E")]
    assert _plan(position(b, units, phase="assault", active="axis"), "a", "jeep").cover is None


@pytest.mark.parametrize(
    ("vehicle", "damaged", "pending", "expected"),
    [
        (False, False, (), Counter.DISRUPTED),
        (False, False, (Counter.DISRUPTED,), Counter.DESTROYED),
        (True, False, (), Counter.DISRUPTED),
        (True, False, (Counter.DISRUPTED,), Counter.DAMAGED),
        (True, True, (Counter.DISRUPTED,), Counter.DESTROYED),
        (True, False, (Counter.DISRUPTED, Counter.DAMAGED), Counter.DESTROYED),
    ],
)
def test_next_counter(vehicle: bool, damaged: bool, pending: tuple[Counter, ...], expected: Counter) -> None:
    card = "m4a1-sherman" if vehicle else "m1-garand-rifle"
    u = unit(
        OPEN, "u", card, "allies", "A1", "E" if vehicle else None, status=("damaged",) if damaged else ()
    )
    assert next_counter(attrs.evolve(u, pending=pending)) is expected


def test_hits_add_up_and_stop_at_destroyed() -> None:
    b = OPEN
    game = position(
        b, [unit(b, "t", "m4a1-sherman", "allies", "A1", "E"), unit(b, "s", "bazooka", "allies", "A2")]
    )
    state = game.state
    assert place_hits(state, state.units["t"], 1) == (Counter.DISRUPTED,)
    assert place_hits(state, state.units["t"], 3) == (Counter.DAMAGED, Counter.DESTROYED)
    assert place_hits(state, state.units["t"], 1) == ()
    assert place_hits(state, state.units["s"], 3) == (Counter.DISRUPTED, Counter.DESTROYED)


def test_defensive_fire_disrupts_at_once_and_cover_negates_it() -> None:
    b = board("""
C T C
 C C
""")
    units = [
        unit(b, "gun", "6-pounder-anti-tank-gun", "axis", "B1"),
        unit(b, "tank", "m4a1-sherman", "allies", "A2", "E"),
    ]
    game = position(b, units)
    plan = _plan(game, "gun", "tank", defensive=True)
    state = game.state.clone()
    resolve_attack(state, plan, Dice.scripted([6] * 11 + [4]), [])  # cover 4 fails for a Vehicle
    assert state.units["tank"].disrupted and state.units["tank"].pending == ()
    state = game.state.clone()
    resolve_attack(state, plan, Dice.scripted([6] * 11 + [5]), [])
    assert not state.units["tank"].disrupted


def test_blast_attacks_every_unit_in_the_hex_in_entry_order() -> None:
    b = OPEN
    units = [
        unit(b, "sig", "sig-33", "axis", "B1", "E"),
        unit(b, "rifle", "m1-garand-rifle", "allies", "B3"),
        unit(b, "friend", "mauser-kar-98k", "axis", "B3"),
    ]
    game = position(b, units, phase="assault", active="axis")
    game.state.units["friend"] = attrs.evolve(game.state.units["friend"], entered=5)
    game.push_dice([6] * 9 + [6] * 9)  # sIG 33: 9 dice against Soldiers at medium range, twice
    events = game.apply("attack sig rifle")
    attacks = [e.target for e in events if e.kind == "attack"]
    assert attacks == ["rifle", "friend"]
    assert game.state.units["friend"].pending == (Counter.DISRUPTED, Counter.DESTROYED)
    assert game.dice.remaining() == 0
