"""Water hexes (an extension of the Base Set terrain): the map letter, the engine's answers that the rules
tests don't show (legal actions listed, deployment), and the River Crossing scenario played to its end by
two bots of each kind. The rules themselves are in tests/rules/water/ and tests/rules/abilities/
(amphibious-*, collapsible-screen-*, water-craft-*, heavy-transport-*)."""

from __future__ import annotations

import random

import pytest
from engine_support import board, check_invariants, position, unit

from minis.ai.bot import Bot, play_out
from minis.ai.heuristic import HeuristicBot
from minis.ai.random_bot import RandomBot
from minis.army import Army
from minis.base.sides import Side
from minis.dice import Dice
from minis.engine import actions as A
from minis.engine.scenario import SCENARIOS_DIR, Scenario, load_scenario, start_game
from minis.game import Game
from minis.rules.errors import IllegalAction
from minis.state import Stage
from minis.terrain import Terrain

RIVER = board("""
C C W W C C
 C W W C C
""")
RIVER_CROSSING = SCENARIOS_DIR / "river-crossing.toml"


def test_water_is_the_letter_w_and_closed_to_everybody_on_its_own() -> None:
    assert Terrain.from_letter("W") is Terrain.WATER
    effects = Terrain.WATER.effects
    assert not effects.can_enter(vehicle=True) and not effects.can_enter(vehicle=False)
    assert not effects.blocks_sight and effects.cover(True) is None and effects.cover(False) is None
    assert effects.entry_cost(vehicle=True) == 2  # what Amphibious pays once it may enter


def test_the_movement_lists_water_hexes_only_for_those_who_may_enter() -> None:
    game = position(
        RIVER,
        [
            unit(RIVER, "dukw", "dukw", "allies", "A2"),
            unit(RIVER, "sherman", "early-m4a1-sherman", "allies", "B1"),
            unit(RIVER, "boat", "higgins-boat", "allies", "B3"),
        ],
    )
    moves = {}
    for unit_id in ("dukw", "sherman", "boat"):
        options = game.unit_options(unit_id)
        assert options is not None
        moves[unit_id] = sorted(RIVER.label(h) for h in options.moves)
    assert moves["dukw"] == ["A1", "A3", "A4", "B2"]  # B3 holds the boat (one Vehicle a hex)
    assert moves["sherman"] == ["A1"]  # no water; A2 holds the DUKW
    assert moves["boat"] == ["A3", "A4", "B2"]  # water only


def test_a_soldier_aboard_a_boat_is_offered_the_bank_hexes() -> None:
    game = position(
        RIVER,
        [
            unit(RIVER, "boat", "higgins-boat", "allies", "A4"),
            unit(RIVER, "rifle", "smle-no-4-rifleman", "allies", "A4", carried_by="boat"),
        ],
    )
    options = game.unit_options("rifle")
    assert options is not None and options.dismount is None  # not into the water
    assert [RIVER.label(h) for h in options.landings] == ["A5", "B4"]
    assert A.Dismount("rifle", RIVER.parse("A5")) in game.legal_actions()
    with pytest.raises(IllegalAction, match="can't get off in water"):
        game.apply("dismount rifle A4")


def test_a_soldier_on_the_bank_is_offered_the_boat() -> None:
    game = position(
        RIVER,
        [
            unit(RIVER, "boat", "higgins-boat", "allies", "A3"),
            unit(RIVER, "rifle", "smle-no-4-rifleman", "allies", "A2"),
        ],
    )
    options = game.unit_options("rifle")
    assert options is not None and options.boards == ("boat",)
    assert A.BoardTransport("rifle", "boat") in game.legal_actions()


def _river_crossing(seed: int) -> tuple[Scenario, Game]:
    scenario = load_scenario(RIVER_CROSSING)
    axis = Army("Far bank", Side.AXIS, units=("mauser-kar-98k", "mauser-kar-98k", "pak-38-anti-tank-gun"))
    allies = Army("Assault wave", Side.ALLIES, units=("m1-garand-rifle", "m1-garand-rifle"))
    return scenario, start_game(scenario, axis, allies, dice=Dice(seed=seed))


def test_the_river_crossing_puts_the_amphibious_force_on_the_map() -> None:
    scenario, game = _river_crossing(1)
    boat = game.state.units["boat"]
    assert boat.hex is not None and scenario.board is not None
    assert scenario.board.terrain(boat.hex) is Terrain.WATER
    assert {"dukw", "lvt", "sherman-dd", "rifle-1", "rifle-2"} <= set(game.state.units)


@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_the_river_crossing_is_played_to_the_end_by_two_bots(kind: str) -> None:
    _, game = _river_crossing(7)
    # Up to the Allied deployment a bot decides; then the riflemen board the boat from the bank (an
    # ordinary legal action of that deployment), and the bots play the battle out.
    chooser = RandomBot(3)
    while not (game.state.stage is Stage.DEPLOY and game.decider() is Side.ALLIES):
        game.apply(chooser.choose(game))
    game.apply("board rifle-1 boat")
    game.apply("board rifle-2 boat")
    bots: dict[Side, Bot] = (
        {Side.AXIS: RandomBot(1), Side.ALLIES: RandomBot(2)}
        if kind == "random"
        else {Side.AXIS: HeuristicBot(1), Side.ALLIES: HeuristicBot(2)}
    )
    play_out(game, bots, seeds=random.Random(5), after=check_invariants)
    assert game.over
    words = [e.action.split() for e in game.record if e.action is not None]
    moved = {w[1] for w in words if w[0] == "move"}
    assert moved & {"boat", "dukw", "lvt", "sherman-dd"}  # the amphibious force took to the water
