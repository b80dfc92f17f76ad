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

from minis.ai.random_bot import RandomBot
from minis.base.sides import Side
from minis.dice import Dice
from minis.engine.actions import Action, Pass
from minis.game import Game
from minis.record import parse_record, record_text, replay_record
from minis.rules.errors import IllegalAction
from minis.state import BattleKind, Stage

GAMES = int(os.environ.get("MINIS_FUZZ_GAMES", "200"))
BATCHES = 10
SAMPLE = 2  # listed actions tried on a copy at each checked decision
LIST_EVERY = 2  # in movement and assault phases, check every second decision (listing is the slow part)


def play_checked(seed: int) -> Game:
    rng = random.Random(seed)
    axis, allies = random_army(rng, Side.AXIS), random_army(rng, Side.ALLIES)
    if seed % 5 == 4:
        attacker = rng.choice([Side.AXIS, Side.ALLIES])
        game = Game.new(
            axis, allies, scenario=BattleKind.ASSAULT, attacker=attacker, dice=Dice(seed=seed), turn_limit=12
        )
    else:
        game = Game.new(axis, allies, configuration=seed % 6 + 1, dice=Dice(seed=seed), turn_limit=15)
    bot = RandomBot(seed)
    check_invariants(game)
    decisions = 0
    while game.decider() is not None:
        decisions += 1
        if decisions % LIST_EVERY == 0 or game.state.stage is not Stage.ACT:
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


def test_every_listed_action_applies_at_random_positions() -> None:
    """At random decisions of a few games, every action of the full legal list is applied on a copy."""
    checked = 0
    for seed in range(1000, 1004):
        rng = random.Random(seed)
        axis, allies = random_army(rng, Side.AXIS), random_army(rng, Side.ALLIES)
        game = Game.new(axis, allies, configuration=seed % 6 + 1, dice=Dice(seed=seed), turn_limit=12)
        bot = RandomBot(seed)
        while game.decider() is not None:
            if game.state.stage is not Stage.DEPLOY and rng.random() < 0.03:
                for action in game.legal_actions():
                    try:
                        game.copy().apply(action)
                    except IllegalAction as error:  # pragma: no cover - a failure message
                        pytest.fail(
                            f"seed {seed}: listed action {game.format(action)} refused: {error.reason}"
                        )
                    checked += 1
            game.apply(bot.choose(game))
    assert checked > 500
