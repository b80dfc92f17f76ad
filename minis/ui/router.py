"""The routes of the game window: the one module that imports the screens and wires them together.

Screens send the player on through `window.routes` (the `navigation.Routes` protocol) and never
import the screen they open; this module does, so the screen modules have no import cycle among them.
`new_window` makes a window with these routes; `minis play`, the UI tests and `Driver.open` use it.

Each route imports its screen when it is first taken: the main menu needs neither the rules engine nor
the battle screen, so the window's first frame comes without them (issue 33: start-up).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from minis.base.kinds import BattleKind
from minis.ui.app import HEIGHT, WIDTH, MinisWindow, Screen
from minis.ui.menu import MainMenu

if TYPE_CHECKING:
    from minis.engine.scenario import Scenario
    from minis.game import Game
    from minis.ui.computer import ComputerPlayer
    from minis.ui.session import Session


class Router:
    """`navigation.Routes` for one window: each destination is the screen it names."""

    def __init__(self, window: MinisWindow) -> None:
        self.window = window

    def main_menu(self) -> None:
        self.window.stack.clear()
        self.window.open(MainMenu(self.window))

    def new_battle(self, scenario: BattleKind) -> None:
        from minis.ui.newbattle import NewBattle

        NewBattle(self.window, scenario).start()

    def scenario_battle(self, plan: Scenario) -> None:
        from minis.ui.newbattle import NewBattle

        NewBattle.for_scenario(self.window, plan).start()

    def choose_scenario(
        self, folder: Path | None = None, *, then: Callable[[Scenario], object] | None = None
    ) -> None:
        from minis.ui.scenariochoice import open_scenario_dialog

        open_scenario_dialog(self.window, folder, then)

    def against_computer(self, *, watch: bool = False) -> None:
        from minis.ui.newbattle import NewBattle
        from minis.ui.opponent import OpponentChoice

        self.window.open(
            OpponentChoice(
                self.window, lambda choice: NewBattle.against(self.window, choice).start(), watch=watch
            )
        )

    def battle(
        self, session: Session, *, replace: bool = True, computer: ComputerPlayer | None = None
    ) -> None:
        from minis.state import Stage
        from minis.ui.battle import BattleScreen
        from minis.ui.mapchoice import MapChoice
        from minis.ui.newbattle import computer_chooses_map

        window = self.window
        game = session.game
        chooser = game.decider()
        if (
            game.state.stage is Stage.CHOOSE_CONFIGURATION
            and computer is not None
            and computer.plays(chooser)
        ):
            computer_chooses_map(game, computer.strength, random.randrange(2**63))  # its defender's map
        if game.state.stage is Stage.CHOOSE_CONFIGURATION:  # a loaded Assault: the defender's map first

            def chosen(_: Game) -> None:
                window.replace(BattleScreen(window, session, computer=computer))

            screen: Screen = MapChoice(window, chosen, game=game)
        else:
            # a loaded game mid-deployment shows the hand-over first (the battle screen asks for it)
            screen = BattleScreen(window, session, computer=computer)
        if replace:
            window.replace(screen)
        else:
            window.open(screen)

    def loaded_game(self, session: Session) -> None:
        from minis.ui.battle import BattleScreen
        from minis.ui.computer import recorded
        from minis.ui.newbattle import computer_player

        # above the menu, Escape leads back to it; from a battle, the loaded one takes its place
        playing = self.window.top_screen
        if isinstance(playing, BattleScreen) and playing.computer is not None:
            playing.computer.close()  # the battle loaded over: its computer stops thinking
        found = recorded(session.game.header)
        computer = None if found is None else computer_player(*found, random.randrange(2**63))
        self.battle(session, replace=not isinstance(playing, MainMenu), computer=computer)

    def victory(self, session: Session) -> None:
        from minis.ui.victory import VictoryScreen

        self.window.replace(VictoryScreen(self.window, session))

    def load_game(self, folder: Path | None = None, *, playing: bool = False) -> None:
        from minis.ui.gamefiles import open_load_dialog

        open_load_dialog(self.window, folder, playing=playing)

    def save_game(self, session: Session, *, title: str, name: str, saved: Callable[[str], object]) -> None:
        from minis.ui.gamefiles import open_save_dialog

        open_save_dialog(self.window, session, title=title, name=name, saved=saved)

    def network(self) -> None:
        from minis.ui.netmenu import NetworkMenu

        self.window.open(NetworkMenu(self.window))

    def battle_maps(self) -> None:
        from minis.ui.battlemaps import BattleMapsScreen

        self.window.open(BattleMapsScreen(self.window))

    def map_editor(self) -> None:
        from minis.ui.editor import EditorView  # only when chosen: the menu shows it only if it exists

        self.window.open(EditorView(self.window, path=None))


def new_window(width: int = WIDTH, height: int = HEIGHT, *, visible: bool = True) -> MinisWindow:
    """The game window, its screens wired to one another (no screen shown yet)."""
    window = MinisWindow(width, height, visible=visible)
    window.routes = Router(window)
    return window
