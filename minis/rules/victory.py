"""How to Win, checked at the end of every turn: the battle's victory conditions
(`minis.engine.terms.Victory`).

The rulebook's Standard: from the end of turn 7, a player who controls the objective wins (control: the
only player with a unit adjacent to it, the objective hex itself included); from the end of turn 10, if
nobody controls it, the player whose units on the map are worth more points wins; a tie plays on.
Assault: at the end of turn 10 the attacker wins if it controls the objective, otherwise the defender
(a `Hold` by the defender). A scenario file adds units getting off the map by the enemy's edge (`Exit`).
Conditions are checked in order; the first that names a winner decides.
"""

from __future__ import annotations

from minis.base.sides import Side
from minis.engine.events import Event
from minis.engine.terms import Exit, Hold, ObjectiveFrom, PointsFrom
from minis.hexgrid import distance
from minis.rules.zones import edge_hexes
from minis.state import GameState


def controller(state: GameState) -> Side | None:
    """The player who controls the objective, or None (nobody near it, or both)."""
    if state.objective is None:
        return None
    sides = {
        u.side
        for u in state.on_map()
        if u.hex is not None and distance(u.hex, state.objective) <= 1 and not u.card.is_aircraft
    }
    return sides.pop() if len(sides) == 1 else None


def points(state: GameState, side: Side) -> int:
    """The point cost of the side's units on the battle map (and its aircraft not destroyed).

    Preset units are left out: nobody paid for them, and the count compares what each player kept of
    the army it bought (docs/scenarios.md).
    """
    presets = state.battle.presets
    # Aircraft leave the map at the end of every turn: those not destroyed count wherever they are.
    return sum(
        int(u.card.cost)
        for u in state.units.values()
        if u.side is side
        and not u.removed
        and (u.hex is not None or u.card.is_aircraft)
        and u.id not in presets
    )


def exited(state: GameState) -> tuple[str, ...]:
    """The units that got off the map by the enemy's edge, in the order they left."""
    return state.exited


def leave_map(state: GameState, events: list[Event]) -> None:
    """At the end of a turn, units that must get off the map (`Exit`) and stand on the enemy's edge leave."""
    board = state.battle.board
    gone = list(exited(state))
    for condition in state.battle.terms.victory:
        if not isinstance(condition, Exit):
            continue
        side = condition.side
        enemy_end = state.ends.get(side.other)
        if board is None or enemy_end is None:
            continue
        edge = edge_hexes(board, enemy_end)
        leaving = [u for u in state.units.values() if u.side is side and u.on_map and u.hex in edge]
        for unit in sorted(leaving, key=lambda u: u.id):
            if unit.id in gone or unit.hex is None:
                continue
            gone.append(unit.id)
            events.append(Event("exit", side, unit.id, hexes=(unit.hex,)))
            state.update(unit.id, hex=None, removed=True, carried_by=None)
    if gone:
        state.exited = tuple(gone)


def winner_at_end_of_turn(state: GameState) -> tuple[Side | None, str]:
    """The winner at the end of the current turn (None: play on) and why; conditions in order."""
    turn = state.turn
    for condition in state.battle.terms.victory:
        if isinstance(condition, ObjectiveFrom):
            if turn >= condition.from_turn:
                holder = controller(state)
                if holder is not None and (condition.side is None or holder is condition.side):
                    return holder, f"controls the objective at the end of turn {turn}"
        elif isinstance(condition, PointsFrom):
            if turn >= condition.from_turn:
                axis, allies = points(state, Side.AXIS), points(state, Side.ALLIES)
                if axis != allies:
                    return (
                        Side.AXIS if axis > allies else Side.ALLIES
                    ), f"points on the map {axis} to {allies} (Axis to Allies)"
        elif isinstance(condition, Hold):
            if turn >= condition.turn:
                side = condition.side
                if controller(state) is side.other:
                    return side.other, f"controls the objective at the end of turn {turn}"
                return side, f"holds: the enemy does not control the objective at the end of turn {turn}"
        else:
            side = condition.side
            gone = [state.units[u] for u in exited(state) if state.units[u].side is side]
            if condition.units is not None and len(gone) >= condition.units:
                return side, f"{len(gone)} units got off the enemy's end of the map"
            worth = sum(int(u.card.cost) for u in gone)
            if condition.points is not None and worth >= condition.points:
                return side, f"units worth {worth} points got off the enemy's end of the map"
            if condition.by_turn is not None and turn >= condition.by_turn:
                return (
                    side.other,
                    f"the {side.title} units did not get off the map by turn {condition.by_turn}",
                )
    return None, ""
