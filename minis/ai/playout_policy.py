"""The search's playout policy: the heuristic, deciding from what it has already worked out in the playout.

The heuristic (`minis.ai.heuristic`) lists and scores every ready unit's options afresh at every action:
in a side's assault phase of ten units that is ten units' attack plans and hex values for each of its
ten attacks, though one attack changes only its target's counters. This bot keeps, for the side and
phase it plays, each unit's scored options (its attacks with their odds, and the best of its moves,
turns and other actions), and works a unit out again only when what they hang on may have changed:

- the unit itself (a new `Unit`: it moved, turned, was disrupted), or it has acted this phase (the
  extra actions an ability leaves it are always listed afresh): listed again;
- the enemy's units as the hex values see them (where each stands, its facing, disrupted, damaged,
  carried), or the turn, phase or side: every unit listed again;
- the enemy's face-down counters (a hit): the unit's moves priced again with the hex values of now,
  as the heuristic's are (`Evaluator.key` counts the counters), when no shot of its is good enough to
  leave them out; its attacks are valued at every action from their kept odds on the targets as they
  stand now (`scoring.expected_harm`), so attacks pile onto a target only until it is likely destroyed.

Listings are also shared between the playouts of the process (`_SHARED`), keyed by the whole position
(`_position`): the playouts of a decision reach the same positions again and again. A listing is a
function of that position alone (no random tie-breaking term: ties go to the first listed), so a
playout plays the same whatever the process played before it (a search with workers stays
reproducible).

What a kept or shared score may miss (a friend that moved into a hex or next to the unit, an enemy
that fired defensively) is settled before it is played: the engine must take the action now
(`Game.can_attack`, or the unit's listed moves), else the unit is listed afresh and the best is taken
again. So every action it plays is one the engine takes now, as the heuristic's are. Everything but
the movement and assault phases (defensive fire, set-up, aircraft, the choice to go first) is the
heuristic's own, and `candidates` (the search's candidates at its root) lists everything afresh, so it
ranks exactly as the heuristic does; only `choose` keeps what it worked out. A bot lives for one
playout (the search makes new ones for each); a kept entry holds the `Unit` it was worked out for
and is used only while that unit stands as it was.
"""

from __future__ import annotations

import random

from mypy_extensions import mypyc_attr

from minis.ai import arrivals as arrival_ai
from minis.ai.heuristic import HeuristicBot, Scored
from minis.ai.scoring import Evaluator, FloatOdds, expected_harm, plan_odds
from minis.base.fields import same
from minis.base.sides import Side
from minis.engine import actions as A
from minis.engine.battle import Battle
from minis.game import Game
from minis.rules import activation, caching
from minis.rules.arrivals import any_special
from minis.rules.combat import AttackPlan, may_reach, plan_attack
from minis.state import GameState, Phase, Stage, Unit

__all__ = ["PlayoutBot", "playout_policy"]

#: An attack kept for a unit: the target and the odds of its plan.
_Attack = tuple[str, FloatOdds]


class _Entry:
    """One unit's options as scored when it was last listed: its attacks, and the best of the rest."""

    __slots__ = ("attacks", "best_other", "counters", "priced", "unit")

    def __init__(
        self, unit: Unit, attacks: list[_Attack], others: list[Scored] | None, counters: tuple[object, ...]
    ) -> None:
        self.unit = unit
        self.attacks = attacks
        #: The enemy's face-down counters when its moves were priced (the hex values count them).
        self.counters = counters
        #: Whether its moves, turns and the rest were priced (not when a good shot left them out).
        self.priced = others is not None
        #: The best of them (None: none).
        self.best_other = max(others, key=lambda item: item[1]) if others else None


@mypyc_attr(allow_interpreted_subclasses=True)  # bots built on it stay interpreted
class PlayoutBot(HeuristicBot):
    """The heuristic for playouts: each unit's options kept while they hold (see the module's text)."""

    name = "playout"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._key: tuple[object, ...] | None = None
        self._kept: dict[str, _Entry | None] = {}
        self._evaluator: Evaluator | None = None  # the hex values of the action under way, once made
        self._counters: tuple[object, ...] = ()  # the enemy's face-down counters at the action under way

    def choose(self, game: Game) -> A.Action:
        state = game.state
        side = game.decider()
        if side is None or state.stage is not Stage.ACT or state.phase not in (Phase.MOVEMENT, Phase.ASSAULT):
            return super().choose(game)
        return self._kept_choice(game, side)

    def _kept_choice(self, game: Game, side: Side) -> A.Action:
        """The best action of a movement or assault phase, from what is kept (the module's text)."""
        state = game.state
        self._evaluator = None  # made when a unit is listed (`_list`), not at every action
        key = _key(state, side)
        if key != self._key:
            self._key = key
            self._kept.clear()
        counters = self._counters = _counters(state, side)
        assault = state.phase is Phase.ASSAULT
        kept = self._kept
        scored: dict[str, Scored] = {}
        fresh: set[str] = set()
        board: tuple[object, ...] | None = None
        for uid in game.ready_units():
            entry = kept.get(uid)
            unit = state.units[uid]
            if uid in state.activated:
                entry = self._list(game, side, uid, assault)
                fresh.add(uid)
            elif uid not in kept or (
                entry is not None and entry.unit is not unit and not same(entry.unit, unit)
            ):
                if board is None:
                    board = _position(state)
                where = (side, unit, board)
                shared = _SHARED.get(where) if caching.enabled else None
                if shared is not None and shared[0] is state.battle:  # worked out in another playout
                    entry = kept[uid] = shared[1]
                else:
                    entry = self._list(game, side, uid, assault)
                    fresh.add(uid)
                    if caching.enabled:
                        _SHARED[where] = (state.battle, entry)
                        if len(_SHARED) > SHARED_KEPT:
                            del _SHARED[next(iter(_SHARED))]
            if entry is None:
                continue
            found, needed = _best(state, uid, entry, assault, entry.counters != counters)
            if needed and entry.priced:  # a hit since, and no shot good enough: its moves priced again
                entry = self._reprice(game, side, entry)
                found = _best(state, uid, entry, assault, False)[0]
            elif needed:  # its shots lost their worth: its moves must be priced now
                entry = self._list(game, side, uid, assault)
                fresh.add(uid)
                found = _best(state, uid, entry, assault, False)[0] if entry is not None else None
            if found is not None:
                scored[uid] = found
        arrivals: list[Scored] = []
        if any_special(state):  # Heroes, Paratroopers off the map (their tie-breaks: the heuristic's)
            arrivals = arrival_ai.scored(game, self._evaluator_for(state, side), self._rng(state))
        while True:
            best: Scored = (A.Pass(), 0.0)
            for action, value in arrivals:
                if value > best[1]:
                    best = (action, value)
            owner = ""
            for uid, (action, value) in scored.items():
                if value > best[1]:
                    best, owner = (action, value), uid
            if not owner or owner in fresh or _listed(game, owner, best[0]):
                return best[0]
            entry = self._list(game, side, owner, assault)  # not listed now: score it afresh
            fresh.add(owner)
            found = _best(state, owner, entry, assault, False)[0] if entry is not None else None
            if found is not None:
                scored[owner] = found
            else:
                del scored[owner]

    def _list(self, game: Game, side: Side, uid: str, assault: bool) -> _Entry | None:
        """A unit's options listed by the engine and scored as the heuristic scores them; kept."""
        state = game.state
        options = game.unit_options(uid, with_attacks=False)
        if options is None:
            self._kept[uid] = None
            return None
        unit = state.units[uid]
        attacks: list[_Attack] = []
        best_attack = 0.0
        if assault:
            for target, plan in _attack_plans(state, unit):
                odds = plan_odds(plan)
                attacks.append((target.id, odds))
                best_attack = max(best_attack, expected_harm(odds, target))
        others: list[Scored] | None = None
        if not (best_attack > 1.0 and assault):
            evaluator = self._evaluator
            if evaluator is None:
                evaluator = self._evaluator = self._evaluator_for(state, side)
            others = self._moves(state, evaluator, unit, options.moves, _NO_JITTER)
            others.extend(self._others(state, evaluator, unit, options, _NO_JITTER))
        entry = _Entry(unit, attacks, others, self._counters)
        self._kept[uid] = entry
        return entry

    def _reprice(self, game: Game, side: Side, entry: _Entry) -> _Entry:
        """A kept unit's moves and other actions priced again with the hex values of now (its attacks
        kept: they are valued afresh at every action); kept in place of the old entry."""
        state = game.state
        unit = entry.unit
        options = game.unit_options(unit.id, with_attacks=False)
        others: list[Scored] = []
        if options is not None:
            evaluator = self._evaluator
            if evaluator is None:
                evaluator = self._evaluator = self._evaluator_for(state, side)
            others = self._moves(state, evaluator, unit, options.moves, _NO_JITTER)
            others.extend(self._others(state, evaluator, unit, options, _NO_JITTER))
        priced = _Entry(unit, entry.attacks, others, self._counters)
        self._kept[unit.id] = priced
        return priced


def _attack_plans(state: GameState, unit: Unit) -> list[tuple[Unit, AttackPlan]]:
    """The units `unit` may attack now with the plan of each attack, in the engine's order: the targets
    `legal.unit_options` lists (those `attack_allowed` passes), each planned once instead of checked by
    the listing and planned again by the scoring (`plan_attack` plans exactly the attacks it allows)."""
    mode = ""
    if unit.id in state.activated:  # an extra action: an attack only if one is offered
        offers = [o.ability for o in activation.offers(state, unit.id) if o.kind == "attack"]
        if not offers:
            return []
        mode = offers[0]
    found: list[tuple[Unit, AttackPlan]] = []
    for target in state.units.values():
        if target.side is unit.side or not target.on_map or not (mode or may_reach(state, unit, target)):
            continue
        plan = plan_attack(state, unit, target, mode=mode)
        if isinstance(plan, AttackPlan):
            found.append((target, plan))
    return found


def _counters(state: GameState, side: Side) -> tuple[object, ...]:
    """The enemy's face-down counters: a hit changes the hex values (`Evaluator.key` counts them), so
    moves priced before it are priced again; attacks are valued on their targets afresh anyway."""
    return tuple(u.pending for u in state.units.values() if u.side is not side)


def _listed(game: Game, uid: str, action: A.Action) -> bool:
    """Whether the engine takes `action` of the unit now (a kept score is played only then)."""
    if isinstance(action, A.Attack):
        return game.can_attack(uid, action.target)
    options = game.unit_options(uid, with_attacks=False)
    if options is None:
        return False
    if isinstance(action, A.Move):
        return bool(action.path) and tuple(options.moves.get(action.path[-1], ())) == action.path
    if isinstance(action, A.Face):
        return action.facing in options.faces
    if isinstance(action, A.BoardTransport):
        return action.transport in options.boards
    if isinstance(action, A.Dismount):
        return action.hex == options.dismount or action.hex in options.landings
    if isinstance(action, A.Use):
        return action in options.uses
    return False


def _best(
    state: GameState, uid: str, entry: _Entry, assault: bool, stale: bool
) -> tuple[Scored | None, bool]:
    """A unit's best action now (None: nothing), its attacks valued on their targets as they stand now;
    and True if its moves are needed (no shot good enough to leave them out) but were not priced, or
    were priced before a hit (`stale`)."""
    best: Scored | None = None
    units = state.units
    for target_id, odds in entry.attacks:
        value = expected_harm(odds, units[target_id])
        if best is None or value > best[1]:
            best = (A.Attack(uid, target_id), value)
    if best is not None and best[1] > 1.0 and assault:
        return best, False
    if not entry.priced or stale:
        return None, True
    other = entry.best_other
    if other is not None and (best is None or other[1] > best[1]):
        return other, False
    return best, False


def _position(state: GameState) -> tuple[object, ...]:
    """The whole position as one hashable value: every unit, the turn, the phase, who acts, and every
    piece of the rules' bookkeeping (`GameState.bookkeeping`). A listing is a function of it alone (no
    random term: `_NO_JITTER`), so one worked out in another playout is exactly the one this playout
    would work out, and a playout plays the same whatever the process played before it."""
    return (
        state.turn,
        state.phase,
        state.stage,
        state.first,
        state.active,
        state.objective,
        frozenset(state.activated),
        frozenset(state.fired.items()),
        frozenset(state.road_bonus),
        state.move,
        state.placing,
        state.broken_roads,
        state.entry_counter,
        state.losses,
        state.bookkeeping(),
        tuple(state.units.values()),
    )


@mypyc_attr(native_class=False)  # the fast build: a compiled class cannot extend random.Random
class _NoJitter(random.Random):
    """The tie-breaking term of the heuristic's scores, always 0: a listing must not depend on the bot
    that made it (listings are shared between playouts), so ties go to the first listed."""

    def random(self) -> float:
        return 0.0


_NO_JITTER = _NoJitter(0)


#: Units' listings shared by the playouts of the process, keyed by the side, the unit and the whole
#: position (`_position`), with the battle they were made in (the position's hex values hang on it): the
#: playouts of a decision reach the same positions again and again. An entry found here is played only
#: once the engine takes its action (`_listed`), as any kept score. The most recent are kept.
_SHARED: dict[tuple[object, ...], tuple[Battle, _Entry | None]] = {}
SHARED_KEPT = 20_000


def _key(state: GameState, side: Side) -> tuple[object, ...]:
    """What every kept score hangs on: the turn, the phase, the side, and the enemy's units as the hex
    values see them, face-down counters left out (attacks are valued on their targets afresh)."""
    return (
        state.turn,
        state.phase,
        side,
        tuple(
            (u.id, u.hex, u.facing, u.disrupted, u.damaged, u.carried_by, u.removed)
            for u in state.units.values()
            if u.side is not side
        ),
    )


def playout_policy(seed: int) -> PlayoutBot:
    """The search's default playout policy (a module's function: it pickles for the search's workers)."""
    return PlayoutBot(seed)
