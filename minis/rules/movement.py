"""Movement and Position, and Terrain's movement rules (rulebook): what a move may do and cost.

A unit moves up to its speed in hexes. Vehicles pay 2 to enter hills and forests; along a road every
hex costs 1, needs no movement roll and may enter impassable terrain (which it can then leave only
along the road); the first hex a Vehicle moves along a road each phase is free (road bonus); a speed-1
Vehicle in the movement phase may still enter a double-cost hex (minimum movement). Crossing a stream
and a Vehicle entering a forest need movement rolls (stream first). Disrupted units can't move.

`check_path` validates a whole move as if every movement roll succeeds (the walk in
`minis.rules.walk` handles failures); `reachable` finds one cheapest path to every hex a unit can end
its move in, for the legal-action list.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Final

import attrs
from mypy_extensions import mypyc_attr

from minis import abilities
from minis.base import fields
from minis.board import Board
from minis.engine.ability_api import class_hooks
from minis.hexgrid import Hex, distance
from minis.rules import caching, mapinfo, obstacles
from minis.rules.stacking import full_hexes, room_for, why_full
from minis.state import GameState, Phase, Unit
from minis.terrain import MOVEMENT_ROLL_TARGET

STREAM = "stream"
FOREST = "forest"


def speed(state: GameState, unit: Unit) -> int:
    """The unit's speed this phase: the card's (or an ability's), -1 if a damaged Vehicle, + abilities."""
    if abilities.plain_mover(state, unit):  # no ability to ask (the common case, asked constantly)
        return _card_speed(unit)
    value = abilities.base_speed(state, unit)
    if unit.damaged and unit.card.is_vehicle:
        value -= 1
    return max(0, value + abilities.speed_modifier(state, unit))


def _card_speed(unit: Unit) -> int:
    """The card's speed, less one for a damaged Vehicle (no ability changes it)."""
    return max(0, int(unit.card.speed) - (1 if unit.damaged and unit.card.is_vehicle else 0))


def _speeds(state: GameState, unit: Unit) -> tuple[int, int, bool]:
    """(speed, hexes for a move wholly along a road, whether its abilities change where it may step)."""
    if abilities.plain_mover(state, unit):
        value = _card_speed(unit)
        return value, value, False
    value = speed(state, unit)
    return value, value + abilities.road_speed_bonus(state, unit), abilities.changes_steps(state, unit)


def cannot_move(state: GameState, unit: Unit) -> str | None:
    """Why the unit can't start a move now (None if it can). Activation is checked by the caller."""
    if unit.hex is None or unit.removed:
        return f"{unit.id} is not on the battle map"
    if unit.carried_by is not None:
        return f"{unit.id} is boarded on {unit.carried_by}; it can only dismount"
    battle = state.battle
    card = unit.card
    hooks = battle.cards.get(card.id)
    if (
        hooks is not None
        and hooks.card is card
        and hooks.moves_freely
        and "may_move" not in battle.aura_hooks
    ):
        # No ability has a say (the common case, asked at every listing and every move): the same
        # answers as below without asking them.
        return f"{unit.id} is disrupted and can't move" if unit.disrupted else None
    if (
        unit.disrupted
        and abilities.disrupted(state, unit)
        and not abilities.moves_while_disrupted(state, unit)
    ):
        return f"{unit.id} is disrupted and can't move"
    if not abilities.may_move(state, unit):
        return f"an ability keeps {unit.id} from moving"
    return None


def along_road(state: GameState, a: Hex, b: Hex) -> bool:
    board = state.battle.board
    assert board is not None
    side = frozenset((a, b))
    return side in mapinfo.info(board).roads and side not in state.broken_roads


@mypyc_attr(acyclic=True)  # plain values, kept by the thousand in the move caches: untracked by the GC
class Step:
    """One step of a move as the rules see it: its cost and the movement rolls it needs.

    A plain class with `Final` fields (a native one in the fast build), its equality written out."""

    def __init__(self, cost: int, road: bool, rolls: tuple[str, ...]) -> None:
        self.cost: Final = cost
        self.road: Final = road
        self.rolls: Final = rolls

    def __eq__(self, other: object) -> bool:
        if type(other) is not Step:
            return NotImplemented
        return self.cost == other.cost and self.road == other.road and self.rolls == other.rolls

    def __hash__(self) -> int:
        return hash((self.cost, self.road, self.rolls))

    def __repr__(self) -> str:
        return f"Step(cost={self.cost!r}, road={self.road!r}, rolls={self.rolls!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (Step, (self.cost, self.road, self.rolls))


def step(state: GameState, unit: Unit, a: Hex, b: Hex, bonus_left: bool) -> Step | str:
    """The step a -> b, or why it is not allowed. `bonus_left`: the road bonus is still unused."""
    board = state.battle.board
    assert board is not None
    info = mapinfo.info(board)
    known = None if state.broken_roads else _step_table(info, unit.card.is_vehicle).get((a, b))
    if known is not None:  # a step the map allows: only abilities may still have a say
        plain, with_bonus = known
        if not abilities.may_enter(state, unit, b, plain.road):
            return f"an ability keeps {unit.id} out of that hex"
        if not abilities.may_step(state, unit, a, b, plain.road):
            return f"an ability keeps {unit.id} from taking that step"
        found = with_bonus if bonus_left else plain
        rolls = abilities.movement_rolls(state, unit, a, b, found.rolls)
        cost = abilities.step_cost(state, unit, a, b, found.cost)
        return found if rolls is found.rolls and cost == found.cost else Step(cost, found.road, rolls)
    if b not in info.playable:
        return "the map ends there (half-hexes and the edge can't be entered)"
    if distance(a, b) != 1:
        return "each hex of a move must be next to the one before"
    vehicle = unit.card.is_vehicle
    road = along_road(state, a, b)
    kind = "Vehicles" if vehicle else "Soldiers"
    if not road and not abilities.enters_terrain(state, unit, a, info.effects[a].can_enter(vehicle)):
        return f"{kind} can leave {info.effects[a].terrain.name.lower()} only along the road"
    target = info.effects[b]
    if not road and not abilities.enters_terrain(state, unit, b, target.can_enter(vehicle)):
        if target.can_enter(vehicle):  # an ability closes it (Water Craft: land)
            return f"{unit.id} can't enter {target.terrain.name.lower()}"
        return f"{kind} can't enter {target.terrain.name.lower()}"
    if not abilities.may_enter(state, unit, b, road):
        return f"an ability keeps {unit.id} out of that hex"
    if not abilities.may_step(state, unit, a, b, road):
        return f"an ability keeps {unit.id} from taking that step"
    if road:
        cost = 0 if vehicle and bonus_left else 1
        rolls = ()
    else:
        cost = target.entry_cost(vehicle)
        rolls = ((STREAM,) if frozenset((a, b)) in info.streams else ()) + (
            (FOREST,) if vehicle and target.vehicle_roll_to_enter else ()
        )
    rolls = abilities.movement_rolls(state, unit, a, b, rolls)
    return Step(abilities.step_cost(state, unit, a, b, cost), road, rolls)


#: Per map and unit kind: every step the map allows (abilities and broken roads aside), without and with
#: the road bonus still unused (Steps are immutable, so they are shared).
StepTable = dict[tuple[Hex, Hex], tuple[Step, Step]]


def _step_table(info: mapinfo.MapInfo, vehicle: bool) -> StepTable:
    """The steps `step` allows on this map when no ability and no broken road is involved (cached)."""
    tables = caching.kept(info.board, MoveCaches).step_tables
    found = tables.get(vehicle)
    if found is not None:
        return found
    table: StepTable = {}
    for a, steps in info.edges(vehicle).items():
        for b, road, cost in steps:
            rolls: tuple[str, ...] = ()
            if not road:
                rolls = ((STREAM,) if frozenset((a, b)) in info.streams else ()) + (
                    (FOREST,) if vehicle and info.effects[b].vehicle_roll_to_enter else ()
                )
            plain = Step(cost, road, rolls)
            table[(a, b)] = (plain, Step(0, road, rolls) if road and vehicle else plain)
    tables[vehicle] = table
    return table


def budget(state: GameState, unit: Unit, all_road: bool) -> int:
    """Hexes of movement available: speed, plus an ability's bonus for a move made wholly along a road."""
    return speed(state, unit) + (abilities.road_speed_bonus(state, unit) if all_road else 0)


def minimum_movement(state: GameState, unit: Unit, spent: int, cost: int) -> bool:
    """A speed-1 Vehicle in the movement phase may enter a double-cost hex as its whole move."""
    return (
        state.phase is Phase.MOVEMENT
        and unit.card.is_vehicle
        and spent == 0
        and speed(state, unit) == 1
        and cost == 2
    )


@mypyc_attr(acyclic=True)  # kept by the thousand in the move caches: not tracked by the collector
class PathPlan:
    """A checked move: its steps, the hexes of movement spent, how many steps were along a road, and
    each step's movement rolls and road flag as the walk keeps them (worked out once: plans are kept).

    A plain class with `Final` fields (a native one in the fast build); equal plans have equal steps,
    spending and road steps (the rolls and roads follow from the steps)."""

    def __init__(self, steps: tuple[Step, ...], spent: int, road_steps: int) -> None:
        self.steps: Final = steps
        self.spent: Final = spent
        self.road_steps: Final = road_steps
        self.rolls: Final = tuple([s.rolls for s in steps])
        self.roads: Final = tuple([s.road for s in steps])

    def __eq__(self, other: object) -> bool:
        if type(other) is not PathPlan:
            return NotImplemented
        return self.steps == other.steps and self.spent == other.spent and self.road_steps == other.road_steps

    def __hash__(self) -> int:
        return hash((self.steps, self.spent, self.road_steps))

    def __repr__(self) -> str:
        return f"PathPlan(steps={self.steps!r}, spent={self.spent!r}, road_steps={self.road_steps!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (PathPlan, (self.steps, self.spent, self.road_steps))


#: What a cached move plan depends on (`plan_key`): unit kind, start hex, path, road bonus unused,
#: printed speed, movement phase. The board is the cache's owner (`MoveCaches`), so not in the key.
PlanKey = tuple[bool, Hex, tuple[Hex, ...], bool, int, bool]


def plan_key(state: GameState, unit: Unit, path: tuple[Hex, ...]) -> PlanKey | None:
    """Everything a plan of `path` by `unit` depends on, or None if more has a say (then it is worked out
    every time). The one place that says when a cached plan holds: while no ability of the card has a
    say in moving or stepping, no aura changes speed, no road is broken and no obstacle is on the map,
    a plan depends on the board (the cache's owner) and this key alone; the stacking at the end is not
    in it and is checked every time. A new movement rule that a plan depends on must be added here."""
    assert unit.hex is not None
    battle = state.battle
    card = unit.card
    hooks = battle.cards.get(card.id)
    if (
        hooks is None
        or hooks.card is not card
        or not hooks.moves_plainly
        or not hooks.steps_plainly
        or "speed_modifier" in battle.aura_hooks
        or state.broken_roads
        or state.obstacles
    ):
        return None
    vehicle = card.is_vehicle
    bonus = vehicle and unit.id not in state.road_bonus
    return (vehicle, unit.hex, path, bonus, _card_speed(unit), state.phase is Phase.MOVEMENT)


def check_path(state: GameState, unit: Unit, path: tuple[Hex, ...]) -> PathPlan | str:
    """Validate a move along `path` (the hexes entered, in order); a reason string if it is illegal."""
    assert unit.hex is not None
    key = plan_key(state, unit, path)
    if key is None:
        return _checked_path(state, unit, path)
    board = state.battle.board
    assert board is not None
    plans = caching.kept(board, MoveCaches).plans
    known = plans.get(key)
    if known is not None:
        if not room_for(state, unit, path[-1] if path else unit.hex):
            return _checked_path(state, unit, path)  # the general check says why
        return known
    plan = _checked_path(state, unit, path)
    if isinstance(plan, PathPlan) and path:
        if len(plans) > PLANS_KEPT:
            plans.clear()
        plans[key] = plan
    return plan


def _checked_path(state: GameState, unit: Unit, path: tuple[Hex, ...]) -> PathPlan | str:
    """`check_path` step by step (every unit; the fast path keeps what this finds for plain units)."""
    assert unit.hex is not None
    bonus_left = unit.card.is_vehicle and unit.id not in state.road_bonus
    spent = 0
    steps: list[Step] = []
    here = unit.hex
    all_road = True
    speed_, road_budget, _ = _speeds(state, unit)
    board = state.battle.board
    assert board is not None
    # The map's own steps, looked up once (what `step` does first for each step, without the calls).
    table = None if state.broken_roads else _step_table(mapinfo.info(board), unit.card.is_vehicle)
    # Without abilities that change entering or rolls, a step the map allows is the table's step.
    card = unit.card
    if abilities.card_hooks(state, card).steps_plainly:  # none of the four hooks below (most units)
        plain, own_steps = True, False
    else:
        plain = not (
            abilities.overrides(state, card, "may_enter")
            or abilities.overrides(state, card, "movement_rolls")
        )
        # Abilities that forbid steps or change their cost (Thin Wheels, Excellent Suspension) ask `step`.
        own_steps = abilities.overrides(state, card, "may_step") or abilities.overrides(
            state, card, "step_cost"
        )
    result: Step | str
    for there in path:
        known = table.get((here, there)) if table is not None else None
        if known is not None and plain and not own_steps:
            result = known[1] if bonus_left else known[0]
        elif known is not None and not own_steps and abilities.may_enter(state, unit, there, known[0].road):
            found = known[1] if bonus_left else known[0]
            rolls = abilities.movement_rolls(state, unit, here, there, found.rolls)
            result = found if rolls is found.rolls else Step(found.cost, found.road, rolls)
        else:
            result = step(state, unit, here, there, bonus_left)
        if isinstance(result, str):
            return f"{unit.id} can't move from {board.label(here)} to {board.label(there)}: {result}"
        if state.obstacles:  # wire and tank obstacles (minis.rules.obstacles)
            extra = obstacles.extra_rolls(state, unit, here, there)
            if extra:
                result = Step(result.cost, result.road, result.rolls + extra)
        if result.road and bonus_left and unit.card.is_vehicle:
            bonus_left = False
        all_road = all_road and result.road
        if spent + result.cost > (road_budget if all_road else speed_) and not (
            minimum_movement(state, unit, spent, result.cost)
        ):
            return f"{unit.id} can't move that far (speed {speed_}, the path costs more)"
        spent += result.cost
        steps.append(result)
        here = there
    if not room_for(state, unit, here):
        why = why_full(state, unit, here)
        return f"{unit.id} can't end its move in {board.label(here)}: no room there, {why} (stacking limit)"
    return PathPlan(tuple(steps), spent, sum(1 for s in steps if s.road))


def reachable(state: GameState, unit: Unit) -> Mapping[Hex, tuple[Hex, ...]]:
    """One cheapest path to every hex the unit may end a move in (its own hex left out).

    A search over (hex, road bonus still unused, every step so far along a road) by hexes spent, with
    a bucket per cost (steps cost 0, 1 or 2). Abilities whose step hooks answer from the map alone
    (Thin Wheels, Poor and Excellent Suspension) are folded into a per-map table of steps; the general
    (slower) route through `step` is left for step hooks that depend on the position (a disrupted
    Charge) and for broken roads.
    """
    assert unit.hex is not None and state.battle.board is not None
    battle = state.battle
    board = battle.board
    assert board is not None
    card = unit.card
    vehicle = card.is_vehicle
    speed_, road_budget, own_steps = _speeds(state, unit)
    minimum = vehicle and speed_ == 1 and state.phase is Phase.MOVEMENT
    bonus = vehicle and unit.id not in state.road_bonus
    # The step hooks in force: none for most units; None if some depend on more than the map, so the
    # unit searches afresh every time. A search is otherwise the same for every unit with the same
    # hooks meeting the same broken roads (Bridge Demolition), so it is cached with them.
    hooks = step_hooks(state, unit) if own_steps else ()
    key = (state.broken_roads, unit.hex, vehicle, speed_, road_budget, bonus, minimum, hooks)
    searches = caching.kept(board, MoveCaches).searches
    moves = None if hooks is None else searches.get(key)
    if moves is None:
        info = mapinfo.info(board)
        variants = None
        if hooks is not None and not state.broken_roads:
            variants = _hook_variants(state, unit, info, hooks) if hooks else _indexed_edges(info, vehicle)[2]
        moves = dict(_search(state, unit, info, vehicle, speed_, road_budget, minimum, bonus, variants))
        if hooks is not None:
            if len(searches) > SEARCHES_KEPT:
                searches.clear()
            searches[key] = moves
    # cheapest first; shared by every unit that meets the same search
    if not moves:  # nowhere to go (a gun): no stacking to ask about
        return MappingProxyType(moves)
    full = full_hexes(state, unit, moves)
    if full.isdisjoint(moves):
        return MappingProxyType(moves)  # read-only: the cached search can't be changed through it
    open_moves = dict(moves)  # a copy in C, then the few full hexes out: faster than filtering each
    for here in full:
        open_moves.pop(here, None)
    return open_moves


#: One step out of a search state: the state it leads to, its cost, and whether the road budget applies.
SearchStep = tuple[int, int, bool]
#: Per map and unit kind: the map's hexes by index number, and for each of the four kinds of search
#: state (road bonus unused, all steps along a road) the steps out of every hex (`_search_steps`).
Variants = tuple[list[tuple[SearchStep, ...]], ...]
IndexedEdges = tuple[list[Hex], dict[Hex, int], Variants]


def _indexed_edges(info: mapinfo.MapInfo, vehicle: bool) -> IndexedEdges:
    """`info.edges(vehicle)` keyed on hex index numbers (cached): small integer keys hash fast."""
    kept = caching.kept(info.board, MoveCaches).indexed
    found = kept.get(vehicle)
    if found is not None:
        return found
    edges = info.edges(vehicle)
    hexes = list(info.neighbours)
    index = {h: i for i, h in enumerate(hexes)}
    for steps in edges.values():  # hexes only reached as a step target get an index too
        for there, _road, _cost in steps:
            if there not in index:
                index[there] = len(hexes)
                hexes.append(there)
    table: list[tuple[tuple[int, bool, int], ...]] = [()] * len(hexes)
    for a, steps in edges.items():
        table[index[a]] = tuple((index[b], road, cost) for b, road, cost in steps)
    variants = tuple([_search_steps(row, flags) for row in table] for flags in range(4))
    result = (hexes, index, variants)
    kept[vehicle] = result
    return result


def _search_steps(row: Iterable[tuple[int, bool, int]], flags: int) -> tuple[SearchStep, ...]:
    """The steps (hex index, along a road, cost) out of a hex, seen from a search state with `flags`
    (2: the road bonus is unused, 1: every step so far was along a road): the state each leads to, its
    cost and whether the road budget applies. A road step uses up the bonus (and costs nothing if it
    was unused: Soldiers never have it) and keeps the all-road flag; any other step clears the flag."""
    bonus_left, all_road = flags & 2, flags & 1
    return tuple(
        (there * 4 + all_road, 0 if bonus_left else cost, bool(all_road))
        if road
        else (there * 4 + bonus_left, cost, False)
        for there, road, cost in row
    )


def _search(
    state: GameState,
    unit: Unit,
    info: mapinfo.MapInfo,
    vehicle: bool,
    speed_: int,
    road_budget: int,
    minimum: bool,
    bonus: bool,
    variants: Variants | None,
) -> list[tuple[Hex, tuple[Hex, ...]]]:
    """Every hex the unit can reach (its own excluded) with one cheapest path, cheapest first.

    A search state (hex, road bonus still unused, every step so far along a road) is the integer
    hex index * 4 + 2 * bonus + all-road. `variants`: the steps out of every hex per kind of state
    (`IndexedEdges`); None to ask `step` (the general search), once per hex.
    """
    assert unit.hex is not None
    hexes, index, _ = _indexed_edges(info, vehicle)
    asked: dict[int, list[tuple[int, bool, int]]] = {}  # the general search: `step`'s answers by hex
    start_hex = index[unit.hex]
    start = start_hex * 4 + (2 if bonus else 0) + 1
    size = 4 * len(hexes)
    best = [99] * size
    best[start] = 0
    #: The state each state was last improved from: since a state only ever improves from states already
    #: settled, following these links at the end gives the path to it.
    parent = [-1] * size
    top = max(road_budget, speed_, 2)
    buckets: list[list[int]] = [[] for _ in range(top + 1)]
    buckets[0].append(start)
    order: list[int] = []
    for spent in range(top + 1):
        bucket = buckets[spent]
        while bucket:
            key = bucket.pop()
            if best[key] != spent:
                continue
            order.append(key)
            here = key >> 2
            if variants is None:
                raw = asked.get(here)
                if raw is None:
                    asked[here] = raw = []
                    here_hex = hexes[here]
                    for there in info.neighbours[here_hex]:
                        result = step(state, unit, here_hex, there, False)  # see `_raw_steps`
                        if not isinstance(result, str):
                            if there not in index:  # off the indexed map: never, but keep the search total
                                index[there] = len(hexes)
                                hexes.append(there)
                                best.extend((99, 99, 99, 99))
                                parent.extend((-1, -1, -1, -1))
                            raw.append((index[there], result.road, 1 if result.road else result.cost))
                steps = _search_steps(raw, key & 3)
            else:
                steps = variants[key & 3][here]
            for nxt, cost, on_road in steps:
                total = spent + cost
                if total > (road_budget if on_road else speed_) and not (
                    minimum and cost == 2 and spent == 0
                ):
                    continue
                if total < best[nxt]:
                    best[nxt] = total
                    parent[nxt] = key
                    buckets[total].append(nxt)
    found: list[tuple[Hex, tuple[Hex, ...]]] = []
    seen = {start_hex}
    paths: dict[int, tuple[Hex, ...]] = {start: ()}
    for key in order:  # settled states, cheapest first: a state's parent is always settled before it
        here = key >> 2
        if key != start:
            paths[key] = path = (*paths[parent[key]], hexes[here])
            if here not in seen:
                seen.add(here)
                found.append((hexes[here], path))
    return found


#: The hooks that change where a unit may step or what a step costs (as `abilities.changes_steps`).
STEP_HOOKS = frozenset(("may_enter", "may_step", "step_cost", "enters_terrain"))
#: Per ability class: 0 no step hook, 1 answers from the map, 2 silent unless disrupted, 3 anything else
#: (the class says so itself: `Ability.steps_from_the_map`, `Ability.steps_only_when_disrupted`).
#: Kept at module level: it describes an ability class (a few dozen), never a battle.
_KINDS: dict[type, int] = {}


def _kind(klass: type) -> int:
    """How a handler class's step hooks depend on the position (`_KINDS`, worked out once per class)."""
    found = _KINDS.get(klass) if caching.enabled else None
    if found is None:
        own = vars(klass)
        if class_hooks(klass).isdisjoint(STEP_HOOKS):
            found = 0
        else:
            found = 1 if own.get("steps_from_the_map") else 2 if own.get("steps_only_when_disrupted") else 3
        if caching.enabled:
            _KINDS[klass] = found
    return found


StepHooks = tuple[tuple[type, int | None], ...]


def step_hooks(state: GameState, unit: Unit) -> StepHooks | None:
    """The unit's working abilities whose step hooks have a say now, as (class, number), in order; all
    of them answer from the map alone. None if one may answer from more (the position, the phase)."""
    disrupted = unit.disrupted and abilities.disrupted(state, unit)
    found: list[tuple[type, int | None]] = []
    for handler in abilities.handlers(state, unit.card):
        if disrupted and handler.commander:  # a disrupted commander's commander abilities don't work
            continue
        kind = _kind(type(handler))
        if kind == 1:
            found.append((type(handler), handler.number))
        elif kind == 3 or (kind == 2 and disrupted):
            return None
    return tuple(found)


def _hook_variants(state: GameState, unit: Unit, info: mapinfo.MapInfo, hooks: StepHooks) -> Variants | None:
    """The search steps out of every hex for a unit whose step hooks (`hooks`) answer from the map
    alone: what `step` allows, asked once per map for every step (cached); None to search generally."""
    vehicle = unit.card.is_vehicle
    kept = caching.kept(info.board, MoveCaches).hook_variants
    cache_key = (vehicle, hooks)
    if cache_key in kept:
        return kept[cache_key]
    hexes, index, _ = _indexed_edges(info, vehicle)
    rows: list[list[tuple[int, bool, int]]] | None = []
    for here in hexes:
        raw = _raw_steps(state, unit, info, here, index)
        if raw is None:  # a step off the indexed map: never, but the general search handles it
            rows = None
            break
        assert rows is not None
        rows.append(raw)
    variants = (
        None if rows is None else tuple([_search_steps(row, flags) for row in rows] for flags in range(4))
    )
    kept[cache_key] = variants
    return variants


def _raw_steps(
    state: GameState, unit: Unit, info: mapinfo.MapInfo, here: Hex, index: dict[Hex, int]
) -> list[tuple[int, bool, int]] | None:
    """The steps `step` allows out of `here`, in the map's order, as (hex index, along a road, cost),
    a road step costing 1 (the search prices the road bonus itself); None if one leaves the index.

    Whether the road bonus is still unused changes only a road step's cost, so the answer holds for
    every search state of the hex."""
    raw: list[tuple[int, bool, int]] = []
    for there in info.neighbours.get(here, ()):
        result = step(state, unit, here, there, False)
        if not isinstance(result, str):
            if there not in index:
                return None
            raw.append((index[there], result.road, 1 if result.road else result.cost))
    return raw


def roll_succeeds(die: int) -> bool:
    return die >= MOVEMENT_ROLL_TARGET


#: What a search depends on besides the board: broken roads, start hex, unit kind, speeds, road bonus
#: unused, minimum movement, step hooks (where the other units are is not: stacking is asked afterwards).
SearchKey = tuple[object, ...]
PLANS_KEPT = 50_000
SEARCHES_KEPT = 20_000


@attrs.define(slots=True, eq=False)
class MoveCaches:
    """Movement's speed caches of one board, kept on it (`caching.kept`) so they die with it: the map's
    steps per unit kind (Vehicle or not), the same by hex index number, the search steps for step hooks
    that answer from the map, move plans (`plan_key`) and searches (`reachable`). Plans and searches
    grow with the positions met, so they are bounded; the rest hold two entries or a few."""

    board: Board
    step_tables: dict[bool, StepTable] = fields.factory(dict)
    indexed: dict[bool, IndexedEdges] = fields.factory(dict)
    hook_variants: dict[tuple[bool, StepHooks], Variants | None] = fields.factory(dict)
    plans: dict[PlanKey, PathPlan] = fields.factory(dict)
    searches: dict[SearchKey, dict[Hex, tuple[Hex, ...]]] = fields.factory(dict)
