"""Where a screen can send the player, by name, so that no screen imports the screen it opens.

A screen reaches another through its window (`self.app.routes.victory(session)`), never by importing
it. `Routes` lists the destinations; `minis.ui.router.Router` is the one module that imports the
screens and wires the names to them. So the screens import this protocol and the router imports the
screens: the screen modules form no import cycle, however they lead to one another (a battle to a
load dialog that opens a battle, the victory screen back to the menu).

A set-up flow's own steps (the hand-overs, the army builders and the map choice of `NewBattle`) are
not destinations: the flow makes them itself, as a screen makes its dialogs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # types only: importing the protocol costs nothing at start-up
    from collections.abc import Callable
    from pathlib import Path

    from minis.base.kinds import BattleKind
    from minis.engine.scenario import Scenario
    from minis.ui.computer import ComputerPlayer
    from minis.ui.session import Session


class Routes(Protocol):
    """The destinations of the game window (each opens its screen on the window's stack)."""

    def main_menu(self) -> None:
        """The main menu as the only screen (where the game starts)."""

    def new_battle(self, scenario: BattleKind) -> None:
        """Set up a rulebook battle (Standard or Assault): sides, armies, map, then the battle."""

    def scenario_battle(self, plan: Scenario) -> None:
        """Set up the battle of a scenario file: its army limits, map and sides."""

    def choose_scenario(
        self, folder: Path | None = None, *, then: Callable[[Scenario], object] | None = None
    ) -> None:
        """The chooser of scenario files (the shipped scenarios folder unless `folder`); a good file
        starts its two-player set-up, or goes to `then` (the opponent choice)."""

    def against_computer(self, *, watch: bool = False) -> None:
        """The choices of a battle against the computer (side, strength, army); `watch`: the computer
        plays both sides."""

    def battle(
        self, session: Session, *, replace: bool = True, computer: ComputerPlayer | None = None
    ) -> None:
        """The battle screen of a session (the defender's map choice first if the map is still open),
        in place of the current screen or (`replace=False`) above it; `computer` plays its sides."""

    def loaded_game(self, session: Session) -> None:
        """A game just loaded: above the main menu, or in place of the battle it was loaded from;
        against the computer again if its save says so (`computer.recorded`)."""

    def victory(self, session: Session) -> None:
        """The end of the battle, in place of the battle screen."""

    def load_game(self, folder: Path | None = None, *, playing: bool = False) -> None:
        """The Load game dialog (on the saves folder unless `folder`); `playing`: asks before loading
        over the battle being played."""

    def save_game(self, session: Session, *, title: str, name: str, saved: Callable[[str], object]) -> None:
        """The Save dialog for a session's record; `saved` hears the message once it is written."""

    def network(self) -> None:
        """Play over the network: host, join, or resume a battle held by a game server."""

    def battle_maps(self) -> None:
        """The six configurations and the sight-line tool."""

    def map_editor(self) -> None:
        """The map editor on a new map."""
