"""A whole Standard battle played through the window's input events, in arcade's headless mode.

Both players build armies in secret (the Axis player by clicking cards, the Allied player by loading
an army file through the file dialog), hand the screen over, choose the map, flip the coin, pick ends
and deploy (with a refused hex and its reason); then turns of movement (with a movement roll, an undo,
a defensive-fire prompt answered by the other player), attacks with their odds shown, the casualty
phase, a save and a load, and on to the victory screen at the end of turn 7. The dice are scripted
(`minis.dice.Dice.scripted`): the test pushes exactly the dice each step consumes, so every result is
known, and a step that consumed more or fewer dice than planned shows up as a failure.

Screenshots of the main moments go to the `shots` folder (`make screenshots`: docs/screenshots/).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from minis.base.sides import Side
from minis.dice import Dice
from tests.helpers_window import end_phase

ALLIED_ARMY = """\
name = "Test Allies"
side = "allies"
scenario = "standard"
units = ["m4a1-sherman", "m1-garand-rifle", "bazooka"]
"""


def click_hex(driver: Any, label: str) -> None:
    screen = driver.screen
    driver.click(*screen.map.hex_centre_on_screen(screen.state.board.parse(label)))


def hover_hex(driver: Any, label: str) -> None:
    screen = driver.screen
    driver.move(*screen.map.hex_centre_on_screen(screen.state.board.parse(label)))
    driver.frame()


def unit_at(screen: Any, unit_id: str) -> str | None:
    unit = screen.state.units[unit_id]
    return screen.state.board.label(unit.hex) if unit.hex is not None else None


def feed(screen: Any, *dice: int) -> None:
    """Scripted dice for the next step (the game's dice source is a script)."""
    screen.session.game.dice.push(dice)


def button(screen: Any, prefix: str) -> Any:
    buttons = [*screen.choices, *(screen.dialog.buttons if screen.dialog else [])]
    found = [b for b in buttons if b.text.startswith(prefix)]
    assert found, f"no button '{prefix}' in {[b.text for b in screen.choices]}"
    return found[0]


def shot(driver: Any, shots: Path, name: str) -> None:
    """A picture for the docs, into the test's `shots` folder."""
    driver.screenshot(shots / name)


def build_axis_army_by_clicking(driver: Any, arcade: Any, shots: Path) -> None:
    from minis.ui.armybuilder import ArmyBuilder

    builder = driver.screen
    assert isinstance(builder, ArmyBuilder) and builder.side is Side.AXIS
    assert "Allies player turns away" in builder.secret.text
    # the type filter: vehicles only, then all again (right-click steps back)
    driver.click_box(builder.type_filter.box)
    driver.click_box(builder.type_filter.box)
    assert all(card.is_vehicle for card in builder.shown)
    driver.click_box(builder.type_filter.box, button=arcade.MOUSE_BUTTON_RIGHT)
    driver.click_box(builder.type_filter.box, button=arcade.MOUSE_BUTTON_RIGHT)
    assert builder.type_filter.value is None
    for card_id in ("panzer-iv-ausf-g", "pak-38-anti-tank-gun", "mauser-kar-98k", "tiger-i"):
        row = builder.card_row(card_id)
        builder.cards.highlight(row)  # scroll it into view, as the wheel would
        driver.move(*builder.cards.row_box(row).centre)
        driver.frame()
        assert builder.panel.name.text == builder.catalogue[card_id].name  # the card panel follows the mouse
        driver.click_box(builder.cards.row_box(row))
    # 23 + 8 + 3 + 56 = 90 points: legal; a second Tiger breaks the limit, and taking it out mends it
    assert builder.totals.text.startswith("90 / 100 points · 4 / 15 units")
    row = builder.card_row("tiger-i")
    driver.click_box(builder.cards.row_box(row))
    assert "146 points, 46 over the 100-point limit" in builder.problems.text
    assert not builder.done_button.enabled
    for _ in range(2):
        driver.click_box(builder.army_list.row_box(builder.army_row("tiger-i")))
    assert builder.units == ["panzer-iv-ausf-g", "pak-38-anti-tank-gun", "mauser-kar-98k"]
    assert builder.problems.text == "The army is legal."
    shot(driver, shots, "army-builder.png")
    driver.click_box(builder.done_button.box)


def load_allied_army_from_a_file(driver: Any, arcade: Any, tmp_path: Path) -> None:
    from minis.ui.armybuilder import ArmyBuilder
    from minis.ui.filedialog import FileDialog

    builder = driver.screen
    assert isinstance(builder, ArmyBuilder) and builder.side is Side.ALLIES
    assert builder.units == []  # nothing of the Axis army shows
    army_file = tmp_path / "allies.toml"
    army_file.write_text(ALLIED_ARMY, encoding="utf-8")
    wrong = tmp_path / "axis.toml"
    wrong.write_text(ALLIED_ARMY.replace("allies", "axis"), encoding="utf-8")
    driver.click_box(builder.load_button.box)
    dialog = driver.screen
    assert isinstance(dialog, FileDialog)
    dialog.path.set_value("")
    driver.type_text(str(wrong))
    driver.key(arcade.key.ENTER)
    assert driver.screen is dialog and "is an Axis army" in dialog.message.text
    dialog.path.set_value("")
    driver.type_text(str(army_file))
    driver.key(arcade.key.ENTER)
    assert driver.screen is builder
    assert sorted(builder.units) == ["bazooka", "m1-garand-rifle", "m4a1-sherman"]
    assert builder.totals.text.startswith("29 / 100 points")
    driver.key(arcade.key.D)


def test_a_whole_standard_battle(driver: Any, arcade: Any, tmp_path: Path, shots: Path) -> None:
    from minis.ui.armybuilder import ArmyBuilder
    from minis.ui.battle import BattleScreen
    from minis.ui.handover import HandOver
    from minis.ui.mapchoice import MapChoice
    from minis.ui.menu import MainMenu
    from minis.ui.victory import VictoryScreen

    window = driver.window
    window.new_dice = lambda: Dice.scripted([2])  # the coin flip: 2, the Axis win it
    # --- armies in secret ---------------------------------------------------------------------------
    driver.click_box(driver.screen.entry_box("New Standard battle"))
    assert isinstance(driver.screen, HandOver) and driver.screen.side is Side.AXIS
    assert "Pass to the Axis player" in driver.screen.big.text
    driver.key(arcade.key.SPACE)
    build_axis_army_by_clicking(driver, arcade, shots)
    assert isinstance(driver.screen, HandOver) and driver.screen.side is Side.ALLIES
    shot(driver, shots, "hand-over.png")
    driver.key(arcade.key.SPACE)
    load_allied_army_from_a_file(driver, arcade, tmp_path)
    driver.key(arcade.key.SPACE)  # both players: on to the map
    # --- the map, the coin, the ends -----------------------------------------------------------------
    choice = driver.screen
    assert isinstance(choice, MapChoice)
    driver.key(arcade.key.KEY_4)
    assert choice.number == 4
    driver.click_box(choice.tabs.tabs[0].box)
    assert choice.number == 1
    driver.key(arcade.key.ENTER)
    screen = driver.screen
    assert isinstance(screen, BattleScreen)
    assert screen.state.configuration == 1
    assert screen.dialog is not None and screen.dialog.title.text == "Coin flip"
    assert "die shows 2" in screen.dialog.body.text and "the Axis win the flip" in screen.dialog.body.text
    assert screen.banner.text == "Axis to decide"
    driver.key(arcade.key.A)  # the Axis are the first player
    assert screen.dialog is not None and screen.dialog.title.text == "Choose an end"
    driver.click_box(button(screen, "West").box)
    # --- deployment behind hand-over screens --------------------------------------------------------------
    assert isinstance(driver.screen, HandOver) and driver.screen.side is Side.AXIS
    driver.key(arcade.key.SPACE)
    assert driver.screen is screen and screen.controller.selected == "panzer-iv-ausf-g"
    click_hex(driver, "J10")  # outside the Axis zone: refused with the engine's reason
    assert screen.message.text == "Not allowed: J10 is not in the Axis deployment area"
    assert unit_at(screen, "panzer-iv-ausf-g") is None
    hover_hex(driver, "F5")
    driver.key(arcade.key.Q)  # turn the facing: E -> NE
    f5 = screen.map.hex_centre_on_screen(screen.state.board.parse("F5"))
    driver.scroll(*f5, -1)  # and back with the wheel
    assert screen.controller.facing.name == "E"
    shot(driver, shots, "deployment.png")
    click_hex(driver, "F5")
    assert unit_at(screen, "panzer-iv-ausf-g") == "F5"
    assert screen.state.units["panzer-iv-ausf-g"].facing.name == "E"
    for listed, where in (("pak-38-anti-tank-gun", "E5"), ("mauser-kar-98k", "D4")):
        driver.click_box(screen.units_list.row_box(screen.controller.deployment.listed().index(listed)))
        assert screen.controller.selected == listed
        click_hex(driver, where)
        assert unit_at(screen, listed) == where
    click_hex(driver, "D4")  # pick the rifle up again and put it somewhere else
    assert screen.controller.selected == "mauser-kar-98k"
    click_hex(driver, "D5")
    assert unit_at(screen, "mauser-kar-98k") == "D5"
    driver.key(arcade.key.R)
    assert isinstance(driver.screen, HandOver) and driver.screen.side is Side.ALLIES
    driver.key(arcade.key.SPACE)
    assert screen.state.deploying is Side.ALLIES
    for unit_id, where in (("m4a1-sherman", "F13"), ("m1-garand-rifle", "G14"), ("bazooka", "H14")):
        screen.controller.select(unit_id)
        if unit_id == "m4a1-sherman":
            assert screen.controller.facing.name == "W"  # Vehicles at the east end face west unless turned
        click_hex(driver, where)
        assert unit_at(screen, unit_id) == where
    feed(screen, 6, 6, 1, 1)  # turn 1 initiative: Axis 12, Allies 2
    driver.key(arcade.key.R)
    assert screen.state.turn == 1
    assert screen.dialog is not None and screen.dialog.title.text == "Turn 1: initiative"
    assert "Axis 6 + 6, Allies 1 + 1" in screen.dialog.body.text and "Axis win" in screen.dialog.body.text
    assert (tmp_path / "saves" / "autosave.minis").exists()
    driver.key(arcade.key.A)
    # --- turn 1: movement, an undo, a movement roll ---------------------------------------------------------
    assert screen.state.active is Side.AXIS and screen.phase_title.text == "Axis movement phase"
    assert "P: end phase" in screen.hint_text
    click_hex(driver, "D5")
    click_hex(driver, "D6")
    driver.key(arcade.key.ENTER)
    assert unit_at(screen, "mauser-kar-98k") == "D6"
    assert screen.undo_button.enabled
    driver.key(arcade.key.U)
    assert unit_at(screen, "mauser-kar-98k") == "D5"
    assert screen.message.text.startswith("Undone: move Mauser Kar 98k")
    click_hex(driver, "F5")
    assert screen.controller.selected == "panzer-iv-ausf-g" and screen.map.layer_key is not None
    assert screen.state.board.parse("F8") in screen.controller.costs  # reachable, with its cost shown
    assert screen.controller.costs[screen.state.board.parse("F8")].cost == 3
    click_hex(driver, "F8")  # the engine's cheapest path
    assert (
        screen.controller.path[-1] == screen.state.board.parse("F8") and screen.controller.path_info.cost == 3
    )
    shot(driver, shots, "movement.png")
    click_hex(driver, "F8")  # a click on the path's end moves
    assert unit_at(screen, "panzer-iv-ausf-g") == "F8"
    end_phase(driver)
    assert screen.state.active is Side.ALLIES
    click_hex(driver, "F13")
    click_hex(driver, "F12")  # across the stream: a movement roll
    assert "1 movement roll (stream): 50% to get through" in screen.info.text
    click_hex(driver, "F11")
    click_hex(driver, "F10")
    feed(screen, 5)  # the roll succeeds
    driver.key(arcade.key.ENTER)
    assert unit_at(screen, "m4a1-sherman") == "F10"
    (roll,) = [r for r in screen.dice.rolls if r.kind == "roll"]  # the movement roll, shown as a die
    assert "movement roll for" in roll.caption and "stream" in roll.caption
    assert roll.dice == (5,) and roll.success == (True,) and roll.result == "succeeds"
    assert not screen.session.can_undo  # it rolled a die
    end_phase(driver)
    end_phase(driver)  # the Axis assault: nothing in range
    feed(screen, 6, 6, 1, 1)  # turn 2 initiative
    end_phase(driver)
    assert screen.dialog is not None and screen.dialog.title.text.startswith("Casualty phase, end of turn 1")
    driver.key(arcade.key.ENTER)
    assert screen.dialog.title.text == "Turn 2: initiative"
    driver.key(arcade.key.A)
    # --- turn 2: defensive fire, attacks, the casualty phase ------------------------------------------------
    end_phase(driver)  # the Axis do not move
    click_hex(driver, "F10")
    click_hex(driver, "F9")
    click_hex(driver, "G9")
    assert "Defensive fire possible (!) entering G9, from Panzer IV Ausf. G" in screen.info.text
    driver.key(arcade.key.ENTER)
    assert screen.stage.value == "defensive-fire"
    assert screen.banner.text == "Axis to decide"
    assert screen.phase_title.text == "Axis: defensive fire?"
    fire = button(screen, "1: fire Panzer IV Ausf. G")
    shot(driver, shots, "defensive-fire.png")
    feed(screen, *[6] * 15)
    driver.click_box(fire.box)
    sherman = screen.state.units["m4a1-sherman"]
    assert sherman.disrupted and unit_at(screen, "m4a1-sherman") == "F9"  # stopped where it was hit
    assert "stops in F9" in screen.last.text
    end_phase(driver)
    assert screen.state.phase.value == "assault" and screen.state.active is Side.AXIS
    click_hex(driver, "F8")
    hover_hex(driver, "F9")
    assert screen.controller.target == "m4a1-sherman"
    assert "15 dice hitting on 4+" in screen.info.text and "(front)" in screen.info.text
    assert "3 hits" in screen.info.text
    shot(driver, shots, "attack-odds.png")
    feed(screen, *[6] * 15)
    click_hex(driver, "F9")
    assert screen.state.units["m4a1-sherman"].pending == tuple(screen.state.units["m4a1-sherman"].pending)
    assert len(screen.state.units["m4a1-sherman"].pending) == 3
    (attack,) = [roll for roll in screen.dice.rolls if roll.kind == "attack"]
    assert attack.dice == (6,) * 15 and all(attack.success)  # every die shown, every one a success
    end_phase(driver)
    click_hex(driver, "F9")  # the disrupted Sherman shoots back: -1 on each die
    feed(screen, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1)
    click_hex(driver, "F8")
    assert screen.state.units["panzer-iv-ausf-g"].pending  # one hit: a face-down counter
    shot(driver, shots, "battle.png")
    feed(screen, 6, 6, 1, 1)  # turn 3 initiative
    end_phase(driver)
    assert "M4A1 Sherman is destroyed and removed" in screen.dialog.body.text
    assert "Panzer IV Ausf. G: turns up disrupted" in screen.dialog.body.text
    shot(driver, shots, "casualty-phase.png")
    driver.key(arcade.key.ENTER)
    assert screen.state.units["m4a1-sherman"].removed
    assert screen.state.units["panzer-iv-ausf-g"].disrupted
    driver.key(arcade.key.A)
    # --- save and load ---------------------------------------------------------------------------------
    from minis.ui.filedialog import FileDialog

    driver.key(arcade.key.S, arcade.key.MOD_CTRL)
    assert isinstance(driver.screen, FileDialog)
    saved = tmp_path / "turn3.minis"
    driver.screen.path.set_value("")
    driver.type_text(str(saved))
    driver.key(arcade.key.ENTER)
    assert driver.screen is screen and saved.exists()
    before = screen.state.snapshot()
    log = screen.session.log_lines()
    driver.key(arcade.key.O, arcade.key.MOD_CTRL)
    dialog = driver.screen
    assert isinstance(dialog, FileDialog)
    driver.type_text(str(saved))
    driver.key(arcade.key.ENTER)
    assert driver.screen is dialog and dialog.dialog is not None  # loading over this battle asks first
    driver.key(arcade.key.Y)
    loaded = driver.screen
    assert isinstance(loaded, BattleScreen) and loaded is not screen
    assert loaded.state.snapshot() == before and loaded.session.log_lines() == log
    screen = loaded
    screen.session.game.dice = Dice.scripted()  # the rest of the test scripts its dice again
    # --- turns 3 to 7: the Panzer holds the objective -----------------------------------------------------
    for turn in range(3, 8):
        assert screen.state.turn == turn
        for _ in range(3):
            end_phase(driver)
        if turn < 7:
            feed(screen, 6, 6, 1, 1)
        end_phase(driver)
        assert screen.dialog is not None and screen.dialog.title.text == f"Casualty phase, end of turn {turn}"
        driver.key(arcade.key.ENTER)
        if turn < 7:
            driver.key(arcade.key.A)
    victory = driver.screen
    assert isinstance(victory, VictoryScreen)
    assert victory.headline.text == "The Axis win"
    assert "controls the objective at the end of turn 7" in victory.why.text
    title, body = victory.columns[1]
    assert "lost 1 unit (21 points)" in title.text and "destroyed: M4A1 Sherman" in body.text
    shot(driver, shots, "victory.png")
    driver.key(arcade.key.ENTER)
    assert isinstance(driver.screen, MainMenu)
    assert not isinstance(driver.screen, ArmyBuilder)


def click_cards(driver: Any, card_ids: tuple[str, ...]) -> None:
    builder = driver.screen
    for card_id in card_ids:
        row = builder.card_row(card_id)
        builder.cards.highlight(row)
        driver.click_box(builder.cards.row_box(row))


def test_an_assault_battle_and_loading_the_autosave(
    driver: Any, arcade: Any, tmp_path: Path, shots: Path
) -> None:
    """Assault: who attacks, 120 against 80 points, the defender's map, objective and end, the defender
    deploying in its half first; then back to the menu and on again from the autosave."""
    from minis.ui.battle import BattleScreen
    from minis.ui.filedialog import FileDialog
    from minis.ui.handover import HandOver
    from minis.ui.mapchoice import MapChoice
    from minis.ui.menu import MainMenu
    from minis.ui.newbattle import AttackerChoice

    driver.window.new_dice = Dice.scripted
    driver.click_box(driver.screen.entry_box("New Assault battle"))
    assert isinstance(driver.screen, AttackerChoice)
    driver.key(arcade.key.A)  # the Axis attack
    assert isinstance(driver.screen, HandOver) and "attack with up to 120 points" in driver.screen.detail.text
    driver.key(arcade.key.SPACE)
    assert "up to 120 points" in driver.screen.army_title.text
    click_cards(driver, ("tiger-i", "panzer-iv-ausf-g", "pioneers", "mauser-kar-98k"))  # 56 + 23 + 7 + 3 = 89
    driver.key(arcade.key.D)
    driver.key(arcade.key.SPACE)
    assert "up to 80 points" in driver.screen.army_title.text
    click_cards(driver, ("m4a1-sherman", "bazooka", "m1-garand-rifle"))
    driver.key(arcade.key.D)
    driver.key(arcade.key.SPACE)
    choice = driver.screen
    assert isinstance(choice, MapChoice) and choice.assault and not choice.roll_button.visible
    assert "Allies (the defender) chooses" in choice.hint_text
    driver.key(arcade.key.KEY_3)
    driver.key(arcade.key.ENTER)
    screen = driver.screen
    assert isinstance(screen, BattleScreen) and screen.state.configuration == 3
    assert screen.stage.value == "choose-objective" and screen.banner.text == "Allies to decide"
    click_hex(driver, "A1")  # next to the map edge: refused with the engine's reason
    assert "next to the map edge" in screen.message.text
    click_hex(driver, "F8")
    assert screen.state.board.label(screen.state.objective) == "F8"
    assert screen.dialog is not None and screen.dialog.title.text == "Choose an end"
    driver.key(arcade.key.E)  # the defender takes the east end
    assert isinstance(driver.screen, HandOver) and driver.screen.side is Side.ALLIES
    driver.key(arcade.key.SPACE)
    zone = screen.state.board.half_of_map("east")
    for unit_id in list(screen.controller.deployment.listed()):
        screen.controller.select(unit_id)
        legal = [a.hex for a in screen.session.game.legal_actions(unit_id)]
        target = min((h for h in legal if h in zone), key=lambda h: (h.r, -h.q))
        click_hex(driver, screen.state.board.label(target))
        assert screen.state.units[unit_id].hex == target
    driver.key(arcade.key.R)
    assert isinstance(driver.screen, HandOver) and driver.screen.side is Side.AXIS
    driver.key(arcade.key.SPACE)
    for unit_id in list(screen.controller.deployment.listed()):
        screen.controller.select(unit_id)
        target = next(a.hex for a in screen.session.game.legal_actions(unit_id))
        click_hex(driver, screen.state.board.label(target))
    feed(screen, 1, 2, 6, 6)  # initiative: the Allies win
    driver.key(arcade.key.R)
    assert screen.dialog.title.text == "Turn 1: initiative" and "Allies win" in screen.dialog.body.text
    driver.key(arcade.key.L)  # the Allies move first
    assert screen.state.active is Side.ALLIES
    shot(driver, shots, "assault.png")
    autosave = tmp_path / "saves" / "autosave.minis"
    assert autosave.exists()
    # leave for the menu, and come back through Load game
    driver.key(arcade.key.ESCAPE)
    assert screen.dialog is not None and screen.dialog.title.text == "Leave this battle?"
    driver.key(arcade.key.Y)
    assert isinstance(driver.screen, MainMenu)
    driver.click_box(driver.screen.entry_box("Load game"))
    dialog = driver.screen
    assert isinstance(dialog, FileDialog) and "autosave.minis" in dialog.files.items
    driver.click_box(dialog.files.row_box(dialog.files.items.index("autosave.minis")))
    loaded = driver.screen
    assert isinstance(loaded, BattleScreen)
    assert loaded.state.snapshot() == screen.state.snapshot()
    assert loaded.state.scenario.value == "assault" and loaded.state.attacker is Side.AXIS
    driver.key(arcade.key.ESCAPE)
    driver.key(arcade.key.Y)
    assert isinstance(driver.screen, MainMenu) and len(driver.window.stack) == 1


def test_a_scenario_file_sets_each_players_army_limits(driver: Any, arcade: Any) -> None:
    """`minis play --scenario FILE`: the army builders check the scenario's own limits."""
    scenario = pytest.importorskip("minis.engine.scenario")
    from minis.ui.armybuilder import ArmyBuilder
    from minis.ui.newbattle import NewBattle

    plan = scenario.load_scenario(Path(__file__).resolve().parent.parent / "scenarios" / "breakout.toml")
    NewBattle.for_scenario(driver.window, plan).start()
    driver.key(arcade.key.SPACE)
    builder = driver.screen
    assert isinstance(builder, ArmyBuilder) and builder.side is Side.AXIS
    assert builder.army_title.text == f"{plan.title} (up to 70 points)"
    click_cards(driver, ("tiger-i", "panzer-iv-ausf-g"))
    assert "79" in builder.totals.text and any("70" in p for p in builder.problem_list())
    assert not builder.done_button.enabled
    driver.key(arcade.key.ESCAPE)
    driver.key(arcade.key.Y)
    from minis.ui.menu import MainMenu

    assert isinstance(driver.screen, MainMenu)


def test_loading_a_game_saved_during_deployment_hands_over_first(
    driver: Any, arcade: Any, tmp_path: Path
) -> None:
    from minis.army import Army
    from minis.game import Game
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
    saved = session.save(tmp_path / "deploying.minis")
    driver.click_box(driver.screen.entry_box("Load game"))
    dialog = driver.screen
    dialog.path.set_value("")
    driver.type_text(str(saved))
    driver.key(arcade.key.ENTER)
    assert isinstance(driver.screen, HandOver) and driver.screen.side is Side.AXIS
    driver.key(arcade.key.SPACE)
    screen = driver.screen
    assert isinstance(screen, BattleScreen) and screen.state.deploying is Side.AXIS
    assert screen.state.units["m4a1-sherman"].hex is not None  # the Allied deployment is there
    assert screen.controller.selected == "panzer-iv-ausf-g"


def test_the_hover_box_and_the_ready_rings_follow_the_board(driver: Any, arcade: Any, tmp_path: Path) -> None:
    """Before turn 1 only the Vanguard Crusader may move (the engine's `ready_units`): a click on the
    rifle selects nothing; after a move and its undo the hover box shows the board as it is again."""
    from minis.army import Army
    from minis.game import Game
    from minis.ui.battle import BattleScreen
    from minis.ui.session import Session

    axis = Army("Axis", Side.AXIS, units=("panzer-iv-ausf-g", "mauser-kar-98k"))
    allies = Army("Allies", Side.ALLIES, units=("crusader-ii", "m1-garand-rifle"))
    session = Session(Game.new(axis, allies, configuration=1, dice=Dice.scripted([2])), saves=tmp_path)
    for action in ("first allies", "end east", "deploy crusader-ii F13 face W", "deploy m1-garand-rifle G14"):
        session.apply(action)
    session.apply("ready")
    for action in ("deploy panzer-iv-ausf-g F5 face E", "deploy mauser-kar-98k D5", "ready"):
        session.apply(action)
    screen = BattleScreen(driver.window, session, handed_over=Side.AXIS)
    driver.window.open(screen)
    driver.frame()
    assert screen.state.phase.value == "setup" and screen.state.active is Side.ALLIES
    click_hex(driver, "G14")  # the rifle may not move before turn 1
    assert screen.controller.selected is None and screen.message.text == "M1 Garand Rifle can't act now."
    click_hex(driver, "F13")
    assert screen.controller.selected == "crusader-ii"
    click_hex(driver, "G13")
    driver.key(arcade.key.ENTER)  # the mouse stays on G13, where the Crusader now is
    assert unit_at(screen, "crusader-ii") == "G13"
    assert "Crusader II" in screen.tooltip.text
    driver.key(arcade.key.U)
    assert unit_at(screen, "crusader-ii") == "F13"
    assert "Crusader II" not in screen.tooltip.text  # the box shows G13 as it is again
    assert screen.tooltip.text.startswith("G13 ")
