"""The heuristic's aircraft: where each one flies, what it strikes, and reaction shots at enemy aircraft.

Where to fly is a plan for the airstrike to come: every hex an aircraft may be placed on is valued by
the best attack it could make from there (the expected harm to the target, weighed by the target's
worth, as the assault phase's attacks are), less what it risks: reaction shots from enemy Antiair next
to the hex and enemy Aces within 4 (a hit grounds it, two destroy it, and a disrupted aircraft strikes
at -1), and the attacks every enemy that can reach it may make in the assault phase while it stays
over the map. The odds are the engine's exact ones (`scoring.float_odds`) from the cards' numbers;
abilities are left out, as in the hex values of the ground units. Passing is worth 0, so an aircraft
with nothing worth the risk stays off the map.

These functions are only called in the flight and airstrike phases and in a reaction window, which a
battle without aircraft never has: such battles are played exactly as before.
"""

from __future__ import annotations

import random

from minis.ai.scoring import (
    RISK,
    FloatOdds,
    _cover,
    dice_by_distance,
    expected_harm,
    float_odds,
    harm,
    plan_odds,
    worth,
)
from minis.base.sides import Side
from minis.engine import actions as A
from minis.game import Game
from minis.hexgrid import Hex, is_front
from minis.rules import activation, air
from minis.rules.air_attacks import cannot_attack_aircraft, has_antiair, ignores_air_penalty, is_ace
from minis.rules.combat import AttackPlan, plan_attack
from minis.rules.defensive_fire import may_fire
from minis.state import Counter, GameState, Unit

__all__ = ["airstrikes", "flight_choices", "placements", "reaction_shots"]

#: How many of the best hexes for the strike alone get the full value (risks included) per aircraft.
SHORTLIST = 24
#: What a disrupted aircraft's strike is still worth, as a share of a sound one's (-1 on each die).
IMPAIRED_STRIKE = 0.6
#: The longest range of an aircraft's attack (short 0-1, medium 2-4: aircraft have no long range).
STRIKE_RANGE = 4
#: The longest range of any attack on an aircraft over the map (ground units' long range).
THREAT_RANGE = 8

Scored = tuple[A.Action, float]


def _enemies(state: GameState, side: Side) -> list[Unit]:
    """The enemy units over or on the map that an attack could still harm (not aboard, not doomed)."""
    return [
        u
        for u in state.units.values()
        if u.side is not side and u.on_map and u.carried_by is None and Counter.DESTROYED not in u.pending
    ]


def _strike_table(state: GameState, aircraft: Unit, target: Unit) -> tuple[tuple[float, float], ...]:
    """The expected harm of `aircraft`'s attack on `target` at distances 0-4, (on its front, on its rear)."""
    assert target.hex is not None
    board = state.battle.board
    assert board is not None
    dice_table = dice_by_distance(aircraft.card)
    vehicle = target.card.is_vehicle
    kind = 1 if vehicle else 0
    modifier = -1 if aircraft.impaired else 0
    cover = None
    if target.card.is_aircraft:
        if not ignores_air_penalty(state, aircraft):
            modifier -= 1
    else:
        cover = _cover(board, target.hex, vehicle)
    impaired = 1 if target.impaired else 0
    front_def = int(target.card.defense_front) - impaired
    rear_def = int(target.card.defense_rear if vehicle else target.card.defense_front) - impaired
    h1, h2, h3 = harm(target, 1), harm(target, 2), harm(target, 3)
    rows = []
    for dist in range(STRIKE_RANGE + 1):
        dice = dice_table[dist][kind]
        if not dice:
            rows.append((0.0, 0.0))
            continue
        cover_modifier = -1 if cover is not None and dist == 0 else 0
        values = []
        for defense in (front_def, rear_def):
            odds = float_odds(dice, defense, modifier, cover, cover_modifier, None, False)
            values.append(odds[1] * h1 + odds[2] * h2 + odds[3] * h3)
        rows.append((values[0], values[1]))
    return tuple(rows)


def _distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _shot_odds(state: GameState, shooter: Unit, aircraft: Unit, dist: int, defensive: bool) -> FloatOdds:
    """The odds of `shooter`'s attack on `aircraft` at `dist` (vs-Soldier dice, -1 each unless it has
    Antiair or is an Ace, no cover roll); (1, 0, 0, 0) when it has no attack there."""
    dice = dice_by_distance(shooter.card)[dist][0] if dist <= THREAT_RANGE else 0
    if not dice or cannot_attack_aircraft(shooter, state) is not None:
        return (1.0, 0.0, 0.0, 0.0)
    modifier = -1 if shooter.impaired else 0
    if not ignores_air_penalty(state, shooter):
        modifier -= 1
    defense = int(aircraft.card.defense_front) - (1 if aircraft.impaired else 0)
    return float_odds(dice, defense, modifier, None, 0, None, defensive)


def _reactors(state: GameState, aircraft: Unit, enemies: list[Unit]) -> list[Unit]:
    """The enemies that could answer a placement of `aircraft` (Antiair, Aces over the map) and may fire."""
    found = []
    for unit in enemies:
        if unit.card.is_aircraft:
            if not is_ace(state, unit):
                continue
        elif not has_antiair(state, unit):
            continue
        if may_fire(state, unit) and cannot_attack_aircraft(unit, state) is None:
            found.append(unit)
    return found


def placements(game: Game, side: Side, rng: random.Random, jitter: float) -> list[Scored]:
    """Every waiting aircraft's best hexes, scored in points (the strike less the risks; passing is 0)."""
    state = game.state
    hexes = air.open_hexes(state)
    enemies = _enemies(state, side)
    if not hexes or not enemies:
        return []
    found: list[Scored] = []
    threats = [e for e in enemies if not e.card.is_aircraft and cannot_attack_aircraft(e, state) is None]
    for aircraft in air.waiting(state, side):
        mine = worth(aircraft)
        tables = [(e.hex, e.facing, _strike_table(state, aircraft, e)) for e in enemies if e.hex is not None]
        strikes: list[tuple[float, Hex]] = []
        for hex_ in hexes:
            best = 0.0
            for at, facing, table in tables:
                dist = _distance(hex_, at)
                if dist > STRIKE_RANGE:
                    continue
                front, rear = table[dist]
                value = front if facing is None or is_front(at, facing, hex_) else rear
                if value > best:
                    best = value
            if best > 0.0:
                strikes.append((best, hex_))
        strikes.sort(key=lambda item: (-item[0], item[1].r, item[1].q))
        reactors = _reactors(state, aircraft, enemies)
        for strike, hex_ in strikes[:SHORTLIST]:
            spared, lost = 1.0, 1.0  # chance of no hit, chance of no kill, over every reaction shot
            for unit in reactors:
                assert unit.hex is not None
                dist = _distance(hex_, unit.hex)
                reach = air.ACE_REACH if unit.card.is_aircraft else air.ANTIAIR_REACH
                if dist > reach:
                    continue
                odds = _shot_odds(state, unit, aircraft, dist, defensive=True)
                spared *= odds[0]
                lost *= 1.0 - odds[2] - odds[3]
            killed = 1.0 - lost
            disrupted = max(0.0, 1.0 - spared - killed)
            value = strike * (spared + IMPAIRED_STRIKE * disrupted) - killed * mine
            value -= disrupted * harm(aircraft, 1)
            later = 0.0  # the assault phase: every enemy that reaches it may shoot once
            if spared + disrupted > 0.0:
                for unit in threats:
                    assert unit.hex is not None
                    dist = _distance(hex_, unit.hex)
                    if dist <= THREAT_RANGE:
                        later += expected_harm(
                            _shot_odds(state, unit, aircraft, dist, defensive=False), aircraft
                        )
            value -= RISK * min(later, mine) * (1.0 - killed)
            found.append((A.Place(aircraft.id, hex_), value + rng.random() * jitter))
    return found


def flight_choices(game: Game, side: Side, rng: random.Random, jitter: float) -> list[Scored]:
    """The flight phase: `pass` (worth 0) where the rule set allows it, and the scored placements. Where
    every aircraft that may fly must be placed (2008: no pass), each one's safest hex is offered too, so
    a placement is always on the list even when no hex is worth its risk."""
    found = placements(game, side, rng, jitter)
    if air.pass_problem(game.state) is None:
        return [(A.Pass(), 0.0), *found]
    return [*found, *_safest(game.state, side, rng, jitter)]


def _safest(state: GameState, side: Side, rng: random.Random, jitter: float) -> list[Scored]:
    """Each waiting aircraft over the open hex farthest from every enemy, scored by the harm the enemies
    that still reach it there may do in the assault phase (as `placements` prices it)."""
    hexes = air.open_hexes(state)
    enemies = [e for e in _enemies(state, side) if e.hex is not None]
    if not hexes:
        return []
    threats = [e for e in enemies if not e.card.is_aircraft and cannot_attack_aircraft(e, state) is None]

    def room(hex_: Hex) -> int:
        return min((_distance(hex_, e.hex) for e in enemies if e.hex is not None), default=0)

    far = max(hexes, key=lambda h: (room(h), -h.r, -h.q))
    found: list[Scored] = []
    for aircraft in air.waiting(state, side):
        later = 0.0
        for unit in threats:
            assert unit.hex is not None
            dist = _distance(far, unit.hex)
            if dist <= THREAT_RANGE:
                later += expected_harm(_shot_odds(state, unit, aircraft, dist, defensive=False), aircraft)
        value = -RISK * min(later, worth(aircraft)) - 0.01
        found.append((A.Place(aircraft.id, far), value + rng.random() * jitter))
    return found


def airstrikes(game: Game, side: Side, rng: random.Random, jitter: float) -> list[Scored]:
    """The airstrike phase: each ready aircraft's attacks scored as the assault phase's are (an
    ability's own action, as for ground units, only when nothing else is worth doing)."""
    state = game.state
    found: list[Scored] = []
    for uid in game.ready_units():
        options = game.unit_options(uid)
        if options is None:
            continue
        unit = state.units[uid]
        mode = ""
        if uid in state.activated:
            mode = next((o.ability for o in activation.offers(state, uid) if o.kind == "attack"), "")
        for target_id in options.attacks:
            target = state.units[target_id]
            plan = plan_attack(state, unit, target, mode=mode)
            if isinstance(plan, AttackPlan):
                value = expected_harm(plan_odds(plan), target) + rng.random() * jitter
                found.append((A.Attack(uid, target_id), value))
        found.extend((use, -0.5 + rng.random() * jitter) for use in options.uses)
    return found


def reaction_shots(game: Game, side: Side) -> list[Scored]:
    """A reaction window: the best shot fires (a hit grounds the aircraft at once and spoils its strike;
    the shooter gives up nothing, its next chance to fire is a later phase); hold only with no shot."""
    state = game.state
    aircraft = air.reacting_to(state)
    found: list[Scored] = [(A.Hold(), 0.0)]
    if aircraft is None:
        return found
    for action in game.legal_actions():
        if not isinstance(action, A.Fire):
            continue
        plan = plan_attack(state, state.units[action.unit], aircraft, defensive=True)
        if isinstance(plan, AttackPlan):
            odds = plan_odds(plan)
            # A hit now also spoils the strike it came for: count its worth once more for the first hit.
            value = expected_harm(odds, aircraft) + (1.0 - odds[0]) * 0.25 * worth(aircraft)
            found.append((action, max(value, 0.01)))
    return found
