"""The search bot: the heuristic's best few candidates, tried by playouts, within a time budget.

At a decision that matters (a move, an attack, a defensive fire, the choice to go first during the
battle; with aircraft also a placement, an airstrike and a reaction shot) the bot asks its policy bot
(the heuristic) for its best few candidates and plays each forward many times (`minis.ai.playout`): both
sides play the policy up to the end of the turn, where the material, the objective and the units'
placing are scored. The k-th playout of every candidate gets the same seed, and each event of a playout
(an attack, a defensive fire) rolls dice keyed by that seed and the event (common random numbers), so
candidates are compared by their paired differences, not drowned in the dice's noise. A bandit spreads
the playouts: every candidate gets a few, then the leader and its closest challenger get the rest,
until no challenger could still be better (stop early: the rest of the budget is saved, not spent), the
playouts run out or the budget does. Another candidate replaces the heuristic's own first choice only
when it is ahead, on the same dice, by more than the noise.

Set-up decisions and decisions with a single candidate go straight to the heuristic. Playouts run on
worker processes (a pool started once per bot; `close()` stops it) or, with `workers=0`, in this
process, where the same seed gives the same decision as long as the budget does not cut it short.
With `playouts=N` a decision plays at most N playouts (fewer when the bandit settles early): without
a budget the bot never reads the clock, however long they take, so in this process the same seed
always gives the same decision, on a quiet machine or a loaded one (the balance lab plays this way: a
study's games must not depend on the machine's load); with a budget too, the budget is a cap on time
(the window's strengths and `minis match --playouts N --budget S`): the same seed gives the same
decision whenever the cap is not reached.
"""

from __future__ import annotations

import concurrent.futures as cf
import math
import multiprocessing
import os
import pickle
import random
import statistics
import time
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType
from typing import Protocol, runtime_checkable

from minis.ai.bot import Bot, BotFactory
from minis.ai.playout import LeafValue, pack, play, unpack, worker_playout, worker_start
from minis.engine import actions as A
from minis.game import Game
from minis.state import Phase, Stage

__all__ = ["Proposer", "SearchBot"]

#: Stages where the search plays candidates out (the others are set-up or forced choices).
SEARCHED = (Stage.ACT, Stage.DEFENSIVE_FIRE, Stage.CHOOSE_FIRST, Stage.REACTION)
#: How many of the policy's best actions are looked at to pick `candidates` varied ones from.
WIDER = 4
#: Playouts every candidate gets before the bandit compares them.
FIRST_PLAYOUTS = 2
#: Width of the confidence intervals that stop the search (standard errors).
STOP_Z = 2.0
#: How far ahead of the heuristic's first choice another must be to replace it (standard errors).
SWITCH_Z = 1.0
#: How much the units' placing at a playout's horizon counts beside material (`playout.placing`).
LEAF = 0.25
#: Time kept back at the end of the budget for the bookkeeping after the last playout (seconds).
MARGIN = 0.01
#: A decision's time when neither a budget nor a count of playouts is given (seconds).
DEFAULT_BUDGET = 1.0
#: Progressive widening (a search with candidates in reserve): beyond the first candidates, one more for
#: every step of `WIDEN_C` x (playouts so far) ** `WIDEN_ALPHA` (4 more at 16 playouts, 8 at 64).
WIDEN_C = 1.0
WIDEN_ALPHA = 0.5


@runtime_checkable
class Proposer(Protocol):
    """A bot that also ranks its options: the search's policy (the heuristic bot is one)."""

    name: str

    def choose(self, game: Game) -> A.Action: ...

    def candidates(self, game: Game, k: int) -> list[tuple[A.Action, float]]: ...


def heuristic_policy(seed: int) -> Bot:
    """The heuristic bot as the policy (imported when first used, not when this module is)."""
    from minis.ai.heuristic import HeuristicBot

    bot: Bot = HeuristicBot(seed)
    return bot


def playout_policy(seed: int) -> Bot:
    """The default policy: the heuristic built for playouts (`minis.ai.playout_policy`: it ranks the
    search's candidates exactly as the heuristic does, and keeps what it worked out during a playout)."""
    from minis.ai.playout_policy import PlayoutBot

    bot: Bot = PlayoutBot(seed)
    return bot


class _Arm:
    """One candidate and its playouts' scores, by playout index (the k-th playout of every candidate
    sees the k-th dice seed of the decision: common random numbers)."""

    __slots__ = ("action", "failed", "pending", "values")

    def __init__(self, action: A.Action) -> None:
        self.action = action
        self.pending = 0  # playouts under way in workers
        self.failed = 0  # playouts that came back without a score (cut off by the deadline, refused)
        self.values: dict[int, float] = {}

    @property
    def count(self) -> int:
        return len(self.values)

    @property
    def started(self) -> int:
        """The playouts given to this candidate so far: the index of its next one."""
        return len(self.values) + self.pending + self.failed

    @property
    def mean(self) -> float:
        return sum(self.values.values()) / len(self.values) if self.values else -math.inf


#: The most playouts of a decision by default: the ladder's measured setting (docs/ai.md). With the
#: 1 s budget as a ceiling, a decision takes about 0.2 s on this machine's core; more playouts were
#: not measured stronger in the time there was to measure them.
MAX_PLAYOUTS = 32


class SearchBot:
    """Search over the policy's candidates; `budget` is the most seconds a decision may take.

    `workers`: playout processes (default: the machine's cores; 0: in this process). `policy`: the
    bot both sides play in playouts, and whose `candidates` are searched (default: the heuristic); with
    workers it must pickle (a class or a module's function). `candidates`: how many are searched;
    `max_playouts`: the most playouts of a decision; `turns`: the turns a playout plays, this one first
    (1: to the end of this turn); `horizon`: the most actions of a playout, a turn;
    `leaf`: the weight of the units' placing at a playout's end beside material (0: material only).
    `playouts`: decide by a count instead of the clock: at most this many playouts a decision
    (`max_playouts` is then not used), so the same seed gives the same games; `budget` is then a cap
    on time, and without one there is no time limit at all. `budget` alone (default 1 s): the most
    seconds a decision may take, with at most `max_playouts` playouts.
    `decision_times` keeps how long each decision took (seconds), for the ladder's figures.
    """

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        budget: float | None = None,
        workers: int | None = None,
        policy: BotFactory | None = None,
        *,
        candidates: int = 4,
        max_playouts: int = MAX_PLAYOUTS,
        horizon: int = 200,
        leaf: float = LEAF,
        playouts: int | None = None,
        turns: int = 1,
    ) -> None:
        if budget is not None and budget <= 0:
            raise ValueError("the search budget must be more than 0 seconds")
        if playouts is not None and playouts < 1:
            raise ValueError("the search needs at least 1 playout a decision")
        if turns < 1:
            raise ValueError("a playout plays at least the rest of its turn")
        self.rng = random.Random(seed)
        #: The most seconds a decision may take (None: no limit, a decision by count alone).
        self.budget = budget if budget is not None or playouts is not None else DEFAULT_BUDGET
        self.workers = (os.cpu_count() or 1) if workers is None else max(0, workers)
        self.policy: BotFactory = policy if policy is not None else playout_policy
        self.k = max(1, candidates)
        self.max_playouts = max(1, max_playouts) if playouts is None else playouts
        #: Decide by the count of playouts alone, never by the clock.
        self.counted = playouts is not None
        #: The turns a playout plays (this one first), and the most actions it may take in them.
        self.turns = turns
        self.horizon = max(1, horizon) * turns
        #: This decision's turns and action cap (`_turns_for`: the improved search may play deeper).
        self._turns, self._horizon = self.turns, self.horizon
        self._turn_horizon = max(1, horizon)
        self.leaf = leaf
        self.proposer = self.policy(self.rng.randrange(2**63))
        self.decision_times: list[float] = []
        self.playouts = 0  # playouts counted over every decision (for figures)
        self._decisions = 0
        self._pool: cf.ProcessPoolExecutor | None = None
        self._reserve: list[A.Action] = []  # the decision's candidates not yet searched (widening)
        self._first = 0  # how many candidates the decision started with
        self._forget_pool: Callable[[], object] | None = None
        if self.workers:
            try:
                pickle.dumps(self.policy)
            except (pickle.PicklingError, AttributeError, TypeError) as error:
                raise ValueError(f"the playout policy must pickle to run on workers ({error})") from None
            pool = cf.ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=worker_start,
                initargs=(self.policy, os.getpid()),
            )
            self._pool = pool
            # A bot dropped without close() still stops its workers when it is collected.
            self._forget_pool = weakref.finalize(self, pool.shutdown, wait=False, cancel_futures=True).detach
            for _ in range(self.workers):  # start the workers now, not during the first decision
                pool.submit(time.sleep, 0)

    # --- the bot -------------------------------------------------------------------------------------

    def choose(self, game: Game) -> A.Action:
        started = time.perf_counter()
        deadline = math.inf if self.budget is None else time.time() + self.budget - MARGIN
        try:
            return self._decide(game, deadline)
        finally:
            self.decision_times.append(time.perf_counter() - started)

    def _decide(self, game: Game, deadline: float) -> A.Action:
        proposer = self.proposer
        if game.state.phase is Phase.SETUP or game.state.stage not in SEARCHED:
            return proposer.choose(game)
        if not isinstance(proposer, Proposer):
            return proposer.choose(game)
        self._turns = max(self.turns, self._turns_for(game))
        self._horizon = self._turn_horizon * self._turns
        ranked, reserve = self._root(game, proposer)
        if not ranked:
            return proposer.choose(game)
        if len(ranked) == 1 and not reserve:
            return ranked[0]
        arms = [_Arm(action) for action in ranked]
        self._reserve = list(reserve)
        self._first = len(arms)
        if self._pool is not None:
            try:
                self._search_workers(self._pool, game, arms, deadline)
            except BrokenProcessPool:  # a worker died (killed, out of memory): go on in this process
                self.close()
        if self._pool is None:
            self._search_here(game, arms, deadline)
        return _pick(arms)

    def _root(self, game: Game, proposer: Proposer) -> tuple[list[A.Action], list[A.Action]]:
        """The candidates searched from the start (the policy's first choice first), and those kept in
        reserve for progressive widening (`_widen`; none here: the improved search's, `minis.ai.sharp`)."""
        return [action for action, _ in _varied(proposer.candidates(game, WIDER * self.k), self.k)], []

    def _widen(self, arms: list[_Arm], played: int) -> None:
        """Progressive widening: one more candidate from the reserve whenever the decision's playouts so
        far call for more (`WIDEN_C` x playouts ** `WIDEN_ALPHA` beyond the first candidates)."""
        if self._reserve and len(arms) < self._first + int(WIDEN_C * played**WIDEN_ALPHA):
            arms.append(_Arm(self._reserve.pop(0)))

    def _turns_for(self, game: Game) -> int:
        """The turns this decision's playouts play, this one first (at least `turns`; the improved
        search plays to the game's end when it is near)."""
        return self.turns

    def _leaf_value(self) -> LeafValue | None:
        """How a playout's end is scored (None: `playout.leaf_value`; the improved search adds its own
        terms). A module-level function, so that it goes to a worker by name."""
        return None

    def _play(self, base: Game, action: A.Action, seed: int, deadline: float) -> float | None:
        """One playout in this process."""
        value = self._leaf_value()
        return play(base, action, seed, self.policy, self._horizon, deadline, self.leaf, value, self._turns)

    def _submit(
        self,
        pool: cf.ProcessPoolExecutor,
        key: str,
        data: bytes,
        action: A.Action,
        seed: int,
        deadline: float,
    ) -> cf.Future[float | None]:
        """One playout on a worker."""
        value = self._leaf_value()
        return pool.submit(
            worker_playout, key, data, action, seed, self._horizon, deadline, self.leaf, value, self._turns
        )

    def _search_here(self, game: Game, arms: list[_Arm], deadline: float) -> None:
        """The bandit with playouts in this process, one after another."""
        base = unpack(pack(game))  # the same rebuilt position the workers play from
        seeds = _Seeds(self.rng)
        slowest = 0.0
        timed = math.isfinite(deadline)
        before = self.playouts
        for _ in range(self.max_playouts):
            if timed and time.time() + slowest > deadline:
                break
            self._widen(arms, self.playouts - before)
            arm = _next_arm(arms)
            if arm is None:
                break
            began = time.time() if timed else 0.0
            index = arm.started
            value = self._play(base, arm.action, seeds[index], deadline)
            if timed:
                slowest = max(slowest, time.time() - began)
            self.playouts += 1
            if value is not None:
                arm.values[index] = value
            else:
                arm.failed += 1

    def _search_workers(
        self, pool: cf.ProcessPoolExecutor, game: Game, arms: list[_Arm], deadline: float
    ) -> None:
        """The bandit with one playout per worker under way at a time; results come back in any order."""
        self._decisions += 1
        key = f"{id(self)}:{self._decisions}"
        data = pack(game)
        seeds = _Seeds(self.rng)
        running: dict[cf.Future[float | None], tuple[_Arm, int]] = {}
        started = 0
        while True:
            while len(running) < self.workers and started < self.max_playouts:
                self._widen(arms, started - len(running))
                arm = _next_arm(arms)
                if arm is None:
                    break
                index = arm.started
                future = self._submit(pool, key, data, arm.action, seeds[index], deadline)
                running[future] = (arm, index)
                arm.pending += 1
                started += 1
            if not running:
                break
            left = deadline - time.time() if math.isfinite(deadline) else None
            if left is not None and left <= 0:
                break
            if self.counted:  # the oldest first: what the bandit knows never depends on the timing
                done, _ = cf.wait([next(iter(running))], timeout=left)
            else:
                done, _ = cf.wait(running, timeout=left, return_when=cf.FIRST_COMPLETED)
            for future in done:
                arm, index = running.pop(future)
                arm.pending -= 1
                self.playouts += 1
                value = future.result()
                if value is not None:
                    arm.values[index] = value
                else:
                    arm.failed += 1
        for future in running:  # past the deadline: those still waiting never start, the rest stop soon
            future.cancel()

    # --- the workers ---------------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the worker processes (waiting for them to end); the bot then plays in this process."""
        pool, self._pool = self._pool, None
        if self._forget_pool is not None:
            self._forget_pool()
            self._forget_pool = None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> SearchBot:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


def _varied(ranked: Sequence[tuple[A.Action, float]], k: int) -> list[tuple[A.Action, float]]:
    """The `k` best, but each unit's best action of each kind first (best first within that).

    A policy's next few actions are often the same unit's move to neighbouring hexes, nearly tied;
    the search learns more from comparing units and kinds of action (move, attack, pass, hold).
    """
    seen: set[tuple[type, object]] = set()
    first: list[tuple[A.Action, float]] = []
    rest: list[tuple[A.Action, float]] = []
    for item in ranked:
        actor = (type(item[0]), getattr(item[0], "unit", None))
        (rest if actor in seen else first).append(item)
        seen.add(actor)
    chosen = first[:k]
    chosen += rest[: k - len(chosen)]
    return sorted(chosen, key=lambda item: -item[1])


# --- the bandit ------------------------------------------------------------------------------------------


class _Seeds:
    """The dice seeds of one decision's playouts: the k-th playout of every candidate gets the k-th.

    With the same future dice (and the same seeds for the policy's tie-breaks), two candidates'
    playouts differ by what the candidates do, not by luck: their paired difference is far less noisy
    than the difference of two independent means (common random numbers).
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.drawn: list[int] = []

    def __getitem__(self, index: int) -> int:
        while len(self.drawn) <= index:
            self.drawn.append(self.rng.randrange(2**63))
        return self.drawn[index]


def paired(a: _Arm, b: _Arm) -> tuple[float, float, int]:
    """The mean of `a` less `b` over the playouts both have (the same dice), its standard error, and
    how many pairs (the error is infinite under 2 pairs)."""
    common = a.values.keys() & b.values.keys()
    n = len(common)
    if not n:
        return 0.0, math.inf, 0
    diffs = [a.values[i] - b.values[i] for i in common]
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf, n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(variance / n), n


def _bound(z: float, pairs: int) -> float:
    """`z` standard errors widened for an error measured from few pairs (Student's t, roughly: the
    first Cornish-Fisher term), so two lucky pairs with nearly equal differences prove little."""
    return z * (1.0 + (z * z + 1.0) / (4.0 * max(1, pairs - 1)))


def _next_arm(arms: Sequence[_Arm]) -> _Arm | None:
    """The candidate to play out next, or None when the leader is clearly best (stop early).

    Every candidate first gets FIRST_PLAYOUTS (counting those under way); then the leader (best mean)
    or its strongest challenger (the highest upper bound of its paired difference with the leader),
    whichever has had fewer (LUCB on paired differences, so the pairs fill up together). A challenger
    that scored exactly as the leader, or worse, on every shared dice is settled: more would not help.
    """
    for arm in arms:
        if arm.started < FIRST_PLAYOUTS:
            return arm
    played = [arm for arm in arms if arm.count]
    if len(played) < 2:
        return None
    leader = max(played, key=lambda arm: arm.mean)
    challenger: _Arm | None = None
    highest = 0.0
    for other in played:
        if other is leader:
            continue
        mean, error, pairs = paired(other, leader)
        if pairs >= FIRST_PLAYOUTS and error == 0.0 and mean <= 0.0:
            continue
        upper = mean + _bound(STOP_Z, pairs) * error
        if upper > highest or (challenger is None and upper > 0.0):
            challenger, highest = other, upper
    if challenger is None:
        return None
    return leader if leader.started <= challenger.started else challenger


def _pick(arms: Sequence[_Arm]) -> A.Action:
    """The candidate that beats the policy's first choice by most on the same dice, if by more than
    SWITCH_Z standard errors of the paired difference; otherwise the first choice stands."""
    first = arms[0]
    played = [arm for arm in arms if arm.count]
    if not first.count:  # the first choice never came back from its playouts: trust those that did
        best = max(played, key=lambda arm: arm.mean, default=None)
        return best.action if best is not None and best.count >= FIRST_PLAYOUTS else first.action
    chosen, margin = first, 0.0
    for arm in played:
        if arm is first:
            continue
        mean, error, pairs = paired(arm, first)
        if pairs >= FIRST_PLAYOUTS and mean > _bound(SWITCH_Z, pairs) * error and mean > margin:
            chosen, margin = arm, mean
    return chosen.action


def median_and_max(times: Sequence[float]) -> tuple[float, float]:
    """The median and the longest of some decision times (0, 0 for none): the ladder's figures."""
    return (statistics.median(times), max(times)) if times else (0.0, 0.0)
