"""Line of sight on configuration 1 (171 hexes): the whole-board table against pair-by-pair exact checks;
and a board's first question on configuration 1 against a designer's 100x100 map with 15% forest
(issue 33: the table works out a board row when a hex of it is first asked, so the big map's first
question costs about what configuration 1's does; `tools/edge_speed.py` measures it side by side with
older code, CPU and memory).

Run: `.venv/bin/python -m pytest benchmarks/test_bench_los.py --benchmark-only -q`
"""

from __future__ import annotations

import random
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from minis.board import Board
from minis.content import los
from minis.content.los import LosTable, line_of_sight
from minis.hexgrid import Hex
from minis.mapfile import load_configuration, load_map


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
    """Building the table with the per-board index arrays already cached (a board's second build): the
    blocking grid only, since rows are worked out when first asked (`matrix` builds the whole board)."""
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


def big_map_text(rows: int = 100, columns: int = 100, forest: int = 15, seed: int = 1) -> str:
    """A map file of `rows` rows of `columns` and `columns - 1` hexes, `forest` percent of them forest."""
    rnd = random.Random(seed)
    lines = []
    for row in range(rows):
        count = columns if row % 2 == 0 else columns - 1
        letters = " ".join("F" if rnd.randrange(100) < forest else "C" for _ in range(count))
        lines.append(letters if row % 2 == 0 else " " + letters)
    return 'kind = "map"\nterrain = """\n' + "\n".join(lines) + '\n"""\n'


def first_question(board: Board, a: str, b: str) -> bool:
    """A board's first line of sight, its table not built yet (as a battle's first attack asks it)."""
    board._cache.pop("los", None)
    los._board_index.cache_clear()
    return board.visible(board.parse(a), board.parse(b))


@pytest.fixture(scope="module")
def big_map(tmp_path_factory: pytest.TempPathFactory) -> Board:
    path: Path = tmp_path_factory.mktemp("maps") / "big.toml"
    path.write_text(big_map_text(), encoding="utf-8")
    board = load_map(path)
    assert len(board.hexes) == 50 * 100 + 50 * 99
    return board


@pytest.mark.parametrize("where", ["configuration 1", "100x100, 15% forest"])
def test_bench_los_first_question(benchmark: Any, big_map: Board, where: str) -> None:
    """The first question on a freshly loaded board: E8:B4 on configuration 1, AX50:AR46 on the big map
    (the same distance). The peak memory the question takes (tracemalloc) goes in `extra_info`."""
    board = load_configuration(1) if where == "configuration 1" else big_map
    a, b = ("E8", "B4") if where == "configuration 1" else ("AX50", "AR46")
    tracemalloc.start()
    try:
        first_question(board, a, b)
        benchmark.extra_info["peak_MiB"] = round(tracemalloc.get_traced_memory()[1] / 2**20, 2)
    finally:
        tracemalloc.stop()
    benchmark.pedantic(first_question, args=(board, a, b), rounds=5, iterations=1)
