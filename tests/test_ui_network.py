"""Play over the network in a real window: the window hosts a battle on a server it starts itself
(on 127.0.0.1, a free port), a network bot joins it as the other player from another thread, and the
window's side is played through input events (the army loaded in the builder, deployment by clicks,
a turn's phases ended by keys) while the bot's decisions arrive from the server and are shown; the
screenshot of the battle is looked at. Then the seat is resumed from the window's list."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from minis.base.sides import Side
from minis.engine import actions as A
from minis.net.bot import play_seat
from minis.net.client import NetError
from minis.net.local import LocalServer
from minis.net.seats import load_seats
from minis.state import Stage
from tests.helpers_server import ARMIES, time_limit

ALLIES = (ARMIES / "sample-allies.toml").read_text()


def click_hex(driver: Any, label: str) -> None:
    screen = driver.screen
    driver.click(*screen.map.hex_centre_on_screen(screen.state.board.parse(label)))


class BotThread:
    """The other player: a network bot in a thread of its own (its own event loop)."""

    def __init__(self, url: str, code: str) -> None:
        self.result: list[object] = []
        BOT[:] = [self]
        self.thread = threading.Thread(target=self.run, args=(url, code), daemon=True)
        self.thread.start()

    def run(self, url: str, code: str) -> None:
        try:
            winner = asyncio.run(
                play_seat(url, code, Side.ALLIES, ALLIES, strength="random", seed=2, patience=3.0, quiet=True)
            )
            self.result.append(winner)
        except NetError as error:
            self.result.append(error)
        except BaseException as error:  # kept for the failure's message (a thread's error is lost)
            self.result.append(repr(error))
            raise


#: The other player of the test running now (its fate goes into a failure's message).
BOT: list[BotThread] = []


def wait_frames(driver: Any, done: Any, limit: int = 3000) -> None:
    """Frames (each a short real wait: the server and the bot work in other threads) until `done()`."""
    import time

    for _ in range(limit):
        if done():
            return
        driver.frame()
        time.sleep(0.01)
    screen = driver.screen
    session = getattr(screen, "session", None)
    said = ""
    if session is not None and hasattr(session, "status"):
        status = {k: v for k, v in session.status.items() if k not in ("game", "entries", "settings")}
        said = f"; state {status}, {len(session.pending)} waiting, at {session.follower.at}"
        said += f", decider here {session.game.decider()}, stage {session.game.state.stage}"
    if BOT:
        said += f"; the bot: alive {BOT[-1].thread.is_alive()}, result {BOT[-1].result}"
    raise AssertionError(f"waited in vain; the screen is {screen!r}{said}")


def test_a_hosted_battle_played_by_input_events_against_a_network_player(
    driver: Any, arcade: Any, shots: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from minis.ui import netmenu
    from minis.ui.armybuilder import ArmyBuilder
    from minis.ui.battle import BattleScreen
    from minis.ui.filedialog import FileDialog
    from minis.ui.netbattle import ChatScreen
    from minis.ui.netmenu import HostChoice, JoinChoice, Lobby, NetworkMenu
    from minis.ui.victory import VictoryScreen
    from tests.helpers_window import answer_battle_dialog, end_phase

    key = arcade.key
    monkeypatch.setenv("MINIS_NETWORK", str(tmp_path / "network"))
    server = LocalServer(tmp_path / "server", host="127.0.0.1", port=0, seed=3)
    monkeypatch.setattr(netmenu, "_LOCAL", server)
    bot: BotThread | None = None
    try:
        with time_limit(240):
            driver.click_box(driver.screen.entry_box("Play over the network"))
            assert isinstance(driver.screen, NetworkMenu)
            driver.key(key.J)
            join = driver.screen
            assert isinstance(join, JoinChoice)
            driver.key(key.ENTER)  # no code typed: said, nothing happens
            assert "invitation code" in join.problem.text
            server.start()
            join.address.set_value(server.url)
            driver.type_text("NOSUCHCODE")
            driver.key(key.ENTER)
            assert isinstance(driver.screen, JoinChoice) and "no battle has that code" in join.problem.text
            driver.screenshot(shots / "network-join.png")
            driver.key(key.ESCAPE)
            driver.key(key.H)
            assert isinstance(driver.screen, HostChoice)
            driver.screenshot(shots / "network-host.png")
            driver.key(key.ENTER)  # host: the Axis, a Standard battle, on this machine
            builder = driver.screen
            assert isinstance(builder, ArmyBuilder) and builder.side is Side.AXIS
            seats = load_seats()
            assert len(seats) == 1 and seats[0].side == "axis" and seats[0].token
            code = seats[0].code
            driver.click_box(builder.load_button.box)
            dialog = driver.screen
            assert isinstance(dialog, FileDialog)
            dialog.path.set_value("")
            driver.type_text(str(ARMIES / "sample-axis.toml"))
            driver.key(key.ENTER)
            driver.key(key.D)  # done: the army goes to the server
            lobby = driver.screen
            assert isinstance(lobby, Lobby)
            assert code in lobby.invite.text
            driver.frame(3)
            assert "Waiting for them to join" in lobby.waiting.text
            assert driver.screenshot(shots / "network-lobby.png").exists()
            bot = BotThread(server.url, code)
            wait_frames(driver, lambda: isinstance(driver.screen, BattleScreen))
            screen = driver.screen
            assert isinstance(screen, BattleScreen) and screen.remote is Side.ALLIES
            arrived: list[int] = []
            original = screen.controller.arrived

            def counted(events: list[Any]) -> None:
                arrived.append(len(events))
                original(events)

            screen.controller.arrived = counted  # type: ignore[method-assign]
            deployed = moved = 0
            undone = False
            for _ in range(400):
                wait_frames(
                    driver,
                    lambda: (
                        screen.dialog is not None or screen.game.decider() is Side.AXIS or screen.session.over
                    ),
                )
                if screen.session.over or (screen.state.turn >= 2 and moved and screen.dialog is None):
                    break
                if answer_battle_dialog(driver):  # the first player, an end, a casualty report
                    continue
                stage = screen.stage
                if stage is Stage.DEPLOY:
                    if screen.controller.deployment.to_deploy():
                        unit = screen.controller.selected
                        hexes = [
                            a.hex
                            for a in screen.game.legal_actions()
                            if isinstance(a, A.Deploy) and a.unit == unit
                        ]
                        click_hex(driver, screen.game.label(hexes[len(hexes) // 2]))
                        deployed += 1
                    else:
                        driver.key(key.R)
                elif stage is Stage.ACT:
                    state = screen.state
                    alone = {  # units alone in their hex: a click on it picks that unit
                        u.id
                        for u in state.units.values()
                        if u.hex is not None and sum(1 for o in state.units.values() if o.hex == u.hex) == 1
                    }
                    moves = [
                        a
                        for a in screen.game.legal_actions()
                        if isinstance(a, A.Move) and len(a.path) == 1 and a.unit in alone
                    ]
                    if moves and moved < 2 and screen.state.phase.value == "movement":
                        move = moves[0]
                        start = screen.state.units[move.unit].hex
                        assert start is not None
                        at_before = screen.session.follower.at
                        events_before = len(screen.session.events)
                        click_hex(driver, screen.game.label(start))
                        click_hex(driver, screen.game.label(move.path[-1]))
                        click_hex(driver, screen.game.label(move.path[-1]))  # the path's end: move
                        assert screen.state.units[move.unit].hex == move.path[-1]
                        if not undone and screen.session.can_undo:
                            # U asks the other player to take the move back; the network bot accepts
                            driver.key(key.U)
                            wait_frames(driver, lambda at=at_before: screen.session.follower.at == at)
                            assert screen.state.units[move.unit].hex == start
                            assert len(screen.session.events) == events_before  # its events gone too
                            undone = True
                            continue
                        moved += 1
                    else:
                        end_phase(driver)
                elif stage in (Stage.DEFENSIVE_FIRE, Stage.REACTION):
                    driver.key(key.H)  # hold
                else:
                    driver.key(key.ENTER)
            assert deployed >= 3 and moved >= 1 and undone
            assert arrived and max(arrived) > 0  # the other player's decisions came with their events
            log = screen.session.log_lines()
            assert len(log) > 10
            picture = driver.screenshot(shots / "network-battle.png")
            assert picture.exists()
            # the chat: M opens it, a line typed goes to the server and comes back to both seats
            driver.key(key.M)
            chat = driver.screen
            assert isinstance(chat, ChatScreen)
            driver.type_text("Good luck!")
            driver.key(key.ENTER)
            wait_frames(driver, lambda: any(text == "Good luck!" for _, text in screen.session.chat))
            driver.frame(2)
            assert "You: Good luck!" in chat.lines.text
            driver.screenshot(shots / "network-chat.png")
            driver.key(key.ESCAPE)
            assert driver.screen is screen
            # Escape: the network battle's menu; Leave keeps the seat for later
            driver.key(key.ESCAPE)
            assert screen.dialog is not None and screen.dialog.title.text == "This network battle"
            driver.screenshot(shots / "network-battle-menu.png")
            driver.key(key.L)
            assert not isinstance(driver.screen, BattleScreen)
            # resumed from the list: the same battle, where it was
            driver.click_box(driver.screen.entry_box("Play over the network"))
            menu = driver.screen
            assert isinstance(menu, NetworkMenu)
            wait_frames(driver, lambda: menu._fresh_shown)
            driver.screenshot(shots / "network-menu.png")
            assert "move" in menu.list.details[0] or "over" in menu.list.details[0]
            driver.key(key.ENTER)
            wait_frames(driver, lambda: isinstance(driver.screen, BattleScreen))
            resumed = driver.screen
            assert resumed.session.follower.at >= screen.session.follower.at
            # Escape, Resign, Y: the battle is over, the other player wins, and the victory screen says why
            wait_frames(driver, lambda: resumed.dialog is None)
            driver.key(key.ESCAPE)
            driver.key(key.R)
            assert resumed.dialog is not None and resumed.dialog.title.text == "Resign?"
            driver.key(key.Y)
            wait_frames(driver, lambda: isinstance(driver.screen, VictoryScreen))
            victory = driver.screen
            assert victory.headline.text == "The Allies win" and victory.why.text == "The Axis resigned."
            resumed.session.close()
    finally:
        server.stop()
        if bot is not None:
            bot.thread.join(15)


def test_hosting_a_scenario_file_builds_the_army_within_its_limits(
    driver: Any, arcade: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Battle: Standard, Assault, then a scenario file from the chooser; its title and rule set show,
    and the host's army builder has the scenario's points and limits for the side."""
    from minis.engine.scenario import load_scenario
    from minis.ui import netmenu
    from minis.ui.armybuilder import ArmyBuilder
    from minis.ui.netmenu import HostChoice
    from minis.ui.scenariochoice import ScenarioDialog

    key = arcade.key
    monkeypatch.setenv("MINIS_NETWORK", str(tmp_path / "network"))
    server = LocalServer(tmp_path / "server", host="127.0.0.1", port=0, seed=3)
    monkeypatch.setattr(netmenu, "_LOCAL", server)
    path = Path(__file__).resolve().parent.parent / "scenarios" / "river-crossing.toml"
    plan = load_scenario(path)
    try:
        with time_limit(120):
            driver.click_box(driver.screen.entry_box("Play over the network"))
            driver.key(key.H)
            host = driver.screen
            assert isinstance(host, HostChoice)
            driver.key(key.B)  # Assault
            assert host.battle.label.text == "Battle: Assault (B)"
            driver.key(key.B)  # a scenario file: the chooser
            dialog = driver.screen
            assert isinstance(dialog, ScenarioDialog)
            dialog.path.set_value("")
            driver.type_text(str(path))
            driver.key(key.ENTER)
            assert driver.screen is host and host.plan is not None
            assert host.battle.label.text == f"Battle: {plan.title} (B)"
            driver.key(key.ENTER)
            builder = driver.screen
            assert isinstance(builder, ArmyBuilder), host.problem.text
            attacker = Side(plan.attacker_side.value) if plan.attacker_side is not None else None
            if plan.is_attack and attacker is None:
                attacker = Side.AXIS
            assert builder.points_limit == plan.force_of(Side.AXIS, attacker).points
            assert builder.note == plan.title
            assert load_seats()[0].title.startswith(plan.title)
    finally:
        server.stop()


class ListLink:
    """A link that gives the messages it was handed (put back ones first), sending nowhere."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.side, self.code, self.url = Side.AXIS, "CODE", "ws://127.0.0.1:9"
        self.messages = messages
        self.alive = True

    def poll(self) -> list[dict[str, Any]]:
        given, self.messages = self.messages, []
        return given

    def put_back(self, messages: list[dict[str, Any]]) -> None:
        self.messages = messages + self.messages

    def send(self, message: dict[str, Any]) -> None:
        pass

    def close(self) -> None:
        self.alive = False


def test_the_lobby_hands_the_battle_every_state_that_came_with_its_first(driver: Any) -> None:
    """States that arrive together (the other player decided at once): the lobby begins the battle
    with the first, and the battle screen gets the others (they were lost: the battle waited forever)."""
    from minis.army import load_army
    from minis.dice import Dice
    from minis.engine.projection import project
    from minis.game import Game
    from minis.net.protocol import pack_game
    from minis.ui.battle import BattleScreen
    from minis.ui.netmenu import Lobby, Seat

    game = Game.new(
        load_army(ARMIES / "sample-axis.toml"), load_army(ARMIES / "sample-allies.toml"), dice=Dice(seed=3)
    )
    both = {"axis": True, "allies": True}

    def state(at: int) -> dict[str, Any]:
        packed = pack_game(project(game, Side.AXIS, Dice(seed=0)))
        return {
            "kind": "state",
            "at": at,
            "started": True,
            "armies": both,
            "seats": both,
            "game": packed,
            "_seq": at,
        }

    first = state(1)
    waiting = {"kind": "state", "at": 0, "started": False, "armies": both, "seats": both, "_seq": 0}
    link = ListLink(
        [first, state(2), {"kind": "chat", "lines": [{"side": "allies", "text": "hi"}], "_seq": 3}]
    )
    lobby = Lobby(driver.window, Seat(link, waiting), link.url, {})  # type: ignore[arg-type]
    driver.window.open(lobby)
    lobby.on_update(1 / 60)
    screen = driver.screen
    assert isinstance(screen, BattleScreen)
    driver.frame(2)
    assert screen.session.follower.at == 2  # the second state was shown too
    assert screen.session.chat == [("allies", "hi")]
