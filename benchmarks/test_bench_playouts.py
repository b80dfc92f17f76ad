"""Search speed: the search's own playouts and one-turn random playouts (issues 14 and 35).

The same playouts as `tools/playout_speed.py` (which prints search and random playouts per second and
runs on older code too, for side-by-side figures). Run with `make bench`; nothing here asserts a time.
"""

from __future__ import annotations

import sys
from pathlib import Path

from minis.dice import Dice

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import playout_speed

POSITIONS = playout_speed.starting_positions(1)
SEARCH_POSITIONS = playout_speed.search_positions(1)


def test_bench_one_turn_playouts(benchmark) -> None:
    def twelve() -> int:
        actions = 0
        for i, start in enumerate(POSITIONS):
            game = playout_speed.copy_for_search(start, Dice(seed=i))
            actions += playout_speed.play_one_turn(game, i)
        return actions

    assert benchmark(twelve) > 0


def test_bench_search_playouts(benchmark) -> None:
    """The search's playouts (its default policy, horizon and leaf) from 36 searched decisions, with
    new seeds every round (the heuristic's hex values are kept in the process: a round played again
    on the same dice would find them all)."""
    rounds = iter(range(1_000_000))

    def every_position() -> float:
        first = next(rounds) * len(SEARCH_POSITIONS)
        return sum(
            playout_speed.search_playout(position, first + i) for i, position in enumerate(SEARCH_POSITIONS)
        )

    assert isinstance(benchmark.pedantic(every_position, rounds=3, warmup_rounds=1), float)
