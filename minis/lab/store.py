"""The lab's database: a DuckDB file with one row per game played and one row naming the study.

Rows are written a batch at a time, each batch in one transaction, so a run killed at any moment leaves
only whole batches behind; the next run of the same study plays exactly the games not stored. The
database remembers the study's text (its sha256) and the cards and maps it was played with, and refuses
to mix in games of a changed study or of other cards. `minis lab report` reads only these two tables.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType

import duckdb

from minis.base.errors import MinisError, Problem
from minis.base.paths import PATH_ERRORS, UnreadablePath, file_problem, look, reason
from minis.lab.runner import GameRow
from minis.lab.study import Study

GAMES_TABLE = """
CREATE TABLE IF NOT EXISTS games (
    game INTEGER PRIMARY KEY,
    seed BIGINT NOT NULL,
    configuration INTEGER NOT NULL,
    first VARCHAR NOT NULL,
    winner VARCHAR NOT NULL,
    turns INTEGER NOT NULL,
    axis_points INTEGER NOT NULL,
    allies_points INTEGER NOT NULL,
    axis_units VARCHAR[] NOT NULL,
    allies_units VARCHAR[] NOT NULL,
    axis_cost INTEGER NOT NULL,
    allies_cost INTEGER NOT NULL,
    engine_version VARCHAR,
    engine_digest VARCHAR
)
"""
#: Columns added since the first databases were made (NULL in their old rows): added when one is opened.
ADDED_COLUMNS = ("engine_version VARCHAR", "engine_digest VARCHAR")
STUDY_TABLE = """
CREATE TABLE IF NOT EXISTS study (
    name VARCHAR NOT NULL,
    sha256 VARCHAR NOT NULL,
    cards_version VARCHAR NOT NULL,
    maps_version VARCHAR NOT NULL,
    rules VARCHAR NOT NULL
)
"""
INSERT = f"INSERT INTO games ({', '.join(GameRow._fields)}) VALUES ({', '.join('?' * len(GameRow._fields))})"


#: A DuckDB file says what it is in its header: these bytes at this offset.
MAGIC_OFFSET, MAGIC = 8, b"DUCK"
#: How a SQLite file begins (said in the refusal: it is the likeliest other database).
SQLITE = b"SQLite format 3\0"


def check_database(path: Path, *, new: bool) -> None:
    """Refuse a `--db` that can't be a lab database before DuckDB sees it (UnreadablePath, exit 2).

    DuckDB would wait for ever on a named pipe, and given a SQLite file it tries to download and load its
    SQLite extension from the internet; a name over 255 bytes or a folder would end in a traceback. So:
    the path must be fine, name a regular file, and that file must start with DuckDB's header; `new`: a
    missing file is fine (`minis lab run` makes it).
    """
    found = look(path)
    if found.kind is None:
        if found.missing and new:
            return
        raise UnreadablePath(str(path), found.reason)
    problem = file_problem(path)
    if problem is not None:
        raise UnreadablePath(str(path), problem)
    try:  # without blocking: it was a regular file a moment ago, but need not be now
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        try:
            head = os.read(handle, MAGIC_OFFSET + len(MAGIC))
        finally:
            os.close(handle)
    except PATH_ERRORS as error:
        raise UnreadablePath(str(path), reason(error, path)) from None
    if head[MAGIC_OFFSET:] != MAGIC:
        if not head:
            what = "an empty file"
        elif SQLITE.startswith(head) or head.startswith(SQLITE):
            what = "a SQLite database"
        else:
            what = "some other file"
        raise UnreadablePath(
            str(path),
            f"this is not a DuckDB database ({what}): the lab keeps its games in DuckDB files",
            "give --db a new file name, or a database that `minis lab run` made",
        )


def default_path(study_path: Path) -> Path:
    """`STUDY.duckdb` beside the study file."""
    return study_path.with_suffix(".duckdb")


class Store:
    """An open lab database for one study (a context manager: it closes the file)."""

    def __init__(self, path: Path, study: Study, versions: tuple[str, str]) -> None:
        self.path = path
        try:
            self.db = duckdb.connect(str(path))
        except duckdb.Error as error:
            raise MinisError(Problem(str(path), 0, 0, f"cannot open the lab database: {error}"), 2) from None
        try:
            self._check(study, versions)
        except BaseException:
            self.db.close()
            raise

    def _check(self, study: Study, versions: tuple[str, str]) -> None:
        self.db.execute(GAMES_TABLE)
        for column in ADDED_COLUMNS:  # a database of an older minis: its games played by an unknown engine
            self.db.execute(f"ALTER TABLE games ADD COLUMN IF NOT EXISTS {column}")
        self.db.execute(STUDY_TABLE)
        row = self.db.execute("SELECT name, sha256, cards_version, maps_version FROM study").fetchone()
        if row is None:
            self.db.execute(
                "INSERT INTO study VALUES (?, ?, ?, ?, ?)",
                [study.name, study.sha256, versions[0], versions[1], study.rules.title],
            )
            return
        where = str(self.path)
        if row[1] != study.sha256:
            raise MinisError(
                Problem(
                    where,
                    0,
                    0,
                    f"{study.path} has changed since this database was made: its games are of another study",
                    "undo the change, or give the changed study another database with --db",
                )
            )
        if (row[2], row[3]) != versions:
            raise MinisError(
                Problem(
                    where,
                    0,
                    0,
                    f"this database's games were played with other cards or maps (cards {row[2]}, maps "
                    f"{row[3]}; now cards {versions[0]}, maps {versions[1]})",
                    "use the minis version that made it, or another database with --db",
                )
            )

    def engines(self) -> list[tuple[str | None, str | None, int]]:
        """The engines (version, digest; None: not recorded) that played the stored games, and how many
        each, most first."""
        found = self.db.execute(
            "SELECT engine_version, engine_digest, count(*) AS n FROM games "
            "GROUP BY ALL ORDER BY n DESC, 1, 2"
        ).fetchall()
        return [(row[0], row[1], int(row[2])) for row in found]

    def stored(self) -> set[int]:
        """The numbers of the games already played."""
        return {number for (number,) in self.db.execute("SELECT game FROM games").fetchall()}

    def add(self, rows: list[GameRow]) -> None:
        """Store one batch's games, all or none."""
        self.db.execute("BEGIN TRANSACTION")
        try:
            self.db.executemany(INSERT, [list(row) for row in rows])
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
