"""The game server's part of one decision, in this process with no network: the message checked, the
decision applied by the engine, stored in SQLite (one transaction, synchronous FULL), and each seat's
projection made and packed (pickle, zlib, base64) into its state message, on a mid-battle position.

The whole server under load (200 battles, bots on loopback, the server in a process of its own) is
tools/net_load.py; issue 34's goal there: 95th percentile under 50 ms a decision. Run with `make bench`
(pytest-benchmark); nothing here asserts a time.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from minis.ai.random_bot import RandomBot
from minis.army import load_army
from minis.base.sides import Side
from minis.dice import Dice
from minis.engine.projection import project
from minis.game import Game
from minis.net.protocol import pack_game
from minis.net.server import Connection, GameServer, Seat, Table
from minis.net.store import Store
from minis.state import Stage

ROOT = Path(__file__).resolve().parent.parent


def _mid_battle() -> Game:
    """A battle on configuration 1 at turn 1's movement, the active side to decide."""
    axis = load_army(ROOT / "armies" / "sample-axis.toml")
    allies = load_army(ROOT / "armies" / "sample-allies.toml")
    game = Game.new(axis, allies, configuration=1, dice=Dice(seed=3))
    bot = RandomBot(3)
    while not (game.state.stage is Stage.ACT and game.state.phase.value == "movement"):
        game.apply(bot.choose(game))
    return game


class _Socket:
    """A connection's socket that keeps what the server sends (the bytes a client would receive)."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, text: str) -> None:
        self.sent.append(text)


@pytest.fixture(scope="module")
def position() -> Game:
    return _mid_battle()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[GameServer]:
    store = Store(tmp_path / "battles.sqlite")
    yield GameServer(store, seed=1)
    store.close()


def test_bench_one_decision(benchmark: Any, server: GameServer, position: Game) -> None:
    """`GameServer._handle` of one `decide` message: checked, applied, stored, two states packed."""
    decider = position.decider()
    assert decider is not None
    action = position.format(RandomBot(5).choose(position))
    loop = asyncio.new_event_loop()
    sockets: dict[Side, _Socket] = {}
    made = itertools.count()

    def fresh() -> tuple[tuple[Connection, str], dict[str, Any]]:
        """A battle of its own at the position (a stored battle takes a decision at `at` once)."""
        n = next(made)
        number = server.store.new_battle(f"CODE{n}", f"WATCH{n}", {}, 1)
        table = Table(number, f"code{number}", f"watch{number}", {"config": 1}, 1)
        table.seats = {side: Seat(f"token-{side.value}", army="(stored)") for side in Side}
        table.game, table.at = position.copy(), len(position.record)
        conns = {}
        for side in Side:
            sockets[side] = _Socket()
            conns[side] = Connection(sockets[side], table=table, side=side)  # type: ignore[arg-type]
            table.listeners[side] = {conns[side]}
        message = json.dumps({"kind": "decide", "action": action, "at": table.at})
        return (conns[decider], message), {}

    def handle(conn: Connection, message: str) -> None:
        loop.run_until_complete(server._handle(conn, message))

    benchmark.pedantic(handle, setup=fresh, rounds=60, warmup_rounds=2)
    loop.close()
    states = [json.loads(text) for socket in sockets.values() for text in socket.sent]
    assert [state["kind"] for state in states] == ["state", "state"]
    assert all(state["at"] > len(position.record) and state["game"] for state in states)


def test_bench_pack_a_projection(benchmark: Any, position: Game) -> None:
    """What the server does for each seat at every decision: the side's projection, packed."""
    packed = benchmark(lambda: pack_game(project(position, Side.AXIS, Dice(seed=0))))
    assert isinstance(packed, str) and packed
