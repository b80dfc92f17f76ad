"""Threats the rules make plain, and the objective's clock counted in moves (issue 35).

The heuristic's hex values (`scoring.Evaluator`) price the enemy's fire from where each enemy stands
now. An enemy moves before it attacks: in its movement phase it goes anywhere the engine's movement
reach allows (`rules.movement.reachable`), then attacks in its assault phase from there, also from
inside its target's hex (the same hex: short range, a Vehicle's rear defense, the cover roll at -1).
So a Tiger in a forest with two bazookas two hexes off is in mortal danger though no bazooka can fire
at it where they stand. `Threats` answers, for one side's units, what the enemy can do to a unit in a
hex next turn: each enemy's best attack from any hex it can reach (the exact odds, `scoring.estimate`
on `minis.engine.odds`), as expected harm in the heuristic's points (`scoring.harm`: what the hits would do,
weighed by the unit's worth).

The clock: `Clock` counts, for every hex, the movement points a Soldier or a Vehicle needs to get next
to the objective (the map's own step costs, `rules.mapinfo`), so a unit's moves to it are those points
over its speed, and its turns half that (a unit moves in its movement and again in its assault phase).
`turns_left` is how many turns remain before the objective decides. A side that needs two turns starts
two turns before.

Both are worked out once per position asked and kept: `Threats` per decision (the search's root) or
per playout leaf, the clock's distances per board, objective and kind of unit for the process.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Mapping

from minis.ai.scoring import FloatOdds, Sight, estimate, float_odds, harm, sight_for
from minis.base.sides import Side
from minis.engine.terms import Exit, Hold, ObjectiveFrom, PointsFrom
from minis.hexgrid import Facing, Hex, distance
from minis.rules import caching, mapinfo
from minis.rules.movement import reachable, speed
from minis.state import Counter, GameState, Unit

__all__ = ["Clock", "Threat", "Threats", "clock_for", "in_time", "readiness", "turns_left"]

#: One enemy's best attack on a unit: the enemy, the hex it would attack from, the expected harm.
Threat = tuple[Unit, Hex, float]


def _standing(unit: Unit) -> bool:
    """A unit that stands on the map and counts: not carried, not an aircraft, not already lost."""
    return (
        unit.hex is not None
        and not unit.removed
        and unit.carried_by is None
        and not unit.card.is_aircraft
        and Counter.DESTROYED not in unit.pending
    )


class Threats:
    """What the enemy of `side` can do next turn to `side`'s units: moves, then attacks (the module's text).

    Each enemy's reach (the hexes it may end a move in, and its own) is found once; the harm to a unit in
    a hex is remembered by (unit, hex, facing).
    """

    def __init__(self, state: GameState, side: Side, *, close_only: bool = False) -> None:
        board = state.battle.board
        assert board is not None
        self.state = state
        self.side = side
        self.sight: Sight = sight_for(board)
        self.enemies = [u for u in state.units.values() if u.side is not side and _standing(u)]
        self._reach: dict[str, tuple[tuple[Hex, ...], int]] = {}
        self._seen: dict[tuple[object, ...], list[Threat]] = {}
        self._odds: dict[tuple[object, ...], FloatOdds] = {}  # each best attack's odds of 0-3 hits
        #: Only attacks from inside the unit's hex (a playout's leaf: Close Assault, Hand to Hand, a shot
        #: at a Vehicle's rear from its own hex, what the heuristic's hex values never see; fire from
        #: afar is priced where the enemy stands by the placing term already).
        self.longest = 0 if close_only else 8

    def reach(self, enemy: Unit) -> tuple[tuple[Hex, ...], int]:
        """The hexes `enemy` may attack from next turn (its own and every hex it may move to), and how
        far the farthest is from where it stands."""
        found = self._reach.get(enemy.id)
        if found is None:
            assert enemy.hex is not None
            hexes: list[Hex] = [enemy.hex, *reachable(self.state, enemy)]
            far = max(distance(enemy.hex, h) for h in hexes)
            found = self._reach[enemy.id] = (tuple(hexes), far)
        return found

    def against(self, unit: Unit, hex_: Hex, facing: Facing | None = None) -> list[Threat]:
        """Every enemy that can attack `unit` standing in `hex_` (with `facing`) next turn, each with the
        hex of its best attack and that attack's expected harm, worst first."""
        facing = facing if facing is not None else unit.facing
        key = (unit.id, unit.pending, unit.damaged, unit.disrupted, hex_, facing)
        found = self._seen.get(key)
        if found is not None:
            return found
        found = []
        sight = self.sight
        h1, h2, h3 = harm(unit, 1), harm(unit, 2), harm(unit, 3)
        for enemy in self.enemies:
            assert enemy.hex is not None
            close = _close_dice(enemy, unit)
            hexes, far = self.reach(enemy)
            longest = self.longest
            if distance(enemy.hex, hex_) > far + longest:
                continue
            best = 0.0
            where = enemy.hex
            chosen: FloatOdds = (1.0, 0.0, 0.0, 0.0)
            q, r = hex_
            for at in hexes:
                dq, dr = at[0] - q, at[1] - r
                dist = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
                if dist > longest:
                    continue
                odds = estimate(sight, enemy, at, unit, hex_, facing, dist=dist)
                if dist == 0 and close:  # Close Assault, Hand to Hand: in the target's own hex
                    assault = _close_odds(enemy, unit, close)
                    if odds is None or assault[0] < odds[0]:
                        odds = assault
                if odds is None:
                    continue
                value = odds[1] * h1 + odds[2] * h2 + odds[3] * h3
                if value > best:
                    best, where, chosen = value, at, odds
            if best > 0.0:
                found.append((enemy, where, best))
                self._odds[(unit.id, hex_, facing, enemy.id, where)] = chosen
        found.sort(key=lambda item: -item[2])
        self._seen[key] = found
        return found

    def danger(self, unit: Unit, hex_: Hex, facing: Facing | None = None) -> float:
        """The expected harm to `unit` in `hex_` if every enemy that can reach it attacks it: their hits
        add up (simultaneous hits: a Disrupted, then a Damaged, then a Destroyed counter), so the odds
        of 0-3 hits in all are those of each attack combined."""
        facing = facing if facing is not None else unit.facing
        found = self.against(unit, hex_, facing)
        if not found:
            return 0.0
        if len(found) == 1:
            return found[0][2]
        total = [1.0, 0.0, 0.0, 0.0]
        for key in ((e.id, at) for e, at, _ in found):
            odds = self._odds[(unit.id, hex_, facing, *key)]
            mixed = [0.0, 0.0, 0.0, 0.0]
            for a, pa in enumerate(total):
                if pa:
                    for b, pb in enumerate(odds):
                        mixed[min(3, a + b)] += pa * pb
            total = mixed
        return total[1] * harm(unit, 1) + total[2] * harm(unit, 2) + total[3] * harm(unit, 3)

    def exposure(self, units: Iterable[Unit] | None = None) -> float:
        """What the enemy can do to the side next turn: each enemy's best attack on any of `units`
        (default: every unit of the side standing on the map), summed over the enemies (each attacks
        once)."""
        mine = [u for u in (units if units is not None else self.state.units.values()) if u.side is self.side]
        best: dict[str, float] = {}
        for unit in mine:
            if not _standing(unit):
                continue
            assert unit.hex is not None
            for enemy, _, value in self.against(unit, unit.hex):
                if value > best.get(enemy.id, 0.0):
                    best[enemy.id] = value
        return sum(best.values())


def _close_dice(enemy: Unit, target: Unit) -> int:
    """The dice of `enemy`'s attack inside `target`'s own hex by its Close Assault (on a Vehicle) or
    Hand to Hand (on a Soldier), 0 if it has none: the engine's `attack_dice` abilities."""
    found = enemy.card.ability("close-assault" if target.card.is_vehicle else "hand-to-hand")
    return (found.number or 0) if found else 0


def _close_odds(enemy: Unit, target: Unit, dice: int) -> FloatOdds:
    """The odds of a close attack: against the rear defense (the same hex), no cover roll."""
    defense = int(target.card.defense_rear if target.card.is_vehicle else target.card.defense_front)
    if target.impaired:
        defense -= 1
    return float_odds(dice, defense, -1 if enemy.impaired else 0, None, 0, None, False)


# --- the objective's clock ----------------------------------------------------------------------------


def turns_left(state: GameState) -> int | None:
    """Turns still to be played before the objective decides, this one included (None: it never does,
    or there is no objective): at turn 6 of a battle it decides at the end of turn 7, 2; from turn 7 on,
    where it decides at the end of every turn, 1."""
    if state.objective is None:
        return None
    found = [
        max(1, c.from_turn - state.turn + 1)
        for c in state.battle.terms.victory
        if isinstance(c, ObjectiveFrom)
    ]
    found += [max(0, c.turn - state.turn + 1) for c in state.battle.terms.victory if isinstance(c, Hold)]
    return min(found) if found else None


def turns_to_end(state: GameState) -> int | None:
    """Turns still to be played before the game ends, this one included, whatever happens on the map (a
    tie on points aside): the points' turn, a held objective's, an exit's deadline, the turn limit (None:
    none of them). At turn 9 of a Standard battle, 2."""
    terms = state.battle.terms
    ends = [c.from_turn for c in terms.victory if isinstance(c, PointsFrom)]
    ends += [c.turn for c in terms.victory if isinstance(c, Hold)]
    ends += [c.by_turn for c in terms.victory if isinstance(c, Exit) and c.by_turn is not None]
    if terms.turn_limit is not None:
        ends.append(terms.turn_limit)
    return max(1, min(ends) - state.turn + 1) if ends else None


class Clock:
    """Movement points from every hex to a hex next to the objective (or on it), for one kind of unit."""

    def __init__(self, board_info: mapinfo.MapInfo, objective: Hex, vehicle: bool) -> None:
        edges = board_info.edges(vehicle)
        into: dict[Hex, list[tuple[Hex, int]]] = {}
        for a, steps in edges.items():
            for b, _, cost in steps:
                into.setdefault(b, []).append((a, cost))
        points: dict[Hex, int] = {}
        queue = [(0, h) for h in edges if distance(h, objective) <= 1]
        heapq.heapify(queue)
        while queue:
            spent, here = heapq.heappop(queue)
            if here in points:
                continue
            points[here] = spent
            for before, cost in into.get(here, ()):
                if before not in points:
                    heapq.heappush(queue, (spent + cost, before))
        self.points: Mapping[Hex, int] = points

    def moves(self, state: GameState, unit: Unit, hex_: Hex | None = None) -> int | None:
        """The moves `unit` needs from `hex_` (default: where it stands) to be next to the objective (0:
        it is), None if it never gets there (a gun that cannot move, a hex with no way out)."""
        where = hex_ if hex_ is not None else unit.hex
        if where is None:
            return None
        points = self.points.get(where)
        if points is None:
            return None
        if points == 0:
            return 0
        pace = speed(state, unit)
        if pace <= 0:
            return None
        return math.ceil(points / pace)

    def turns(self, state: GameState, unit: Unit, hex_: Hex | None = None) -> int | None:
        """The turns `unit` needs to be next to the objective: two moves a turn (movement and assault)."""
        moves = self.moves(state, unit, hex_)
        return None if moves is None else (moves + 1) // 2


class _Clocks:
    """A board's clocks by (objective, Vehicle or not), kept on the board."""

    def __init__(self, board: object) -> None:
        self.found: dict[tuple[Hex, bool], Clock] = {}


def clock_for(state: GameState, vehicle: bool) -> Clock | None:
    """The clock of the position's objective for a Soldier or a Vehicle (None: no objective or board)."""
    board = state.battle.board
    if board is None or state.objective is None:
        return None
    clocks = caching.kept(board, _Clocks).found
    key = (state.objective, vehicle)
    found = clocks.get(key)
    if found is None:
        found = clocks[key] = Clock(mapinfo.info(board), state.objective, vehicle)
    return found


def in_time(state: GameState, side: Side, left: int) -> int:
    """How many of `side`'s units can be next to the objective within `left` turns."""
    count = 0
    for unit in state.units.values():
        if unit.side is not side or not _standing(unit):
            continue
        clock = clock_for(state, bool(unit.card.is_vehicle))
        if clock is None:
            return 0
        turns = clock.turns(state, unit)
        if turns is not None and turns <= left:
            count += 1
    return count


def readiness(state: GameState, side: Side, left: int) -> float:
    """How surely `side` can be next to the objective within `left` turns, 0 to 1: every unit in time
    halves the chance of none, and one short of it by m moves counts as 0.5 ** m of one in time (so each
    move toward the objective counts, also before the last move that makes a unit in time)."""
    none = 1.0
    for unit in state.units.values():
        if unit.side is not side or not _standing(unit):
            continue
        clock = clock_for(state, bool(unit.card.is_vehicle))
        if clock is None:
            return 0.0
        moves = clock.moves(state, unit)
        if moves is None:
            continue
        credit = 0.5 ** max(0, moves - 2 * left)
        none *= 1.0 - 0.5 * credit
    return 1.0 - none
