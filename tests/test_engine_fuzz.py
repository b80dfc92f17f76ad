"""Random play across the six configurations with random armies: invariants after every action.

After every action: stacking limits, no unit where it can't be, counters consistent with the rules,
exactly one decider, listed legal actions apply (a sample of each list), and at the end the record
replays to the identical state. MINIS_FUZZ_GAMES sets the number of games (default 200).
"""

from __future__ import annotations

import os
import random

import pytest
from engine_support import check_invariants, random_army

from minis.actions import Action, Pass
from minis.ai.random_bot import RandomBot
from minis.dice import Dice
from minis.game import Game
from minis.record import parse_record, record_text, replay_record
from minis.rules.errors import IllegalAction
from minis.sides import Side
from minis.state import Scenario, Stage

GAMES = int(os.environ.get("MINIS_FUZZ_GAMES", "200"))
BATCHES = 10
SAMPLE = 2


def play_checked(seed: int) -> Game:
    rng = random.Random(seed)
    axis, allies = random_army(rng, Side.AXIS), random_army(rng, Side.ALLIES)
    if seed % 5 == 4:
        attacker = rng.choice([Side.AXIS, Side.ALLIES])
        game = Game.new(axis, allies, scenario=Scenario.ASSAULT, attacker=attacker, dice=Dice(seed=seed),
                        turn_limit=12)
    else:
        game = Game.new(axis, allies, configuration=seed % 6 + 1, dice=Dice(seed=seed), turn_limit=15)
    bot = RandomBot(seed)
    check_invariants(game)
    while game.decider() is not None:
        listed = _listed(game, rng)
        assert listed, f"{game.decider()} must decide but has no legal action"
        for action in rng.sample(listed, min(SAMPLE, len(listed))):
            try:
                game.copy().apply(action)
            except IllegalAction as error:  # pragma: no cover - a failure message
                pytest.fail(f"listed action {game.format(action)} refused: {error.reason}")
        game.apply(bot.choose(game))
        check_invariants(game)
    return game


def _listed(game: Game, rng: random.Random) -> list[Action]:
    """The legal actions to sample from: all of them, or one ready unit's (and pass/ready) when the
    full list is long (every unit's moves in every facing)."""
    stage = game.state.stage
    if stage not in (Stage.ACT, Stage.DEPLOY):
        return game.legal_actions()
    units = game.ready_units()
    listed = game.legal_actions(rng.choice(units)) if units else []
    if stage is Stage.ACT:
        return [*listed, Pass()]
    return listed or game.legal_actions()


@pytest.mark.parametrize("batch", range(BATCHES))
def test_random_games_keep_the_invariants_and_replay(batch: int) -> None:
    for seed in range(batch, GAMES, BATCHES):
        game = play_checked(seed)
        assert game.over
        replayed = replay_record(parse_record(record_text(game)))
        assert replayed.state.snapshot() == game.state.snapshot(), f"seed {seed}: replay differs"
