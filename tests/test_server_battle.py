"""A whole battle on loopback: a game server and two computer players, each a network client that
decides on the projection the server sends; the engine's invariants hold after every accepted
decision, and the record the server gives replays (`minis replay`) to the identical final state."""

from __future__ import annotations

import asyncio
import contextlib
import io
from pathlib import Path
from typing import Any

import pytest

from minis.base.sides import Side
from minis.cli import main
from minis.net.bot import play_seat
from minis.net.client import NetError, request
from minis.net.server import GameServer
from minis.record import read_record, replay_record
from tests.engine_support import check_invariants
from tests.helpers_server import ARMIES, served, time_limit

AXIS = (ARMIES / "sample-axis.toml").read_text()
ALLIES = (ARMIES / "sample-allies.toml").read_text()
AMERICAN = (ARMIES / "sample-american.toml").read_text()  # an Allied army the 2008 rules allow


def checked(server: GameServer, seen: list[int]) -> None:
    """Check the engine's invariants on the server's true game before every state is sent."""
    original = server._broadcast

    async def broadcast(table: Any, *args: Any) -> None:
        if table.game is not None:
            check_invariants(table.game)
            seen.append(table.at)
        await original(table, *args)

    server._broadcast = broadcast  # type: ignore[method-assign]


async def battle(
    data: Path, allies: str = ALLIES, **settings: Any
) -> tuple[GameServer, str, str, list[Side | None], list[int]]:
    async with served(data, seed=11) as (server, url):
        seen: list[int] = []
        checked(server, seen)
        created = await request(url, {"kind": "new", "config": 1, "turn_limit": 3, **settings})
        code = created["code"]
        winners = await asyncio.wait_for(
            asyncio.gather(
                play_seat(url, code, Side.AXIS, AXIS, strength="random", seed=1, quiet=True),
                play_seat(url, code, Side.ALLIES, allies, strength="random", seed=2, quiet=True),
            ),
            timeout=150,
        )
        answer = await request(url, {"kind": "record", "code": code})
        return server, code, answer["text"], list(winners), seen


def test_a_whole_battle_between_two_network_bots(tmp_path: Path) -> None:
    with time_limit(180):
        server, code, text, winners, seen = asyncio.run(battle(tmp_path))
    table = server.tables[code]
    game = table.game
    assert game is not None and game.over
    assert winners[0] == winners[1] == game.winner
    assert len(seen) > 20 and seen == sorted(seen)  # the invariants held after every decision
    assert "seed" not in text  # the record given out never has the server's seed
    path = tmp_path / "battle.rec"
    path.write_text(text)
    replayed = replay_record(read_record(path))
    assert replayed.state.units == game.state.units
    assert (replayed.state.turn, replayed.state.phase, replayed.winner) == (
        game.state.turn,
        game.state.phase,
        game.winner,
    )
    assert [e.action for e in replayed.record] == [e.action for e in game.record]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["replay", str(path)]) == 0
    assert "destroyed" in out.getvalue() or "facing" in out.getvalue()


def test_the_stored_battles_come_back_after_a_restart(tmp_path: Path) -> None:
    """A server started again on the same data has every battle where it was (here: one finished)."""
    with time_limit(180):
        server, code, text, _, _ = asyncio.run(battle(tmp_path, AMERICAN, rules="2008"))

        async def again() -> dict[str, Any]:
            async with served(tmp_path, seed=None) as (restarted, url):
                assert code in restarted.tables
                game = restarted.tables[code].game
                assert game is not None and game.over
                assert game.state.units == server.tables[code].game.state.units  # type: ignore[union-attr]
                return await request(url, {"kind": "record", "code": code})

        assert asyncio.run(again())["text"] == text
    assert 'rules = "2008"' in text


def test_a_record_is_given_only_once_the_battle_is_over(tmp_path: Path) -> None:
    async def ask() -> None:
        async with served(tmp_path) as (_, url):
            created = await request(url, {"kind": "new"})
            with pytest.raises(NetError, match="not over"):
                await request(url, {"kind": "record", "code": created["code"]})
            with pytest.raises(NetError, match="no battle has that code"):
                await request(url, {"kind": "record", "code": "NOSUCHCODE"})

    with time_limit(30):
        asyncio.run(ask())
