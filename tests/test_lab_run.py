"""`minis lab run`: the same stored games whatever runs them, resuming without loss or repeats, even after
a kill -9, study file mistakes at FILE:LINE:COL, and workers with other cards refused.

The studies are tiny (random bots, a handful of cards, short games) so that each test takes seconds.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import duckdb
import pytest

from minis.cli import main
from minis.lab import runner
from minis.lab.study import ArmyDraw, load_study

CARDS = (
    '["panzergrenadier", "dak-infantry", "romanian-infantry", "panzer-iv-ausf-g-early", "stug-iii-ausf-d", '
    '"guards-infantry", "bar-gunner", "m1-garand-rifle", "soviet-conscript", "sherman-vc-firefly", '
    '"us-engineer"]'
)


def study_text(games: int, batch: int = 10, seed: int = 7, points: int = 60) -> str:
    return f"""name = "tiny"
bots = ["random", "random"]
rules = "2005"
configurations = [1, 2, 3, 4, 5, 6]
games = {games}
seed = {seed}
batch = {batch}
turn_limit = 10

[armies]
points = {points}
cards = {CARDS}
"""


#: The end of `study_text`: where a side's own table may follow.
END = '"us-engineer"]\n'


def write_study(folder: Path, text: str, name: str = "study.toml") -> Path:
    path = folder / name
    path.write_text(text)
    return path


def rows(database: Path, table: str = "games") -> list[tuple[Any, ...]]:
    with duckdb.connect(str(database), read_only=True) as db:
        order = " ORDER BY game" if table == "games" else ""
        return db.execute(f"SELECT * FROM {table}{order}").fetchall()


def lab_run(study: Path, *options: str) -> int:
    return main(["lab", "run", str(study), "--quiet", *options])


@pytest.fixture
def dask_scheduler(tmp_path: Path) -> Iterator[str]:
    """A two-worker Dask cluster on this machine for one test, its scratch files under tmp_path."""
    dask = pytest.importorskip("dask")
    distributed = pytest.importorskip("distributed")
    scratch = str(tmp_path / "dask")
    with (
        dask.config.set({"temporary-directory": scratch}),  # nothing under the shared /tmp
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            local_directory=scratch,
        ) as cluster,
    ):
        yield cluster.scheduler_address


def test_the_same_rows_in_process_in_a_pool_and_on_dask(tmp_path: Path, dask_scheduler: str) -> None:
    study = write_study(tmp_path, study_text(games=40))
    databases = {name: tmp_path / f"{name}.duckdb" for name in ("here", "pool", "dask")}
    assert lab_run(study, "--workers", "0", "--db", str(databases["here"])) == 0
    assert lab_run(study, "--workers", "2", "--db", str(databases["pool"])) == 0
    assert lab_run(study, "--scheduler", dask_scheduler, "--db", str(databases["dask"])) == 0
    here = rows(databases["here"])
    assert [row[0] for row in here] == list(range(40))
    assert {row[4] for row in here} <= {"axis", "allies", "draw"}
    assert {row[3] for row in here} <= {"axis", "allies"}
    assert len({row[2] for row in here}) == 6  # every configuration played
    assert len({tuple(row[8]) for row in here}) > 10  # armies differ from game to game
    assert rows(databases["pool"]) == here
    assert rows(databases["dask"]) == here
    assert (
        rows(databases["pool"], "study")
        == rows(databases["here"], "study")
        == rows(databases["dask"], "study")
    )


def test_the_database_is_beside_the_study_by_default(tmp_path: Path) -> None:
    study = write_study(tmp_path, study_text(games=5, batch=5))
    assert lab_run(study, "--workers", "0") == 0
    assert len(rows(tmp_path / "study.duckdb")) == 5
    (name, sha256, cards, maps, rules) = rows(tmp_path / "study.duckdb", "study")[0]
    assert (name, rules, len(sha256), len(cards), len(maps)) == ("tiny", "2005", 64, 12, 12)


def test_a_second_run_plays_only_the_missing_games(tmp_path: Path) -> None:
    study = write_study(tmp_path, study_text(games=30))
    whole, cut = tmp_path / "whole.duckdb", tmp_path / "cut.duckdb"
    assert lab_run(study, "--workers", "0", "--db", str(whole)) == 0
    assert lab_run(study, "--workers", "0", "--db", str(cut)) == 0
    with duckdb.connect(str(cut)) as db:
        db.execute("DELETE FROM games WHERE game >= 20 OR game IN (3, 4)")
    assert len(rows(cut)) == 18
    assert lab_run(study, "--workers", "2", "--db", str(cut)) == 0
    assert rows(cut) == rows(whole)
    assert lab_run(study, "--workers", "0", "--db", str(cut)) == 0  # nothing left to play: no change
    assert rows(cut) == rows(whole)


def test_a_killed_run_resumes_to_the_same_database(tmp_path: Path) -> None:
    study = write_study(tmp_path, study_text(games=300, points=40))
    killed, whole = tmp_path / "killed.duckdb", tmp_path / "whole.duckdb"
    log = tmp_path / "progress.txt"
    command = [sys.executable, "-m", "minis", "lab", "run", str(study), "--workers", "2", "--db", str(killed)]
    with log.open("w") as stderr:
        # its own process group, so the kill takes its pool workers with it
        process = subprocess.Popen(command, stderr=stderr, stdout=subprocess.DEVNULL, start_new_session=True)
        try:
            deadline = time.monotonic() + 120
            while "/300 games" not in log.read_text() and process.poll() is None:
                assert time.monotonic() < deadline, "no batch finished in two minutes"
                time.sleep(0.05)
        finally:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    stored = len(rows(killed))
    assert 0 < stored < 300, "the run was to be killed in the middle"
    assert stored % 10 == 0  # whole batches only
    assert lab_run(study, "--workers", "2", "--db", str(killed)) == 0
    assert lab_run(study, "--workers", "2", "--db", str(whole)) == 0
    assert rows(killed) == rows(whole)
    assert rows(killed, "study") == rows(whole, "study")


def test_a_changed_study_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    study = write_study(tmp_path, study_text(games=5, batch=5))
    assert lab_run(study, "--workers", "0") == 0
    study.write_text(study_text(games=6, batch=5))
    assert lab_run(study, "--workers", "0") == 1
    assert "has changed since this database was made" in capsys.readouterr().err
    assert len(rows(tmp_path / "study.duckdb")) == 5


@pytest.mark.parametrize(
    ("change", "where", "message"),
    [
        (("games = 40", 'games = "many"'), "5:1", "'games' must be a whole number"),
        (('bots = ["random", "random"]', 'bots = ["random", "clever"]'), "2:1", "unknown bot 'clever'"),
        (('rules = "2005"', 'rules = "1999"'), "3:1", "unknown rule set '1999'"),
        (("configurations = [1, 2, 3, 4, 5, 6]", "configurations = [0, 7]"), "4:1", "configurations"),
        (("points = 60", "points = 60\nyears = 1942"), "12:1", "unknown key 'years'"),
        (('"us-engineer"', '"us-enginer"'), "12:1", "unknown card 'us-enginer'"),
        (("seed = 7\n", ""), "1:1", "the study needs 'seed'"),
        (("points = 60", 'points = 60\ndraw = "greedy"'), "12:1", "'draw' is one of: 'strong', 'varied'"),
        (("points = 60", "points = [70, 50]"), "11:1", "[LOW, HIGH] with 1 <= LOW <= HIGH"),
        (("points = 60", "points = [50]"), "11:1", "[LOW, HIGH] with 1 <= LOW <= HIGH"),
        ((END, END + '[armies.allies]\ncards = ["us-enginer"]\n'), "14:1", "unknown card 'us-enginer'"),
        ((END, END + "[armies.axis]\nturns = 3\n"), "14:1", "unknown key 'turns'"),
        ((END, END + "[armies.allies]\npoints = 1\n"), "13:1", "no Allies army can be built"),
        (('rules = "2005"', 'scenario = "breakot"'), "3:1", "no shipped scenario 'breakot'"),
        (('rules = "2005"', 'scenario = "nowhere/battle.toml"'), "3:1", "no scenario file"),
        (('rules = "2005"\n', 'scenario = "breakout"\nrules = "2005"\n'), "4:1", "leave 'rules' out"),
        (('rules = "2005"\n', 'scenario = "breakout"\n'), "4:1", "leave 'configurations' out"),
    ],
)
def test_study_mistakes_are_shown_at_their_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: tuple[str, str], where: str, message: str
) -> None:
    text = study_text(games=40)
    assert change[0] in text
    study = write_study(tmp_path, text.replace(change[0], change[1]))
    assert lab_run(study, "--workers", "0") == 1
    err = capsys.readouterr().err
    assert f"{study}:{where}: " in err and message in err, err
    assert not (tmp_path / "study.duckdb").exists()


def test_a_broken_study_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    study = write_study(tmp_path, 'name = "tiny\n')
    assert lab_run(study, "--workers", "0") == 2
    assert f"{study}:1:" in capsys.readouterr().err


def test_a_worker_with_other_cards_refuses_to_play(tmp_path: Path) -> None:
    study = load_study(write_study(tmp_path, study_text(games=4)))
    spec = runner.batch_specs(study, [0, 1], runner.versions())[0]
    assert len(runner.play_batch(spec)) == 2
    other = attrs.evolve(spec, cards_version="000000000000")
    with pytest.raises(runner.WorkerMismatch, match="other cards or maps"):
        runner.play_batch(other)
    spawn = multiprocessing.get_context("spawn")
    with (  # the refusal comes back whole from another process
        concurrent.futures.ProcessPoolExecutor(1, mp_context=spawn) as pool,
        pytest.raises(runner.WorkerMismatch, match="install the same minis there"),
    ):
        runner.run_batches([other], pool, lambda batch: None)


def test_game_seeds_depend_only_on_the_study_seed_and_the_number() -> None:
    assert runner.game_seed(7, 3) == runner.game_seed(7, 3)
    assert len({runner.game_seed(7, game) for game in range(100)}) == 100
    assert runner.game_seed(7, 3) != runner.game_seed(8, 3)


def test_bad_options_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    study = write_study(tmp_path, study_text(games=4))
    assert lab_run(study, "--workers", "-1") == 1
    assert lab_run(study, "--workers", "1", "--scheduler", "tcp://127.0.0.1:1") == 1
    err = capsys.readouterr().err
    assert "--workers must be 0" in err and "don't go together" in err
    assert not (tmp_path / "study.duckdb").exists()


def test_a_cluster_without_dask_installed_says_how_to_get_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    study = write_study(tmp_path, study_text(games=4))
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if it were not installed
    assert lab_run(study, "--scheduler", "tcp://127.0.0.1:8786") == 1
    assert "pip install minis[cluster]" in capsys.readouterr().err
    assert not (tmp_path / "study.duckdb").exists()


def test_the_shipped_example_study_loads() -> None:
    study = load_study(Path(__file__).parent.parent / "studies" / "example.toml")
    assert study.bots == ("random", "random") and study.configurations == (1, 2, 3, 4, 5, 6)
    assert (study.games, study.batch) == (10000, 25)
    assert study.armies == (ArmyDraw(points=100), ArmyDraw(points=100))


SCENARIO_STUDY = """name = "assault"
bots = ["random", "random"]
scenario = "assault"
games = 4
seed = 3
batch = 2

[armies]
draw = "varied"
"""


def test_a_scenario_study_plays_the_scenario_with_each_side_attacking_in_turn(tmp_path: Path) -> None:
    study = write_study(tmp_path, SCENARIO_STUDY)
    assert load_study(study).rules.name == "2005" and load_study(study).configurations == ()
    assert lab_run(study, "--workers", "0") == 0
    played = rows(tmp_path / "study.duckdb")
    assert [row[0] for row in played] == [0, 1, 2, 3]
    # the attacker's 120 points and the defender's 80: the Axis attacks in even games, the Allies in odd
    for row in played:
        axis_cost, allies_cost = row[10], row[11]
        attacker_cost, defender_cost = (
            (axis_cost, allies_cost) if row[0] % 2 == 0 else (allies_cost, axis_cost)
        )
        assert 80 < attacker_cost <= 120 and defender_cost <= 80, row
        assert 1 <= row[2] <= 6  # the defender chose a configuration
        assert row[5] <= 10  # the Assault ends at turn 10


def test_a_scenario_of_ones_own_with_its_map_is_played_and_checked_on_every_worker(tmp_path: Path) -> None:
    shipped = Path(__file__).parent.parent / "scenarios"
    (tmp_path / "mine" / "maps").mkdir(parents=True)
    scenario = tmp_path / "mine" / "breakout.toml"
    scenario.write_text((shipped / "breakout.toml").read_text(encoding="utf-8"), encoding="utf-8")
    river = tmp_path / "mine" / "maps" / "river-line.toml"
    river.write_text((shipped / "maps" / "river-line.toml").read_text(encoding="utf-8"), encoding="utf-8")
    text = SCENARIO_STUDY.replace('scenario = "assault"', 'scenario = "mine/breakout.toml"').replace(
        "games = 4", "games = 2"
    )
    study = load_study(write_study(tmp_path, text))
    assert study.scenario == str(scenario.resolve())
    spec = runner.batch_specs(study, [0, 1], runner.versions())[0]
    played = runner.play_batch(spec)
    assert [row.configuration for row in played] == [0, 0]  # the scenario's own map
    river.write_text(river.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    with pytest.raises(runner.WorkerMismatch, match="copy the same file there"):
        runner.play_batch(attrs.evolve(spec, scenario=str(scenario)))  # a worker's copy of the map differs


def test_every_shipped_study_loads() -> None:
    folder = Path(__file__).parent.parent / "studies"
    studies = {
        path.stem: load_study(path)
        for path in sorted(folder.glob("*.toml"))
        if not path.stem.endswith("-table")  # the tables studies made (card values, the learned leaf)
    }
    assert set(studies) == {"base-set", "card-values", "example"}
    values = studies["card-values"]  # the study behind the shipped card-values table
    draw = ArmyDraw(points=80, points_high=120, draw="varied")
    assert values.bots == ("heuristic", "heuristic") and values.armies == (draw, draw)


def test_each_side_may_draw_its_armies_its_own_way(tmp_path: Path) -> None:
    text = study_text(games=6, batch=3).replace(END, END + "\n[armies.allies]\npoints = 90\n")
    study = load_study(write_study(tmp_path, text))
    assert (study.armies[0].points, study.armies[1].points) == (60, 90)
    assert study.armies[0].cards == study.armies[1].cards  # [armies] holds for both sides
    assert lab_run(study.path, "--workers", "0") == 0
    played = rows(tmp_path / "study.duckdb")
    assert all(row[10] <= 60 for row in played)  # the Axis armies' cost
    assert all(row[11] <= 90 for row in played) and max(row[11] for row in played) > 60


def test_armies_of_a_range_of_points_differ_game_by_game(tmp_path: Path) -> None:
    """`points = [LOW, HIGH]`: each army's points drawn from its own seed, so the armies' costs spread
    over the range (what lets the report price a point), the same whatever the workers."""
    text = study_text(games=12, batch=4).replace("points = 60", "points = [30, 90]")
    study = load_study(write_study(tmp_path, text))
    assert study.armies[0] == study.armies[1] and (study.armies[0].points, study.armies[0].points_high) == (
        30,
        90,
    )
    drawn = {study.armies[0].points_for(seed) for seed in range(200)}
    assert min(drawn) == 30 and max(drawn) == 90 and len(drawn) > 40
    assert study.armies[0].points_for(5) == study.armies[0].points_for(5)
    assert lab_run(study.path, "--workers", "0") == 0
    costs = [cost for row in rows(tmp_path / "study.duckdb") for cost in (row[10], row[11])]
    assert all(cost <= 90 for cost in costs) and max(costs) - min(costs) >= 20


def _children(parent: int) -> set[int]:
    """The pool workers of process `parent` (Linux: read from /proc)."""
    found = set()
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
            cmdline = (status.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if f"\nPPid:\t{parent}\n" in text and b"multiprocessing-fork" in cmdline:
            found.add(int(status.parent.name))
    return found


def _alive(pids: set[int]) -> set[int]:
    """Those of `pids` still running (a zombie has ended: it only waits for its parent to notice)."""
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.add(pid)
    return alive


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the process table from /proc")
def test_a_killed_run_leaves_no_worker_behind(tmp_path: Path) -> None:
    """kill -9 of `minis lab run` must not leave its pool's workers waiting for ever."""
    study = write_study(tmp_path, study_text(games=5000, batch=1))
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    run = subprocess.Popen(
        [sys.executable, "-m", "minis", "lab", "run", str(study), "--workers", "2", "--quiet"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        workers: set[int] = set()
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.2)
            workers = _children(run.pid)
        assert len(workers) == 2, "the run never started its two workers"
    finally:
        run.kill()
        run.wait()
    deadline = time.monotonic() + 15
    while _alive(workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = _alive(workers)
    for pid in left:  # don't leave them to the next test either
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers {sorted(left)} outlived the killed run"
