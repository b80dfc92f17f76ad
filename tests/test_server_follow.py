"""A seat follows the battle from the server's states: each state's entries (the decision's action
and the server's dice), replayed on the seat's previous projection, give the decision's events and
the very position the server's new projection shows; the other army's set-up decisions are never
sent before it is revealed, and a seat that resumes gets the record it may see."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from minis.army import parse_army
from minis.base.sides import Side
from minis.dice import Dice
from minis.net.bot import decide, play_seat
from minis.net.client import SeatClient, request
from minis.net.follow import Follower, replay
from tests.helpers_server import ARMIES, served, time_limit

AXIS = (ARMIES / "sample-axis.toml").read_text()
ALLIES = (ARMIES / "sample-allies.toml").read_text()
AXIS_UNITS = len(parse_army(AXIS, "axis").units)


async def follow_a_battle(data: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {"replayed": 0, "states": 0, "hidden_entries": 0, "events": 0, "states_hidden": 0}
    async with served(data, seed=5) as (_, url):
        code = (await request(url, {"kind": "new", "config": 2, "turn_limit": 2}))["code"]
        follower = Follower()
        sent: list[str] = []
        decided: dict[str, int] = {}
        client = SeatClient(url, code, Side.ALLIES)

        async def on_state(seat: SeatClient, message: dict[str, Any]) -> None:
            if message["kind"] == "error":
                assert message.get("stale"), message  # a decision on a position already gone: none else
                return
            if not message["started"]:
                if not message["armies"]["allies"] and not seen.get("sent"):
                    seen["sent"] = True
                    await seat.send({"kind": "army", "text": ALLIES})
                return
            game = seat.game(Dice(seed=0))
            assert game is not None
            previous = follower.game
            entries = message.get("entries") or []
            axis_seen = sum(1 for unit in game.state.units.values() if unit.side is Side.AXIS)
            if axis_seen < AXIS_UNITS:
                # before the Axis army is revealed, only the seat's own decisions come back
                seen["hidden_entries"] += sum(1 for _, action, _ in entries if action not in sent)
                seen["states_hidden"] += 1
            fresh = [e for e in follower_entries(entries) if e[0] >= follower.at]
            if previous is not None and fresh and axis_seen == AXIS_UNITS:
                played = replay(previous, [entry for _, entry in fresh])
                if played is not None:
                    twin, _ = played
                    assert twin.state.units == game.state.units
                    assert (twin.state.turn, twin.state.phase, twin.state.stage) == (
                        game.state.turn,
                        game.state.phase,
                        game.state.stage,
                    )
            followed = follower.take(message, game)
            seen["states"] += 1
            seen["replayed"] += followed.replayed
            seen["events"] += len(followed.events)
            if message.get("over"):
                seen["lines"] = follower.lines()
                seat.stop()
            elif message.get("decider") == "allies" and decided.get("at") != message["at"]:
                decided["at"] = message["at"]  # one decision a position (a state may come twice)
                sent.append(await asyncio.to_thread(decide, seat, "random", 2))
                await seat.decide(sent[-1])

        axis = play_seat(url, code, Side.AXIS, AXIS, strength="random", seed=1, quiet=True)
        await asyncio.wait_for(asyncio.gather(axis, client.run(on_state)), timeout=150)
        table_record = (await request(url, {"kind": "record", "code": code}))["text"]
        seen["record"] = table_record
    return seen


def follower_entries(raw: list[Any]) -> list[tuple[int, Any]]:
    from minis.net.follow import entries_of

    return entries_of({"entries": raw})


def test_a_seat_replays_each_decision_to_the_servers_position(tmp_path: Path) -> None:
    with time_limit(180):
        seen = asyncio.run(follow_a_battle(tmp_path))
    assert seen["states"] > 20
    assert seen["replayed"] > 10 and seen["events"] > seen["replayed"]
    assert seen["hidden_entries"] == 0 and seen["states_hidden"] > 5
    # the seat's log is the record's actions: every line of the finished battle's record is there
    record_actions = [
        line.split("|")[0].strip()
        for line in seen["record"].splitlines()
        if line and not line.startswith(("#", "[", " ")) and "=" not in line.split(" | ")[0]
    ]
    lines = [line.split("|")[0].strip() for line in seen["lines"]]
    assert len(lines) > 20 and lines[-20:] == record_actions[-20:]
