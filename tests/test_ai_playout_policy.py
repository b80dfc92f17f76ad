"""The search's playout policy (issue 35): the heuristic, deciding from what it already worked out.

The small seeded tests run in `make test`; the paired strength run (the search with this policy
against the search with the heuristic as its policy, the same seeds and armies, sides swapped) is
behind `--slow`: `pytest --slow -s tests/test_ai_playout_policy.py -k strength` prints its figures
(docs/ai.md, "The playout policy").
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Mapping
from pathlib import Path

import pytest

from minis.ai import playout_policy
from minis.ai.army_maker import make_army
from minis.ai.bot import Bot, BotFactory, view
from minis.ai.heuristic import HeuristicBot
from minis.ai.playout_policy import PlayoutBot
from minis.ai.search import SearchBot, heuristic_policy
from minis.ai.search import playout_policy as search_playout_policy
from minis.ai.twins import TwinPairs, play_twin_pairs
from minis.army import load_army
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.commands.match import wilson
from minis.commands.simulate import DEFAULT_TURN_LIMIT
from minis.content.rule_sets import RULEBOOK, named
from minis.dice import Dice
from minis.engine import actions as A
from minis.game import Game
from minis.state import Phase, Stage

ROOT = Path(__file__).resolve().parent.parent


def _game(seed: int, configuration: int, turn_limit: int = 3) -> Game:
    return Game.new(
        load_army(ROOT / "armies" / "sample-axis.toml"),
        load_army(ROOT / "armies" / "sample-allies.toml"),
        configuration=configuration,
        dice=Dice(seed=seed),
        turn_limit=turn_limit,
    )


def test_the_search_plays_its_playouts_with_the_playout_policy() -> None:
    bot = SearchBot(1, workers=0, playouts=4)
    assert bot.policy is search_playout_policy and isinstance(bot.proposer, PlayoutBot)


@pytest.mark.parametrize("configuration", [1, 4])
def test_its_candidates_are_the_heuristic_s_at_every_decision(configuration: int) -> None:
    """The search's candidates (`candidates`) are listed afresh: ranked exactly as the heuristic ranks."""
    game = _game(configuration, configuration, turn_limit=2)
    mover = HeuristicBot(configuration)
    checked = 0
    while game.decider() is not None:
        side = game.decider()
        assert side is not None
        seen = view(game, side, 5)
        if game.state.phase is not Phase.SETUP and checked < 40:
            ours, theirs = PlayoutBot(9).candidates(seen, 8), HeuristicBot(9).candidates(seen, 8)
            assert ours == theirs
            checked += 1
        game.apply(mover.choose(seen))
    assert checked == 40


def test_in_a_playout_it_lists_fewer_units_and_every_action_is_legal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole seeded games of the policy on both sides, on the game itself (as a playout plays): every
    action it plays is accepted, and it asks the engine for a unit's options about half as often."""
    listings = {"count": 0}
    unit_options = Game.unit_options

    def counted(self: Game, *args: object, **kwargs: object) -> object:
        listings["count"] += 1
        return unit_options(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Game, "unit_options", counted)
    asked = {}
    for name, factory in (("heuristic", HeuristicBot), ("playout", PlayoutBot)):
        listings["count"] = 0
        decisions = 0
        for configuration in (2, 5):
            game = _game(configuration, configuration)
            bots = {side: factory(configuration * 10 + i) for i, side in enumerate(Side)}
            while game.decider() is not None:
                side = game.decider()
                assert side is not None
                game.apply(bots[side].choose(game))  # an illegal action would raise here
                decisions += 1 if game.state.phase is not Phase.SETUP else 0
        asked[name] = listings["count"] / decisions
    assert asked["playout"] < 0.6 * asked["heuristic"]  # about half (its moves priced again after hits)


def test_a_kept_score_is_played_only_while_the_engine_lists_it() -> None:
    """A unit's kept move whose destination a friend has since filled is scored afresh, not played."""
    game = _game(3, 1)
    bot = PlayoutBot(3)
    while game.state.stage is not Stage.ACT or game.state.phase is not Phase.MOVEMENT:
        side = game.decider()
        assert side is not None
        game.apply(HeuristicBot(3).choose(view(game, side, 3)))
    first = bot.choose(game)
    kept = {uid: entry for uid, entry in bot._kept.items() if entry is not None and entry.best_other}
    assert kept, "the bot keeps the units' scored options between actions"
    for uid, entry in kept.items():  # every kept move is still listed by the engine now
        action = entry.best_other[0] if entry.best_other else None
        if isinstance(action, A.Move) and A.acting_unit(first) != uid:
            assert playout_policy._listed(game, uid, action)


@pytest.mark.parametrize(("seed", "rules"), [(1, None), (2, "2008"), (3, "2010")])
def test_on_computer_built_armies_every_action_it_plays_is_legal(seed: int, rules: str | None) -> None:
    """Armies of many abilities (and aircraft from 2008 on): the policy on both sides, on the game itself
    as in a playout, with its listings shared between the games of the process; any action it played
    that the engine refuses would raise."""
    rng = random.Random(seed)
    rule_set = named(rules) if rules is not None else None
    limits = rule_set if rule_set is not None else RULEBOOK
    points = 100 if rule_set is None else limits.point_levels[0]
    cards = card_catalogue()
    armies = [make_army(cards, side, points, rng=rng, rules=limits) for side in Side]
    game = Game.new(*armies, configuration=1 + seed % 6, dice=Dice(seed=seed), turn_limit=4, rules=rule_set)
    bots = {side: PlayoutBot(seed * 10 + i) for i, side in enumerate(Side)}
    played = 0
    while game.decider() is not None:
        side = game.decider()
        assert side is not None
        game.apply(bots[side].choose(game))
        played += 1
    assert played > 50


def test_a_playout_plays_the_same_whatever_the_process_played_before() -> None:
    """Listings are shared between playouts, so they must be the same wherever they were made: a
    playout's value does not hang on the playouts before it (a search with workers hands playouts out
    as the workers come free, so each worker has played others before)."""
    from minis.ai import playout

    game = _game(1, 1, turn_limit=3)
    mover = HeuristicBot(1)
    while game.state.stage is not Stage.ACT or game.state.phase is not Phase.MOVEMENT:
        side = game.decider()
        assert side is not None
        game.apply(mover.choose(view(game, side, 1)))
    side = game.decider()
    assert side is not None
    seen = playout.unpack(playout.pack(view(game, side, 1)))
    action = HeuristicBot(1).choose(seen)
    values = []
    for before in (range(0), range(1, 9)):
        playout_policy._SHARED.clear()
        for seed in before:  # other playouts first, whose listings are then shared
            playout.play(seen, action, seed, search_playout_policy, 200, leaf=0.25)
        values.append(
            [
                playout.play(seen, action, seed, search_playout_policy, 200, leaf=0.25)
                for seed in (40, 41, 42, 43)
            ]
        )
    assert values[0] == values[1] and None not in values[0]


# --- the paired strength run (--slow) ---------------------------------------------------------------------

#: Twin pairs of the strength run, and the playouts a decision of both searches.
STRENGTH_PAIRS = int(os.environ.get("MINIS_POLICY_PAIRS", "24"))
STRENGTH_PLAYOUTS = int(os.environ.get("MINIS_POLICY_PLAYOUTS", "8"))
STRENGTH_SEED = int(os.environ.get("MINIS_POLICY_SEED", "35"))


def paired_games(
    pairs: int, playouts: int, seed: int, *, progress: bool = False
) -> tuple[list[float], tuple[int, int, int]]:
    """Twin games of the search with the playout policy (A) against the search with the heuristic as its
    policy (B): each pair the same configuration (1-6 in turn), computer-built armies, dice and bot
    seeds, A on the Axis side in the first game and on the Allied side in the second. A's scores (a
    win 1, a draw 0.5), and the pairs A won both of, split, lost both of."""

    def bots(a_side: Side, seeds: Mapping[Side, int]) -> dict[Side, Bot]:
        policies: dict[Side, BotFactory] = {a_side: search_playout_policy, a_side.other: heuristic_policy}
        return {
            side: SearchBot(seeds[side], workers=0, playouts=playouts, policy=policies[side]) for side in Side
        }

    def said(pair: int, twin: list[float]) -> None:  # each pair as it ends: a run cut short still tells
        if progress:
            print(f"pair {pair} (configuration {1 + pair % 6}): A scored {twin}", flush=True)

    scores = play_twin_pairs(bots, pairs, seed, DEFAULT_TURN_LIMIT, said)
    pairs_of = TwinPairs.of(scores)
    return scores, (pairs_of.a_won_both, pairs_of.split, pairs_of.b_won_both)


@pytest.mark.slow
def test_strength_the_playout_policy_is_at_least_as_strong() -> None:
    scores, (won, split, lost) = paired_games(STRENGTH_PAIRS, STRENGTH_PLAYOUTS, STRENGTH_SEED, progress=True)
    mean = sum(scores) / len(scores)
    low, high = wilson(mean, len(scores))
    print(
        f"\nsearch(playout policy) vs search(heuristic policy), {STRENGTH_PLAYOUTS} playouts a decision, "
        f"seed {STRENGTH_SEED}: {mean:.2f} over {len(scores)} games, 95% CI [{low:.2f}, {high:.2f}]; "
        f"twin pairs: {won} both won, {split} split, {lost} both lost"
    )
    assert high >= 0.5 and not math.isnan(mean)  # not measurably weaker


def test_in_a_playout_it_chooses_as_the_heuristic_would_but_for_near_ties() -> None:
    """What it keeps is priced again when what the hex values count changed (a hit marks an enemy): at
    nearly every action of seeded games it plays the heuristic's choice, or one the heuristic scores
    within a hundredth of a point of it (ties broken by other draws)."""
    agree = decisions = 0
    for configuration in (1, 3, 5, 6):
        game = _game(configuration, configuration, turn_limit=3)
        bots = {side: PlayoutBot(configuration * 10 + i) for i, side in enumerate(Side)}
        while game.decider() is not None:
            side = game.decider()
            assert side is not None
            bot = bots[side]
            chosen = bot.choose(game)
            state = game.state
            if state.stage is Stage.ACT and state.phase in (Phase.MOVEMENT, Phase.ASSAULT):
                ranked = HeuristicBot(bot.seed).candidates(game, 4)
                decisions += 1
                agree += any(action == chosen and value > ranked[0][1] - 0.01 for action, value in ranked)
            game.apply(chosen)
    assert decisions > 200 and agree >= 0.94 * decisions  # 98% here; 91% when moves kept past a hit
