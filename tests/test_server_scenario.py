"""Battles of scenario files on a game server: `new_message` reads the file and its map file and
sends their text; the server checks them again (never reading a file a client names), checks the
armies against the scenario's limits, and plays it: a whole battle between two network bots. A bad
file gives its problems as FILE:LINE:COL lines, at the client and at the server."""

from __future__ import annotations

import asyncio
import random
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from minis.ai.army_maker import army_for_scenario
from minis.army import dump_army
from minis.base.errors import MinisError, problem_lines
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.engine.scenario import load_scenario
from minis.net.bot import play_seat
from minis.net.client import NetError, new_message, request
from minis.record import parse_record, replay_record
from tests.helpers_netplay import AXIS, Peer, join
from tests.helpers_server import ROOT, served, time_limit
from tests.test_server_offers import run_cli

SCENARIOS = ROOT / "scenarios"
PROBLEM = re.compile(r"^(.+):(\d+):(\d+): .+$")


def short_river_crossing(folder: Path) -> Path:
    """The shipped River Crossing (a map file, preset units, years) cut to two turns, in `folder`."""
    (folder / "maps").mkdir(parents=True, exist_ok=True)
    shutil.copy(SCENARIOS / "maps" / "river-crossing.toml", folder / "maps" / "river-crossing.toml")
    text = (SCENARIOS / "river-crossing.toml").read_text()
    text = text.replace('map = "maps/river-crossing.toml"', 'map = "maps/river-crossing.toml"\nturns = 2')
    path = folder / "short-crossing.toml"
    path.write_text(text)
    return path


def armies_for(path: Path) -> dict[Side, str]:
    plan = load_scenario(path)
    rng = random.Random(3)
    return {side: dump_army(army_for_scenario(plan, side, rng, cards=card_catalogue())) for side in Side}


def test_new_message_sends_a_scenario_file_and_its_map(tmp_path: Path) -> None:
    path = short_river_crossing(tmp_path)
    message = new_message(scenario=str(path))
    assert message["kind"] == "new" and message["scenario"] == "file"
    assert message["scenario_file"] == str(path.resolve())  # what `minis replay` looks for
    assert message["scenario_text"] == path.read_text()
    assert message["map_text"] == (tmp_path / "maps" / "river-crossing.toml").read_text()
    shipped = new_message(scenario="airborne-drop")  # a shipped one by name; its map is a number
    assert shipped["scenario_file"] == "airborne-drop" and "map_text" not in shipped
    assert new_message(scenario="assault", attacker="allies", config=2) == {
        "kind": "new",
        "scenario": "assault",
        "config": 2,
        "attacker": "allies",
    }
    with pytest.raises(MinisError, match="leave --rules out"):
        new_message(scenario=str(path), rules="2008")


def test_a_whole_battle_of_a_scenario_file_between_two_network_bots(tmp_path: Path) -> None:
    path = short_river_crossing(tmp_path)
    armies = armies_for(path)

    async def run() -> tuple[Any, str, list[Side | None]]:
        async with served(tmp_path, seed=9) as (server, url):
            created = await request(url, new_message(scenario=str(path)))
            code = created["code"]
            other = (await request(url, new_message(scenario=str(path))))["code"]
            sample = await Peer.open(url)  # an army over the scenario's limits is refused
            await sample.ask({"kind": "join", "code": other, "side": "axis"}, "seat")
            refused = await sample.ask({"kind": "army", "text": AXIS})
            lines = refused["message"].splitlines()
            assert lines and all(PROBLEM.match(line) for line in lines), lines
            assert "70" in refused["message"]  # the scenario's points, not the rulebook's 100
            await sample.close()
            winners = await asyncio.wait_for(
                asyncio.gather(
                    play_seat(url, code, Side.AXIS, armies[Side.AXIS], strength="random", seed=1, quiet=True),
                    play_seat(
                        url, code, Side.ALLIES, armies[Side.ALLIES], strength="random", seed=2, quiet=True
                    ),
                ),
                timeout=150,
            )
            text = (await request(url, {"kind": "record", "code": code}))["text"]
            return server.tables[code], text, list(winners)

    with time_limit(180):
        table, text, winners = asyncio.run(run())
    game = table.game
    assert game is not None and game.over and winners == [game.winner] * 2
    assert game.state.turn <= 2 and game.header["scenario_file"] == str(path.resolve())
    assert any(unit.id.startswith("higgins") or "dd" in unit.id for unit in game.state.units.values())
    record = parse_record(text)
    assert record.header["scenario_file"] == str(path.resolve()) and "seed" not in record.header
    replayed = replay_record(record)
    assert replayed.state.units == game.state.units and replayed.winner == game.winner
    file = tmp_path / "crossing.rec"
    file.write_text(text)
    status, out, err = run_cli("replay", str(file))
    assert status == 0 and "winner:" in out, err


def test_a_bad_scenario_file_is_refused_with_its_problems(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('kind = "scenario"\ntitle = "Bad"\nmap = 9\n\n[axis]\npoints = "many"\n\n[allies]\n')
    with pytest.raises(MinisError) as raised:
        new_message(scenario=str(bad))
    lines = problem_lines(raised.value.problems)
    assert any(line.startswith(f"{bad}:3:1: ") for line in lines), lines
    assert any(line.startswith(f"{bad}:6:1: ") for line in lines), lines

    async def run() -> None:
        async with served(tmp_path) as (_, url):
            status, out, err = await asyncio.to_thread(run_cli, "net", "new", url, "--scenario", str(bad))
            assert status == 1 and out == "" and f"{bad}:3:1:" in err and "Traceback" not in err
            path = short_river_crossing(tmp_path)
            status, out, err = await asyncio.to_thread(run_cli, "net", "new", url, "--scenario", str(path))
            assert status == 0 and out.splitlines()[-1].startswith("code="), err
            status, out, err = await asyncio.to_thread(
                run_cli, "net", "new", url, "--scenario", str(path), "--config", "2"
            )
            assert status == 1 and "leave --config out" in err and out == ""
            good = new_message(scenario=str(path))
            peer = await Peer.open(url)
            for message, words in (
                (
                    {**good, "scenario_text": bad.read_text(), "map_text": None, "scenario_file": "bad.toml"},
                    None,
                ),
                ({**good, "map_text": None}, "is needed as 'map_text'"),
                ({**good, "map_text": "[broken\n"}, None),
                ({**good, "map_text": 'kind = "configuration"\n'}, 'a map file (kind = "map")'),
                ({**good, "rules": "2008"}, "leave 'rules' out"),
                ({**good, "config": 2}, "leave 'config' out"),
                ({**good, "turn_limit": 3}, "leave 'turn_limit' out"),
                ({**good, "attacker": "axis"}, "no attacker to choose"),
                ({**good, "scenario_file": ""}, "'scenario_file' is a file name"),
                ({**good, "scenario_file": "a\nb"}, "'scenario_file' is a file name"),
                ({**good, "scenario_file": 5}, "has the wrong type"),
                ({"kind": "new", "scenario": "file"}, "needs 'scenario_file'"),
                ({"kind": "new", "scenario": "other.toml"}, "'standard', 'assault' or 'file'"),
                (
                    {
                        **good,
                        "scenario_text": good["scenario_text"].replace(
                            "maps/river-crossing.toml", "/etc/passwd.toml"
                        ),
                        "map_text": None,
                    },
                    "is needed as 'map_text'",  # the server reads no file a client names
                ),
            ):
                refused = await peer.ask(message)
                if words is None:  # the file's own problems, each FILE:LINE:COL
                    lines = refused["message"].splitlines()
                    assert lines and all(PROBLEM.match(line) for line in lines), refused
                else:
                    assert words in refused["message"], (message.get("scenario_file"), refused)
            unknown = await peer.ask({**good, "scenario_text": bad.read_text(), "map_text": None})
            assert f"{good['scenario_file']}:3:1: " in unknown["message"]
            assert (await peer.ask(good, "created"))["code"]
            await peer.close()

    with time_limit(60):
        asyncio.run(run())


def test_an_assault_scenario_file_defaults_its_attacker_and_keeps_the_scenario_limits(tmp_path: Path) -> None:
    async def run() -> None:
        async with served(tmp_path) as (server, url):
            for attacker, want in ((None, "axis"), ("allies", "allies")):
                created = await request(url, new_message(scenario="assault", attacker=attacker))
                assert server.tables[created["code"]].settings["attacker"] == want
            created = await request(
                url, new_message(scenario=str(SCENARIOS / "assault.toml"), attacker="allies")
            )
            table = server.tables[created["code"]]
            assert table.plan is not None and table.settings["attacker"] == "allies"
            assert table.settings["scenario_file"] == "assault"
            peer, _ = await join(url, created["code"], Side.AXIS)
            refused = await peer.ask({"kind": "army", "text": AXIS})  # the defender's limit: 80 points
            assert refused["message"] == "army:9:1: 100 points, 20 over the 80-point limit"
            await peer.close()
            with pytest.raises(NetError, match="needs 'scenario_file'"):
                await request(url, {"kind": "new", "scenario": "file", "scenario_text": "x"})

    with time_limit(60):
        asyncio.run(run())
