"""The protocol's edges: a packed game names only minis's classes (a hostile server cannot make a
client run code), a decision the store refuses is not made, and the commands' exit codes."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import pickle
import sqlite3
import zlib
from pathlib import Path
from typing import Any

import pytest

from minis.army import load_army
from minis.base.sides import Side
from minis.cli import main
from minis.dice import Dice
from minis.engine.projection import project
from minis.game import Game
from minis.net.protocol import ProtocolError, pack_game, unpack_game
from tests.helpers_server import ARMIES, served, time_limit
from tests.test_server_hostile import answer, next_state, seat, talk


class Boom:
    def __reduce__(self) -> tuple[Any, ...]:
        return (print, ("a server ran code on the client",))


def packed(value: object) -> str:
    return base64.b64encode(zlib.compress(pickle.dumps(value))).decode()


def test_a_packed_game_comes_back_for_its_side() -> None:
    game = Game.new(
        load_army(ARMIES / "sample-axis.toml"), load_army(ARMIES / "sample-allies.toml"), dice=Dice(seed=3)
    )
    seen = project(game, Side.AXIS, Dice(seed=0))
    back = unpack_game(pack_game(seen), Dice(seed=1))
    assert back.state.units == seen.state.units and back.header == seen.header
    assert back.decider() == game.decider() and back.legal_actions() == game.legal_actions()


@pytest.mark.parametrize(
    "text",
    [
        packed(Boom()),
        packed((Boom(), {})),
        "not base64!",
        base64.b64encode(b"not zlib").decode(),
        packed(({}, {})),
        base64.b64encode(zlib.compress(b"\0" * (40 * 1024 * 1024))).decode(),  # a bomb: 40 MB unpacked
    ],
    ids=["code", "code-in-a-tuple", "base64", "zlib", "no-game", "bomb"],
)
def test_a_packed_game_that_is_no_game_is_refused(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ProtocolError):
        unpack_game(text, Dice(seed=0))
    assert "ran code" not in capsys.readouterr().out


def test_a_decision_the_store_refuses_is_not_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def run() -> None:
        async with served(tmp_path) as (server, url):
            ws, _, _ = await seat(url, (code := (await _new(url))), "axis")
            other, _, _ = await seat(url, code, "allies")
            await answer(ws, {"kind": "army", "text": (ARMIES / "sample-axis.toml").read_text()})
            await answer(other, {"kind": "army", "text": (ARMIES / "sample-allies.toml").read_text()})
            state = await next_state(ws)
            while not state["started"]:
                state = await next_state(ws)
            mover = ws if state["decider"] == "axis" else other
            table = server.tables[code]
            assert table.game is not None
            action = table.game.format(table.game.legal_actions()[0])
            units = table.game.state.clone().units

            def full(*args: object) -> None:
                raise sqlite3.OperationalError("database or disk is full")

            monkeypatch.setattr(server.store, "add_entries", full)
            refused = await answer(mover, {"kind": "decide", "action": action, "at": state["at"]})
            assert refused["kind"] == "error" and "could not store" in refused["message"]
            table = server.tables[code]
            assert table.at == state["at"] and table.game is not None and table.game.state.units == units
            monkeypatch.undo()
            await mover.send(f'{{"kind": "decide", "action": "{action}", "at": {state["at"]}}}')
            assert (await next_state(mover))["at"] == state["at"] + 1  # the listeners kept, the battle on
            for conn in (ws, other):
                await conn.close()

    with time_limit(60):
        asyncio.run(run())


async def _new(url: str) -> str:
    from minis.net.client import request

    return str((await request(url, {"kind": "new", "config": 1}))["code"])


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_the_commands_exit_codes(tmp_path: Path) -> None:
    with time_limit(60):
        assert run_cli("net", "new", "ws://127.0.0.1:9")[0] == 2  # nobody listens on port 9
        assert run_cli("net", "new", "nonsense")[0] == 2
        code, _, err = run_cli("net", "record", "ws://127.0.0.1:9", "CODE", str(tmp_path / "r.rec"))
        assert code == 2 and "cannot reach" in err and "Traceback" not in err
        code, _, err = run_cli("bot", "ws://127.0.0.1:9", "CODE", "--side", "axis", "--patience", "0.5")
        assert code == 1 and "lost the server" in err
        for pause in ("inf", "nan", "-1"):  # a bot that would never decide: refused at once
            code, _, err = run_cli("bot", "ws://127.0.0.1:9", "CODE", "--side", "axis", "--pause", pause)
            assert code == 2 and "--pause is a number of seconds" in err and "Traceback" not in err


def test_a_client_joining_again_with_its_nonce_gets_its_token_again(tmp_path: Path) -> None:
    """A join whose answer was lost (the server killed after storing the seat) is not locked out."""

    async def run() -> None:
        async with served(tmp_path) as (_, url):
            code = await _new(url)
            tokens = []
            for nonce in ("n" * 32, "n" * 32, "m" * 32, None, "short"):
                ws = await talk(url)
                message: dict[str, Any] = {"kind": "join", "code": code, "side": "axis"}
                if nonce is not None:
                    message["nonce"] = nonce
                tokens.append(await answer(ws, message))
                await ws.close()
            assert (
                tokens[0]["kind"] == tokens[1]["kind"] == "seat" and tokens[0]["token"] == tokens[1]["token"]
            )
            assert [t["kind"] for t in tokens[2:]] == ["error"] * 3
            assert "taken" in tokens[2]["message"] and "taken" in tokens[3]["message"]
            assert "nonce" in tokens[4]["message"]

    with time_limit(60):
        asyncio.run(run())
