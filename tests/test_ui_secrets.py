"""Secrets at one screen: before both armies are on the map, nothing one player can open in the game
(Load army, Load game, the autosave) shows or names the other player's army.

The window tests run in arcade's headless mode and are driven by input events; the army dialogs look
in ./armies, so each test works in its own folder (`monkeypatch.chdir(tmp_path)`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from minis import record
from minis.army import Army
from minis.base.sides import Side
from minis.dice import Dice
from minis.game import Game
from minis.ui.session import AUTOSAVE, Session

OLD_ALLIED_ARMY = """\
name = "Old Allies"
side = "allies"
scenario = "standard"
units = ["m4a1-sherman"]
"""


@pytest.fixture
def armies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """./armies of a folder of the test's own, with an Allied army saved before this battle."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "armies"
    folder.mkdir()
    (folder / "old-allies.toml").write_text(OLD_ALLIED_ARMY, encoding="utf-8")
    return folder


def add_cards(driver: Any, *card_ids: str) -> None:
    builder = driver.screen
    for card_id in card_ids:
        row = builder.card_row(card_id)
        builder.cards.highlight(row)  # scroll it into view, as the wheel would
        driver.click_box(builder.cards.row_box(row))


def click_hex(driver: Any, label: str) -> None:
    screen = driver.screen
    driver.click(*screen.map.hex_centre_on_screen(screen.state.board.parse(label)))


def set_up_game(*dice: int) -> Game:
    axis = Army("Axis", Side.AXIS, units=("panzer-iv-ausf-g", "mauser-kar-98k"))
    allies = Army("Allies", Side.ALLIES, units=("crusader-ii", "bazooka"))
    return Game.new(axis, allies, configuration=1, dice=Dice.scripted(dice or (2,)))


# --- the army dialogs -------------------------------------------------------------------------------------


def test_the_second_players_army_dialogs_leave_out_the_first_players_file(
    driver: Any, arcade: Any, armies: Path
) -> None:
    from minis.ui.armybuilder import ArmyBuilder
    from minis.ui.filedialog import FileDialog
    from minis.ui.handover import HandOver

    ctrl = arcade.key.MOD_CTRL
    driver.click_box(driver.screen.entry_box("New Standard battle"))
    driver.key(arcade.key.SPACE)
    add_cards(driver, "tiger-i", "mauser-kar-98k")
    driver.key(arcade.key.S, ctrl)  # the Axis player saves the army: the dialog offers axis-army.toml
    assert isinstance(driver.screen, FileDialog)
    driver.key(arcade.key.ENTER)
    saved = armies / "axis-army.toml"
    assert saved.exists() and isinstance(driver.screen, ArmyBuilder)
    driver.key(arcade.key.L, ctrl)  # the Axis player's own dialog still lists it
    assert "axis-army.toml" in driver.screen.files.items
    driver.key(arcade.key.ESCAPE)
    driver.key(arcade.key.D)
    assert isinstance(driver.screen, HandOver) and driver.screen.side is Side.ALLIES
    driver.key(arcade.key.SPACE)
    builder = driver.screen
    assert isinstance(builder, ArmyBuilder) and builder.side is Side.ALLIES
    driver.click_box(builder.load_button.box)
    dialog = driver.screen
    assert isinstance(dialog, FileDialog)
    assert "old-allies.toml" in dialog.files.items  # files from before this battle stay listed
    assert "axis-army.toml" not in dialog.files.items
    dialog.path.set_value("")
    driver.type_text(str(saved))  # typed by name, it is refused without being read
    driver.key(arcade.key.ENTER)
    assert driver.screen is dialog and "Axis player's army for this battle" in dialog.message.text
    assert builder.units == []
    driver.key(arcade.key.ESCAPE)
    driver.key(arcade.key.S, ctrl)  # nor does the Allied player's Save dialog list it
    assert isinstance(driver.screen, FileDialog)
    assert "old-allies.toml" in driver.screen.files.items
    assert "axis-army.toml" not in driver.screen.files.items
    driver.screen.path.set_value("")
    driver.type_text(str(saved))  # and it can't be overwritten
    driver.key(arcade.key.ENTER)
    assert "stays secret" in driver.screen.message.text
    assert 'side = "axis"' in saved.read_text(encoding="utf-8")


# --- the autosave -----------------------------------------------------------------------------------------


def test_no_autosave_until_both_armies_are_deployed(driver: Any, arcade: Any, tmp_path: Path) -> None:
    from minis.ui.battle import BattleScreen
    from minis.ui.filedialog import FileDialog
    from minis.ui.handover import HandOver
    from minis.ui.mapchoice import MapChoice

    driver.window.new_dice = lambda: Dice.scripted([2])  # the coin flip: the Axis win it
    autosave = tmp_path / "saves" / AUTOSAVE
    driver.click_box(driver.screen.entry_box("New Standard battle"))
    driver.key(arcade.key.SPACE)
    add_cards(driver, "panzer-iv-ausf-g", "mauser-kar-98k")
    driver.key(arcade.key.D)
    driver.key(arcade.key.SPACE)
    add_cards(driver, "m4a1-sherman", "bazooka")
    driver.key(arcade.key.D)
    driver.key(arcade.key.SPACE)
    assert isinstance(driver.screen, MapChoice)
    driver.key(arcade.key.KEY_1)
    driver.key(arcade.key.ENTER)  # the map is chosen: the old autosave was written here
    screen = driver.screen
    assert isinstance(screen, BattleScreen) and not autosave.exists()
    driver.key(arcade.key.A)  # the Axis deploy first
    driver.key(arcade.key.W)
    assert isinstance(driver.screen, HandOver) and driver.screen.side is Side.AXIS
    driver.key(arcade.key.SPACE)
    for unit_id, where in (("panzer-iv-ausf-g", "F5"), ("mauser-kar-98k", "D5")):
        screen.controller.select(unit_id)
        click_hex(driver, where)
    driver.key(arcade.key.R)
    assert isinstance(driver.screen, HandOver) and driver.screen.side is Side.ALLIES
    assert not autosave.exists()
    driver.key(arcade.key.SPACE)
    screen.controller.select("m4a1-sherman")
    click_hex(driver, "F13")
    assert not autosave.exists()
    driver.key(arcade.key.O, arcade.key.MOD_CTRL)  # the Allied player's Load game: nothing to reveal
    assert isinstance(driver.screen, FileDialog) and AUTOSAVE not in driver.screen.files.items
    driver.key(arcade.key.ESCAPE)
    assert driver.screen is screen
    driver.key(arcade.key.S, arcade.key.MOD_CTRL)  # nor can a save be made that the other player could load
    assert driver.screen is screen and "once both armies are on the map" in screen.message.text
    assert not list((tmp_path / "saves").glob("*.minis"))
    screen.controller.select("bazooka")
    click_hex(driver, "H14")
    screen.session.game.dice.push([6, 6, 1, 1])  # the turn 1 initiative
    driver.key(arcade.key.R)  # both armies are on the map: from now on the game autosaves
    assert screen.state.turn == 1 and autosave.exists()
    header = record.read_record(autosave).header
    assert header["axis"] == ["panzer-iv-ausf-g", "mauser-kar-98k"]
    assert header["allies"] == ["m4a1-sherman", "bazooka"]


def test_load_game_leaves_out_a_set_up_autosave(driver: Any, tmp_path: Path) -> None:
    """An autosave from before deployment ended (older versions wrote one at the map choice) is not
    offered; one from after deployment, and the player's own saves, are."""
    from minis.ui.filedialog import FileDialog

    saves = tmp_path / "saves"
    saves.mkdir()
    record.save(set_up_game(), saves / AUTOSAVE)
    record.save(set_up_game(), saves / "mine.minis")
    driver.click_box(driver.screen.entry_box("Load game"))
    dialog = driver.screen
    assert isinstance(dialog, FileDialog)
    assert "mine.minis" in dialog.files.items and AUTOSAVE not in dialog.files.items
    record.save(deployed(Session(set_up_game(), saves=saves)).game, saves / AUTOSAVE)
    dialog.show_folder(saves)
    assert AUTOSAVE in dialog.files.items


# --- the session, without a window --------------------------------------------------------------------


def deployed(session: Session) -> Session:
    """Both armies deployed (the Crusader II has Vanguard: it may move before turn 1)."""
    for action in ("first axis", "end west", "deploy panzer-iv-ausf-g F5 face E", "deploy mauser-kar-98k D5"):
        session.apply(action)
    session.apply("ready")
    session.apply("deploy crusader-ii F13 face W")
    session.apply("deploy bazooka H14")
    session.apply("ready")
    return session


def test_the_session_autosaves_when_the_last_army_is_deployed(tmp_path: Path) -> None:
    session = Session(set_up_game(), saves=tmp_path)
    autosave = tmp_path / AUTOSAVE
    assert session.autosave() is None and not autosave.exists()  # the set-up stays secret
    from minis.ui.session import armies_revealed, early_autosave

    deployed(session)
    # the Vanguard move comes before turn 1 and starts no phase: the end of deployment itself saves
    assert session.game.state.turn == 0 and armies_revealed(session.game)
    assert session.autosaves == 1 and autosave.exists()
    assert not early_autosave(autosave)


def test_a_set_up_autosave_is_early_and_other_files_are_not(tmp_path: Path) -> None:
    from minis.ui.session import early_autosave

    early = tmp_path / AUTOSAVE
    record.save(set_up_game(), early)
    assert early_autosave(early)
    named = tmp_path / "setup.minis"
    named.write_bytes(early.read_bytes())
    assert not early_autosave(named)  # a save the players named themselves is theirs to load
    early.write_text("not a record\n", encoding="utf-8")
    assert not early_autosave(early)  # listed: opening it shows its problems
