"""Special deployment: units that start off the map and arrive during the battle, and units that may
deploy outside their own zone (the catalogue's "special deployment" rule system; docs/engine.md).

- A Hero (`<Nation> Hero`) waits off the map; at the start of any of its side's movement phases (before
  any unit of that side has moved or acted that phase) `arrive U H` puts it in a hex holding a friendly
  Soldier of its nation. It may then move that same phase (it arrived at the start of it).
- A Paratrooper waits off the map; `arrive U H` in its side's movement phase lands it in a hex with no
  enemy unit in it or next to it. Landing comes at the end of the phase: once a Paratrooper has landed,
  its side may only land more of them or pass. It does not move again that phase; it may attack in the
  assault phase of the same turn.
- Either needs room in the hex (stacking) and a hex it could enter; a full hex is refused.
- A unit that never arrived is not destroyed, but it is not on the battle map either: the rulebook's
  count of points at the end counts only units on the map, so it adds nothing.
- Partisan: may deploy in any empty full hex on the map's edge (the first or last full hex of a row, or
  any full hex of the first or last row), besides its own zone; the edge inside the enemy's zone too.
- Gliderborne: may deploy in any empty hex of the map outside the opponent's deployment zone.

No dice are rolled by any of this. Which unit does what is asked of its abilities
(`Ability.special_deployment`), so switching an ability off switches its rule off.
"""

from __future__ import annotations

from minis import abilities
from minis.base.sides import Side
from minis.board import Board
from minis.engine import actions as A
from minis.engine.events import Event
from minis.hexgrid import Hex, distance
from minis.rules import mapinfo
from minis.rules.errors import IllegalAction
from minis.rules.stacking import room_for, why_full
from minis.rules.zones import zone_hexes
from minis.state import GameState, Phase, Stage, Unit

HERO = "hero"
PARATROOPER = "paratrooper"
EDGE = "edge"
OUTSIDE_ENEMY_ZONE = "outside-enemy-zone"
#: Kinds of units that start off the map and arrive later.
LATER = (HERO, PARATROOPER)


_HOOK = "special_deployment"


def kind(state: GameState, unit: Unit) -> str | None:
    """How the unit enters the battle besides deploying in its zone (None: only that way)."""
    if unit.id not in abilities.units_with(state, _HOOK):
        return None
    for handler in abilities.handlers(state, unit.card):
        found = handler.special_deployment(unit)
        if found:
            return found
    return None


def any_special(state: GameState) -> bool:
    """Whether some unit of the battle deploys or arrives in a special way (cheap: a table look-up)."""
    return bool(abilities.units_with(state, _HOOK))


def arrives_later(state: GameState, unit: Unit) -> bool:
    """A unit that starts off the map and arrives during the battle (a Hero or a Paratrooper)."""
    return kind(state, unit) in LATER


def waiting(state: GameState, side: Side | None = None) -> list[Unit]:
    """The units (of `side`) still waiting off the map to arrive, sorted by id."""
    return sorted(
        (
            u
            for u in (state.units[i] for i in abilities.units_with(state, _HOOK))
            if u.hex is None
            and not u.removed
            and u.carried_by is None
            and (side is None or u.side is side)
            and arrives_later(state, u)
        ),
        key=lambda u: u.id,
    )


def closed(state: GameState) -> bool:
    """True once a Paratrooper has landed in the current movement phase: the phase is at its end."""
    return (
        state.phase is Phase.MOVEMENT
        and state.active is not None
        and state.landed == (state.turn, state.active.value)
    )


def act_problem(state: GameState, action: A.Action) -> str | None:
    """Why an action of the active player is refused because its Paratroopers have landed."""
    if closed(state) and not isinstance(action, A.Pass | A.Arrive):
        return "Paratroopers land at the end of the movement phase: once one has landed, land more or pass"
    return None


def _label(state: GameState, hex_: Hex) -> str:
    board = state.battle.board
    return board.label(hex_) if board is not None else str(hex_)


def _hero_nation(state: GameState, unit: Unit) -> tuple[str, object] | None:
    """The nation a Hero joins (the adjective of its ability's name, the Nation), None if not a Hero."""
    for handler in abilities.handlers(state, unit.card):
        if handler.special_deployment(unit) == HERO:
            return handler.ref.name.removesuffix(" Hero"), getattr(handler, "nation", None)
    return None


def arrive_problem(state: GameState, unit: Unit, hex_: Hex) -> str | None:
    """Why `arrive U H` is not allowed now (None: it is)."""
    how = kind(state, unit)
    if how not in LATER:
        return f"{unit.id} is not waiting off the map to arrive (only Heroes and Paratroopers do)"
    if unit.hex is not None or unit.removed:
        return f"{unit.id} has already arrived"
    if state.stage is not Stage.ACT or state.phase is not Phase.MOVEMENT or unit.side is not state.active:
        return f"{unit.id} may arrive only in its own side's movement phase"
    board = state.battle.board
    assert board is not None
    if not board.is_playable(hex_):
        return "units arrive only in a full hex of the battle map"
    where = board.label(hex_)
    if how == HERO:
        if closed(state) or any(state.units[u].side is unit.side for u in state.activated):
            return "a Hero joins only at the start of the movement phase, before any of your units has acted"
        found = _hero_nation(state, unit)
        assert found is not None
        adjective, nation = found
        if not any(
            u.side is unit.side and u.card.is_soldier and u.card.nation is nation for u in state.at(hex_)
        ):
            return f"{unit.id} joins only in a hex holding a friendly {adjective} Soldier; {where} has none"
    else:
        allowed = mapinfo.info(board).effects[hex_].can_enter(unit.card.is_vehicle)
        if not abilities.enters_terrain(state, unit, hex_, allowed):
            return f"{unit.id} can't land in {board.terrain(hex_).name.lower()} (it can't enter that hex)"
        near = [u for u in state.on_map(unit.side.other) if u.hex is not None and distance(u.hex, hex_) <= 1]
        if near:
            return f"{unit.id} can't land in {where}: {near[0].id} is in it or next to it"
    if not room_for(state, unit, hex_):
        return f"no room for {unit.id} in {where}: {why_full(state, unit, hex_)} (stacking limit)"
    return None


def arrive(state: GameState, action: A.Arrive, events: list[Event]) -> None:
    """Carry out `arrive U H` (IllegalAction with the reason if it isn't allowed)."""
    unit = state.units.get(action.unit)
    if unit is None:
        raise IllegalAction(f"there is no unit '{action.unit}'")
    if unit.side is not state.active:
        raise IllegalAction(f"{unit.id} is not one of the {state.active.title if state.active else ''} units")
    problem = arrive_problem(state, unit, action.hex)
    if problem:
        raise IllegalAction(problem)
    state.update(unit.id, hex=action.hex, entered=state.next_entry())
    if kind(state, unit) == PARATROOPER:
        state.activated.add(unit.id)  # it moves no further this phase
        state.landed = (state.turn, unit.side.value)
    events.append(Event("arrive", unit.side, unit.id, hexes=(action.hex,)))


def arrive_actions(state: GameState, only: str | None = None) -> list[A.Action]:
    """Every `arrive U H` the active player may take now (none outside its movement phase)."""
    if state.stage is not Stage.ACT or state.phase is not Phase.MOVEMENT or state.active is None:
        return []
    board = state.battle.board
    if board is None:
        return []
    found: list[A.Action] = []
    for unit in waiting(state, state.active):
        if only is not None and unit.id != only:
            continue
        for hex_ in arrival_hexes(state, unit, board):
            found.append(A.Arrive(unit.id, hex_))
    return found


def arrival_hexes(state: GameState, unit: Unit, board: Board | None = None) -> list[Hex]:
    """The hexes where `unit` may arrive now, in reading order (for the lists and the map's tint)."""
    board = board or state.battle.board
    if board is None:
        return []
    if kind(state, unit) == HERO:  # only hexes holding a friendly Soldier: look at those alone
        candidates = sorted({u.hex for u in state.on_map(unit.side) if u.hex is not None})
    else:
        candidates = list(board.hexes)
    ordered = sorted(candidates, key=lambda h: (h.r, h.q))
    return [h for h in ordered if arrive_problem(state, unit, h) is None]


def legal_now(state: GameState, found: list[A.Action], only: str | None) -> list[A.Action]:
    """The active player's actions with arrivals added (and only arrivals or `pass` once Paratroopers
    have landed). Unchanged, and no cost, in a battle without such units."""
    if not any_special(state):
        return found
    if closed(state):
        found = [a for a in found if isinstance(a, A.Pass)]
    arrivals = arrive_actions(state, only)
    if not arrivals:
        return found
    passes = [a for a in found if isinstance(a, A.Pass)]
    rest = [a for a in found if not isinstance(a, A.Pass)]
    return [*rest, *arrivals, *passes]


# --- deployment ----------------------------------------------------------------------------------------


def edge_of_map(board: Board) -> frozenset[Hex]:
    """The full hexes on the map's edge: the first and last full hex of every row, and the whole first
    and last rows (half-hexes can't hold units)."""
    hexes: set[Hex] = set()
    for r in range(board.rows):
        row = board.row(r)
        if not row:
            continue
        if r in (0, board.rows - 1):
            hexes.update(row)
        else:
            hexes.update((row[0], row[-1]))
    return frozenset(hexes)


def extra_area(state: GameState, unit: Unit) -> frozenset[Hex]:
    """Where `unit` may deploy besides its own zone, if empty (Partisan, Gliderborne); else nothing."""
    how = kind(state, unit)
    board = state.battle.board
    if board is None or how not in (EDGE, OUTSIDE_ENEMY_ZONE):
        return frozenset()
    if how == EDGE:
        return edge_of_map(board)
    enemy = unit.side.other
    end = state.ends.get(enemy)
    if end is None:
        return frozenset()
    return frozenset(board.hexes) - zone_hexes(board, state.battle.terms.side(enemy).zone, end)


def deploy_problem(state: GameState, unit: Unit, hex_: Hex, zone: frozenset[Hex]) -> str | None:
    """Special deployment's answer for `deploy U H` (None: the ordinary rules decide): a unit that
    arrives later is not deployed; a Partisan or Gliderborne outside its zone needs an empty hex of its
    wider area. `zone` is the side's own deployment zone."""
    how = kind(state, unit)
    if how is None:
        return None
    if how in LATER:
        what = "joins in a hex with a friendly Soldier of its nation at the start of a movement phase"
        if how == PARATROOPER:
            what = "lands at the end of a movement phase"
        return f"{unit.id} starts off the map: it {what} ('arrive {unit.id} H')"
    if hex_ in zone:
        return None
    if hex_ not in extra_area(state, unit):
        where = "on the map's edge" if how == EDGE else "outside the enemy's deployment zone"
        return (
            f"{unit.id} deploys in its own zone or in an empty hex {where}; {_label(state, hex_)} is neither"
        )
    if state.at(hex_):
        return f"{unit.id} deploys outside its zone only in an empty hex; {_label(state, hex_)} is occupied"
    return None


def deploy_hexes(state: GameState, unit: Unit, zone: list[Hex]) -> list[Hex]:
    """The hexes to try for `deploy U H`, in reading order: the zone (`zone`, sorted), and for a Partisan
    or Gliderborne its wider area too; none for a unit that arrives later."""
    if not any_special(state):
        return zone
    how = kind(state, unit)
    if how in LATER:
        return []
    extra = extra_area(state, unit)
    if not extra:
        return zone
    return sorted(set(zone) | extra, key=lambda h: (h.r, h.q))
