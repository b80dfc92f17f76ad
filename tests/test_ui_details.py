"""The last details of the table (issue 13), driven through input events in a headless window.

The army's focused unit shown in the card panel when the keys move through the army; the hand-over's
line on each army in plain words for every kind of battle; the victory screen (and the set-up's
screens) inside a small window; and a designer's fixed-map scenario from the main menu to the battle
with nothing but keys.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from minis.army import ArmyScenario
from minis.base.sides import Side
from minis.engine.scenario import SCENARIOS_DIR, load_scenario
from minis.state import BattleKind
from tests.test_ui_layout import check

#: Words of the files and the notation that a player must never read.
INTERNAL = re.compile(r"assault-(attacker|defender)|\b(axis|allies)\b")


def key_until(driver: Any, arcade: Any, symbol: int, done: Any, limit: int = 80) -> None:
    """Press `symbol` until `done()` (at most `limit` times), as a player keeps pressing a key."""
    for _ in range(limit):
        if done():
            return
        driver.key(symbol)
    assert done(), f"key {symbol} pressed {limit} times without reaching the goal"


def to_entry(driver: Any, arcade: Any, title: str) -> None:
    """Down the main menu to the entry `title` (not opened)."""
    menu = driver.screen
    key_until(driver, arcade, arcade.key.DOWN, lambda: menu.menu.items[menu.menu.index] == title)


def add_by_keys(driver: Any, arcade: Any, card_name: str) -> None:
    """By keys alone: Ctrl+F to the search box, the card's name typed over what was there, Down to the
    list (its first row), Down to the card named `card_name`, Enter; the list keeps the keys."""
    builder = driver.screen
    driver.key(arcade.key.F, arcade.key.MOD_CTRL)
    driver.key(arcade.key.BACKSPACE, arcade.key.MOD_CTRL)
    driver.type_text(card_name)
    driver.key(arcade.key.DOWN)
    assert builder.focused is builder.cards
    key_until(driver, arcade, arcade.key.DOWN, lambda: builder.cards.items[builder.cards.index] == card_name)
    driver.key(arcade.key.ENTER)


def test_the_army_list_s_focused_unit_shows_its_card(driver: Any, arcade: Any) -> None:
    from minis.ui.armybuilder import ArmyBuilder

    builder = ArmyBuilder(driver.window, Side.AXIS, ArmyScenario.STANDARD, lambda army: None)
    driver.window.open(builder)
    driver.frame()
    for card_id in ("tiger-i", "mauser-kar-98k", "panzer-iv-ausf-g"):
        add_by_keys(driver, arcade, builder.catalogue[card_id].name)
    assert sorted(builder.units) == ["mauser-kar-98k", "panzer-iv-ausf-g", "tiger-i"]
    highlighted = builder.shown[builder.cards.index]
    assert builder.panel.card is highlighted  # the card list has the keys: its card is shown
    key_until(driver, arcade, arcade.key.TAB, lambda: builder.focused is builder.army_list)
    army = [card_id for card_id, _ in builder._army_rows()]  # dearest first: Tiger, Panzer IV, Mauser
    assert builder.panel.card is not None and builder.panel.card.id == army[builder.army_list.index]
    for row in (1, 2):
        driver.key(arcade.key.DOWN)
        assert builder.army_list.index == row
        assert builder.panel.card is not None and builder.panel.card.id == army[row]
    driver.key(arcade.key.UP)
    assert builder.panel.card is not None and builder.panel.card.id == army[1]
    driver.move(*builder.cards.row_box(builder.cards.top_row).centre)  # the mouse points again
    driver.frame()
    assert builder.panel.card is builder.shown[builder.cards.top_row]
    driver.key(arcade.key.ENTER)  # Enter in the army takes the focused unit out, as a click does
    assert len(builder.units) == 2


@pytest.mark.parametrize(
    ("scenario", "side", "attacker", "says"),
    [
        (BattleKind.STANDARD, Side.AXIS, None, "Standard battle: the Axis have up to 100 points."),
        (BattleKind.STANDARD, Side.ALLIES, None, "Standard battle: the Allies have up to 100 points."),
        (BattleKind.ASSAULT, Side.AXIS, Side.ALLIES, "Assault: the Axis defend with up to 80 points."),
        (BattleKind.ASSAULT, Side.ALLIES, Side.ALLIES, "Assault: the Allies attack with up to 120 points."),
    ],
)
def test_the_hand_over_says_each_army_s_terms_in_plain_words(
    driver: Any, scenario: BattleKind, side: Side, attacker: Side | None, says: str
) -> None:
    from minis.ui.newbattle import NewBattle

    battle = NewBattle(driver.window, scenario)
    battle.attacker = attacker
    assert battle.terms_of(side) == says and not INTERNAL.search(says)


@pytest.mark.parametrize(
    ("name", "attacker", "says"),
    [
        ("breakout.toml", None, {Side.AXIS: "Breakout: the Axis have up to 70 points."}),
        ("standard.toml", None, {Side.ALLIES: "Standard: the Allies have up to 100 points."}),
        (
            "assault.toml",
            Side.AXIS,
            {
                Side.AXIS: "Assault: the Axis attack with up to 120 points.",
                Side.ALLIES: "Assault: the Allies defend with up to 80 points.",
            },
        ),
    ],
)
def test_the_hand_over_of_a_scenario_file_says_its_own_points(
    driver: Any, name: str, attacker: Side | None, says: dict[Side, str]
) -> None:
    from minis.ui.newbattle import NewBattle

    battle = NewBattle.for_scenario(driver.window, load_scenario(SCENARIOS_DIR / name))
    battle.attacker = battle.attacker or attacker
    for side, text in says.items():
        assert battle.terms_of(side) == text


def test_an_assault_s_hand_overs_read_plainly(driver: Any, arcade: Any) -> None:
    """From the menu by keys: the Allies attack; the hand-overs say so, and nothing internal."""
    from minis.ui.handover import HandOver

    menu = driver.screen
    key_until(
        driver, arcade, arcade.key.DOWN, lambda: menu.menu.items[menu.menu.index] == "New Assault battle"
    )
    driver.key(arcade.key.ENTER)
    driver.key(arcade.key.L)  # the Allies attack
    hand_over = driver.screen
    assert isinstance(hand_over, HandOver) and hand_over.side is Side.AXIS
    assert hand_over.detail.text == "Assault: the Axis defend with up to 80 points."
    shown = [hand_over.big.text, hand_over.then.text, hand_over.press.text, hand_over.detail.text]
    assert not any(INTERNAL.search(text) for text in shown), shown
    check(driver)


def boxes_of(screen: Any) -> Iterator[tuple[str, Any]]:
    """Each shown widget's box (and a dialog's), by its text where it has one."""
    roots = [*screen.widgets, *([screen.dialog] if screen.dialog is not None else [])]
    for widget in roots:
        if widget.visible and widget.box.width:
            yield getattr(widget, "text", type(widget).__name__), widget.box


def outside_the_window(driver: Any) -> list[str]:
    width, height = driver.window.get_size()
    return [
        f"{text!r}: {box}"
        for text, box in boxes_of(driver.screen)
        if box.left < 0 or box.bottom < 0 or box.right > width or box.top > height
    ]


def finished_game() -> Any:
    from minis.ai.random_bot import RandomBot, play
    from minis.ui.demo import demo_game

    game = play(demo_game(large=True, stop="deployed"), RandomBot(1))
    assert game.over
    return game


@pytest.mark.parametrize("size", [(900, 600), (1280, 800)])
def test_the_victory_and_set_up_screens_fit_the_window(
    arcade: Any, tmp_path: Path, size: tuple[int, int]
) -> None:
    """Every box inside the window, and every text inside its box (the layout check), at both sizes."""
    from minis.ui.driver import Driver
    from minis.ui.session import Session

    driver = Driver.open(*size)
    try:
        assert tuple(driver.window.get_size()) == size
        driver.window.routes.victory(Session(finished_game(), saves=tmp_path / "saves"))
        check(driver)
        assert outside_the_window(driver) == []
        victory = driver.screen
        assert victory.headline.text in ("The Axis win", "The Allies win", "The battle is drawn")
        driver.window.routes.scenario_battle(load_scenario(SCENARIOS_DIR / "breakout.toml"))
        check(driver)  # the Axis player's hand-over
        assert outside_the_window(driver) == []
        from minis.ui.newbattle import BothPlayers

        driver.window.open(BothPlayers(driver.window, lambda: None, map_="maps/river-line.toml"))
        check(driver)
        assert outside_the_window(driver) == []
    finally:
        driver.close()


def test_a_fixed_map_scenario_from_the_menu_to_the_battle_by_keys(
    driver: Any, arcade: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Breakout (its own map): the menu, the chooser (a typed name), both builders (cards chosen with
    the arrows), the hand-overs and "Start the battle", each step an input event."""
    from minis.ui.armybuilder import ArmyBuilder
    from minis.ui.battle import BattleScreen
    from minis.ui.handover import HandOver
    from minis.ui.newbattle import BothPlayers
    from minis.ui.scenariochoice import ScenarioDialog

    monkeypatch.chdir(SCENARIOS_DIR.resolve().parent)
    plan = load_scenario(SCENARIOS_DIR / "breakout.toml")
    to_entry(driver, arcade, "Play a scenario")
    driver.key(arcade.key.ENTER)
    assert isinstance(driver.screen, ScenarioDialog)
    driver.type_text("breakout.toml")
    driver.key(arcade.key.ENTER)
    for side, units in (
        (Side.AXIS, ("panzer-iv-ausf-g", "mauser-kar-98k")),
        (Side.ALLIES, ("m4a1-sherman", "m1-garand-rifle", "bazooka")),
    ):
        hand_over = driver.screen
        assert isinstance(hand_over, HandOver) and hand_over.side is side
        points = plan.force_of(side).points
        assert hand_over.detail.text == f"Breakout: the {side.title} have up to {points} points."
        driver.key(arcade.key.SPACE)
        builder = driver.screen
        assert isinstance(builder, ArmyBuilder) and builder.side is side and builder.limit == points
        for card_id in units:
            add_by_keys(driver, arcade, builder.catalogue[card_id].name)
        assert sorted(builder.units) == sorted(units) and builder.problems.text == "The army is legal."
        driver.key(arcade.key.D)
    ready = driver.screen
    assert isinstance(ready, BothPlayers)
    assert ready.go.text == "Start the battle" and "the scenario sets the battle map" in ready.more.text
    check(driver)
    driver.key(arcade.key.SPACE)
    battle = driver.screen
    assert isinstance(battle, BattleScreen)
    state = battle.state
    assert state.board == plan.board and state.objective == plan.board.parse("E11")
    assert "pak-38-anti-tank-gun" in {unit.card.id for unit in state.units.values()}  # the preset gun
    assert sorted(u.card.id for u in state.units.values() if u.side is Side.ALLIES) == sorted(
        ("m4a1-sherman", "m1-garand-rifle", "bazooka")
    )
