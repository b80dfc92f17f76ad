"""A screenshot of every screen and of the dialogs a player meets (issue 13's "done when").

`PICTURE_OF` names, for each `Screen` class of `minis.ui`, the picture that shows it, and for each
dialog a player meets, its picture. `test_every_screen_and_dialog_has_a_picture` fails when a screen
class exists that has no entry, and when a listed picture is taken by no test (a line of a test that
names the picture and its `shots` folder). The tests below take the pictures no other test takes;
`snap` checks that the screen on top is of the class the picture stands for. `make screenshots`
renders them into docs/screenshots/.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path
from typing import Any

import pytest

from minis import record
from tests.test_ui_details import add_by_keys, key_until, to_entry

TESTS = Path(__file__).resolve().parent

#: Each screen class (by name) and each dialog a player meets, and the picture that shows it.
PICTURE_OF = {
    "MainMenu": "main-menu.png",
    "AttackerChoice": "attacker-choice.png",
    "HandOver": "hand-over-assault.png",
    "ArmyBuilder": "army-builder.png",
    "BothPlayers": "armies-ready.png",
    "MapChoice": "map-choice.png",
    "BattleScreen": "battle.png",
    "VictoryScreen": "victory.png",
    "FileDialog": "load-game.png",
    "ScenarioDialog": "scenario-choice.png",
    "BattleMapsScreen": "battle-map.png",
    "EditorView": "editor-new-map.png",
    "OpponentChoice": "opponent-choice.png",
    "NetworkMenu": "network-menu.png",
    "HostChoice": "network-host.png",
    "JoinChoice": "network-join.png",
    "Lobby": "network-lobby.png",
    "ChatScreen": "network-chat.png",
    # dialogs over a screen
    "leave dialog": "leave-dialog.png",
    "hand-over in a battle": "hand-over.png",
    "save dialog": "save-game.png",
    "ending a phase early (confirm)": "end-phase-question.png",
    "loading over a battle (confirm)": "load-over.png",
    "casualty phase": "casualty-phase.png",
    "defensive fire": "defensive-fire.png",
    "map key": "battle-map-key.png",
    "the computer's turn": "computer-turn.png",
    "a hint against the computer": "computer-hint.png",
    "a network battle's menu": "network-battle-menu.png",
    "editor: a section": "editor-section.png",
    "editor: a scenario": "editor-scenario.png",
    "editor: its problems": "editor-problems.png",
}


def screen_classes() -> set[str]:
    """The names of every subclass of `Screen` in `minis.ui` (every module imported first)."""
    import minis.ui
    from minis.ui.app import Screen

    for module in pkgutil.walk_packages(minis.ui.__path__, "minis.ui."):
        importlib.import_module(module.name)
    found: set[str] = set()
    todo = [Screen]
    while todo:
        for sub in todo.pop().__subclasses__():
            found.add(sub.__name__)
            todo.append(sub)
    return found


def taken_pictures() -> set[str]:
    """The pictures the tests take: a quoted `.png` name on a line that also names `shots`."""
    taken: set[str] = set()
    for path in TESTS.glob("test_*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if "shots" in line:
                taken.update(re.findall(r"[\"']([\w-]+\.png)[\"']", line))
    return taken


def test_every_screen_and_dialog_has_a_picture(arcade: Any) -> None:
    screens = screen_classes()
    missing = sorted(screens - set(PICTURE_OF))
    assert not missing, f"screens with no picture: {missing} (add one to PICTURE_OF and a test)"
    gone = sorted(name for name in PICTURE_OF if name[0].isupper() and name not in screens)
    assert not gone, f"PICTURE_OF names screens that no longer exist: {gone}"
    untaken = sorted(set(PICTURE_OF.values()) - taken_pictures())
    assert not untaken, f"pictures no test takes: {untaken}"


def snap(driver: Any, shots: Path, screen: str, picture: str) -> None:
    """The picture of `screen` (a class name): the screen on top must be one."""
    assert type(driver.screen).__name__ == screen, (type(driver.screen).__name__, screen)
    driver.screenshot(shots / picture)


def test_the_set_up_screens(driver: Any, arcade: Any, shots: Path) -> None:
    """Who attacks, both armies ready, the map choice and the leave dialog, reached by keys."""
    menu = driver.screen
    to_entry(driver, arcade, "New Assault battle")
    driver.key(arcade.key.ENTER)
    snap(driver, shots, "AttackerChoice", "attacker-choice.png")
    driver.key(arcade.key.L)  # the Allies attack: the Axis player builds the defence first
    assert driver.screen.detail.text == "Assault: the Axis defend with up to 80 points."
    snap(driver, shots, "HandOver", "hand-over-assault.png")
    driver.key(arcade.key.ESCAPE)
    driver.key(arcade.key.Y)  # leave the set-up: the menu
    key_until(driver, arcade, arcade.key.UP, lambda: menu.menu.index == 0)
    driver.key(arcade.key.ENTER)  # New Standard battle
    for units in (("panzer-iv-ausf-g", "mauser-kar-98k"), ("m4a1-sherman", "m1-garand-rifle")):
        driver.key(arcade.key.SPACE)  # the hand-over
        for card_id in units:
            add_by_keys(driver, arcade, driver.screen.catalogue[card_id].name)
        driver.key(arcade.key.D)
    snap(driver, shots, "BothPlayers", "armies-ready.png")
    driver.key(arcade.key.ESCAPE)
    assert driver.screen.dialog is not None
    snap(driver, shots, "BothPlayers", "leave-dialog.png")
    driver.key(arcade.key.N)
    driver.key(arcade.key.SPACE)
    driver.key(arcade.key.KEY_3)  # a preview of configuration 3
    snap(driver, shots, "MapChoice", "map-choice.png")


def test_the_battle_s_dialogs(
    driver: Any, arcade: Any, shots: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The question before ending a phase early, the save and load dialogs, loading over a battle."""
    from minis.ui.demo import demo_game
    from minis.ui.session import Session

    shots = shots.resolve()  # (`--screenshots docs/screenshots` is relative to the checkout)
    monkeypatch.chdir(tmp_path)  # the dialogs show "saves/", not where the test runs
    saves = tmp_path / "saves"
    saves.mkdir()
    record.save(demo_game(), saves / "evening-battle.minis")
    driver.window.saves = saves
    driver.window.routes.battle(Session(demo_game(stop="deployed"), saves=saves), replace=False)
    driver.frame()
    driver.key(arcade.key.P)  # units could still act: it asks
    assert driver.screen.dialog is not None
    snap(driver, shots, "BattleScreen", "end-phase-question.png")
    driver.key(arcade.key.N)
    driver.key(arcade.key.S, arcade.key.MOD_CTRL)
    snap(driver, shots, "FileDialog", "save-game.png")
    driver.key(arcade.key.ESCAPE)
    driver.key(arcade.key.O, arcade.key.MOD_CTRL)
    dialog = driver.screen
    snap(driver, shots, "FileDialog", "load-game.png")
    driver.click_box(dialog.files.row_box(dialog.files.items.index("evening-battle.minis")))
    assert dialog.dialog is not None and dialog.dialog.title.text == "Load over this battle?"
    snap(driver, shots, "FileDialog", "load-over.png")


def test_the_check_finds_a_screen_without_a_picture(arcade: Any) -> None:
    """The check itself: a new screen class with no entry is found (then forgotten again)."""
    import gc

    from minis.ui.app import Screen

    class Unpictured(Screen):
        pass

    assert "Unpictured" in screen_classes() - set(PICTURE_OF)
    del Unpictured
    gc.collect()
    assert "Unpictured" not in screen_classes()
