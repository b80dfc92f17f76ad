"""Raw seats for the tests of chat, offers, results and scenario files: each connection's messages read
into a list as they come (`Peer`), a battle begun between two such seats (`begin`), and decisions made
for whoever decides, chosen by a seeded random bot on the server's own game (`step`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import attrs
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from minis.ai.bot import Bot
from minis.ai.registry import make_bot
from minis.base.sides import Side
from minis.net.client import request
from minis.net.protocol import MAX_SERVER_MESSAGE, encode
from minis.net.server import GameServer
from tests.helpers_server import ARMIES

AXIS = (ARMIES / "sample-axis.toml").read_text()
ALLIES = (ARMIES / "sample-allies.toml").read_text()

Message = dict[str, Any]


class Peer:
    """A raw connection whose every message is kept in `messages`; `expect` waits for the next one
    (after those already expected) that a condition accepts."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.messages: list[Message] = []
        self.seen = 0
        self._task = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, url: str) -> Peer:
        return cls(await connect(url, max_size=MAX_SERVER_MESSAGE, open_timeout=10))

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for data in self.ws:
                self.messages.append(json.loads(data))

    async def send(self, message: Message) -> None:
        await self.ws.send(encode(message))

    async def expect(self, accept: Callable[[Message], bool], timeout: float = 10.0) -> Message:
        deadline = time.monotonic() + timeout
        while True:
            while self.seen < len(self.messages):
                message = self.messages[self.seen]
                self.seen += 1
                if accept(message):
                    return message
            if time.monotonic() > deadline:
                last = [{k: v for k, v in m.items() if k != "game"} for m in self.messages[-3:]]
                raise TimeoutError(f"no such message; the last: {last}")
            await asyncio.sleep(0.01)

    async def ask(self, message: Message, kind: str = "error") -> Message:
        """Send `message` and wait for the next message of `kind` (a state: one that came after it)."""
        if kind == "state":
            self.seen = len(self.messages)
        await self.send(message)
        return await self.expect(lambda m: m["kind"] == kind)

    async def state(self, accept: Callable[[Message], bool] = lambda m: True) -> Message:
        return await self.expect(lambda m: m["kind"] == "state" and accept(m))

    def last_state(self) -> Message:
        return next(m for m in reversed(self.messages) if m["kind"] == "state")

    async def close(self) -> None:
        await self.ws.close()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


@attrs.define
class Battle:
    code: str
    spectate: str
    seats: dict[Side, Peer]
    tokens: dict[Side, str]

    async def close(self) -> None:
        for peer in self.seats.values():
            await peer.close()


async def join(url: str, code: str, side: Side) -> tuple[Peer, str]:
    peer = await Peer.open(url)
    taken = await peer.ask({"kind": "join", "code": code, "side": side.value}, "seat")
    return peer, str(taken["token"])


async def begin(url: str, armies: dict[Side, str] | None = None, **settings: Any) -> Battle:
    """A battle made with `settings`, both seats joined and both armies in: begun."""
    created = await request(url, {"kind": "new", **(settings or {"config": 1})})
    battle = Battle(created["code"], created["spectate"], {}, {})
    texts = armies or {Side.AXIS: AXIS, Side.ALLIES: ALLIES}
    for side in Side:
        battle.seats[side], battle.tokens[side] = await join(url, battle.code, side)
    for side in Side:
        accepted = await battle.seats[side].ask({"kind": "army", "text": texts[side]}, "army-accepted")
        assert accepted["side"] == side.value
    for peer in battle.seats.values():
        await peer.state(lambda m: m["started"])
    return battle


async def step(server: GameServer, battle: Battle, bot: Bot) -> tuple[Side, str, Message]:
    """The decider's decision (the bot's choice on the server's game), sent; who, what, and the state
    the decider receives after it."""
    table = server.tables[battle.code]
    assert table.game is not None
    side = table.game.decider()
    assert side is not None
    action = table.game.format(bot.choose(table.game))
    at = table.at
    peer = battle.seats[side]
    await peer.send({"kind": "decide", "action": action, "at": at})
    state = await peer.state(lambda m: m["at"] > at)
    return side, action, state


def random_bot(seed: int) -> Bot:
    return make_bot("random", seed)
