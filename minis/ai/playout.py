"""Playouts for the search bot: a position played forward with fresh dice, and what it was worth.

A playout copies a position, applies one candidate action, then lets a policy bot play both sides
(each from its side's `view`) until the horizon: the end of the turn (its casualty phase done; or of
the next turn, and so on, for a search that looks deeper), the end of the game, or a number of
actions. Each action rolls dice seeded by the playout's seed and the
event itself (`keyed_dice`), so the same attack rolls the same dice in every candidate's playout of
that seed. The position it reaches is scored for the side that chose (`score`): material, the
objective, a win or a loss, and the units' placing (`placing`).

Playouts run in this process or in worker processes. A worker gets the position as bytes (`pack`):
a `Game` does not pickle as it is (its battle holds mappingproxy tables, its board loader may be a
closure), so the state and the header are pickled with a reducer for those tables, and the worker
rebuilds a game from them (`unpack`) once per decision and copies it for every playout.
"""

from __future__ import annotations

import copyreg
import io
import os
import pickle
import random
import sys
import time
import types
from collections.abc import Callable, Mapping
from typing import Any

from minis.ai import learned
from minis.ai.bot import Bot, BotFactory, view
from minis.ai.material import unit_worth
from minis.ai.scoring import Evaluator
from minis.base.sides import Side
from minis.base.worker_watch import end_with_parent
from minis.dice import Dice
from minis.engine import actions as A
from minis.engine.terms import Hold, ObjectiveFrom
from minis.game import Game
from minis.rules.errors import IllegalAction
from minis.rules.victory import controller, exited
from minis.state import Counter, GameState, Phase, Stage

__all__ = ["leaf_value", "pack", "placing", "play", "score", "unpack", "worker_playout", "worker_start"]

#: The objective's worth at its deciding turn, as a share of both armies' points (less before it).
OBJECTIVE_SHARE = 0.25
#: The leaf evaluations a playout's end may be scored by (`leaf_value`).
EVALUATIONS = ("hand", "learned", "both")
#: Which one the search uses: "hand" (`score` plus the search's leaf weight times `placing`, set by hand)
#: or "learned" (the shipped evaluation table's model, `minis.ai.learned`), or "both" (their sum: the
#: learned win chance, with the hand-set points beside it). From the environment's
#: MINIS_LEAF, so that a search's spawned workers follow it too; "hand" unless proven better (docs/ai.md).
#: A strength may name its own (`sharp.HARD_LEAF`); MINIS_LEAF, when set, decides for every search.


def _leaf_from_environment() -> str:
    """MINIS_LEAF's value, or "hand" with one line on stderr when it names no leaf evaluation (a typo
    must not pass for a run of the learned leaf)."""
    value = os.environ.get("MINIS_LEAF", "hand")
    if value in EVALUATIONS:
        return value
    choices = ", ".join(EVALUATIONS)
    sys.stderr.write(f"MINIS_LEAF={value!r} is not one of {choices}: the hand-set leaf is used\n")
    return "hand"


EVALUATION = _leaf_from_environment()
#: Whether MINIS_LEAF is set: then it, not a strength's own leaf, scores every search's playouts (so a
#: ladder chunk played with the hand-set leaf before `hard` changed its own can still be played again).
LEAF_FROM_ENVIRONMENT = "MINIS_LEAF" in os.environ


# --- scoring -------------------------------------------------------------------------------------------


def score(state: GameState, side: Side) -> float:
    """How good `state` is for `side`, in points: material kept minus the enemy's, the objective, the end.

    A won game counts as both armies' points, a lost one as minus that, so an outcome outweighs any
    material; the objective counts for a share of that, growing as its deciding turn comes near.
    """
    gone = exited(state)
    total = 0.0
    balance = 0.0
    for unit in state.units.values():
        total += float(unit.card.cost)
        worth = unit_worth(unit, gone)
        balance += worth if unit.side is side else -worth
    if state.stage is Stage.OVER:
        if state.winner is side:
            return balance + total
        if state.winner is side.other:
            return balance - total
        return balance
    holder = controller(state)
    if holder is not None:
        turns = [c.from_turn for c in state.battle.terms.victory if isinstance(c, ObjectiveFrom)]
        turns += [c.turn for c in state.battle.terms.victory if isinstance(c, Hold)]
        if turns:
            weight = OBJECTIVE_SHARE * total / (1 + max(0, min(turns) - state.turn))
            balance += weight if holder is side else -weight
    return balance


def placing(state: GameState, side: Side) -> float:
    """How much better `side`'s units stand than the enemy's, in the heuristic's points.

    Each unit on the map is valued where it stands (`scoring.Evaluator`: its best attack from there,
    less the harm the enemy could do to it, cover, the objective as its turn nears); the enemy's units
    the same way from their side. Added to `score` at a playout's horizon, it lets a short playout see
    what the next turn will make of the position, not only the material it reached.
    """
    if state.battle.board is None:
        return 0.0
    total = 0.0
    for who, sign in ((side, 1.0), (side.other, -1.0)):
        evaluator = Evaluator.shared(state, who)
        if not evaluator.enemies:
            continue  # nothing to shoot or fear: a hex's value would be only the pull toward no one
        for unit in state.units.values():
            standing = unit.hex is not None and unit.carried_by is None and not unit.removed
            standing = standing and not unit.card.is_aircraft  # an aircraft leaves the map at the turn's end
            if unit.side is who and standing and Counter.DESTROYED not in unit.pending:
                assert unit.hex is not None
                total += sign * evaluator.value(unit, unit.hex)[0]
    return total


def leaf_value(state: GameState, side: Side, leaf: float, evaluation: str | None = None) -> float:
    """A playout's end scored for `side`: a finished game by `score`; else by the hand-set evaluation
    (`score` plus `leaf` times `placing`) or the learned one (the win chance on the same points scale,
    `learned.Model.leaf`), as `evaluation` (default: `EVALUATION`) says."""
    value = score(state, side)
    if state.stage is Stage.OVER:
        return value
    chosen = evaluation or EVALUATION
    if chosen != "hand":
        model = learned.shipped_model()
        if model is not None:
            if chosen == "learned":
                return model.leaf(state, side)
            value += model.leaf(state, side)
    if leaf:
        value += leaf * placing(state, side)
    return value


#: How a playout's end is scored for a side (`leaf_value`'s shape): the state, the side, the leaf weight.
LeafValue = Callable[[GameState, Side, float], float]

# --- playing forward -----------------------------------------------------------------------------------

#: Dice by event: each action of a playout rolls dice seeded by the playout's seed and the action itself
#: (False: one stream of dice for the whole playout, as before; kept for comparisons).
KEYED_DICE = True


def keyed_dice(seed: int, state: GameState, action: A.Action, seen: dict[str, int]) -> Dice:
    """The dice for `action` in a playout: seeded by the playout's seed and the event (the turn, the
    phase, the action, the unit moving during defensive fire, how many times it came up before).

    With one stream of dice for a whole playout, a candidate that rolls one more die shifts every roll
    after it, and two candidates' playouts share little luck. Keyed by the event, the same attack gets
    the same dice in every candidate's k-th playout, so paired differences show what the candidates
    change, not which dice each happened to draw.
    """
    move = state.move
    key = f"{state.turn}:{state.phase.value}:{action!r}:{move.unit if move is not None else ''}"
    count = seen.get(key, 0)
    seen[key] = count + 1
    return Dice(seed=random.Random(f"{seed}:{key}:{count}").getrandbits(63))


def play(
    base: Game,
    action: A.Action,
    seed: int,
    policy: BotFactory,
    horizon: int,
    deadline: float = float("inf"),
    leaf: float = 0.0,
    value: LeafValue | None = None,
    turns: int = 1,
) -> float | None:
    """One playout of `action` from `base` (left untouched) to the end of `turns` turns, this one first
    (or of the game, or `horizon` actions); its score for the side deciding at `base`
    (`value`, by default `leaf_value`: `score`, plus `leaf` times `placing` unless the game is over, or
    the learned leaf; the improved search adds its own terms, `minis.ai.sharp.leaf_value`).

    None if the deadline (a `time.time()` value) passed before the horizon, or if the action or a
    policy's action was refused (a policy's mistake must not end the search).
    """
    side = base.decider()
    if side is None:
        return None
    rng = random.Random(seed)
    game = base.copy(record=False, dice=Dice(seed=rng.randrange(2**63)))
    turn = game.state.turn
    bots: Mapping[Side, Bot] = {s: policy(rng.randrange(2**63)) for s in Side}
    dice_seed = rng.randrange(2**63)
    seen: dict[str, int] = {}
    # The position is already the deciding side's view (the search is given one), and once set-up is
    # over a side's projection hides nothing but dice and the record, which a playout's copy holds
    # none of (its dice are its own): so the policy decides on the playout's game itself instead of on
    # a projection of it rebuilt at every action (a playout starts past set-up and never goes back).
    open_view = game.state.phase is not Phase.SETUP
    try:
        if KEYED_DICE:
            game.dice = keyed_dice(dice_seed, game.state, action, seen)
        game.apply(action)
        for _ in range(horizon):
            decider = game.decider()
            if decider is None or game.state.turn - turn >= turns:
                break
            if time.time() > deadline:
                return None
            view_seed = rng.randrange(2**63)  # drawn as before, so the playout's later draws stay the same
            chosen = bots[decider].choose(game if open_view else view(game, decider, view_seed))
            if KEYED_DICE:
                game.dice = keyed_dice(dice_seed, game.state, chosen, seen)
            game.apply(chosen)
    except IllegalAction:
        return None
    return (value or leaf_value)(game.state, side, leaf)


# --- shipping a position to a worker -------------------------------------------------------------------


def _proxy(table: dict[Any, Any]) -> types.MappingProxyType[Any, Any]:
    """Rebuilds a read-only table on unpickling (mappingproxy has no pickle support of its own)."""
    return types.MappingProxyType(table)


def _reduce_proxy(table: types.MappingProxyType[Any, Any]) -> tuple[object, tuple[dict[Any, Any]]]:
    return (_proxy, (dict(table),))


#: The table of the picklers of positions: they also take the battle's read-only tables (only for
#: positions, not process-wide). Given to each pickler rather than kept by a subclass of `pickle.Pickler`:
#: the fast build cannot compile such a class.
_DISPATCH: dict[Any, Any] = {**copyreg.dispatch_table, types.MappingProxyType: _reduce_proxy}


def pack(game: Game) -> bytes:
    """A position as bytes a worker can rebuild: the state and the header (not the dice or the record)."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _DISPATCH
    pickler.dump((game.state, game.header))
    return buffer.getvalue()


def unpack(data: bytes) -> Game:
    """The game `pack` shipped, with a dice source of its own (each playout gives its copy fresh dice)."""
    state, header = pickle.loads(data)
    return Game(state, Dice(seed=0), header)


# --- the worker's side ---------------------------------------------------------------------------------

#: In a worker process: the policy its playouts use, and the last position it rebuilt (key, game).
_policy: BotFactory | None = None
_position: tuple[str, Game] | None = None


def worker_start(policy: BotFactory, parent: int | None = None) -> None:
    """A worker's initializer: the policy comes once, with the pool, not with every playout; the worker
    ends with `parent` (the process of the search) if that one is killed."""
    global _policy
    _policy = policy
    if parent is not None:
        end_with_parent(parent)


def worker_playout(
    key: str,
    data: bytes,
    action: A.Action,
    seed: int,
    horizon: int,
    deadline: float,
    leaf: float = 0.0,
    value: LeafValue | None = None,
    turns: int = 1,
) -> float | None:
    """A playout in a worker; the position is rebuilt once per decision (`key`) and reused after that."""
    global _position
    if _policy is None:
        raise RuntimeError("worker_playout runs in a worker started with worker_start")
    if _position is None or _position[0] != key:
        _position = (key, unpack(data))
    return play(_position[1], action, seed, _policy, horizon, deadline, leaf, value, turns)
