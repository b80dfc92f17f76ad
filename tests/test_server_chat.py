"""The chat between the two seats: a line reaches both seats and every spectator, is stored with the
battle (its last 500 lines) and comes back on join, resume and watch, after a restart too; a line that
is empty, too long or holds control characters is refused, and a spectator reads but never writes.
The store opens a file of an older server, which has no chat or results tables."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path

import pytest

from minis.base.sides import Side
from minis.net.protocol import ProtocolError, chat_text
from minis.net.server import GameServer
from minis.net.store import Store
from tests.helpers_netplay import Peer, begin
from tests.helpers_server import served, time_limit


def test_a_chat_line_reaches_both_seats_and_a_spectator_and_comes_back_after_a_restart(
    tmp_path: Path,
) -> None:
    async def run() -> tuple[str, str, str]:
        async with served(tmp_path) as (_, url):
            battle = await begin(url, config=1)
            watcher = await Peer.open(url)
            await watcher.send({"kind": "watch", "code": battle.spectate})
            first = await watcher.expect(lambda m: m["kind"] == "chat")
            assert first == {"kind": "chat", "lines": []}
            axis, allies = battle.seats[Side.AXIS], battle.seats[Side.ALLIES]
            before = time.time()
            await axis.send({"kind": "chat", "text": "  Good luck! Viel Glück 🎲  "})
            for peer in (axis, allies, watcher):
                said = await peer.expect(lambda m: m["kind"] == "chat")
                (line,) = said["lines"]
                assert line["side"] == "axis" and line["text"] == "Good luck! Viel Glück 🎲"
                assert before <= line["time"] <= time.time()
            await allies.send({"kind": "chat", "text": "you too"})
            assert (await watcher.expect(lambda m: m["kind"] == "chat"))["lines"][0]["side"] == "allies"
            refused = await watcher.ask({"kind": "chat", "text": "I am only watching"})
            assert "spectator" in refused["message"]
            for text, words in (
                ("", "needs some text"),
                ("   \t ", "needs some text"),
                ("x" * 501, "at most 500 characters"),
                ("two\nlines", "control characters"),
                ("bell\u0007", "control characters"),
                ("\u202eevil", "control characters"),
                ("\udcff", "control characters"),
            ):
                error = await axis.ask({"kind": "chat", "text": text})
                assert error["about"] == "chat" and words in error["message"], (text, error)
            assert "needs 'text'" in (await axis.ask({"kind": "chat", "text": 5}))["message"]
            assert (await axis.ask({"kind": "chat", "text": "x" * 500}, "chat"))["lines"][0][
                "text"
            ] == "x" * 500
            loner = await Peer.open(url)
            assert "join a battle" in (await loner.ask({"kind": "chat", "text": "hello?"}))["message"]
            await loner.close()
            await watcher.close()
            await battle.close()
            return battle.code, battle.spectate, battle.tokens[Side.ALLIES]

    async def restarted(code: str, spectate: str, token: str) -> None:
        async with served(tmp_path) as (_, url):
            for message in (
                {"kind": "resume", "code": code, "token": token},
                {"kind": "watch", "code": spectate},
            ):
                peer = await Peer.open(url)
                await peer.send(message)
                state = await peer.expect(lambda m: m["kind"] in ("state", "chat"))
                assert state["kind"] == "state"  # the chat comes after the first state
                chat = await peer.expect(lambda m: m["kind"] == "chat")
                texts = [(line["side"], line["text"]) for line in chat["lines"]]
                assert texts == [
                    ("axis", "Good luck! Viel Glück 🎲"),
                    ("allies", "you too"),
                    ("axis", "x" * 500),
                ]
                await peer.close()

    with time_limit(60):
        code, spectate, token = asyncio.run(run())
        asyncio.run(restarted(code, spectate, token))


def test_a_battle_keeps_its_last_500_chat_lines(tmp_path: Path) -> None:
    store = Store(tmp_path / "battles.sqlite")
    number = store.new_battle("CODE", "WATCH", {}, 1)
    other = store.new_battle("CODE2", "WATCH2", {}, 2)
    store.add_chat(other, "axis", "another battle's", 1.0, 500)
    for n in range(510):
        store.add_chat(number, "axis" if n % 2 else "allies", f"line {n}", float(n), 500)
    rows = {row.number: row for row in store.battles()}
    assert [line["text"] for line in rows[number].chat] == [f"line {n}" for n in range(10, 510)]
    assert rows[number].chat[0] == {"side": "allies", "text": "line 10", "time": 10.0}
    assert [line["text"] for line in rows[other].chat] == ["another battle's"]
    store.close()


def test_the_chat_rule_the_window_checks_before_sending() -> None:
    assert chat_text("  hi  ") == "hi"
    for bad in ("", " ", "a\rb", "\x00", "x" * 501):
        with pytest.raises(ProtocolError):
            chat_text(bad)


OLD_SCHEMA = """
CREATE TABLE battles (number INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, spectate TEXT NOT NULL
    UNIQUE, settings TEXT NOT NULL, seed TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE seats (battle INTEGER NOT NULL, side TEXT NOT NULL, token TEXT NOT NULL, nonce TEXT,
    army TEXT, PRIMARY KEY (battle, side));
CREATE TABLE entries (battle INTEGER NOT NULL, at INTEGER NOT NULL, action TEXT, dice TEXT NOT NULL,
    PRIMARY KEY (battle, at));
"""


def test_a_file_of_an_older_server_opens_and_takes_chat_and_results(tmp_path: Path) -> None:
    """The first server's file (no chat, no results tables) opens: its battles load, and chat lines
    and a result can be stored in it."""
    path = tmp_path / "battles.sqlite"
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    settings = {"config": 1, "rules": None, "scenario": "standard", "attacker": None, "turn_limit": None}
    db.execute("INSERT INTO battles VALUES (1, 'OLDCODE', 'OLDWATCH', ?, '7', 0)", (json.dumps(settings),))
    db.execute("INSERT INTO seats VALUES (1, 'axis', 'a' || hex(randomblob(15)), NULL, NULL)")
    db.commit()
    db.close()
    store = Store(path)
    server = GameServer(store)
    assert server.load() == 1
    table = server.tables["OLDCODE"]
    assert table.chat == [] and table.result is None and list(table.seats) == [Side.AXIS]
    store.add_chat(1, "axis", "still here", 5.0, 500)
    store.set_result(1, "draw agreed", None)
    (row,) = store.battles()
    assert row.chat == [{"side": "axis", "text": "still here", "time": 5.0}]
    assert row.result == ("draw agreed", None)
    store.close()
