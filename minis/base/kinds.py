"""The kinds of battle (`BattleKind`): a module that imports nothing of minis.

The terms, the state and the window's menus all name it; here, naming it costs them nothing (the
state imports the battle and with it the board and numpy, which the main menu's first frame does
without: tests/test_cli_imports.py).
"""

from __future__ import annotations

import enum


class BattleKind(enum.Enum):
    """The rulebook's two kinds of battle (a scenario file, `minis.engine.scenario.Scenario`, plays as one of
    them, with its own terms; an army is built for an `minis.army.ArmyScenario`)."""

    STANDARD = "standard"
    ASSAULT = "assault"
