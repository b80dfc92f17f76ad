"""The battle controller without a window: every stage of a battle played through its input methods
(clicks on hexes, Enter, the facing keys, the panel's choices and the dialogs' answers) with scripted
dice, as the battle screen hands them over. Nothing here opens a window or imports arcade."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from minis.army import Army
from minis.base.sides import Side
from minis.dice import Dice
from minis.engine import actions as A
from minis.engine.events import Event
from minis.game import Game
from minis.hexgrid import Facing, Hex
from minis.state import BattleKind, Stage
from minis.ui.controller import BattleController
from minis.ui.readout import BattleReadout, Choice
from minis.ui.session import Session


def at(control: BattleController, label: str) -> Hex:
    board = control.state.board
    assert board is not None
    return board.parse(label)


def click(control: BattleController, label: str) -> None:
    control.click(at(control, label))


def where(control: BattleController, unit_id: str) -> str | None:
    unit = control.state.units[unit_id]
    return control.label(unit.hex) if unit.hex is not None else None


def answer(control: BattleController, prefix: str) -> None:
    """Answer the open question (or press one of the panel's buttons) by its caption."""
    question = BattleReadout(control).question()
    choices: list[Choice] = [*(question.choices if question else ()), *BattleReadout(control).panel().choices]
    found = [c for c in choices if c.caption.startswith(prefix)]
    assert found, [c.caption for c in choices]
    found[0].do()


def feed(control: BattleController, *dice: int) -> None:
    control.game.dice.push(dice)


def standard(tmp_path: Path, dice: list[int], **armies: tuple[str, ...]) -> BattleController:
    axis = Army("Axis", Side.AXIS, units=armies.get("axis", ("panzer-iv-ausf-g", "mauser-kar-98k")))
    allies = Army("Allies", Side.ALLIES, units=armies.get("allies", ("m4a1-sherman", "bazooka")))
    game = Game.new(axis, allies, dice=Dice.scripted(dice))
    return BattleController(Session(game, saves=tmp_path, autosave=False))


def test_a_whole_standard_battle_through_the_controller(tmp_path: Path) -> None:
    acted: list[list[Event]] = []
    control = standard(tmp_path, [1, 2])  # the map die: configuration 1; the coin: the Axis
    control.on_acted = acted.append
    # --- the map roll, the coin flip and the first player -----------------------------------------
    question = BattleReadout(control).question()
    assert question is not None and question.title == "Coin flip"
    assert "battle map die showed 1: configuration 1" in question.text
    assert "the Axis win the flip" in question.text and BattleReadout(control).first_dice() == [("coin", 2)]
    assert BattleReadout(control).panel().banner == "Axis to decide"
    answer(control, "Axis first")
    # --- the end -------------------------------------------------------------------------------------
    question = BattleReadout(control).question()
    assert question is not None and question.title == "Choose an end"
    assert [c.key for c in question.choices] == ["W", "E"]
    answer(control, "West")
    assert control.state.ends[Side.AXIS] == "west" and len(acted) == 2
    # --- deployment: a refused hex, the facing, the list, a unit picked up again -------------------
    assert control.stage is Stage.DEPLOY and control.selected == "panzer-iv-ausf-g"
    panel = BattleReadout(control).panel()
    assert panel.heading == "Axis: deployment at the west end" and not panel.end_enabled
    assert [row.unit for row in panel.listing] == ["panzer-iv-ausf-g", "mauser-kar-98k"]
    click(control, "J10")
    assert control.message == "Not allowed: J10 is not in the Axis deployment area" and control.message_bad
    control.turn_facing(1)
    assert control.facing is not None and control.facing.name == "NE"
    control.turn_facing(-1)
    click(control, "F5")
    assert where(control, "panzer-iv-ausf-g") == "F5"
    assert control.state.units["panzer-iv-ausf-g"].facing is Facing.E
    assert control.selected == "mauser-kar-98k"  # the next unit to deploy
    click(control, "D4")
    click(control, "D4")  # a placed unit of one's own: picked up again
    assert control.selected == "mauser-kar-98k" and "picked up" in control.message
    click(control, "D5")
    assert where(control, "mauser-kar-98k") == "D5" and BattleReadout(control).panel().end_enabled
    control.pass_phase()  # Ready
    assert control.state.deploying is Side.ALLIES
    assert control.selected == "m4a1-sherman" and control.facing is not None and control.facing.name == "W"
    click(control, "F13")
    control.deployment.pick(0)  # the list shows what is still to deploy first
    assert control.selected == "bazooka"
    click(control, "H14")
    feed(control, 6, 6, 1, 1)  # the turn 1 initiative: Axis 12, Allies 2
    control.pass_phase()
    question = BattleReadout(control).question()
    assert question is not None and question.title == "Turn 1: initiative"
    assert "Axis 6 + 6, Allies 1 + 1" in question.text
    assert BattleReadout(control).first_dice() == [("axis", 6), ("axis", 6), ("allies", 1), ("allies", 1)]
    answer(control, "Axis first")
    # --- movement: a path, Enter, an undo, the engine's cheapest path, a movement roll ---------------
    assert BattleReadout(control).panel().heading == "Axis movement phase"
    click(control, "D5")
    click(control, "D6")
    control.confirm()
    assert where(control, "mauser-kar-98k") == "D6" and BattleReadout(control).panel().undo_enabled
    control.undo()
    assert where(control, "mauser-kar-98k") == "D5"
    assert control.message.startswith("Undone: move Mauser Kar 98k")
    click(control, "F5")
    f8 = at(control, "F8")
    assert control.selected == "panzer-iv-ausf-g" and control.costs[f8].cost == 3
    click(control, "F8")
    assert control.path[-1] == f8 and control.path_info is not None and control.path_info.cost == 3
    assert BattleReadout(control).panel().choices[0].caption == "Move (Enter)"
    assert control.step_back() and control.path_info is not None and control.path[-1] != f8
    click(control, "F8")
    click(control, "F8")  # a click on the path's end moves
    assert where(control, "panzer-iv-ausf-g") == "F8" and control.selected is None
    control.pass_phase()
    assert control.state.active is Side.ALLIES
    click(control, "F13")
    click(control, "F12")  # across the stream: a movement roll
    assert "1 movement roll (stream): 50% to get through" in BattleReadout(control).panel().info
    click(control, "F11")
    click(control, "F10")
    feed(control, 5)
    control.confirm()
    assert where(control, "m4a1-sherman") == "F10" and not control.session.can_undo
    assert any("stream: 5 succeeds" in line for line in control.texts.summary(control.session.last_events))
    control.pass_phase()
    control.pass_phase()  # the Axis assault
    feed(control, 6, 6, 1, 1)  # the turn 2 initiative
    control.pass_phase()  # the Allied assault: the casualty phase follows
    report = BattleReadout(control).casualty_report(control.session.last_events)
    assert report is not None and report[0] == "Casualty phase, end of turn 1"
    answer(control, "Axis first")
    # --- turn 2: a defensive-fire window, attacks ----------------------------------------------------
    control.pass_phase()  # the Axis do not move
    click(control, "F10")
    click(control, "F9")
    click(control, "G9")
    info = BattleReadout(control).panel().info
    assert "Defensive fire possible (!) entering G9, from Panzer IV Ausf. G" in info
    control.confirm()
    panel = BattleReadout(control).panel()
    assert control.stage is Stage.DEFENSIVE_FIRE and panel.heading == "Axis: defensive fire?"
    assert panel.heading_side is Side.AXIS and panel.end_caption == "Hold (H)"
    assert panel.card is not None and panel.card[0].name == "M4A1 Sherman"  # the mover's card
    assert panel.choices[0].key == "1" and panel.choices[0].caption.startswith("1: fire Panzer IV Ausf. G")
    feed(control, *[6] * 15)
    panel.choices[0].do()
    sherman = control.state.units["m4a1-sherman"]
    assert sherman.disrupted and where(control, "m4a1-sherman") == "F9"
    control.pass_phase()
    assert control.state.phase.value == "assault" and control.state.active is Side.AXIS
    click(control, "F8")
    control.hover_at(at(control, "F9"))
    assert control.target == "m4a1-sherman"
    info = BattleReadout(control).panel().info
    assert "15 dice hitting on 4+" in info and "(front)" in info and "3 hits" in info
    assert BattleReadout(control).panel().choices[0].caption == "Attack M4A1 Sherman"
    feed(control, *[6] * 15)
    click(control, "F9")
    assert len(control.state.units["m4a1-sherman"].pending) == 3
    assert control.target is None  # the selection is gone, and with it the target
    control.pass_phase()
    click(control, "F9")  # the disrupted Sherman shoots back
    feed(control, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1)
    click(control, "F8")
    assert control.state.units["panzer-iv-ausf-g"].pending
    # --- the casualty phase: the hover box follows the board ----------------------------------------
    control.hover_at(at(control, "F9"))
    assert any("M4A1 Sherman" in line for line in BattleReadout(control).hover_lines())
    version = control.board_version
    feed(control, 6, 6, 1, 1)  # the turn 3 initiative
    control.pass_phase()
    assert control.board_version > version
    assert not any("M4A1 Sherman" in line for line in BattleReadout(control).hover_lines())  # destroyed: gone
    report = BattleReadout(control).casualty_report(control.session.last_events)
    assert report is not None and "M4A1 Sherman is destroyed and removed" in report[1]
    assert "Panzer IV Ausf. G: turns up disrupted" in report[1]
    answer(control, "Axis first")
    # --- turns 3 to 7: the Panzer holds the objective; the end --------------------------------------
    for turn in range(3, 8):
        assert control.state.turn == turn
        for _ in range(3):
            control.pass_phase()
        if turn < 7:
            feed(control, 6, 6, 1, 1)
        control.pass_phase()
        if turn < 7:
            answer(control, "Axis first")
    assert control.game.over and control.game.winner is Side.AXIS
    panel = BattleReadout(control).panel()
    assert panel.heading == "The battle is over" and panel.banner == "game over" and not panel.end_shown
    assert BattleReadout(control).question() is None


def test_the_assault_objective_and_the_defenders_end(tmp_path: Path) -> None:
    axis = Army("Axis", Side.AXIS, units=("tiger-i", "mauser-kar-98k"))
    allies = Army("Allies", Side.ALLIES, units=("m4a1-sherman", "bazooka"))
    game = Game.new(axis, allies, scenario=BattleKind.ASSAULT, attacker=Side.AXIS, dice=Dice.scripted())
    session = Session(game, saves=tmp_path, autosave=False)
    session.apply("configuration 3")
    control = BattleController(session)
    panel = BattleReadout(control).panel()
    assert control.stage is Stage.CHOOSE_OBJECTIVE and panel.heading == "Allies: the objective"
    click(control, "A1")
    assert "next to the map edge" in control.message and control.state.objective is None
    click(control, "F8")
    assert control.state.objective == at(control, "F8")
    question = BattleReadout(control).question()
    assert question is not None and "(the defender): choose your end" in question.text
    answer(control, "East")
    assert control.state.deploying is Side.ALLIES and control.selected == "m4a1-sherman"


def test_ready_units_come_from_the_engine_before_turn_1(tmp_path: Path) -> None:
    """Before turn 1 only a Vanguard unit may move: the rings, N and a click follow
    `Game.ready_units`, not a rule of the screen's own."""
    control = standard(tmp_path, [1, 2], allies=("crusader-ii", "m1-garand-rifle"))
    session = control.session
    for action in ("first axis", "end west", "deploy panzer-iv-ausf-g F5 face E", "deploy mauser-kar-98k D5"):
        session.apply(action)
    session.apply("ready")
    for action in ("deploy crusader-ii F13 face W", "deploy m1-garand-rifle G14", "ready"):
        session.apply(action)
    control.refresh()
    assert control.stage is Stage.ACT and control.state.active is Side.ALLIES
    assert control.ready_ids() == frozenset(control.game.ready_units()) == {"crusader-ii"}
    garand = control.state.units["m1-garand-rifle"]
    assert not control.is_ready(garand)
    click(control, "G14")
    assert control.selected is None and control.message == "M1 Garand Rifle can't act now."
    assert "(1 may still act" in BattleReadout(control).panel().info
    unit = control.select_next()
    assert unit is not None and unit.id == "crusader-ii"
    assert control.select_next() is unit  # the only one


def test_undo_brings_the_hover_box_back_to_the_board(tmp_path: Path) -> None:
    control = standard(tmp_path, [1, 2])
    session = control.session
    for action in ("first axis", "end west", "deploy panzer-iv-ausf-g F5 face E", "deploy mauser-kar-98k D5"):
        session.apply(action)
    session.apply("ready")
    for action in ("deploy m4a1-sherman F13 face W", "deploy bazooka H14"):
        session.apply(action)
    feed(control, 6, 6, 1, 1)
    session.apply("ready")
    session.apply("first axis")
    control.refresh()
    click(control, "D5")
    click(control, "D6")
    control.hover_at(at(control, "D6"))
    control.confirm()
    assert any("Mauser" in line for line in BattleReadout(control).hover_lines())
    version = control.version
    control.undo()
    assert control.version > version
    assert not any("Mauser" in line for line in BattleReadout(control).hover_lines())
    control.hover_at(at(control, "D5"))
    assert any("Mauser" in line for line in BattleReadout(control).hover_lines())


def test_the_controller_imports_without_arcade() -> None:
    code = "import sys, minis.ui.controller; print('arcade' in sys.modules or 'pyglet' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "False"


def test_messages_name_units_by_their_cards_not_their_ids(tmp_path: Path) -> None:
    control = standard(tmp_path, [1, 2], axis=("mauser-kar-98k", "mauser-kar-98k"))
    answer(control, "Axis first")
    answer(control, "West")
    for unit_id in ("mauser-kar-98k", "mauser-kar-98k#2"):
        assert control.act(A.Deploy(unit_id, at(control, "A1"), None))
        assert "mauser-kar-98k" not in control.message and "Mauser Kar 98k" in control.message
    control.act(A.Deploy("mauser-kar-98k", at(control, "J10"), None))  # refused: not in the zone
    assert control.message_bad and "mauser-kar-98k" not in control.message
    refused = control.act(A.Deploy("m4a1-sherman", at(control, "A2"), Facing.E))  # not the Axis's unit
    assert not refused and "m4a1-sherman" not in control.message and "M4A1 Sherman" in control.message


def test_an_abilitys_own_action_is_offered_in_plain_words(tmp_path: Path) -> None:
    """The measured demo offered "Use headshot m4a1-sherman": the ability's name and the target's card."""
    control = standard(tmp_path, [1, 2], axis=("wehrmacht-expert-sniper",))
    words = control.texts.use(A.Use("wehrmacht-expert-sniper", "headshot", ("m4a1-sherman",)))
    assert words == "Headshot: M4A1 Sherman"
    assert control.texts.use(A.Use("wehrmacht-expert-sniper", "headshot")) == "Headshot"
