"""The Airborne Drop scenario (special deployment): bots play it to the end with Heroes, Paratroopers,
Partisans and Gliderborne units, and the units waiting off the map do come in."""

from __future__ import annotations

import random

import pytest
from engine_support import check_invariants

from minis.ai.bot import view
from minis.ai.heuristic import HeuristicBot
from minis.ai.random_bot import RandomBot, play
from minis.army import Army
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.dice import Dice
from minis.engine.scenario import SCENARIOS_DIR, load_scenario, start_game
from minis.game import Game
from minis.rules import arrivals

AIRBORNE = SCENARIOS_DIR / "airborne-drop.toml"
ALLIES = (
    "screaming-eagle-captain",
    "screaming-eagle-paratroopers",
    "defiant-paratroopers",
    "resourceful-hero",
    "bar-gunner",
    "bar-gunner",
    "m1-garand-rifle",
    "french-resistance-fighter",
    "m22-locust",
    "mk-vii-tetrarch",
    "smle-no-4-rifleman",
)
AXIS = (
    "grizzled-veteran",
    "fallschirmjager",
    "mauser-kar-98k",
    "mauser-kar-98k",
    "volkssturm-infantrymen",
    "werwolf-partisans",
    "werwolf-partisans",
    "panzer-iii-ausf-f",
)


def armies() -> tuple[Army, Army]:
    scenario = load_scenario(AIRBORNE)
    axis = Army("Airborne Axis", Side.AXIS, units=AXIS)
    allies = Army("Airborne Allies", Side.ALLIES, units=ALLIES)
    for army, side in ((axis, Side.AXIS), (allies, Side.ALLIES)):
        assert scenario.army_problems(army, card_catalogue(), side=side) == []
    return axis, allies


def new_game(seed: int) -> Game:
    axis, allies = armies()
    return start_game(load_scenario(AIRBORNE), axis, allies, dice=Dice(seed=seed))


def arrived(game: Game) -> list[str]:
    """The units that started off the map and came in (on the map now, or destroyed after landing)."""
    state = game.state
    return [
        u.id
        for u in state.units.values()
        if arrivals.kind(state, u) in arrivals.LATER and (u.hex is not None or u.removed)
    ]


def test_the_armies_fit_the_scenario_and_wait_off_the_map() -> None:
    game = new_game(1)
    while game.state.stage.value != "initiative" and game.decider() is not None:
        game.apply(RandomBot(1).choose(game))
    waiting = {u.id for u in arrivals.waiting(game.state)}
    assert waiting == {
        "screaming-eagle-captain",
        "screaming-eagle-paratroopers",
        "defiant-paratroopers",
        "resourceful-hero",
        "grizzled-veteran",
        "fallschirmjager",
    }


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_random_bots_play_it_to_the_end(seed: int) -> None:
    game = play(new_game(seed), RandomBot(seed))
    assert game.over and game.winner is not None and game.state.turn <= 8
    assert arrived(game)


def test_two_heuristic_bots_play_it_to_the_end() -> None:
    game = new_game(4)
    bots = {Side.AXIS: HeuristicBot(1), Side.ALLIES: HeuristicBot(2)}
    rng = random.Random(4)
    while (side := game.decider()) is not None:
        game.apply(bots[side].choose(view(game, side, rng.randrange(2**31))))
        check_invariants(game)
    assert game.over and game.winner is not None
    landed = arrived(game)
    assert "screaming-eagle-paratroopers" in landed and "resourceful-hero" in landed
