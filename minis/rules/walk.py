"""A move walked hex by hex: movement rolls, defensive-fire windows, stops and retracing.

Each step from X to Y goes: the movement rolls the step needs (stream, then forest); a failed roll
stops the unit in X facing Y and opens no window. Then the window while the unit is still in X (a
Vehicle already faces Y), then the unit enters Y and the window there. A window opens only when some
enemy may fire in it; the game then waits for the non-moving player (`fire` or `hold`). A disrupting
hit ends the move where the unit is: it never reaches the next hex, but other provoked units may still
fire at it there (multiple disruptions don't add up), and the move ends when that window closes. A
unit that must stop where it may not stay (stacking) retraces its path to the last hex where it can
legally stop.
"""

from __future__ import annotations

from minis import abilities
from minis.dice import Dice
from minis.engine.ability_api import FollowUp
from minis.engine.events import Event
from minis.hexgrid import FACING_BY_STEP, Facing, Hex, direction_to
from minis.rules import activation, defensive_fire, obstacles
from minis.rules.movement import PathPlan, roll_succeeds
from minis.rules.obstacles import MINE_STOP
from minis.rules.stacking import room_for
from minis.state import GameState, MoveProgress, Phase, Stage, Unit


def begin(
    state: GameState, unit_id: str, path: tuple[Hex, ...], face: Facing | None, plan: PathPlan, mode: str = ""
) -> None:
    """Start walking `path` (checked into `plan`) for `unit_id`; `run` does the rest. `mode` names the
    ability whose extra move this is."""
    unit = state.units[unit_id]
    assert unit.hex is not None
    state.move = MoveProgress(
        unit_id, (unit.hex, *path), face, unit.facing, rolls=plan.rolls, roads=plan.roads, mode=mode
    )
    state.stage = Stage.WALK


def run(state: GameState, dice: Dice, events: list[Event]) -> None:
    """Walk on until the move ends or a defensive-fire window waits for a decision."""
    move = state.move
    assert move is not None
    # Where the mover's enemies are: no unit moves or appears while another walks, so a window whose
    # hexes have no enemy next to them can open for nobody (asking `shooters` would find no one).
    side = state.units[move.unit].side
    enemies = {u.hex for u in state.units.values() if u.side is not side and u.hex is not None}
    if unopposed(state, move, enemies) and not state.obstacles:
        _walk_unopposed(state, move, dice, events)
        return
    transport = abilities.overrides(state, state.units[move.unit].card, "capacity")
    while True:
        unit = state.units[move.unit]
        if unit.removed:  # destroyed on the way by an ability (Lack of Determination): the move ends
            state.move = move
            _finish(state, dice, events, stopped="destroyed")
            return
        here, there = move.path[move.step], move.path[move.step + 1]
        if move.at == 0:
            if unit.card.is_vehicle:
                facing = direction_to(here, there)
                if unit.facing is not facing:  # an unchanged unit needs no new copy
                    unit = state.update(unit.id, facing=facing)
            for what in move.rolls[move.step]:
                die = dice.roll()
                ok = roll_succeeds(die + abilities.movement_roll_modifier(state, unit, what))
                events.append(Event("roll", unit.side, unit.id, dice=(die,), value=int(ok), note=what))
                if not ok:
                    ok = _roll_again(state, unit, what, dice, events)
                if not ok:
                    state.move = move
                    _finish(state, dice, events, stopped=f"failed the movement roll to {_verb(what)}")
                    return
            if state.obstacles and obstacles.mine_on_leaving(state, unit, here, dice, events):
                state.move = move
                _finish(state, dice, events, stopped=MINE_STOP)
                return
            move.at, move.window_closed = 1, False
        elif (
            not move.window_closed
            and (
                not defensive_fire.near_both(here, there).isdisjoint(enemies)
                or defensive_fire.watched_leaving(state, move)
            )
            and defensive_fire.shooters(state, move)
        ):
            state.move = move
            state.stage = Stage.DEFENSIVE_FIRE
            return
        elif move.stopped:
            state.move = move
            _finish(state, dice, events, stopped=move.stopped)
            return
        elif move.at == 1:
            carried = [u.id for u in state.units.values() if u.carried_by == unit.id] if transport else []
            entry = state.next_entry()
            state.update(unit.id, hex=there, entered=entry)
            for passenger in carried:
                state.update(passenger, hex=there, entered=entry)
            events.append(Event("move", unit.side, unit.id, hexes=(here, there)))
            abilities.on_enter(state, state.units[unit.id], there, events)
            move.at, move.window_closed = 2, False
            move.road_steps += int(move.roads[move.step])
        else:
            move.step, move.at = move.step + 1, 0
            if move.step >= len(move.path) - 1:
                state.move = move
                _finish(state, dice, events, stopped="")
                return


def unopposed(state: GameState, move: MoveProgress, enemies: set[Hex]) -> bool:
    """True for a move not yet begun that no window can open on (no enemy next to any step) by a unit
    that carries no one and has no ability acting on the hexes it enters: `_walk_unopposed` walks it."""
    if move.step or move.at or abilities.overrides_any(state, state.units[move.unit].card, _NOT_PLAIN):
        return False
    if defensive_fire.leaving_watched(state, move):  # a window may open with no enemy next to b
        return False
    return defensive_fire.near_path(move.path).isdisjoint(enemies)


#: Hooks that make a move more than steps: carrying a passenger along, an effect on entering a hex.
_NOT_PLAIN = frozenset(("capacity", "on_enter"))


def _walk_unopposed(state: GameState, move: MoveProgress, dice: Dice, events: list[Event]) -> None:
    """`run` for a move no window can open on (no enemy next to any step) by a unit that carries no
    one and has no ability acting on the hexes it enters: the same rolls, events and final state, with
    the unit's copy made once at the end instead of at every hex (most moves are like this)."""
    unit = state.units[move.unit]
    vehicle = unit.card.is_vehicle
    facing = unit.facing
    path = move.path
    entered = 0
    stopped = ""
    side, unit_id = unit.side, unit.id
    rolls = move.rolls
    for step, there in enumerate(path[1:]):
        here = path[step]
        if vehicle:
            facing = FACING_BY_STEP.get((there.q - here.q, there.r - here.r))  # `direction_to`
        if not rolls[step]:  # most steps need no movement roll
            entered += 1
            events.append(_new_event(Event, ("move", side, unit_id, None, (here, there), *_EVENT_TAIL)))
            continue
        for what in rolls[step]:
            die = dice.roll()
            ok = roll_succeeds(die + abilities.movement_roll_modifier(state, unit, what))
            events.append(Event("roll", unit.side, unit.id, dice=(die,), value=int(ok), note=what))
            if not ok:
                ok = _roll_again(state, unit, what, dice, events)
            if not ok:
                stopped = f"failed the movement roll to {_verb(what)}"
                break
        if stopped:
            move.step = step
            break
        entered += 1
        events.append(Event("move", unit.side, unit.id, hexes=(path[step], there)))
    else:
        move.step = len(path) - 1
        if vehicle and move.face is not None:
            facing = move.face  # the final facing `finish` would give it: one copy of the unit, not two
    move.at = 0
    move.road_steps += sum(move.roads[:entered])  # the road steps of the hexes entered
    if entered:
        state.entry_counter += entered
        state.update(unit.id, hex=path[entered], entered=state.entry_counter, facing=facing)
    elif facing is not unit.facing:
        state.update(unit.id, facing=facing)
    finish(state, events, stopped=stopped)


#: A "move" event built without the named tuple's keyword handling (a C call, no Python frame): the
#: walk makes one per hex entered. The fields after `hexes` keep their defaults.
_new_event = tuple.__new__
_EVENT_TAIL = tuple(Event._field_defaults[name] for name in Event._fields[5:])


def _verb(what: str) -> str:
    return "cross the stream" if what == "stream" else f"enter the {what}"


def hold(state: GameState, events: list[Event]) -> None:
    """The non-moving player declines the rest of the current window."""
    assert state.move is not None and state.stage is Stage.DEFENSIVE_FIRE
    events.append(Event("hold", state.units[state.move.unit].side.other))
    state.move.window_closed = True
    state.stage = Stage.WALK


def fire(state: GameState, firer_id: str, dice: Dice, events: list[Event]) -> None:
    """Defensive fire in the current window; a disrupting hit stops the move where the mover is."""
    move = state.move
    assert move is not None and state.stage is Stage.DEFENSIVE_FIRE
    if (
        defensive_fire.fire(state, firer_id, move.unit, dice, events)
        and not move.stopped
        and not abilities.keeps_moving_when_disrupted(state, state.units[move.unit])
    ):
        move.stopped = "disrupted by defensive fire"
    state.stage = Stage.WALK


def _finish(state: GameState, dice: Dice, events: list[Event], stopped: str) -> None:
    """`finish`, then a unit that ends its move in a minefield rolls (minis.rules.obstacles)."""
    assert state.move is not None
    unit_id = state.move.unit
    finish(state, events, stopped)
    if state.obstacles:
        obstacles.mine_at_end(state, unit_id, stopped, dice, events)


def finish(state: GameState, events: list[Event], stopped: str) -> None:
    """End the move: final facing if it went all the way, retracing if it stopped where it can't stay."""
    move = state.move
    assert move is not None
    unit = state.units[move.unit]
    if unit.removed:  # nothing to face or retrace
        state.move = None
        state.stage = Stage.ACT
        if state.phase is not Phase.SETUP:
            activation.after_action(state, unit.id, "move", move.path, None)
        return
    assert unit.hex is not None
    if not stopped:
        if move.face is not None and unit.card.is_vehicle and unit.facing is not move.face:
            unit = state.update(unit.id, facing=move.face)
    else:
        here = unit.hex
        assert here is not None
        events.append(Event("stop", unit.side, unit.id, hexes=(here,), note=stopped))
        if not room_for(state, unit, here):
            position = move.step + (1 if move.at == 2 else 0)
            for back in range(position - 1, -1, -1):
                hex_ = move.path[back]
                if room_for(state, unit, hex_):
                    # A Vehicle keeps the facing it stopped with (toward the hex it tried to enter):
                    # a disrupted unit may not change facing (ruling in docs/engine.md).
                    entry = state.next_entry()
                    state.update(unit.id, hex=hex_, entered=entry)
                    for other in [u.id for u in state.units.values() if u.carried_by == unit.id]:
                        state.update(other, hex=hex_, entered=entry)
                    events.append(Event("retrace", unit.side, unit.id, hexes=(hex_,)))
                    break
    if unit.card.is_vehicle and move.road_steps:
        state.road_bonus.add(unit.id)
    state.move = None
    state.stage = Stage.ACT
    if state.phase is not Phase.SETUP:
        used = FollowUp("move", move.mode) if move.mode else None
        activation.after_action(state, unit.id, "move", move.path, used)


def _roll_again(state: GameState, unit: Unit, what: str, dice: Dice, events: list[Event]) -> bool:
    """A failed movement roll an ability rolls again (Lead the Way): one more die, right after it."""
    which = abilities.rerolls_movement_roll(state, unit, what)
    if which is None:
        return False
    die = dice.roll()
    ok = roll_succeeds(die)
    events.append(Event("ability", unit.side, unit.id, dice=(die,), value=int(ok), note=which))
    return ok
