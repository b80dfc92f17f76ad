"""Play over the network: host a battle, join one, resume one from the list (your move first).

- **Host**: the server (this machine: a server starts inside the window, `minis.net.local`; or one at
  an address), the battle (Standard, Assault), the rule set and the player's side. Host makes the
  battle on the server and takes the seat; the player builds the army in secret; the lobby then shows
  the invitation to send (the server's address and the code) until the other player is in.
- **Join**: the server's address, the invitation code and a side; then the army, the lobby, the battle.
- **Your battles**: every seat the player holds (`minis.net.seats`: kept in the data folder with its
  token), each with the server's word on it (your move, their move, waiting, over), your move first.

Each step talks to the server through a `Link` (a thread of its own): the window waits only for the
first answer of a join or resume (a few seconds at most), never while the other player thinks.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import arcade

from minis.army import Army, ArmyScenario, dump_army
from minis.base.errors import MinisError, problem_lines
from minis.base.sides import Side
from minis.content.rule_sets import NAMED, RULEBOOK, RuleSet
from minis.net.client import NetError, new_message, request
from minis.net.link import Link
from minis.net.local import DEFAULT_PORT, LocalServer, lan_address
from minis.net.seats import StoredSeat, load_seats, remember
from minis.ui import theme
from minis.ui.app import MinisWindow, Screen
from minis.ui.rulechoice import RulesPicker
from minis.ui.widgets import Box, Button, Label, ListBox, TextField, Widget

if TYPE_CHECKING:
    from minis.engine.scenario import Scenario

__all__ = ["HostChoice", "JoinChoice", "Lobby", "NetworkMenu", "local_server"]

#: Seconds to wait for a server's first answer (a join, a resume, a new battle).
FIRST_ANSWER = 10.0

_LOCAL: LocalServer | None = None


def local_server() -> LocalServer:
    """The server this window runs when the player hosts on this machine (one per window process)."""
    global _LOCAL
    if _LOCAL is None:
        _LOCAL = LocalServer(host="0.0.0.0", port=DEFAULT_PORT)
    return _LOCAL


def _ask(url: str, message: dict[str, Any]) -> dict[str, Any]:
    """One request to a server from the window's thread (NetError in plain words)."""
    return asyncio.run(request(url, message, timeout=FIRST_ANSWER))


def _address(text: str) -> str:
    """A server address as typed: ws:// added when missing, the default port when none is given."""
    text = text.strip()
    if "://" not in text:
        text = "ws://" + text
    host = text.split("://", 1)[1]
    if ":" not in host.split("/", 1)[0]:
        scheme, rest = text.split("://", 1)
        name, _, path = rest.partition("/")
        text = f"{scheme}://{name}:{DEFAULT_PORT}" + (f"/{path}" if path else "")
    return text


def battle_title(settings: dict[str, Any]) -> str:
    """A battle's settings in a player's words ("Assault, 2008 rules", "River Crossing, 2005 rules")."""
    scenario = str(settings.get("scenario") or "standard")
    if scenario == "file":
        plan = _plan(settings)
        if plan is None:
            return "A scenario file's battle"
        return f"{plan.title}, {plan.doc.rules.name} rules"
    name = "Assault" if scenario == "assault" else "Standard battle"
    return f"{name}, {settings.get('rules') or '2005'} rules"


def _plan(settings: dict[str, Any]) -> Scenario | None:
    """A scenario file's battle as the server has it (None for the rulebook's battles, or a file that
    no longer reads: the server checked it when the battle was made)."""
    if settings.get("scenario") != "file":
        return None
    from minis.net.protocol import ProtocolError
    from minis.net.server import scenario_plan

    try:
        return scenario_plan(dict(settings))
    except ProtocolError:
        return None


def _rules(settings: dict[str, Any]) -> RuleSet:
    name = settings.get("rules")
    return NAMED.get(name, RULEBOOK) if isinstance(name, str) else RULEBOOK


def _army_scenario(settings: dict[str, Any], side: Side) -> ArmyScenario:
    if settings.get("scenario") != "assault":
        return ArmyScenario.STANDARD
    attacker = settings.get("attacker") or "axis"
    return ArmyScenario.ASSAULT_ATTACKER if side.value == attacker else ArmyScenario.ASSAULT_DEFENDER


# --- taking a seat -------------------------------------------------------------------------------------


class Seat:
    """A seat being taken or resumed: the link, and the first state the server sent it."""

    def __init__(self, link: Link, state: dict[str, Any], invitation: str = "", spectate: str = "") -> None:
        self.link, self.state = link, state
        self.invitation, self.spectate = invitation, spectate
        #: The server's address as the other player types it (this machine's network address).
        self.address = ""

    @classmethod
    def take(cls, url: str, code: str, side: Side, token: str | None = None) -> Seat:
        """Join (or resume with `token`) and wait for the first state; NetError with the server's words."""
        link = Link(url, code, side, token=token, patience=FIRST_ANSWER / 2)
        first = link.wait(lambda m: m.get("kind") in ("state", "gone", "error"), FIRST_ANSWER)
        if first is None or first.get("kind") != "state":
            link.close()
            if first is None or (first.get("kind") == "gone" and not first.get("refused")):
                raise NetError(
                    f"cannot reach a server at {url} (is the address right, and the server running?)"
                )
            raise NetError(str(first.get("message")))
        link.client.patience = 60.0
        return cls(link, first)

    def store(self, url: str, title: str) -> None:
        token = self.link.token
        if token is not None:
            seat = StoredSeat(
                url, self.link.code, self.link.side.value, token, title, self.spectate, time.time()
            )
            with contextlib.suppress(OSError):  # the battle goes on; only the list will not show it
                remember(seat)


def go_on(window: MinisWindow, seat: Seat, url: str, *, replace: bool = True) -> None:
    """From a taken seat to what comes next: the army builder, the lobby, or the battle."""
    state = seat.state
    settings = state.get("settings") or {}
    lobby = Lobby(window, seat, url, settings)
    if state.get("started"):
        lobby.begin(state)
        return
    if not state["armies"][seat.link.side.value]:
        build_army(window, seat, settings, lambda army: lobby.send_army(army), replace=replace)
        return
    if replace:
        window.replace(lobby)
    else:
        window.open(lobby)


def build_army(
    window: MinisWindow,
    seat: Seat,
    settings: dict[str, Any],
    done: Callable[[Army], object],
    *,
    replace: bool,
) -> None:
    from minis.ui.armybuilder import ArmyBuilder

    side = seat.link.side
    plan = _plan(settings)
    if plan is None:
        builder = ArmyBuilder(
            window,
            side,
            _army_scenario(settings, side),
            done,
            rules=_rules(settings),
            note=battle_title(settings),
        )
    else:  # a scenario file's battle: its points and limits for this side, its rule set
        from minis.cards import card_catalogue

        attacker = Side(settings["attacker"]) if settings.get("attacker") else None
        cards = card_catalogue()
        role = ArmyScenario.STANDARD
        if plan.is_attack:
            role = ArmyScenario.ASSAULT_ATTACKER if side is attacker else ArmyScenario.ASSAULT_DEFENDER
        builder = ArmyBuilder(
            window,
            side,
            role,
            done,
            check=lambda army: plan.army_problems(army, cards, side=side, attacker=attacker),
            points_limit=plan.force_of(side, attacker).points,
            note=plan.title,
            rules=plan.doc.rules,
        )
    if replace:
        window.replace(builder)
    else:
        window.open(builder)


# --- the screens -----------------------------------------------------------------------------------------


class NetworkMenu(Screen):
    """Host, join, or one of the player's battles."""

    title = "Play over the network"
    hint = "H: host · J: join · Up/Down and Enter: resume a battle · Esc back"

    def __init__(self, window: MinisWindow, *, local: LocalServer | None = None) -> None:
        super().__init__(window)
        self.local = local
        key = arcade.key
        self.heading = Label(self.title, size=28, bold=True, colour=theme.ACCENT, align="center")
        self.host = Button("Host a battle (H)", self._host, shortcuts=[key.H])
        self.join = Button("Join a battle (J)", self._join, shortcuts=[key.J])
        self.listed = Label("Your battles", size=theme.TEXT_SIZE + 2, bold=True)
        self.seats = load_seats()
        self.statuses: dict[tuple[str, str, str], dict[str, Any]] = {}
        self.list = ListBox([], self._resume, row_height=34, size=theme.TEXT_SIZE, align="left", bold=False)
        self.problem = Label("", size=theme.TEXT_SIZE, colour=theme.BAD, multiline=True, align="center")
        self.widgets = [self.heading, self.host, self.join, self.listed, self.list, self.problem]
        self._order: list[StoredSeat] = []
        self._fresh = threading.Event()
        self._fresh_shown = False
        self._show_list()
        self.set_focus(self.list if self.seats else self.host)
        threading.Thread(target=self._ask_statuses, daemon=True).start()

    def _ask_statuses(self) -> None:
        """Each server's word on the player's seats there (in the background: a server may be away)."""
        by_server: dict[str, list[StoredSeat]] = {}
        for seat in self.seats:
            by_server.setdefault(seat.url, []).append(seat)
        for url, seats in by_server.items():
            message = {"kind": "seats", "seats": [{"code": s.code, "token": s.token} for s in seats[:100]]}
            try:
                answer = asyncio.run(request(url, message, timeout=5.0))
            except NetError:
                continue
            for seat, item in zip(seats, answer.get("seats") or [], strict=False):
                if isinstance(item, dict):
                    self.statuses[(seat.url, seat.code, seat.side)] = item
        self._fresh.set()

    def _status(self, seat: StoredSeat) -> tuple[int, str]:
        """(order, words) of a seat: your move first, then waiting, their move, over, unknown."""
        item = self.statuses.get((seat.url, seat.code, seat.side))
        if item is None:
            return (4, "…" if not self._fresh.is_set() else "server not reached")
        if "error" in item:
            return (5, str(item["error"]))
        if item.get("over"):
            winner = item.get("winner")
            return (
                3,
                "over: you won"
                if winner == seat.side
                else "over: a draw"
                if winner is None
                else "over: you lost",
            )
        if not item.get("started"):
            if not (item.get("armies") or {}).get(seat.side):
                return (0, "your army to build")
            return (1, "waiting for the other player")
        if item.get("decider") == seat.side:
            return (0, f"your move (turn {item.get('turn')})")
        return (2, f"their move (turn {item.get('turn')})")

    def _show_list(self) -> None:
        ranked = sorted(self.seats, key=lambda seat: self._status(seat)[0])
        self._order = ranked
        items = [f"{Side(seat.side).title}: {seat.title or seat.code}" for seat in ranked]
        details = [self._status(seat)[1] for seat in ranked]
        self.list.set_items(
            items or ["No battles yet: host one, or join with an invitation."], details or None
        )
        self.list.visible = True

    def on_update(self, delta_time: float) -> None:
        if self._fresh.is_set() and not self._fresh_shown:
            self._fresh_shown = True
            self._show_list()
            self._layout_all()

    def _host(self) -> None:
        self.app.open(HostChoice(self.app, local=self.local))

    def _join(self) -> None:
        self.app.open(JoinChoice(self.app))

    def _resume(self, row: int) -> None:
        if not self._order or row >= len(self._order):
            return
        stored = self._order[row]
        try:
            seat = Seat.take(stored.url, stored.code, Side(stored.side), token=stored.token)
        except NetError as error:
            self.problem.text = f"Can't resume that battle: {error}"
            return
        seat.invitation, seat.spectate = stored.code, stored.spectate
        go_on(self.app, seat, stored.url, replace=False)

    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        wide = min(820, width - 2 * theme.MARGIN)
        top = height - theme.BAR_HEIGHT - 60
        self.heading.place(Box(cx - wide / 2, top, wide, 50))
        self.host.place(Box(cx - 270, top - 66, 260, 46))
        self.join.place(Box(cx + 10, top - 66, 260, 46))
        self.listed.place(Box(cx - wide / 2, top - 120, wide, 30))
        bottom = theme.HINT_HEIGHT + 80
        self.list.place(Box(cx - wide / 2, bottom, wide, max(40.0, top - 130 - bottom)))
        self.problem.place(Box(cx - wide / 2, theme.HINT_HEIGHT + 10, wide, 60))


class HostChoice(Screen):
    """The battle to host: the server, the battle, the rule set, the side; Enter hosts it."""

    title = "Host a battle"
    hint = "Click a row or press its key to change it (R: the rule set) · Enter hosts · Esc back"

    def __init__(self, window: MinisWindow, *, local: LocalServer | None = None) -> None:
        super().__init__(window)
        self.local = local
        self.on_this_machine = True
        self.scenario = "standard"
        #: A scenario file chosen as the battle (Battle: after Assault, the scenario chooser).
        self.plan: Scenario | None = None
        self.side = Side.AXIS
        self.attack = True
        self.rules: RuleSet = RULEBOOK
        key = arcade.key
        self.heading = Label(self.title, size=28, bold=True, colour=theme.ACCENT, align="center")
        self.server = Button("", self._cycle_server, shortcuts=[key.S])
        self.address = TextField("ws://127.0.0.1:8765", placeholder="ws://HOST:PORT")
        self.battle = Button("", self._cycle_battle, shortcuts=[key.B])
        self.rules_picker = RulesPicker(self.rules, self._rules_chosen, compact=True)
        self.side_button = Button("", self._cycle_side, shortcuts=[key.Y])
        self.attack_button = Button("", self._cycle_attack, shortcuts=[key.A])
        self.about = Label("", size=theme.TEXT_SIZE, colour=theme.TEXT_DIM, multiline=True, align="center")
        self.problem = Label("", size=theme.TEXT_SIZE, colour=theme.BAD, multiline=True, align="center")
        self.start = Button("Host (Enter)", self.go, shortcuts=[key.ENTER, key.NUM_ENTER])
        self.rows: list[Widget] = [
            self.server,
            self.address,
            self.battle,
            self.rules_picker,
            self.side_button,
            self.attack_button,
        ]
        self.widgets = [self.heading, *self.rows, self.about, self.start, self.problem]
        self.set_focus(self.start)
        self.show()

    def show(self) -> None:
        port = (self.local if self.local is not None else local_server()).port
        where = f"this machine (port {port or 'any'})" if self.on_this_machine else "at an address"
        self.server.label.text = f"Server: {where} (S)"
        self.address.visible = not self.on_this_machine
        plan = self.plan
        battle = plan.title if plan is not None else "Assault" if self.scenario == "assault" else "Standard"
        self.battle.label.text = f"Battle: {battle} (B)"
        self.side_button.label.text = f"You play: the {self.side.title} (Y)"
        role = "attack" if self.attack else "defend"
        self.attack_button.label.text = f"{'Assault' if plan is None else plan.title}: you {role} (A)"
        open_attack = plan is not None and plan.is_attack and plan.attacker_side is None
        self.attack_button.visible = self.scenario == "assault" or open_attack
        self.rules_picker.fixed = "set by the scenario" if plan is not None else ""
        self.rules_picker.focusable = self.rules_picker.choosable
        self.rules_picker.set_rules(plan.doc.rules if plan is not None else self.rules)
        self.about.text = (
            "A server on this machine runs while this window is open; the other player connects to it "
            "(your router may need to let them in: docs/network.md)."
            if self.on_this_machine
            else "A server someone runs with `minis serve`: it keeps the battle, rolls the dice and shows "
            "each player only their own side."
        )
        self._layout_all()

    def _cycle_server(self) -> None:
        self.on_this_machine = not self.on_this_machine
        self.set_focus(self.address if not self.on_this_machine else self.start)
        self.show()

    def _cycle_battle(self) -> None:
        """Standard, Assault, then a scenario file (the chooser opens; Escape there keeps Assault)."""
        if self.plan is None and self.scenario == "assault":
            self.app.routes.choose_scenario(then=self.scenario_chosen)
            return
        self.scenario = "assault" if self.plan is None else "standard"
        self.plan = None
        self.show()

    def scenario_chosen(self, plan: Scenario) -> None:
        """A scenario file from the chooser: its battle, its rule set, its roles."""
        self.plan = plan
        self.scenario = "file"
        self.show()

    def _rules_chosen(self, rules: RuleSet) -> None:
        self.rules = rules
        self.show()

    def _cycle_side(self) -> None:
        self.side = self.side.other
        self.show()

    def _cycle_attack(self) -> None:
        self.attack = not self.attack
        self.show()

    def message(self) -> dict[str, Any]:
        """The `new` message for the battle chosen (MinisError: a scenario file that no longer reads)."""
        attacker = None
        if self.attack_button.visible:
            attacker = (self.side if self.attack else self.side.other).value
        if self.plan is not None:
            return new_message(scenario=self.plan.file, attacker=attacker)
        rules = None if self.rules is RULEBOOK else self.rules.name
        return new_message(scenario=self.scenario, rules=rules, attacker=attacker)

    def go(self) -> None:
        self.problem.text = ""
        try:
            if self.on_this_machine:
                local = self.local if self.local is not None else local_server()
                url = local.start()
                shown = f"ws://{lan_address()}:{local.port}"
            else:
                url = shown = _address(self.address.value)
            created = _ask(url, self.message())
            seat = Seat.take(url, created["code"], self.side)
        except NetError as error:
            self.problem.text = f"Can't host: {error}"
            return
        except MinisError as error:
            self.problem.text = "\n".join(problem_lines(error.problems))
            return
        seat.invitation, seat.spectate = str(created["code"]), str(created.get("spectate", ""))
        seat.store(url, battle_title(seat.state.get("settings") or {}))
        seat.address = shown
        go_on(self.app, seat, url)

    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        wide = min(760, width - 2 * theme.MARGIN)
        top = height - theme.BAR_HEIGHT - 60
        self.heading.place(Box(cx - wide / 2, top, wide, 50))
        y = top - 10.0
        for row in self.rows:
            if row.visible:
                y -= 52
                row.place(Box(cx - 260, y, 520, 42))
        self.about.place(Box(cx - wide / 2, y - 80, wide, 70))
        self.start.place(Box(cx - 160, y - 140, 320, 46))
        self.problem.place(Box(cx - wide / 2, max(theme.HINT_HEIGHT, y - 210), wide, 62))


class JoinChoice(Screen):
    """The server's address, the invitation code and the side; Enter joins."""

    title = "Join a battle"
    hint = "Tab: next field · S: the side (outside a field) · Enter joins · Esc back"

    def __init__(self, window: MinisWindow, *, address: str = "ws://127.0.0.1:8765") -> None:
        super().__init__(window)
        self.side = Side.ALLIES
        self.heading = Label(self.title, size=28, bold=True, colour=theme.ACCENT, align="center")
        self.address_label = Label("Server address", size=theme.TEXT_SIZE)
        self.address = TextField(address, placeholder="ws://HOST:PORT", on_submit=lambda _: self.go())
        self.code_label = Label("Invitation code", size=theme.TEXT_SIZE)
        self.code = TextField("", placeholder="the code the host sent you", on_submit=lambda _: self.go())
        self.side_button = Button("", self._cycle_side, shortcuts=[arcade.key.S])
        self.problem = Label("", size=theme.TEXT_SIZE, colour=theme.BAD, multiline=True, align="center")
        self.start = Button("Join (Enter)", self.go, shortcuts=[arcade.key.ENTER, arcade.key.NUM_ENTER])
        self.widgets = [
            self.heading,
            self.address_label,
            self.address,
            self.code_label,
            self.code,
            self.side_button,
            self.start,
            self.problem,
        ]
        self.set_focus(self.code)
        self.show()

    def show(self) -> None:
        self.side_button.label.text = f"You play: the {self.side.title} (S)"
        self._layout_all()

    def _cycle_side(self) -> None:
        self.side = self.side.other
        self.show()

    def go(self) -> None:
        code = self.code.value.strip().upper()
        if not code:
            self.problem.text = "Type the invitation code the host sent you."
            return
        url = _address(self.address.value)
        try:
            seat = Seat.take(url, code, self.side)
        except NetError as error:
            self.problem.text = f"Can't join: {error}"
            return
        seat.invitation = code
        seat.store(url, battle_title(seat.state.get("settings") or {}))
        go_on(self.app, seat, url)

    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        top = height - theme.BAR_HEIGHT - 60
        self.heading.place(Box(cx - 300, top, 600, 50))
        self.address_label.place(Box(cx - 260, top - 40, 520, 26))
        self.address.place(Box(cx - 260, top - 80, 520, 36))
        self.code_label.place(Box(cx - 260, top - 120, 520, 26))
        self.code.place(Box(cx - 260, top - 160, 520, 36))
        self.side_button.place(Box(cx - 260, top - 220, 520, 42))
        self.start.place(Box(cx - 160, top - 290, 320, 46))
        self.problem.place(Box(cx - 300, top - 370, 600, 62))


class Lobby(Screen):
    """Between taking a seat and the battle: the invitation to send, and what the battle waits for."""

    title = "Waiting for the other player"
    hint = "Esc: leave (the seat stays yours: resume it from Play over the network)"

    def __init__(self, window: MinisWindow, seat: Seat, url: str, settings: dict[str, Any]) -> None:
        super().__init__(window)
        self.seat, self.url, self.settings = seat, url, settings
        self.heading = Label(battle_title(settings), size=26, bold=True, colour=theme.ACCENT, align="center")
        self.invite = Label("", size=theme.TEXT_SIZE + 2, multiline=True, align="center")
        self.waiting = Label(
            "", size=theme.TEXT_SIZE + 1, colour=theme.TEXT_DIM, multiline=True, align="center"
        )
        self.problem = Label("", size=theme.TEXT_SIZE, colour=theme.BAD, multiline=True, align="center")
        self.rebuild = Button("Build the army again (B)", self._rebuild, shortcuts=[arcade.key.B])
        self.rebuild.visible = False
        self.widgets = [self.heading, self.invite, self.waiting, self.rebuild, self.problem]
        self.show(seat.state)

    def show(self, state: dict[str, Any]) -> None:
        side = self.seat.link.side
        other = side.other
        address = self.seat.address or self.url
        code = self.seat.invitation or self.seat.link.code
        lines = [f"Invitation code: {code}", f"Server: {address}"]
        if self.seat.spectate:
            lines.append(f"Spectators watch with the code {self.seat.spectate}")
        self.invite.text = "\n".join(lines)
        if not state["seats"][other.value]:
            wait = (
                f"Send the {other.title} player the server's address and the code. Waiting for them to join…"
            )
        elif not state["armies"][other.value]:
            wait = f"The {other.title} player is building their army in secret…"
        elif not state["armies"][side.value]:
            wait = "Your army is on its way to the server…"
        else:
            wait = "The battle begins…"
        self.waiting.text = wait
        self._layout_all()

    def send_army(self, army: Army) -> None:
        """The army built: to the server, and this lobby shown until the battle begins."""
        self.army = army
        self.seat.link.send({"kind": "army", "text": dump_army(army)})
        if self.app.top_screen is not self:
            self.app.replace(self)

    def _rebuild(self) -> None:
        self.rebuild.visible = False
        self.problem.text = ""
        build_army(self.app, self.seat, self.settings, self.send_army, replace=False)

    def on_update(self, delta_time: float) -> None:
        messages = self.seat.link.poll()
        for index, message in enumerate(messages):
            kind = message.get("kind")
            if kind == "state":
                self.seat.state = message
                if message.get("started"):
                    self.seat.link.put_back(messages[index + 1 :])  # the battle's next states: its own
                    self.begin(message)
                    return
                self.show(message)
            elif kind == "error" and message.get("about") == "army":
                self.problem.text = f"The server refused the army:\n{message.get('message')}"
                self.rebuild.visible = True
                self._layout_all()
            elif kind in ("error", "gone"):
                self.problem.text = str(message.get("message", ""))

    def begin(self, state: dict[str, Any]) -> None:
        """Both armies are in: the battle, from this seat."""
        from minis.ui.battle import BattleScreen
        from minis.ui.netsession import NetSession

        session = NetSession(self.seat.link, state, title=battle_title(self.settings))
        self.app.replace(BattleScreen(self.app, session))

    def on_back(self) -> bool:
        self.seat.link.close()
        return False

    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        wide = min(820, width - 2 * theme.MARGIN)
        top = height - theme.BAR_HEIGHT - 70
        self.heading.place(Box(cx - wide / 2, top, wide, 50))
        self.invite.place(Box(cx - wide / 2, top - 120, wide, 110))
        self.waiting.place(Box(cx - wide / 2, top - 200, wide, 70))
        self.rebuild.place(Box(cx - 180, top - 260, 360, 44))
        self.problem.place(
            Box(cx - wide / 2, theme.HINT_HEIGHT + 10, wide, max(60.0, top - 280 - theme.HINT_HEIGHT))
        )
