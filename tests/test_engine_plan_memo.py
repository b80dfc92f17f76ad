"""The playout-speed shortcuts of issue 14 give what the engine gave without them.

- `check_path` keeps the plans of moves by units no ability has a say in (`MoveCaches.plans`, on the
  board); a kept plan must equal the step-by-step check's, and the stacking at the end is still asked
  every time.
- `full_hexes(..., among)` is `full_hexes` cut down to the hexes asked about.
- `combat.reachable_enemies` is `may_reach` asked of every enemy (the random bot's draw of targets).
"""

from __future__ import annotations

import random

import pytest

from minis.ai.random_bot import RandomBot
from minis.base.sides import Side
from minis.dice import Dice
from minis.game import Game
from minis.rules import combat, movement, stacking
from minis.state import Phase, Stage
from tests.engine_support import random_army


def _games(seed: int) -> Game:
    rng = random.Random(seed)
    axis, allies = random_army(rng, Side.AXIS), random_army(rng, Side.ALLIES)
    return Game.new(axis, allies, configuration=1 + seed % 6, dice=Dice(seed=seed), turn_limit=3)


@pytest.mark.parametrize("seed", range(3))
def test_kept_plans_equal_the_step_by_step_check(seed: int) -> None:
    game = _games(seed)
    bot = RandomBot(seed)
    checked = 0
    while game.decider() is not None:
        state = game.state
        if state.stage is Stage.ACT and state.phase is Phase.MOVEMENT:
            for unit_id in game.ready_units():
                unit = state.units[unit_id]
                if unit.hex is None or movement.cannot_move(state, unit) is not None:
                    continue
                for path in movement.reachable(state, unit).values():
                    for _ in range(2):  # the second answer comes from the kept plans where they apply
                        assert movement.check_path(state, unit, path) == movement._checked_path(
                            state, unit, path
                        ), (unit_id, path)
                        checked += 1
        game.apply(bot.choose(game))
    assert checked > 500


def test_a_kept_plan_still_asks_for_room_at_the_end() -> None:
    """A destination that fills up after its plan was kept is refused (stacking is checked live)."""
    for seed in range(20):
        game = _games(seed)
        bot = RandomBot(seed)
        while game.decider() is not None and not (
            game.state.stage is Stage.ACT and game.state.phase is Phase.MOVEMENT
        ):
            game.apply(bot.choose(game))
        state = game.state
        for unit_id in game.ready_units():
            unit = state.units[unit_id]
            friends = [
                u
                for u in state.units.values()
                if u.side is unit.side and u.id != unit.id and u.on_map and not u.card.is_aircraft
            ]
            if movement.cannot_move(state, unit) is not None or len(friends) < 2:
                continue
            moves = movement.reachable(state, unit)
            if not moves:
                continue
            path = next(iter(moves.values()))
            first = movement.check_path(state, unit, path)
            assert isinstance(first, movement.PathPlan)
            if movement.check_path(state, unit, path) is not first:
                continue  # an ability has a say in its steps: nothing is kept for it
            crowded = state.clone()
            for friend in friends[:2]:  # two friendly units in the destination: no room
                crowded.update(friend.id, hex=path[-1], carried_by=None)
            refused = movement.check_path(crowded, crowded.units[unit_id], path)
            assert isinstance(refused, str) and "no room" in refused
            return
    pytest.fail("no position with a unit that may move and two friends")


@pytest.mark.parametrize("seed", range(2))
def test_full_hexes_among_some_hexes_is_the_full_set_cut_down(seed: int) -> None:
    game = _games(seed)
    bot = RandomBot(seed)
    checked = 0
    while game.decider() is not None:
        game.apply(bot.choose(game))
        state = game.state
        occupied = {u.hex for u in state.units.values() if u.hex is not None}
        if state.battle.board is None or not occupied:
            continue
        among = set(random.Random(checked).sample(sorted(occupied), k=max(1, len(occupied) // 2)))
        for mover in state.units.values():
            if mover.hex is None or mover.removed:
                continue
            assert stacking.full_hexes(state, mover, among) == stacking.full_hexes(state, mover) & among
            checked += 1
    assert checked > 200


@pytest.mark.parametrize("seed", range(2))
def test_reachable_enemies_are_the_enemies_may_reach_lets_through(seed: int) -> None:
    game = _games(seed)
    bot = RandomBot(seed)
    checked = 0
    while game.decider() is not None:
        game.apply(bot.choose(game))
        state = game.state
        for attacker in state.units.values():
            if not attacker.on_map:
                continue
            expected = [
                u
                for u in state.units.values()
                if u.side is not attacker.side and u.on_map and combat.may_reach(state, attacker, u)
            ]
            assert combat.reachable_enemies(state, attacker) == expected
            checked += 1
    assert checked > 200
