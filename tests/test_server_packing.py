"""The server packs a position's projection once when nothing is hidden (issue 34's benchmark: packing
is most of a decision's work), and each side's own while something still is."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import attrs
import pytest

from minis.ai.random_bot import RandomBot
from minis.army import load_army
from minis.base.sides import Side
from minis.dice import Dice
from minis.engine.projection import hidden_units, project
from minis.game import Game
from minis.net import server as server_module
from minis.net.protocol import unpack_game
from minis.net.server import Connection, GameServer, Seat, Table
from minis.net.store import Store
from minis.state import Phase

ROOT = Path(__file__).resolve().parent.parent


class _Socket:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def _game(until_battle: bool) -> Game:
    """A seeded battle in set-up with the armies still hidden, or at the first decision after set-up."""
    axis = load_army(ROOT / "armies" / "sample-axis.toml")
    allies = load_army(ROOT / "armies" / "sample-allies.toml")
    game = Game.new(axis, allies, configuration=1, dice=Dice(seed=3))
    bot = RandomBot(3)
    while (game.state.phase is Phase.SETUP) if until_battle else not hidden_units(game.state, Side.AXIS):
        game.apply(bot.choose(game))
    return game


def _decide(tmp_path: Path, game: Game, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[Any, _Socket], int]:
    """One decision on a server holding `game`, two seats and a spectator listening: what each
    socket received, and how many projections were packed."""
    packed = []
    pack = server_module.pack_game
    monkeypatch.setattr(server_module, "pack_game", lambda g: packed.append(1) or pack(g))
    store = Store(tmp_path / "battles.sqlite")
    server = GameServer(store, seed=1)
    number = store.new_battle("CODE", "WATCH", {}, 1)
    table = Table(number, "CODE", "WATCH", {"config": 1}, 1)
    table.seats = {side: Seat(f"token-{side.value}", army="(stored)") for side in Side}
    table.game, table.at = game, len(game.record)
    sockets: dict[Any, _Socket] = {}
    conns = {}
    for key in (Side.AXIS, Side.ALLIES, None):
        sockets[key] = _Socket()
        conns[key] = Connection(sockets[key], table=table, side=key, watching=key is None)  # type: ignore[arg-type]
        table.listeners[key] = {conns[key]}
    decider = game.decider()
    assert decider is not None
    action = game.format(RandomBot(5).choose(game))
    message = json.dumps({"kind": "decide", "action": action, "at": table.at})
    asyncio.run(server._handle(conns[decider], message))
    store.close()
    return sockets, len(packed)


def _same(one: Game, other: Game) -> bool:
    """The same projection (a battle compares by identity: its cards and map compared instead)."""
    return (
        attrs.evolve(one.state, battle=None) == attrs.evolve(other.state, battle=None)
        and one.state.battle.cards.keys() == other.state.battle.cards.keys()
        and one.state.battle.board.hexes == other.state.battle.board.hexes
        and one.header == other.header
    )


def test_once_nothing_is_hidden_every_listener_gets_one_packing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _game(until_battle=True)
    sockets, packs = _decide(tmp_path, game, monkeypatch)
    games = [socket.sent[-1]["game"] for socket in sockets.values()]
    assert packs == 1
    assert games[0] == games[1] == games[2]
    seen = unpack_game(games[0], Dice(seed=0))
    for side in Side:  # the same as each side's own projection of the position
        assert _same(seen, project(game, side, Dice(seed=0)))


def test_while_an_army_is_hidden_each_seat_gets_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _game(until_battle=False)
    sockets, packs = _decide(tmp_path, game, monkeypatch)
    assert packs == 2
    assert sockets[Side.AXIS].sent[-1]["game"] != sockets[Side.ALLIES].sent[-1]["game"]
    assert "game" not in sockets[None].sent[-1]
    for side in Side:
        assert _same(
            unpack_game(sockets[side].sent[-1]["game"], Dice(seed=0)), project(game, side, Dice(seed=0))
        )
