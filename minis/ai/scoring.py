"""What a position and an attack are worth to the heuristic bot: values from the exact odds.

Every figure is in points (a unit's cost, raised for its firepower), so an attack, a move and a
defensive-fire shot can be compared with each other and with passing (worth 0). The odds of an attack
the engine has planned are `minis.engine.odds` (exact, turned into floats and cached: few distinct attacks
occur); for positions a unit is not in yet, the same odds come from the card's numbers at that range,
the line of sight, the facing and the cover of the hex (abilities left out: an estimate is enough to
compare hexes, and it must stay cheap, a few microseconds a hex).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import attrs

from minis.base import fields
from minis.base.sides import Side
from minis.board import Board
from minis.cards import RangeBand, StatCard, UnitType, range_band
from minis.engine.odds import hit_odds, odds_inputs
from minis.engine.terms import Hold, ObjectiveFrom, PointsFrom
from minis.hexgrid import FACINGS, Facing, Hex, distance, is_front
from minis.rules import caching
from minis.rules.air_attacks import ignores_air_penalty
from minis.rules.combat import AttackPlan
from minis.rules.movement import speed
from minis.state import Counter, GameState, Unit

#: The odds of 0, 1, 2 and 3 hits as floats.
FloatOdds = tuple[float, float, float, float]

#: What a Damaged and a Disrupted counter take from a unit, as a share of its worth.
DAMAGED_SHARE = 0.4
DISRUPTED_SHARE = 0.12
#: A disrupted aircraft is grounded (it can't fly) for a whole turn: more than a ground unit's disruption.
AIR_DISRUPTED_SHARE = 0.3
#: What a defensive-fire disruption is worth, as a share of the mover's worth (it stops and is disrupted).
STOP_SHARE = 0.25
#: Objective control worth, in points, once the objective decides the battle (scaled by the turn).
OBJECTIVE_HOLD = 14.0
#: Points lost per hex between a unit and the objective when the objective counts.
OBJECTIVE_PULL = 2.5
#: Points lost per hex a unit stays out of its best range of the nearest enemy (it should close in).
APPROACH_PULL = 0.35
#: Points for a hex whose terrain gives the unit cover (threats to come are not all known yet).
COVER_BONUS = 0.6
#: Whether a Vehicle's hex value counts its front defense against threats it can face.
FACING_AWARE = True
#: How much of the enemy's expected harm counts against a hex (each enemy fires at one target only).
RISK = 0.45


@lru_cache(maxsize=4096)
def float_odds(
    dice: int,
    defense: int,
    modifier: int = 0,
    cover: int | None = None,
    cover_modifier: int = 0,
    cover_fixed: bool | None = None,
    defensive: bool = False,
) -> FloatOdds:
    """`minis.engine.odds.hit_odds` as floats, cached (a game asks about a few hundred distinct attacks)."""
    exact = hit_odds(dice, defense, modifier, cover, cover_modifier, cover_fixed, defensive)
    return (float(exact[0]), float(exact[1]), float(exact[2]), float(exact[3]))


def plan_odds(plan: AttackPlan) -> FloatOdds:
    """The odds of an attack the engine planned (`minis.rules.combat.plan_attack`)."""
    return float_odds(*odds_inputs(plan))


#: Per card id: the most dice it rolls at any range against any type, and its longest range in hexes.
_CARD_NUMBERS: dict[str, tuple[int, int]] = {}


def _card_numbers(card: StatCard) -> tuple[int, int]:
    """How dangerous a card is (its most dice) and how far it reaches (0: no attack), remembered."""
    found = _CARD_NUMBERS.get(card.id) if caching.enabled else None
    if found is None:
        most, far = 0, 0
        for band, hexes in ((RangeBand.SHORT, 1), (RangeBand.MEDIUM, 4), (RangeBand.LONG, 8)):
            for kind in (UnitType.SOLDIER, UnitType.VEHICLE):
                dice = card.attack_dice(kind, band)
                if dice is not None:
                    most, far = max(most, dice), hexes
        found = (most, far)
        if caching.enabled:  # a card's numbers: module-level, they describe a card, not a battle
            _CARD_NUMBERS[card.id] = found
    return found


def worth(unit: Unit) -> float:
    """A unit's value: its cost, raised for its firepower (a threat is worth killing before a bystander)."""
    return float(unit.card.cost) + 0.8 * _card_numbers(unit.card)[0]


def reach(unit: Unit) -> int:
    """The longest range at which the unit has any attack (0 if it has none)."""
    return _card_numbers(unit.card)[1]


def harm(target: Unit, hits: int) -> float:
    """What `hits` more simultaneous hits on `target` are worth, given its face-down counters so far."""
    pending = target.pending
    if hits <= 0 or Counter.DESTROYED in pending:
        return 0.0
    vehicle = target.card.is_vehicle
    placed = len(pending)
    damaged = target.damaged
    worst: Counter | None = None
    for _ in range(hits):
        if placed == 0:
            counter = Counter.DISRUPTED
        elif not vehicle or placed >= 2 or damaged:
            counter = Counter.DESTROYED
        else:
            counter = Counter.DAMAGED
        placed += 1
        worst = counter
        if counter is Counter.DESTROYED:
            break
    value = worth(target)
    if worst is Counter.DESTROYED:
        return value
    if worst is Counter.DAMAGED:
        return DAMAGED_SHARE * value
    if target.disrupted and placed > 1:
        return 0.0
    return (AIR_DISRUPTED_SHARE if target.card.is_aircraft else DISRUPTED_SHARE) * value


def expected_harm(odds: FloatOdds, target: Unit) -> float:
    return odds[1] * harm(target, 1) + odds[2] * harm(target, 2) + odds[3] * harm(target, 3)


def _cover(board: Board, hex_: Hex, vehicle: bool) -> int | None:
    return board.terrain(hex_).effects.cover(vehicle)


@attrs.define
class Sight:
    """Line of sight between two hexes of one board, remembered (the board's own answer is slower).

    One per board, kept on it (`sight_for`): line of sight depends on the board only, and
    a search's playouts ask the same pairs again and again.
    """

    board: Board
    seen: dict[tuple[Hex, Hex], bool] = fields.factory(dict)

    def __call__(self, a: Hex, b: Hex) -> bool:
        return self.at(a, b, distance(a, b))

    def at(self, a: Hex, b: Hex, dist: int) -> bool:
        """The same, with the distance from a to b already known (the hex values' inner loop)."""
        if dist <= 1:
            return True
        key = (a, b)
        found = self.seen.get(key)
        if found is None:
            found = self.seen[key] = bool(self.board.visible(a, b))
        return found


def sight_for(board: Board) -> Sight:
    """The line-of-sight table of `board`, made on first use and kept on the board (dies with it)."""
    return caching.kept(board, Sight)


#: Per card (by identity): the dice it rolls against a Soldier and a Vehicle at each distance 0-8.
_DICE_BY_DISTANCE: dict[int, tuple[StatCard, tuple[tuple[int, int], ...]]] = {}


def dice_by_distance(card: StatCard) -> tuple[tuple[int, int], ...]:
    """`card.attack_dice` at every distance 0-8, (against a Soldier, against a Vehicle), 0: no attack."""
    found = _DICE_BY_DISTANCE.get(id(card)) if caching.enabled else None
    if found is None or found[0] is not card:
        table = []
        for dist in range(9):
            band = range_band(dist)
            assert band is not None
            table.append(
                (card.attack_dice(UnitType.SOLDIER, band) or 0, card.attack_dice(UnitType.VEHICLE, band) or 0)
            )
        found = (card, tuple(table))
        if caching.enabled:  # kept by card (the card held, so its id is not reused)
            _DICE_BY_DISTANCE[id(card)] = found
    return found[1]


def estimate(
    sight: Sight,
    attacker: Unit,
    at: Hex,
    target: Unit,
    target_hex: Hex,
    target_facing: Facing | None,
    defensive: bool = False,
    dist: int | None = None,
) -> FloatOdds | None:
    """The odds of `attacker` in `at` attacking `target` in `target_hex` (None: no attack possible);
    `dist`: the distance between the hexes, when the caller knows it already."""
    if dist is None:
        dist = distance(at, target_hex)
    if not 0 <= dist <= 8:
        return None
    dice = dice_by_distance(attacker.card)[dist][1 if target.card.is_vehicle else 0]
    if not dice or not sight.at(at, target_hex, dist):
        return None
    vehicle = target.card.is_vehicle
    front = vehicle and target_facing is not None and is_front(target_hex, target_facing, at)
    defense = int(target.card.defense_front if front or not vehicle else target.card.defense_rear)
    if target.impaired:
        defense -= 1
    cover = _cover(sight.board, target_hex, vehicle)
    return float_odds(
        dice,
        defense,
        -1 if attacker.impaired else 0,
        cover,
        -1 if cover is not None and dist == 0 else 0,
        None,
        defensive,
    )


def objective_weight(state: GameState, side: Side) -> float:
    """How much the objective counts now: nothing early, rising to full as the turn it decides nears."""
    decides = None
    for condition in state.battle.terms.victory:
        if isinstance(condition, ObjectiveFrom) and condition.side in (None, side):
            decides = condition.from_turn
            break
        if isinstance(condition, Hold):
            decides = condition.turn
            break
    if decides is None or state.objective is None:
        return 0.0
    lead = 5 if isinstance(condition, Hold) else 4
    return max(0.0, min(1.5, (state.turn - (decides - lead)) / lead))


def points_from(state: GameState) -> int | None:
    for condition in state.battle.terms.victory:
        if isinstance(condition, PointsFrom):
            return condition.from_turn
    return None


def risk_weight(state: GameState, side: Side) -> float:
    """How much of the enemy's harm counts: from two turns before points decide, a side that leads
    takes more care and a side behind takes more chances."""
    last = points_from(state)
    if last is None or state.turn < last - 2:
        return RISK
    from minis.rules.victory import points

    mine, theirs = points(state, side), points(state, side.other)
    return RISK * (1.8 if mine > theirs else 0.6)


#: One enemy as the hex values see it: its hex, facing, the dice it rolls by distance (`dice_by_distance`),
#: its attack modifier, whether it is a Vehicle, its defense against a front and a rear attack, the
#: cover of its hex, what 1, 2 and 3 more hits on it are worth (`harm`), and whether it is an aircraft.
_Enemy = tuple[
    Hex,
    Facing | None,
    tuple[tuple[int, int], ...],
    int,
    bool,
    int,
    int,
    int | None,
    float,
    float,
    float,
    bool,
]
#: The dice of a unit that attacks nobody here (an enemy aircraft over the map attacks in its airstrike only).
_NO_DICE: tuple[tuple[int, int], ...] = ((0, 0),) * 9


@attrs.define
class Evaluator:
    """The value of a unit standing in a hex, for one side, with the enemy where it is now.

    Built once per decision (cheap) or kept while the enemy has not changed: `key(state, side)` says
    when, and `shared` keeps the process's recent ones, so the playouts of a search, which meet the
    same positions again and again, reuse them. Values of hexes already asked are remembered.
    """

    state: GameState
    side: Side
    sight: Sight
    enemies: Sequence[Unit]
    objective: Hex | None
    objective_weight: float
    risk: float
    cache: dict[tuple[object, ...], tuple[float, Facing | None]] = fields.factory(dict)
    _table: list[_Enemy] | None = None
    #: A Vehicle's front defense counts against threats from its front (False: its rear everywhere).
    facing_aware: bool = fields.factory(lambda: FACING_AWARE)

    @classmethod
    def make(cls, state: GameState, side: Side, sight: Sight) -> Evaluator:
        enemies = [
            u
            for u in state.units.values()
            if u.side is not side and u.on_map and u.carried_by is None and Counter.DESTROYED not in u.pending
        ]
        risk = risk_weight(state, side)
        return cls(state, side, sight, enemies, state.objective, objective_weight(state, side), risk)

    @classmethod
    def shared(cls, state: GameState, side: Side) -> Evaluator:
        """The process's evaluator for this key (`key`), made on first use; its values are kept."""
        board = state.battle.board
        assert board is not None
        key = cls.key(state, side)
        found = _EVALUATORS.get(key) if caching.enabled else None
        if found is None:
            found = _EVALUATORS[key] = cls.make(state, side, sight_for(board))
            if len(_EVALUATORS) > EVALUATORS_KEPT:
                del _EVALUATORS[next(iter(_EVALUATORS))]
        found.state = state  # a unit's speed (the objective's pull) is read from the position asked about
        return found

    @staticmethod
    def key(state: GameState, side: Side) -> tuple[object, ...]:
        """What the values depend on besides the unit and the hex: the enemy, the turn, the objective,
        the care to take (a lead on points)."""
        return (
            id(state.battle),  # a cached evaluator holds its state, so this battle lives while it does
            state.turn,
            side,
            state.objective,
            risk_weight(state, side),
            FACING_AWARE,
            tuple(
                (u.id, u.hex, u.facing, u.disrupted, u.damaged, u.pending, u.carried_by)
                for u in state.units.values()
                if u.side is not side and u.on_map
            ),
        )

    def value(self, unit: Unit, hex_: Hex) -> tuple[float, Facing | None]:
        """The worth of `unit` in `hex_` (and, for a Vehicle, the best facing there)."""
        key: tuple[object, ...] = (unit.card.id, unit.impaired, unit.pending, hex_)
        if self.objective_weight > 0.0 and self.objective is not None:
            key = (*key, speed(self.state, unit))
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = self._value(unit, hex_)
        return found

    def _enemy_table(self) -> list[_Enemy]:
        """What the hex values need of each enemy, worked out once per evaluator."""
        if self._table is None:
            board = self.sight.board
            table: list[_Enemy] = []
            for enemy in self.enemies:
                assert enemy.hex is not None
                card = enemy.card
                impaired = 1 if enemy.impaired else 0
                aircraft = card.is_aircraft  # no threat to moves, no cover, -1 on dice at it
                table.append(
                    (
                        enemy.hex,
                        enemy.facing,
                        _NO_DICE if aircraft else dice_by_distance(card),
                        -impaired,
                        bool(card.is_vehicle),
                        int(card.defense_front) - impaired,
                        int(card.defense_front if not card.is_vehicle else card.defense_rear) - impaired,
                        None if aircraft else _cover(board, enemy.hex, card.is_vehicle),
                        harm(enemy, 1),
                        harm(enemy, 2),
                        harm(enemy, 3),
                        aircraft,
                    )
                )
            self._table = table
        return self._table

    def _value(self, unit: Unit, hex_: Hex) -> tuple[float, Facing | None]:
        sight = self.sight
        offense = 0.0
        nearest = 99
        threats: list[tuple[Hex, float, float]] = []  # enemy hex, harm on our front, on our rear
        card = unit.card
        vehicle = card.is_vehicle
        kind = 1 if vehicle else 0
        mine = worth(unit)
        ours = dice_by_distance(card)
        modifier = -1 if unit.impaired else 0
        # Our defense against an enemy's attack on our front and on our rear (a Soldier has one).
        impaired = 1 if unit.impaired else 0
        rear_defense = int(card.defense_front if not vehicle else card.defense_rear) - impaired
        front_defense = int(card.defense_front) - impaired if self.facing_aware else rear_defense
        cover = _cover(sight.board, hex_, vehicle)
        q, r = hex_
        for (
            at,
            facing,
            theirs,
            their_modifier,
            their_vehicle,
            front_def,
            rear_def,
            their_cover,
            h1,
            h2,
            h3,
            air,
        ) in self._enemy_table():
            dq, dr = q - at[0], r - at[1]
            dist = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
            if dist < nearest:
                nearest = dist
            if dist > 8:
                continue
            dice = ours[dist][1 if their_vehicle else 0]
            if dice and (air or sight.at(hex_, at, dist)):
                front = their_vehicle and facing is not None and is_front(at, facing, hex_)
                odds = float_odds(
                    dice,
                    front_def if front or not their_vehicle else rear_def,
                    modifier - 1 if air and not ignores_air_penalty(self.state, unit) else modifier,
                    their_cover,
                    -1 if their_cover is not None and dist == 0 else 0,
                    None,
                    False,
                )
                offense = max(offense, odds[1] * h1 + odds[2] * h2 + odds[3] * h3)
            dice = theirs[dist][kind]
            if not dice or not sight.at(at, hex_, dist):
                continue
            cover_modifier = -1 if cover is not None and dist == 0 else 0
            odds = float_odds(dice, rear_defense, their_modifier, cover, cover_modifier, None, False)
            danger = (1.0 - odds[0]) * mine * 0.6
            if front_defense == rear_defense:
                threats.append((at, danger, danger))
            else:
                odds = float_odds(dice, front_defense, their_modifier, cover, cover_modifier, None, False)
                threats.append((at, (1.0 - odds[0]) * mine * 0.6, danger))
        facing_here: Facing | None = None
        if vehicle and threats:
            best = None
            for candidate in FACINGS:
                total = sum(f if is_front(hex_, candidate, at) else r for at, f, r in threats)
                if best is None or total < best:
                    best, facing_here = total, candidate
            threat = best or 0.0
        else:
            threat = sum(f for _, f, _ in threats)  # a Soldier (or a Vehicle nobody can shoot)
        score = offense - self.risk * threat
        far = reach(unit)
        if far and offense == 0.0 and nearest > far:
            score -= APPROACH_PULL * (nearest - far)
        if cover is not None:
            score += COVER_BONUS
        if self.objective_weight > 0.0 and self.objective is not None:
            gap = distance(hex_, self.objective)
            pull = OBJECTIVE_PULL * self.objective_weight
            score -= pull * max(0, gap - 1) / max(1, speed(self.state, unit))
            if gap <= 1:
                score += OBJECTIVE_HOLD * self.objective_weight
        return score, facing_here


#: The process's recent evaluators by key (`Evaluator.shared`), oldest first. Kept at module level and
#: bounded: an evaluator holds its battle (so the id in its key is not reused) and belongs to a bot.
_EVALUATORS: dict[tuple[object, ...], Evaluator] = {}
EVALUATORS_KEPT = 2048
