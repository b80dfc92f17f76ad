"""The engine's fast paths give exactly what the general code gives (they exist only for speed).

- An unopposed move is walked in one go (`walk._walk_unopposed`); forcing every move through the
  hex-by-hex walk must give the same events and positions, action by action, over random games.
- Hexes crossed by a sight line are only tested near the segment (`crossed_hexes`); testing every hex of
  the bounding box must find the same hexes in the same order.
"""

from __future__ import annotations

import random

import pytest

from minis.ai.random_bot import RandomBot
from minis.army import Army
from minis.base.sides import Side
from minis.dice import Dice
from minis.game import Game
from minis.hexgrid import Hex, crossed_hexes, from_doubled, segment_crosses_hex, to_doubled, within
from minis.rules import walk
from tests.engine_support import random_army


def _play(seed: int, axis: Army, allies: Army) -> list[tuple[object, ...]]:
    """Every action's events and the whole state after it, for one seeded random game."""
    game = Game.new(axis, allies, configuration=1 + seed % 6, dice=Dice(seed=seed), turn_limit=12)
    bot = RandomBot(seed)
    trace: list[tuple[object, ...]] = []
    while game.decider() is not None:
        events = game.apply(bot.choose(game))
        trace.append((tuple(events), game.state.clone()))  # every field, the entry order included
    return trace


@pytest.mark.parametrize("seed", range(6))
def test_unopposed_moves_walk_exactly_like_the_hex_by_hex_walk(seed: int, monkeypatch) -> None:
    rng = random.Random(seed)
    axis, allies = random_army(rng, Side.AXIS), random_army(rng, Side.ALLIES)
    fast = _play(seed, axis, allies)
    taken: list[bool] = []
    real = walk.unopposed

    def never(*args: object) -> bool:
        taken.append(real(*args))  # type: ignore[arg-type]
        return False

    monkeypatch.setattr(walk, "unopposed", never)
    slow = _play(seed, axis, allies)
    assert any(taken), "no move took the fast path: the comparison proves nothing"
    assert len(fast) == len(slow)
    for index, (one, other) in enumerate(zip(fast, slow, strict=True)):
        assert one == other, f"action {index} differs"


def _crossed_by_testing_every_hex(a: Hex, b: Hex) -> tuple[Hex, ...]:
    (ax, ay), (bx, by) = to_doubled(a), to_doubled(b)
    dx, dy = bx - ax, by - ay
    found = sorted(
        (dx * (x - ax) + 3 * dy * (y - ay), h)
        for y in range(min(ay, by), max(ay, by) + 1)
        for x in range(min(ax, bx), max(ax, bx) + 1)
        if (x - y) % 2 == 0 and (h := from_doubled(x, y)) not in (a, b) and segment_crosses_hex(a, b, h)
    )
    return tuple(h for _, h in found)


def test_crossed_hexes_equal_testing_the_whole_bounding_box() -> None:
    checked = 0
    for origin in (Hex(0, 0), Hex(3, -2)):
        for b in within(origin, 10):
            assert crossed_hexes(origin, b) == _crossed_by_testing_every_hex(origin, b), b
            checked += 1
    assert checked == 2 * 331
