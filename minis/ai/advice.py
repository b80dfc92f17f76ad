"""A hint: what the heuristic bot would do in a player's place, and one line of why, from the numbers it
chose by (the odds of an attack, the enemies that could fire at a unit where it stands and where it
would go, the cover of a hex, the objective's distance, the cover of an end of the map ...).

The bot's choice is left as it is (it is the other bots' yardstick): `advise` asks it for its scored
candidates, the same list its `choose` takes the first of, and only adds the reason. One rule is the
hint's own: it never proposes ending a movement, assault or airstrike phase while a unit of the player
has an attack the bot itself rates useful (`USEFUL_ATTACK` points of expected harm, as the bot scores
attacks): it proposes that attack instead. (The bot scores an ability's own attack, a Goliath's Remote
Control or an aircraft's Rockets, below ending the phase; a player asking for a hint should hear of it,
also when it is worth more than the move the bot would make.)

The reason names units by `{0}`, `{1}` ... (`Advice.units` holds their ids): the window puts in the
players' names ("the second Bazooka"), so no id reaches a player; `{it0}`, `{obj0}`, `{its0}`, `{is0}`
are the words that agree with unit 0's name ("they", "them", "their", "are" for "Soviet Grenadiers").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from minis.ai.candidates import Reason
from minis.ai.deployment import _cover_score
from minis.ai.heuristic import BETTER_LATER, FIRE_THRESHOLD
from minis.ai.scoring import (
    STOP_SHARE,
    Evaluator,
    FloatOdds,
    estimate,
    expected_harm,
    harm,
    plan_odds,
    reach,
    sight_for,
    worth,
)
from minis.base.grammar import plural
from minis.base.sides import Side
from minis.content.ability_catalogue import ability_name
from minis.engine import actions as A
from minis.game import Game
from minis.hexgrid import Hex, direction_to, distance
from minis.rules import air, arrivals
from minis.rules.combat import AttackPlan, plan_attack
from minis.rules.defensive_fire import provoked, window_hex
from minis.state import Counter, GameState, Phase, Stage, Unit

__all__ = ["USEFUL_ATTACK", "Advice", "advise", "advise_choice"]

#: An attack whose expected harm reaches this many points is worth more than ending the phase.
USEFUL_ATTACK = 0.5

Scored = tuple[A.Action, float]


@attrs.frozen
class Advice:
    """The action to take and why, in one line; `{0}`, `{1}` ... in `why` stand for the units of
    `units` (ids), named by `words`."""

    action: A.Action
    why: str
    units: tuple[str, ...] = ()

    def words(self, name: Callable[[str], str]) -> str:
        """The reason with each unit named by `name` (the window's: "the second Bazooka"), and the
        pronouns and verbs about it agreeing with that name."""
        names = [name(unit) for unit in self.units]
        agree: dict[str, str] = {}
        for i, called in enumerate(names):
            many = plural(called)
            agree |= {
                f"it{i}": "they" if many else "it",
                f"obj{i}": "them" if many else "it",
                f"its{i}": "their" if many else "its",
                f"is{i}": "are" if many else "is",
                f"has{i}": "have" if many else "has",
            }
        return self.why.format(*names, **agree)


def advise(game: Game, candidates: Sequence[Scored]) -> Advice | None:
    """The hint for the player the game waits for: the first of `candidates` (the bot's scored actions,
    best first), or the most useful attack when that first one ends the phase; and why."""
    side = game.decider()
    if side is None or not candidates:
        return None
    action, score = candidates[0]
    state = game.state
    if isinstance(action, A.Pass) and state.stage is Stage.ACT:
        better = _useful_attack(game, candidates)
        if better is not None:
            action = better
    elif state.stage is Stage.ACT and not isinstance(action, A.Attack | A.Use):
        # an ability's attack the bot scores below any move: worth more than the move it beats
        found = _useful_attack(game, [c for c in candidates if isinstance(c[0], A.Use)])
        if found is not None and _attack_value(state, found) > score:
            action = found
    return _Why(game, side, candidates).of(action)


def advise_choice(
    game: Game, action: A.Action, candidates: Sequence[Scored], reason: Reason | None = None
) -> Advice | None:
    """The hint for another bot's choice (the hard bot's, `minis.ai.sharp.SharpBot.explain`): `action`
    with the heuristic's `candidates` for the reasons and the rule about useful attacks, and, when a plain
    look called for it (`reason`: a unit out of reach of a threat, an attack on a threat, a start for the
    objective in time), that reason instead."""
    score = next((value for found, value in candidates if found == action), 0.0)
    ranked = [(action, score), *(c for c in candidates if c[0] != action)]
    advice = advise(game, ranked)
    if advice is None or reason is None or advice.action != action:
        return advice
    return _reasoned(advice.action, reason) or advice


def _reasoned(action: A.Action, reason: Reason) -> Advice | None:
    """One line for a plain look's reason; `{0}` is its unit, `{1}` ... the enemies."""
    if reason.kind == "leave" and reason.enemies:
        shown = reason.enemies[:3]
        named = [f"{{{i + 1}}}" for i in range(len(shown))]
        them = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
        more = f" and {_count(len(reason.enemies) - 3)} more" if len(reason.enemies) > 3 else ""
        why = f"{{0}} gets out of reach of {them}{more}, which could attack {{obj0}} next turn"
        return Advice(action, why, (reason.unit, *shown))
    if reason.kind == "counter" and reason.enemies:
        why = "{1} could attack {0} next turn: hit it first"
        return Advice(action, why, (reason.unit, reason.enemies[0]))
    if reason.kind == "clock":
        turns = "1 turn" if reason.turns == 1 else f"{reason.turns} turns"
        left = "1 turn" if reason.left == 1 else f"{reason.left} turns"
        why = f"{{0}} {{has0}} to start for the objective now: {turns} away, {left} left before it decides"
        return Advice(action, why, (reason.unit,))
    return None


def _use_plan(state: GameState, use: A.Use) -> AttackPlan | None:
    """An ability's own attack (`use U ABILITY T` on an enemy T), as the engine plans it; None for
    any other ability action."""
    unit = state.units.get(use.unit)
    target = state.units.get(use.args[0]) if len(use.args) == 1 else None
    if unit is None or target is None or target.side is unit.side:
        return None
    plan = plan_attack(state, unit, target, mode=use.ability)
    return plan if isinstance(plan, AttackPlan) else None


def _attack_value(state: GameState, action: A.Action) -> float:
    """What the bot rates an attack (a normal one, an ability's, an aircraft's strike): its expected
    harm; 0 for anything else."""
    if isinstance(action, A.Attack):
        unit, target = state.units.get(action.unit), state.units.get(action.target)
        if unit is None or target is None:
            return 0.0
        plan = plan_attack(state, unit, target)
        return expected_harm(plan_odds(plan), target) if isinstance(plan, AttackPlan) else 0.0
    if isinstance(action, A.Use):
        used = _use_plan(state, action)
        return expected_harm(plan_odds(used), used.ctx.target) if used is not None else 0.0
    return 0.0


def _useful_attack(game: Game, candidates: Sequence[Scored]) -> A.Action | None:
    """The attack among `candidates` the bot rates most useful, if any reaches `USEFUL_ATTACK`."""
    state = game.state
    best: tuple[float, A.Action] | None = None
    for action, score in candidates:
        if isinstance(action, A.Attack):
            value = max(score, 0.0)
        elif isinstance(action, A.Use):
            value = _attack_value(state, action)
        elif isinstance(action, A.Place):
            value = score  # a strike to come, less its risks
        else:
            continue
        if value >= USEFUL_ATTACK and (best is None or value > best[0]):
            best = (value, action)
    return best[1] if best is not None else None


def _percent(p: float) -> str:
    return f"{round(100 * p)}%"


def _count(n: int) -> str:
    return ("no", "one", "two", "three", "four", "five", "six")[n] if 0 <= n <= 6 else str(n)


def _results(target: Unit) -> tuple[str, str]:
    """What one hit and two hits on `target` do, as verbs ("disrupts", "destroys"), given the
    face-down counters it has (the bot's `harm` counts the same way)."""
    found = []
    for hits in (1, 2):
        if harm(target, hits) >= worth(target):
            found.append("destroys")
        elif target.card.is_vehicle and hits + len(target.pending) >= 2 and not target.damaged:
            found.append("damages")
        else:
            found.append("disrupts")
    return found[0], found[1]


class _Why:
    """The reason for each kind of action, from the position and the bot's scores."""

    def __init__(self, game: Game, side: Side, candidates: Sequence[Scored]) -> None:
        self.game = game
        self.state = game.state
        self.side = side
        self.candidates = candidates
        self.units: list[str] = []

    def name(self, unit_id: str) -> str:
        """The placeholder for a unit in the reason ("{0}")."""
        if unit_id not in self.units:
            self.units.append(unit_id)
        return "{" + str(self.units.index(unit_id)) + "}"

    def pronoun(self, unit_id: str, form: str) -> str:
        """The placeholder of a word that agrees with a unit's name: `form` is "it" (they), "obj"
        (them), "its" (their), "is" (are) or "has" (have)."""
        self.name(unit_id)
        return "{" + f"{form}{self.units.index(unit_id)}" + "}"

    def names(self, unit_ids: Sequence[str]) -> str:
        """Units as a list: "{0}", "{0} and {1}", "{0}, {1} and {2}"."""
        shown = [self.name(u) for u in unit_ids]
        return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]

    def label(self, hex_: Hex) -> str:
        return self.game.label(hex_)

    def advice(self, action: A.Action, why: str) -> Advice:
        return Advice(action, why, tuple(self.units))

    def of(self, action: A.Action) -> Advice:
        stage = self.state.stage
        match action:
            case A.Attack(unit=unit, target=target):
                return self.advice(action, self.attack(unit, target))
            case A.Use():
                return self.advice(action, self.use(action))
            case A.Move(unit=unit, path=path) if path:
                return self.advice(action, self.move(unit, path[-1]))
            case A.Face(unit=unit, facing=_):
                return self.advice(action, self.face(unit))
            case A.Pass():
                return self.advice(action, self.pass_())
            case A.Fire(unit=unit) if stage is Stage.REACTION:
                return self.advice(action, self.reaction(unit))
            case A.Fire(unit=unit):
                return self.advice(action, self.fire(unit))
            case A.Hold() if stage is Stage.REACTION:
                return self.advice(action, "no unit of yours has a shot at the aircraft worth taking")
            case A.Hold():
                return self.advice(action, self.hold())
            case A.Deploy(unit=unit, hex=hex_):
                return self.advice(action, self.deploy(unit, hex_))
            case A.Ready():
                return self.advice(action, "every unit is on the map: the deployment is done")
            case A.End(end=end):
                return self.advice(action, self.end(end))
            case A.First(side=first):
                return self.advice(action, self.first(first))
            case A.Objective(hex=hex_):
                return self.advice(action, self.objective(hex_))
            case A.Place(unit=unit, hex=hex_):
                return self.advice(action, self.place(unit, hex_))
            case A.Arrive(unit=unit):
                return self.advice(action, self.arrive(unit))
            case A.BoardTransport(unit=unit, transport=transport):
                return self.advice(action, self.board(unit, transport))
            case A.Dismount(unit=unit, hex=hex_) if stage is Stage.PLACE:
                return self.advice(action, self.dismount_place(hex_))
            case A.Dismount(unit=unit):
                return self.advice(action, self.dismount(unit))
            case A.Penalty(unit=unit):
                return self.advice(action, self.penalty(unit))
            case A.Configuration():
                return self.advice(action, "the computer sees nothing to prefer one map over another here")
        return self.advice(action, "the best the computer finds for you here")

    # --- attacks --------------------------------------------------------------------------------------
    def odds_line(self, target: Unit, odds: FloatOdds) -> str:
        one, two = _results(target)
        hit = 1.0 - odds[0]
        it = self.pronoun(target.id, "obj")
        line = f"{_percent(hit)} to hit {self.name(target.id)} (a hit {one} {it}"
        if one != "destroys" and two != one:
            line += f", {_percent(odds[2] + odds[3])} for two, which {two} {it}"
        return line + ")"

    def attack(self, unit_id: str, target_id: str) -> str:
        state = self.state
        unit, target = state.units[unit_id], state.units[target_id]
        plan = plan_attack(state, unit, target)
        if not isinstance(plan, AttackPlan):
            return f"{self.name(target_id)} is the target worth most to {self.name(unit_id)}"
        line = self.odds_line(target, plan_odds(plan))
        attacks = sum(1 for action, _ in self.candidates if isinstance(action, A.Attack))
        if attacks > 1:
            line += f": the most harm of your {attacks} attacks"
        return line

    def use(self, use: A.Use) -> str:
        plan = _use_plan(self.state, use)
        if plan is None:
            return f"{ability_name(use.ability)}: nothing else {self.name(use.unit)} could do gains more now"
        return f"{ability_name(use.ability)}: " + self.odds_line(plan.ctx.target, plan_odds(plan))

    # --- moves ----------------------------------------------------------------------------------------
    def threats(self, unit: Unit, hex_: Hex) -> list[tuple[Unit, float]]:
        """The enemies that could attack `unit` in `hex_`, with their odds of a hit, most dangerous first."""
        state = self.state
        board = state.board
        assert board is not None
        sight = sight_for(board)
        found = []
        for enemy in state.units.values():
            if enemy.side is unit.side or not enemy.on_map or enemy.hex is None or enemy.card.is_aircraft:
                continue
            if enemy.carried_by is not None or Counter.DESTROYED in enemy.pending:
                continue
            odds = estimate(sight, enemy, enemy.hex, unit, hex_, unit.facing)
            if odds is not None and odds[0] < 1.0:
                found.append((enemy, 1.0 - odds[0]))
        return sorted(found, key=lambda item: -item[1])

    def best_target(self, unit: Unit, hex_: Hex) -> tuple[Unit, float, float] | None:
        """The enemy `unit` could harm most from `hex_`: the enemy, the odds of a hit, the expected harm."""
        state = self.state
        board = state.board
        assert board is not None
        sight = sight_for(board)
        best: tuple[Unit, float, float] | None = None
        for enemy in state.units.values():
            if enemy.side is unit.side or not enemy.on_map or enemy.hex is None or enemy.card.is_aircraft:
                continue
            odds = estimate(sight, unit, hex_, enemy, enemy.hex, enemy.facing)
            if odds is None:
                continue
            value = expected_harm(odds, enemy)
            if value > 0.0 and (best is None or value > best[2]):
                best = (enemy, 1.0 - odds[0], value)
        return best

    def move(self, unit_id: str, dest: Hex) -> str:
        state = self.state
        unit = state.units[unit_id]
        here = unit.hex
        if here is None:
            return f"{self.label(dest)} is where {self.name(unit_id)} is worth most"
        evaluator = Evaluator.shared(state, self.side)
        mine = worth(unit)
        danger_here, danger_there = self.threats(unit, here), self.threats(unit, dest)
        threat_gain = (
            evaluator.risk * 0.6 * mine * (sum(p for _, p in danger_here) - sum(p for _, p in danger_there))
        )
        aim_here, aim_there = self.best_target(unit, here), self.best_target(unit, dest)
        offense_gain = (aim_there[2] if aim_there else 0.0) - (aim_here[2] if aim_here else 0.0)
        reasons: list[tuple[float, str]] = []
        if danger_here and threat_gain > 0.0:
            them = self.pronoun(unit_id, "obj")
            where = f"at {self.label(here)} {self.enemies(danger_here)} could fire at {them}"
            if danger_there:
                reasons.append(
                    (threat_gain, f"{where}; at {self.label(dest)} only {self.enemies(danger_there)}")
                )
            else:
                reasons.append((threat_gain, f"{where}; at {self.label(dest)} no enemy can"))
        if aim_there is not None and offense_gain > 0.0:
            target, hit, _ = aim_there
            when = "" if state.phase is Phase.ASSAULT else " in the assault phase"
            reasons.append(
                (
                    offense_gain,
                    f"from {self.label(dest)} {self.pronoun(unit_id, 'it')} can attack {self.name(target.id)}"
                    f"{when} "
                    f"({_percent(hit)} to hit)",
                )
            )
        objective = state.objective
        if objective is not None and evaluator.objective_weight > 0.0:
            before, after = distance(here, objective), distance(dest, objective)
            if after < before:
                gain = evaluator.objective_weight * 2.5 * (before - after)
                hexes = "next to it" if after <= 1 else f"{after} hexes from it"
                reasons.append(
                    (gain, f"the objective counts now: {self.label(dest)} is {hexes} ({before} now)")
                )
        board = state.board
        assert board is not None
        cover_there = board.terrain(dest).effects.cover(unit.card.is_vehicle) is not None
        cover_here = board.terrain(here).effects.cover(unit.card.is_vehicle) is not None
        if cover_there and not cover_here:
            kind = board.terrain(dest).name.lower()
            reasons.append((0.6, f"{self.label(dest)} ({kind}) gives {self.pronoun(unit_id, 'obj')} cover"))
        far = reach(unit)
        enemies = [e.hex for e in state.units.values() if e.side is not unit.side and e.on_map and e.hex]
        if far and enemies and aim_there is None:
            nearest = min(distance(dest, h) for h in enemies)
            if nearest < min(distance(here, h) for h in enemies):
                reasons.append(
                    (
                        0.3,
                        f"the nearest enemy is {nearest} hexes away, beyond "
                        f"{self.pronoun(unit_id, 'its')} range of {far}",
                    )
                )
        if not reasons:
            return f"{self.label(dest)} is where {self.name(unit_id)} stands best (its shots, the enemy's)"
        return max(reasons, key=lambda item: item[0])[1]  # the hint names the unit already

    def enemies(self, found: list[tuple[Unit, float]]) -> str:
        """ "two enemies ({0} and {1})", "{0}"."""
        ids = [enemy.id for enemy, _ in found[:3]]
        if len(found) == 1:
            return self.name(ids[0])
        more = f" and {len(found) - 3} more" if len(found) > 3 else ""
        return f"{_count(len(found))} enemies ({self.names(ids)}{more})"

    def face(self, unit_id: str) -> str:
        unit = self.state.units[unit_id]
        threats = self.threats(unit, unit.hex) if unit.hex is not None else []
        card = unit.card
        if threats:
            return (
                f"{self.pronoun(unit_id, 'its')} front (defense {card.defense_front}, rear "
                f"{card.defense_rear}) toward "
                f"{self.enemies(threats)}"
            )
        return f"{self.name(unit_id)} turned toward where the enemy will come from"

    # --- ending a phase -------------------------------------------------------------------------------
    def pass_(self) -> str:
        state = self.state
        ready = self.game.ready_units()
        phase = state.phase
        if not ready:
            return "every unit that could act has acted"
        if phase is Phase.FLIGHT:
            planes = self.names([u for u in ready if state.units[u].card.is_aircraft][:3])
            return (
                f"no hex is worth the risk for {planes}: the enemy's fire would cost more than a strike gains"
            )
        if phase is Phase.AIRSTRIKE:
            return "no aircraft of yours over the map has a target in reach"
        waiting = [u.id for u in air.waiting(state, self.side)] if air.in_battle(state) else []
        later = (
            f" ({self.names(waiting[:3])} flies in the flight phase, after the movement phases)"
            if waiting
            else ""
        )
        if phase is Phase.ASSAULT:
            return f"no unit that may still act has an enemy in range worth a shot, nor a better hex{later}"
        return f"no unit gains by moving: each stands where it can shoot and be shot at best{later}"

    # --- defensive fire and reaction shots ------------------------------------------------------------
    def fire(self, unit_id: str) -> str:
        state = self.state
        move = state.move
        if move is None:
            return "a shot at the moving unit"
        mover = state.units[move.unit]
        plan = plan_attack(state, state.units[unit_id], mover, defensive=True)
        if not isinstance(plan, AttackPlan):
            return f"the best shot at {self.name(mover.id)}"
        hit = 1.0 - plan_odds(plan)[0]
        it, its = self.pronoun(mover.id, "obj"), self.pronoun(mover.id, "its")
        return f"{_percent(hit)} to hit {self.name(mover.id)}: a hit disrupts {it} and stops {its} move"

    def hold(self) -> str:
        state = self.state
        move = state.move
        if move is None:
            return "no shot to take"
        mover = state.units[move.unit]
        if mover.disrupted or move.stopped:
            is_ = self.pronoun(mover.id, "is")
            return f"{self.name(mover.id)} {is_} already disrupted: keep the fire for another mover"
        board = state.board
        assert board is not None
        sight = sight_for(board)
        where = window_hex(move)
        best_now, best_later = 0.0, 0.0
        for action in self.game.legal_actions():
            if not isinstance(action, A.Fire):
                continue
            firer = state.units[action.unit]
            plan = plan_attack(state, firer, mover, defensive=True)
            if not isinstance(plan, AttackPlan) or firer.hex is None:
                continue
            now = 1.0 - plan_odds(plan)[0]
            best_now = max(best_now, now)
            for index in range(move.step, len(move.path) - 1):
                a, b = move.path[index], move.path[index + 1]
                if not provoked(state, mover, firer, a, b):
                    continue
                facing = direction_to(a, b) if mover.card.is_vehicle else None
                for there in (a, b):
                    if there != where:
                        odds = estimate(sight, firer, firer.hex, mover, there, facing, defensive=True)
                        if odds is not None:
                            best_later = max(best_later, 1.0 - odds[0])
        if best_now == 0.0:
            return f"no unit of yours has a chance to hit {self.name(mover.id)} from where it stands"
        if best_later > best_now * BETTER_LATER:
            return (
                f"a better shot at {self.name(mover.id)} comes later in {self.pronoun(mover.id, 'its')} move "
                f"({_percent(best_later)} to hit, {_percent(best_now)} now)"
            )
        if best_now * STOP_SHARE * worth(mover) * 4.0 < FIRE_THRESHOLD:
            chance = f"{_percent(best_now)} to hit {self.name(mover.id)}"
            worth_ = f"{self.pronoun(mover.id, 'it')} {self.pronoun(mover.id, 'is')} worth"
            return f"{chance} is too little for what {worth_}: keep the fire for a better target"
        return f"hold the fire for a better target ({_percent(best_now)} to hit {self.name(mover.id)})"

    def reaction(self, unit_id: str) -> str:
        state = self.state
        aircraft = air.reacting_to(state)
        if aircraft is None:
            return "a shot at the aircraft"
        plan = plan_attack(state, state.units[unit_id], aircraft, defensive=True)
        hit = 1.0 - plan_odds(plan)[0] if isinstance(plan, AttackPlan) else 0.0
        return f"{_percent(hit)} to hit {self.name(aircraft.id)}: a hit grounds it before it strikes"

    # --- set-up ---------------------------------------------------------------------------------------
    def deploy(self, unit_id: str, hex_: Hex) -> str:
        state = self.state
        unit = state.units.get(unit_id)
        if unit is None:  # obstacles are not units (minis.rules.obstacles)
            return "obstacles go on the map before the units"
        board = state.board
        assert board is not None
        terrain = board.terrain(hex_)
        kind = terrain.name.lower()
        facts = [f"{self.label(hex_)} ({kind})"]
        if terrain.effects.cover(unit.card.is_vehicle) is not None:
            facts[0] += f" gives {self.pronoun(unit_id, 'obj')} cover"
        if reach(unit) >= 5 and terrain.name == "HILL":
            facts.append(f"from a hill {self.pronoun(unit_id, 'it')} can see far")
        target = state.objective
        facts.append(
            f"{distance(hex_, target)} hexes from the objective" if target is not None else "toward the enemy"
        )
        waiting = len(self.game.ready_units())
        first = self.name(unit_id)
        if waiting > 1:
            first += f" first (the most valuable of the {waiting} still to deploy)"
        return f"{first}: " + ", ".join(facts)

    def end(self, end: str) -> str:
        state = self.state
        board = state.board
        assert board is not None
        if state.objective is not None and state.attacker is not None:
            return f"the objective is in the {end} half: the defender deploys around it"
        other = "east" if end == "west" else "west"
        mine, theirs = (sum(_cover_score(board, h) for h in board.deployment_zone(e)) for e in (end, other))
        counted = f"({round(mine)} to {round(theirs)}, counting woods, hills and towns)"
        if round(mine) == round(theirs):
            return f"the two zones give about the same cover {counted}"
        return f"the {end} zone has more cover than the {other} {counted}"

    def first(self, first: Side) -> str:
        if first is self.side:
            return "moving first lets your units reach the good hexes before the enemy"
        return (
            f"let the {first.title} go first: moving second you see their moves before making yours, "
            "and attacks are resolved together in the casualty phase"
        )

    def objective(self, hex_: Hex) -> str:
        board = self.state.board
        assert board is not None
        terrain = board.terrain(hex_).name.lower()
        return f"{self.label(hex_)} ({terrain}) lies deep in your half, in and among cover"

    # --- aircraft, arrivals, transports ---------------------------------------------------------------
    def place(self, unit_id: str, hex_: Hex) -> str:
        state = self.state
        unit = state.units[unit_id]
        target = self.best_target(unit, hex_)
        if target is None:
            return f"over {self.label(hex_)} {self.name(unit_id)} is out of the enemy's reach (it must fly)"
        enemy, hit, _ = target
        return f"from over {self.label(hex_)} it can strike {self.name(enemy.id)} ({_percent(hit)} to hit)"

    def arrive(self, unit_id: str) -> str:
        unit = self.state.units[unit_id]
        if arrivals.kind(self.state, unit) == arrivals.HERO:
            return "a Hero joins only at the start of a movement phase: now, and it may still move"
        return f"{self.pronoun(unit_id, 'its')} landing ends the phase: every other move worth making is made"

    def board(self, unit_id: str, transport: str) -> str:
        return f"the enemy is far: riding {self.name(transport)} is faster than going on foot"

    def dismount(self, unit_id: str) -> str:
        return f"the enemy (or the objective) is near: time for {self.name(unit_id)} to get off and fight"

    def dismount_place(self, hex_: Hex) -> str:
        return f"{self.label(hex_)} has no cover and is next to your units"

    def penalty(self, unit_id: str) -> str:
        unit = self.state.units[unit_id]
        value = harm(unit, 1)
        if unit.pending or unit.disrupted or unit.damaged:
            has = f"{self.pronoun(unit_id, 'it')} {self.pronoun(unit_id, 'has')}"
            return f"the hit harms {self.name(unit_id)} most: {has} counters already ({round(value)} points)"
        worth_ = f"{self.pronoun(unit_id, 'it')} {self.pronoun(unit_id, 'is')} worth"
        return f"the hit harms {self.name(unit_id)} most: {worth_} {round(value)} points to the enemy"


def scored(bot: object, game: Game) -> list[Scored] | None:
    """The bot's scored candidates, best first (None for a bot that does not score them)."""
    candidates = getattr(bot, "candidates", None)
    if not callable(candidates):
        return None
    found = candidates(game, 10**6)
    return list(found) if isinstance(found, list) else None
