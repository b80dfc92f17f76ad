"""The aircraft options of the rule sets (issue 20): the shared flight phase of 2008-2010 under play.

Random games with aircraft on both sides under each later set keep the engine's and the air's
invariants after every action and replay identically from their records; in the shared flight phase the
turn passes to the other player after each placement whenever he may place, the player to act always
has something to place, and `pass` is listed only where the set allows it (2010). The heuristic and the
search play such battles to their end (their choices are legal, or the game would refuse them). The
rules themselves, in both states of each option, are the rules tests in `tests/rules/rule-sets/`.
MINIS_RS_AIR_GAMES sets the number of random games per set (default 20).
"""

from __future__ import annotations

import os
import random

import pytest
from test_aircraft_fuzz import AirEagerBot, air_army, check_all

from minis.ai.bot import play_out
from minis.ai.heuristic import HeuristicBot
from minis.ai.random_bot import RandomBot
from minis.ai.search import SearchBot
from minis.army import Army
from minis.base.sides import Side
from minis.content.rule_sets import ALTERNATE, ALTERNATE_WITH_PASS, NAMED, RuleSet
from minis.dice import Dice
from minis.engine import actions as A
from minis.game import Game
from minis.record import parse_record, record_text, replay_record
from minis.rules import air
from minis.state import Phase, Stage

GAMES = int(os.environ.get("MINIS_RS_AIR_GAMES", "20"))
LATER = ("2008", "2009", "2010")
TURNS = 6


def _armies(seed: int) -> tuple[Army, Army]:
    rng = random.Random(seed)
    return air_army(rng, Side.AXIS), air_army(rng, Side.ALLIES)


def _game(seed: int, rules: RuleSet, turns: int = TURNS) -> Game:
    axis, allies = _armies(seed)
    return Game.new(
        axis, allies, configuration=seed % 6 + 1, dice=Dice(seed=seed), turn_limit=turns, rules=rules
    )


def shared_flight_invariants(game: Game) -> None:
    """In a shared flight phase waiting for a placement, the player to act may place, and `pass` is
    listed only where the set allows a player to decline."""
    state = game.state
    if state.phase is not Phase.FLIGHT or state.stage is not Stage.ACT:
        return
    assert state.active is not None
    assert air.may_place(state, state.active), "a player with nothing to place was asked to place"
    passing = A.Pass() in game.legal_actions()
    assert passing == (state.rules.aircraft_placement == ALTERNATE_WITH_PASS), state.rules.name


@pytest.mark.parametrize("name", LATER)
@pytest.mark.parametrize("seed", range(GAMES))
def test_random_games_with_aircraft_under_the_later_sets(name: str, seed: int) -> None:
    rules = NAMED[name]
    game = _game(seed, rules)
    bot = AirEagerBot(seed)
    check_all(game)
    placements = 0
    while game.decider() is not None:
        shared_flight_invariants(game)
        action = bot.choose(game)
        placer = game.state.active
        game.apply(action)
        check_all(game)
        state = game.state
        if isinstance(action, A.Place):
            placements += 1
            assert placer is not None
            if (
                state.phase is Phase.FLIGHT
                and state.stage is Stage.ACT
                and air.may_place(state, placer.other)
            ):
                assert state.active is placer.other, "the turn to place did not pass to the other player"
    assert game.over
    replayed = replay_record(parse_record(record_text(game)))
    assert replayed.state.snapshot() == game.state.snapshot(), f"{name} seed {seed}: replay differs"
    assert replayed.state.rules == rules


@pytest.mark.parametrize("name", LATER)
def test_heuristic_against_random_with_aircraft(name: str) -> None:
    game = _game(11, NAMED[name])
    bots = {Side.AXIS: HeuristicBot(11), Side.ALLIES: RandomBot(11)}
    play_out(game, bots, seeds=random.Random(11), after=check_all)
    assert game.over
    flown = [e.action.split()[1] for e in game.record if e.action and e.action.startswith("place ")]
    assert any(game.state.units[u].side is Side.AXIS for u in flown), "the heuristic never flew"


def test_search_under_2010_plays_to_its_end() -> None:
    game = _game(7, NAMED["2010"], turns=2)
    with SearchBot(7, budget=0.05, workers=0, max_playouts=4) as search:
        play_out(game, {Side.AXIS: search, Side.ALLIES: HeuristicBot(8)}, seeds=random.Random(7))
    assert game.over


def _to_flight(rules: RuleSet) -> Game:
    """A battle with aircraft on both sides, played by random bots until the first flight phase."""
    for seed in range(40):
        game = _game(seed, rules, turns=1)
        bot = RandomBot(seed)
        while game.decider() is not None and not (
            game.state.phase is Phase.FLIGHT and game.state.stage is Stage.ACT
        ):
            game.apply(bot.choose(game))
        if game.state.phase is Phase.FLIGHT:
            return game
    raise AssertionError("no flight phase reached")


def test_pass_is_listed_and_taken_by_the_set() -> None:
    """2005 and 2010 list `pass` in a flight phase; 2008 doesn't, and refuses it in plain words."""
    assert A.Pass() in _to_flight(NAMED["2005"]).legal_actions()
    assert A.Pass() in _to_flight(NAMED["2010"]).legal_actions()
    game = _to_flight(NAMED["2008"])
    assert game.state.rules.aircraft_placement == ALTERNATE
    assert A.Pass() not in game.legal_actions()
    assert "must be placed" in (game.is_legal(A.Pass()) or "")
