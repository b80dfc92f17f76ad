"""A scenario's preset units (`[[units]]`): checked against the rules on every map the scenario can be
played on, placed once the map is known (after the map roll or the defender's choice), left where the
designer put them unless `deploy = true`, and not counted for points (docs/scenarios.md)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minis.army import Army
from minis.base.errors import MinisError
from minis.base.sides import Side
from minis.cli import main
from minis.dice import Dice
from minis.engine import actions as A
from minis.engine.scenario import SCENARIOS_DIR, dump_scenario, load_scenario, parse_scenario_doc, start_game
from minis.game import Game
from minis.rules.errors import IllegalAction
from minis.rules.stacking import overstacked
from minis.rules.victory import winner_at_end_of_turn
from minis.state import Stage

AXIS = Army("Axis", Side.AXIS, units=("mauser-kar-98k",))
ALLIES = Army("Allies", Side.ALLIES, units=("m1-garand-rifle",))

HEAD = """kind = "scenario"
title = "Presets"
map = {map}

[axis]
points = 100
end = "west"

[allies]
points = 100

[[victory]]
kind = "points"
from_turn = 10
"""


def preset(side: str, card: str, at: str, *extra: str) -> str:
    """A `[[units]]` table (Vehicles get a facing)."""
    facing = 'facing = "E"\n' if card in ("tiger-i", "m4a1-sherman", "sd-kfz-251") else ""
    return f'\n[[units]]\nside = "{side}"\ncard = "{card}"\nat = "{at}"\n{facing}' + "".join(
        f"{line}\n" for line in extra
    )


def scenario_file(tmp_path: Path, *units: str, map_: str = "1", head: str = HEAD) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(head.format(map=map_) + "".join(units))
    return path


def problems(path: Path) -> list[str]:
    with pytest.raises(MinisError) as raised:
        load_scenario(path)
    assert raised.value.exit_code == 1
    return [str(p).replace(f"{path.parent}/", "") for p in raised.value.problems]


def edit_check(path: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["edit", "--check", str(path)])
    return code, out.getvalue(), err.getvalue()


def line_of(path: Path, table: int, key: str = "at") -> int:
    """The line of `key` in the `table`-th `[[units]]` table (from 0) of a file."""
    lines = path.read_text().splitlines()
    starts = [i for i, line in enumerate(lines) if line == "[[units]]"]
    return next(i for i in range(starts[table], len(lines)) if lines[i].startswith(f"{key} =")) + 1


# --- checked against the rules ---------------------------------------------------------------------------
def test_minis_edit_check_refuses_three_tigers_in_one_hex(tmp_path: Path) -> None:
    path = scenario_file(tmp_path, *(preset("axis", "tiger-i", "A1") for _ in range(3)))
    code, out, err = edit_check(path)
    stacking = "no room for Tiger I in A1: a hex holds at most two units of each army and one Vehicle in all"
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        f"{path}:{line_of(path, table)}:1: {stacking} (the stacking limit)" for table in (1, 2)
    ]


def test_the_stacking_limit_counts_each_army_and_vehicles_of_both(tmp_path: Path) -> None:
    path = scenario_file(
        tmp_path,
        preset("axis", "mauser-kar-98k", "F8"),
        preset("axis", "pak-38-anti-tank-gun", "F8"),
        preset("allies", "m1-garand-rifle", "F8"),
        preset("allies", "m4a1-sherman", "F8"),  # two of each army, one Vehicle: full but legal
        preset("axis", "tiger-i", "F9"),
        preset("allies", "m4a1-sherman", "F9"),  # a second Vehicle, of the other army
        preset("axis", "mauser-kar-98k", "F8"),  # a third Axis unit
    )
    assert [p.split(": ", 1)[0] for p in problems(path)] == [
        f"s.toml:{line_of(path, 5)}:1",
        f"s.toml:{line_of(path, 6)}:1",
    ]


def test_a_preset_on_a_rolled_map_must_fit_every_configuration(tmp_path: Path) -> None:
    # C13 is a pond on configuration 1, marsh on 2 and 5, clear on the others; Z3 is on no map
    path = scenario_file(
        tmp_path, preset("axis", "tiger-i", "C13"), preset("allies", "bazooka", "Z3"), map_='"roll"'
    )
    hint = "(hint: choose a hex that suits every configuration (minis map show N), or name the map)"
    rolled = "(a die picks the map: a preset unit must fit on all six)"
    assert problems(path) == [
        f"s.toml:{line_of(path, 0)}:1: Tiger I can't be in C13: pond is impassable to it "
        f"on configuration 1 {rolled} {hint}",
        f"s.toml:{line_of(path, 0)}:1: Tiger I can't be in C13: marsh is impassable to it "
        f"on configurations 2 and 5 {rolled} {hint}",
        f"s.toml:{line_of(path, 1)}:1: Z3 is off the map: rows run from A to K",
    ]


def test_problems_of_a_preset_point_at_its_own_table_when_one_before_is_dropped(tmp_path: Path) -> None:
    path = scenario_file(tmp_path, preset("axsi", "mauser-kar-98k", "A1"), preset("axis", "tiger-i", "C13"))
    found = problems(path)
    assert found[0].startswith(f"s.toml:{line_of(path, 0, 'side')}:1: unknown side 'axsi'")
    assert found[1] == f"s.toml:{line_of(path, 1)}:1: Tiger I can't be in C13: pond is impassable to it"


CARDS = ("mauser-kar-98k", "pak-38-anti-tank-gun", "tiger-i", "m1-garand-rifle", "m4a1-sherman")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(CARDS), st.sampled_from(("F8", "F9", "G8"))), max_size=7))
def test_presets_that_pass_the_check_are_all_placed_within_the_stacking_limit(
    tmp_path: Path, units: list[tuple[str, str]]
) -> None:
    tables = [preset("axis" if card in CARDS[:3] else "allies", card, at) for card, at in units]
    path = scenario_file(tmp_path, *tables)
    try:
        scenario = load_scenario(path)
    except MinisError as error:
        lines = {line_of(path, table) for table in range(len(units))}
        assert all(p.line in lines and "stacking limit" in p.message for p in error.problems)
        return
    game = start_game(scenario, AXIS, ALLIES, dice=Dice.scripted([2]))
    assert len(game.state.on_map()) == len(units)  # the armies are not deployed yet
    assert overstacked(game.state) == []


# --- placed once there is a map ------------------------------------------------------------------------
@pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
def test_a_preset_on_a_rolled_map_is_placed_after_the_roll(tmp_path: Path, die: int) -> None:
    path = scenario_file(tmp_path, preset("axis", "pak-38-anti-tank-gun", "F8", 'id = "gun"'), map_='"roll"')
    game = start_game(load_scenario(path), AXIS, ALLIES, dice=Dice.scripted([die, 2]))
    gun = game.state.units["gun"]
    assert game.state.configuration == die and game.label(gun.hex) == "F8" and gun.side is Side.AXIS
    # the same dice as a battle without presets: the map roll, then the coin
    assert [entry.dice for entry in game.record] == [(die, 2)] and game.state.stage is Stage.CHOOSE_FIRST


def test_a_preset_on_a_chosen_map_is_placed_after_the_defenders_choice(tmp_path: Path) -> None:
    head = """kind = "scenario"
title = "Village"
map = {map}
objective = "choose"

[attacker]
side = "axis"
points = 100

[defender]
points = 100
zone = "half"

[[victory]]
kind = "hold"
turn = 10
"""
    path = scenario_file(tmp_path, preset("defender", "m1-garand-rifle", "F8"), map_='"choose"', head=head)
    game = start_game(load_scenario(path), AXIS, ALLIES, dice=Dice.scripted())
    assert game.state.stage is Stage.CHOOSE_CONFIGURATION and not game.state.presets
    game.apply("configuration 4")
    (gun,) = (game.state.units[name] for name in game.state.presets)
    assert (gun.card.id, gun.side, game.label(gun.hex)) == ("m1-garand-rifle", Side.ALLIES, "F8")


# --- presets stay put unless deploy = true ---------------------------------------------------------------
def deploying_axis(path: Path, axis: Army = AXIS) -> Game:
    game = start_game(load_scenario(path), axis, ALLIES, dice=Dice.scripted([2]))  # the coin: the Axis
    game.apply("first axis")
    assert game.state.stage is Stage.DEPLOY and game.decider() is Side.AXIS
    return game


def test_the_engine_refuses_to_redeploy_a_preset(tmp_path: Path) -> None:
    path = scenario_file(tmp_path, preset("axis", "tiger-i", "F8", 'id = "tiger"'))
    game = deploying_axis(path)
    for action in ("deploy tiger B2", "deploy tiger F8 face NE"):
        with pytest.raises(IllegalAction, match="tiger was placed by the scenario and stays where it is"):
            game.apply(action)
    assert not [a for a in game.legal_actions() if getattr(a, "unit", "") == "tiger"]
    tiger = game.state.units["tiger"]
    assert game.label(tiger.hex) == "F8" and tiger.facing is not None and tiger.facing.name == "E"


def test_a_preset_soldier_may_not_board_a_transport_during_deployment(tmp_path: Path) -> None:
    path = scenario_file(tmp_path, preset("axis", "mauser-kar-98k", "B2", 'id = "rifle"'))
    game = deploying_axis(path, Army("Axis", Side.AXIS, units=("sd-kfz-251",)))
    game.apply("deploy sd-kfz-251 B2")
    with pytest.raises(IllegalAction, match="rifle was placed by the scenario"):
        game.apply("board rifle sd-kfz-251")
    assert not [a for a in game.legal_actions() if isinstance(a, A.BoardTransport)]


def test_deploy_true_lets_its_player_deploy_it_again(tmp_path: Path) -> None:
    path = scenario_file(tmp_path, preset("axis", "tiger-i", "F8", 'id = "tiger"', "deploy = true"))
    doc = load_scenario(path).doc
    assert doc.units[0].deploy and parse_scenario_doc(dump_scenario(doc)) == doc
    assert dump_scenario(doc).endswith('facing = "E"\ndeploy = true\n')
    game = deploying_axis(path)
    game.apply("deploy tiger B2 face NE")
    tiger = game.state.units["tiger"]
    assert game.label(tiger.hex) == "B2" and tiger.facing is not None and tiger.facing.name == "NE"


def test_the_window_does_not_pick_up_a_preset(driver: Any, tmp_path: Path) -> None:
    from minis.ui.battle import BattleScreen
    from minis.ui.session import Session

    breakout = load_scenario(SCENARIOS_DIR / "breakout.toml")
    game = start_game(breakout, AXIS, ALLIES, dice=Dice.scripted([5]))  # the coin: the Allies
    session = Session(game, saves=tmp_path)
    for action in ("first allies", "deploy m1-garand-rifle A1", "ready"):
        session.apply(action)
    screen = BattleScreen(driver.window, session, handed_over=Side.AXIS)
    driver.window.open(screen)
    driver.frame()
    assert screen.controller.selected == "mauser-kar-98k" and screen.controller.deployment.listed() == [
        "mauser-kar-98k"
    ]
    board = screen.state.board
    for label in ("E12", "E11", "E13"):  # the rifle to E12, then a click on the gun, then elsewhere
        driver.click(*screen.map.hex_centre_on_screen(board.parse(label)))
        assert screen.controller.selected != "bridge-gun"
    assert screen.message.text == "Choose a unit to deploy first (the list on the right)."
    assert board.label(screen.state.units["bridge-gun"].hex) == "E11"
    assert board.label(screen.state.units["mauser-kar-98k"].hex) == "E12"


# --- points ---------------------------------------------------------------------------------------------
def test_presets_do_not_count_for_points(tmp_path: Path) -> None:
    path = scenario_file(tmp_path, preset("allies", "m4a1-sherman", "F12", 'id = "sherman"'))
    game = deploying_axis(path)
    for action in ("deploy mauser-kar-98k B2", "ready", "deploy m1-garand-rifle F14", "ready"):
        game.apply(action)
    state = game.state
    state.turn = 10
    # a 3-point rifle against a 4-point rifle: the free Sherman does not make it 3 to 25
    assert winner_at_end_of_turn(state) == (Side.ALLIES, "points on the map 3 to 4 (Axis to Allies)")
    state.update("m1-garand-rifle", hex=None, removed=True)
    state.update("sherman", hex=None, removed=True)  # destroying a preset does not count either
    assert winner_at_end_of_turn(state) == (Side.AXIS, "points on the map 3 to 0 (Axis to Allies)")
