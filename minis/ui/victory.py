"""The end of a battle: who won and why (the engine's reason: the objective or points), and the losses."""

from __future__ import annotations

from collections.abc import Hashable

import arcade

from minis.base.sides import Side
from minis.ui import theme
from minis.ui.app import MinisWindow, Screen
from minis.ui.cardpanel import SIDE_TEXT
from minis.ui.plain import unit_names
from minis.ui.session import SAVE_SUFFIX, Session
from minis.ui.widgets import Box, Button, Label, fit_first_lines


class VictoryScreen(Screen):
    title = "The battle is over"
    hint = "S saves the game record · Enter or Esc returns to the main menu"

    def __init__(self, window: MinisWindow, session: Session) -> None:
        super().__init__(window)
        self.session = session
        state = session.game.state
        winner, reason = session.result
        self.winner = winner
        self.headline = Label(
            f"The {winner.title} win" if winner else "The battle is drawn",
            size=40,
            bold=True,
            colour=SIDE_TEXT[winner] if winner else theme.ACCENT,
            align="center",
        )
        why = reason
        if winner is not None and reason.startswith("controls"):
            why = f"The {winner.title} {reason}."
        elif reason:
            why = reason[0].upper() + reason[1:] + "."
        self.why = Label(why, size=theme.TEXT_SIZE + 3, align="center")
        self.turns = Label(
            f"after {state.turn} turn{'s' if state.turn != 1 else ''}",
            size=theme.TEXT_SIZE,
            colour=theme.TEXT_DIM,
            align="center",
        )
        self.columns: list[tuple[Label, Label]] = []
        #: Each column's lines (the body shows as many as fit its box).
        self.lines: list[list[str]] = []
        for side in (Side.AXIS, Side.ALLIES):
            lost = [state.units[u] for u in session.losses(side)]
            left = [u for u in state.units.values() if u.side is side and not u.removed]
            title = Label(
                f"{side.title}: lost {len(lost)} unit{'s' if len(lost) != 1 else ''} "
                f"({session.points_lost(side)} points)",
                size=theme.TEXT_SIZE + 2,
                bold=True,
                colour=SIDE_TEXT[side],
            )
            names = unit_names(state.units.values())
            lines = [f"destroyed: {names[u.id]} ({u.card.cost})" for u in lost]
            lines += [f"standing: {names[u.id]} ({u.card.cost})" for u in sorted(left, key=lambda u: u.id)]
            body = Label("", size=theme.TEXT_SIZE, multiline=True)
            self.columns.append((title, body))
            self.lines.append(lines or ["no units"])
        self.save_button = Button("Save the record (S)", self.save, shortcuts=[arcade.key.S])
        self.menu_button = Button("Main menu (Enter)", self.to_menu, shortcuts=[arcade.key.ENTER])
        self.saved = Label("", size=theme.SMALL_SIZE + 1, colour=theme.TEXT_DIM, align="center")
        self.widgets = [
            self.headline,
            self.why,
            self.turns,
            *[w for pair in self.columns for w in pair],
            self.save_button,
            self.menu_button,
            self.saved,
        ]

    def to_menu(self) -> None:
        while len(self.app.stack) > 1:
            self.app.stack.pop()
        if self.app.stack:
            self.app.show_view(self.app.stack[-1])

    def on_back(self) -> bool:
        self.to_menu()
        return True

    def save(self) -> None:
        if not self.session.recordable:
            self.saved.text = "This battle began from a set position; it has no record to save."
            return

        def saved(message: str) -> None:
            self.saved.text = message

        self.app.routes.save_game(
            self.session,
            title="Save the game record",
            name=f"battle-turn-{self.session.game.state.turn}{SAVE_SUFFIX}",
            saved=saved,
        )

    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        top = height - theme.BAR_HEIGHT - 40
        wide = min(1100, width - 2 * theme.MARGIN)  # the lines across: as wide as the window allows
        self.headline.place(Box(cx - wide / 2, top - 60, wide, 60))
        self.why.place(Box(cx - wide / 2, top - 100, wide, 30))
        self.turns.place(Box(cx - wide / 2, top - 128, wide, 24))
        column = min(440, (width - 80) / 2)
        for i, ((title, body), lines) in enumerate(zip(self.columns, self.lines, strict=True)):
            left = cx - column - 20 if i == 0 else cx + 20
            title.place(Box(left, top - 180, column, 28))
            body.place(Box(left, theme.HINT_HEIGHT + 110, column, top - 190 - theme.HINT_HEIGHT - 110))
            fit_first_lines(body, lines, body.box)
        self.save_button.place(Box(cx - 250, theme.HINT_HEIGHT + 40, 240, 42))
        self.menu_button.place(Box(cx + 10, theme.HINT_HEIGHT + 40, 240, 42))
        self.saved.place(Box(cx - wide / 2, theme.HINT_HEIGHT + 10, wide, 24))

    def content_look(self) -> Hashable:
        return self.winner
