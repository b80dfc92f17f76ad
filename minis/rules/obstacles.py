"""Obstacles and fortifications (issue 16): where obstacles are, what they do to moves and cover, and how
they go.

An obstacle is not a unit: it never moves, attacks, is attacked, stacks or counts for victory points, so
it is kept apart from `GameState.units`, as a tuple of `Obstacle` values in `GameState.obstacles`
(empty unless an army has obstacle cards: every other game plays exactly as before, and no rule that
walks the units has to skip them). Its card's abilities say what it does; the rules here
ask the battle's registry for each effect (`effects`), so a test that switches an ability off switches
its effect off.

Set-up: obstacles go on the map before the units, the players taking turns (the first deployer first),
one obstacle at a time, each in a playable hex (Barbed Wire on a hexside: `deploy U H1/H2`) neither in
nor next to the objective; then deployment goes on as the rulebook says.

Dice order (after the step's stream and forest rolls): a Soldier crossing wire rolls, then a Vehicle
entering a tank obstacle's hex; a unit leaving a minefield rolls before that step's windows open; a unit
ending its move in a minefield rolls once the move is over (after any retracing).
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from minis.base.sides import Side
from minis.cards import StatCard
from minis.dice import Dice
from minis.engine import actions as A
from minis.engine.events import Event
from minis.hexgrid import Hex, distance
from minis.rules import mapinfo
from minis.rules.errors import IllegalAction
from minis.state import GameState, Stage, Unit
from minis.state import Obstacle as Obstacle

#: The effects an obstacle card's abilities give (the `obstacle` attribute of their hook classes).
FORTIFICATION = "fortification"
WIRE = "barbed wire"
MINES = "minefield"
PILLBOX = "pillbox"
TANK_TRAP = "tank obstacle"
KINDS = (WIRE, MINES, PILLBOX, TANK_TRAP)
#: Effects of units' abilities: AVRE (obstacles don't hinder it).
UNHINDERED = "avre"
#: A mine disrupts on 1 to 3.
MINE_SAFE = 4
#: The cover roll of the Soldier in a pillbox where the terrain gives none, and the bonus on it.
PILLBOX_COVER = 4
PILLBOX_BONUS = 1
#: Why a move ended: a mine as the unit left the hex.
MINE_STOP = "disrupted by a mine"


def is_obstacle(card: StatCard) -> bool:
    return bool(card.is_obstacle)


def all_obstacles(state: GameState) -> tuple[Obstacle, ...]:
    """Every obstacle of the battle (placed or not)."""
    return state.obstacles


def gone(state: GameState) -> tuple[Obstacle, ...]:
    """The obstacles destroyed so far, in order."""
    return state.obstacles_gone


def names(state: GameState) -> dict[str, str]:
    """Each obstacle's id (on the map, waiting or destroyed) and its card's name, for the log."""
    return {o.id: o.card.name for o in (*gone(state), *all_obstacles(state))}


def placed(state: GameState) -> tuple[Obstacle, ...]:
    return tuple(o for o in all_obstacles(state) if o.hex is not None)


def pending(state: GameState, side: Side) -> list[Obstacle]:
    return [o for o in all_obstacles(state) if o.side is side and o.hex is None]


def effects(state: GameState, card: StatCard) -> frozenset[str]:
    """What the card's abilities do as obstacle rules (asked of the battle's registry)."""
    from minis import abilities  # abilities imports the rules: asked here, not at the top

    return frozenset(
        str(getattr(h, "obstacle", "")) for h in abilities.registry(state.battle).hooks(card).handlers
    ) - {""}


def kind(state: GameState, obstacle: Obstacle) -> str:
    """The obstacle's own effect (wire, mines, pillbox, tank obstacle; "" if switched off)."""
    for name in KINDS:
        if name in effects(state, obstacle.card):
            return name
    return ""


def on_hexside(obstacle: Obstacle) -> bool:
    return obstacle.across is not None


def where(state: GameState, obstacle: Obstacle) -> str:
    """'B2' or 'B2/B3' (the notation's words)."""
    board = state.battle.board
    if board is None or obstacle.hex is None:
        return "off the map"
    if obstacle.across is None:
        return board.label(obstacle.hex)
    return f"{board.label(obstacle.hex)}/{board.label(obstacle.across)}"


def describe(state: GameState, obstacle: Obstacle) -> str:
    """'Minefield in C4' / 'Barbed Wire between B2 and B3' for the hover box and the log."""
    board = state.battle.board
    if board is None or obstacle.hex is None:
        return f"{obstacle.card.name} (not placed)"
    if obstacle.across is None:
        return f"{obstacle.card.name} in {board.label(obstacle.hex)}"
    return f"{obstacle.card.name} between {board.label(obstacle.hex)} and {board.label(obstacle.across)}"


def in_hex(state: GameState, hex_: Hex) -> list[Obstacle]:
    """The obstacles lying in `hex_` (not those on its hexsides)."""
    return [o for o in all_obstacles(state) if o.hex == hex_ and o.across is None]


def on_side(state: GameState, a: Hex, b: Hex) -> list[Obstacle]:
    """The obstacles on the hexside between `a` and `b`."""
    side = frozenset((a, b))
    return [o for o in all_obstacles(state) if o.across is not None and frozenset((o.hex, o.across)) == side]


def touching(state: GameState, hex_: Hex) -> list[Obstacle]:
    """Obstacles in `hex_` or on one of its hexsides (Demolitions)."""
    return [o for o in placed(state) if o.hex == hex_ or o.across == hex_]


def with_kind(state: GameState, obstacles: Iterable[Obstacle], name: str) -> list[Obstacle]:
    return [o for o in obstacles if kind(state, o) == name]


def unhindered(state: GameState, unit: Unit) -> bool:
    """AVRE: obstacles don't hinder the unit."""
    return UNHINDERED in effects(state, unit.card)


# --- the game's obstacles --------------------------------------------------------------------------


def split_units(units: dict[str, Unit]) -> tuple[Obstacle, ...]:
    """Take the obstacle cards out of a new game's units: they become obstacles (Game.new, positions).

    A position's obstacle keeps its hex; a hexside is given as the hex and, in `facing`, the direction
    of the hex across it (the rules-test reader writes `at = "B2/B3"` so)."""
    found: list[Obstacle] = []
    for unit_id in [u.id for u in units.values() if is_obstacle(u.card)]:
        unit = units.pop(unit_id)
        across = unit.hex + unit.facing.step if unit.hex is not None and unit.facing is not None else None
        found.append(Obstacle(unit.id, unit.card, unit.side, unit.hex, across))
    return tuple(found)


def add_preset(state: GameState, name: str, card: StatCard, side: Side, hex_: Hex) -> None:
    """A scenario's obstacle, placed by the designer (in a hex; it never counts for points)."""
    if any(o.hex == hex_ and o.card.id == card.id for o in all_obstacles(state)):
        return  # already there (the map was set again)
    taken = {o.id for o in all_obstacles(state)}
    while name in taken:
        name += "+"
    state.obstacles = (*all_obstacles(state), Obstacle(name, card, side, hex_))


def _replace(state: GameState, obstacle: Obstacle | None, gone: str = "") -> None:
    items = [o for o in all_obstacles(state) if o.id != (obstacle.id if obstacle else gone)]
    if obstacle is not None:
        items = [obstacle if o.id == obstacle.id else o for o in all_obstacles(state)]
    state.obstacles = tuple(items)


def remove(state: GameState, obstacle: Obstacle, by: Unit | None, events: list[Event]) -> None:
    """The obstacle is destroyed and taken off the map."""
    _replace(state, None, gone=obstacle.id)
    state.obstacles_gone = (*gone(state), obstacle)
    hexes = tuple(h for h in (obstacle.hex, obstacle.across) if h is not None)
    events.append(
        Event(
            "obstacle",
            by.side if by else obstacle.side,
            by.id if by else None,
            obstacle.id,
            hexes,
            note="removed",
        )
    )


# --- set-up ----------------------------------------------------------------------------------------


def placing(state: GameState) -> bool:
    """Deployment begins with the obstacles: True while some are still to be placed."""
    return state.stage is Stage.DEPLOY and any(o.hex is None for o in all_obstacles(state))


def settle(state: GameState) -> None:
    """Whose turn it is to place an obstacle: the deploying side while it has some, else the other."""
    if not placing(state) or state.deploying is None:
        return
    if not pending(state, state.deploying):
        state.deploying = state.deploying.other


def placement_problem(state: GameState, obstacle: Obstacle, hex_: Hex, across: Hex | None) -> str | None:
    """Why the obstacle can't be placed there (None if it can)."""
    board = state.battle.board
    assert board is not None
    name = obstacle.card.name
    hexes = (hex_,) if across is None else (hex_, across)
    for h in hexes:
        if not board.is_playable(h):
            return f"{board.label(h)} is not a hex of the battle map"
        effects_ = mapinfo.info(board).effects[h]
        if not (effects_.can_enter(False) or effects_.can_enter(True)):
            return f"no unit can enter {board.label(h)}, so no {name} goes there"
    wire = kind(state, obstacle) == WIRE
    if wire and across is None:
        return f"{name} lies on a hexside: name the two hexes, as in 'deploy {obstacle.id} B2/B3'"
    if not wire and across is not None:
        return f"{name} goes in a hex, not on a hexside"
    if across is not None:
        if distance(hex_, across) != 1:
            return f"{board.label(hex_)} and {board.label(across)} are not next to each other"
        if on_side(state, hex_, across):
            return f"there is already an obstacle between {board.label(hex_)} and {board.label(across)}"
    elif in_hex(state, hex_):
        return f"there is already an obstacle in {board.label(hex_)}"
    objective = state.objective
    if (
        FORTIFICATION in effects(state, obstacle.card)
        and objective is not None
        and any(distance(h, objective) <= 1 for h in hexes)
    ):
        return f"obstacles may not be placed in or next to the objective ({board.label(objective)})"
    return None


def deploy(state: GameState, action: A.Deploy, events: list[Event]) -> None:
    """`deploy O H` / `deploy O H1/H2`: the deploying player places one obstacle; then it is the other's
    turn while the other has obstacles left."""
    side = state.deploying
    assert side is not None
    obstacle = next((o for o in all_obstacles(state) if o.id == action.unit), None)
    if obstacle is None:
        raise IllegalAction(
            f"obstacles are placed first: 'deploy U H' with one of {_names(pending(state, side))}"
        )
    if obstacle.side is not side:
        raise IllegalAction(
            f"it is the {side.title} player's turn to place an obstacle ({obstacle.id} is not theirs)"
        )
    if obstacle.hex is not None:
        raise IllegalAction(f"{obstacle.id} is already placed")
    if action.face is not None:
        raise IllegalAction(f"{obstacle.id} is an obstacle; only Vehicles have a facing")
    across = getattr(action, "across", None)
    problem = placement_problem(state, obstacle, action.hex, across)
    if problem:
        raise IllegalAction(problem)
    obstacle = attrs.evolve(obstacle, hex=action.hex, across=across)
    _replace(state, obstacle)
    hexes = (action.hex,) if across is None else (action.hex, across)
    events.append(Event("deploy", side, obstacle.id, hexes=hexes, note="obstacle"))
    if pending(state, side.other):
        state.deploying = side.other
    elif not pending(state, side):
        state.deploying = state.chooser if state.chooser is not None else side


def _names(items: list[Obstacle]) -> str:
    return ", ".join(o.id for o in items) or "none"


def places(state: GameState, obstacle: Obstacle) -> list[tuple[Hex, Hex | None]]:
    """Every legal place of an obstacle (hexsides written with the lower hex first)."""
    board = state.battle.board
    assert board is not None
    found: list[tuple[Hex, Hex | None]] = []
    wire = kind(state, obstacle) == WIRE
    for h in sorted(board.hexes, key=lambda h: (h.r, h.q)):
        if wire:
            for other in board.neighbours(h):
                if (other.r, other.q) > (h.r, h.q) and placement_problem(state, obstacle, h, other) is None:
                    found.append((h, other))
        elif placement_problem(state, obstacle, h, None) is None:
            found.append((h, None))
    return found


def deploy_actions(state: GameState, only: str | None = None) -> list[A.Action]:
    """The placements of the deploying side's next obstacles (one copy of each card is listed)."""
    side = state.deploying
    if side is None:
        return []
    found: list[A.Action] = []
    seen: set[str] = set()
    for obstacle in pending(state, side):
        if (only is not None and obstacle.id != only) or (only is None and obstacle.card.id in seen):
            continue
        seen.add(obstacle.card.id)
        for hex_, across in places(state, obstacle):
            found.append(A.Deploy(obstacle.id, hex_, None, across))
    return found


# --- movement --------------------------------------------------------------------------------------


def extra_rolls(state: GameState, unit: Unit, a: Hex, b: Hex) -> tuple[str, ...]:
    """The movement rolls obstacles add to the step a -> b: wire for a Soldier crossing it, a tank
    obstacle for a Vehicle entering its hex (AVRE: none)."""
    if unhindered(state, unit):
        return ()
    rolls: tuple[str, ...] = ()
    if unit.card.is_soldier and with_kind(state, on_side(state, a, b), WIRE):
        rolls += (WIRE,)
    if unit.card.is_vehicle and with_kind(state, in_hex(state, b), TANK_TRAP):
        rolls += (TANK_TRAP,)
    return rolls


def _mine_roll(state: GameState, unit: Unit, hex_: Hex, dice: Dice, events: list[Event]) -> bool:
    """One die for a unit in a minefield; True if it is disrupted (face up)."""
    mines = with_kind(state, in_hex(state, hex_), MINES)
    if not mines or unit.disrupted or unit.removed or unhindered(state, unit):
        return False
    die = dice.roll()
    hit = die < MINE_SAFE
    events.append(Event("obstacle", unit.side, unit.id, mines[0].id, (hex_,), (die,), int(hit), note="mine"))
    if hit:
        from minis import abilities  # abilities imports the rules: asked here, not at the top

        state.update(unit.id, disrupted=True)
        events.append(Event("counter", unit.side, unit.id, note="disrupted", value=1))
        abilities.on_disrupted(state, state.units[unit.id], events)
    return hit


def mine_on_leaving(state: GameState, unit: Unit, here: Hex, dice: Dice, events: list[Event]) -> bool:
    """A unit leaving a minefield rolls (before the step's windows); disrupted, its move ends there."""
    return _mine_roll(state, unit, here, dice, events)


def mine_at_end(state: GameState, unit_id: str, stopped: str, dice: Dice, events: list[Event]) -> None:
    """A unit that ends its move in a minefield rolls (not again if a mine just stopped it)."""
    unit = state.units[unit_id]
    if stopped == MINE_STOP or unit.hex is None:
        return
    _mine_roll(state, unit, unit.hex, dice, events)


# --- cover -----------------------------------------------------------------------------------------


def pillbox_holds(state: GameState, unit: Unit) -> bool:
    """The Soldier a pillbox in its hex holds: the one that has been in the hex longest (either side)."""
    if not unit.card.is_soldier or unit.hex is None or unit.carried_by is not None:
        return False
    if not with_kind(state, in_hex(state, unit.hex), PILLBOX):
        return False
    soldiers = [u for u in state.at(unit.hex) if u.card.is_soldier]
    return min(soldiers, key=lambda u: (u.entered, u.id)).id == unit.id


def pillbox_cover(state: GameState, target: Unit, cover: int | None) -> tuple[int | None, int]:
    """The cover roll of a possible pillbox Soldier: (its number, the bonus on the die)."""
    if not pillbox_holds(state, target):
        return cover, 0
    return (PILLBOX_COVER if cover is None else cover), PILLBOX_BONUS
