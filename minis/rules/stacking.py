"""Stacking (rulebook, Movement and Position): who may end a move, deploy or dismount in a hex.

The rule set says how many units of each army share a hex (`stack_per_army`: two in the rulebook,
three in the later updates) and whether the one Vehicle allowed is one among all of them or one of each
army (`vehicle_scope`). Boarded Soldiers and aircraft never count. An ability may make a unit count as a
Vehicle for stacking (Large).

When the limit is checked (`stacking_checked`): in the rulebook, wherever a unit ends a move (EACH_MOVE),
so a hex is never over it. Under the later updates (END_OF_PHASE) a player's unit may, during his own
movement and assault phases, stop in a hex that is within the limits before it arrives: a hex may be
over by one unit of his, and at his pass each such hex costs him a hit counter (`minis.rules.overstack`).
Deployment and every other placement keep the set's limits.
"""

from __future__ import annotations

from collections.abc import Container, Iterable

from minis import abilities
from minis.hexgrid import Hex
from minis.rule_sets import END_OF_PHASE, RULEBOOK, RuleSet
from minis.sides import Side
from minis.state import GameState, Phase, Stage, Unit

#: Units of one army that may share a hex under the rulebook (a rule set may allow more).
FRIENDLY_LIMIT = 2
#: Vehicles that may share a hex (of all armies, or of each army: `RuleSet.vehicle_scope`).
VEHICLE_LIMIT = 1


def _plain(rules: RuleSet) -> bool:
    """The rulebook's stacking (two per army, one Vehicle per hex, checked at each move): the fast path."""
    return (
        rules.stack_per_army == FRIENDLY_LIMIT
        and rules.vehicle_scope == "hex"
        and rules.stacking_checked != END_OF_PHASE
    )


def extra_allowed(state: GameState, unit: Unit) -> bool:
    """Whether `unit` may stop in a full hex that is still within the limits (END_OF_PHASE: its own
    player's movement or assault phase; never at deployment or before turn 1)."""
    return (
        state.battle.terms.rules.stacking_checked == END_OF_PHASE
        and (state.phase is Phase.MOVEMENT or state.phase is Phase.ASSAULT)
        and unit.side is state.active
        and state.stage is not Stage.DEPLOY
    )


def room_for(state: GameState, unit: Unit, hex_: Hex, others: list[Unit] | None = None) -> bool:
    """True if `unit` may stop in `hex_` given the units there (the unit itself is not counted).

    `others` may pass the units already in the hex (from `GameState.occupancy`) to save a scan.
    """
    rules = state.battle.terms.rules
    if rules is not RULEBOOK and not _plain(rules):  # (the rulebook's own set: no need to ask)
        return _room_by_set(state, rules, unit, state.at(hex_) if others is None else others)
    as_vehicle = abilities.stacks_as_vehicle(state, unit)
    friends = 0
    vehicles = 0
    side, unit_id = unit.side, unit.id
    # One pass over the battle's units (asked at every stop): those `GameState.at` would list, counted.
    for other in state.units.values() if others is None else others:
        if (
            other.hex != hex_
            or other.id == unit_id
            or other.carried_by is not None
            or other.removed
            or other.card.is_aircraft
        ):
            continue
        if other.side is side:
            friends += 1
        if as_vehicle and abilities.stacks_as_vehicle(state, other):  # other Vehicles: only to a Vehicle
            vehicles += 1
    if friends >= FRIENDLY_LIMIT:
        return False
    return not (as_vehicle and vehicles >= VEHICLE_LIMIT)


def _room_by_set(
    state: GameState, rules: RuleSet, unit: Unit, present: Iterable[Unit], extra: bool = True
) -> bool:
    """`room_for` under any rule set's options (`extra` False: without the one extra unit)."""
    as_vehicle = abilities.stacks_as_vehicle(state, unit)
    per_hex = rules.vehicle_scope == "hex"
    side = unit.side
    units = [o for o in present if o.id != unit.id and o.carried_by is None and not o.card.is_aircraft]
    friends = 0
    vehicles = 0
    for other in units:
        if other.side is side:
            friends += 1
        if as_vehicle and (per_hex or other.side is side) and abilities.stacks_as_vehicle(state, other):
            vehicles += 1
    if friends < rules.stack_per_army and not (as_vehicle and vehicles >= VEHICLE_LIMIT):
        return True
    # Full: one unit more only where the hex is within the limits before it arrives (END_OF_PHASE).
    return extra and extra_allowed(state, unit) and not _over(state, rules, units)


def fits(state: GameState, unit: Unit, hex_: Hex) -> bool:
    """Whether `unit` may stop in `hex_` within the set's limits, not as the one extra unit (a bot asks:
    stopping there as the extra unit costs a hit counter at the pass)."""
    return _room_by_set(state, state.battle.terms.rules, unit, state.at(hex_), extra=False)


def full_hexes(state: GameState, unit: Unit, among: Container[Hex] | None = None) -> set[Hex]:
    """Every hex where `unit` can't stop (no room for it), found in one pass over the units.

    The rulebook's counting relies on two per army and one Vehicle per hex (a second friend, or any
    Vehicle); other rule sets ask `room_for` of each occupied hex. `among`: only those hexes are asked
    about (a move's destinations), so units elsewhere are passed over at once.
    """
    rules = state.battle.terms.rules
    if rules is not RULEBOOK and not _plain(rules):
        return {
            h
            for h, present in state.occupancy().items()
            if (among is None or h in among) and not room_for(state, unit, h, present)
        }
    side = unit.side
    unit_id = unit.id
    as_vehicle = abilities.stacks_as_vehicle(state, unit)
    asked: Container[Hex] = _EVERYWHERE if among is None else among
    once: set[Hex] = set()  # hexes with one friendly unit so far
    full: set[Hex] = set()
    if not as_vehicle:  # only friendly units count (the same test as below, for the common case)
        for other in state.units.values():
            if other.side is not side:
                continue
            h = other.hex
            if h is None or h not in asked or other.removed or other.carried_by is not None:
                continue
            if other.card.is_aircraft:
                continue
            if h in once:
                if other.id != unit_id:
                    full.add(h)
            elif other.id != unit_id:
                once.add(h)
        return full
    for other in state.units.values():
        h = other.hex
        if h is None or h not in asked or other.removed or other.carried_by is not None:
            continue
        if other.id == unit_id:
            continue
        if other.card.is_aircraft:  # over the hex: aircraft don't stack with Soldiers and Vehicles
            continue
        if other.side is side:
            if h in once:
                full.add(h)  # the second friendly unit: the friendly limit is reached
            else:
                once.add(h)
        # Other Vehicles (any side) matter only to a Vehicle (here `as_vehicle` is True).
        if h not in full and (other.card.is_vehicle or abilities.stacks_as_vehicle(state, other)):
            full.add(h)
    return full


class _Everywhere:
    """Every hex (`full_hexes` asked about the whole map)."""

    def __contains__(self, item: object) -> bool:
        return True


_EVERYWHERE = _Everywhere()


def _over(state: GameState, rules: RuleSet, units: list[Unit]) -> bool:
    """Whether `units` (the ones counting in one hex) break the rule set's limits."""
    per_army: dict[Side, int] = {}
    vehicles: dict[Side | None, int] = {}
    per_hex = rules.vehicle_scope == "hex"
    for u in units:
        count = per_army[u.side] = per_army.get(u.side, 0) + 1
        if count > rules.stack_per_army:
            return True
        if abilities.stacks_as_vehicle(state, u):
            key = None if per_hex else u.side
            vehicles[key] = vehicles.get(key, 0) + 1
            if vehicles[key] > VEHICLE_LIMIT:
                return True
    return False


def _counted(state: GameState) -> dict[Hex, list[Unit]]:
    """The units counting for stacking per hex; a unit in the middle of its move doesn't count (the
    limit applies where a move ends)."""
    moving = state.move.unit if state.move is not None else None
    table = state.occupancy()
    if moving is not None:
        table = {h: [u for u in present if u.id != moving] for h, present in table.items()}
    return table


def overstacked(state: GameState) -> list[Hex]:
    """Hexes beyond the rule set's limits (never any in a correct game under the rulebook's checks, nor
    in a position a game starts from)."""
    rules = state.battle.terms.rules
    return [h for h, units in _counted(state).items() if _over(state, rules, units)]


def beyond_allowance(state: GameState) -> list[Hex]:
    """Hexes that break the limits by more than one unit (END_OF_PHASE allows one extra unit), or at all
    when the rule set checks each move (an invariant for tests)."""
    rules = state.battle.terms.rules
    if rules.stacking_checked != END_OF_PHASE:
        return overstacked(state)
    bad = []
    for h, units in _counted(state).items():
        if _over(state, rules, units) and all(
            _over(state, rules, units[:i] + units[i + 1 :]) for i in range(len(units))
        ):
            bad.append(h)
    return bad


def breaking(state: GameState, side: Side, units: list[Unit]) -> bool:
    """Whether `side`'s units break the limits among `units` (one hex's): more than its share of the
    hex, or a Vehicle over the Vehicle limit. Where Vehicles of both armies share a hex over the limit,
    the one that came last (`Unit.entered`) is the extra one, so its army breaks the limit."""
    rules = state.battle.terms.rules
    mine = [u for u in units if u.side is side]
    if len(mine) > rules.stack_per_army:
        return True
    pool = units if rules.vehicle_scope == "hex" else mine
    vehicles = sorted(
        (u for u in pool if abilities.stacks_as_vehicle(state, u)), key=lambda u: (u.entered, u.id)
    )
    return any(u.side is side for u in vehicles[VEHICLE_LIMIT:])


def hexes_broken_by(state: GameState, side: Side) -> list[Hex]:
    """The hexes where `side`'s units break the limits, in board order (row, then column)."""
    found = [h for h, units in _counted(state).items() if breaking(state, side, units)]
    return sorted(found, key=lambda h: (h.r, h.q))
