"""Perfect play in a small end position: expectimax over every decision and every die (docs/ai.md).

`solve(game)` searches the whole tree from the position to the end of the game: at a decision, the
side to move takes the action best for it (each side maximises its own chance to win, a draw counting
half, so the value is one number, the Axis chance, which the Allied player minimises); after an action
that draws dice, every outcome of those dice is weighed with the engine's exact probability. Values are
exact fractions. It is the yardstick the bots are measured against (`tools/endgame_bench.py`).

What it accepts (`check_scope`): a position where a side decides, with at most `MAX_UNITS` units of
each side not removed (on the map, off it or carried), and whose game ends by the end of the current
turn on every line of play: the search refuses (`NotDecided`) as soon as a line reaches the next turn
with the game going on. It stops (`NodeCap`) after `max_nodes` positions, so memory stays bounded.

How the dice are walked, exactly: the game is played with a dice source of the solver's own (`_BranchDice`)
that hands out a given sequence of dice and, when it runs dry, says what the engine asks for next and stops
the action (the engine's `NeedDice`: the game waits for dice). Each answer is a branch; the action is then
played again from the position before it with the longer sequence (as `Game.push_dice` does). A single die has
six outcomes. A batch of attack dice (`roll_many` from `combat.roll_attack_dice`, and an ability's rerolls
from `abilities.reroll_attack_dice`) is walked as `minis.engine.odds` walks it: the dice are interchangeable,
so as sorted multisets over the die classes that no ability tells apart (`minis.engine.odds.die_classes`),
with multinomial weights; and when no ability with a say in the attack reads single dice, as the binomial
counts of successes. Any other batch is drawn die by die. Outcomes that leave the same position are merged
before they are searched, and positions already solved are looked up (a transposition table keyed by
`GameState.snapshot`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

import attrs

from minis import abilities
from minis.base.sides import Side
from minis.dice import Dice, NeedDice
from minis.engine import actions as A
from minis.engine.ability_api import class_hooks
from minis.engine.odds import roll_multisets, success_distribution
from minis.game import Game
from minis.rules import combat
from minis.state import GameState, Phase

__all__ = [
    "DEFAULT_MAX_NODES",
    "MAX_UNITS",
    "Choice",
    "NodeCap",
    "NotDecided",
    "OutOfScope",
    "Solution",
    "SolverError",
    "action_rank",
    "action_value",
    "as_last_turn",
    "check_scope",
    "key",
    "outcomes_search",
    "solve",
]

#: Positions searched before the solver gives up (each is one run of the engine on an action).
DEFAULT_MAX_NODES = 200_000
#: The most units of one side a position may have.
MAX_UNITS = 3
#: Hooks of abilities that read single attack dice beyond their score (rerolls pick dice; `attack_rolled`
#: is told the final dice): with one in an attack, its dice are walked as every multiset over the die
#: classes.
_ROLL_HOOKS = frozenset(("attack_rolled", "reroll_attack_dice"))
#: Hooks that read single dice for the score only: the multisets are grouped by their score.
#: With neither kind, the dice are walked as binomial counts of successes.
_SCORE_HOOKS = frozenset(("extra_successes", "destroys"))

Value = Fraction
#: What the engine may ask the dice for: its possible answers, each a run of dice with its chance.
Choices = tuple[tuple[tuple[int, ...], Fraction], ...]
_ZERO = Fraction(0)
_ONE = Fraction(1)
#: A window wider than every value: a search in it is exact.
_BELOW = Fraction(-1)
_ABOVE = Fraction(2)
_SINGLE: Choices = tuple(((face,), Fraction(1, 6)) for face in range(1, 7))


class SolverError(Exception):
    """The solver cannot answer for this position; the message says why in plain words."""


class OutOfScope(SolverError):
    """The position is not one the solver takes (too many units, no decision to make)."""


class NotDecided(OutOfScope):
    """A line of play reaches the next turn with the game going on."""


class NodeCap(SolverError):
    """The search needed more positions than it was allowed."""


@attrs.frozen
class Choice:
    """A legal decision at the root and its exact value for the side deciding."""

    action: A.Action
    notation: str
    value: Fraction


@attrs.frozen
class Solution:
    """The value of every legal decision at the root (best first) for `side`, and the work it took."""

    side: Side
    choices: tuple[Choice, ...]
    nodes: int

    @property
    def value(self) -> Fraction:
        """The value of the position for `side` (its chance to win, a draw counting half)."""
        return self.choices[0].value

    @property
    def best(self) -> Choice:
        return self.choices[0]

    def optimal(self, notation: str, tolerance: float = 1e-9) -> bool:
        """Whether the decision written `notation` is an optimal one (within `tolerance` of the best)."""
        return self.loss(notation) <= tolerance

    def loss(self, notation: str) -> float:
        """What choosing `notation` instead of the best costs `side` (0 for an optimal choice)."""
        for choice in self.choices:
            if choice.notation == notation:
                return float(self.value - choice.value)
        raise KeyError(f"'{notation}' is not a legal decision here")


def check_scope(game: Game) -> None:
    """Raise OutOfScope for a position the solver does not take (the reason in plain words)."""
    if game.over:
        raise OutOfScope("the game is over: there is nothing to decide")
    if game.decider() is None:
        raise OutOfScope("the position waits for dice, not for a decision (start it at a decision)")
    if game.state.phase in (Phase.SETUP, Phase.INITIATIVE):
        raise OutOfScope("the solver starts in a phase of a turn under way, not before it")
    for side in (Side.AXIS, Side.ALLIES):
        count = sum(1 for u in game.state.units.values() if u.side is side and not u.removed)
        if count > MAX_UNITS:
            raise OutOfScope(f"{side.title}: {count} units, and the solver takes at most {MAX_UNITS} a side")


def solve(game: Game, side: Side | None = None, max_nodes: int = DEFAULT_MAX_NODES) -> Solution:
    """Every legal decision at the root with its exact value for `side` (default: the side deciding).

    Raises OutOfScope (also NotDecided) and NodeCap; the game is never changed."""
    check_scope(game)
    decider = game.decider()
    assert decider is not None
    viewer = side or decider
    search = _Search(game.state.turn, max_nodes)
    root = game.copy(record=False, dice=_BranchDice(()))
    values = []
    for action in search.ordered(root):
        axis = search.action_value(root, action)
        values.append(Choice(action, root.format(action), axis if viewer is Side.AXIS else 1 - axis))
    mine = 1 if viewer is decider else -1
    values.sort(key=lambda c: (-c.value * mine, c.notation))
    return Solution(viewer, tuple(values), search.nodes)


def action_value(game: Game, action: A.Action, side: Side, max_nodes: int = DEFAULT_MAX_NODES) -> Fraction:
    """The exact value for `side` of the decider's `action` (legal now, in any notation of it)."""
    check_scope(game)
    search = _Search(game.state.turn, max_nodes)
    axis = search.action_value(game.copy(record=False, dice=_BranchDice(())), action)
    return axis if side is Side.AXIS else 1 - axis


class _Search:
    """One solve: the transposition table and the count of positions searched."""

    def __init__(self, turn: int, max_nodes: int, *, to_turn_end: bool = False) -> None:
        self.turn = turn
        self.max_nodes = max_nodes
        #: A line that reaches the next turn ends there (its position, waiting for the next turn's first
        #: dice, is an outcome: `minis.ai.endings`), instead of being refused (`NotDecided`).
        self.to_turn_end = to_turn_end
        self.nodes = 0
        #: Per position, what is known of its value: (lower bound, upper bound); equal when exact.
        self.table: dict[object, tuple[Value, Value]] = {}

    def value(self, game: Game, alpha: Value = _BELOW, beta: Value = _ABOVE) -> Value:
        """The Axis chance (a draw half) with best play from here on: exact when it lies strictly
        between `alpha` and `beta`; else a bound on the side of the window it fell (alpha-beta, which
        cuts only lines that cannot change the value of the position the window belongs to)."""
        if game.over:
            return _terminal(game.winner)
        if game.state.turn != self.turn:
            raise NotDecided(_not_decided(self.turn))
        here = key(game.state)
        low, high = self.table.get(here, (_ZERO, _ONE))
        if low == high or low >= beta:
            return low
        if high <= alpha:
            return high
        window_low, window_high = max(alpha, low), min(beta, high)
        decider = game.decider()
        if decider is None:
            raise OutOfScope("the game waits for dice no one rolls (a position the solver cannot walk)")
        maximise = decider is Side.AXIS
        best: Value | None = None
        a, b = window_low, window_high
        for action in self.ordered(game):
            found = self.action_value(game, action, a, b)
            if maximise:
                best = found if best is None else max(best, found)
                a = max(a, found)
            else:
                best = found if best is None else min(best, found)
                b = min(b, found)
            if a >= b:
                break  # the rest cannot bring the value back into the window
        if best is None:
            raise OutOfScope("a side must decide but has no legal action")
        if best <= window_low:
            high = min(high, best)
        elif best >= window_high:
            low = max(low, best)
        else:
            low = high = best
        self.table[here] = (low, high)
        return best

    def ordered(self, game: Game) -> list[A.Action]:
        """The legal actions, attacks and fire first and `pass`/`hold` last (cut-offs come sooner)."""
        return sorted(game.legal_actions(), key=action_rank)

    def action_value(
        self, game: Game, action: A.Action, alpha: Value = _BELOW, beta: Value = _ABOVE
    ) -> Value:
        """The expected value of `action` over its dice, in the window as `value` (each outcome is
        searched in the window that could still move the sum across alpha or beta: Ballard's Star1)."""
        outcomes = self.outcomes(game, action)
        outcomes.sort(key=lambda o: (not o[0].over, -o[1]))
        total = _ZERO
        rest = _ONE
        for after, chance in outcomes:
            rest -= chance  # the chance of the outcomes still to come
            low = (alpha - total - rest) / chance  # each of them is worth at most 1, at least 0
            high = (beta - total) / chance
            if low >= _ONE:
                return total + chance + rest  # even 1 here leaves the sum at or below alpha
            if high <= _ZERO:
                return total  # even 0 here leaves it at or above beta
            found = self.value(after, max(low, _BELOW), min(high, _ABOVE))
            if found <= low:
                return total + chance * found + rest  # an upper bound, at or below alpha
            if found >= high:
                return total + chance * found  # a lower bound, at or above beta
            total += chance * found
        return total

    def outcomes(self, game: Game, action: A.Action) -> list[tuple[Game, Fraction]]:
        """Every position `action` may lead to, with its exact chance (the same position once)."""
        merged: dict[object, tuple[Game, Fraction]] = {}
        stack: list[tuple[tuple[tuple[int, ...], ...], Fraction]] = [((), Fraction(1))]
        while stack:
            chunks, chance = stack.pop()
            self.nodes += 1
            if self.nodes > self.max_nodes:
                raise NodeCap(
                    f"the position needs more than {self.max_nodes} positions searched (--max-nodes)"
                )
            dice = _BranchDice(chunks)
            after = game.copy(record=False, dice=dice)
            after.apply(action)
            past = after.state.turn != self.turn
            if after.waiting_for_dice() and not (past and self.to_turn_end):
                if past:
                    raise NotDecided(_not_decided(self.turn))
                request = dice.request
                assert request is not None
                stack.extend(((*chunks, values), chance * p) for values, p in request)
                continue
            reached = ("over", after.winner) if after.over else key(after.state)
            seen = merged.get(reached)
            merged[reached] = (after, chance) if seen is None else (seen[0], seen[1] + chance)
        return list(merged.values())


def outcomes_search(turn: int, max_nodes: int) -> _Search:
    """A search whose `outcomes(game, action)` gives every position an action may lead to with its exact
    chance, a line that reaches the next turn ending there (for `minis.ai.endings`); `nodes` counts the
    engine's runs, and `NodeCap` stops it past `max_nodes`."""
    return _Search(turn, max_nodes, to_turn_end=True)


def key(state: GameState) -> object:
    """The state as a hashable value, equal for equal positions (the transposition tables' key; the move
    under way, a mutable record, as the tuple of its fields)."""
    snapshot = state.snapshot()
    if state.move is None:
        return snapshot
    return tuple(state.move.values() if part is state.move else part for part in snapshot)


def action_rank(action: A.Action) -> int:
    """Attacks and fire first, passing last (an exact search's cut-offs and ties come sooner)."""
    if isinstance(action, A.Attack | A.Fire):
        return 0
    return 2 if isinstance(action, A.Pass | A.Hold) else 1


def _terminal(winner: Side | None) -> Value:
    return Fraction(1) if winner is Side.AXIS else Fraction(0) if winner is Side.ALLIES else Fraction(1, 2)


def _not_decided(turn: int) -> str:
    return (
        f"on some line of play the game goes on after turn {turn}: the solver takes only positions "
        "decided by the end of the turn (the last turn of a turn limit, or a side about to lose)"
    )


class _BranchDice(Dice):
    """Hands out the runs of dice `chunks` (one die, or one batch of attack dice, each), then records
    what the engine asks for next (`request`) and makes the game wait for dice. Rewinding (the engine
    undoing an action tried half-way) rewinds to the run that started there."""

    __slots__ = ("_chunks", "_starts", "request")

    def __init__(self, chunks: Sequence[tuple[int, ...]]) -> None:
        super().__init__(script=())
        self._chunks = chunks
        self._starts: list[int] = []  # where each run handed out so far began
        self.request: Choices | None = None

    def _take(self, size: int, choices: Choices) -> tuple[int, ...]:
        index = len(self._starts)
        if index >= len(self._chunks):
            self.request = choices
            raise NeedDice()
        values = self._chunks[index]
        if len(values) != size:
            raise AssertionError("the engine asked for other dice on a replay (dice order broken)")
        self._starts.append(self._pos)
        del self.history[self._pos :]
        self.history.extend(values)
        self._pos += size
        return values

    def roll(self) -> int:
        return self._take(1, _SINGLE)[0]

    def roll_many(self, count: int, batch: object = None) -> list[int]:
        choices = _batch(batch, count) if count > 0 else None
        if choices is None:
            return [self.roll() for _ in range(count)]
        return list(self._take_batch(count, choices))

    def _take_batch(self, count: int, choices: Callable[[], Choices]) -> tuple[int, ...]:
        """A batch whose outcomes are worked out only when the engine asks for them (a replay of an
        action hands out the dice already chosen without working them out again)."""
        if len(self._starts) >= len(self._chunks):
            self.request = choices()
            raise NeedDice()
        return self._take(count, ())

    def restore(self, mark: int) -> None:
        super().restore(mark)
        while self._starts and self._starts[-1] >= mark:
            self._starts.pop()

    def fork(self) -> Dice:
        raise AssertionError("the solver's dice are never forked")


def _batch(batch: object, count: int) -> Callable[[], Choices] | None:
    """The outcomes (worked out when called) of a batch of `count` interchangeable attack dice, told by
    what the engine says the batch is for (`Dice.roll_many`'s `batch`: an attack's plan, a reroll), or
    None for any other batch (then die by die, exact too, only slower)."""
    if isinstance(batch, abilities.RerollBatch):
        return functools.partial(roll_multisets, count, batch.modifier)
    if not isinstance(batch, combat.AttackPlan) or batch.dice != count:
        return None
    hooks = _hooks(batch)
    if hooks & _ROLL_HOOKS:
        return functools.partial(roll_multisets, count, batch.modifier)
    if hooks & _SCORE_HOOKS:
        return functools.partial(_scores, batch)
    return functools.partial(_counts, count, batch.modifier)


def _hooks(plan: combat.AttackPlan) -> frozenset[str]:
    """The hooks of the abilities with a say in this attack (the attacker's, the target's, auras)."""
    ctx = plan.ctx
    handlers = itertools.chain(
        (h for _owner, h in ctx.sources), abilities.handlers(ctx.state, ctx.target.card)
    )
    found: set[str] = set()
    for h in handlers:
        found |= class_hooks(type(h))
    return frozenset(found)


def _scores(plan: combat.AttackPlan) -> Choices:
    """The multisets over the die classes grouped by what they score (successes, hits, destroyed at
    once): with no ability reading the dice after the score (no rerolls, no `attack_rolled`), the
    engine's attack goes on from the score alone, so one roll of each score stands for all of it."""
    groups: dict[tuple[int, int, bool], tuple[tuple[int, ...], Fraction]] = {}
    for values, chance in roll_multisets(plan.dice, plan.modifier):
        scored = combat.score(plan, list(values))
        score = (scored.successes, scored.hits, scored.destroyed)
        seen = groups.get(score)
        groups[score] = (values, chance) if seen is None else (seen[0], seen[1] + chance)
    return tuple(groups.values())


@functools.cache
def _counts(count: int, modifier: int) -> Choices:
    """k successes of `count` dice (binomial), each as a roll of k 6s and the rest 1s (what no ability
    reads past the count)."""
    return tuple(
        ((6,) * k + (1,) * (count - k), chance)
        for k, chance in enumerate(success_distribution(count, modifier))
        if chance
    )


def as_last_turn(game: Game) -> Game:
    """A copy of `game` whose battle ends at the end of the current turn (a turn limit of this turn:
    a game undecided then is a draw), so that every line of play is decided by the end of the turn."""
    twin = game.copy(record=False)
    battle = twin.state.battle
    twin.state.battle = attrs.evolve(battle, terms=attrs.evolve(battle.terms, turn_limit=twin.state.turn))
    return twin
