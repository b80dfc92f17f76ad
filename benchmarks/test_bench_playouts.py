"""Search speed: one-turn random playouts from positions right after deployment (issue 14).

The same playouts as `tools/playout_speed.py` (which prints playouts per second and runs on older
code too, for a side-by-side figure). Run with `make bench`; nothing here asserts a time.
"""

from __future__ import annotations

import sys
from pathlib import Path

from minis.dice import Dice

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import playout_speed

POSITIONS = playout_speed.starting_positions(1)


def test_bench_one_turn_playouts(benchmark) -> None:
    def twelve() -> int:
        actions = 0
        for i, start in enumerate(POSITIONS):
            game = playout_speed.copy_for_search(start)
            game.dice = Dice(seed=i)
            actions += playout_speed.play_one_turn(game, i)
        return actions

    assert benchmark(twelve) > 0
