"""The leaf evaluations of a search playout's end: the hand-set one and the learned one (issue 35).

Both score the same turn-end positions of two seeded heuristic games, for both sides, in a fresh
process's caches (the hand-set one keeps its hex values between calls, `scoring.Evaluator.shared`; the
learned one works its features out at every call). Run with `make bench`; nothing here asserts a time.
"""

from __future__ import annotations

import random

from minis.ai import learned, playout
from minis.ai.army_maker import make_army
from minis.ai.bot import play_out
from minis.ai.heuristic import HeuristicBot
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.dice import Dice
from minis.game import Game
from minis.mapfile import load_configuration
from minis.state import GameState, Stage


def _turn_ends() -> list[GameState]:
    found: list[GameState] = []
    for seed in (1, 2):
        game = Game.new(
            make_army(card_catalogue(), Side.AXIS, 100, rng=random.Random(seed), worth={}),
            make_army(card_catalogue(), Side.ALLIES, 100, rng=random.Random(100 + seed), worth={}),
            configuration=seed,
            dice=Dice(seed=seed),
            turn_limit=30,
            load_board=load_configuration,
        )

        def note(game: Game) -> None:
            state = game.state
            if state.stage is not Stage.OVER and (not found or found[-1].turn != state.turn):
                found.append(state.clone())

        play_out(game, {Side.AXIS: HeuristicBot(seed), Side.ALLIES: HeuristicBot(seed + 1)}, after=note)
    return found


POSITIONS = _turn_ends()


def test_bench_hand_set_leaf(benchmark) -> None:
    def every() -> float:
        return sum(playout.leaf_value(s, side, 0.25, "hand") for s in POSITIONS for side in Side)

    benchmark(every)


def test_bench_learned_leaf(benchmark) -> None:
    assert learned.shipped_model() is not None

    def every() -> float:
        return sum(playout.leaf_value(s, side, 0.25, "learned") for s in POSITIONS for side in Side)

    benchmark(every)
