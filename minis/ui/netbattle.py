"""The battle screen's network side: what the server says, shown at the table.

Called from `BattleScreen` when its session is a `NetSession` (the battle is held by a game server):

- `follow_server`, once a frame: the server's messages taken in; the other player's decisions shown
  one at a time, after the last one's motion and with no dialog open, exactly as the computer's are
  (`BattleController.arrived`: the words, the selection, the motion, the dialogs); a chat line from
  the other player in the message line; an offer of theirs (a draw, taking back a decision) as a
  question; the connection's trouble in the panel, and a server gone for good as a dialog.
- `ask_undo` (U): undo over the network is a request the other player answers.
- `battle_menu` (Escape): leave (the server keeps the battle), offer a draw, resign.
- `ChatScreen`: the battle's chat, read and written (M).
"""

from __future__ import annotations

from typing import Any, Protocol

import arcade

from minis.base.sides import Side
from minis.ui import theme
from minis.ui.app import MinisWindow, Screen
from minis.ui.battle_dialogs import BattleDialogs
from minis.ui.confirm import ask
from minis.ui.controller import BattleController
from minis.ui.motion import Motion
from minis.ui.netsession import NetSession
from minis.ui.session import Session
from minis.ui.widgets import Box, Button, Dialog, Label, TextField

__all__ = ["ChatScreen", "ask_undo", "battle_menu", "follow_server", "leave_battle", "open_chat"]

#: The longest chat line the window sends (the server's own limit).
CHAT_MOST = 500


class BattleScreen(Protocol):
    """What the network side asks of the battle screen (`minis.ui.battle.BattleScreen` is one; naming
    it here would make the two modules import each other)."""

    app: MinisWindow
    session: Session
    controller: BattleController
    motion: Motion
    dialog: Dialog | None
    told: dict[str, Any]
    dialogs: BattleDialogs

    def say(self, text: str, bad: bool = False) -> None: ...
    def show_dialog(self, dialog: Dialog | None) -> None: ...


def _session(screen: BattleScreen) -> NetSession:
    session = screen.session
    assert isinstance(session, NetSession)
    return session


def follow_server(screen: BattleScreen) -> None:
    session = _session(screen)
    session.poll()
    control = screen.controller
    told = screen.told
    if len(session.chat) > told["chat"]:
        for side, text in session.chat[told["chat"] :]:
            if side != session.side.value:
                control.say(f"{_player(side)}: {text}")
        told["chat"] = len(session.chat)
    if session.refusal:
        control.say(session.refusal, bad=True)
        session.refusal = ""
    status = session.connection or (
        f"The {session.side.other.title} player is deciding…" if session.link.alive else ""
    )
    if control.elsewhere_status != status:
        control.elsewhere_status = status
        control.changed()
    top: object = screen.app.top_screen
    if top is not screen:
        return
    if session.gone and told.get("gone") != session.gone:
        told["gone"] = session.gone
        screen.show_dialog(
            Dialog(
                "The server can't be reached",
                f"{_sentence(session.gone)} The battle is kept on the server: resume it later from "
                "Play over the network.",
                [
                    Button("Leave (Enter)", lambda: leave_battle(screen)),
                    Button("Stay (Esc)", screen.dialogs.next_dialog),
                ],
                on_cancel=screen.dialogs.next_dialog,
                width=520,
            )
        )
        return
    if screen.dialog is not None or screen.motion.playing:
        return
    offered = _offer_to_answer(session)
    if offered is not None and told.get("offer") != offered:
        told["offer"] = offered
        screen.show_dialog(_offer_dialog(screen, session, offered))
        return
    events = session.next_state()
    if events is not None:
        control.arrived(events)


def _player(side: str) -> str:
    return f"{Side(side).title} player" if side in ("axis", "allies") else "Spectator"


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _offer_to_answer(session: NetSession) -> tuple[str, int] | None:
    """The other player's offer waiting for this player's answer: (what, the record's place)."""
    offers = session.status.get("offers")
    if not isinstance(offers, dict):
        return None
    for what in ("undo", "draw"):
        if offers.get(what) == session.side.other.value:
            return (what, int(session.status.get("at", 0)))
    return None


def _offer_dialog(screen: BattleScreen, session: NetSession, offered: tuple[str, int]) -> Dialog:
    what = offered[0]
    other = f"The {session.side.other.title} player"

    def answer(accept: bool) -> None:
        session.link.send({"kind": "answer", "what": what, "accept": accept})
        screen.dialogs.next_dialog()

    if what == "undo":
        action = str(session.status.get("undo_action") or "")
        words = screen.controller.plain(action) if action else "their last decision"
        title, text = "Take back a decision?", f"{other} asks to take back: {words}."
    else:
        title, text = "A draw?", f"{other} offers a draw: the battle would end with no winner."
    return Dialog(
        title,
        text,
        [
            Button("Accept (Y)", lambda: answer(True), shortcuts=[arcade.key.Y]),
            Button("Refuse (N)", lambda: answer(False), shortcuts=[arcade.key.N]),
        ],
        on_cancel=lambda: answer(False),
        width=520,
    )


def ask_undo(screen: BattleScreen) -> None:
    """U over the network: ask the other player to take back this player's last decision (the
    server says whether it may be: one that rolled no dice and left the decision here)."""
    session = _session(screen)
    session.link.send({"kind": "offer", "what": "undo"})
    screen.say(f"Asked the {session.side.other.title} player to take back your last decision.")


def battle_menu(screen: BattleScreen) -> None:
    """Escape in a network battle: leave (the battle waits on the server), offer a draw, resign."""
    session = _session(screen)

    def resign() -> None:
        screen.show_dialog(
            ask(
                screen,
                "Resign?",
                f"The {session.side.other.title} win the battle. This can't be taken back.",
                lambda: session.link.send({"kind": "resign"}),
                yes="Resign",
                no="Play on",
                on_no=screen.dialogs.next_dialog,
            )
        )

    def draw() -> None:
        session.link.send({"kind": "offer", "what": "draw"})
        screen.say(f"A draw is offered to the {session.side.other.title} player.")
        screen.dialogs.next_dialog()

    buttons = [
        Button("Leave (L)", lambda: leave_battle(screen), shortcuts=[arcade.key.L]),
        Button("Draw (D)", draw, shortcuts=[arcade.key.D]),
        Button("Resign (R)", resign, shortcuts=[arcade.key.R]),
    ]
    if session.over:
        buttons = buttons[:1]
    screen.show_dialog(
        Dialog(
            "This network battle",
            "The server keeps it: leave now and resume it later from Play over the network. "
            "D offers the other player a draw, R resigns; M (or Chat) writes to them. "
            "Escape goes back to the battle.",
            buttons,
            on_cancel=screen.dialogs.next_dialog,
            width=640,
        )
    )


def open_chat(screen: BattleScreen) -> None:
    screen.app.open(ChatScreen(screen.app, _session(screen)))


def leave_battle(screen: BattleScreen) -> None:
    """Back to the main menu; the seat stays the player's (its token is kept)."""
    _session(screen).close()
    app = screen.app
    while len(app.stack) > 1:
        app.stack.pop()
    if app.stack:
        app.show_view(app.stack[-1])


class ChatScreen(Screen):
    """The battle's chat: the lines so far (both players', spectators read them) and a line to write."""

    title = "Chat"
    hint = "Type and press Enter to send · Esc back to the battle"

    def __init__(self, window: MinisWindow, session: NetSession) -> None:
        super().__init__(window)
        self.session = session
        self.lines = Label("", size=theme.TEXT_SIZE, multiline=True)
        self.field = TextField(on_submit=self.send, placeholder="Write to the other player…")
        self.note = Label("", size=theme.SMALL_SIZE + 1, colour=theme.TEXT_DIM)
        self.widgets = [self.lines, self.field, self.note]
        self.set_focus(self.field)
        self._shown = -1

    def send(self, text: str) -> None:
        text = text.strip()
        if not text:
            return
        if len(text) > CHAT_MOST:
            self.note.text = f"A line is at most {CHAT_MOST} letters."
            return
        self.session.say(text)
        self.field.value = ""
        self.note.text = ""

    def on_update(self, delta_time: float) -> None:
        self.session.poll()
        if self.session.refusal:
            self.note.text = self.session.refusal
            self.session.refusal = ""
        if len(self.session.chat) != self._shown:
            self._shown = len(self.session.chat)
            own = self.session.side.value
            lines = [
                f"{'You' if side == own else _player(side)}: {text}" for side, text in self.session.chat[-40:]
            ]
            self.lines.text = "\n".join(lines) or "No messages yet."
            self._layout_all()

    def layout(self, width: int, height: int) -> None:
        wide = min(820, width - 2 * theme.MARGIN)
        left = (width - wide) / 2
        field_y = theme.HINT_HEIGHT + 40
        self.field.place(Box(left, field_y, wide, 36))
        self.note.place(Box(left, field_y - 30, wide, 24))
        top = height - theme.BAR_HEIGHT - 20
        self.lines.place(Box(left, field_y + 50, wide, max(40.0, top - field_y - 50)))
