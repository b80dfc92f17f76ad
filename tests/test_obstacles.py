"""Obstacles and fortifications (issue 16): the army rule, the notation, the set-up, records, and the
River Crossing scenario with the defender's obstacles played to the end by two bots."""

from __future__ import annotations

import random

import pytest
from engine_support import check_invariants

from minis.ai.bot import view
from minis.ai.heuristic import HeuristicBot
from minis.ai.random_bot import RandomBot, play
from minis.army import Army, validate_army
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.dice import Dice
from minis.engine import actions as A
from minis.engine.scenario import SCENARIOS_DIR, load_scenario, start_game
from minis.game import Game
from minis.record import parse_record, record_text, replay_record
from minis.rules import obstacles
from minis.state import Stage

RIVER_CROSSING = SCENARIOS_DIR / "river-crossing.toml"
AXIS = ("mauser-kar-98k", "mauser-kar-98k", "pak-38-anti-tank-gun", "barbed-wire", "barbed-wire", "minefield")
ALLIES = ("m1-garand-rifle", "m1-garand-rifle")


def test_at_most_a_tenth_of_the_points_on_obstacles() -> None:
    cards = card_catalogue()
    fine = Army(
        "a", Side.AXIS, units=("mauser-kar-98k", "minefield", "minefield", "pillbox", "tank-obstacle")
    )
    assert validate_army(fine, cards) == []  # 7 points of obstacles, under 10 of 100
    too_many = Army("a", Side.AXIS, units=(*fine.units, "minefield", "minefield"))
    assert validate_army(too_many, cards) == [
        "obstacles cost 11 points, more than a tenth of the 100-point limit (10 points)"
    ]


def test_the_notation_writes_a_hexside_as_two_hexes() -> None:
    game = Game.new(Army("a", Side.AXIS, units=("barbed-wire",)), Army("b", Side.ALLIES, units=("jeep",)))
    action = game.parse("deploy barbed-wire B2/B3")
    assert isinstance(action, A.Deploy) and action.across is not None
    assert game.format(action) == "deploy barbed-wire B2/B3"


def _river_crossing(seed: int) -> Game:
    scenario = load_scenario(RIVER_CROSSING)
    axis, allies = Army("Far bank", Side.AXIS, units=AXIS), Army("Assault wave", Side.ALLIES, units=ALLIES)
    for army, side in ((axis, Side.AXIS), (allies, Side.ALLIES)):
        assert scenario.army_problems(army, card_catalogue(), side=side) == []
    return start_game(scenario, axis, allies, dice=Dice(seed=seed))


def test_the_scenario_obstacles_are_on_the_map_and_are_not_units() -> None:
    game = _river_crossing(1)
    placed = {o.id: obstacles.where(game.state, o) for o in obstacles.placed(game.state)}
    assert placed == {"mines-north": "C7", "tank-trap": "E7", "mines-south": "G7", "pillbox": "E9"}
    assert not any(u.card.is_obstacle for u in game.state.units.values())


def _place_everything(game: Game, bot: RandomBot) -> None:
    while game.state.stage is not Stage.DEPLOY or obstacles.placing(game.state):
        game.apply(bot.choose(game))
    assert all(o.placed for o in obstacles.all_obstacles(game.state))


@pytest.mark.parametrize("seed", [1, 2])
def test_two_random_bots_play_the_river_crossing_with_obstacles(seed: int) -> None:
    game = _river_crossing(seed)
    _place_everything(game, RandomBot(seed))
    game = play(game, RandomBot(seed))
    assert game.over
    again = replay_record(parse_record(record_text(game)))
    assert again.state.snapshot() == game.state.snapshot()
    assert obstacles.all_obstacles(again.state) == obstacles.all_obstacles(game.state)


def test_two_heuristic_bots_play_the_river_crossing_with_obstacles() -> None:
    game = _river_crossing(5)
    bots = {Side.AXIS: HeuristicBot(1), Side.ALLIES: HeuristicBot(2)}
    rng = random.Random(5)
    while (side := game.decider()) is not None:
        game.apply(bots[side].choose(view(game, side, rng.randrange(2**31))))
        check_invariants(game)
    assert game.over
    wire = [o for o in obstacles.all_obstacles(game.state) if o.card.id == "barbed-wire"]
    assert all(o.across is not None for o in wire)
