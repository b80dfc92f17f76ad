"""Rule sets in the window (issue 20): chosen on a new battle's first screen, shown during the battle and
after a load, and the overstack decision of the later sets asked of the other player.

The window tests run in arcade's headless mode and are driven by input events (clicks and keys); the
dice are scripted. The main one plays a Standard battle under 2010 from the new-battle screen: three
Axis units share a hex (legal under 2010), a fourth moves in during the Axis movement phase, the Axis
pass, and the Allied player picks the unit that takes the hit by clicking its counter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from minis.army import Army, validate_army
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.content import rule_sets
from minis.content.rule_sets import NAMED, OPTIONS, RULEBOOK
from minis.dice import Dice
from minis.engine import actions as A
from minis.state import Stage
from minis.ui import rulewords
from minis.ui.controller import BattleController
from minis.ui.readout import BattleReadout
from minis.ui.session import Session
from tests.engine_support import board, position, unit
from tests.helpers_window import end_phase
from tests.test_ui_layout import check

# --- the words ------------------------------------------------------------------------------------------


def test_every_option_has_plain_words_and_no_code_name_shows() -> None:
    custom = rule_sets.with_options(
        NAMED["2010"], {"stacking_checked": rule_sets.EACH_MOVE, "hero_cap": rule_sets.ONE_PER_ARMY}
    )
    for rules in [*NAMED.values(), custom]:
        texts = [rulewords.describe(rules), rulewords.rules_line(rules)]
        texts += [rulewords.phrase(rules, option) for option in OPTIONS]
        for text in texts:
            assert "_" not in text and "-" not in text.replace("one-", ""), text
            assert not any(option in text for option in OPTIONS), text
    assert set(rulewords.PHRASES) == set(OPTIONS)  # a new option needs its words
    assert rulewords.describe(NAMED["2010"]).startswith(
        "2010: the last official update (September 2010): any number of units, three of an army in a hex"
    )
    assert "one Hero per 100 points" in rulewords.describe(NAMED["2010"])
    assert "aircraft placed in turn" in rulewords.describe(NAMED["2010"])
    assert "at most 15 units, two of an army in a hex" in rulewords.describe(RULEBOOK)
    assert "one Vehicle of each army in a hex" in rulewords.describe(NAMED["2008"])
    assert rulewords.rules_line(NAMED["2009"]) == "Rules: 2009"
    assert rulewords.rules_line(custom) == "Rules: 2010, changed"
    assert rulewords.changes(custom) == "one Hero an army, stacking checked as each unit ends its move"


# --- the overstack decision without a window ----------------------------------------------------------------

BOARD = """
C C C C C C
 C C C C C C
C C C C C C
"""


RIFLES = ("mauser-kar-98k", "mauser-kar-98k#2", "mauser-kar-98k#3", "mauser-kar-98k#4")


def crowded_position() -> Session:
    """2010, the Axis movement phase: three Axis rifles in B3, a fourth next to them; the Allies far off."""
    b = board(BOARD)
    units = [
        *(unit(b, rifle, "mauser-kar-98k", "axis", "B3") for rifle in RIFLES[:3]),
        unit(b, RIFLES[3], "mauser-kar-98k", "axis", "B2"),
        unit(b, "gi", "m1-garand-rifle", "allies", "C6"),
    ]
    game = position(b, units, active="axis", rules=NAMED["2010"], dice=Dice.scripted())
    return Session(game)


def test_the_controller_asks_the_other_player_which_unit_takes_the_hit(tmp_path: Path) -> None:
    session = crowded_position()
    control = BattleController(session)
    game = session.game
    assert "Rules: 2010" in BattleReadout(control).panel().title
    control.click(game.state.board.parse("B2"))  # the fourth rifle
    control.click(game.state.board.parse("B3"))  # its path: into the full hex (legal under 2010)
    control.confirm()
    assert game.state.units[RIFLES[3]].hex == game.state.board.parse("B3")
    control.pass_phase()
    assert game.state.stage is Stage.PENALTY and game.decider() is Side.ALLIES
    panel = BattleReadout(control).panel()
    assert "The Axis have four units in B3, more than three: choose the one that takes a hit" in panel.info
    assert [(c.caption, c.key) for c in panel.choices] == [
        ("1: Mauser Kar 98k", "1"),
        ("2: the second Mauser Kar 98k", "2"),
        ("3: the third Mauser Kar 98k", "3"),
        ("4: the fourth Mauser Kar 98k", "4"),
    ]
    assert control.penalty.where() == game.state.board.parse("B3")
    control.click(game.state.board.parse("A1"))  # elsewhere: says what to do, nothing happens
    assert control.message_bad and game.state.stage is Stage.PENALTY
    control.penalty.choose("gi")  # not one of the Axis units in the hex
    assert control.message.startswith("Choose one of the Axis units in B3")
    panel.choices[1].do()  # the second button
    assert game.state.stage is Stage.ACT and game.state.active is Side.ALLIES
    assert [u.id for u in game.state.units.values() if u.pending] == [RIFLES[1]]
    assert game.record[-1].action == f"penalty {RIFLES[1]}"


def test_no_penalty_under_2005_the_fourth_unit_cannot_even_enter() -> None:
    b = board(BOARD)
    units = [
        unit(b, RIFLES[0], "mauser-kar-98k", "axis", "B3"),
        unit(b, RIFLES[1], "mauser-kar-98k", "axis", "B3"),
        unit(b, RIFLES[2], "mauser-kar-98k", "axis", "B2"),
        unit(b, "gi", "m1-garand-rifle", "allies", "C6"),
    ]
    session = Session(position(b, units, active="axis", dice=Dice.scripted()))
    control = BattleController(session)
    assert "Rules: 2005" in BattleReadout(control).panel().title
    control.click(b.parse("B2"))
    assert b.parse("B3") not in control.moves  # a third Axis unit doesn't fit under the rulebook


# --- the window ---------------------------------------------------------------------------------------------


def add_cards(driver: Any, *card_ids: str) -> None:
    builder = driver.screen
    for card_id in card_ids:
        row = builder.card_row(card_id)
        builder.cards.highlight(row)  # scroll it into view, as the wheel would
        driver.click_box(builder.cards.row_box(row))


def click_hex(driver: Any, label: str) -> None:
    screen = driver.screen
    driver.click(*screen.map.hex_centre_on_screen(screen.state.board.parse(label)))


def deploy(driver: Any, screen: Any, places: list[tuple[str, str]]) -> None:
    for unit_id, where in places:
        driver.click_box(screen.units_list.row_box(screen.controller.deployment.listed().index(unit_id)))
        click_hex(driver, where)
        assert screen.state.board.label(screen.state.units[unit_id].hex) == where


def test_a_2010_battle_from_the_new_battle_screen_with_an_overstacked_hex(
    driver: Any, arcade: Any, tmp_path: Path, shots: Path
) -> None:
    from minis.ui.armybuilder import ArmyBuilder
    from minis.ui.battle import BattleScreen
    from minis.ui.counters import fan_spots
    from minis.ui.handover import HandOver
    from minis.ui.mapchoice import MapChoice

    window = driver.window
    window.new_dice = lambda: Dice.scripted([2])  # the coin flip: 2, the Axis win it
    driver.click_box(driver.screen.entry_box("New Standard battle"))
    first = driver.screen
    assert isinstance(first, HandOver) and first.rules is not None and first.rules.choosable
    assert first.rules.rules == RULEBOOK and "2005: the rulebook" in first.rules.about.text
    driver.click_box(first.rules.tabs.tabs[3].box)  # the 2010 tab
    assert first.rules.rules == NAMED["2010"]
    assert first.rules.about.text.startswith("2010: the last official update")
    assert "or 100 or 400: the army builder offers them" in first.detail.text
    check(driver)  # every text in its box
    driver.screenshot(shots / "new-battle-rules.png")
    driver.key(arcade.key.SPACE)
    builder = driver.screen
    assert isinstance(builder, ArmyBuilder) and builder.rules == NAMED["2010"]
    add_cards(driver, *["mauser-kar-98k"] * 4)
    driver.key(arcade.key.D)
    second = driver.screen
    assert isinstance(second, HandOver) and second.rules is not None and not second.rules.choosable
    assert second.rules.caption.text == "Rules: 2010 (chosen for this battle)"
    driver.key(arcade.key.SPACE)
    assert driver.screen.rules == NAMED["2010"]
    add_cards(driver, "m1-garand-rifle")
    driver.key(arcade.key.D)
    driver.key(arcade.key.SPACE)  # both players: on to the map
    assert isinstance(driver.screen, MapChoice)
    driver.key(arcade.key.KEY_1)
    driver.key(arcade.key.ENTER)
    screen = driver.screen
    assert isinstance(screen, BattleScreen)
    assert screen.state.rules == NAMED["2010"] and screen.game.header["rules"] == "2010"
    assert "Rules: 2010" in screen._title.text
    driver.key(arcade.key.A)  # the Axis, who won the flip, go first
    driver.key(arcade.key.W)  # and deploy at the west end
    driver.key(arcade.key.SPACE)  # the Axis hand-over
    rifles = ["mauser-kar-98k", "mauser-kar-98k#2", "mauser-kar-98k#3", "mauser-kar-98k#4"]
    # three of one army in a hex: legal under 2010 (the rulebook refuses the third)
    deploy(driver, screen, [(rifles[0], "D5"), (rifles[1], "D5"), (rifles[2], "D5"), (rifles[3], "D4")])
    driver.key(arcade.key.R)
    driver.key(arcade.key.SPACE)  # the Allied hand-over
    deploy(driver, screen, [("m1-garand-rifle", "G14")])
    screen.session.game.dice.push([6, 6, 1, 1])  # turn 1 initiative: Axis 12, Allies 2
    driver.key(arcade.key.R)
    driver.key(arcade.key.A)  # the Axis move first
    state = screen.state
    assert state.stage is Stage.ACT and state.active is Side.AXIS
    # the fourth rifle moves into the full hex during its own movement phase
    click_hex(driver, "D4")
    assert screen.controller.selected == rifles[3]
    click_hex(driver, "D5")
    click_hex(driver, "D5")  # a click on the path's end moves
    assert state.board.label(screen.state.units[rifles[3]].hex) == "D5"
    end_phase(driver)
    state = screen.state
    assert state.stage is Stage.PENALTY and screen.game.decider() is Side.ALLIES
    assert screen.banner.text == "Allies to decide"
    assert "The Axis have four units in D5, more than three: choose the one that takes a hit" in (
        screen.info.text
    )
    assert [b.text for b in screen.choices] == [
        "1: Mauser Kar 98k",
        "2: the second Mauser Kar 98k",
        "3: the third Mauser Kar 98k",
        "4: the fourth Mauser Kar 98k",
    ]
    assert "the unit that takes the hit" in screen.hint_text
    check(driver)
    driver.screenshot(shots / "overstack-penalty.png")
    click_hex(driver, "D5")  # the hex itself: the counters spread out beside it are what is clicked
    assert screen.message.text.startswith("Click one of the counters spread out beside D5")
    assert screen.state.stage is Stage.PENALTY
    d5 = state.board.parse("D5")
    spots = fan_spots(state, d5, top=screen.controller.selected, below=screen.layers.fan_below(d5))
    chosen, spot = spots[1]
    driver.click(*screen.map.world_to_screen(spot.x, spot.y))  # its counter, spread out beside D5
    state = screen.state
    assert state.stage is Stage.ACT and state.active is Side.ALLIES  # the Allied movement phase
    assert [u.id for u in state.units.values() if u.pending] == [chosen.id]
    assert len(state.units[chosen.id].pending) == 1  # one face-down counter, turned up at the casualty
    assert screen.game.record[-1].action == f"penalty {chosen.id}"
    # a save carries the set: the Load dialog says so, and the loaded battle plays (and shows) it
    saved = tmp_path / "saves" / "under-2010.minis"
    screen.session.save(saved)
    assert 'rules = "2010"' in saved.read_text(encoding="utf-8")
    window.routes.main_menu()
    driver.click_box(driver.screen.entry_box("Load game"))
    dialog = driver.screen
    assert "Rules: 2010" in dialog.details(saved)
    dialog.path.set_value("")
    driver.type_text(str(saved))
    driver.key(arcade.key.ENTER)
    loaded = driver.screen
    assert isinstance(loaded, BattleScreen) and loaded.state.rules == NAMED["2010"]
    assert "Rules: 2010" in loaded._title.text
    assert [u.id for u in loaded.state.units.values() if u.pending] == [chosen.id]


def test_the_assault_and_the_computer_screens_offer_the_rule_set(driver: Any, arcade: Any) -> None:
    from minis.ui.armybuilder import ArmyBuilder
    from minis.ui.battle import BattleScreen
    from minis.ui.handover import HandOver
    from minis.ui.mapchoice import MapChoice
    from minis.ui.newbattle import AttackerChoice
    from minis.ui.opponent import OpponentChoice

    driver.click_box(driver.screen.entry_box("New Assault battle"))
    choice = driver.screen
    assert isinstance(choice, AttackerChoice) and choice.rules.choosable
    driver.key(arcade.key.R)  # the next set: 2008
    assert choice.rules.rules == NAMED["2008"]
    check(driver)
    driver.click_box(choice.axis.box)
    hand_over = driver.screen
    assert isinstance(hand_over, HandOver) and hand_over.rules is not None
    assert hand_over.rules.caption.text == "Rules: 2008 (chosen for this battle)"
    assert "with up to 120 points" in hand_over.detail.text  # an Assault keeps its roles' points
    driver.key(arcade.key.SPACE)
    assert isinstance(driver.screen, ArmyBuilder) and driver.screen.rules == NAMED["2008"]
    # against the computer: the rules row; the computer builds both armies under the set
    driver.window.routes.main_menu()
    driver.window.new_dice = lambda: Dice.scripted([2])
    driver.click_box(driver.screen.entry_box("Play against the computer"))
    opponent = driver.screen
    assert isinstance(opponent, OpponentChoice)
    assert "2005: the rulebook" in opponent.about.text
    driver.click_box(opponent.rules.tabs.tabs[3].box)
    assert opponent.choice.rules == NAMED["2010"]
    assert "2010: the last official update" in opponent.about.text
    check(driver)
    driver.click_box(opponent.army.box)
    driver.click_box(opponent.army.box)  # the computer builds both
    assert opponent.choice.army == "computer"
    driver.click_box(opponent.start.box)
    assert not opponent.problem.text
    assert isinstance(driver.screen, MapChoice)
    driver.key(arcade.key.KEY_1)
    driver.key(arcade.key.ENTER)
    battle = driver.screen
    assert isinstance(battle, BattleScreen) and battle.state.rules == NAMED["2010"]
    if battle.computer is not None:
        battle.computer.close()
    cards = card_catalogue()
    for side in Side:  # the computer's armies keep the set's limits
        army = Army(side.title, side, units=tuple(battle.game.header[side.value]))
        assert validate_army(army, cards, rules=NAMED["2010"]) == []


def test_a_scenario_with_its_own_set_shows_it_and_offers_no_other(
    driver: Any, arcade: Any, tmp_path: Path
) -> None:
    from minis.engine.scenario import load_scenario
    from minis.ui.handover import HandOver

    text = Path("scenarios/standard.toml").read_text(encoding="utf-8")
    path = tmp_path / "standard-2009.toml"
    path.write_text(text.replace('map = "roll"\n', 'map = "roll"\nrules = "2009"\n'), encoding="utf-8")
    plan = load_scenario(path)
    assert plan.doc.rules == NAMED["2009"]
    driver.window.routes.scenario_battle(plan)
    hand_over = driver.screen
    assert isinstance(hand_over, HandOver) and hand_over.rules is not None
    assert not hand_over.rules.choosable and not hand_over.rules.tabs.visible
    assert hand_over.rules.caption.text == "Rules: 2009 (set by the scenario)"
    check(driver)
    driver.key(arcade.key.R)  # nothing to choose
    assert hand_over.rules.rules == NAMED["2009"] and driver.screen is hand_over
    driver.key(arcade.key.SPACE)
    assert driver.screen.rules == NAMED["2009"]


def test_an_action_that_is_no_penalty_is_refused_in_plain_words() -> None:
    session = crowded_position()
    game = session.game
    game.apply(A.Move(RIFLES[3], (game.state.board.parse("B3"),)))
    game.apply(A.Pass())
    control = BattleController(session)
    assert game.state.stage is Stage.PENALTY
    control.penalty.choose("gi")
    assert control.message == "Choose one of the Axis units in B3 (the buttons, or their numbers)."
    assert control.act(A.Penalty("gi")) is False  # the engine's refusal, with the players' names
    assert control.message.startswith("Not allowed:") and "mauser-kar-98k" not in control.message
