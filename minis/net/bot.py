"""The computer as a network player (`minis bot`): it takes a seat and plays it from the projections
the server sends, through the same messages a person's window sends.

Each decision is made by a bot seeded from the bot's seed and the decision's place in the record
(`at`), on the projection as received, with dice of its own: so a bot that loses its connection and
decides the same position again decides the same, and a battle between seeded bots on a server with
the test-only seed is the same battle however often the server is killed and restarted.

To the other player it is an easy opponent: it lets them take back a decision, refuses a draw (it
plays on), ignores the chat and offers nothing itself; a resignation ends its game like any result.
"""

from __future__ import annotations

import asyncio
import random
import sys
from typing import Any

from minis.ai.bot import Bot
from minis.ai.registry import make_bot
from minis.base.sides import Side
from minis.dice import Dice
from minis.net.client import NetError, SeatClient

__all__ = ["STRENGTHS", "play_seat"]

#: The strengths a network bot plays at: the window's three, and `random` (fast; for tests and load).
STRENGTHS = ("random", "easy", "normal", "hard")


def bot_of(strength: str, seed: int) -> Bot:
    if strength == "random":
        return make_bot("random", seed)
    from minis.ai.strength import bot_for

    return bot_for(strength, seed, workers=1)


def decide(packed_state: SeatClient, strength: str, seed: int) -> str:
    """The bot's decision on the projection last received, in the action notation."""
    assert packed_state.state is not None
    at = packed_state.state["at"]
    own = random.Random(f"{seed}:{at}")
    game = packed_state.game(Dice(seed=own.getrandbits(63)))
    assert game is not None
    action = bot_of(strength, own.getrandbits(63)).choose(game)
    return game.format(action)


async def play_seat(
    url: str,
    code: str,
    side: Side,
    army_text: str,
    *,
    strength: str = "easy",
    seed: int = 0,
    patience: float = 60.0,
    quiet: bool = False,
    pause: float = 0.0,
) -> Side | None:
    """Take the seat, send the army, play to the end; the winner (None: a draw). NetError when the
    server refuses the seat, the army or a decision, or stays away longer than `patience`. `pause`:
    seconds (on average: half to one and a half times it) waited before sending each decision, a
    person's thinking in a load test (tools/net_load.py)."""
    result: dict[str, Any] = {}

    def note(text: str) -> None:
        if not quiet:
            print(f"bot {side.value}: {text}", file=sys.stderr)

    client = SeatClient(url, code, side, patience=patience, log=note)
    army_sent: list[int] = []
    answered: set[str] = set()

    async def on_state(seat: SeatClient, message: dict[str, Any]) -> None:
        if message["kind"] == "error":
            about = message.get("about")
            if message.get("stale") or (about == "army" and seat.state and seat.state.get("started")):
                return  # the battle moved on meanwhile (a reconnection): the next state says where
            if about == "answer":
                return  # an offer answered twice (a state repeated it) or withdrawn meanwhile
            raise NetError(str(message.get("message")))
        if message.get("over"):
            winner = message.get("winner")
            result["winner"] = Side(winner) if winner else None
            seat.stop()
            return
        if not message["started"]:
            if not message["armies"][side.value] and id(seat._ws) not in army_sent:
                army_sent.append(id(seat._ws))
                await seat.send({"kind": "army", "text": army_text})
            return
        offers = message.get("offers") or {}
        for what, accept in (("undo", True), ("draw", False)):
            if offers.get(what) != side.other.value:
                answered.discard(what)  # answered (or gone): the next offer is a new one
            elif what not in answered:  # once: a state before the answer arrives repeats the offer
                answered.add(what)
                await seat.send({"kind": "answer", "what": what, "accept": accept})
        if message.get("decider") == side.value:
            action = await asyncio.to_thread(decide, seat, strength, seed)
            if pause > 0:
                await asyncio.sleep(pause * random.Random(f"pause:{seed}:{message['at']}").uniform(0.5, 1.5))
            await seat.decide(action)

    await client.run(on_state)
    if "winner" not in result:
        raise NetError("the battle did not end")
    winner: Side | None = result["winner"]
    return winner
