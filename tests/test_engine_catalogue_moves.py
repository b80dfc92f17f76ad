"""Moves of units whose abilities change where they may step (catalogue cards) take the fast search.

Step hooks that answer from the map alone (Thin Wheels, Poor and Excellent Suspension) are folded into a
per-map table, and Charge or Courage have no say until the unit is disrupted; only then does a unit take
the general search through `step`. The fast answers must be exactly the general search's: the same hexes
and the same path to each, in the same order, for every unit of random positions with such cards.
"""

from __future__ import annotations

import random

import attrs
import pytest
from engine_support import board, position, unit

from minis.ai.random_bot import RandomBot
from minis.army import Army
from minis.base.sides import Side
from minis.dice import Dice
from minis.engine.ability_loader import standard_abilities
from minis.game import Game
from minis.hexgrid import Hex
from minis.rules import mapinfo, movement
from minis.rules.stacking import full_hexes
from minis.state import GameState, Phase, Unit

#: The abilities with step hooks (may_enter, may_step, step_cost) in the catalogue.
STEP_ABILITIES = frozenset(("charge", "courage", "excellent-suspension", "poor-suspension", "thin-wheels"))


def _army(rng: random.Random, side: Side) -> Army:
    """A random 100-point army, about half of its picks among cards with step hooks."""
    from minis.cards import card_catalogue

    playable = standard_abilities().playable
    cards = sorted(
        (c for c in card_catalogue().values() if c.serves(side) and playable(c)), key=lambda c: c.id
    )
    hooked = [c for c in cards if any(a.id in STEP_ABILITIES for a in c.abilities)]
    units: list[str] = []
    total = 0.0
    for _ in range(60):
        card = rng.choice(hooked if hooked and rng.random() < 0.5 else cards)
        if total + card.cost <= 100 and len(units) < 15:
            units.append(card.id)
            total += card.cost
    return Army(f"random {side.value}", side, units=tuple(units))


def _general(state: GameState, u: Unit) -> list[tuple[Hex, tuple[Hex, ...]]]:
    """`reachable` by the general search: every step asked of `step`, nothing cached."""
    assert state.battle.board is not None
    vehicle = u.card.is_vehicle
    speed_, road_budget, _ = movement._speeds(state, u)
    minimum = vehicle and speed_ == 1 and state.phase is Phase.MOVEMENT
    bonus = vehicle and u.id not in state.road_bonus
    info = mapinfo.info(state.battle.board)
    found = movement._search(state, u, info, vehicle, speed_, road_budget, minimum, bonus, None)
    full = full_hexes(state, u)
    return [(h, path) for h, path in found if h not in full]


@pytest.mark.parametrize("seed", range(8))
def test_fast_moves_equal_the_general_search_in_random_games(seed: int) -> None:
    rng = random.Random(seed)
    axis, allies = _army(rng, Side.AXIS), _army(rng, Side.ALLIES)
    game = Game.new(axis, allies, configuration=1 + seed % 6, dice=Dice(seed=seed), turn_limit=8)
    bot = RandomBot(seed)
    folded = general = 0
    decision = 0
    while game.decider() is not None:
        state = game.state
        if decision % 3 == 0 and state.battle.board is not None:
            for u in state.units.values():
                if u.hex is None or u.removed or u.carried_by is not None:
                    continue
                hooks = movement.step_hooks(state, u)
                folded += bool(hooks)
                general += hooks is None
                assert list(movement.reachable(state, u).items()) == _general(state, u), (decision, u.id)
        game.apply(bot.choose(game))
        decision += 1
    assert folded, "no unit took the folded table: the comparison proves nothing"


FIELD_TEXT = """
C C C C C C
"""


def _moves(
    b_text: str,
    card: str,
    at: str,
    streams: tuple[str, ...] = (),
    roads: tuple[str, ...] = (),
    status: tuple[str, ...] = (),
    others: tuple[tuple[str, str, str, str], ...] = (),
) -> dict[str, tuple[str, ...]]:
    """The paths `reachable` gives (as labels) for unit "u" on a small board, checked against the
    general search; `others`: more units as (id, card, side, hex)."""
    b = board(b_text, streams=streams, roads=roads)
    units = [unit(b, "u", card, "allies", at, status=status), *(unit(b, *other) for other in others)]
    state = position(b, units).state
    found = movement.reachable(state, state.units["u"])
    assert list(found.items()) == _general(state, state.units["u"])
    return {b.label(h): tuple(b.label(x) for x in path) for h, path in found.items()}


def test_thin_wheels_stays_out_of_a_stream_but_crosses_it_by_road() -> None:
    # A Thin Wheels motorcycle (speed 5) can't cross the stream between A2 and A3 except along a road.
    assert set(_moves(FIELD_TEXT, "bmw-r75", "A1", streams=("A2/A3",))) == {"A2"}
    assert set(_moves(FIELD_TEXT, "bmw-r75", "A1", streams=("A2/A3",), roads=("A2 A3",))) == {
        "A2",
        "A3",
        "A4",
        "A5",
        "A6",
    }


def test_excellent_suspension_pays_one_for_a_hill() -> None:
    hills = "C H H H H C"
    # A BT-5 (speed 5) pays 1 per hill: the whole row; a T-34 (speed 4) without it pays 2 per hill.
    assert _moves(hills, "bt-5", "A1")["A6"] == ("A2", "A3", "A4", "A5", "A6")
    assert set(_moves(hills, "t-34-76-model-1942", "A1")) == {"A2", "A3"}


def test_a_thin_wheels_search_is_not_shared_with_units_without_it() -> None:
    # Two Soldiers of speed 5 at the same hex: one with Thin Wheels, one whose card is a copy without
    # it (High Gear kept: the same speeds): the cached search of one must not answer for the other.
    b = board(FIELD_TEXT, streams=("A2/A3",))
    wheels = unit(b, "u", "bmw-r75", "allies", "A1")
    kept = tuple(a for a in wheels.card.abilities if a.id != "thin-wheels")
    plain = attrs.evolve(wheels, id="v", card=attrs.evolve(wheels.card, id="plain-bike", abilities=kept))
    game = position(b, [wheels, plain])
    state = game.state
    assert {b.label(h) for h in movement.reachable(state, state.units["u"])} == {"A2"}
    assert {b.label(h) for h in movement.reachable(state, state.units["v"])} == {"A2", "A3", "A4", "A5", "A6"}
    assert {b.label(h) for h in movement.reachable(state, state.units["u"])} == {"A2"}


def test_a_disrupted_charge_moves_only_nearer_to_the_enemy() -> None:
    enemy = ("e", "m1-garand-rifle", "axis", "A6")
    # Greek cavalry (speed 3, Charge): not disrupted it goes either way; disrupted, only toward A6.
    assert set(_moves(FIELD_TEXT, "greek-cavalry", "A3", others=(enemy,))) == {"A1", "A2", "A4", "A5", "A6"}
    assert set(_moves(FIELD_TEXT, "greek-cavalry", "A3", status=("disrupted",), others=(enemy,))) == {
        "A4",
        "A5",
        "A6",
    }
