"""Lab speed: the same study's games in this process, in a two-process pool and on a two-worker Dask
LocalCluster (issue 21: pool at least 1.8x serial, Dask at least 1.5x on this 2-core machine).

The same engines and study as `tools/lab_speed.py`, which prints the three side by side with their
ratios; here pytest-benchmark times each (a small study, each engine started and warmed once per
module, a fresh database each round). Run with `make bench`; nothing here asserts a time.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from minis.lab.study import Study

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import lab_speed

GAMES = 100


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("lab-bench")


@pytest.fixture(scope="module")
def study(folder: Path) -> Study:
    return lab_speed.speed_study(folder, GAMES)


def _bench(benchmark: Any, study: Study, where: concurrent.futures.Executor | None, folder: Path) -> None:
    numbers = itertools.count()

    def fresh_database() -> tuple[tuple[Study, concurrent.futures.Executor | None, Path], dict[str, Any]]:
        return (study, where, folder / f"bench-{next(numbers)}.duckdb"), {}

    benchmark.pedantic(lab_speed.play, setup=fresh_database, rounds=3, iterations=1)
    stored = sorted(folder.glob("bench-*.duckdb"))
    assert len(lab_speed.stored_rows(stored[-1])) == GAMES
    for database in stored:
        database.unlink()


@pytest.fixture(scope="module")
def pool(folder: Path, study: Study) -> Iterator[concurrent.futures.Executor | None]:
    with lab_speed.engine("pool", folder, study) as where:
        yield where


@pytest.fixture(scope="module")
def dask_cluster(folder: Path, study: Study) -> Iterator[concurrent.futures.Executor | None]:
    pytest.importorskip(
        "distributed", reason="Dask distributed is not installed (pip install minis[cluster])"
    )
    with lab_speed.engine("dask", folder, study) as where:
        yield where


def test_bench_lab_serial(benchmark: Any, study: Study, folder: Path) -> None:
    with lab_speed.engine("serial", folder, study) as where:
        _bench(benchmark, study, where, folder)


def test_bench_lab_pool(
    benchmark: Any, study: Study, pool: concurrent.futures.Executor, folder: Path
) -> None:
    _bench(benchmark, study, pool, folder)


def test_bench_lab_dask(
    benchmark: Any, study: Study, dask_cluster: concurrent.futures.Executor, folder: Path
) -> None:
    _bench(benchmark, study, dask_cluster, folder)


def test_bench_lab_engine_digest(benchmark: Any) -> None:
    """The engine's digest (sha256 over its sources), worked out once a process: what that once costs."""
    from minis.lab import runner

    version, digest = benchmark(runner.engine.__wrapped__)
    assert (version, digest) == runner.engine()
