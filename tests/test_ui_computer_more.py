"""Playing against the computer, continued (issue 14/13): a save says who the computer was and a load
goes on against it (the Load dialog says so, the secrets still hold before deployment), a scenario
file against the computer through the opponent choice and the scenario chooser, and dice whose result
is not said while they tumble. Window tests go through input events; the computer thinks on the
calling thread and its pauses follow a clock the test steps.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tests.test_ui_computer as computer_tests
from minis import record
from minis.ai.bot import view
from minis.ai.heuristic import HeuristicBot
from minis.army import Army
from minis.base.errors import MinisError
from minis.base.sides import Side
from minis.dice import Dice
from minis.game import Game
from minis.state import Stage
from minis.ui.computer import mark, recorded
from tests.engine_support import board, position, unit
from tests.test_ui_computer import ALLIES, AXIS, Clock, computer_turns, menu

# --- the save's header, without a window -------------------------------------------------------------


def test_a_save_says_which_sides_the_computer_plays_and_how_strongly(tmp_path: Path) -> None:
    game = Game.new(Army("A", Side.AXIS, units=AXIS), Army("B", Side.ALLIES, units=ALLIES), dice=Dice(seed=3))
    mark(game, [Side.ALLIES], "hard")
    record.save(game, tmp_path / "game.minis")
    text = (tmp_path / "game.minis").read_text(encoding="utf-8")
    assert 'computer = ["allies"]\nstrength = "hard"\n' in text
    loaded = record.load(tmp_path / "game.minis")
    assert recorded(loaded.header) == (frozenset({Side.ALLIES}), "hard")
    mark(loaded, Side, "easy")  # watching: both sides
    assert recorded(loaded.header) == (frozenset(Side), "easy")
    old = text.replace('computer = ["allies"]\nstrength = "hard"\n', "")
    (tmp_path / "old.minis").write_text(old, encoding="utf-8")
    assert recorded(record.load(tmp_path / "old.minis").header) is None  # two players, as before


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('computer = ["russia"]', "'computer' must list the sides the computer plays"),
        ('computer = ["axis", "axis"]', "'computer' must list the sides the computer plays"),
        ('computer = "axis"', "'computer' must list the sides the computer plays"),
        ('strength = "brutal"', "'strength' must be one of 'easy', 'normal', 'hard'"),
    ],
)
def test_a_bad_computer_line_is_a_problem_at_its_line(tmp_path: Path, line: str, message: str) -> None:
    game = Game.new(Army("A", Side.AXIS, units=AXIS), Army("B", Side.ALLIES, units=ALLIES), dice=Dice(seed=3))
    text = record.record_text(game).replace("---\n", f"{line}\n---\n", 1)
    path = tmp_path / "bad.minis"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MinisError) as caught:
        record.read_record(path)
    where = text.split("\n").index(line) + 1
    (problem,) = caught.value.problems
    assert str(problem).startswith(f"{path}:{where}:1: {message}"), problem
    assert caught.value.exit_code == 1


# --- through the window --------------------------------------------------------------------------------


#: The window with the computer deciding at once on a stepped clock (the fixture of test_ui_computer).
driver = computer_tests.driver


def to_first_movement(driver: Any, arcade: Any) -> Any:
    """From the battle screen's start to the player's (Axis) first movement decision: hints deploy,
    keys answer the questions, the computer plays its turns."""
    from minis.ui.battle import BattleScreen
    from tests.helpers_window import end_phase

    key = arcade.key
    screen = driver.screen
    assert isinstance(screen, BattleScreen)
    for _ in range(200):
        computer_turns(driver)
        if screen.dialog is not None:
            driver.key(key.W if screen.dialog.title.text == "Choose an end" else key.A)
        elif screen.stage is Stage.DEPLOY:
            driver.key(key.H)
            driver.key(key.SPACE) if screen.controller.deployment.to_deploy() else driver.key(key.R)
        elif screen.stage is Stage.ACT and screen.game.decider() is Side.AXIS and screen.state.turn >= 1:
            return screen
        elif screen.stage is Stage.ACT:
            end_phase(driver)
    pytest.fail("the player's first movement decision never came")


def load_from_menu(driver: Any, arcade: Any, name: str) -> tuple[Any, str]:
    """The main menu's Load game, the save `name` clicked: the battle screen and the save's details."""
    from minis.ui.filedialog import FileDialog

    menu(driver, "Load game")
    dialog = driver.screen
    assert isinstance(dialog, FileDialog)
    names = dialog.files.items
    details = dict(zip(names, dialog.files.details, strict=True))[name]
    driver.click_box(dialog.files.row_box(names.index(name)))
    return driver.screen, details


def test_a_game_saved_with_ctrl_s_loads_again_against_the_computer(
    driver: Any, arcade: Any, tmp_path: Path, shots: Path
) -> None:
    """Fails on /tmp/orig14: the save has no `computer` line and the load is a two-player game."""
    from minis.ui.battle import BattleScreen
    from minis.ui.filedialog import FileDialog

    key = arcade.key
    menu(driver, "Play against the computer")
    driver.key(key.C)  # hard...
    driver.key(key.C)  # ...round to easy
    driver.key(key.Y)
    driver.key(key.Y)  # the computer builds both; the player is the Axis
    driver.key(key.ENTER)
    driver.key(key.R)  # the map: a die
    driver.key(key.ENTER)
    screen = to_first_movement(driver, arcade)
    driver.key(key.S, key.MOD_CTRL)
    dialog = driver.screen
    assert isinstance(dialog, FileDialog)
    driver.key(key.ENTER)
    saved = tmp_path / "saves" / f"turn-{screen.state.turn}.minis"
    assert driver.screen is screen and saved.is_file()
    assert 'computer = ["allies"]\nstrength = "easy"\n' in saved.read_text(encoding="utf-8")
    driver.key(key.ESCAPE)
    driver.key(key.Y)  # leave
    assert type(driver.screen).__name__ == "MainMenu"
    loaded, details = load_from_menu(driver, arcade, saved.name)
    assert "against the computer (easy)" in details, details
    assert isinstance(loaded, BattleScreen) and loaded.computer is not None
    assert loaded.computer.sides == {Side.ALLIES} and loaded.computer.strength == "easy"
    assert loaded.controller.elsewhere == {Side.ALLIES}
    driver.frame()
    # the autosave of the end of deployment says it too, and so would a save of the loaded game
    assert 'computer = ["allies"]' in (tmp_path / "saves" / "autosave.minis").read_text(encoding="utf-8")
    assert recorded(loaded.game.header) == (frozenset({Side.ALLIES}), "easy")
    driver.key(key.ESCAPE)
    driver.key(key.Y)  # leave the loaded battle: the menu
    menu(driver, "Load game")
    driver.frame()
    driver.screenshot(shots / "load-against-computer.png")


def test_a_save_from_before_deployment_loads_with_the_computer_s_army_still_hidden(
    driver: Any, arcade: Any, tmp_path: Path
) -> None:
    """Fails on /tmp/orig14: loaded as two players, the hand-over lets the player deploy the
    computer's army too (its cards listed)."""
    from minis.ui.battle import BattleScreen
    from minis.ui.handover import HandOver

    game = Game.new(Army("A", Side.AXIS, units=AXIS), Army("B", Side.ALLIES, units=ALLIES), dice=Dice(seed=5))
    bots = {side: HeuristicBot(7) for side in Side}
    while not (game.state.stage is Stage.DEPLOY and game.state.deploying is not None):
        side = game.decider()
        assert side is not None
        game.apply(bots[side].choose(view(game, side, 1)))
    first = game.state.deploying
    computer = first.other  # the computer deploys second: its army is not on the map yet
    mark(game, [computer], "normal")
    saves = tmp_path / "saves"
    saves.mkdir()
    record.save(game, saves / "deploying.minis")
    screen, details = load_from_menu(driver, arcade, "deploying.minis")
    assert "against the computer (normal)" in details
    assert isinstance(screen, BattleScreen) and not isinstance(driver.screen, HandOver)
    assert screen.computer is not None and screen.computer.sides == {computer}
    hidden = {u.card.name for u in screen.state.units.values() if u.side is computer} - {
        u.card.name for u in screen.state.units.values() if u.side is first
    }
    assert hidden
    for _ in range(40):  # the player deploys by hints; the computer's army never shows meanwhile
        if screen.state.deploying is not first:
            break
        shown = " ".join([*screen.units_list.items, screen.info.text, *screen.controller.texts.log()])
        assert not any(name in shown for name in hidden), shown
        driver.key(arcade.key.H)
        driver.key(arcade.key.SPACE) if screen.controller.deployment.to_deploy() else driver.key(arcade.key.R)
    computer_turns(driver)  # it deploys by itself: no hand-over, nothing for the player to place
    assert not isinstance(driver.screen, HandOver)
    assert all(u.hex is not None for u in screen.state.units.values() if u.side is computer)


def test_a_scenario_file_against_the_computer_through_the_chooser(
    driver: Any, arcade: Any, shots: Path
) -> None:
    """Fails on /tmp/orig14: the battle row goes Standard, Assault and round again; no scenario."""
    from minis.ui.armybuilder import ArmyBuilder
    from minis.ui.battle import BattleScreen
    from minis.ui.opponent import OpponentChoice
    from minis.ui.scenariochoice import ScenarioDialog

    key = arcade.key
    menu(driver, "Play against the computer")
    choice = driver.screen
    assert isinstance(choice, OpponentChoice)
    driver.key(key.B)  # Assault
    driver.key(key.B)  # a scenario file: the chooser
    chooser: Any = driver.screen
    assert isinstance(chooser, ScenarioDialog) and chooser.title == "Play a scenario against the computer"
    driver.key(key.ESCAPE)  # changed my mind: the row stays as it was
    assert driver.screen is choice and choice.choice.plan is None
    driver.key(key.B)
    chooser = driver.screen
    row = chooser.files.items.index("breakout.toml")
    chooser.files.highlight(row)
    driver.click_box(chooser.files.row_box(row))
    assert driver.screen is choice and choice.choice.plan is not None
    assert choice.battle.label.text == "Battle: Breakout (B)"
    assert "You have up to 70 points." in choice.about.text  # the Axis's limit in Breakout
    driver.frame()
    driver.screenshot(shots / "opponent-scenario.png")
    driver.key(key.ENTER)  # the player builds: the builder has the scenario's limits
    builder = driver.screen
    assert isinstance(builder, ArmyBuilder) and builder.side is Side.AXIS
    assert builder.points_limit == 70
    driver.window.routes.main_menu()  # and again, the computer building both armies
    driver.frame()
    menu(driver, "Play against the computer")
    choice = driver.screen
    driver.key(key.S)  # the Allies
    driver.key(key.B)
    driver.key(key.B)
    chooser = driver.screen
    row = chooser.files.items.index("breakout.toml")
    chooser.files.highlight(row)
    driver.click_box(chooser.files.row_box(row))
    driver.key(key.Y)
    driver.key(key.Y)  # the computer builds both
    driver.key(key.ENTER)
    screen = driver.screen
    assert isinstance(screen, BattleScreen), (screen, getattr(screen, "problem", None))
    game = screen.game
    assert screen.computer is not None and screen.computer.sides == {Side.AXIS}
    assert game.header["scenario_file"] == "breakout" and game.header["computer"] == ["axis"]
    units = game.state.units.values()
    assert "bridge-gun" in game.state.units  # the scenario's preset unit
    axis = [u for u in units if u.side is Side.AXIS and u.id != "bridge-gun"]
    allies = [u for u in units if u.side is Side.ALLIES]
    assert sum(u.card.cost for u in axis) <= 70 and sum(u.card.cost for u in allies) <= 120
    assert game.state.configuration is None and game.state.board is not None  # its own map file
    computer_turns(driver)
    assert screen.game.decider() is not Side.AXIS or screen.game.over


# --- dice that don't spoil themselves ------------------------------------------------------------------

FIELD = board("""
C C C C C C C C
 C C C C C C C C
C C C C C C C C
""")


def duel() -> Game:
    """A PaK 38 with a Sherman in its sights, the Axis to move."""
    units = [
        unit(FIELD, "sherman", "m4a1-sherman", "allies", "A4", "E"),
        unit(FIELD, "pak", "pak-38-anti-tank-gun", "axis", "C8"),
    ]
    return position(FIELD, units, dice=Dice.scripted([]))


def attack(driver: Any, arcade: Any, tmp_path: Path, motion: bool) -> tuple[Any, Clock]:
    """The PaK attacks the Sherman by two clicks, its dice all sixes; the screen right after."""
    from minis.ui.battle import BattleScreen
    from minis.ui.session import Session
    from tests.helpers_window import end_phase

    game = duel()
    screen = BattleScreen(driver.window, Session(game, saves=tmp_path, autosave=False))
    clock = Clock()
    screen.motion.clock = clock
    screen.motion.enabled = motion
    driver.window.open(screen)
    driver.frame()
    for _ in range(4):
        if game.decider() is Side.AXIS and game.state.phase.value == "assault":
            break
        end_phase(driver)
    game.push_dice([6] * 40)
    where = screen.map.hex_centre_on_screen
    driver.click(*where(FIELD.parse("C8")))
    driver.click(*where(FIELD.parse("A4")))
    assert any(e.kind == "attack" for e in screen.session.last_events)
    return screen, clock


def said(screen: Any) -> str:
    screen.look()
    return "\n".join([screen.message.text, screen.last.text, *screen.log.lines])


def test_the_message_and_the_log_wait_for_the_tumbling_dice(
    driver: Any, arcade: Any, tmp_path: Path, shots: Path
) -> None:
    """Fails on /tmp/orig14: the message line says "-> N successes" while the dice still tumble."""
    from minis.ui import motion

    screen, clock = attack(driver, arcade, tmp_path, motion=True)
    assert screen.motion.playing
    text = said(screen)
    assert screen.dice.tumbling is not None
    assert "successes" not in text and "6 6" not in text, text
    assert screen.message.text == "The dice are rolling…"
    driver.screenshot(shots / "dice-held.png")
    clock.now += motion.DICE  # settled: everything says it
    text = said(screen)
    assert screen.dice.tumbling is None and "successes" in screen.message.text and "successes" in text
    screen.toggle_notation()
    assert "6 6" in said(screen)


def test_a_key_skips_the_dice_and_shows_the_result_at_once(driver: Any, arcade: Any, tmp_path: Path) -> None:
    """Fails on /tmp/orig14: the log's notation line shows the dice while they tumble."""
    screen, _ = attack(driver, arcade, tmp_path, motion=True)
    screen.toggle_notation()
    assert "| 6" not in said(screen)  # the record's line with its dice waits too
    driver.key(arcade.key.T)  # any key: the motion ends, the lines come
    assert not screen.motion.playing and "| 6 6" in said(screen)
    driver.window.back()
    screen, _ = attack(driver, arcade, tmp_path, motion=False)  # motion off: nothing waits
    assert not screen.motion.playing and "successes" in screen.message.text and "successes" in said(screen)
