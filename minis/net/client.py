"""Talking to a game server: a one-off request (`minis net new`, `minis net record`) and a seat that
keeps itself connected (`SeatClient`: the bots' connection, and later the window's).

A seat's client holds what the server last sent: the state message and the side's projected game
(`game`), and sends a decision with `decide(text)` in the action notation; the server's answer comes
back as the next state (or an error). It reconnects by itself, resuming the seat with its token.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from minis.base.errors import MinisError, Problem
from minis.base.sides import Side
from minis.dice import Dice
from minis.game import Game
from minis.net.protocol import MAX_CLIENT_MESSAGE, MAX_SERVER_MESSAGE, ProtocolError, encode, unpack_game

__all__ = ["NetError", "SeatClient", "SeatRefused", "new_message", "request"]

#: What a lost or refused connection raises (the client then tries again, or gives up).
LOST = (ConnectionClosed, OSError, TimeoutError, InvalidHandshake)


class NetError(Exception):
    """The server refused a request (its plain-words reason), or could not be reached."""


class SeatRefused(NetError):
    """The server refused the seat (no such battle, the seat taken, a wrong token): its reason."""


async def _open(url: str, timeout: float) -> ClientConnection:
    try:
        return await connect(url, max_size=MAX_SERVER_MESSAGE, open_timeout=timeout, ping_interval=20)
    except InvalidURI:
        raise NetError(f"'{url}' is not a server address (ws://HOST:PORT or wss://HOST:PORT)") from None


async def request(url: str, message: dict[str, Any], timeout: float = 15.0) -> dict[str, Any]:
    """Send one message and return the server's answer; NetError for an error or no answer."""
    try:
        ws = await _open(url, timeout)
        try:
            await ws.send(encode(message))
            answer = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        finally:
            await ws.close()
    except LOST as error:
        raise NetError(f"cannot reach the server at {url} ({type(error).__name__})") from None
    if not isinstance(answer, dict) or answer.get("kind") == "error":
        reason = answer.get("message") if isinstance(answer, dict) else None
        raise NetError(str(reason or "the server answered with something that is no message"))
    return answer


#: The rulebook's battles a `new` message names; any other `scenario` is a scenario file.
RULEBOOK_BATTLES = ("standard", "assault")


def new_message(
    *,
    config: int | None = None,
    rules: str | None = None,
    scenario: str = "standard",
    attacker: str | None = None,
    turn_limit: int | None = None,
) -> dict[str, Any]:
    """The `new` message for a battle (`minis net new`, the window's host screen).

    `scenario` is `standard`, `assault`, or a scenario file (a path, or a shipped scenario's name such
    as `breakout`): the file is read and checked here (MinisError with its problems as
    `FILE:LINE:COL: message`) and sent as text, with its map file's text when it names one; the server
    checks it again. A scenario file sets the map, the rule set and the turns: `config`, `rules` or
    `turn_limit` with one is a MinisError.
    """
    message: dict[str, Any] = {"kind": "new", "scenario": scenario}
    if scenario not in RULEBOOK_BATTLES:
        message = {"kind": "new", **_scenario_fields(scenario, config, rules, turn_limit)}
        config = rules = turn_limit = None
    for key, value in (
        ("config", config),
        ("rules", rules),
        ("attacker", attacker),
        ("turn_limit", turn_limit),
    ):
        if value is not None:
            message[key] = value
    return message


def _scenario_fields(
    path: str, config: int | None, rules: str | None, turn_limit: int | None
) -> dict[str, Any]:
    from minis.base.paths import read_bytes
    from minis.base.tomlfile import decode
    from minis.engine.scenario import load_scenario
    from minis.mapfile import read_document
    from minis.mapfile.documents import MapDoc

    plan = load_scenario(path)  # every problem of the file and its map, at once
    for option, value in (("--config", config), ("--rules", rules), ("--turn-limit", turn_limit)):
        if value is not None:
            raise MinisError(
                Problem(
                    plan.file,
                    0,
                    0,
                    f"a scenario file sets the map, the rule set and the turns: leave {option} out",
                )
            )
    fields: dict[str, Any] = {
        "scenario": "file",
        "scenario_file": plan.header()["scenario_file"],  # a shipped one by its name, else its full path
        "scenario_text": decode(read_bytes(plan.file), plan.file),
    }
    if plan.map_path is not None:
        if not isinstance(read_document(plan.map_path), MapDoc):
            raise MinisError(
                Problem(
                    str(plan.map_path),
                    1,
                    1,
                    'a battle on a server takes a map file (kind = "map") as its map, not a configuration',
                )
            )
        fields["map_text"] = decode(read_bytes(plan.map_path), str(plan.map_path))
    size = len(encode(fields).encode())
    if size > MAX_CLIENT_MESSAGE - 1024:
        raise MinisError(
            Problem(
                plan.file,
                0,
                0,
                f"the scenario and its map are too large to send to a server ({size // 1024} KB; "
                f"at most {MAX_CLIENT_MESSAGE // 1024 - 1} KB together)",
            )
        )
    return fields


#: What a seat's client calls with each state it receives (it may send decisions from there).
OnState = Callable[["SeatClient", dict[str, Any]], Awaitable[None]]


class SeatClient:
    """A seat at a battle on a server: join (or resume with `token`), then a state after every change.

    `run(on_state)` calls `on_state` with each state message until `stop()`; when the connection
    drops it reconnects and resumes the seat, for up to `patience` seconds without a server.
    """

    def __init__(
        self,
        url: str,
        code: str,
        side: Side,
        *,
        token: str | None = None,
        patience: float = 60.0,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.url, self.code, self.side, self.token = url, code, side, token
        #: This client's own secret for joining: joining again with it (the answer lost) gives the token.
        self.nonce = secrets.token_hex(16)
        self.patience = patience
        self.state: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self._ws: ClientConnection | None = None
        self._stopped = False
        self._log = log or (lambda text: None)
        self._on_other: OnState | None = None
        #: Set while the connection holds the seat (the server answered the join or resume): what
        #: others send through this client waits for it.
        self.bound = asyncio.Event()

    def game(self, dice: Dice) -> Game | None:
        """The side's projected game as last sent (None before the battle begins), with `dice`."""
        packed = self.state.get("game") if self.state is not None else None
        return unpack_game(packed, dice) if isinstance(packed, str) else None

    async def send(self, message: dict[str, Any]) -> None:
        if self._ws is None:
            raise ConnectionError("not connected")
        await self._ws.send(encode(message))

    async def decide(self, action: str) -> None:
        """Send a decision in the action notation, for the position last sent."""
        assert self.state is not None
        await self.send({"kind": "decide", "action": action, "at": self.state["at"]})

    def stop(self) -> None:
        self._stopped = True

    async def run(self, on_state: OnState, on_other: OnState | None = None) -> None:
        """Keep the seat until `stop()`: `on_state` gets every state and error, `on_other` (if given)
        every other message (the seat's token, chat, an army accepted)."""
        self._on_other = on_other
        lost_since: float | None = None
        while not self._stopped:
            try:
                self._ws = await _open(self.url, 10.0)
                try:
                    await self._session(on_state)
                finally:
                    self.bound.clear()
                    ws, self._ws = self._ws, None
                    await ws.close()
                if self._stopped:
                    return
                raise ConnectionError("the server closed the connection")
            except NetError:
                raise
            except (*LOST, ConnectionError) as error:
                now = time.monotonic()
                lost_since = lost_since if lost_since is not None else now
                if now - lost_since > self.patience:
                    raise NetError(f"lost the server at {self.url} for {self.patience:.0f} s") from None
                self._log(f"connection lost ({type(error).__name__}); trying again")
                await asyncio.sleep(0.3)
                continue
            lost_since = None

    async def _session(self, on_state: OnState) -> None:
        assert self._ws is not None
        if self.token is None:
            await self.send({"kind": "join", "code": self.code, "side": self.side.value, "nonce": self.nonce})
        else:
            await self.send({"kind": "resume", "code": self.code, "token": self.token})
        fresh = True  # the first state of a connection is the battle as it is now, whatever came before
        async for data in self._ws:
            message = json.loads(data)
            kind = message.get("kind")
            if kind == "seat":
                self.token = message["token"]
                self.bound.set()
                if self._on_other is not None:
                    await self._on_other(self, message)
            elif kind == "error":
                if message.get("about") in ("join", "resume"):
                    raise SeatRefused(str(message.get("message")))
                self.errors.append(message)
                await on_state(self, {"kind": "error", **message})
            elif kind == "state":
                older = self.state is not None and message.get("at", 0) < self.state.get("at", 0)
                if older and not message.get("taken_back") and not fresh:
                    continue  # an older position arriving late: the record only grows (but for an undo)
                fresh = False
                self.state = message
                await on_state(self, message)
            elif self._on_other is not None:
                await self._on_other(self, message)
            if self._stopped:
                return


__all__ += ["ProtocolError"]
