"""Line of sight on configuration 1 (171 hexes): the whole-board table against pair-by-pair exact checks.

Run: `.venv/bin/python -m pytest benchmarks/test_bench_los.py --benchmark-only -q`
"""

from __future__ import annotations

from typing import Any

import pytest

from minis import los
from minis.hexgrid import Hex
from minis.los import LosTable, line_of_sight
from minis.mapfile import load_configuration


def configuration_1() -> tuple[list[Hex], list[Hex]]:
    """Configuration 1 (Half and Half) as shipped: playable hexes in label order, and the hexes
    (half-hexes included) whose terrain blocks sight."""
    board = load_configuration(1)
    every = [*board.hexes, *board.half_hexes]
    return list(board.hexes), [h for h in every if board.terrain(h).blocks_sight]


PLAYABLE, BLOCKING = configuration_1()


def test_configuration_1_shape() -> None:
    assert len(PLAYABLE) == 171
    assert len(BLOCKING) == 39  # forest, hill and town hexes of configuration 1


def test_bench_los_table_build(benchmark: Any) -> None:
    """Building the table with the per-board index arrays already cached (a board's second build)."""
    LosTable.build(PLAYABLE, BLOCKING)
    table = benchmark(LosTable.build, PLAYABLE, BLOCKING)
    assert table.matrix.shape == (171, 171)


def test_bench_los_table_build_cold(benchmark: Any) -> None:
    """Building the table for a board not seen before (index arrays computed; offset table cached)."""
    los.offset_table(8)

    def cold() -> LosTable:
        los._board_index.cache_clear()
        return LosTable.build(PLAYABLE, BLOCKING)

    table = benchmark(cold)
    assert table.in_radius.sum() > 0


@pytest.mark.parametrize("scope", ["all pairs", "pairs within 8"])
def test_bench_los_exact_pairs(benchmark: Any, scope: str) -> None:
    """The slow reference: every pair one by one with the exact per-pair line of sight."""
    blocked = frozenset(BLOCKING).__contains__
    table = LosTable.build(PLAYABLE, BLOCKING)
    pairs = [
        (a, b)
        for i, a in enumerate(PLAYABLE)
        for j, b in enumerate(PLAYABLE)
        if scope == "all pairs" or table.in_radius[i, j]
    ]

    def every_pair() -> list[bool]:
        return [line_of_sight(blocked, a, b) for a, b in pairs]

    seen = benchmark.pedantic(every_pair, rounds=3, iterations=1)
    assert len(seen) == len(pairs)
