"""The main menu: what the game can do now, one entry per screen.

Only entries that work are shown; later screens (new Standard or Assault battle, load a game, the
map editor) add themselves to ENTRIES when they exist.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import arcade

from minis.ui import theme
from minis.ui.app import MinisWindow, Screen
from minis.ui.widgets import Box, Label, ListBox


def _battle_maps(window: MinisWindow) -> None:
    from minis.ui.battlemaps import BattleMapsScreen

    window.open(BattleMapsScreen(window))


def _quit(window: MinisWindow) -> None:
    window.quit()


#: (title, what it does, action) for every menu entry, in menu order.
ENTRIES: list[tuple[str, str, Callable[[MinisWindow], object]]] = [
    ("Battle maps", "Look at the six battle maps and check sight lines.", _battle_maps),
    ("Quit", "Close the game.", _quit),
]


class MainMenu(Screen):
    title = "minis"
    hint = "Up/Down or the mouse to choose, Enter or click to open · Esc quits"

    def __init__(self, window: MinisWindow) -> None:
        super().__init__(window)
        self.entries = list(ENTRIES)
        self.subtitle = Label(
            "Axis & Allies Miniatures for two players at one screen",
            size=theme.TEXT_SIZE + 1,
            colour=theme.TEXT_DIM,
            align="center",
        )
        self.heading = Label("minis", size=48, bold=True, colour=theme.ACCENT, align="center")
        self.menu = ListBox([title for title, _, _ in self.entries], self.choose, row_height=56)
        self.about = Label("", size=theme.TEXT_SIZE, colour=theme.TEXT_DIM, align="center")
        self.widgets = [self.heading, self.subtitle, self.menu, self.about]
        self.set_focus(self.menu)

    def choose(self, index: int) -> None:
        _, _, action = self.entries[index]
        action(self.app)

    def entry_box(self, title: str) -> Box:
        """Where the entry called `title` is on screen (for tests and demos)."""
        return self.menu.row_box([t for t, _, _ in self.entries].index(title))

    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        self.heading.place(Box(cx - 300, height * 0.72, 600, 70))
        self.subtitle.place(Box(cx - 300, height * 0.72 - 36, 600, 30))
        rows = len(self.entries)
        menu_height = rows * self.menu.row_height
        top = height * 0.62
        self.menu.place(Box(cx - 170, top - menu_height, 340, menu_height))
        self.about.place(Box(cx - 300, top - menu_height - 44, 600, 30))

    def look(self) -> Hashable:
        self.about.text = self.entries[self.menu.index][1]  # says what the highlighted entry does
        return super().look()

    def on_command_key(self, symbol: int, modifiers: int) -> bool:
        if symbol == arcade.key.Q:
            self.app.quit()
            return True
        return False
