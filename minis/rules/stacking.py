"""Stacking (rulebook, Movement and Position): who may end a move, deploy or dismount in a hex.

The rule set says how many units of each army share a hex (`stack_per_army`: two in the rulebook,
three in the later updates) and whether the one Vehicle allowed is one among all of them or one of each
army (`vehicle_scope`). Boarded Soldiers and aircraft never count. An ability may make a unit count as a
Vehicle for stacking (Large).

When the limit is checked (`stacking_checked`): in the rulebook, wherever a unit ends a move (EACH_MOVE),
so a hex is never over it. Under the later updates (END_OF_PHASE) a player's unit may, during his own
movement and assault phases, stop in a full hex: from 2009 only one that is within the limits before it
arrives (a hex may be over by one unit of his), under 2008 any (only the end of the half phase counts:
`RuleSet.overstack_while_moving`). At his pass each hex over the limit by his units costs him a hit
counter (`minis.rules.overstack`). Deployment and every other placement keep the set's limits.

`why_full` says which limit a refused stop breaks, in plain words, and `overstack_warning` what a hex
left over the limit will cost at the pass (the window shows both).
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from itertools import combinations

from minis import abilities
from minis.base.sides import Side
from minis.content.rule_sets import END_OF_PHASE, RULEBOOK, RuleSet
from minis.hexgrid import Hex
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
    """Whether `unit` may stop in a full hex, within the set's allowance (END_OF_PHASE: its own player's
    movement or assault phase; never at deployment or before turn 1)."""
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
    if not (extra and extra_allowed(state, unit)):
        return False
    return _within_allowance(state, rules, unit, units)


def _within_allowance(state: GameState, rules: RuleSet, unit: Unit, units: list[Unit]) -> bool:
    """Whether `unit` may stop, as an extra unit, in a full hex holding `units` (END_OF_PHASE, its own
    phase): any hex under 2008 (no cap while moving); from 2009 one within the limits before it arrives,
    so the hex is over by one unit of his at most (`overstack_while_moving` N: by N at most)."""
    cap = rules.overstack_while_moving
    if cap is None:
        return True
    if cap == 1:
        return not _over(state, rules, units)
    return _excess(state, rules, [*units, unit], unit.side) <= cap


def _excess(state: GameState, rules: RuleSet, units: list[Unit], side: Side | None = None) -> int:
    """The fewest units (of `side`; None: of any army) whose leaving brings `units` (one hex's) within the
    limits; more than there are when that can't be done."""
    removable = [i for i, u in enumerate(units) if side is None or u.side is side]
    for count in range(len(removable) + 1):
        for gone in combinations(removable, count):
            if not _over(state, rules, [u for i, u in enumerate(units) if i not in gone]):
                return count
    return len(units) + 1


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
    """Hexes that break the limits by more than one unit (END_OF_PHASE from 2009 allows one extra unit;
    2008 any number, so none), or at all when the rule set checks each move (an invariant for tests)."""
    rules = state.battle.terms.rules
    if rules.stacking_checked != END_OF_PHASE:
        return overstacked(state)
    cap = rules.overstack_while_moving
    if cap is None:
        return []
    if cap != 1:
        return [h for h, units in _counted(state).items() if _excess(state, rules, units) > cap]
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
    if sum(1 for u in units if u.side is side) > rules.stack_per_army:
        return True
    return _vehicles_over(state, rules, units, side)


def hexes_broken_by(state: GameState, side: Side) -> list[Hex]:
    """The hexes where `side`'s units break the limits, in board order (row, then column)."""
    found = [h for h, units in _counted(state).items() if breaking(state, side, units)]
    return sorted(found, key=lambda h: (h.r, h.q))


# --- the rules in words (a refused stop, a hex left over the limit) ----------------------------------

_COUNTS = ("no", "one", "two", "three", "four", "five", "six")


def _count(n: int) -> str:
    return _COUNTS[n] if 0 <= n < len(_COUNTS) else str(n)


def _vehicle_rule(rules: RuleSet) -> str:
    if rules.vehicle_scope == "hex":
        return "only one Vehicle may be in a hex"
    return "only one Vehicle of each army may be in a hex"


def why_full(state: GameState, unit: Unit, hex_: Hex) -> str:
    """Why `unit` can't stop in `hex_` (`room_for` said no), as the rule it would break in plain words:
    'at most three units of an army may be in a hex', 'only one Vehicle may be in a hex', and, in the
    player's own phase under a set that allows extra units while moving, that the hex is over already.
    Short: the window shows it on its one message line."""
    rules = state.battle.terms.rules
    units = [u for u in state.at(hex_) if u.id != unit.id]
    per_hex = rules.vehicle_scope == "hex"
    friends = sum(1 for u in units if u.side is unit.side)
    vehicles = sum(
        1 for u in units if (per_hex or u.side is unit.side) and abilities.stacks_as_vehicle(state, u)
    )
    broken = []
    if friends >= rules.stack_per_army:
        broken.append(f"at most {_count(rules.stack_per_army)} units of an army may be in a hex")
    if vehicles >= VEHICLE_LIMIT and abilities.stacks_as_vehicle(state, unit):
        counts = "" if unit.card.is_vehicle else f" ({unit.id} counts as a Vehicle)"
        broken.append(_vehicle_rule(rules) + counts)
    text = " and ".join(broken) if broken else "the stacking limit"
    if broken and extra_allowed(state, unit):  # the hex already has the extra units allowed while moving
        board = state.battle.board
        where = board.label(hex_) if board is not None else str(hex_)
        text += f" ({where} is over the limit already)"
    return text


def overstack_warning(state: GameState, hex_: Hex) -> str | None:
    """What `hex_` will cost its player at his pass, in plain words, if his units now break the limits
    there during his own phase (END_OF_PHASE sets: the one extra unit from 2009, any number under
    2008); None when nothing will (within the limits, another set, another phase)."""
    rules = state.battle.terms.rules
    side = state.active
    if rules.stacking_checked != END_OF_PHASE or side is None or state.stage is Stage.DEPLOY:
        return None
    if state.phase is not Phase.MOVEMENT and state.phase is not Phase.ASSAULT:
        return None
    units = _counted(state).get(hex_)
    if not units or not breaking(state, side, units):
        return None
    broken = []  # the limits in a few words: the message line holds one line
    if sum(1 for u in units if u.side is side) > rules.stack_per_army:
        broken.append(f"{_count(rules.stack_per_army)} units of an army")
    if _vehicles_over(state, rules, units, side):
        broken.append("one Vehicle a hex" if rules.vehicle_scope == "hex" else "one Vehicle of each army")
    board = state.battle.board
    where = board.label(hex_) if board is not None else str(hex_)
    return (
        f"{where} is over the stacking limit ({', '.join(broken)}): if it still is when you pass, a unit "
        "of yours there takes a hit."
    )


def _vehicles_over(state: GameState, rules: RuleSet, units: list[Unit], side: Side) -> bool:
    """Whether `side` breaks the Vehicle limit among `units` (the extra Vehicle is the last to come)."""
    pool = units if rules.vehicle_scope == "hex" else [u for u in units if u.side is side]
    vehicles = sorted(
        (u for u in pool if abilities.stacks_as_vehicle(state, u)), key=lambda u: (u.entered, u.id)
    )
    return any(u.side is side for u in vehicles[VEHICLE_LIMIT:])
