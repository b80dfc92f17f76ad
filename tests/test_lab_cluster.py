"""The lab on a real Dask cluster: a `dask scheduler` and two `dask worker` processes on loopback.

This is the set-up the README promises (`minis lab run STUDY --scheduler ADDRESS`), started the way an
operator would start it, as separate programs, rather than a LocalCluster inside the test. The study's
rows must come out exactly as they do in-process (`--workers 0`): every game's seed comes from the
study's seed and the game's number, never from which worker played it.

Every process the test starts is stopped in a `finally` (terminate, wait, then kill), and everything
they write (scheduler file, worker scratch space, logs) goes under the test's tmp_path.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from minis.army import load_army
from minis.cli import main

distributed = pytest.importorskip(
    "distributed", reason="Dask distributed is not installed (pip install minis[cluster])"
)

ROOT = Path(__file__).resolve().parent.parent
#: The `dask` command of this interpreter (`dask scheduler`, `dask worker`), whatever the PATH.
DASK = [sys.executable, "-m", "dask"]
#: The cards of the two sample armies (armies/sample-*.toml): a small pool, quick to draw armies from.
SAMPLE_CARDS = tuple(
    dict.fromkeys(
        unit
        for side in ("axis", "allies")
        for unit in load_army(ROOT / "armies" / f"sample-{side}.toml").units
    )
)
#: How long the cluster may take to come up: two worker processes import distributed and minis.
START_TIMEOUT = 30.0


def _cluster_env(tmp_path: Path) -> dict[str, str]:
    """The environment of the scheduler and workers: this checkout's minis first on the path (the
    scheduler too must import the tasks' module), and Dask's temporary files inside tmp_path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    env["DASK_TEMPORARY_DIRECTORY"] = str(tmp_path / "dask-tmp")
    env["DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED"] = "False"  # less idle work on a shared CI box
    return env


def _start(command: list[str], tmp_path: Path, name: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """Start one cluster program in its own session (so its children can be stopped with it), its
    output in a log file under tmp_path."""
    log = (tmp_path / f"{name}.log").open("wb")
    try:
        return subprocess.Popen(
            command,
            cwd=tmp_path,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    finally:
        log.close()  # the child holds its own copy


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Terminate a program started by `_start`, then kill its whole session if it does not end."""
    if process.poll() is None:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)
    # the nanny's worker processes share the program's session: none may outlive the test
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


def _scheduler_address(scheduler_file: Path, scheduler: subprocess.Popen[bytes], tmp_path: Path) -> str:
    """The address the scheduler listens on (port 0 lets it choose), read from its scheduler file."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if scheduler.poll() is not None:
            log = (tmp_path / "scheduler.log").read_text(errors="replace")
            pytest.fail(f"the Dask scheduler stopped at start-up:\n{log}")
        try:
            return str(json.loads(scheduler_file.read_text())["address"])
        except (FileNotFoundError, json.JSONDecodeError, KeyError):
            time.sleep(0.1)
    pytest.fail("the Dask scheduler wrote no address within the time limit")


@pytest.fixture
def loopback_cluster(tmp_path: Path) -> Iterator[str]:
    """A scheduler and two single-threaded workers on 127.0.0.1; yields the scheduler's address."""
    env = _cluster_env(tmp_path)
    scheduler_file = tmp_path / "scheduler.json"
    processes: list[subprocess.Popen[bytes]] = []
    try:
        processes.append(
            _start(
                [
                    *DASK,
                    "scheduler",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    "0",
                    "--dashboard-address",
                    ":0",
                    "--scheduler-file",
                    str(scheduler_file),
                    "--idle-timeout",
                    "120",  # a safety net: a scheduler left behind ends by itself
                ],
                tmp_path,
                "scheduler",
                env,
            )
        )
        address = _scheduler_address(scheduler_file, processes[0], tmp_path)
        for number in (1, 2):
            folder = tmp_path / f"worker-{number}"
            folder.mkdir()
            processes.append(
                _start(
                    [
                        *DASK,
                        "worker",
                        address,
                        "--host",
                        "127.0.0.1",
                        "--nworkers",
                        "1",
                        "--nthreads",
                        "1",
                        "--dashboard-address",
                        ":0",
                        "--local-directory",
                        str(folder),
                        "--death-timeout",
                        "30",  # workers whose scheduler went away end by themselves
                    ],
                    tmp_path,
                    f"worker-{number}",
                    env,
                )
            )
        with distributed.Client(address, timeout=START_TIMEOUT) as client:
            client.wait_for_workers(2, timeout=START_TIMEOUT)
        yield address
    finally:
        for process in reversed(processes):  # workers first, so they leave the scheduler cleanly
            _stop(process)


def _study(folder: Path, games: int) -> Path:
    """A tiny study: random bots, armies drawn from the sample armies' cards (quick to draw)."""
    cards = ", ".join(f'"{card}"' for card in SAMPLE_CARDS)
    path = folder / "tiny.toml"
    path.write_text(
        f"""name = "cluster check"
bots = ["random", "random"]
rules = "2005"
games = {games}
seed = 7
batch = 5

[armies]
points = 100
cards = [{cards}]
"""
    )
    return path


def _rows(database: Path) -> list[tuple[object, ...]]:
    with duckdb.connect(str(database), read_only=True) as db:
        return db.execute("SELECT * FROM games ORDER BY game").fetchall()


def test_a_loopback_cluster_stores_the_games_of_one_process(loopback_cluster: str, tmp_path: Path) -> None:
    study = _study(tmp_path, 40)
    here, there = tmp_path / "here.duckdb", tmp_path / "cluster.duckdb"
    assert main(["lab", "run", str(study), "--workers", "0", "--db", str(here), "--quiet"]) == 0
    with distributed.Client(loopback_cluster) as client, distributed.get_task_stream(client) as tasks:
        code = main(
            ["lab", "run", str(study), "--scheduler", loopback_cluster, "--db", str(there), "--quiet"]
        )
    assert code == 0
    expected = _rows(here)
    assert len(expected) == 40
    assert _rows(there) == expected
    # the batches were played by the cluster, by both of its workers
    played = [task for task in tasks.data if str(task["key"]).startswith("play_batch")]
    assert len(played) == 8
    assert len({task["worker"] for task in played}) == 2
