"""'Play a scenario' from the main menu, driven by input events in a real (headless) window.

A designer picks a scenario file and lands in the same set-up as `minis play --scenario FILE`; a
broken file, or a file that is no scenario at all, shows its problems as FILE:LINE:COL on the chooser,
which stays open for another pick, and Escape leads back to the menu.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from minis.base.errors import MinisError
from minis.base.sides import Side
from minis.engine.scenario import SCENARIOS_DIR, load_scenario

ROOT = Path(__file__).resolve().parent.parent
POSITION = re.compile(r"^(\S+):(\d+):(\d+): ", re.MULTILINE)

#: Four problems at once: no victory, a map number out of range, an unknown key, points that are text.
BROKEN = """kind = "scenario"
title = "Broken"
map = 9
colour = "red"

[axis]
points = "lots"

[allies]
points = 100
"""


def open_chooser(driver: Any, arcade: Any) -> Any:
    """Down to 'Play a scenario' and Enter, as a keyboard player does."""
    from minis.ui.menu import MainMenu
    from minis.ui.scenariochoice import ScenarioDialog

    menu = driver.screen
    assert isinstance(menu, MainMenu)
    for _ in range(menu.menu.items.index("Play a scenario")):
        driver.key(arcade.key.DOWN)
    assert menu.about.text == "A battle from a scenario file: its own armies, map and victory."
    driver.key(arcade.key.ENTER)
    dialog = driver.screen
    assert isinstance(dialog, ScenarioDialog)
    return dialog


def click_file(driver: Any, dialog: Any, name: str) -> None:
    row = dialog.files.items.index(name)
    dialog.files.highlight(row)  # scrolled into view, as the wheel would
    driver.click_box(dialog.files.row_box(row))


def type_path(driver: Any, arcade: Any, dialog: Any, path: Path | str) -> None:
    dialog.path.set_value("")
    driver.type_text(str(path))
    driver.key(arcade.key.ENTER)


def expected_lines(path: Path) -> list[str]:
    with pytest.raises(MinisError) as caught:
        load_scenario(path)
    return [str(problem) for problem in caught.value.problems]


def test_the_entry_sits_after_new_assault_battle(driver: Any) -> None:
    menu = driver.screen
    items = menu.menu.items
    assert items.index("Play a scenario") == items.index("New Assault battle") + 1
    driver.move(*menu.entry_box("Play a scenario").centre)
    driver.frame()
    assert menu.about.text == "A battle from a scenario file: its own armies, map and victory."


def test_the_chooser_lists_the_shipped_scenarios(
    driver: Any, arcade: Any, shots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(SCENARIOS_DIR.resolve().parent)  # as `minis play` started there: the picture's paths
    dialog = open_chooser(driver, arcade)
    assert dialog.folder == SCENARIOS_DIR.resolve()
    assert dialog.heading.text == "scenarios  (.toml files)" and dialog.path.value == "scenarios/"
    for name in ("assault.toml", "breakout.toml", "standard.toml", "maps/"):
        assert name in dialog.files.items
    assert "Esc cancels" in dialog.hint_text
    # the highlighted scenario says what it is about, before it is opened
    dialog.files.highlight(dialog.files.items.index("breakout.toml"))
    driver.frame()
    assert dialog.about.text.startswith("Breakout\n")
    assert "Axis: 70 points · Allies: 120 points" in dialog.about.text
    driver.screenshot(shots / "scenario-choice.png")


def test_paths_inside_the_current_folder_are_shown_from_it_and_typed_back(
    driver: Any, arcade: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dialog writes paths as a shell would (shorter, and no folder of the machine in a picture of
    it), and a path typed that way opens the same file."""
    from minis.ui.handover import HandOver

    mine = tmp_path / "designs"
    mine.mkdir()
    (mine / "maps").mkdir()
    for name in ("breakout.toml", "maps/river-line.toml"):
        (mine / name).write_bytes((SCENARIOS_DIR / name).read_bytes())
    monkeypatch.chdir(tmp_path)
    driver.window.routes.choose_scenario(mine)
    dialog = driver.screen
    assert dialog.heading.text == "designs  (.toml files)" and dialog.path.value == "designs/"
    assert dialog.files.items == ["..", "maps/", "breakout.toml"]
    dialog.files.highlight(2)
    driver.frame()
    assert dialog.about.text.startswith("Breakout\n")
    driver.key(arcade.key.UP, arcade.key.MOD_ALT)  # up a folder: the current one
    assert dialog.heading.text == ".  (.toml files)" and "designs/" in dialog.files.items
    type_path(driver, arcade, dialog, "designs/breakout.toml")
    assert isinstance(driver.screen, HandOver) and driver.screen.side is Side.AXIS


def test_picking_breakout_leads_to_its_army_building(driver: Any, arcade: Any) -> None:
    from minis.ui.armybuilder import ArmyBuilder
    from minis.ui.handover import HandOver
    from minis.ui.menu import MainMenu

    dialog = open_chooser(driver, arcade)
    click_file(driver, dialog, "breakout.toml")
    hand_over = driver.screen
    assert isinstance(hand_over, HandOver) and hand_over.side is Side.AXIS
    # the dialog is gone: the set-up sits right above the menu, as with `minis play --scenario`
    assert [type(s) for s in driver.window.stack] == [MainMenu, HandOver]
    driver.key(arcade.key.SPACE)
    builder = driver.screen
    assert isinstance(builder, ArmyBuilder) and builder.side is Side.AXIS
    assert builder.limit == 70  # Breakout's Axis rearguard, not the rulebook's 100
    assert builder.army_title.text == "Breakout (up to 70 points)"
    assert builder.totals.text.startswith("0 / 70 points")
    # the army is checked against Breakout's limits: two Tigers are over its 70 points
    for _ in range(2):
        row = builder.card_row("tiger-i")
        builder.cards.highlight(row)
        driver.click_box(builder.cards.row_box(row))
    assert builder.units == ["tiger-i", "tiger-i"]
    assert "112 points, 42 over the 70-point limit" in builder.problems.text
    assert not builder.done_button.enabled
    # Escape (after asking) leads back to the main menu
    driver.key(arcade.key.ESCAPE)
    assert builder.dialog is not None
    driver.key(arcade.key.Y)
    assert isinstance(driver.screen, MainMenu) and len(driver.window.stack) == 1


def test_a_broken_scenario_shows_its_problems_and_the_chooser_stays(
    driver: Any, arcade: Any, tmp_path: Path
) -> None:
    from minis.ui.handover import HandOver

    broken = tmp_path / "broken.toml"
    broken.write_text(BROKEN, encoding="utf-8")
    dialog = open_chooser(driver, arcade)
    type_path(driver, arcade, dialog, tmp_path)  # another folder, as a player may
    assert dialog.folder == tmp_path and "broken.toml" in dialog.files.items
    click_file(driver, dialog, "broken.toml")
    assert driver.screen is dialog and not driver.closed
    text = dialog.message.text
    lines = expected_lines(broken)
    assert len(lines) == 4
    for line in lines:
        assert line in text
    positions = POSITION.findall(text)
    assert (str(broken), "3", "1") in positions  # map = 9
    assert (str(broken), "7", "1") in positions  # points = "lots"
    assert all(file == str(broken) for file, _, _ in positions)
    assert "not a scenario" not in text  # it is one, just a broken one
    assert dialog.about.text == ""  # nothing to say about a file that does not read as a scenario
    # the problems are on screen: the picture differs from the chooser without them
    shown = driver.image()
    dialog.message.text = ""
    assert driver.image().tobytes() != shown.tobytes()
    # another pick works: a good file starts its battle
    type_path(driver, arcade, dialog, SCENARIOS_DIR / "breakout.toml")
    assert isinstance(driver.screen, HandOver)


def test_a_scenario_whose_map_file_is_broken_names_the_map_file(
    driver: Any, arcade: Any, tmp_path: Path
) -> None:
    scenario = tmp_path / "mine.toml"
    scenario.write_text(
        (SCENARIOS_DIR / "breakout.toml")
        .read_text(encoding="utf-8")
        .replace("maps/river-line.toml", "missing-map.toml"),
        encoding="utf-8",
    )
    dialog = open_chooser(driver, arcade)
    type_path(driver, arcade, dialog, scenario)
    assert driver.screen is dialog
    for line in expected_lines(scenario):
        assert line in dialog.message.text
    assert POSITION.search(dialog.message.text)


@pytest.mark.parametrize(
    ("path", "says"),
    [
        (ROOT / "armies" / "sample-axis.toml", "missing 'kind'"),
        (SCENARIOS_DIR / "maps" / "river-line.toml", "this is a map file, not a scenario"),
    ],
)
def test_a_file_that_is_no_scenario_says_so(driver: Any, arcade: Any, path: Path, says: str) -> None:
    dialog = open_chooser(driver, arcade)
    type_path(driver, arcade, dialog, path)
    assert driver.screen is dialog
    text = dialog.message.text
    assert text.startswith(f'{path.name} is not a scenario file (a scenario says kind = "scenario"')
    assert says in text
    assert POSITION.search(text) and str(path) in text


def test_unreadable_files_are_reported_not_raised(driver: Any, arcade: Any, tmp_path: Path) -> None:
    syntax = tmp_path / "syntax.toml"
    syntax.write_text('kind = "scenario"\ntitle = \n', encoding="utf-8")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00kind")
    dialog = open_chooser(driver, arcade)
    type_path(driver, arcade, dialog, syntax)
    assert driver.screen is dialog
    assert f"{syntax}:2:" in dialog.message.text and "TOML syntax" in dialog.message.text
    assert "not a scenario" not in dialog.message.text  # it may be one: the syntax is what's wrong
    type_path(driver, arcade, dialog, binary)
    assert driver.screen is dialog and str(binary) in dialog.message.text
    type_path(driver, arcade, dialog, tmp_path / "nowhere.toml")
    assert driver.screen is dialog and f"{tmp_path / 'nowhere.toml'}:0:0: " in dialog.message.text


def test_escape_goes_back_to_the_menu(driver: Any, arcade: Any) -> None:
    from minis.ui.menu import MainMenu

    dialog = open_chooser(driver, arcade)
    type_path(driver, arcade, dialog, SCENARIOS_DIR / "maps" / "river-line.toml")  # a refusal first
    assert driver.screen is dialog
    driver.key(arcade.key.ESCAPE)
    assert isinstance(driver.screen, MainMenu) and len(driver.window.stack) == 1
    assert not driver.closed


def test_an_attack_scenario_asks_who_attacks_first(driver: Any, arcade: Any) -> None:
    """assault.toml leaves the attacking side to the players: the same question as on the command line."""
    from minis.ui.newbattle import AttackerChoice

    assert load_scenario(SCENARIOS_DIR / "assault.toml").attacker_side is None  # side = "either"
    dialog = open_chooser(driver, arcade)
    click_file(driver, dialog, "assault.toml")
    assert isinstance(driver.screen, AttackerChoice)
