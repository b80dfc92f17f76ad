"""The improved search (issue 35): the strengths `normal` and `hard`, and the window's hint.

It is the search bot (`minis.ai.search`: playouts of each candidate with common random numbers, paired
differences, a bandit) with three things the plain search lacks:

- **Candidates a plain look calls for** (`minis.ai.candidates`): beside the heuristic's best, a threatened
  unit's move away, the attack on a serious threat, a move toward the objective in time. The most
  pressing `MUST` are searched from the start; the rest and the heuristic's next best wait in reserve
  and come in by **progressive widening** (`search.SearchBot._widen`: one more candidate per step of
  the square root of the playouts so far).
- **A leaf that sees the next turn's threats** (`leaf_value`): a playout ends at the turn's end, before
  the enemy moves into a unit's hex and close-assaults it; the leaf adds what each side can do to the
  other next turn by moving into its units' hexes and attacking there (`threats.Threats.exposure` with
  `close_only`: Close Assault, Hand to Hand, a rear shot from the same hex; the placing term prices fire
  from where the enemy stands already).
- **The end of the turn played exactly** when little is left of it (`minis.ai.endings`): in the
  second player's assault phase, with a few units to act, each action's expected value at the turn's
  end over every later decision and every die, scored by the same leaf (playouts judge a choice by how
  the heuristic would follow it up).
- **The objective's clock at the leaf**: while the objective decides within `CLOCK_TURNS` turns, how
  surely each side can be next to it in time (`threats.readiness`: its units' moves to it, counted with
  the map's step costs, against the two moves a turn left; a unit a move short counts half), so a
  playout that leaves a side unable to contest it scores as the loss it is, and each move toward it
  counts even when the playout's policy does not make the next one.

`score` and `placing` (minis.ai.playout) are called, not changed; the frozen `heuristic` bot and the
plain `search` play as before.
"""

from __future__ import annotations

import functools
from typing import Any

from minis.ai import playout
from minis.ai.candidates import CLOCK_TURNS, Reason, plain_look, reason_for
from minis.ai.endings import best_ending
from minis.ai.playout import LeafValue
from minis.ai.search import WIDER, Proposer, SearchBot, _varied
from minis.ai.threats import Threats, readiness, turns_left, turns_to_end
from minis.base.sides import Side
from minis.engine import actions as A
from minis.game import Game
from minis.state import GameState, Phase, Stage

__all__ = [
    "HARD_LEAF",
    "HARD_PLAYOUTS",
    "HARD_TURNS",
    "NORMAL_LEAF",
    "NORMAL_PLAYOUTS",
    "NORMAL_TURNS",
    "SharpBot",
    "leaf_value",
]

#: The strengths' playouts a decision (at most: fewer when the leader is clear early).
NORMAL_PLAYOUTS = 40
HARD_PLAYOUTS = 256
#: The turns each strength's playouts play, this one first (`SearchBot(turns=...)`, docs/ai.md: "Deeper
#: than one turn"): one until a ladder shows two stronger.
NORMAL_TURNS = 1
HARD_TURNS = 1
#: The leaf evaluation each strength scores its playouts by (`playout.EVALUATIONS`; None: the
#: environment's `MINIS_LEAF`, the hand-set leaf unless it says otherwise). `hard` adds the learned
#: win chance to the hand-set leaf ("both"): it won more ladder games than the hand-set leaf alone
#: (docs/ai.md, "Both leaves with the reach counted by the clock"); at 32 playouts, near `normal`'s 40,
#: it still stood and shot in a blunder position, so `normal` keeps the hand-set leaf.
NORMAL_LEAF: str | None = None
HARD_LEAF: str | None = "both"
#: Playouts play to the game's end when it comes within this many turns, this one included
#: (`threats.turns_to_end`; 0: never): the last turns are scored by how the game ends, not by a leaf.
TO_THE_END = 0
#: Candidates a plain look calls for that are searched from the start (the rest wait for widening).
MUST = 3
#: How many candidates wait in reserve at most.
RESERVE = 12
#: How much of what each side can do to the other next turn counts at a playout's leaf.
THREAT_LEAF = 0.5
#: The objective's clock at the leaf: a share of both armies' points times the difference of the sides'
#: readiness (`threats.readiness`), over the turns left (the last turn's clock decides the game).
CLOCK_SHARE = 0.3


def leaf_value(state: GameState, side: Side, leaf: float, evaluation: str | None = None) -> float:
    """A playout's end position for `side`: `playout.leaf_value` (the hand-set leaf, the learned one or
    both, as `evaluation` says: None, the environment's), the threats of the next turn and the
    objective's clock (the module's text)."""
    value = playout.leaf_value(state, side, leaf, evaluation)
    if state.stage is Stage.OVER or state.battle.board is None:
        return value
    mine = Threats(state, side, close_only=True).exposure()
    theirs = Threats(state, side.other, close_only=True).exposure()
    value += THREAT_LEAF * (theirs - mine)
    left = turns_left(state)
    if left is not None and 1 <= left <= CLOCK_TURNS:
        total = float(sum(u.card.cost for u in state.units.values()))
        ready = readiness(state, side, left) - readiness(state, side.other, left)
        value += CLOCK_SHARE * total * ready / left
    return value


def _each_first(scored: list[tuple[A.Action, float]]) -> list[A.Action]:
    """The policy's actions, each unit's best of each kind first (best first), then the rest."""
    seen: set[tuple[type, object]] = set()
    first: list[A.Action] = []
    rest: list[A.Action] = []
    for action, _ in scored:
        actor = (type(action), getattr(action, "unit", None))
        (rest if actor in seen else first).append(action)
        seen.add(actor)
    return first + rest


class SharpBot(SearchBot):
    """The improved search (the module's text); the same arguments as `SearchBot`, and `evaluation`: the
    leaf its playouts are scored by (`playout.EVALUATIONS`; None: the environment's)."""

    name = "sharp"

    def __init__(self, *args: Any, evaluation: str | None = None, **options: Any) -> None:
        if evaluation is not None and evaluation not in playout.EVALUATIONS:
            raise ValueError(f"no leaf evaluation {evaluation!r}: {', '.join(playout.EVALUATIONS)}")
        super().__init__(*args, **options)
        self.evaluation = evaluation

    #: The last searched decision's policy candidates (scored, best first) and the reasons a plain look
    #: gave for its own (`minis.ai.candidates.Reason`), for the hint.
    scored: list[tuple[A.Action, float]] = []  # noqa: RUF012 (set per instance by _root)
    reasons: dict[A.Action, Reason] = {}  # noqa: RUF012

    def explain(self, game: Game) -> tuple[A.Action, list[tuple[A.Action, float]], Reason | None]:
        """The bot's choice, the policy's scored candidates (empty for a decision not searched) and the
        reason a plain look gave for the choice (None: the choice is one the heuristic ranked)."""
        self.scored, self.reasons = [], {}
        action = self.choose(game)
        why = self.reasons.get(action)
        return action, self.scored, why if why is not None else reason_for(game, action)

    def _root(self, game: Game, proposer: Proposer) -> tuple[list[A.Action], list[A.Action]]:
        scored = proposer.candidates(game, 10**6)
        first = [action for action, _ in _varied(scored[: WIDER * self.k], self.k)]
        state = game.state
        side = game.decider()
        looked: list[tuple[A.Action, Reason]] = []
        if side is not None and state.battle.board is not None and state.phase is not Phase.SETUP:
            looked = plain_look(game, scored, Threats(state, side))
        extra = [action for action, _ in looked]
        self.scored = list(scored)
        self.reasons = {action: why for action, why in reversed(looked)}
        chosen = list(first)
        for action in extra[:MUST]:
            if action not in chosen:
                chosen.append(action)
        reserve: list[A.Action] = []
        for action in [*extra[MUST:], *_each_first(scored)]:
            if action not in chosen and action not in reserve:
                reserve.append(action)
            if len(reserve) >= RESERVE:
                break
        return chosen, reserve

    def _leaf_value(self) -> LeafValue:
        if self.evaluation is None:
            return leaf_value
        return functools.partial(leaf_value, evaluation=self.evaluation)  # pickles: to the workers

    def _turns_for(self, game: Game) -> int:
        left = turns_to_end(game.state)
        return left if left is not None and left <= TO_THE_END else self.turns

    def _decide(self, game: Game, deadline: float) -> A.Action:
        """The end of the turn played exactly when it is small (`minis.ai.endings`), else the search."""
        if game.state.stage is Stage.ACT:
            found = best_ending(game, self._leaf_value(), self.leaf, deadline=deadline)
            if found is not None:
                return found[0]
        return super()._decide(game, deadline)
