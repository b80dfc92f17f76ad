"""The end of a turn played exactly when it is small (issue 35): every decision, every die.

The search's playouts play the rest of the turn by the heuristic, for both sides, many times over and
average what they reach. At the last decisions of a turn that is where they fail: the end-position
benchmark (docs/ai.md) found the best choice among the candidates in each of `hard`'s mistakes, and
three times the playouts gave the same count. A choice whose worth shows only with the side's own best
follow-up (which unit shoots first, and what the second does when the first kills) is judged by how the
heuristic would follow it up, and one worth a rare outcome (a win in 24) is seldom seen in a few dozen
playouts, so the heuristic's first choice stays.

So in the turn's last phase (the second player's assault phase), when what is left is small, the
improved search (`minis.ai.sharp`) decides by expectimax instead: each action's exact expected value at
the end of the turn, over every later decision of the turn (the side deciding takes its best; the
other side, should it decide, its own) and every outcome of every die, with the chances the solver
works out (`minis.ai.solver`: attack dice as the exact odds walk them). A line ends where the playouts
end, at the next turn (or the game's end), scored by the same leaf (`value`). It is tried only where
few units are left to act and few actions offered, and gives up (the playouts decide) past
`MAX_NODES` runs of the engine, so it costs a few tenths of a second at most. Every value is worked out
in the same order, so the same position always gives the same choice.
"""

from __future__ import annotations

import math
import time

from minis.ai.playout import LeafValue
from minis.ai.solver import SolverError, action_rank, key, outcomes_search
from minis.dice import Dice
from minis.engine import actions as A
from minis.game import Game
from minis.state import Phase, Stage

__all__ = ["MAX_ACTIONS", "MAX_NODES", "MAX_READY", "applies", "best_ending", "ordered"]

#: Runs of the engine (positions after an action and its dice) before the exact search gives up.
MAX_NODES = 3_000
#: It is tried only with at most this many units still to act and this many legal actions.
MAX_READY = 3
MAX_ACTIONS = 40


def applies(game: Game) -> bool:
    """A decision of the turn's last phase with little left to decide."""
    state = game.state
    if state.phase is not Phase.ASSAULT or state.stage is not Stage.ACT or state.active is state.first:
        return False
    return len(game.ready_units()) <= MAX_READY and len(game.legal_actions()) <= MAX_ACTIONS


def best_ending(
    game: Game, value: LeafValue, leaf: float, max_nodes: int = MAX_NODES, deadline: float = math.inf
) -> tuple[A.Action, float] | None:
    """The deciding side's best action at `game` by exact play to the end of the turn, with its
    expected value (`value` of the position the turn ends in, for that side), or None when the position
    is not one for it (`applies`), the rest of the turn is larger than `max_nodes`, or the clock passes
    `deadline` (a `time.time()` value: a bot's budget; none by default, as a count of playouts has)."""
    side = game.decider()
    if side is None or not applies(game):
        return None
    search = outcomes_search(game.state.turn, max_nodes)
    known: dict[object, float] = {}
    turn = game.state.turn

    def worth(position: Game) -> float:
        """The expected value for `side` of a position, both sides playing their best to the turn's end."""
        state = position.state
        if position.over or state.turn != turn:
            return value(state, side, leaf)
        here = key(state)
        found = known.get(here)
        if found is not None:
            return found
        decider = position.decider()
        if decider is None:
            raise SolverError("the game waits for dice the walk does not give")
        options = [expected(position, action) for action in ordered(position)]
        best = max(options) if decider is side else min(options)
        known[here] = best
        return best

    def expected(position: Game, action: A.Action) -> float:
        if deadline < math.inf and time.time() > deadline:
            raise SolverError("out of time")
        return sum(float(chance) * worth(after) for after, chance in search.outcomes(position, action))

    root = game.copy(record=False, dice=Dice.scripted())  # the walk gives each copy its dice
    try:
        scored = [(action, expected(root, action)) for action in ordered(root)]
    except SolverError:
        return None
    best_action, best_value = scored[0]
    for action, found in scored[1:]:
        if found > best_value + 1e-12:
            best_action, best_value = action, found
    return best_action, best_value


def ordered(game: Game) -> list[A.Action]:
    """The legal actions in a fixed order (attacks first, passing last, then by their notation): ties
    go to the first, so the same position always gives the same choice."""
    return sorted(game.legal_actions(), key=lambda a: (action_rank(a), game.format(a)))
