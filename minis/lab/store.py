"""The lab's database: a DuckDB file with one row per game played and one row naming the study.

Rows are written a batch at a time, each batch in one transaction, so a run killed at any moment leaves
only whole batches behind; the next run of the same study plays exactly the games not stored. The
database remembers the study's text (its sha256) and the cards and maps it was played with, and refuses
to mix in games of a changed study or of other cards. `minis lab report` reads only these two tables.
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType

import duckdb

from minis.errors import MinisError, Problem
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
    allies_cost INTEGER NOT NULL
)
"""
STUDY_TABLE = """
CREATE TABLE IF NOT EXISTS study (
    name VARCHAR NOT NULL,
    sha256 VARCHAR NOT NULL,
    cards_version VARCHAR NOT NULL,
    maps_version VARCHAR NOT NULL,
    rules VARCHAR NOT NULL
)
"""
INSERT = f"INSERT INTO games VALUES ({', '.join('?' * len(GameRow._fields))})"


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
