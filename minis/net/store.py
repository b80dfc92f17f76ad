"""The server's battles in one SQLite file: settings, seats, armies, the dice seed, the record, the
chat's last lines and a result a seat made (a resignation, an agreed draw).

Every accepted decision is written in one transaction (WAL, synchronous FULL) before any player hears
of it, so a server killed at any moment restarts with every battle as its players last saw it. The
record's lines are the game record's (`minis.record`): an action, a bar and the dice it used. The seed
is stored here so that a restart rolls the same dice, and nowhere else: no message ever carries it.
The tables are made if missing, so a file of an older server opens as it is (no chat, no results).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from minis.game import RecordEntry

__all__ = ["BattleRow", "Store"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS battles (
    number INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    spectate TEXT NOT NULL UNIQUE,
    settings TEXT NOT NULL,
    seed TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    battle INTEGER NOT NULL REFERENCES battles(number),
    side TEXT NOT NULL,
    token TEXT NOT NULL,
    nonce TEXT,
    army TEXT,
    PRIMARY KEY (battle, side)
);
CREATE TABLE IF NOT EXISTS entries (
    battle INTEGER NOT NULL REFERENCES battles(number),
    at INTEGER NOT NULL,
    action TEXT,
    dice TEXT NOT NULL,
    PRIMARY KEY (battle, at)
);
CREATE TABLE IF NOT EXISTS chat (
    id INTEGER PRIMARY KEY,
    battle INTEGER NOT NULL REFERENCES battles(number),
    side TEXT NOT NULL,
    text TEXT NOT NULL,
    time REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_battle ON chat (battle, id);
CREATE TABLE IF NOT EXISTS results (
    battle INTEGER PRIMARY KEY REFERENCES battles(number),
    ended TEXT NOT NULL,
    winner TEXT,
    time REAL NOT NULL
);
"""


@attrs.define
class BattleRow:
    """One stored battle: what the server needs to rebuild it."""

    number: int
    code: str
    spectate: str
    settings: dict[str, Any]
    seed: int
    seats: dict[str, tuple[str, str | None, str | None]]  # side -> (token, army text, join nonce)
    entries: list[RecordEntry]
    #: How a seat ended it ("resigned", "draw agreed") and the winner, or None (play on, or the rules).
    result: tuple[str, str | None] | None = None
    #: The chat's kept lines, oldest first: {"side", "text", "time"}.
    chat: list[dict[str, Any]] = attrs.field(factory=list)


class Store:
    """The battles' SQLite file. Its methods each run one transaction."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        self.db.close()

    def _transaction(self, statements: Sequence[tuple[str, tuple[Any, ...]]]) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for sql, values in statements:
                self.db.execute(sql, values)
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def new_battle(self, code: str, spectate: str, settings: dict[str, Any], seed: int) -> int:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            cursor = self.db.execute(
                "INSERT INTO battles (code, spectate, settings, seed, created) VALUES (?, ?, ?, ?, ?)",
                (code, spectate, json.dumps(settings), str(seed), time.time()),
            )
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def next_number(self) -> int:
        row = self.db.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM battles").fetchone()
        return int(row[0])

    def code_taken(self, code: str) -> bool:
        found = self.db.execute(
            "SELECT 1 FROM battles WHERE code = ? OR spectate = ?", (code, code)
        ).fetchone()
        return found is not None

    def take_seat(self, battle: int, side: str, token: str, nonce: str | None = None) -> None:
        sql = "INSERT INTO seats (battle, side, token, nonce) VALUES (?, ?, ?, ?)"
        self._transaction([(sql, (battle, side, token, nonce))])

    def set_army(self, battle: int, side: str, army: str, entries: Sequence[tuple[int, RecordEntry]]) -> None:
        """A seat's army, and the record's first entries when it was the second army (the game began)."""
        statements = [("UPDATE seats SET army = ? WHERE battle = ? AND side = ?", (army, battle, side))]
        statements += [_entry_row(battle, at, entry) for at, entry in entries]
        self._transaction(statements)

    def add_entries(self, battle: int, entries: Sequence[tuple[int, RecordEntry]]) -> None:
        """An accepted decision's record lines (with the automatic steps that followed it)."""
        self._transaction([_entry_row(battle, at, entry) for at, entry in entries])

    def remove_last_entry(self, battle: int, at: int) -> None:
        """An undo the other seat accepted: record entry `at` (the last) deleted."""
        self._transaction([("DELETE FROM entries WHERE battle = ? AND at = ?", (battle, at))])

    def add_chat(self, battle: int, side: str, text: str, when: float, kept: int) -> None:
        """A chat line, and only the battle's last `kept` lines kept."""
        self._transaction(
            [
                (
                    "INSERT INTO chat (battle, side, text, time) VALUES (?, ?, ?, ?)",
                    (battle, side, text, when),
                ),
                (
                    "DELETE FROM chat WHERE battle = ? AND id NOT IN "
                    "(SELECT id FROM chat WHERE battle = ? ORDER BY id DESC LIMIT ?)",
                    (battle, battle, kept),
                ),
            ]
        )

    def set_result(self, battle: int, ended: str, winner: str | None) -> None:
        """A battle a seat ended: resigned (`winner` the other side) or a draw agreed."""
        sql = "INSERT INTO results (battle, ended, winner, time) VALUES (?, ?, ?, ?)"
        self._transaction([(sql, (battle, ended, winner, time.time()))])

    def battles(self, only: int | None = None) -> Iterator[BattleRow]:
        """Every stored battle (or battle number `only`), as stored."""
        where, values = ("WHERE number = ?", (only,)) if only is not None else ("", ())
        for number, code, spectate, settings, seed in self.db.execute(
            f"SELECT number, code, spectate, settings, seed FROM battles {where} ORDER BY number", values
        ).fetchall():
            seats = {
                side: (token, army, nonce)
                for side, token, army, nonce in self.db.execute(
                    "SELECT side, token, army, nonce FROM seats WHERE battle = ?", (number,)
                )
            }
            entries = [
                RecordEntry(action, tuple(int(d) for d in dice.split()))
                for action, dice in self.db.execute(
                    "SELECT action, dice FROM entries WHERE battle = ? ORDER BY at", (number,)
                )
            ]
            found = self.db.execute(
                "SELECT ended, winner FROM results WHERE battle = ?", (number,)
            ).fetchone()
            chat = [
                {"side": side, "text": text, "time": when}
                for side, text, when in self.db.execute(
                    "SELECT side, text, time FROM chat WHERE battle = ? ORDER BY id", (number,)
                )
            ]
            result = (str(found[0]), found[1]) if found is not None else None
            yield BattleRow(
                number, code, spectate, json.loads(settings), int(seed), seats, entries, result, chat
            )


def _entry_row(battle: int, at: int, entry: RecordEntry) -> tuple[str, tuple[Any, ...]]:
    dice = " ".join(str(d) for d in entry.dice)
    return (
        "INSERT INTO entries (battle, at, action, dice) VALUES (?, ?, ?, ?)",
        (battle, at, entry.action, dice),
    )
