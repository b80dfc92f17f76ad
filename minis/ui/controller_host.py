"""What the battle controller's parts ask of it, named once for all of them.

`minis.ui.controller.BattleController` owns its parts (`minis.ui.deployment`, `minis.ui.aircraft`,
`minis.ui.overstack`, `minis.ui.battle_texts`), and each part asks it for the position, the selection
and its ways to say and do things. Naming the controller's class in a part would make the two modules
import each other, so the parts name this `Protocol` instead, which the controller fulfils.
"""

from __future__ import annotations

from typing import Protocol

from minis.base.sides import Side
from minis.engine import actions as A
from minis.game import Game
from minis.hexgrid import Facing, Hex
from minis.state import GameState, Stage, Unit
from minis.ui.session import Session


class ControllerHost(Protocol):
    """The battle's controller as its parts see it (`minis.ui.controller.BattleController` is one)."""

    session: Session
    selected: str | None
    facing: Facing | None
    elsewhere: frozenset[Side]

    @property
    def game(self) -> Game: ...
    @property
    def state(self) -> GameState: ...
    @property
    def stage(self) -> Stage: ...
    def label(self, hex_: Hex) -> str: ...
    def name(self, unit: Unit) -> str: ...
    def plain(self, text: str) -> str: ...
    def is_ready(self, unit: Unit) -> bool: ...
    def elsewhere_decides(self) -> bool: ...
    def select(self, unit_id: str | None) -> None: ...
    def say(self, text: str, bad: bool = False) -> None: ...
    def act(self, action: A.Action) -> bool: ...
