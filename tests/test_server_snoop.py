"""What the wire carries: every byte each seat and a spectator receive, until the other army is
revealed, holds none of that army's card ids (its unit ids are card ids), its obstacles, its name or
its count, and no message ever holds the server's dice seed (issue 34, the snoop test)."""

from __future__ import annotations

import asyncio
import base64
import contextvars
import json
import random
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

import minis.net.client as net_client
from minis.army import parse_army
from minis.base.sides import Side
from minis.dice import Dice
from minis.engine.projection import hidden_obstacles, hidden_units, project
from minis.game import Game
from minis.net.bot import play_seat
from minis.net.client import request
from minis.net.protocol import MAX_SERVER_MESSAGE, encode, pack_game, unpack_game
from minis.net.server import GameServer, Table
from minis.rules import obstacles
from tests.helpers_server import ARMIES, served, time_limit

SERVER_SEED = 5
#: Armies with obstacles of their own (a minefield; Allied barbed wire, a tank obstacle and a pillbox).
AXIS = (
    (ARMIES / "sample-axis.toml")
    .read_text()
    .replace('"mauser-kar-98k",            #  3\n    "mauser-kar-98k",', '"minefield",')
)
ALLIES = (
    (ARMIES / "sample-allies.toml")
    .read_text()
    .replace('"bazooka", ', '"barbed-wire", "tank-obstacle", "pillbox", ')
)

#: The frames each listener received: (listener, the frame's text).
FRAMES: list[tuple[str, str]] = []
LISTENER: contextvars.ContextVar[str] = contextvars.ContextVar("listener", default="?")


class Tapped(ClientConnection):
    """A client connection that keeps every frame it receives, under the listener's name."""

    async def recv(self, decode: bool | None = None) -> Any:
        data = await super().recv(decode)
        FRAMES.append((LISTENER.get(), data if isinstance(data, str) else data.decode("utf-8", "replace")))
        return data


def secrets_at(table: Table, viewer: Side | None) -> set[str]:
    """What `viewer` (None: a spectator) may not know now: the hidden units' and obstacles' ids and
    card ids, and a hidden army's name."""
    game = table.game
    sides = [viewer.other] if viewer is not None else list(Side)
    found: set[str] = set()
    for side in sides:
        army = parse_army(AXIS if side is Side.AXIS else ALLIES)
        if game is None:
            found |= set(army.units) | {army.name}
            continue
        hidden = set()
        for looker in [viewer] if viewer is not None else list(Side):
            hidden |= hidden_units(game.state, looker) | hidden_obstacles(game.state, looker)
        for unit in game.state.units.values():
            if unit.id in hidden and unit.side is side:
                found |= {unit.id, unit.card.id}
        for obstacle in obstacles.all_obstacles(game.state):
            if obstacle.id in hidden and obstacle.side is side:
                found |= {obstacle.id, obstacle.card.id}
        if any(u.side is side for u in game.state.units.values() if u.id in hidden):
            found.add(army.name)
    return found


def unpacked(frame: str) -> bytes:
    """A frame's text with its packed game (if any) unpacked: the bytes a snoop would read."""
    message = json.loads(frame)
    packed = message.get("game")
    data = frame.encode()
    if isinstance(packed, str):
        data += zlib.decompress(base64.b64decode(packed))
    return data


def spy(server: GameServer, log: list[tuple[int, dict[str, set[str]]]]) -> None:
    """Note, before each state goes out, what each listener may not know at that point."""
    original = server._broadcast

    async def broadcast(table: Table, *args: Any) -> None:
        log.append((table.at, {name: secrets_at(table, side) for name, side in VIEWERS.items()}))
        await original(table, *args)

    server._broadcast = broadcast  # type: ignore[method-assign]


VIEWERS: dict[str, Side | None] = {"axis": Side.AXIS, "allies": Side.ALLIES, "spectator": None}


async def spectate(url: str, code: str) -> None:
    LISTENER.set("spectator")
    async with connect(url, max_size=MAX_SERVER_MESSAGE, create_connection=Tapped) as ws:
        await ws.send(encode({"kind": "watch", "code": code}))
        async for data in ws:
            if json.loads(data).get("over"):
                return


async def snooped_battle(data: Path) -> tuple[GameServer, str, list[tuple[int, dict[str, set[str]]]]]:
    async with served(data, seed=SERVER_SEED) as (server, url):
        log: list[tuple[int, dict[str, set[str]]]] = []
        spy(server, log)
        created = await request(url, {"kind": "new", "config": 2, "turn_limit": 2})
        code = created["code"]
        original = net_client.connect

        def tapped(uri: str, **options: Any) -> Any:
            return original(uri, create_connection=Tapped, **options)

        net_client.connect = tapped  # type: ignore[assignment]
        try:
            tasks = []
            for name, side, army in (("axis", Side.AXIS, AXIS), ("allies", Side.ALLIES, ALLIES)):
                context = contextvars.copy_context()
                context.run(LISTENER.set, name)
                coro = play_seat(url, code, side, army, strength="random", seed=len(name), quiet=True)
                tasks.append(asyncio.create_task(coro, context=context))
            watcher = asyncio.create_task(spectate(url, created["spectate"]))
            await asyncio.wait_for(asyncio.gather(*tasks, watcher), timeout=150)
        finally:
            net_client.connect = original  # type: ignore[assignment]
        return server, code, log


def vocabulary() -> bytes:
    """A packed game's bytes that every projection holds whatever the armies: the abilities' table
    names every ability of the catalogue (`tank-obstacle` is an ability as well as a card)."""
    game = Game.new(
        parse_army(AXIS), parse_army((ARMIES / "sample-american.toml").read_text()), configuration=2
    )
    return zlib.decompress(base64.b64decode(pack_game(project(game, Side.AXIS, Dice(seed=0)))))


def named_in(game: Game) -> set[str]:
    """Every id, card id and header word of an unpacked projection."""
    found = set(game.state.units) | {unit.card.id for unit in game.state.units.values()}
    for obstacle in obstacles.all_obstacles(game.state):
        found |= {obstacle.id, obstacle.card.id}
    for value in game.header.values():
        found |= set(value) if isinstance(value, list) else {str(value)}
    return found


def leaks(frames: Iterable[str], secrets_by_at: dict[int, set[str]], first: set[str], seed: int) -> list[str]:
    """What the frames hold of the secrets: byte by byte (a word every packed game holds as a name
    of the abilities' table is looked for in the unpacked game's ids, cards and header instead)."""
    found = []
    common = vocabulary()
    for frame in frames:
        message = json.loads(frame)
        secret = secrets_by_at.get(message.get("at", -1), first) if message.get("kind") == "state" else first
        data = unpacked(frame)
        for word in secret:
            if word.encode() in data and word.encode() not in common:
                found.append(f"'{word}' in a {message.get('kind')} message at {message.get('at')}")
        if isinstance(message.get("game"), str):
            for word in secret & named_in(unpack_game(message["game"], Dice(seed=0))):
                found.append(f"'{word}' in the game of a message at {message.get('at')}")
        if (
            str(seed).encode() in data
            or seed.to_bytes(16, "little") in data
            or seed.to_bytes(16, "big") in data
        ):
            found.append("the seed")
    return found


def test_no_client_receives_what_its_side_may_not_know(tmp_path: Path) -> None:
    FRAMES.clear()
    with time_limit(180):
        server, code, log = asyncio.run(snooped_battle(tmp_path))
    table = server.tables[code]
    game = table.game
    assert game is not None and game.over
    seed = random.Random(f"{SERVER_SEED}:{table.number}").getrandbits(128)
    assert seed == table.seed
    listeners = {name for name, _ in FRAMES}
    assert listeners == {"axis", "allies", "spectator"}
    for name, viewer in VIEWERS.items():
        by_at = {at: secrets[name] for at, secrets in log}
        first = secrets_at(Table(0, "", "", {}, 0), viewer)  # before the battle: the whole other army
        frames = [text for who, text in FRAMES if who == name]
        assert len(frames) > 10
        assert any(by_at.get(json.loads(f).get("at", -1)) for f in frames)  # something was hidden
        assert leaks(frames, by_at, first, seed) == [], name
    # once revealed, a seat's frames do name the other army (the snoop would see a leak)
    revealed = [text for who, text in FRAMES if who == "axis" and json.loads(text).get("phase") == "movement"]
    assert revealed and b"m4a1-sherman" in unpacked(revealed[-1])
    assert b"allied-barbed-wire" in unpacked(revealed[-1])


def test_a_seat_is_never_sent_how_many_units_the_other_army_hides(tmp_path: Path) -> None:
    """The set-up states count only what is on the map of the other army (its count is a secret)."""
    FRAMES.clear()
    with time_limit(180):
        asyncio.run(snooped_battle(tmp_path))
    hiding = 0
    for who, text in FRAMES:
        message = json.loads(text)
        if who != "axis" or message.get("phase") != "setup" or "game" not in message:
            continue
        seen = unpack_game(message["game"], Dice(seed=0))
        others = [u for u in seen.state.units.values() if u.side is Side.ALLIES]
        assert all(u.hex is not None or u.removed for u in others)
        placed = [o for o in obstacles.all_obstacles(seen.state) if o.side is Side.ALLIES]
        revealed = len(others) + len(placed) == len(parse_army(ALLIES).units)
        assert ("allies" in seen.header) is revealed and ("allies_name" in seen.header) is revealed
        hiding += not revealed
    assert hiding > 3
