"""Dialogs and questions, driven through input events (issue 13): ending a phase early asks once, loading
over a battle asks, the Load dialog says what each save is, a dialog's opening key is not typed into it,
the path field of the file dialog, the Assault defender's half, a fixed-map scenario's set-up, the army
builder's scroll bar and hovered unit, and text that fits the leave dialog and the builder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from minis import record
from minis.army import Army, ArmyScenario
from minis.base.sides import Side
from minis.dice import Dice
from minis.game import Game
from minis.state import BattleKind, Stage
from tests.helpers_window import deliver, pixel, rim_point


def battle(driver: Any, game: Game, saves: Path) -> Any:
    from minis.ui.battle import BattleScreen
    from minis.ui.session import Session

    screen = BattleScreen(driver.window, Session(game, saves=saves))
    driver.window.open(screen)
    driver.frame()
    return screen


def demo(driver: Any, tmp_path: Path) -> Any:
    from minis.ui.demo import demo_game

    return battle(driver, demo_game(stop="deployed"), tmp_path)


def test_ending_a_phase_with_units_that_could_act_asks_once_a_phase(
    driver: Any, arcade: Any, tmp_path: Path
) -> None:
    screen = demo(driver, tmp_path)
    state = screen.state
    assert state.stage is Stage.ACT and state.active is Side.AXIS
    able = [u for u in screen.game.ready_units() if screen.game.legal_actions(u)]
    driver.key(arcade.key.P)
    assert screen.dialog is not None and screen.dialog.title.text == "End the movement phase?"
    assert screen.dialog.body.text.startswith(f"{len(able)} units could still act: ")
    driver.key(arcade.key.N)  # keep playing: nothing happened
    assert screen.dialog is None and screen.state.active is Side.AXIS and screen.state.stage is Stage.ACT
    driver.key(arcade.key.P)  # asked once this phase: now it ends
    assert screen.dialog is None and screen.state.active is Side.ALLIES
    driver.key(arcade.key.P)  # the Allies' phase is another phase: asked again
    assert screen.dialog is not None and screen.dialog.title.text == "End the movement phase?"
    driver.key(arcade.key.Y)
    assert screen.dialog is None and (screen.state.phase.value, screen.state.active) != (
        "movement",
        Side.ALLIES,
    )


def test_loading_over_a_battle_asks_and_the_load_dialog_says_what_each_save_is(
    driver: Any, arcade: Any, tmp_path: Path
) -> None:
    from minis.ui.battle import BattleScreen
    from minis.ui.demo import demo_game
    from minis.ui.filedialog import FileDialog

    saves = tmp_path / "saves"
    saves.mkdir()
    record.save(demo_game(), saves / "later.minis")  # turn 2, the assault phase
    (saves / "broken.minis").write_text("not a record\n", encoding="utf-8")
    screen = demo(driver, saves)
    driver.key(arcade.key.O, arcade.key.MOD_CTRL)
    dialog = driver.screen
    assert isinstance(dialog, FileDialog)
    names = dialog.files.items
    details = dict(zip(names, dialog.files.details, strict=True))
    assert details["later.minis"].startswith("turn 2, assault · Demo Axis v Demo Allies · ")
    assert details["broken.minis"].startswith("cannot be read · ")
    driver.click_box(dialog.files.row_box(names.index("later.minis")))
    assert driver.screen is dialog and dialog.dialog is not None  # asks first
    assert dialog.dialog.title.text == "Load over this battle?"
    driver.key(arcade.key.N)
    assert driver.screen is dialog and dialog.dialog is None
    driver.click_box(dialog.files.row_box(names.index("later.minis")))
    driver.key(arcade.key.Y)
    loaded = driver.screen
    assert isinstance(loaded, BattleScreen) and loaded is not screen and loaded.state.turn == 2
    assert screen not in driver.window.stack  # it took the battle's place


def test_the_key_that_opens_a_dialog_is_not_typed_into_it(driver: Any, arcade: Any, tmp_path: Path) -> None:
    """pyglet sends a key's text right after the key: the S that opens the Save dialog must not
    become part of the file name (`battle-turn-2.miniss.minis`)."""
    from minis.ui.filedialog import FileDialog

    demo(driver, tmp_path)
    deliver(driver.window, "on_key_press", arcade.key.S, arcade.key.MOD_CTRL)
    deliver(driver.window, "on_text", "s")
    driver.frame()
    dialog = driver.screen
    assert isinstance(dialog, FileDialog) and dialog.path.value.endswith("turn-1.minis")
    driver.type_text("x")  # typed later: it is the player's
    assert dialog.path.value == "x"


def test_the_path_field_takes_a_new_path_and_backspace_edits_it(
    driver: Any, arcade: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from minis.ui.armybuilder import ArmyBuilder
    from minis.ui.filedialog import FileDialog

    (tmp_path / "armies").mkdir()
    army = (Path(__file__).parent.parent / "armies" / "sample-allies.toml").read_text(encoding="utf-8")
    (tmp_path / "armies" / "mine.toml").write_text(army, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    builder = ArmyBuilder(driver.window, Side.ALLIES, ArmyScenario.STANDARD, lambda army: None)
    driver.window.open(builder)
    driver.frame()
    driver.key(arcade.key.L, arcade.key.MOD_CTRL)
    dialog = driver.screen
    assert isinstance(dialog, FileDialog) and dialog.path.value == "armies/"
    driver.type_text("mine")  # the suggestion goes: nothing is appended to it
    assert dialog.path.value == "mine"
    driver.key(arcade.key.BACKSPACE)  # deletes a letter, never climbs a folder
    assert dialog.path.value == "min" and dialog.folder == tmp_path / "armies"
    driver.type_text("e.toml")
    driver.key(arcade.key.ENTER)  # a bare name: in the folder shown
    assert driver.screen is builder and builder.message.text.startswith("Loaded mine.toml")
    driver.key(arcade.key.L, arcade.key.MOD_CTRL)
    dialog = driver.screen
    driver.key(arcade.key.UP, arcade.key.MOD_ALT)  # Alt+Up climbs
    assert dialog.folder == tmp_path and dialog.path.value == "./"
    driver.type_text("/nowhere/x.toml")
    assert dialog.path.value == "/nowhere/x.toml"


def _colour_at_choose_end(driver: Any, game: Game, tmp_path: Path, label: str) -> tuple[int, int, int]:
    """The map's colour at hex `label` while `game`'s end is being chosen (the question put aside)."""
    while game.state.stage is not Stage.CHOOSE_END:
        game.apply(game.legal_actions()[0])
    screen = battle(driver, game, tmp_path)
    screen.show_dialog(None)  # the map behind the question of the end is what is checked
    driver.frame()
    return pixel(driver.image(), *rim_point(screen.map, game.state.board.parse(label)))


def test_the_assault_defender_sees_its_half_tinted_while_choosing_its_end(
    driver: Any, arcade: Any, tmp_path: Path
) -> None:
    axis = Army("A", Side.AXIS, ArmyScenario.ASSAULT_ATTACKER, units=("panzer-iv-ausf-g",))
    allies = Army("B", Side.ALLIES, ArmyScenario.ASSAULT_DEFENDER, units=("m4a1-sherman",))
    assault = Game.new(
        axis, allies, scenario=BattleKind.ASSAULT, attacker=Side.AXIS, configuration=1, dice=Dice(seed=3)
    )
    board = assault.state.board
    assert board is not None
    inside = board.parse("E8")  # in the west half, deeper than a five-hex zone
    assert inside in board.half_of_map("west") and inside not in board.deployment_zone("west")
    tinted = _colour_at_choose_end(driver, assault, tmp_path, "E8")
    standard = Game.new(
        Army("A", Side.AXIS, units=("panzer-iv-ausf-g",)),
        Army("B", Side.ALLIES, units=("m4a1-sherman",)),
        configuration=1,
        dice=Dice(seed=3),
    )
    plain = _colour_at_choose_end(driver, standard, tmp_path, "E8")  # outside both five-hex zones
    # the west tint is purple (140, 90, 240): the hex turned bluer and less green than its terrain
    assert tinted[2] - plain[2] > 20 and plain[1] - tinted[1] > 20, (tinted, plain)


def test_a_fixed_map_scenario_does_not_offer_to_choose_the_map(driver: Any, arcade: Any) -> None:
    from minis.ui.newbattle import BothPlayers

    fixed = BothPlayers(driver.window, lambda: None, map_=1)
    chosen = BothPlayers(driver.window, lambda: None, map_="choose")
    free = BothPlayers(driver.window, lambda: None)
    assert fixed.go.text == "Start the battle" and "the scenario sets the battle map" in fixed.more.text
    assert chosen.go.text == "Choose the battle map" and free.go.text == "Choose the battle map"


def test_the_builder_scrolls_by_its_bar_and_shows_a_hovered_unit_s_card(driver: Any, arcade: Any) -> None:
    from minis.ui.armybuilder import ArmyBuilder

    builder = ArmyBuilder(driver.window, Side.AXIS, ArmyScenario.STANDARD, lambda army: None)
    driver.window.open(builder)
    driver.frame()
    bar = builder.card_bar
    assert bar.needed and bar.box.width > 0 and builder.cards.top_row == 0
    driver.click(bar.box.centre[0], bar.box.bottom + 2)  # below the thumb: a page down
    last = len(builder.cards.items) - builder.cards.visible_rows
    assert builder.cards.top_row == min(builder.cards.visible_rows, last) > 0
    thumb = bar.thumb()
    driver.drag(thumb.centre, (thumb.centre[0], bar.box.top + 40))  # the thumb dragged to the top
    assert builder.cards.top_row == 0
    # hovering a unit of the army shows its card, not the list's highlighted one
    builder.add("panzer-iv-ausf-g")
    builder.cards.highlight(builder.card_row("mauser-kar-98k"))
    driver.frame()
    assert builder.panel.card is not None and builder.panel.card.id == "mauser-kar-98k"
    row = builder.army_list.row_box(builder.army_row("panzer-iv-ausf-g"))
    driver.move(*row.centre)
    driver.frame()
    assert builder.panel.card is not None and builder.panel.card.id == "panzer-iv-ausf-g"


def test_the_builder_heading_problems_and_leave_dialog_fit_their_boxes(driver: Any, arcade: Any) -> None:
    from minis.ui.armybuilder import ArmyBuilder
    from minis.ui.confirm import leave_dialog

    driver.window.stack.clear()
    builder = ArmyBuilder(
        driver.window, Side.ALLIES, ArmyScenario.ASSAULT_DEFENDER, lambda army: None, note="assault-defender"
    )
    driver.window.open(builder)
    builder.check = lambda army: [f"problem number {i} of this army" for i in range(20)]
    builder.changed()
    driver.frame()
    assert builder.army_title.text_width <= builder.army_title.box.width
    assert builder.problems.height_for(builder.problems.box.width) <= builder.problems.box.height
    assert builder.problems.text.splitlines()[-1].startswith("… and ")
    long_path = "/home/somebody/.local/share/minis/saves/" + "a-very-long-folder-name/" * 4 + "autosave.minis"
    dialog = leave_dialog(builder, f"The game is saved automatically at every phase ({long_path}).")
    builder.show_dialog(dialog)
    driver.frame()
    body = dialog.body
    assert body.height_for(body.box.width) and body._text.content_width <= body.box.width
