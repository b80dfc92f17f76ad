"""Choosing the battle map: roll a die for it (the die is shown) or agree on one of the six, with a preview.

Standard battle: the players either roll (the engine rolls its first die, docs/contracts.md#dice-order,
and the configuration it shows is the map) or pick a configuration together. Either way the game is
created here (`Game.new`) and handed on. Assault: the defender chooses (the `configuration N` action of
the game that already exists). Keys 1-6 preview a map, R rolls, Enter plays on the previewed map.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import arcade

from minis.base.errors import MinisError
from minis.engine import actions as A
from minis.game import Game
from minis.rules.errors import IllegalAction
from minis.ui import boards, hexdraw, theme
from minis.ui.app import MinisWindow, Screen
from minis.ui.confirm import leave_dialog
from minis.ui.mapview import MapView
from minis.ui.widgets import Box, Button, DiceRow, Label


def geometry(window: MinisWindow, number: int) -> hexdraw.MapGeometry:
    """The drawing of configuration `number` with its deployment zones (kept by the window)."""
    key = ("configuration", number)
    if key not in window.cache:
        window.cache[key] = hexdraw.build(boards.configuration(number))
    found = window.cache[key]
    assert isinstance(found, hexdraw.MapGeometry)  # the window's cache holds all kinds of things
    return found


class MapChoice(Screen):
    """Roll for the map or choose it. `make_game(configuration or None)` creates the Standard game;
    for an Assault, `game` is given and the defender's choice is applied to it."""

    def __init__(
        self,
        window: MinisWindow,
        on_game: Callable[[Game], object],
        *,
        make_game: Callable[[int | None], Game] | None = None,
        game: Game | None = None,
    ) -> None:
        self.assault = game is not None
        self.title = "Battle map"
        super().__init__(window)
        if self.assault:
            assert game is not None
            chooser = game.decider()
            who = chooser.title if chooser else "The defender"
            self.hint = f"{who} (the defender) chooses the map: 1-6 or the tabs preview · Enter plays on it"
        else:
            self.hint = (
                "R rolls a die for the map · or 1-6 (or the tabs) preview one to agree on · Enter plays on it"
            )
        self.set_hint(self.hint)
        self.on_game = on_game
        self.make_game = make_game
        self.game = game
        self.number = 1
        self.rolled: int | None = None
        self.map = MapView(window)
        self.tabs = boards.configuration_tabs(self.preview)
        self.heading = Label("", size=theme.TEXT_SIZE + 3, bold=True, colour=theme.ACCENT)
        self.info = Label("", size=theme.TEXT_SIZE, multiline=True)
        self.die = DiceRow()
        self.roll_button = Button("Roll a die (R)", self.roll, shortcuts=[arcade.key.R])
        self.play_button = Button("Play on this map (Enter)", self.play, shortcuts=[arcade.key.ENTER])
        self.roll_button.visible = not self.assault
        self.error = Label("", size=theme.TEXT_SIZE, colour=theme.BAD, multiline=True)
        self.widgets = [
            self.map,
            self.tabs,
            self.heading,
            self.info,
            self.die,
            self.roll_button,
            self.play_button,
            self.error,
        ]
        self.bar_widgets = [self.tabs]
        self.preview(1)

    def preview(self, number: int) -> None:
        if self.rolled is not None and number != self.rolled:
            self.tabs.set_selected(self.rolled - 1)
            self.error.text = f"The die chose configuration {self.rolled}."
            return
        self.number = number
        self.tabs.set_selected(number - 1)
        try:
            self.map.set_geometry(geometry(self.app, number))
        except MinisError as error:
            self.error.text = f"This map cannot be used:\n{error.problems[0]}"
            self.map.geometry = None
            return
        self.error.text = ""
        self.heading.text = boards.title(number)
        self._describe()

    def _describe(self) -> None:
        if self.rolled is not None:
            self.info.text = (
                f"The die shows {self.rolled}: the battle is fought on configuration {self.rolled}, "
                f"{boards.CONFIGURATIONS[self.rolled]}.\n\nThe coin flip comes next."
            )
        elif self.assault:
            self.info.text = (
                "The defender picks the map. The purple and red rims are the two ends; the defender will "
                "choose the objective and an end next."
            )
        else:
            self.info.text = (
                "Roll a die for the map (the rulebook's way), or agree on one: preview it with 1-6 and "
                "press Enter.\n\nThe rims show the deployment zones at the two ends; the star is the "
                "objective."
            )

    def roll(self) -> None:
        if self.assault or self.rolled is not None or self.make_game is None:
            return
        try:
            game = self.make_game(None)
        except MinisError as error:
            self.error.text = f"This map cannot be used:\n{error.problems[0]}"
            return
        self.game = game
        number = game.state.configuration or 1
        self.rolled = None
        self.preview(number)
        self.rolled = number
        self.die.set_dice([(number, theme.ACCENT)])
        self.roll_button.enabled = False
        self.play_button.label.text = "Continue (Enter)"
        self._describe()

    def play(self) -> None:
        if self.map.geometry is None:
            return
        if self.assault:
            assert self.game is not None
            try:
                self.game.apply(A.Configuration(self.number))
            except (IllegalAction, MinisError) as error:
                self.error.text = str(getattr(error, "reason", error))
                return
            self.on_game(self.game)
            return
        if self.game is None:
            assert self.make_game is not None
            try:
                self.game = self.make_game(self.number)
            except MinisError as error:
                self.error.text = f"This map cannot be used:\n{error.problems[0]}"
                return
        self.on_game(self.game)

    def layout(self, width: int, height: int) -> None:
        content = self.content_box
        m = theme.MARGIN
        boards.place_tabs(self.tabs, width, height, left=200)
        panel_width = 320
        left = width - panel_width - m
        self.map.place(Box(m, content.bottom + m, left - 2 * m, content.height - 2 * m))
        top = content.top - m
        self.heading.place(Box(left, top - 30, panel_width, 30))
        self.info.place(Box(left, top - 180, panel_width, 140))
        self.die.place(Box(left, top - 230, panel_width, 36))
        self.roll_button.place(Box(left, top - 290, panel_width, 40))
        self.play_button.place(Box(left, top - 340, panel_width, 40))
        self.error.place(Box(left, top - 440, panel_width, 80))

    def content_look(self) -> Hashable:
        return (self.number, self.rolled)

    def on_command_key(self, symbol: int, modifiers: int) -> bool:
        number = boards.number_key(symbol)
        if number is not None:
            self.preview(number)
            return True
        return False

    def on_back(self) -> bool:
        self.show_dialog(leave_dialog(self, "The armies and the set-up so far are lost."))
        return True
