"""Random play under every named rule set (issue 20): invariants after every action, records replaying.

The 2005 set's random games are `test_engine_fuzz.py`'s; here each later set plays its own, over the six
configurations and the Assault, with random armies within the set's limits (any number of units from
2008 on), a sample of the legal actions tried at some decisions, and the stacking invariant of the set
(`engine_support.check_invariants` asks `state.rules`). Each game's record replays to the identical
state under the set its header names. MINIS_RULE_SETS_FUZZ_GAMES sets the games per set (default 200).
"""

from __future__ import annotations

import os
import random
import time

import pytest
from engine_support import check_invariants, random_army

from minis.ai.random_bot import RandomBot
from minis.base.sides import Side
from minis.content.rule_sets import NAMED, RuleSet
from minis.dice import Dice
from minis.engine.actions import Action, Pass
from minis.game import Game
from minis.record import parse_record, record_text, replay_record
from minis.rules.errors import IllegalAction
from minis.state import BattleKind, Phase, Stage

GAMES = int(os.environ.get("MINIS_RULE_SETS_FUZZ_GAMES", "200"))
SETS = tuple(name for name in NAMED if name != "2005")  # 2005: test_engine_fuzz.py
BATCHES = 4
SAMPLE = 1  # listed actions tried on a copy at each checked decision
LIST_EVERY = 6  # in movement and assault phases, the legal list is checked at every sixth decision
TURN_LIMIT = 10  # the Standard's points victory comes at the end of turn 10


def play_checked(seed: int, rules: RuleSet) -> tuple[Game, int]:
    """A random game under `rules`, its invariants checked after every action; the game and how many
    decisions it took."""
    rng = random.Random(seed)
    most = rules.max_units if rules.max_units is not None else 1000
    axis, allies = (random_army(rng, side, max_units=most) for side in (Side.AXIS, Side.ALLIES))
    if seed % 7 == 6:
        attacker = rng.choice([Side.AXIS, Side.ALLIES])
        game = Game.new(
            axis,
            allies,
            scenario=BattleKind.ASSAULT,
            attacker=attacker,
            dice=Dice(seed=seed),
            turn_limit=TURN_LIMIT,
            rules=rules,
        )
    else:
        configuration = seed % 6 + 1
        game = Game.new(
            axis,
            allies,
            configuration=configuration,
            dice=Dice(seed=seed),
            turn_limit=TURN_LIMIT,
            rules=rules,
        )
    assert game.state.rules == rules
    bot = RandomBot(seed)
    check_invariants(game)
    decisions = 0
    while game.decider() is not None:
        decisions += 1
        if decisions % LIST_EVERY == 0 or game.state.stage not in (Stage.ACT, Stage.DEPLOY):
            listed = _listed(game, rng)
            assert listed, f"{game.decider()} must decide but has no legal action"
            for action in rng.sample(listed, min(SAMPLE, len(listed))):
                try:
                    game.copy().apply(action)
                except IllegalAction as error:  # pragma: no cover - a failure message
                    pytest.fail(f"seed {seed}: listed action {game.format(action)} refused: {error.reason}")
        game.apply(bot.choose(game))
        check_invariants(game)
    return game, decisions


def _listed(game: Game, rng: random.Random) -> list[Action]:
    """The legal actions to sample from: all of them, or one ready unit's (and pass) when the full list
    is long (every unit's moves in every facing). In the flight phase, all of them: whether a player
    may pass there depends on the set's aircraft placement."""
    stage = game.state.stage
    if stage not in (Stage.ACT, Stage.DEPLOY) or game.state.phase is Phase.FLIGHT:
        return game.legal_actions()
    units = game.ready_units()
    listed = game.legal_actions(rng.choice(units)) if units else []
    if stage is Stage.ACT:
        return [*listed, Pass()]
    return listed or game.legal_actions()


@pytest.mark.parametrize("batch", range(BATCHES))
@pytest.mark.parametrize("name", SETS)
def test_random_games_under_a_rule_set_keep_the_invariants_and_replay(name: str, batch: int) -> None:
    rules = NAMED[name]
    started = time.perf_counter()
    penalties = 0
    for seed in range(batch, GAMES, BATCHES):
        game, _ = play_checked(seed, rules)
        assert game.over
        penalties += sum(1 for entry in game.record if (entry.action or "").startswith("penalty "))
        text = record_text(game)
        assert f'rules = "{name}"' in text.split("---")[0], "the record's header names the set"
        replayed = replay_record(parse_record(text))
        assert replayed.state.rules == rules, f"seed {seed}: replayed under {replayed.state.rules.title}"
        assert replayed.state.snapshot() == game.state.snapshot(), f"seed {seed}: replay differs"
    # the random bots overstack now and then: the end-of-phase penalty is played in these games too
    assert penalties > 0 or GAMES < 40, "no overstack penalty in any game"
    print(f"{name} batch {batch}: {time.perf_counter() - started:.1f} s, {penalties} overstack penalties")
