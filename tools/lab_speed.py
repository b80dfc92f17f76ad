"""How many lab games a second one process, a two-process pool and a two-worker Dask LocalCluster play.

The issue's speed targets (issue 21): on this 2-core machine the pool should play at least 1.8 times the
games a second of one in-process worker, and a two-worker Dask LocalCluster at least 1.5 times. This
script plays the same study three times, back to back so that all three see the same machine load:

- serial: in this process, as `minis lab run --workers 0` does;
- pool: two spawned processes, as `minis lab run --workers 2` does;
- dask: a LocalCluster of two single-threaded worker processes, through `Client.get_executor()`, as
  `minis lab run --scheduler ADDRESS` does.

Each engine is started and warmed (every process has played a few games beyond the study's) before
the clock starts; the start-up is printed apart. `--rounds R` repeats the three, interleaved, and prints
the median ratios: the machine is shared, and its load (printed) moves every figure.
Every batch is stored in a DuckDB file of the lab's own format as it finishes, as in a real run, and the
three databases must hold identical rows (exit code 1 if not).

The default study is built here: random bots, 100-point armies drawn from the two sample armies' cards
(drawing from the whole catalogue costs far more than the game itself). `--study FILE` plays another
study's first `--games` games instead.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs
import duckdb

from minis.army import load_army
from minis.lab import runner
from minis.lab.store import Store
from minis.lab.study import Study, load_study

ROOT = Path(__file__).resolve().parent.parent
MODES = ("serial", "pool", "dask")
WORKERS = 2
#: Games each process plays before the clock starts (numbered after the study's, never stored).
WARM_GAMES = 3
#: The cards of the two sample armies (armies/sample-*.toml): a small pool, quick to draw armies from.
SAMPLE_CARDS = tuple(
    dict.fromkeys(
        unit
        for side in ("axis", "allies")
        for unit in load_army(ROOT / "armies" / f"sample-{side}.toml").units
    )
)


def speed_study(folder: Path, games: int, seed: int = 1) -> Study:
    """The benchmark's own study, written to `folder/speed.toml` (a study is read from its file)."""
    cards = ", ".join(f'"{card}"' for card in SAMPLE_CARDS)
    path = folder / "speed.toml"
    path.write_text(
        f"""name = "speed: random bots, the sample armies' cards"
bots = ["random", "random"]
rules = "2005"
games = {games}
seed = {seed}
batch = 25

[armies]
points = 100
cards = [{cards}]
"""
    )
    return load_study(path)


@contextmanager
def engine(mode: str, folder: Path, study: Study) -> Iterator[concurrent.futures.Executor | None]:
    """A started, warmed engine for `mode` (None: this process), stopped on leaving. Warmed: every
    process has played a few games beyond the study's, so that imports, the cards and whatever the
    engine fills on its first game are not on the clock."""
    warm = runner.batch_specs(study, range(study.games, study.games + WARM_GAMES), runner.versions())[0]
    if mode == "serial":
        runner.play_batch(warm)
        yield None
    elif mode == "pool":
        # the lab's pool (spawned processes); each process plays the warm-up games as it starts
        pool = concurrent.futures.ProcessPoolExecutor(
            WORKERS,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=runner.play_batch,
            initargs=(warm,),
        )
        try:
            _wait_for_pool(pool)
            yield pool
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    elif mode == "dask":
        yield from _dask(folder, warm)
    else:
        raise ValueError(f"unknown mode {mode!r} (one of {', '.join(MODES)})")


def _wait_for_pool(pool: concurrent.futures.ProcessPoolExecutor, timeout: float = 60.0) -> None:
    """Return once every pool process has started and answered (each answers after its initializer):
    a started but unready process would otherwise import minis on the clock."""
    seen: set[int] = set()
    deadline = time.monotonic() + timeout
    while len(seen) < WORKERS:
        if time.monotonic() > deadline:
            raise RuntimeError(f"only {len(seen)} of {WORKERS} pool processes started")
        seen.update(future.result() for future in [pool.submit(os.getpid) for _ in range(20)])
        time.sleep(0.05)


def _dask(folder: Path, warm: runner.BatchSpec) -> Iterator[concurrent.futures.Executor]:
    from distributed import Client, LocalCluster

    cluster = LocalCluster(  # type: ignore[no-untyped-call]  # distributed leaves it untyped
        n_workers=WORKERS,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        local_directory=str(folder / "dask"),
    )
    try:
        with Client(cluster) as client:  # type: ignore[no-untyped-call]
            client.wait_for_workers(WORKERS, timeout=60)
            client.run(runner.play_batch, warm)  # on every worker
            yield client.get_executor(pure=False)
    finally:
        cluster.close()


def play(study: Study, where: concurrent.futures.Executor | None, database: Path) -> float:
    """Play all of `study`'s games on `where` into a new lab database; the seconds it took."""
    versions = runner.versions()
    specs = runner.batch_specs(study, range(study.games), versions)
    with Store(database, study, versions) as store:
        started = time.perf_counter()
        runner.run_batches(specs, where, store.add)
        return time.perf_counter() - started


def tree_cpu_seconds() -> float | None:
    """CPU seconds used so far by this process and every live process under it (Linux /proc; None
    elsewhere). On a shared machine games/s depend on others' load; CPU seconds a game do not, so
    they show what the pool or the cluster costs in itself."""
    ticks = os.sysconf("SC_CLK_TCK")
    total, pending = 0.0, [os.getpid()]
    try:
        while pending:
            pid = pending.pop()
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
            for task in Path(f"/proc/{pid}/task").iterdir():
                pending.extend(int(child) for child in (task / "children").read_text().split())
    except (OSError, ValueError, IndexError):
        return None
    return total


def stored_rows(database: Path) -> list[tuple[Any, ...]]:
    """Every stored game, in game order."""
    with duckdb.connect(str(database), read_only=True) as db:
        return db.execute("SELECT * FROM games ORDER BY game").fetchall()


def digest(rows: list[tuple[Any, ...]]) -> str:
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=800, help="games each engine plays (default 800)")
    parser.add_argument(
        "--rounds", type=int, default=1, help="rounds of all engines, interleaved against noise (default 1)"
    )
    parser.add_argument("--study", type=Path, help="a study file to play (default: the built speed study)")
    parser.add_argument("--modes", default=",".join(MODES), help="which engines, comma-separated")
    args = parser.parse_args(argv)
    modes = [mode.strip() for mode in args.modes.split(",") if mode.strip()]
    rates: dict[str, list[float]] = {mode: [] for mode in modes}
    cpus: dict[str, list[float]] = {mode: [] for mode in modes}
    digests: set[str] = set()
    with tempfile.TemporaryDirectory(prefix="lab-speed-") as temporary:
        folder = Path(temporary)
        if args.study is not None:
            study = attrs.evolve(load_study(args.study), games=args.games)
        else:
            study = speed_study(folder, args.games)
        print(f"{study.name}: {study.games} games, batches of {study.batch}, {os.cpu_count()} cores")
        print(
            f"{'round':>5} {'engine':8} {'start s':>8} {'play s':>8} {'games/s':>8} {'x serial':>9} "
            f"{'cpu ms/game':>11}  rows"
        )
        for round_number in range(1, args.rounds + 1):
            for mode in modes:
                database = folder / f"{mode}-{round_number}.duckdb"
                started = time.perf_counter()
                with engine(mode, folder, study) as where:
                    start = time.perf_counter() - started
                    cpu_before = tree_cpu_seconds()
                    seconds = play(study, where, database)
                    cpu_after = tree_cpu_seconds()
                rows = stored_rows(database)
                database.unlink()
                rate = len(rows) / seconds
                rates[mode].append(rate)
                digests.add(digest(rows))
                ratio = f"{rate / rates['serial'][-1]:.2f}" if "serial" in rates else "-"
                load = os.getloadavg()[0]  # the machine may be shared: other work skews every figure
                cpu = "-"
                if cpu_before is not None and cpu_after is not None:
                    cpus[mode].append(1000 * (cpu_after - cpu_before) / len(rows))
                    cpu = f"{cpus[mode][-1]:.1f}"
                print(
                    f"{round_number:>5} {mode:8} {start:8.2f} {seconds:8.2f} {rate:8.1f} {ratio:>9} "
                    f"{cpu:>11}  {len(rows)} games, digest {digest(rows)}, load {load:.1f}",
                    flush=True,
                )
    for mode in modes:
        line = f"{mode}: median {statistics.median(rates[mode]):.1f} games/s"
        if cpus[mode]:
            line += f", {statistics.median(cpus[mode]):.1f} cpu ms/game"
        if "serial" in rates and mode != "serial":
            ratios = [rate / serial for rate, serial in zip(rates[mode], rates["serial"], strict=True)]
            spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
            line += f", {mode}/serial median {statistics.median(ratios):.2f} ({spread})"
        print(line)
    if len(digests) > 1:
        print("the engines stored DIFFERENT games", file=sys.stderr)
        return 1
    print("identical rows on every engine and round")
    return 0


if __name__ == "__main__":
    sys.exit(main())
