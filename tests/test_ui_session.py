"""`minis.ui.session`: undo, the log, saves and autosaves, without a window."""

from __future__ import annotations

from pathlib import Path

import pytest

from minis.army import Army
from minis.base.errors import MinisError
from minis.base.sides import Side
from minis.dice import Dice
from minis.engine import actions as A
from minis.game import Game
from minis.rules.errors import IllegalAction
from minis.ui.session import AUTOSAVE, Session


def new_session(tmp_path: Path, *dice: int) -> Session:
    axis = Army("Axis", Side.AXIS, units=("panzer-iv-ausf-g", "mauser-kar-98k"))
    allies = Army("Allies", Side.ALLIES, units=("m4a1-sherman", "bazooka"))
    game = Game.new(axis, allies, configuration=1, dice=Dice.scripted(dice or (2,)))
    return Session(game, saves=tmp_path)


def deployed(tmp_path: Path) -> Session:
    session = new_session(tmp_path, 2)
    for action in ("first axis", "end west", "deploy panzer-iv-ausf-g F5 face E", "deploy mauser-kar-98k D5"):
        session.apply(action)
    session.apply("ready")
    session.apply("deploy m4a1-sherman F13 face W")
    session.apply("deploy bazooka H14")
    session.game.dice.push([6, 6, 1, 1])
    session.apply("ready")
    session.apply("first axis")
    return session


def test_undo_takes_back_a_deployment_and_its_record_line(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    session.apply("first axis")
    session.apply("end west")
    before = session.game.state.snapshot()
    lines = session.log_lines()
    session.apply("deploy panzer-iv-ausf-g F5 face E")
    assert session.can_undo and session.undo_text == "deploy panzer-iv-ausf-g F5 face E"
    assert session.undo() == "deploy panzer-iv-ausf-g F5 face E"
    assert session.game.state.snapshot() == before and session.log_lines() == lines
    assert session.undo_text == "end west"  # the Axis player chose the end too: that can go back as well


def test_several_undoable_actions_come_back_one_by_one(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    session.apply("first axis")
    start = session.game.state.snapshot()
    session.apply("end west")
    session.apply("deploy panzer-iv-ausf-g F5 face E")
    session.undo()
    session.undo()
    assert session.game.state.snapshot() == start and session.log_lines()[-1] == "first axis"


def test_no_undo_after_dice_or_a_question_to_the_other_player(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    session.apply("first axis")
    session.apply("end west")
    session.apply("deploy panzer-iv-ausf-g F5 face E")
    session.apply("deploy mauser-kar-98k D5")
    session.apply("ready")  # the Allies deploy next: the other player is asked
    assert not session.can_undo
    game = deployed(tmp_path).game
    session = Session(game, saves=tmp_path)
    session.apply("pass")
    assert not session.can_undo  # it handed the game to the Allies
    session.game.dice.push([5])
    session.apply("move m4a1-sherman F12 F11 F10")
    assert not session.can_undo  # a movement roll was made
    assert session.log_lines()[-1] == "move m4a1-sherman F12 F11 F10 | 5"


def test_a_refused_action_changes_nothing(tmp_path: Path) -> None:
    session = deployed(tmp_path)
    before = session.game.state.snapshot()
    with pytest.raises(IllegalAction):
        session.apply(A.Move("bazooka", (session.game.state.board.parse("H13"),)))  # not the Allies' turn
    assert session.game.state.snapshot() == before and session.legal("pass") is None


def test_autosave_at_every_phase_and_a_save_loads_back(tmp_path: Path) -> None:
    session = deployed(tmp_path)
    autosave = tmp_path / AUTOSAVE
    assert autosave.exists()
    count = session.autosaves
    session.apply("pass")  # a new phase
    assert session.autosaves == count + 1
    assert not list(tmp_path.glob(".*.tmp"))  # atomic writes leave no temporary files behind
    saved = session.save(tmp_path / "game.minis")
    loaded = Session.load(saved, saves=tmp_path)
    assert loaded.game.state.snapshot() == session.game.state.snapshot()
    assert loaded.log_lines() == session.log_lines()
    assert any(e.kind == "phase" for e in loaded.events)


def test_a_broken_save_is_a_minis_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.minis"
    bad.write_text("not a record\n", encoding="utf-8")
    with pytest.raises(MinisError):
        Session.load(bad)


def test_an_autosave_that_cannot_be_written_is_reported_not_raised(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    session = deployed(blocker / "saves")  # a folder inside a file: can't be made
    assert session.autosave() is None and session.autosave_error.startswith("autosave failed")
