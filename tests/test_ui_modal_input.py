"""A click or a key given to a dialog never reaches the screen behind it (issue 33).

The window's `InputGate` keeps each press with what was in front when it began: its release, its drags
and a key's text (pyglet sends it right after the key) go nowhere else, and the second click of a
double-click whose first click opened or closed something is dropped. Checked here through the
window's input events: a double-click on Open in the army file dialog adds no card to the builder
behind it; the N that answers a question is not typed into the search box or the path field behind
it; a double-click on the hand-over's button does not click the battle map under it; a press on the
map released after a dialog opened clicks no hex, and the dialog's own button still works.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from minis import record
from minis.army import Army, ArmyScenario
from minis.base.sides import Side
from minis.dice import Dice
from minis.game import Game
from tests.helpers_window import deliver


def axis_builder(driver: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    from minis.ui.armybuilder import ArmyBuilder

    (tmp_path / "armies").mkdir()
    army = (Path(__file__).parent.parent / "armies" / "sample-axis.toml").read_text(encoding="utf-8")
    (tmp_path / "armies" / "mine.toml").write_text(army, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    builder = ArmyBuilder(driver.window, Side.AXIS, ArmyScenario.STANDARD, lambda army: None)
    driver.window.open(builder)
    driver.frame()
    return builder


def press_key(driver: Any, symbol: int, text: str, modifiers: int = 0) -> None:
    """A key as pyglet sends it: the press, its text at once, then the release."""
    deliver(driver.window, "on_key_press", symbol, modifiers)
    deliver(driver.window, "on_text", text)
    deliver(driver.window, "on_key_release", symbol, modifiers)
    driver.frame()


def test_a_double_click_on_open_adds_no_card_to_the_builder_behind(
    driver: Any, arcade: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from minis.ui.demo import AXIS
    from minis.ui.filedialog import FileDialog

    builder = axis_builder(driver, tmp_path, monkeypatch)
    loaded = list(AXIS)  # the sample Axis army the dialog loads
    for _ in range(2):
        driver.click_box(builder.load_button.box)
        dialog = driver.screen
        assert isinstance(dialog, FileDialog)
        driver.type_text("armies/mine.toml")
        x, y = dialog.ok.box.centre
        row = builder.cards.row_at(x, y)  # the card under "Open" in the builder behind
        assert row is not None and builder.shown[row].name == "Azad Hind Fauj Infantryman"
        driver.double_click(x, y)
        assert driver.screen is builder and builder.units == loaded
    driver.click_box(builder.load_button.box)  # Enter in the path field: its text goes nowhere
    driver.type_text("armies/mine.toml")
    press_key(driver, arcade.key.ENTER, "\r")
    assert driver.screen is builder and builder.units == loaded
    driver.click(x, y)  # a click of its own, later, is the builder's
    assert builder.units == [*loaded, "azad-hind-fauj-infantryman"]


def test_the_key_that_answers_a_question_is_not_typed_behind_it(
    driver: Any, arcade: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    builder = axis_builder(driver, tmp_path, monkeypatch)
    driver.key(arcade.key.F, arcade.key.MOD_CTRL)  # the search box has the keys
    driver.type_text("tig")
    driver.key(arcade.key.ESCAPE)  # the first Escape empties the box (the search box's own)
    assert builder.dialog is None and builder.search.value == ""
    driver.key(arcade.key.ESCAPE)  # on an empty box it asks to leave
    assert builder.dialog is not None and builder.dialog.title.text == "Leave this battle?"
    press_key(driver, arcade.key.N, "n")  # Stay
    assert builder.dialog is None and builder.search.value == ""
    driver.type_text("tiger")  # typed later: the player's
    assert builder.search.value == "tiger"


def test_the_no_to_load_over_a_battle_is_not_typed_into_the_path(
    driver: Any, arcade: Any, tmp_path: Path
) -> None:
    from minis.ui.battle import BattleScreen
    from minis.ui.demo import demo_game
    from minis.ui.filedialog import FileDialog
    from minis.ui.session import Session

    saves = tmp_path / "saves"
    saves.mkdir()
    record.save(demo_game(), saves / "later.minis")
    screen = BattleScreen(driver.window, Session(demo_game(stop="deployed"), saves=saves))
    driver.window.open(screen)
    driver.frame()
    driver.key(arcade.key.O, arcade.key.MOD_CTRL)
    dialog = driver.screen
    assert isinstance(dialog, FileDialog)
    driver.click_box(dialog.files.row_box(dialog.files.items.index("later.minis")))
    assert dialog.dialog is not None and dialog.dialog.title.text == "Load over this battle?"
    before = dialog.path.value
    press_key(driver, arcade.key.N, "n")
    assert dialog.dialog is None and dialog.path.value == before


def deploying(driver: Any, tmp_path: Path) -> Any:
    """A battle in deployment, the hand-over to the Axis player in front of it."""
    from minis.ui.battle import BattleScreen
    from minis.ui.handover import HandOver
    from minis.ui.session import Session

    axis = Army("Axis", Side.AXIS, units=("panzer-iv-ausf-g", "mauser-kar-98k"))
    allies = Army("Allies", Side.ALLIES, units=("m4a1-sherman", "bazooka"))
    session = Session(Game.new(axis, allies, configuration=2, dice=Dice.scripted([5])), saves=tmp_path)
    for action in (
        "first allies",
        "end east",
        "deploy m4a1-sherman F14 face W",
        "deploy bazooka G14",
        "ready",
    ):
        session.apply(action)
    screen = BattleScreen(driver.window, session)
    driver.window.open(screen)
    driver.frame()
    assert isinstance(driver.screen, HandOver)
    return screen


def test_a_double_click_on_the_hand_over_does_not_click_the_map_behind(
    driver: Any, arcade: Any, tmp_path: Path
) -> None:
    screen = deploying(driver, tmp_path)
    hand_over = driver.screen
    x, y = hand_over.go.box.centre
    under = screen.map.hex_at(x, y)
    assert under is not None  # the button sits over the battle map
    driver.double_click(x, y)
    assert driver.screen is screen
    assert screen.state.units["panzer-iv-ausf-g"].hex is None and screen.controller.message == ""
    driver.click(x, y)  # a click of its own reaches the map
    assert screen.state.units["panzer-iv-ausf-g"].hex is not None or screen.controller.message


def test_a_press_released_after_a_dialog_opened_clicks_nothing(
    driver: Any, arcade: Any, tmp_path: Path
) -> None:
    from minis.ui.confirm import leave_dialog

    screen = deploying(driver, tmp_path)
    driver.key(arcade.key.SPACE)  # the Axis player is seated
    assert driver.screen is screen
    x, y = screen.map.hex_centre_on_screen(screen.state.board.parse("F3"))
    deliver(driver.window, "on_mouse_motion", int(x), int(y), 0, 0)
    deliver(driver.window, "on_mouse_press", int(x), int(y), arcade.MOUSE_BUTTON_LEFT, 0)
    screen.show_dialog(leave_dialog(screen, "A question that came up meanwhile."))
    deliver(driver.window, "on_mouse_release", int(x), int(y), arcade.MOUSE_BUTTON_LEFT, 0)
    driver.frame()
    assert screen.dialog is not None and screen.state.units["panzer-iv-ausf-g"].hex is None
    driver.click_box(screen.dialog.buttons[1].box)  # Stay: the dialog's own click works at once
    assert screen.dialog is None and screen.state.units["panzer-iv-ausf-g"].hex is None


def test_escape_on_the_initiative_question_asks_to_leave_and_stay_brings_it_back(
    driver: Any, arcade: Any, tmp_path: Path, shots: Path
) -> None:
    """The initiative must be answered (nothing can be put off): Escape does what it does everywhere in
    a battle, it asks "Leave this battle?"; Stay brings the question back, Leave goes to the menu."""
    from minis.state import Stage
    from minis.ui.battle import BattleScreen
    from minis.ui.menu import MainMenu
    from minis.ui.session import Session

    axis = Army("Axis", Side.AXIS, units=("mauser-kar-98k",))
    allies = Army("Allies", Side.ALLIES, units=("m1-garand-rifle",))
    game = Game.new(axis, allies, configuration=2, dice=Dice.scripted([5, 1, 2, 6, 6]))
    for action in ("first allies", "end east", "deploy m1-garand-rifle G14", "ready"):
        game.apply(action)
    game.apply("deploy mauser-kar-98k G2")
    game.apply("ready")  # the initiative dice: Axis 1 + 2, Allies 6 + 6
    assert game.state.stage is Stage.CHOOSE_FIRST and game.state.turn == 1
    screen = BattleScreen(driver.window, Session(game, saves=tmp_path))
    driver.window.open(screen)
    driver.frame()
    assert screen.dialog is not None and screen.dialog.title.text == "Turn 1: initiative"
    assert "Esc: leave" in screen.hint_text
    driver.key(arcade.key.ESCAPE)
    assert screen.dialog is not None and screen.dialog.title.text == "Leave this battle?"
    driver.screenshot(shots / "initiative-escape.png")
    driver.key(arcade.key.N)  # Stay
    assert screen.dialog is not None and screen.dialog.title.text == "Turn 1: initiative"
    driver.key(arcade.key.A)  # answered as before
    assert screen.state.first is Side.AXIS and screen.state.stage is not Stage.CHOOSE_FIRST
    driver.window.open(BattleScreen(driver.window, Session(game.copy(), saves=tmp_path)))
    driver.frame()
    driver.key(arcade.key.ESCAPE)
    driver.key(arcade.key.Y)  # Leave
    assert isinstance(driver.screen, MainMenu)
