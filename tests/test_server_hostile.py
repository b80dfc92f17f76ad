"""Hostile clients: malformed, oversized and unknown messages, decisions out of turn, wrong tokens, a
flood, silence, a client gone mid-message, an army the rules refuse, and a fuzz of a few hundred such
messages (1,000+ with --slow) against a running server: each gets a plain error or a closed
connection, the server logs no traceback, answers a healthy client afterwards, and another battle
between two bots goes on to its end."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from minis.base.sides import Side
from minis.net.client import request
from minis.net.protocol import MAX_CLIENT_MESSAGE, MAX_SERVER_MESSAGE, encode
from minis.net.server import Limits
from tests.helpers_server import (
    ARMIES,
    ServerProcess,
    environment,
    minis_command,
    served,
    stop_all,
    time_limit,
)

AXIS = (ARMIES / "sample-axis.toml").read_text()
ALLIES = (ARMIES / "sample-allies.toml").read_text()


async def talk(url: str) -> ClientConnection:
    return await connect(url, max_size=MAX_SERVER_MESSAGE, open_timeout=10)


async def answer(ws: ClientConnection, message: Any) -> dict[str, Any]:
    """The server's answer to `message` (the states and chat it pushes meanwhile are passed over)."""
    await ws.send(message if isinstance(message, str | bytes) else encode(message))
    while True:
        reply: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if reply["kind"] not in ("state", "chat"):
            return reply


async def seat(url: str, code: str, side: str) -> tuple[ClientConnection, str, dict[str, Any]]:
    """A raw seat: joined, its token, and the first state."""
    ws = await talk(url)
    taken = await answer(ws, {"kind": "join", "code": code, "side": side})
    assert taken["kind"] == "seat", taken
    state = json.loads(await asyncio.wait_for(ws.recv(), 10))
    return ws, taken["token"], state


async def next_state(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message["kind"] == "state":
            return message


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r.getMessage() for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not bad, bad


def test_bad_messages_get_plain_errors_and_the_connection_stays(tmp_path: Path, caplog: Any) -> None:
    async def run() -> None:
        async with served(tmp_path) as (_, url):
            ws = await talk(url)
            for message, words in (
                ("{not json", "JSON object"),
                ("[1, 2]", "JSON object"),
                (b"\xff\xfe", "UTF-8"),
                ('{"kind": "teleport"}', "unknown message kind 'teleport'"),
                ({"kind": "join", "code": 5, "side": "axis"}, "needs 'code'"),
                ({"kind": "decide", "action": "pass", "at": True}, "needs 'at'"),
                ({"kind": "new", "config": 9}, "configuration from 1 to 6"),
                ({"kind": "new", "rules": "1999"}, "unknown rule set '1999'"),
                ({"kind": "join", "code": "NOPE", "side": "axis"}, "no battle has that code"),
                ({"kind": "decide", "action": "pass", "at": 0}, "join a battle"),
                ("[" * 30_000 + "]" * 30_000, "JSON object"),
            ):
                reply = await answer(ws, message)
                assert reply["kind"] == "error" and words in reply["message"], (message, reply)
                assert "Traceback" not in reply["message"]
            assert (await answer(ws, {"kind": "ping"}))["kind"] == "pong"
            await ws.close()

    with time_limit(60), caplog.at_level(logging.INFO):
        asyncio.run(run())
    no_tracebacks(caplog)


def test_out_of_turn_stale_and_illegal_decisions_change_nothing(tmp_path: Path, caplog: Any) -> None:
    async def run() -> None:
        async with served(tmp_path) as (server, url):
            code = (await request(url, {"kind": "new", "config": 1}))["code"]
            axis, _, _ = await seat(url, code, "axis")
            allies, allies_token, _ = await seat(url, code, "allies")
            assert (await answer(axis, {"kind": "decide", "action": "pass", "at": 0}))["message"].startswith(
                "the battle has not begun"
            )
            assert (await answer(axis, {"kind": "army", "text": AXIS}))["kind"] == "army-accepted"
            refused = await answer(allies, {"kind": "army", "text": "units = [\"tiger-x\"]\nside = 'allies'"})
            assert refused["kind"] == "error" and "army:" in refused["message"]
            assert (await answer(allies, {"kind": "army", "text": ALLIES}))["kind"] == "army-accepted"
            state = await next_state(allies)
            table = server.tables[code]
            assert table.game is not None
            before = (table.at, table.game.state.clone().units)
            mover, waiter = (axis, allies) if state["decider"] == "axis" else (allies, axis)
            out_of_turn = await answer(waiter, {"kind": "decide", "action": "pass", "at": state["at"]})
            assert "not your decision" in out_of_turn["message"]
            stale = await answer(mover, {"kind": "decide", "action": "pass", "at": state["at"] - 1})
            assert stale.get("stale") and "moved on" in stale["message"]
            # an old position's decision is stale whoever sends it (a late state is no turn of its own)
            late = await answer(waiter, {"kind": "decide", "action": "pass", "at": state["at"] - 1})
            assert late.get("stale") and "moved on" in late["message"]
            illegal = await answer(
                mover, {"kind": "decide", "action": "attack nobody nothing", "at": state["at"]}
            )
            assert illegal["kind"] == "error" and "is not allowed" in illegal["message"]
            garbage = await answer(mover, {"kind": "decide", "action": "\u0000" * 5000, "at": state["at"]})
            assert garbage["kind"] == "error"
            assert (table.at, table.game.state.units) == before
            # a token of this battle opens no seat of another, a wrong one none at all
            other = (await request(url, {"kind": "new"}))["code"]
            for token_code, token in ((other, allies_token), (code, "0" * 32), (code, "é" * 3)):
                ws = await talk(url)
                wrong = await answer(ws, {"kind": "resume", "code": token_code, "token": token})
                assert wrong["kind"] == "error" and "no seat" in wrong["message"]
                await ws.close()
            again = await talk(url)  # the right token resumes the seat from another connection
            assert (await answer(again, {"kind": "resume", "code": code, "token": allies_token}))[
                "side"
            ] == "allies"
            for ws in (axis, allies, again):
                await ws.close()

    with time_limit(60), caplog.at_level(logging.INFO):
        asyncio.run(run())
    no_tracebacks(caplog)


def test_oversized_floods_silence_and_half_messages_close_the_connection(tmp_path: Path, caplog: Any) -> None:
    async def run() -> None:
        limits = Limits(first_message=0.5, rate=50.0, burst=20.0)
        async with served(tmp_path, limits=limits) as (_, url):
            big = await talk(url)
            await big.send("x" * (MAX_CLIENT_MESSAGE + 1))
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(big.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big

            silent = await talk(url)
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(silent.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.reason == "no message in time"

            flood = await talk(url)
            for _ in range(200):
                await flood.send(encode({"kind": "ping"}))
            replies = []
            with pytest.raises(ConnectionClosed):
                while True:
                    replies.append(json.loads(await asyncio.wait_for(flood.recv(), 10)))
            assert replies[-1] == {"kind": "error", "message": "too many messages: slow down"}
            assert len(replies) < 100

            half = await talk(url)  # a frame that announces 1,000 bytes, sends 10, and is gone
            half.transport.write(b"\x81\xfe\x03\xe8" + os.urandom(4) + b"0123456789")
            half.transport.abort()
            for _ in range(20):
                _raw_reader, raw_writer = await asyncio.open_connection(
                    "127.0.0.1", int(url.rsplit(":", 1)[1])
                )
                raw_writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n")  # and never more
                raw_writer.close()
            healthy = await talk(url)
            assert (await answer(healthy, {"kind": "ping"}))["kind"] == "pong"
            await healthy.close()

    with time_limit(60), caplog.at_level(logging.INFO):
        asyncio.run(run())
    no_tracebacks(caplog)


# --- the fuzz ------------------------------------------------------------------------------------------


def hostile(rng: random.Random, code: str, token: str) -> str | bytes:
    """One malformed or hostile message, of every sort the issue lists."""
    kinds = ["new", "join", "resume", "watch", "army", "decide", "record", "ping", "", "x" * 300, None, 7]
    kinds += ["chat", "offer", "answer", "resign", "seats"]
    choice = rng.randrange(17)
    if choice == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
    if choice == 1:
        return "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(rng.randrange(1, 200)))
    if choice == 2:
        depth = rng.randrange(1, 5000)
        return "[" * depth + "]" * depth if rng.random() < 0.5 else '{"a":' * depth + "1" + "}" * depth
    if choice == 3:
        return encode({"kind": rng.choice(kinds)})
    if choice == 4:
        values: list[Any] = [
            None,
            True,
            -1,
            2**70,
            1.5,
            "",
            "axis",
            "allies",
            [],
            {},
            "Z" * 1000,
            code,
            token,
        ]
        fields = [
            "code",
            "side",
            "token",
            "text",
            "action",
            "at",
            "config",
            "rules",
            "scenario",
            "turn_limit",
            "what",
            "accept",
            "seats",
            "scenario_file",
            "scenario_text",
            "map_text",
        ]
        message: dict[str, Any] = {"kind": rng.choice(kinds)}
        for _ in range(rng.randrange(4)):
            message[rng.choice(fields)] = rng.choice(values)
        return encode(message)
    if choice == 5:
        return encode({"kind": "resume", "code": code, "token": token[:-1] + rng.choice("0123456789abcdef")})
    if choice == 6:
        return encode(
            {"kind": "army", "text": "".join(rng.choice("[]=\"'\n units side axis") for _ in range(300))}
        )
    if choice == 7:
        words = ["deploy", "attack", "move", "pass", "end", "first", "A3", "face", "E", "|", "#", "\u202e"]
        action = " ".join(rng.choice(words) for _ in range(rng.randrange(1, 8)))
        return encode({"kind": "decide", "action": action, "at": rng.randrange(-2, 5)})
    if choice == 8:
        return encode({"kind": "new", "config": rng.randrange(-5, 10), "turn_limit": rng.randrange(-5, 2000)})
    if choice == 9:
        return encode({"kind": "join", "code": code, "side": rng.choice(["axis", "allies", "neutral", ""])})
    if choice == 10:
        return encode({"kind": "record", "code": rng.choice([code, "", "?" * 50])})
    if choice == 11:  # the seat itself (its token): the chat, offers and resigning below are a seat's
        return encode({"kind": "resume", "code": code, "token": token})
    if choice == 12:
        pieces = ["", " ", "\n", "\t", "\u0000", "\u202e", "\udcff", "ok", "x" * 499, "é"]
        return encode({"kind": "chat", "text": "".join(rng.choice(pieces) for _ in range(rng.randrange(4)))})
    if choice == 13:
        whats: list[Any] = ["undo", "draw", "resign", "", None, 1, ["undo"]]
        accepts: list[Any] = [True, False, 0, 1, "yes", None]
        message = {"kind": rng.choice(["offer", "answer", "resign"]), "what": rng.choice(whats)}
        if rng.random() < 0.7:
            message["accept"] = rng.choice(accepts)
        return encode(message)
    if choice == 14:
        items: list[Any] = [
            {"code": code, "token": token},
            {"code": code, "token": token[:-1] + "0"},
            {"code": code},
            {"token": token},
            [code, token],
            None,
            {"code": 5, "token": []},
            {"code": "?" * 200, "token": "é"},
        ]
        count = rng.choice([0, 1, 3, 101])
        return encode({"kind": "seats", "seats": [rng.choice(items) for _ in range(count)]})
    if choice == 15:
        texts = [
            "",
            'kind = "scenario"',
            'kind = "scenario"\ntitle = "x"\nmap = "/etc/passwd.toml"\n[axis]\n[allies]\n',
            'kind = "scenario"\ntitle = "x"\nmap = "../../maps/x.toml"\n',
            "[" * 500,
            "\udcff",
            'kind = "map"',
        ]
        message = {
            "kind": "new",
            "scenario": rng.choice(["file", "file", "standard", "x.toml"]),
            "scenario_file": rng.choice(["s.toml", "", "\u0000", "/etc/passwd", "x" * 400, "\udcff"]),
            "scenario_text": rng.choice(texts),
        }
        if rng.random() < 0.5:
            message["map_text"] = rng.choice(texts)
        return encode(message)
    return json.dumps({"kind": "watch", "code": code, "extra": [rng.random() for _ in range(50)]})


async def fuzz(url: str, code: str, token: str, count: int, seed: int) -> int:
    """Send `count` hostile messages over fresh connections (a few dozen each): the errors received."""
    rng = random.Random(seed)
    errors = 0
    sent = 0
    while sent < count:
        try:
            ws = await talk(url)
        except (OSError, TimeoutError):
            await asyncio.sleep(0.05)
            continue
        try:
            for _ in range(rng.randrange(1, 40)):
                await ws.send(hostile(rng, code, token))
                sent += 1
                reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
                errors += reply.get("kind") == "error"
        except ConnectionClosed:
            pass
        finally:
            await ws.close()
    return errors


@pytest.mark.parametrize("count", [300, pytest.param(1500, marks=pytest.mark.slow)])
def test_a_fuzz_of_hostile_messages_leaves_the_server_and_other_battles_well(
    tmp_path: Path, count: int
) -> None:
    server = ServerProcess(tmp_path, 4)
    players: list[subprocess.Popen[str]] = []
    try:
        with time_limit(600):
            server.start()
            victim = asyncio.run(request(server.url, {"kind": "new"}))["code"]

            async def victim_token() -> str:
                ws = await talk(server.url)
                taken = await answer(ws, {"kind": "join", "code": victim, "side": "axis"})
                await ws.close()
                return str(taken["token"])

            token = asyncio.run(victim_token())
            bystander = asyncio.run(request(server.url, {"kind": "new", "config": 1, "turn_limit": 4}))[
                "code"
            ]
            players = [
                subprocess.Popen(
                    minis_command("bot", server.url, bystander, "--side", side, "--strength", "random"),
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                    env=environment(),
                )
                for side in ("axis", "allies")
            ]
            errors = asyncio.run(fuzz(server.url, victim, token, count, count))
            assert errors > count // 2
            for player in players:
                out, err = player.communicate(timeout=240)
                assert player.returncode == 0, err
                assert out.strip().splitlines()[-1].startswith("winner=")
            assert asyncio.run(request(server.url, {"kind": "ping"}))["kind"] == "pong"
            assert asyncio.run(request(server.url, {"kind": "record", "code": bystander}))["kind"] == "record"
    finally:
        stop_all(players, server)
    log = server.log()
    assert "Traceback" not in log and "ERROR" not in log, log[-3000:]


def test_a_seat_that_reads_nothing_is_closed_and_resumes(tmp_path: Path, caplog: Any) -> None:
    """A send that does not go out in time (a client that stopped reading) closes that connection: the
    client reconnects and resumes its seat, where a connection kept open would wait for states forever."""

    async def run() -> None:
        async with served(tmp_path, limits=Limits(send_timeout=0.3)) as (server, url):
            code = (await request(url, {"kind": "new", "config": 1}))["code"]
            axis, token, _ = await seat(url, code, "axis")
            allies, _, _ = await seat(url, code, "allies")
            (stuck,) = server.tables[code].listeners[Side.AXIS]

            async def never(*_: Any) -> None:
                await asyncio.sleep(3600)  # as a send to a client that reads nothing

            stuck.ws.send = never  # type: ignore[method-assign]
            await allies.send(encode({"kind": "chat", "text": "hello"}))  # a line for both seats
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(axis.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011
            again = await talk(url)
            resumed = await answer(again, {"kind": "resume", "code": code, "token": token})
            assert resumed["kind"] == "seat" and resumed["side"] == "axis"
            for ws in (again, allies):
                await ws.close()

    with time_limit(60), caplog.at_level(logging.INFO):
        asyncio.run(run())
    no_tracebacks(caplog)
