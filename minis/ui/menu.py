"""The main menu: what the game can do now, one entry per screen.

Only entries that work are shown: the map editor appears when its package (`minis.ui.editor`) exists,
and is imported only when chosen. Each entry opens its screen through the window's routes
(`minis.ui.navigation`), so the menu imports none of them.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Hashable

import arcade

from minis.base.kinds import BattleKind
from minis.ui import theme
from minis.ui.app import MinisWindow, Screen
from minis.ui.widgets import Box, Label, ListBox


def _new_standard(window: MinisWindow) -> None:
    window.routes.new_battle(BattleKind.STANDARD)


def _new_assault(window: MinisWindow) -> None:
    window.routes.new_battle(BattleKind.ASSAULT)


def _against_computer(window: MinisWindow) -> None:
    window.routes.against_computer()


def _watch_computer(window: MinisWindow) -> None:
    window.routes.against_computer(watch=True)


def _play_scenario(window: MinisWindow) -> None:
    window.routes.choose_scenario()


def _network(window: MinisWindow) -> None:
    window.routes.network()


def _load_game(window: MinisWindow) -> None:
    window.routes.load_game()


def _map_editor(window: MinisWindow) -> None:
    window.routes.map_editor()


def editor_available() -> bool:
    """True when the map editor's package exists (a colleague builds it; the menu shows it then)."""
    return importlib.util.find_spec("minis.ui.editor") is not None


def _battle_maps(window: MinisWindow) -> None:
    window.routes.battle_maps()


def _quit(window: MinisWindow) -> None:
    window.quit()


#: (title, what it does, action) for every menu entry, in menu order.
ENTRIES: list[tuple[str, str, Callable[[MinisWindow], object]]] = [
    ("New Standard battle", "Two players, 100 points each: hold the objective from turn 7.", _new_standard),
    (
        "New Assault battle",
        "The attacker (120 points) must take the defender's (80) objective.",
        _new_assault,
    ),
    ("Play a scenario", "A battle from a scenario file: its own armies, map and victory.", _play_scenario),
    (
        "Play against the computer",
        "You against the computer: choose a side, its strength, the armies.",
        _against_computer,
    ),
    ("Watch the computer play itself", "The computer plays both sides, to the end.", _watch_computer),
    (
        "Play over the network",
        "Two players on two machines: host a battle, join one, or go on with yours.",
        _network,
    ),
    ("Load game", "Go on with a saved game (or the autosave).", _load_game),
    ("Battle maps", "Look at the six battle maps and check sight lines.", _battle_maps),
    ("Map editor", "Draw your own battle maps.", _map_editor),
    ("Quit", "Close the game.", _quit),
]


def entries() -> list[tuple[str, str, Callable[[MinisWindow], object]]]:
    """The entries that work now (the map editor only when its package exists)."""
    return [entry for entry in ENTRIES if entry[0] != "Map editor" or editor_available()]


class MainMenu(Screen):
    title = "minis"
    hint = "Up/Down or the mouse to choose, Enter or click to open · Esc quits"

    def __init__(self, window: MinisWindow) -> None:
        super().__init__(window)
        self.entries = entries()
        self.subtitle = Label(
            "Axis & Allies Miniatures: two players at one screen, or you against the computer",
            size=theme.TEXT_SIZE + 1,
            colour=theme.TEXT_DIM,
            align="center",
        )
        self.heading = Label("minis", size=48, bold=True, colour=theme.ACCENT, align="center")
        self.menu = ListBox([title for title, _, _ in self.entries], self.choose, row_height=50)
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
        self.subtitle.place(Box(cx - 400, height * 0.72 - 36, 800, 30))
        rows = len(self.entries)
        top = height * 0.62
        self.menu.row_height = max(34, min(50, (top - theme.HINT_HEIGHT - 60) / rows))
        menu_height = rows * self.menu.row_height
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
