"""Offers between the two seats (undo, draw), resigning, and the seats' statuses: an accepted undo
takes the battle back one decision (the same dice to come; the battle goes on and its record
replays), an undo is refused for a decision that rolled dice or asked the other player something, a
draw or a resignation ends the battle, is stored, survives a restart and is in the record
`minis replay` reads; the network bot accepts undos, refuses draws and stops when the other resigns."""

from __future__ import annotations

import asyncio
import contextlib
import io
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from minis.army import load_army
from minis.base.errors import MinisError, problem_lines
from minis.base.sides import Side
from minis.cli import main
from minis.dice import Dice
from minis.engine.projection import hidden_obstacles, hidden_units
from minis.game import Game
from minis.net.client import NetError, SeatClient, request
from minis.net.server import GameServer
from minis.record import parse_record, record_text, replay_record
from tests.helpers_netplay import AXIS, Battle, Peer, begin, join, random_bot, step
from tests.helpers_server import ARMIES, served, time_limit, wait_for


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def undoable(server: GameServer, battle: Battle, side: Side) -> bool:
    """The server's facts say `side` may take back the last decision (its own, no dice, still its)."""
    table = server.tables[battle.code]
    assert table.game is not None
    return (
        table.deciders[-1] is side
        and not table.game.record[-1].dice
        and table.game.decider() is side
        and table.at == len(table.game.record)
    )


def test_an_accepted_undo_takes_the_decision_back_and_the_battle_goes_on(tmp_path: Path) -> None:
    async def run() -> None:
        async with served(tmp_path, seed=5) as (server, url):
            battle = await begin(url, config=1, turn_limit=2)
            bot = random_bot(3)
            table = server.tables[battle.code]
            undone, hiddens = 0, []
            while undone < 3:  # three undos: one in the set-up (hidden), two once both armies are seen
                game = table.game
                assert game is not None and not game.over
                before = (table.at, game.state.clone(), game.dice.used)
                side, action, _ = await step(server, battle, bot)
                game = table.game
                hidden = any(hidden_units(game.state, s) or hidden_obstacles(game.state, s) for s in Side)
                if not undoable(server, battle, side) or (undone > 0 and hidden):
                    continue
                other = battle.seats[side.other]
                asked = await battle.seats[side].ask({"kind": "offer", "what": "undo"}, "state")
                assert asked["offers"] == {"undo": side.value, "draw": None}
                assert asked["undo_action"] == action  # the asker always sees its own
                seen = await other.state(lambda m: m["offers"]["undo"] is not None)
                assert seen["undo_action"] == ("a set-up decision (still hidden)" if hidden else action)
                hiddens.append(hidden)
                await other.send({"kind": "answer", "what": "undo", "accept": True})
                for peer in battle.seats.values():
                    back = await peer.state(lambda m: m.get("taken_back", False))
                    assert back["at"] == before[0] and back["entries"] == []
                    assert back["offers"] == {"undo": None, "draw": None} and "undo_action" not in back
                game = table.game
                assert game is not None
                assert table.at == before[0] == len(game.record) == len(table.deciders)
                assert game.state.units == before[1].units and game.state.stage == before[1].stage
                assert game.dice.used == before[2]  # it rolled none, so the dice to come are the same
                assert game.decider() is side
                undone += 1
            assert hiddens == [True, False, False]
            while not table.game.over:  # type: ignore[union-attr]
                await step(server, battle, bot)
            text = (await request(url, {"kind": "record", "code": battle.code}))["text"]
            replayed = replay_record(parse_record(text))
            assert replayed.state.units == table.game.state.units  # type: ignore[union-attr]
            assert replayed.record == table.game.record  # type: ignore[union-attr]
            stored = next(server.store.battles(table.number)).entries
            assert stored == table.game.record  # type: ignore[union-attr]
            await battle.close()

    with time_limit(120):
        asyncio.run(run())


def test_undo_refused_answered_no_and_the_offers_rules(tmp_path: Path) -> None:
    async def run() -> None:
        async with served(tmp_path, seed=5) as (server, url):
            battle = await begin(url, config=1, turn_limit=3)
            bot = random_bot(3)
            table = server.tables[battle.code]
            axis = battle.seats[Side.AXIS]
            nobody = await axis.ask({"kind": "answer", "what": "undo", "accept": True})
            assert "nobody asks" in nobody["message"]
            seen = {"passed": False, "dice": False, "refused": False}
            while not all(seen.values()):
                assert table.game is not None and not table.game.over, seen
                before = table.at
                side, _, _ = await step(server, battle, bot)
                if table.game.over:
                    break
                last = table.game.record[-1]
                if not last.dice and table.game.decider() is side.other and not seen["passed"]:
                    passed = await battle.seats[side].ask({"kind": "offer", "what": "undo"})
                    assert passed["message"] == "that decision asked the other player something: it stands"
                    mine = await battle.seats[side.other].ask({"kind": "offer", "what": "undo"})
                    assert "only your own last decision" in mine["message"]
                    seen["passed"] = True
                elif last.dice and table.deciders[-1] is side and not seen["dice"]:
                    rolled = await battle.seats[side].ask({"kind": "offer", "what": "undo"})
                    assert rolled["message"] == "that decision rolled dice: it stands"
                    seen["dice"] = True
                elif undoable(server, battle, side) and not seen["refused"]:
                    asker, other = battle.seats[side], battle.seats[side.other]
                    await asker.ask({"kind": "offer", "what": "undo"}, "state")
                    again = await asker.ask({"kind": "offer", "what": "undo"})
                    assert "offered that already" in again["message"]
                    own = await asker.ask({"kind": "answer", "what": "undo", "accept": True})
                    assert "answers your offer" in own["message"]
                    await other.state(lambda m, side=side: m["offers"]["undo"] == side.value)
                    await other.send({"kind": "answer", "what": "undo", "accept": False})
                    cleared = await asker.state(lambda m: m["offers"]["undo"] is None)
                    assert cleared["at"] == before + 1 == table.at and "taken_back" not in cleared
                    seen["refused"] = True
            assert all(seen.values()), seen
            # a decision clears a pending offer
            side = table.game.decider()
            assert side is not None
            await battle.seats[side.other].ask({"kind": "offer", "what": "draw"}, "state")
            _, _, state = await step(server, battle, bot)
            assert state["offers"] == {"undo": None, "draw": None} and table.offers == {}
            bad = await axis.ask({"kind": "offer", "what": "mulligan"})
            assert bad["message"] == "'what' is 'undo' or 'draw'"
            watcher = await Peer.open(url)
            await watcher.ask({"kind": "watch", "code": battle.spectate}, "chat")
            for message in (
                {"kind": "offer", "what": "draw"},
                {"kind": "answer", "what": "draw", "accept": True},
                {"kind": "resign"},
            ):
                refused = await watcher.ask(message)
                assert "spectator" in refused["message"]
            await watcher.close()
            await battle.close()

    with time_limit(120):
        asyncio.run(run())


def test_a_draw_offer_refused_then_accepted_ends_the_battle_and_survives_a_restart(tmp_path: Path) -> None:
    async def run() -> tuple[str, str]:
        async with served(tmp_path, seed=5) as (server, url):
            battle = await begin(url, config=1)
            axis, allies = battle.seats[Side.AXIS], battle.seats[Side.ALLIES]
            early = await Peer.open(url)  # an offer before the battle begins is refused
            code = (await request(url, {"kind": "new"}))["code"]
            await early.ask({"kind": "join", "code": code, "side": "axis"}, "seat")
            assert "has not begun" in (await early.ask({"kind": "offer", "what": "draw"}))["message"]
            await early.close()
            await axis.ask({"kind": "offer", "what": "draw"}, "state")
            await allies.state(lambda m: m["offers"]["draw"] == "axis")
            dup = await allies.ask({"kind": "offer", "what": "draw"})
            assert "offers that already: answer it" in dup["message"]
            await allies.send({"kind": "answer", "what": "draw", "accept": False})
            refused = await axis.state(lambda m: m["offers"]["draw"] is None)
            assert refused["over"] is False and refused["ended"] is None
            with pytest.raises(NetError, match="not over"):
                await request(url, {"kind": "record", "code": battle.code})
            await allies.ask({"kind": "offer", "what": "draw"}, "state")
            await axis.state(lambda m: m["offers"]["draw"] == "allies")
            await axis.send({"kind": "answer", "what": "draw", "accept": True})
            for peer in (axis, allies):
                over = await peer.state(lambda m: m["over"])
                assert (over["winner"], over["ended"], over["decider"]) == (None, "draw agreed", None)
            table = server.tables[battle.code]
            decider = table.game.decider()  # type: ignore[union-attr]
            assert decider is not None  # the rules had not ended it
            late = await battle.seats[decider].ask({"kind": "decide", "action": "pass", "at": table.at})
            assert late["message"] == "the battle is over"
            assert "is over" in (await axis.ask({"kind": "resign"}))["message"]
            text = (await request(url, {"kind": "record", "code": battle.spectate}))["text"]
            await battle.close()
            return battle.code, text

    with time_limit(120):
        code, text = asyncio.run(run())
        record = parse_record(text)
        assert record.header["ended"] == "draw agreed" and "winner" not in record.header
        path = tmp_path / "draw.rec"
        path.write_text(text)
        status, out, err = run_cli("replay", str(path))
        assert status == 0 and "ended: draw agreed (no winner)" in out, err

        async def restarted() -> dict[str, Any]:
            async with served(tmp_path, seed=None) as (server, url):
                table = server.tables[code]
                peer = await Peer.open(url)
                await peer.send({"kind": "watch", "code": table.spectate})
                state = await peer.state()
                await peer.close()
                return state

        state = asyncio.run(restarted())
        assert (state["over"], state["winner"], state["ended"]) == (True, None, "draw agreed")


def test_a_resignation_ends_the_battle_survives_a_restart_and_its_record_replays(tmp_path: Path) -> None:
    async def run() -> tuple[Battle, str]:
        async with served(tmp_path, seed=5) as (server, url):
            battle = await begin(url, config=1)
            bot = random_bot(3)
            for _ in range(30):  # into the battle: past the set-up
                await step(server, battle, bot)
            await battle.seats[Side.ALLIES].send({"kind": "resign"})
            for peer in battle.seats.values():
                over = await peer.state(lambda m: m["over"])
                assert (over["winner"], over["ended"]) == ("axis", "resigned")
            text = (await request(url, {"kind": "record", "code": battle.code}))["text"]
            await battle.close()
            return battle, text

    async def restarted(battle: Battle) -> tuple[dict[str, Any], dict[str, Any], str]:
        async with served(tmp_path, seed=None) as (_, url):
            peer = await Peer.open(url)
            await peer.ask({"kind": "resume", "code": battle.code, "token": battle.tokens[Side.AXIS]}, "seat")
            state = await peer.state()
            refused = await peer.ask({"kind": "decide", "action": "pass", "at": state["at"]})
            await peer.close()
            text = (await request(url, {"kind": "record", "code": battle.code}))["text"]
            return state, refused, text

    with time_limit(120):
        battle, text = asyncio.run(run())
        state, refused, text_again = asyncio.run(restarted(battle))
    assert (state["over"], state["winner"], state["ended"]) == (True, "axis", "resigned")
    assert refused["message"] == "the battle is over" and text_again == text
    record = parse_record(text)
    assert (record.header["ended"], record.header["winner"]) == ("resigned", "axis")
    path = tmp_path / "resigned.rec"
    path.write_text(text)
    status, out, err = run_cli("replay", str(path))
    assert status == 0 and "ended: the Allies player resigned; winner: Axis" in out, err


def test_the_network_bot_accepts_an_undo_refuses_a_draw_and_stops_when_the_other_resigns(
    tmp_path: Path,
) -> None:
    async def run() -> tuple[int, str, str]:
        async with served(tmp_path, seed=5) as (server, url):
            code = (await request(url, {"kind": "new", "config": 1}))["code"]
            axis, _ = await join(url, code, Side.AXIS)
            bot = asyncio.create_task(
                asyncio.to_thread(run_cli, "bot", url, code, "--side", "allies", "--strength", "random")
            )
            await axis.ask({"kind": "army", "text": AXIS}, "army-accepted")
            await axis.state(lambda m: m["started"])
            table = server.tables[code]
            chooser = random_bot(4)
            undone = refused = False
            for _ in range(200):
                await wait_for(lambda: table.game.decider() is Side.AXIS, 30)  # type: ignore[union-attr]
                game = table.game
                assert game is not None
                if not refused:
                    await axis.ask({"kind": "offer", "what": "draw"}, "state")
                    await axis.state(lambda m: m["offers"]["draw"] is None)  # the bot refused
                    refused = True
                at = table.at
                action = game.format(chooser.choose(game))
                await axis.send({"kind": "decide", "action": action, "at": at})
                await axis.state(lambda m, at=at: m["at"] == at + 1)
                if table.at > 4 and undoable_axis(table):
                    for _ in range(2):  # the same decision taken back twice: the bot answers each time
                        await axis.ask({"kind": "offer", "what": "undo"}, "state")
                        await axis.state(lambda m, at=at: m.get("taken_back", False) and m["at"] == at)
                        await axis.send({"kind": "decide", "action": action, "at": at})
                        await axis.state(lambda m, at=at: m["at"] == at + 1)
                    undone = True
                    break
            assert undone and refused
            await axis.send({"kind": "resign"})
            result = await asyncio.wait_for(bot, 60)
            await axis.close()
            return result

    with time_limit(120):
        status, out, err = asyncio.run(run())
    assert status == 0, err
    assert out.strip().splitlines()[-1] == "winner=allies"


def undoable_axis(table: Any) -> bool:
    game = table.game
    return bool(table.deciders[-1] is Side.AXIS and not game.record[-1].dice and game.decider() is Side.AXIS)


def test_seat_statuses_for_the_your_move_list(tmp_path: Path) -> None:
    async def run() -> None:
        async with served(tmp_path, seed=5) as (server, url):
            waiting = (await request(url, {"kind": "new"}))["code"]
            peer, token = await join(url, waiting, Side.ALLIES)
            battle = await begin(url, config=1)
            table = server.tables[battle.code]
            decider = table.game.decider()  # type: ignore[union-attr]
            asked = [
                {"code": waiting, "token": token},
                {"code": battle.code, "token": battle.tokens[Side.AXIS]},
                {"code": battle.code, "token": token},  # a token of another battle
                {"code": battle.code, "token": "0" * 32},
                {"code": "NOSUCHCODE", "token": token},
                {"code": battle.spectate, "token": battle.tokens[Side.AXIS]},
            ]
            answer = await request(url, {"kind": "seats", "seats": asked})
            first, second, *wrong = answer["seats"]
            assert first == {
                "code": waiting,
                "side": "allies",
                "started": False,
                "decider": None,
                "over": False,
                "winner": None,
                "ended": None,
                "turn": None,
                "at": 0,
                "armies": {"axis": False, "allies": False},
                "seats": {"axis": False, "allies": True},
            }
            assert second["side"] == "axis" and second["started"] and second["at"] == table.at
            assert second["decider"] == decider.value  # type: ignore[union-attr]
            assert second["turn"] == table.game.state.turn  # type: ignore[union-attr]
            assert second["armies"] == second["seats"] == {"axis": True, "allies": True}
            assert [sorted(item) for item in wrong] == [["code", "error"]] * 4
            assert "no seat" in wrong[0]["error"] and "no battle" in wrong[2]["error"]
            await battle.seats[Side.AXIS].send({"kind": "resign"})
            await battle.seats[Side.ALLIES].state(lambda m: m["over"])
            ended = (await request(url, {"kind": "seats", "seats": asked[1:2]}))["seats"][0]
            assert (ended["over"], ended["winner"], ended["ended"], ended["decider"]) == (
                True,
                "allies",
                "resigned",
                None,
            )
            for bad, words in (
                ({"kind": "seats", "seats": "all"}, "needs 'seats' (a list)"),
                ({"kind": "seats", "seats": [asked[0]] * 101}, "at most 100"),
                ({"kind": "seats", "seats": [{"code": waiting}]}, "each of 'seats'"),
                ({"kind": "seats", "seats": [{"code": 5, "token": token}]}, "each of 'seats'"),
                ({"kind": "seats", "seats": [[waiting, token]]}, "each of 'seats'"),
            ):
                refused = await peer.ask(bad)
                assert words in refused["message"], (bad, refused)
            assert (await request(url, {"kind": "seats", "seats": []}))["seats"] == []
            await peer.close()
            await battle.close()

    with time_limit(60):
        asyncio.run(run())


def test_a_records_ending_keys_are_checked(tmp_path: Path) -> None:
    axis, allies = load_army(ARMIES / "sample-axis.toml"), load_army(ARMIES / "sample-allies.toml")
    game = Game.new(axis, allies, dice=Dice(seed=1))
    text = record_text(game)
    head, rest = text.split("\n---\n", 1)
    for extra, words in (
        ('ended = "gave up"', '\'ended\' must be "resigned" or "draw agreed"'),
        ('ended = "resigned"', "a resigned battle names its winner"),
        ('ended = "draw agreed"\nwinner = "axis"', 'only with ended = "resigned"'),
        ('ended = "resigned"\nwinner = "nobody"', '\'winner\' is "axis" or "allies"'),
    ):
        with pytest.raises(MinisError) as raised:
            parse_record(f"{head}\n{extra}\n---\n{rest}", "r.rec")
        lines = problem_lines(raised.value.problems)
        assert any(line.startswith("r.rec:") and words in line for line in lines), (extra, lines)
    fine = parse_record(f'{head}\nended = "resigned"\nwinner = "allies"\n---\n{rest}', "r.rec")
    assert fine.header["winner"] == "allies"


def test_a_seat_client_takes_the_smaller_at_of_an_undo(tmp_path: Path) -> None:
    """A seat's client drops an older position arriving late, but not the state of an undo."""

    async def run() -> None:
        async with served(tmp_path, seed=5) as (server, url):
            battle = await begin(url, config=1)
            bot = random_bot(3)
            client = SeatClient(url, battle.code, Side.AXIS, token=battle.tokens[Side.AXIS], patience=5)

            async def on_state(seat: SeatClient, message: dict[str, Any]) -> None:
                pass

            task = asyncio.create_task(client.run(on_state))
            side, _, _ = await step(server, battle, bot)
            while not undoable(server, battle, side):
                side, _, _ = await step(server, battle, bot)
            high = server.tables[battle.code].at
            await wait_for(lambda: client.state is not None and client.state["at"] == high, 10)
            await battle.seats[side].ask({"kind": "offer", "what": "undo"}, "state")
            await battle.seats[side.other].state(lambda m: m["offers"]["undo"] is not None)
            await battle.seats[side.other].send({"kind": "answer", "what": "undo", "accept": True})
            await wait_for(lambda: client.state is not None and client.state["at"] == high - 1, 10)
            assert client.state is not None and client.state["taken_back"] is True
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await battle.close()

    with time_limit(60):
        asyncio.run(run())


def test_an_undo_the_store_refuses_is_not_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def run() -> None:
        async with served(tmp_path, seed=5) as (server, url):
            battle = await begin(url, config=1)
            bot = random_bot(3)
            side, _, _ = await step(server, battle, bot)
            while not undoable(server, battle, side):
                side, _, _ = await step(server, battle, bot)
            table = server.tables[battle.code]
            game, at = table.game, table.at

            def full(*args: object) -> None:
                raise sqlite3.OperationalError("database or disk is full")

            monkeypatch.setattr(server.store, "remove_last_entry", full)
            await battle.seats[side].ask({"kind": "offer", "what": "undo"}, "state")
            other = battle.seats[side.other]
            await other.state(lambda m: m["offers"]["undo"] is not None)
            refused = await other.ask({"kind": "answer", "what": "undo", "accept": True})
            assert refused["message"] == "the server could not take that decision back: it stands"
            cleared = await battle.seats[side].state(lambda m: m["offers"]["undo"] is None)
            assert cleared["at"] == at and "taken_back" not in cleared
            assert table.game is game and table.at == at and table.offers == {}
            assert len(next(server.store.battles(table.number)).entries) == at
            await battle.close()

    with time_limit(60):
        asyncio.run(run())
