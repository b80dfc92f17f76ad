"""The window's side of network play without a window: two `NetSession`s (each a seat's `Link` in a
thread of its own) play a battle on a server this test starts on 127.0.0.1 (`LocalServer`), each
deciding only from its own projection; their positions agree after every decision once the armies
are revealed; each is driven through the battle controller (the window's, without a window) with the
engine's invariants after every decision, and the server's record replays to the final position; each
decision comes back with its events, a refused decision is refused at once with
the rules' reason (nothing sent), a decision out of turn is refused, and the stored seats file is
written atomically, readable by its owner only, and survives a broken file."""

from __future__ import annotations

import asyncio
import json
import os
import random
import stat
import time
from pathlib import Path
from typing import Any

import pytest

from minis.ai.random_bot import RandomBot
from minis.army import parse_army
from minis.base.sides import Side
from minis.net.client import NetError, request
from minis.net.link import Link
from minis.net.local import LocalServer
from minis.net.seats import StoredSeat, forget, load_seats, remember
from minis.record import parse_record, replay_record
from minis.rules.errors import IllegalAction
from tests.engine_support import check_invariants
from tests.helpers_server import ARMIES, time_limit

AXIS = (ARMIES / "sample-axis.toml").read_text()
ALLIES = (ARMIES / "sample-allies.toml").read_text()


def first_state(link: Link, army: str) -> dict[str, Any]:
    """Send the seat's army, then wait for the state in which the battle has begun."""
    link.send({"kind": "army", "text": army})
    state = link.wait(lambda m: m.get("kind") == "state" and bool(m.get("started")), 20)
    assert state is not None, link.poll()
    return state


@pytest.fixture
def server(tmp_path: Path) -> Any:
    local = LocalServer(tmp_path / "server", host="127.0.0.1", port=0, seed=8)
    local.start()
    yield local
    local.stop()


def seats_of(server: LocalServer) -> tuple[Link, Link]:
    code = asyncio.run(request(server.url, {"kind": "new", "config": 3, "turn_limit": 2}))["code"]
    return Link(server.url, code, Side.AXIS), Link(server.url, code, Side.ALLIES)


def test_two_seats_play_a_battle_each_from_its_own_projection(server: LocalServer) -> None:
    from minis.ui.controller import BattleController
    from minis.ui.netsession import NetSession

    axis_link, allies_link = seats_of(server)
    sessions: dict[Side, NetSession] = {}
    try:
        with time_limit(200):
            axis_link.send({"kind": "army", "text": AXIS})
            allies_state = first_state(allies_link, ALLIES)
            axis_state = axis_link.wait(lambda m: m.get("kind") == "state" and bool(m.get("started")), 20)
            assert axis_state is not None
            sessions = {
                Side.AXIS: NetSession(axis_link, axis_state),
                Side.ALLIES: NetSession(allies_link, allies_state),
            }
            controllers = {side: BattleController(session) for side, session in sessions.items()}
            for side, control in controllers.items():
                control.elsewhere = frozenset({side.other})  # the other seat decides elsewhere
            bots = {side: RandomBot(random.Random(side.value).randrange(2**32)) for side in Side}
            axis_units = len(parse_army(AXIS, "axis").units)
            decisions = with_events = agreed = 0
            refused_at_once = out_of_turn = False
            while True:
                for side, session in sessions.items():
                    session.poll()
                    while (arrived := session.next_state()) is not None:
                        controllers[side].arrived(arrived)
                if all(session.over for session in sessions.values()):
                    break
                axis, allies = sessions[Side.AXIS], sessions[Side.ALLIES]
                revealed = (
                    sum(1 for u in allies.game.state.units.values() if u.side is Side.AXIS) == axis_units
                )
                if revealed and axis.follower.at == allies.follower.at:
                    assert axis.game.state.units == allies.game.state.units  # one battle, seen from two seats
                    agreed += 1
                deciders = [side for side, s in sessions.items() if s.game.decider() is side]
                if not deciders:
                    time.sleep(0.005)  # the other seat's state is on its way (the time limit bounds it)
                    continue
                side = deciders[0]
                session = sessions[side]
                other = sessions[side.other]
                if not out_of_turn and other.game.decider() is side:
                    with pytest.raises(IllegalAction, match="other player's decision"):
                        other.apply("pass")
                    out_of_turn = True
                if not refused_at_once and session.game.state.phase.value == "movement":
                    sent = session.link.received
                    with pytest.raises(IllegalAction):
                        session.apply("move nosuchunit A1")
                    assert session.link.received == sent  # refused here: nothing went to the server
                    refused_at_once = True
                action = bots[side].choose(session.game)
                before = len(session.events)
                assert controllers[side].act(action), controllers[side].message
                events = session.events[before:]
                decisions += 1
                with_events += bool(events)
                table = next(iter(server.server.tables.values()))  # the server's own battle
                check_invariants(table.game)
                check_invariants(session.game)
            assert all(session.over for session in sessions.values())
            assert decisions > 30 and with_events > decisions // 2
            assert refused_at_once and out_of_turn and agreed > 5
            assert sessions[Side.AXIS].log_lines()[-5:] == sessions[Side.ALLIES].log_lines()[-5:]
            assert sessions[Side.AXIS].winner == sessions[Side.ALLIES].winner
            # the server's record replays to the identical final position
            text = asyncio.run(request(server.url, {"kind": "record", "code": axis_link.code}))["text"]
            replayed = replay_record(parse_record(text))
            final = next(iter(server.server.tables.values())).game
            assert replayed.state.units == final.state.units
            assert (replayed.state.turn, replayed.winner) == (final.state.turn, final.winner)
            assert replayed.state.units == sessions[Side.AXIS].game.state.units
    finally:
        for link in (axis_link, allies_link):
            link.close()


def test_a_link_to_no_server_ends_with_a_plain_message() -> None:
    link = Link("ws://127.0.0.1:9", "NOSUCHCODE", Side.AXIS, patience=0.5)
    try:
        with time_limit(30):
            gone = link.wait(lambda m: m.get("kind") == "gone", 20)
            assert gone is not None and "server" in gone["message"]
            link.send({"kind": "ping"})
            error = link.wait(lambda m: m.get("kind") == "error", 5)
            assert error is not None and error.get("offline")
    finally:
        link.close()


def test_a_local_server_on_a_busy_port_says_so(server: LocalServer, tmp_path: Path) -> None:
    second = LocalServer(tmp_path / "other", host="127.0.0.1", port=server.port)
    with pytest.raises(NetError, match="cannot listen on port"):
        second.start()
    second.stop()


def test_the_stored_seats(tmp_path: Path) -> None:
    path = tmp_path / "network" / "seats.json"
    first = StoredSeat("ws://a:1", "CODE1", "axis", "t" * 32, "Standard battle, 2005 rules", made=1.0)
    second = StoredSeat("ws://a:1", "CODE2", "allies", "u" * 32, made=2.0)
    remember(first, path)
    remember(second, path)
    assert load_seats(path) == [second, first]  # newest first
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600  # a token is a key
    remember(StoredSeat("ws://a:1", "CODE1", "axis", "v" * 32, made=3.0), path)  # the same seat again
    assert [seat.token[0] for seat in load_seats(path)] == ["v", "u"]
    forget("ws://a:1", "CODE2", "allies", path)
    assert [seat.code for seat in load_seats(path)] == ["CODE1"]
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".")]  # no temporary file left
    path.write_text("{not json")
    assert load_seats(path) == []  # a broken file lists nothing, and is not thrown away by reading
    assert path.read_text() == "{not json"
    path.write_text(
        json.dumps({"seats": [{"url": 1}, "x", {"url": "u", "code": "c", "side": "nope", "token": "t"}]})
    )
    assert load_seats(path) == []
