"""The server's dice come from a keyed hash (`minis.dice.KeyedFaces`), not Python's Mersenne Twister
whose state the dice a player sees could in principle give away; a battle stored by an older server
(its settings say nothing of its dice) still replays with the generator it was played with."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from minis.base.sides import Side
from minis.dice import KeyedFaces
from minis.net.bot import play_seat
from minis.net.client import request
from tests.helpers_server import ARMIES, served, time_limit

AXIS = (ARMIES / "sample-axis.toml").read_text()
ALLIES = (ARMIES / "sample-allies.toml").read_text()


async def a_battle(data: Path, older: bool) -> tuple[int, list[object]]:
    """A short battle between two network bots; with `older`, its settings stored as an older server
    stored them (no `dice`) before the armies arrive. The battle's number and its record's dice."""
    async with served(data, seed=4) as (server, url):
        code = (await request(url, {"kind": "new", "config": 2, "turn_limit": 1}))["code"]
        table = server.tables[code]
        assert table.settings["dice"] == "keyed"
        if older:
            del table.settings["dice"]
            server.store.db.execute(
                "UPDATE battles SET settings = ? WHERE number = ?", (json.dumps(table.settings), table.number)
            )
        await asyncio.wait_for(
            asyncio.gather(
                play_seat(url, code, Side.AXIS, AXIS, strength="random", seed=1, quiet=True),
                play_seat(url, code, Side.ALLIES, ALLIES, strength="random", seed=2, quiet=True),
            ),
            timeout=120,
        )
        assert table.game is not None
        assert isinstance(table.game.dice._rng, KeyedFaces) is not older
        return table.number, [entry.dice for entry in table.game.record]


def test_the_servers_dice_are_keyed_and_an_older_battle_keeps_its_own(tmp_path: Path) -> None:
    with time_limit(240):
        _, keyed = asyncio.run(a_battle(tmp_path / "new", older=False))
        _, twister = asyncio.run(a_battle(tmp_path / "old", older=True))
        assert keyed != twister  # the same battle's seed, another generator

        async def restart(data: Path) -> None:
            async with served(data, seed=None) as (server, _):
                (table,) = server.tables.values()  # replayed: the dice rolled are the stored ones
                assert table.game is not None and table.game.over

        asyncio.run(restart(tmp_path / "new"))
        asyncio.run(restart(tmp_path / "old"))
