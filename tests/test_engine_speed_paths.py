"""The shortcuts taken for search speed give exactly what the engine gave without them.

- `Game.copy(record=False)` leaves the record behind and nothing else.
- `full_hexes` (the hexes where a unit can't stop, found in one pass) agrees with `room_for` asked
  hex by hex, for every unit after every action of random games.
"""

from __future__ import annotations

import random

import pytest

from minis.ai.random_bot import RandomBot
from minis.base.sides import Side
from minis.dice import Dice
from minis.game import Game
from minis.rules import stacking
from tests.engine_support import random_army


def _game_after(actions: int, seed: int = 4) -> Game:
    rng = random.Random(seed)
    axis, allies = random_army(rng, Side.AXIS), random_army(rng, Side.ALLIES)
    game = Game.new(axis, allies, configuration=1 + seed % 6, dice=Dice(seed=seed))
    bot = RandomBot(seed)
    for _ in range(actions):
        game.apply(bot.choose(game))
    return game


def test_a_copy_without_the_record_has_everything_else() -> None:
    game = _game_after(40)
    bare = game.copy(record=False)
    assert bare.record == [] and len(game.record) >= 40
    assert bare.state == game.state and bare.header == game.header
    assert game.copy().record == game.record  # the default copy keeps it
    bot = RandomBot(9)
    for _ in range(5):
        bare.apply(bot.choose(bare))
    assert len(bare.record) == 5 and len(game.record) >= 40  # each keeps its own


@pytest.mark.parametrize("seed", range(3))
def test_full_hexes_agree_with_room_asked_hex_by_hex(seed: int) -> None:
    rng = random.Random(seed)
    axis, allies = random_army(rng, Side.AXIS), random_army(rng, Side.ALLIES)
    game = Game.new(axis, allies, configuration=1 + seed % 6, dice=Dice(seed=seed), turn_limit=3)
    bot = RandomBot(seed)
    checked = 0
    while game.decider() is not None:
        game.apply(bot.choose(game))
        state = game.state
        if state.battle.board is None:
            continue
        occupied = {u.hex for u in state.units.values() if u.hex is not None}
        for mover in state.units.values():
            if mover.hex is None or mover.removed:
                continue
            full = stacking.full_hexes(state, mover)
            for hex_ in occupied:
                assert (hex_ in full) == (not stacking.room_for(state, mover, hex_)), (mover.id, hex_)
                checked += 1
    assert checked > 1000
