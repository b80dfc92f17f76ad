"""Every speed cache is only a shortcut: games played with and without them are the same games.

Seeded random games (configurations under the 2005 and 2010 rules, the river-crossing scenario with
its water and obstacles, and a heuristic-bot game for the bots' caches) are played twice, with the
caches on and inside `caching.off()`, and every event and the final snapshot must be equal. And the
caches kept on a board die with it (a board no longer used is not held by any cache).
"""

from __future__ import annotations

import gc
import random
import weakref

import pytest
from engine_support import random_army

from minis.ai.heuristic import HeuristicBot
from minis.ai.playout import pack, unpack
from minis.ai.random_bot import RandomBot
from minis.ai.scoring import sight_for
from minis.army import Army
from minis.base.sides import Side
from minis.board import Board
from minis.cards import card_catalogue
from minis.content.rule_sets import named
from minis.dice import Dice
from minis.engine.events import Event
from minis.engine.scenario import SCENARIOS_DIR, load_scenario, start_game
from minis.game import Game
from minis.mapfile import load_configuration
from minis.rules import caching, combat, mapinfo, movement

#: Deployment and a turn or two of moves, fire and assaults: without the caches play is slow.
MAX_ACTIONS = 70


def _configuration_game(seed: int, rules: str) -> Game:
    rng = random.Random(seed)
    axis, allies = random_army(rng, Side.AXIS), random_army(rng, Side.ALLIES)
    return Game.new(
        axis, allies, configuration=seed % 6 + 1, dice=Dice(seed=seed), turn_limit=6, rules=named(rules)
    )


def _river_game(seed: int) -> Game:
    scenario = load_scenario(SCENARIOS_DIR / "river-crossing.toml")
    axis = Army(
        "Far bank",
        Side.AXIS,
        units=("mauser-kar-98k", "mauser-kar-98k", "pak-38-anti-tank-gun", "barbed-wire", "minefield"),
    )
    allies = Army("Assault wave", Side.ALLIES, units=("m1-garand-rifle", "m1-garand-rifle", "m4a1-sherman"))
    assert scenario.army_problems(allies, card_catalogue(), side=Side.ALLIES) == []
    return start_game(scenario, axis, allies, dice=Dice(seed=seed))


def _play(game: Game, bot: RandomBot | HeuristicBot) -> tuple[list[list[Event]], object]:
    """Every action's events and the final snapshot."""
    events = []
    for _ in range(MAX_ACTIONS):
        if game.decider() is None:
            break
        events.append(game.apply(bot.choose(game)))
    return events, game.state.snapshot()


GAMES = [
    *[(f"config-2005-{seed}", lambda s=seed: _configuration_game(s, "2005"), RandomBot) for seed in (1,)],
    *[(f"config-2010-{seed}", lambda s=seed: _configuration_game(s, "2010"), RandomBot) for seed in (4, 5)],
    *[(f"river-{seed}", lambda s=seed: _river_game(s), RandomBot) for seed in (1,)],
    ("heuristic-2005", lambda: _configuration_game(7, "2005"), HeuristicBot),
]


@pytest.mark.parametrize(("name", "make", "bot"), GAMES, ids=[g[0] for g in GAMES])
def test_games_with_and_without_the_caches_are_the_same(name: str, make: object, bot: type) -> None:
    assert callable(make)
    cached = _play(make(), bot(11))
    with caching.off():
        fresh = _play(make(), bot(11))
    assert caching.enabled
    assert len(cached[0]) == len(fresh[0]), name
    for number, (with_caches, without) in enumerate(zip(cached[0], fresh[0], strict=True)):
        assert with_caches == without, f"{name}: action {number} caused different events"
    assert cached[1] == fresh[1], f"{name}: the final positions differ"


def test_off_bypasses_every_board_cache() -> None:
    """Inside `off()` a board's lookups are made afresh; outside they are made once and kept."""
    board = load_configuration(1)
    assert combat._sight_answers(board) is not combat._sight_answers(board)
    assert caching.kept(board, combat._sight_answers) is caching.kept(board, combat._sight_answers)
    with caching.off():
        assert caching.kept(board, combat._sight_answers) is not caching.kept(board, combat._sight_answers)
        assert caching.kept(board, movement.MoveCaches) is not caching.kept(board, movement.MoveCaches)


def test_the_caches_die_with_their_board() -> None:
    """Nothing a cache keeps holds on to a board no longer used (module caches keyed by id(board) did)."""
    source = load_configuration(1)  # kept by the loader: a fresh board of the same map is made here
    board = Board.create({h: source.terrain(h) for h in source.hexes})
    info = mapinfo.info(board)
    movement._step_table(info, True)
    movement._indexed_edges(info, False)
    caching.kept(board, combat._sight_answers)[(board.hexes[0], board.hexes[1])] = True
    sight_for(board)
    assert mapinfo.info(board) is info  # kept while the board lives
    gone = weakref.ref(board)
    del board, info
    gc.collect()
    assert gone() is None


def test_a_board_shipped_to_a_worker_leaves_its_caches_behind() -> None:
    """A position packed for a search worker carries no caches (they would grow with every position)."""
    game = _configuration_game(2, "2005")
    _play(game, RandomBot(2))
    board = game.state.battle.board
    assert board is not None and caching.kept(board, movement.MoveCaches).searches
    shipped = unpack(pack(game)).state.battle.board
    assert shipped is not None and shipped == board
    assert not caching.kept(shipped, movement.MoveCaches).searches
