"""The heuristic bot: every candidate action scored in points from the exact odds, the best one taken.

- Attacks: the expected harm (`scoring.harm`: the counters the hits would place, given those already
  on the target) weighed by the target's worth, so a good shot at a valuable target beats a poor one.
- Moves: how much better the unit stands at the end (`scoring.Evaluator`: its best attack from there,
  the enemy's best reply, its facing, cover, the objective as the turn it decides nears, a lead on
  points to keep) less the risk of defensive fire along the path.
- Defensive fire: fire when the shot is good for the target's worth, unless a later step of the same
  move offers a clearly better one (a rear shot, a hex without cover): hold for it.
- Activation order: the best-scored action of any unit goes first, and the scores are taken again
  after it, so attacks pile onto a target only until it is likely destroyed.
- Set-up and deployment: `minis.ai.deployment`.
- The overstack penalty (rule sets that check stacking at the end of the phase): the hit counter goes
  on the enemy unit it harms most.
- Aircraft (where to fly, what to strike, reaction shots): `minis.ai.flight`.

A decision costs a few milliseconds: units' options come from `Game.unit_options` (never every facing
of every destination), hex values are remembered while the enemy stays where it is (shared by every
bot of the process, so a search's playouts reuse them), and line of sight and the odds are cached.
Ties are broken by a small random term from a generator seeded by the bot's seed and the position, so
the same seed and the same view give the same choice, whatever was asked before.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping

from mypy_extensions import mypyc_attr

from minis.ai import arrivals as arrival_ai
from minis.ai import deployment, flight
from minis.ai import obstacles as obstacle_ai
from minis.ai.scoring import (
    STOP_SHARE,
    Evaluator,
    Sight,
    estimate,
    expected_harm,
    harm,
    plan_odds,
    sight_for,
    worth,
)
from minis.base.sides import Side
from minis.content.rule_sets import END_OF_PHASE
from minis.engine import actions as A
from minis.game import Game
from minis.hexgrid import Facing, Hex, direction_to, distance
from minis.rules import activation, stacking
from minis.rules.combat import AttackPlan, plan_attack
from minis.rules.defensive_fire import may_fire, provoked, window_hex
from minis.rules.legal import UnitOptions
from minis.state import GameState, Phase, Stage, Unit

__all__ = ["HeuristicBot"]

#: A move must gain this many points to be worth making (no shuffling back and forth for nothing).
MOVE_THRESHOLD = 0.25
#: A defensive-fire shot is held when a later step of the move offers odds this much better (times).
BETTER_LATER = 1.35
#: A defensive-fire shot is worth taking when its expected value reaches this many points.
FIRE_THRESHOLD = 1.2
#: Soldiers board a transport while the nearest enemy is at least this far, and dismount nearer.
TRANSPORT_DISTANCE = 6
#: The size of the random term that breaks ties.
JITTER = 1e-3

Scored = tuple[A.Action, float]


@mypyc_attr(allow_interpreted_subclasses=True)  # bots built on it stay interpreted
class HeuristicBot:
    """Scores the candidate actions of the deciding side and takes the best (see the module's text)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else random.randrange(2**63)

    # --- the interface -------------------------------------------------------------------------------

    def choose(self, game: Game) -> A.Action:
        return self.candidates(game, 1)[0][0]

    def candidates(self, game: Game, k: int) -> list[Scored]:
        """The best `k` actions of the deciding side, best first, with their scores (points)."""
        side = game.decider()
        if side is None:
            return []
        rng = self._rng(game.state)
        scored = self._score(game, side, rng)
        scored.sort(key=lambda item: -item[1])
        return scored[: max(k, 1)]

    # --- per decision --------------------------------------------------------------------------------

    def _rng(self, state: GameState) -> random.Random:
        """A generator for this decision only: the same seed and position give the same draws."""
        return random.Random(
            f"{self.seed}:{state.turn}:{state.phase.value}:{state.stage.value}:{state.active}:"
            f"{len(state.activated)}:{state.entry_counter}:{len(state.fired)}"
        )

    def _sight_for(self, state: GameState) -> Sight:
        board = state.battle.board
        assert board is not None
        return sight_for(board)

    def _evaluator_for(self, state: GameState, side: Side) -> Evaluator:
        """The hex values for `side`, shared in the process while the enemy, the turn and the objective
        stay the same (a search's playouts, each with bots of its own, meet the same positions)."""
        return Evaluator.shared(state, side)

    def _score(self, game: Game, side: Side, rng: random.Random) -> list[Scored]:
        state = game.state
        stage = state.stage
        if stage is Stage.ACT:
            phase = state.phase
            if phase is Phase.FLIGHT:  # the air phases and reaction windows come only with aircraft
                return flight.flight_choices(game, side, rng, JITTER)  # with pass where allowed
            if phase is Phase.AIRSTRIKE:
                return [(A.Pass(), 0.0), *flight.airstrikes(game, side, rng, JITTER)]
            return self._act(game, side, rng)
        if stage is Stage.REACTION:
            return flight.reaction_shots(game, side)
        if stage is Stage.DEFENSIVE_FIRE:
            return self._defensive_fire(game, side)
        if stage is Stage.DEPLOY and state.obstacles and obstacle_ai.placing(game):  # obstacles first
            return [(obstacle_ai.place(game, side, rng), 1.0)]
        if stage is Stage.DEPLOY:
            action = deployment.deploy(game, side, self._sight_for(state), rng)
            return [(action, 1.0)]
        if stage is Stage.CHOOSE_FIRST:
            mine = deployment.choose_first(side)
            return [(mine, 1.0), *((a, 0.0) for a in game.legal_actions() if a != mine)]
        if stage is Stage.CHOOSE_END:
            end = deployment.choose_end(game, side)
            return [(end, 1.0), *((a, 0.0) for a in game.legal_actions() if a != end)]
        if stage is Stage.CHOOSE_OBJECTIVE:
            return [(deployment.choose_objective(game, rng), 1.0)]
        if stage is Stage.PLACE:
            return self._place(game, side, rng)
        if stage is Stage.PENALTY:
            return self._penalty(game, rng)
        return [(action, rng.random()) for action in game.legal_actions()]  # the configuration: any

    # --- movement and assault ------------------------------------------------------------------------

    def _act(self, game: Game, side: Side, rng: random.Random) -> list[Scored]:
        state = game.state
        evaluator = self._evaluator_for(state, side)
        assault = state.phase is Phase.ASSAULT
        found: list[Scored] = [(A.Pass(), 0.0)]
        for uid in game.ready_units():
            options = game.unit_options(uid, with_attacks=assault)
            if options is None:
                continue
            unit = state.units[uid]
            best_attack = 0.0
            if options.attacks:
                mode = ""
                if uid in state.activated:
                    mode = next((o.ability for o in activation.offers(state, uid) if o.kind == "attack"), "")
                for target_id in options.attacks:
                    target = state.units[target_id]
                    plan = plan_attack(state, unit, target, mode=mode)
                    if isinstance(plan, AttackPlan):
                        value = expected_harm(plan_odds(plan), target) + rng.random() * JITTER
                        best_attack = max(best_attack, value)
                        found.append((A.Attack(uid, target_id), value))
            if best_attack > 1.0 and assault:
                continue  # a good shot beats moving in the assault phase: don't price its moves
            found.extend(self._moves(state, evaluator, unit, options.moves, rng))
            found.extend(self._others(state, evaluator, unit, options, rng))
        found.extend(arrival_ai.scored(game, evaluator, rng))  # Heroes, Paratroopers off the map
        return found

    def _moves(
        self,
        state: GameState,
        evaluator: Evaluator,
        unit: Unit,
        moves: Mapping[Hex, tuple[Hex, ...]],
        rng: random.Random,
    ) -> list[Scored]:
        """Moves that leave the unit better placed, scored by the gain less the risk on the way."""
        if unit.hex is None:
            return []
        here, _ = evaluator.value(unit, unit.hex)
        found: list[Scored] = []
        mine = worth(unit)
        extra = state.battle.terms.rules.stacking_checked == END_OF_PHASE  # the overstack penalty
        for dest, path in moves.items():
            value, facing = evaluator.value(unit, dest)
            gain = value - here - MOVE_THRESHOLD
            if extra and gain > 0.0 and not stacking.fits(state, unit, dest):
                gain -= _penalty_cost(state, unit, dest)
            if gain <= 0.0:
                continue
            stop = self._fire_risk(state, evaluator, unit, (unit.hex, *path))
            score = (1.0 - stop) * gain - stop * STOP_SHARE * mine + rng.random() * JITTER
            face = (facing or _toward(state, unit, dest)) if unit.card.is_vehicle else None
            found.append((A.Move(unit.id, tuple(path), face), score))
        return found

    def _fire_risk(self, state: GameState, evaluator: Evaluator, unit: Unit, path: tuple[Hex, ...]) -> float:
        """The chance that defensive fire stops the unit somewhere along `path` (start hex first).

        Each enemy the path provokes fires once, at the step and hex that suit it best (its best odds
        of disrupting); the chances of the different enemies combine as independent shots.
        """
        reach_ = len(path) + 1
        q, r = path[0]
        enemies = []
        for e in evaluator.enemies:
            if e.hex is not None and not e.card.is_aircraft:  # aircraft never fire defensively
                dq, dr = e.hex[0] - q, e.hex[1] - r
                if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= reach_:
                    enemies.append(e)
        if not enemies:
            return 0.0
        safe = 1.0
        sight = evaluator.sight
        for enemy in enemies:
            assert enemy.hex is not None
            best = 0.0
            for a, b in itertools.pairwise(path):
                if distance(a, enemy.hex) > 1 or distance(b, enemy.hex) > 1:
                    continue
                if not provoked(state, unit, enemy, a, b):
                    continue
                facing = direction_to(a, b) if unit.card.is_vehicle else None
                for where in (a, b):
                    odds = estimate(sight, enemy, enemy.hex, unit, where, facing, defensive=True)
                    if odds is not None and 1.0 - odds[0] > best:
                        best = 1.0 - odds[0]
            if best > 0.0 and may_fire(state, state.units[enemy.id]):
                safe *= 1.0 - best
        return 1.0 - safe

    def _others(
        self, state: GameState, evaluator: Evaluator, unit: Unit, options: UnitOptions, rng: random.Random
    ) -> list[Scored]:
        """Turning in place, boarding a transport, dismounting, an ability's own action."""
        found: list[Scored] = []
        if unit.hex is not None and options.faces:
            _, facing = evaluator.value(unit, unit.hex)
            if facing is not None and facing is not unit.facing and facing in options.faces:
                found.append((A.Face(unit.id, facing), 0.3 + rng.random() * JITTER))
        if options.landings:  # ashore from a boat afloat (rules/water.py), onto the best-valued bank hex
            ranked = sorted(options.landings, key=lambda h: evaluator.value(unit, h)[0])
            found.extend(
                (A.Dismount(unit.id, h), 1.0 + 0.01 * i + rng.random() * JITTER) for i, h in enumerate(ranked)
            )
        if not options.boards and options.dismount is None:
            found.extend((use, -0.5 + rng.random() * JITTER) for use in options.uses)
            return found
        nearest = min(
            (
                distance(unit.hex, e.hex)
                for e in evaluator.enemies
                if e.hex is not None and unit.hex is not None
            ),
            default=99,
        )
        for transport in options.boards:
            far = nearest >= TRANSPORT_DISTANCE and state.units[transport].id not in state.activated
            found.append(
                (A.BoardTransport(unit.id, transport), (0.5 if far else -1.0) + rng.random() * JITTER)
            )
        if options.dismount is not None:
            near = nearest < TRANSPORT_DISTANCE or evaluator.objective_weight > 0.5
            found.append(
                (A.Dismount(unit.id, options.dismount), (1.0 if near else -1.0) + rng.random() * JITTER)
            )
        found.extend((use, -0.5 + rng.random() * JITTER) for use in options.uses)
        return found

    # --- defensive fire ------------------------------------------------------------------------------

    def _defensive_fire(self, game: Game, side: Side) -> list[Scored]:
        """Fire with the unit whose shot is best, unless the mover is already stopped or a later step of
        its move gives that unit a clearly better shot (then hold for it)."""
        state = game.state
        move = state.move
        hold: Scored = (A.Hold(), 0.0)
        if move is None:
            return [hold]
        mover = state.units[move.unit]
        if mover.disrupted or move.stopped:
            return [hold]  # disruptions don't add up: keep the fire for another mover
        sight = self._sight_for(state)
        where = window_hex(move)
        value = worth(mover)
        # The steps still to come, each with the hex the mover would be in and its facing there.
        later: list[tuple[Hex, Hex]] = []
        for index in range(move.step, len(move.path) - 1):
            a, b = move.path[index], move.path[index + 1]
            if index == move.step and move.at == 2:
                continue
            later.append((a, b))
        found: list[Scored] = []
        for action in game.legal_actions():
            if not isinstance(action, A.Fire):
                continue
            firer = state.units[action.unit]
            plan = plan_attack(state, firer, mover, defensive=True)
            if not isinstance(plan, AttackPlan):
                continue
            now = 1.0 - plan_odds(plan)[0]
            best_later = 0.0
            for a, b in later:
                if firer.hex is None or not provoked(state, mover, firer, a, b):
                    continue
                facing = direction_to(a, b) if mover.card.is_vehicle else None
                for there in (a, b):
                    if there == where:
                        continue
                    odds = estimate(sight, firer, firer.hex, mover, there, facing, defensive=True)
                    if odds is not None:
                        best_later = max(best_later, 1.0 - odds[0])
            score = now * STOP_SHARE * value * 4.0
            if best_later > now * BETTER_LATER or score < FIRE_THRESHOLD:
                score = min(score, -0.01)  # hold for the better shot, or keep the fire for a better target
            found.append((action, score))
        return [hold, *found]

    # --- placing a dismounted enemy ------------------------------------------------------------------

    def _place(self, game: Game, side: Side, rng: random.Random) -> list[Scored]:
        """Put an enemy Soldier that must dismount where it has no cover and our units are near."""
        state = game.state
        board = state.battle.board
        assert board is not None
        ours = [u.hex for u in state.on_map(side) if u.hex is not None]
        found: list[Scored] = []
        for action in game.legal_actions():
            assert isinstance(action, A.Dismount)
            cover = board.terrain(action.hex).effects.cover(False) is not None
            near = min((distance(action.hex, h) for h in ours), default=0)
            found.append((action, -2.0 * cover - 0.1 * near + rng.random() * JITTER))
        return found

    # --- the overstack penalty -----------------------------------------------------------------------

    def _penalty(self, game: Game, rng: random.Random) -> list[Scored]:
        """The enemy unit of an overstacked hex that takes the hit counter: the one it harms most (its
        worth, and what the counters it already has make of one more), as an attack would choose."""
        state = game.state
        return [
            (action, harm(state.units[action.unit], 1) + rng.random() * JITTER)
            for action in game.legal_actions()
            if isinstance(action, A.Penalty)
        ]


def _penalty_cost(state: GameState, unit: Unit, hex_: Hex) -> float:
    """What stopping in `hex_` as the one extra unit may cost at the pass: the hit counter the opponent
    puts where it harms most."""
    ours = [u for u in state.at(hex_) if u.side is unit.side and u.id != unit.id]
    return max(harm(u, 1) for u in (unit, *ours))


def _toward(state: GameState, unit: Unit, hex_: Hex) -> Facing:
    """A facing for a Vehicle with no enemy in sight: toward the objective, else the enemy's end."""
    objective = state.objective
    if objective is not None and objective != hex_:
        steps = [(distance(hex_ + f.value, objective), f) for f in Facing]
        return min(steps, key=lambda item: (item[0], item[1].name))[1]
    return Facing.E if state.ends.get(unit.side) == "west" else Facing.W
