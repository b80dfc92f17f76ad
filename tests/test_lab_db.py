"""`--db` of `minis lab run` and `minis lab report`: a path that can't be a lab database is refused in plain
words before DuckDB sees it (a pipe would hang it, a SQLite file makes it fetch an extension from the
internet); and a run stopped by Ctrl-C or by a dead worker ends with one line saying how to go on.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from test_lab_run import _children, study_text, write_study

from minis.base.errors import EXIT_UNREADABLE
from minis.cli import main
from minis.lab import store as lab_store

ROOT = Path(__file__).resolve().parent.parent


def _both(study: Path, db: Path) -> list[list[str]]:
    return [
        ["lab", "run", str(study), "--db", str(db), "--workers", "0", "--quiet"],
        ["lab", "report", str(study), "--db", str(db), "--out", str(study.parent / "out")],
    ]


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == EXIT_UNREADABLE
    return capsys.readouterr().err


def test_a_name_over_255_bytes_is_refused_plainly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    study = write_study(tmp_path, study_text(games=2))
    for argv in _both(study, tmp_path / ("x" * 300 + ".duckdb")):
        assert "the file name is too long" in _refused(argv, capsys)


def test_a_named_pipe_is_refused_without_waiting(tmp_path: Path) -> None:
    """Run in a subprocess with a timeout: the bug was a wait for ever."""
    study = write_study(tmp_path, study_text(games=2))
    pipe = tmp_path / "pipe.duckdb"
    os.mkfifo(pipe)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for argv in _both(study, pipe):
        done = subprocess.run(
            [sys.executable, "-m", "minis", *argv], env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == EXIT_UNREADABLE, done.stderr
        assert done.stderr == f"{pipe}:0:0: is not a file (a device or a pipe)\n"


def test_a_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    study = write_study(tmp_path, study_text(games=2))
    for argv in _both(study, tmp_path):
        assert f"{tmp_path}:0:0: is a folder, not a file" in _refused(argv, capsys)


def test_a_sqlite_file_is_refused_before_duckdb_opens_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    study = write_study(tmp_path, study_text(games=2))
    lite = tmp_path / "games.sqlite"
    with sqlite3.connect(lite) as con:
        con.execute("CREATE TABLE games (game INTEGER)")
    before = lite.read_bytes()

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("DuckDB was given the file")

    monkeypatch.setattr(duckdb, "connect", never)
    for argv in _both(study, lite):
        err = _refused(argv, capsys)
        assert "this is not a DuckDB database (a SQLite database)" in err and "--db" in err
    other = tmp_path / "notes.duckdb"
    other.write_text("hello, world\n")
    for argv in _both(study, other):
        assert "this is not a DuckDB database (some other file)" in _refused(argv, capsys)
    assert lite.read_bytes() == before


def test_a_real_duckdb_file_has_the_header_that_is_checked(tmp_path: Path) -> None:
    path = tmp_path / "real.duckdb"
    duckdb.connect(str(path)).close()
    head = path.read_bytes()[: lab_store.MAGIC_OFFSET + len(lab_store.MAGIC)]
    assert head[lab_store.MAGIC_OFFSET :] == lab_store.MAGIC == b"DUCK"
    lab_store.check_database(path, new=False)
    lab_store.check_database(tmp_path / "new.duckdb", new=True)


def _start_run(tmp_path: Path, games: int, workers: str) -> tuple[subprocess.Popen[str], Path]:
    study = write_study(tmp_path, study_text(games=games, batch=2))
    # PYTHONFAULTHANDLER: a run that does not end in time is made to print where it hangs (`_ended`)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONFAULTHANDLER": "1"}
    # The run gets Ctrl-C as at a terminal even when these tests do not: a suite started in the
    # background by a shell ignores SIGINT, a child inherits that, and a run that ignores Ctrl-C rightly
    # leaves it so (`runner._ctrl_c`). A handled signal is reset to its default in the child.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        run = subprocess.Popen(
            [sys.executable, "-m", "minis", "lab", "run", str(study), "--workers", workers, "--quiet"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
    finally:
        signal.signal(signal.SIGINT, before)
    return run, tmp_path / "study.duckdb"


def _stored(database: Path) -> int:
    """Games stored so far, read from a copy (the run holds the database's lock)."""
    copy = database.with_name("peek.duckdb")
    for suffix in ("", ".wal"):
        source = Path(str(database) + suffix)
        target = Path(str(copy) + suffix)
        target.unlink(missing_ok=True)
        if source.exists():
            target.write_bytes(source.read_bytes())
    try:
        with duckdb.connect(str(copy), read_only=True) as con:
            found = con.execute("SELECT count(*) FROM games").fetchone()
        return int(found[0]) if found else 0
    except duckdb.Error:
        return 0


def _ended(run: subprocess.Popen[str], seconds: float) -> str:
    """The run's stderr once it has ended; a run still going after `seconds` is made to dump its threads'
    stacks (SIGABRT, with the fault handler on) and the test fails showing them."""
    try:
        return run.communicate(timeout=seconds)[1]
    except subprocess.TimeoutExpired:
        run.send_signal(signal.SIGABRT)
        _out, stacks = run.communicate(timeout=30)
        raise AssertionError(f"the run did not end within {seconds} s; where it was:\n{stacks}") from None


def _wait_for_games(run: subprocess.Popen[str], database: Path) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and run.poll() is None:
        if database.exists() and _stored(database) >= 4:
            return
        time.sleep(0.3)
    raise AssertionError("the run stored no games in time")


def test_ctrl_c_ends_a_run_with_a_line_that_says_how_to_go_on(tmp_path: Path) -> None:
    run, database = _start_run(tmp_path, 5000, "1")
    try:
        _wait_for_games(run, database)
        run.send_signal(signal.SIGINT)
        err = _ended(run, 60)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    [line] = err.strip().splitlines()
    assert line.startswith("stopped: ") and "of 5000 games are stored in" in line
    assert line.endswith("; run the same command again to go on")
    stored = int(line.removeprefix("stopped: ").split()[0])
    with duckdb.connect(str(database), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (stored,)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the process table from /proc")
def test_a_killed_worker_ends_a_run_with_a_line_that_says_how_to_go_on(tmp_path: Path) -> None:
    run, database = _start_run(tmp_path, 5000, "2")
    try:
        _wait_for_games(run, database)
        workers = _children(run.pid)
        assert workers, "the run has no workers"
        os.kill(min(workers), signal.SIGKILL)
        err = _ended(run, 60)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 1
    assert "Traceback" not in err
    [line] = err.strip().splitlines()
    assert line.startswith("stopped: a worker process ended before its games were done (killed?): ")
    assert line.endswith("; run the same command again to go on")
