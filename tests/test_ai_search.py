"""The search bot (issue 14): legal choices, reproducible seeds, the budget, workers, a clear capture."""

from __future__ import annotations

import math
import multiprocessing
import random
import time
from pathlib import Path
from typing import Any

import pytest
from engine_support import board, check_invariants, position, unit
from hypothesis import given, settings
from hypothesis import strategies as st

from minis.ai import search as search_module
from minis.ai.bot import play_out, view
from minis.ai.heuristic import HeuristicBot
from minis.ai.playout import keyed_dice, pack, placing, play, score, unpack
from minis.ai.random_bot import RandomBot
from minis.ai.search import SearchBot, paired
from minis.army import load_army
from minis.base.sides import Side
from minis.dice import Dice
from minis.engine import actions as A
from minis.game import Game
from minis.state import Counter, GameState, Phase, Stage

ROOT = Path(__file__).resolve().parent.parent
OPEN = board("""
C C C C C C C C C C
 C C C C C C C C C
C C C C C C C C C C
""")


class PassFirst:
    """A policy that ranks passing above every attack (a poor first guess the search must overturn);
    in playouts it plays as the heuristic does."""

    name = "pass-first"

    def __init__(self, seed: int) -> None:
        self.heuristic = HeuristicBot(seed)

    def choose(self, game: Game) -> A.Action:
        return self.heuristic.choose(game)

    def candidates(self, game: Game, k: int) -> list[tuple[A.Action, float]]:
        attacks = [a for a in game.legal_actions() if isinstance(a, A.Attack)]
        return [(A.Pass(), 1.0), *((a, 0.0) for a in attacks)][:k]


def _deployed(configuration: int, seed: int) -> Game:
    """The sample armies just after deployment (both set up by the heuristic)."""
    game = Game.new(
        load_army(ROOT / "armies" / "sample-axis.toml"),
        load_army(ROOT / "armies" / "sample-allies.toml"),
        configuration=configuration,
        dice=Dice(seed=seed),
        turn_limit=3,
    )
    bot = HeuristicBot(seed)
    while game.state.phase is Phase.SETUP and game.decider() is not None:
        game.apply(bot.choose(view(game, game.decider() or Side.AXIS, seed)))
    return game


def _movement(seed: int = 3) -> Game:
    """A position in the movement phase with several units to move (a real decision for the search)."""
    game = _deployed(1, seed)
    bot = HeuristicBot(seed)
    while game.state.stage is not Stage.ACT or game.state.phase is not Phase.MOVEMENT:
        side = game.decider()
        assert side is not None
        game.apply(bot.choose(view(game, side, seed)))
    return game


def test_plays_legal_actions_in_every_stage_of_a_game() -> None:
    game = Game.new(
        load_army(ROOT / "armies" / "sample-axis.toml"),
        load_army(ROOT / "armies" / "sample-allies.toml"),
        configuration=2,
        dice=Dice(seed=11),
        turn_limit=3,
    )
    stages: set[Stage] = set()
    search = SearchBot(5, budget=1.0, workers=0, max_playouts=6, horizon=8)  # playouts cap it, not time

    def after(played: Game) -> None:
        check_invariants(played)
        if played.decider() is Side.AXIS:
            stages.add(played.state.stage)

    play_out(game, {Side.AXIS: search, Side.ALLIES: HeuristicBot(6)}, seeds=random.Random(1), after=after)
    assert game.over  # every action the search chose was accepted (apply raises on an illegal one)
    assert {Stage.DEPLOY, Stage.ACT} <= stages
    assert search.playouts > 0


def test_same_seed_in_process_gives_the_same_decision() -> None:
    game = _movement()
    side = game.decider()
    assert side is not None
    chosen = []
    played = []
    for _ in range(2):
        search = SearchBot(7, budget=60.0, workers=0, max_playouts=12, horizon=30)
        chosen.append(search.choose(view(game, side, 99)))
        played.append(search.playouts)
    assert 4 <= played[0] <= 12  # it did search (every candidate; it may stop early when settled)
    assert chosen[0] == chosen[1] and played[0] == played[1]
    game.copy().apply(chosen[0])


def test_a_decision_keeps_to_its_budget() -> None:
    game = _movement()
    side = game.decider()
    assert side is not None
    search = SearchBot(1, budget=0.3, workers=0, max_playouts=10_000)
    began = time.perf_counter()
    search.choose(view(game, side, 1))
    # Loosely (a loaded machine may take long over one playout): without the deadline its 10,000
    # playouts would take minutes.
    assert time.perf_counter() - began < 0.3 + 2.0


def test_workers_play_out_and_stop_when_closed() -> None:
    game = _movement()
    side = game.decider()
    assert side is not None
    before = {p.pid for p in multiprocessing.active_children()}
    with SearchBot(2, budget=1.0, workers=2) as search:
        for seed in range(5):  # the workers' start may take the first decisions' budget on a busy machine
            action = search.choose(view(game, side, seed))
            game.copy().apply(action)
            if search.playouts:
                break
        started = {p.pid for p in multiprocessing.active_children()} - before
        assert len(started) == 2
        assert search.playouts > 0
        assert max(search.decision_times) < 1.0 + 0.5
    assert not started & {p.pid for p in multiprocessing.active_children()}


def test_a_dead_worker_leaves_the_search_in_this_process() -> None:
    game = _movement()
    side = game.decider()
    assert side is not None
    before = {p.pid for p in multiprocessing.active_children()}
    with SearchBot(4, budget=0.5, workers=1) as search:
        search.choose(view(game, side, 4))  # the worker is up once a decision has been made
        for child in multiprocessing.active_children():
            if child.pid not in before:
                child.kill()
                child.join()
        action = search.choose(view(game, side, 5))
        assert search.workers == 1 and search._pool is None
    game.copy().apply(action)


def sherman_and_wrecked_panzer(dice: Dice | None = None) -> Game:
    """The assault phase: a Sherman with a disrupted, damaged Panzer IV three hexes away in its sights."""
    b = OPEN
    return position(
        b,
        [
            unit(b, "sherman", "m4a1-sherman", "allies", "B1", "E"),
            unit(b, "panzer", "panzer-iv-ausf-g", "axis", "B4", "W", status=("disrupted", "damaged")),
        ],
        phase="assault",
        dice=dice,
    )


def test_prefers_a_clearly_winning_attack_to_passing() -> None:
    game = sherman_and_wrecked_panzer(Dice(seed=1))
    search = SearchBot(3, budget=30.0, workers=0, policy=PassFirst, max_playouts=40)
    assert search.choose(view(game, Side.ALLIES, 3)) == A.Attack("sherman", "panzer")


def test_a_packed_position_plays_on_exactly_as_the_original() -> None:
    game = _movement(5)
    twin = unpack(pack(game))
    assert twin.state.snapshot() == game.state.snapshot()
    for copy in (game, twin):
        copy.dice = Dice(seed=8)
        play_out(copy, {s: RandomBot(4) for s in Side}, seeds=random.Random(2))
    assert twin.state.snapshot() == game.state.snapshot()


def test_score_counts_a_face_down_kill_and_a_win_outweighs_material() -> None:
    b = OPEN
    units = [
        unit(b, "sherman", "m4a1-sherman", "allies", "B1", "E"),
        unit(b, "panzer", "panzer-iv-ausf-g", "axis", "B4", "W"),
    ]
    sherman, panzer = (float(u.card.cost) for u in units)
    game = position(b, units, phase="assault")
    assert score(game.state, Side.ALLIES) == pytest.approx(sherman - panzer)
    state = game.state.clone()
    state.update("panzer", pending=(Counter.DISRUPTED, Counter.DAMAGED, Counter.DESTROYED))
    assert score(state, Side.ALLIES) == pytest.approx(sherman)  # destroyed in the casualty phase to come
    won = game.state.clone()
    won.stage, won.winner = Stage.OVER, Side.AXIS
    assert score(won, Side.AXIS) == pytest.approx(panzer - sherman + sherman + panzer)
    assert score(won, Side.ALLIES) == pytest.approx(sherman - panzer - sherman - panzer)


# --- common random numbers, paired differences, the placing at the horizon ------------------------------


def test_every_candidate_k_th_playout_sees_the_same_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Common random numbers: the k-th playout of each candidate is played with the k-th seed."""
    seen: dict[A.Action, list[int]] = {}
    real_play = search_module.play

    def recording(base: Game, action: A.Action, seed: int, *args: Any) -> float | None:
        seen.setdefault(action, []).append(seed)
        return real_play(base, action, seed, *args)

    monkeypatch.setattr(search_module, "play", recording)
    game = _movement()
    side = game.decider()
    assert side is not None
    SearchBot(7, budget=60.0, workers=0, max_playouts=16, horizon=30).choose(view(game, side, 99))
    assert len(seen) >= 2
    sequences = list(seen.values())
    shortest = min(len(s) for s in sequences)
    assert shortest >= 2
    assert all(s[:shortest] == sequences[0][:shortest] for s in sequences)
    assert len(set(sequences[0])) == len(sequences[0])  # a fresh seed for each playout index


def _arm(action: A.Action, values: list[float]) -> search_module._Arm:
    arm = search_module._Arm(action)
    arm.values = dict(enumerate(values))
    return arm


def test_paired_difference_is_the_mean_and_standard_error_over_shared_dice() -> None:
    a = _arm(A.Pass(), [10.0, 0.0, 30.0, 7.0])
    b = _arm(A.Hold(), [8.0, -1.0, 27.0])
    mean, error, pairs = paired(a, b)
    assert pairs == 3  # the fourth playout has no twin yet
    assert mean == pytest.approx(2.0)
    assert error == pytest.approx((1.0 / 3) ** 0.5)  # differences 2, 1, 3: variance 1
    assert paired(a, _arm(A.Hold(), [1.0]))[1] == math.inf


def test_a_small_edge_on_the_same_dice_replaces_the_first_choice() -> None:
    """Dice swing each playout by 100 points; the second candidate is 1 point better on every one.
    Compared as independent means that is noise; compared on the same dice it is certain."""
    luck = [0.0, 100.0, 0.0, 100.0, 50.0, 0.0]
    first = _arm(A.Pass(), luck)
    better = _arm(A.Hold(), [v + 1.0 for v in luck])
    assert search_module._pick([first, better]) == A.Hold()
    assert search_module._next_arm([first, better]) is None  # settled: no playout would change it
    worse = _arm(A.Hold(), [v + (1.0 if i % 2 else -1.5) for i, v in enumerate(luck)])
    assert search_module._pick([first, worse]) == A.Pass()


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_placing_is_the_same_for_both_sides_with_the_sign_turned(seed: int) -> None:
    rng = random.Random(seed)
    b = OPEN
    spots = rng.sample([f"{c}{r}" for c in "ABC" for r in range(1, 10)], 3)
    game = position(
        b,
        [
            unit(b, "sherman", "m4a1-sherman", "allies", spots[0], rng.choice("EW")),
            unit(b, "panzer", "panzer-iv-ausf-g", "axis", spots[1], rng.choice("EW")),
            unit(b, "rifles", "m1-garand-rifle", "allies", spots[2], "E"),
        ],
        phase="assault",
    )
    assert placing(game.state, Side.ALLIES) == pytest.approx(-placing(game.state, Side.AXIS))


def test_placing_favours_the_side_whose_guns_bear() -> None:
    """A Sherman with a damaged, disrupted Panzer in its sights stands better than that Panzer."""
    game = sherman_and_wrecked_panzer()
    assert placing(game.state, Side.ALLIES) > 0.0
    alone = game.state.clone()
    alone.update("panzer", removed=True)
    assert placing(alone, Side.ALLIES) == 0.0  # no enemy left: no pull toward no one


def test_an_event_rolls_the_same_dice_in_every_candidate_s_playout() -> None:
    """Dice keyed by the event: the same attack in the same turn and phase gets the same dice however
    many dice were rolled before it (another candidate's playout); a repeat, another attack or another
    playout's seed gets other dice."""
    game = _movement()
    later = game.copy()
    later.apply(A.Pass())  # another position of the same turn and phase
    assert later.state.turn == game.state.turn and later.state.phase is game.state.phase
    attack = A.Attack("a", "b")
    first = keyed_dice(5, game.state, attack, {}).roll_many(12)
    assert keyed_dice(5, later.state, attack, {"other": 3}).roll_many(12) == first
    seen: dict[str, int] = {}
    assert keyed_dice(5, game.state, attack, seen).roll_many(12) == first
    assert keyed_dice(5, game.state, attack, seen).roll_many(12) != first  # the same attack again
    assert keyed_dice(5, game.state, A.Attack("a", "c"), {}).roll_many(12) != first
    assert keyed_dice(6, game.state, attack, {}).roll_many(12) != first


# --- playouts deeper than the turn -----------------------------------------------------------------------


def test_a_playout_of_two_turns_ends_at_the_next_turns_end() -> None:
    """`turns`: a playout plays the rest of this turn (1) or this and the next (2), both sides by the
    policy, and is scored where the turn after them begins; the workers' playouts the same."""
    game = _movement()
    turn = game.state.turn
    reached: dict[int, list[int]] = {}

    def leaf_turn(state: GameState, side: Side, leaf: float) -> float:
        return float(state.turn)

    action = HeuristicBot(1).choose(game)
    for turns in (1, 2):
        for seed in range(3):
            value = play(game, action, seed, HeuristicBot, 400, value=leaf_turn, turns=turns)
            reached.setdefault(turns, []).append(int(value or 0))
    assert reached == {1: [turn + 1] * 3, 2: [turn + 2] * 3}
    assert game.state.turn == turn and game.state.phase is Phase.MOVEMENT  # the base is left untouched
    bot = SearchBot(3, workers=0, playouts=4, turns=2)
    assert bot.turns == 2 and bot.horizon == 2 * 200  # the action cap is a turn's, for each turn
    with pytest.raises(ValueError, match="at least the rest of its turn"):
        SearchBot(3, workers=0, turns=0)


def test_a_search_with_deeper_playouts_plays_them_on_its_workers_too() -> None:
    """The turns go to the workers with each playout: the same decision in this process and on them."""
    game = _movement()
    side = game.decider()
    assert side is not None
    here = SearchBot(4, workers=0, playouts=6, turns=2).choose(view(game, side, 5))
    with SearchBot(4, workers=1, playouts=6, turns=2) as bot:
        assert bot.choose(view(game, side, 5)) == here
        assert bot.playouts > 0
