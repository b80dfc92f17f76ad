"""The sequence of play as a state machine over decisions and dice (docs/engine.md#the-state-machine).

`apply(state, action, dice, events)` performs one decision and then `advance` runs everything that
follows by itself (movement rolls, the rest of a move, the casualty phase, the end of turn, the
initiative roll, set-up dice) until the game waits for the next decision. It mutates `state`; the
caller (`minis.game.Game`) works on a clone so that an `IllegalAction` leaves the game unchanged.
A scripted dice source that runs dry raises `NeedDice` from the middle of this; the caller keeps the
partly advanced state for inspection and replays the action once more dice arrive.
"""

from __future__ import annotations

from collections.abc import Callable

from minis import abilities
from minis.base.sides import Side
from minis.board import Board
from minis.dice import Dice
from minis.engine import actions as A
from minis.engine.ability_api import FollowUp
from minis.engine.events import Event
from minis.hexgrid import Facing
from minis.mapfile import load_configuration
from minis.rules import (
    activation,
    air,
    arrivals,
    casualty,
    initiative,
    obstacles,
    overstack,
    setup,
    transport,
    victory,
    walk,
    water,
)
from minis.rules.combat import AttackPlan, plan_attack, resolve_with_blast
from minis.rules.defensive_fire import shooters, window_hex
from minis.rules.errors import IllegalAction
from minis.rules.movement import cannot_move, check_path
from minis.rules.stacking import room_for
from minis.state import AUTOMATIC, GameState, Phase, Stage, Unit

#: Loads configuration N (set-up); replaced in tests.
BoardLoader = Callable[[int], Board]


def default_loader(number: int) -> Board:
    """The shipped configuration `number` (the rules read no other file, and a game may replace it)."""
    return load_configuration(number)


CONFIGURATIONS = range(1, 7)


def decider(state: GameState) -> Side | None:
    """Whose decision the game waits for (None while dice or automatic steps are pending, or at the end)."""
    stage = state.stage
    if stage is Stage.ACT:
        return state.active
    if stage is Stage.DEFENSIVE_FIRE or stage is Stage.PLACE or stage is Stage.REACTION:
        return state.active.other if state.active else None
    if stage is Stage.PENALTY:  # the opponent of the overstacked player chooses
        return state.active.other if state.active else None
    if stage is Stage.DEPLOY:
        return state.deploying
    if stage in (Stage.CHOOSE_CONFIGURATION, Stage.CHOOSE_OBJECTIVE, Stage.CHOOSE_FIRST, Stage.CHOOSE_END):
        return state.chooser
    return None


# --- automatic steps ---------------------------------------------------------------------------------


def advance(
    state: GameState, dice: Dice, events: list[Event], load_board: BoardLoader = default_loader
) -> None:
    """Run automatic stages until a decision (or the end of the game) is reached."""
    if state.stage is Stage.DEPLOY and state.obstacles:
        obstacles.settle(state)  # whose turn it is to place an obstacle
    while state.stage in AUTOMATIC:
        stage = state.stage
        if stage is Stage.WALK:
            walk.run(state, dice, events)
        elif stage is Stage.CASUALTY:
            events.append(Event("phase", None, note="casualty"))
            casualty.casualty_phase(state, events, dice)
            state.stage = Stage.END_TURN
        elif stage is Stage.END_TURN:
            _end_turn(state, events)
        elif stage is Stage.INITIATIVE:
            winner = initiative.roll_initiative(state, dice, events)
            state.chooser = winner
            state.stage = Stage.CHOOSE_FIRST
        elif stage is Stage.MAP_ROLL:
            die = dice.roll()
            set_configuration(state, die, load_board)
            events.append(Event("configuration", value=die, dice=(die,)))
            state.stage = Stage.COIN
        elif stage is Stage.COIN:
            die = dice.roll()
            state.chooser = Side.AXIS if die <= 3 else Side.ALLIES
            events.append(Event("coin", state.chooser, dice=(die,)))
            state.stage = Stage.CHOOSE_FIRST


def set_configuration(state: GameState, number: int, load_board: BoardLoader) -> None:
    """Configuration `number` is the battle map (rolled, chosen, or agreed before the game)."""
    setup.set_map(state, load_board(number), number)


def _end_turn(state: GameState, events: list[Event]) -> None:
    if air.in_battle(state):
        air.leave_map(state, events)  # aircraft leave the map before anything is judged
    victory.leave_map(state, events)  # units getting off by the enemy's edge leave before the check
    side, why = victory.winner_at_end_of_turn(state)
    if side is not None:
        state.winner = side
        state.stage = Stage.OVER
        state.phase = Phase.OVER
        events.append(Event("winner", side, note=why))
        return
    limit = state.battle.terms.turn_limit
    if limit is not None and state.turn >= limit:
        state.stage = Stage.OVER
        state.phase = Phase.OVER
        events.append(Event("winner", None, note=f"turn limit {limit} reached"))
        return
    start_turn(state, state.turn + 1, events)


def start_turn(state: GameState, turn: int, events: list[Event]) -> None:
    state.turn = turn
    state.phase = Phase.INITIATIVE
    state.stage = Stage.INITIATIVE
    state.active = None
    _new_phase(state)
    events.append(Event("turn", value=turn))


def _new_phase(state: GameState) -> None:
    state.activated.clear()
    state.fired.clear()
    state.road_bonus.clear()


def _start_phase(state: GameState, phase: Phase, active: Side, events: list[Event]) -> None:
    state.phase = phase
    state.active = active
    state.stage = Stage.ACT
    _new_phase(state)
    events.append(Event("phase", active, note=phase.value))
    abilities.on_phase_start(state, events)


def end_phase(state: GameState, events: list[Event], passed: bool = True) -> None:
    """The active player passes (`passed`; else a shared flight phase ends by itself, nobody having an
    aircraft left to place): on to the next phase of the sequence of play.

    Movement, movement, flight, flight, airstrike, airstrike, assault, assault (first player, then
    second, in each pair), then the casualty phase. A flight or airstrike phase in which the player has
    nothing to do (`air.has_turn`) is skipped with no decision and no event, so a battle without
    aircraft plays as if those phases did not exist. Under a shared flight phase (`air.shared_flight`)
    the first player's flight phase is the one both place in (begun by the first who may place) and
    the second player's never comes.
    """
    assert state.first is not None and state.active is not None
    if passed:
        events.append(Event("pass", state.active))
        if overstack.begin(state):  # overstacked hexes cost hit counters first (`_penalty` goes on)
            return
    order = _turn_order(state.first)
    at = order.index((state.phase, state.active))
    aircraft = (state.phase is Phase.MOVEMENT and air.in_battle(state)) or state.phase in air.AIR_PHASES
    if state.phase is Phase.FLIGHT and air.shared_flight(state):
        air.end_shared_flight(state)
        at = order.index((Phase.FLIGHT, state.first.other))  # on to the airstrike phases
    for phase, side in order[at + 1 :]:
        if phase in air.AIR_PHASES and not aircraft:
            continue
        if phase is Phase.FLIGHT and air.shared_flight(state):  # one flight phase for both players
            placer = next((s for s in (side, side.other) if air.has_turn(state, phase, s)), None)
            if side is not state.first or placer is None:
                continue
            side = placer
        elif phase in air.AIR_PHASES and not air.has_turn(state, phase, side):
            continue
        _start_phase(state, phase, side, events)
        return
    state.phase = Phase.CASUALTY
    state.stage = Stage.CASUALTY
    state.active = None
    _new_phase(state)


def _turn_order(first: Side) -> tuple[tuple[Phase, Side], ...]:
    """The player phases of a turn in order (the sequence of play with the flight and airstrike phases)."""
    second = first.other
    return tuple(
        (phase, side)
        for phase in (Phase.MOVEMENT, Phase.FLIGHT, Phase.AIRSTRIKE, Phase.ASSAULT)
        for side in (first, second)
    )


# --- decisions ---------------------------------------------------------------------------------------

ACTING = (A.Move, A.Face, A.Attack, A.BoardTransport, A.Dismount, A.Pass, A.Use, A.Arrive, A.Place)


def apply(
    state: GameState,
    action: A.Action,
    dice: Dice,
    events: list[Event],
    load_board: BoardLoader = default_loader,
) -> None:
    """Perform `action` for the player whose decision it is, then advance; IllegalAction if not allowed."""
    stage = state.stage
    if stage in AUTOMATIC:
        raise IllegalAction("the game is waiting for dice")
    if stage is Stage.OVER:
        raise IllegalAction("the game is over")
    if stage is Stage.DEFENSIVE_FIRE and isinstance(action, ACTING):
        hold_all(state, dice, events)  # the acting player's next step holds every window still open
        stage = state.stage
    elif stage is Stage.REACTION and isinstance(action, ACTING):
        air.close_window(state, events)  # the next placement or pass holds the reaction shots
        stage = state.stage
    if stage is Stage.ACT:
        _act(state, action, dice, events)
    elif stage is Stage.DEFENSIVE_FIRE:
        _defensive_fire(state, action, dice, events)
    elif stage is Stage.REACTION:
        _reaction(state, action, dice, events)
    elif stage is Stage.PLACE:
        _place(state, action, events)
    elif stage is Stage.PENALTY:
        _penalty(state, action, events)
    elif stage is Stage.DEPLOY:
        _deploy(state, action, events)
    else:
        _choose(state, action, events, load_board)
    if state.phase is Phase.FLIGHT and state.stage is Stage.ACT and air.shared_flight(state):
        _flight_turn(state, events)
    advance(state, dice, events, load_board)


def _flight_turn(state: GameState, events: list[Event]) -> None:
    """A shared flight phase: a player who may place no more is skipped; when neither may, the phase
    ends by itself and the airstrike phases follow."""
    active = state.active
    assert active is not None
    if air.may_place(state, active):
        return
    if air.may_place(state, active.other):
        state.active = active.other
        return
    end_phase(state, events, passed=False)


def hold_all(state: GameState, dice: Dice, events: list[Event]) -> None:
    """Hold every window of the move under way and walk it to its end."""
    while state.stage is Stage.DEFENSIVE_FIRE or state.stage is Stage.WALK:
        if state.stage is Stage.DEFENSIVE_FIRE:
            walk.hold(state, events)
        walk.run(state, dice, events)


def _unit(state: GameState, unit_id: str) -> Unit:
    unit = state.units.get(unit_id)
    if unit is None:
        raise IllegalAction(f"there is no unit '{unit_id}'")
    return unit


def _own(state: GameState, unit_id: str) -> Unit:
    unit = _unit(state, unit_id)
    if unit.side is not state.active:
        raise IllegalAction(f"{unit_id} is not one of the {state.active.title if state.active else ''} units")
    if unit.removed:
        raise IllegalAction(f"{unit_id} has been destroyed")
    return unit


def _own_unready(state: GameState, unit_id: str) -> Unit:
    unit = _own(state, unit_id)
    if unit.id in state.activated:
        raise IllegalAction(f"{unit_id} has already acted this phase")
    return unit


def _activation(state: GameState, unit_id: str, kind: str, *others: str) -> tuple[Unit, FollowUp | None]:
    """The unit, and the extra action ("move"/"attack"/"face", else one of `others`) it uses if it has
    already acted this phase.

    Any other action ends the current activation: extra actions can't be saved for later.
    """
    unit = _own(state, unit_id)
    if unit.id in state.activated:
        for wanted in (kind, *others):
            for offer in activation.offers(state, unit.id):
                if offer.kind == wanted:
                    return unit, offer
        raise IllegalAction(f"{unit_id} has already acted this phase")
    activation.clear(state)
    return unit, None


def _act(state: GameState, action: A.Action, dice: Dice, events: list[Event]) -> None:
    if state.phase is Phase.SETUP:
        _vanguard(state, action, events)
        return
    if isinstance(action, A.Arrive):  # a Hero or Paratrooper enters the battle (special deployment)
        activation.clear(state)
        arrivals.arrive(state, action, events)
        return
    landed = arrivals.act_problem(state, action) if state.landed is not None else None
    if landed:  # Paratroopers have landed: the movement phase is at its end
        raise IllegalAction(landed)
    if isinstance(action, A.Pass):
        activation.clear(state)
        if state.phase is Phase.FLIGHT and air.shared_flight(state):
            problem = air.pass_problem(state)
            if problem:
                raise IllegalAction(problem)
            events.append(Event("pass", state.active))
            air.decline(state)  # he places no more this turn; the other goes on alone (`_flight_turn`)
            return
        end_phase(state, events)
        return
    if state.phase is Phase.FLIGHT or state.phase is Phase.AIRSTRIKE:
        _air_act(state, action, dice, events)
        return
    if isinstance(action, A.Place):
        raise IllegalAction("aircraft are placed only in their flight phase")
    unit_id = A.acting_unit(action)
    if unit_id is not None and unit_id in state.units and state.units[unit_id].card.is_aircraft:
        if isinstance(action, A.Attack):
            raise IllegalAction("aircraft attack only in their airstrike phase")
        raise IllegalAction(f"{unit_id} is an aircraft: aircraft are placed in the flight phase, never moved")
    if isinstance(action, A.Move):
        unit, offer = _activation(state, action.unit, "move")
        _start_move(state, unit, action, offer)
        return
    if isinstance(action, A.Face):
        unit, offer = _activation(state, action.unit, "face", "move")
        if not unit.card.is_vehicle:
            raise IllegalAction(f"{unit.id} is a Soldier; only Vehicles have a facing")
        problem = cannot_move(state, unit)
        if problem:
            raise IllegalAction(problem)
        state.activated.add(unit.id)
        state.update(unit.id, facing=action.facing)
        events.append(Event("face", unit.side, unit.id, note=action.facing.name))
        assert unit.hex is not None
        activation.after_action(state, unit.id, "move", (unit.hex,), offer)
        return
    if isinstance(action, A.Attack):
        if state.phase is not Phase.ASSAULT:
            raise IllegalAction("units attack only in their assault phase (or with defensive fire)")
        unit, offer = _activation(state, action.unit, "attack")
        target = _unit(state, action.target)
        plan = plan_attack(state, unit, target, mode=offer.ability if offer else "")
        if not isinstance(plan, AttackPlan):
            raise IllegalAction(plan)
        state.activated.add(unit.id)
        resolve_with_blast(state, plan, dice, events)
        activation.after_action(state, unit.id, "attack", (), offer)
        return
    if isinstance(action, A.Use):
        unit = _own(state, action.unit)
        activation.clear(state)
        abilities.use(state, unit, action, dice, events)
        return
    activation.clear(state)
    if isinstance(action, A.BoardTransport):
        unit = _own_unready(state, action.unit)
        if state.phase is not Phase.MOVEMENT:
            raise IllegalAction("Soldiers board transports only in their movement phase")
        problem = transport.board_problem(state, unit, _unit(state, action.transport))
        if problem:
            raise IllegalAction(problem)
        state.activated.add(unit.id)
        # from the shore (a transport afloat) the Soldier goes to the transport's hex: `rules/water.py`
        state.update(unit.id, carried_by=action.transport, hex=_unit(state, action.transport).hex)
        events.append(Event("board", unit.side, unit.id, action.transport))
        return
    if isinstance(action, A.Dismount):
        unit = _own_unready(state, action.unit)
        problem = transport.dismount_problem(state, unit, action.hex)
        if problem:
            raise IllegalAction(problem)
        if room_for(state, unit, action.hex):
            state.activated.add(unit.id)
            # `action.hex` is the transport's hex, or a shore hex next to a transport afloat (water)
            state.update(unit.id, carried_by=None, hex=action.hex, entered=state.next_entry())
            events.append(Event("dismount", unit.side, unit.id, hexes=(action.hex,)))
            return
        if not transport.placements(state, unit, action.hex):
            raise IllegalAction(f"there is nowhere near for {unit.id} to get off")
        state.activated.add(unit.id)
        state.placing = unit.id
        state.stage = Stage.PLACE  # the opponent chooses where the Soldier that doesn't fit goes
        return
    raise IllegalAction(
        f"that is not something the {state.active.title if state.active else ''} "
        f"player can do in the {state.phase.value} phase"
    )


def _air_act(state: GameState, action: A.Action, dice: Dice, events: list[Event]) -> None:
    """The flight phase (`place U H`) and the airstrike phase (`attack U T` by an aircraft, or an
    aircraft's own ability action)."""
    if state.phase is Phase.FLIGHT:
        if not isinstance(action, A.Place):
            raise IllegalAction("in the flight phase aircraft are placed: 'place U H', or 'pass'")
        activation.clear(state)
        unit = _own(state, action.unit)
        problem = air.place_problem(state, unit, action.hex)
        if problem:
            raise IllegalAction(problem)
        air.place(state, unit, action.hex, events)
        return
    if not isinstance(action, A.Attack | A.Use) or not _is_aircraft(state, action.unit):
        raise IllegalAction("in the airstrike phase only aircraft attack: 'attack U T', or 'pass'")
    unit = _own(state, action.unit)
    if not unit.on_map:
        raise IllegalAction(f"{unit.id} is not over the map this turn")
    if isinstance(action, A.Use):
        activation.clear(state)
        abilities.use(state, unit, action, dice, events)
        return
    unit, offer = _activation(state, action.unit, "attack")
    target = _unit(state, action.target)
    plan = plan_attack(state, unit, target, mode=offer.ability if offer else "")
    if not isinstance(plan, AttackPlan):
        raise IllegalAction(plan)
    state.activated.add(unit.id)
    resolve_with_blast(state, plan, dice, events)
    activation.after_action(state, unit.id, "attack", (), offer)


def _is_aircraft(state: GameState, unit_id: str) -> bool:
    unit = state.units.get(unit_id)
    return unit is not None and bool(unit.card.is_aircraft)


def _reaction(state: GameState, action: A.Action, dice: Dice, events: list[Event]) -> None:
    """The answer to an aircraft's placement: `fire U at H` (a reaction shot) or `hold`."""
    if isinstance(action, A.Hold):
        air.close_window(state, events)
        return
    aircraft = air.reacting_to(state)
    assert aircraft is not None and aircraft.hex is not None
    if not isinstance(action, A.Fire):
        raise IllegalAction(f"the game waits for a shot at {aircraft.id}: 'fire U at H' or 'hold'")
    firer = _unit(state, action.unit)
    if action.at != aircraft.hex or firer.id not in {u.id for u in air.reactors(state, aircraft)}:
        board = state.battle.board
        where = board.label(action.at) if board is not None else str(action.at)
        raise IllegalAction(f"{firer.id} gets no shot at an aircraft placed in {where}")
    air.react(state, firer.id, dice, events)


def _start_move(state: GameState, unit: Unit, action: A.Move, offer: FollowUp | None) -> None:
    problem = cannot_move(state, unit)
    if problem:
        raise IllegalAction(problem)
    if action.face is not None and not unit.card.is_vehicle:
        raise IllegalAction(f"{unit.id} is a Soldier; only Vehicles have a facing")
    assert unit.hex is not None
    problem = abilities.before_move(state, unit, (unit.hex, *action.path), action.overrun)
    if problem:
        raise IllegalAction(problem)
    plan = check_path(state, unit, action.path)
    if isinstance(plan, str):
        raise IllegalAction(plan)
    state.activated.add(unit.id)
    walk.begin(state, unit.id, action.path, action.face, plan, offer.ability if offer else "")


def begin_before_turn_1(state: GameState, sides: list[Side], events: list[Event]) -> None:
    """After deployment: each of `sides` in turn moves its units that may move before turn 1 (Vanguard);
    sides without such units are skipped. Then turn 1 begins."""
    while sides:
        side = sides.pop(0)
        if any(abilities.moves_before_turn_1(state, u) for u in state.on_map(side)):
            state.phase = Phase.SETUP
            state.stage = Stage.ACT
            state.active = side
            state.before_turn_1 = tuple(sides)
            _new_phase(state)
            return
    state.active = None
    start_turn(state, 1, events)


def _vanguard(state: GameState, action: A.Action, events: list[Event]) -> None:
    """After deployment, before turn 1: units that may move then (Vanguard) make one move each."""
    if isinstance(action, A.Pass):
        events.append(Event("pass", state.active))
        waiting, state.before_turn_1 = state.before_turn_1, ()
        begin_before_turn_1(state, list(waiting), events)
        return
    if not isinstance(action, A.Move | A.Face):
        raise IllegalAction(
            "before turn 1 only units that may move then (Vanguard) move: 'move', 'face' or 'pass'"
        )
    unit = _own_unready(state, action.unit)
    if not abilities.moves_before_turn_1(state, unit):
        raise IllegalAction(f"{unit.id} can't move before turn 1")
    if isinstance(action, A.Face):
        if not unit.card.is_vehicle:
            raise IllegalAction(f"{unit.id} is a Soldier; only Vehicles have a facing")
        state.activated.add(unit.id)
        state.update(unit.id, facing=action.facing)
        events.append(Event("face", unit.side, unit.id, note=action.facing.name))
        return
    _start_move(state, unit, action, None)


def _defensive_fire(state: GameState, action: A.Action, dice: Dice, events: list[Event]) -> None:
    if isinstance(action, A.Hold):
        walk.hold(state, events)
        return
    if not isinstance(action, A.Fire):
        raise IllegalAction("the game waits for defensive fire: 'fire U at H' or 'hold'")
    firer = _unit(state, action.unit)
    if firer.side is state.active:
        raise IllegalAction(f"{firer.id} belongs to the moving player and can't fire defensively")
    while True:
        move = state.move
        if (
            state.stage is Stage.DEFENSIVE_FIRE
            and move is not None
            and window_hex(move) == action.at
            and any(u.id == firer.id for u in shooters(state, move))
        ):
            walk.fire(state, firer.id, dice, events)
            return
        if state.stage is Stage.DEFENSIVE_FIRE:
            walk.hold(state, events)
        elif state.stage is Stage.WALK:
            walk.run(state, dice, events)
        else:
            board = state.battle.board
            where = board.label(action.at) if board is not None else str(action.at)
            raise IllegalAction(f"{firer.id} gets no chance to fire at the moving unit in {where}")


def _place(state: GameState, action: A.Action, events: list[Event]) -> None:
    assert state.placing is not None
    soldier = state.units[state.placing]
    if not isinstance(action, A.Dismount) or action.unit != soldier.id:
        raise IllegalAction(
            f"the game waits for the opponent to place {soldier.id}: 'dismount {soldier.id} H'"
        )
    assert soldier.hex is not None
    allowed = transport.placements(state, soldier, soldier.hex)
    if action.hex not in allowed:
        raise IllegalAction(f"{soldier.id} must be placed in one of the nearest hexes where it fits")
    state.update(soldier.id, hex=action.hex, carried_by=None, entered=state.next_entry())
    events.append(Event("dismount", soldier.side, soldier.id, hexes=(action.hex,)))
    state.placing = None
    state.stage = Stage.ACT


def _penalty(state: GameState, action: A.Action, events: list[Event]) -> None:
    """`penalty U` for the current overstacked hex; after the last one the phase ends as the pass said."""
    if overstack.settle(state, action, events):
        end_phase(state, events, passed=False)


def still_to_deploy(state: GameState, side: Side) -> list[str]:
    """The ids of `side`'s units still to be placed at deployment, sorted: not those that arrive during
    the battle (Heroes, Paratroopers), nor a boat with no water in its zone, nor a unit with no room left
    in its zone (both stay out: `left_out`)."""
    pending = [
        u
        for u in state.units.values()
        if u.side is side
        and u.hex is None
        and not u.removed
        and not u.card.is_aircraft
        and not arrivals.arrives_later(state, u)
        and not water.stranded(state, u)
    ]
    crowded: dict[str, bool] = {}  # per card: copies of a card have the same room
    for unit in pending:
        if unit.card.id not in crowded:
            crowded[unit.card.id] = setup.crowded_out(state, unit)
    return sorted(u.id for u in pending if not crowded[u.card.id])


def left_out(state: GameState, events: list[Event]) -> None:
    """When both armies have deployed, the units that could not be placed leave the battle: boats with
    no water in their zone (`water.leave_out_stranded`) and units with no room left in their zone
    (`setup.crowded_out`), each with a `stranded` event; they score nothing, as in `water`."""
    water.leave_out_stranded(state, events)
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        if unit.hex is None and not arrivals.arrives_later(state, unit) and setup.crowded_out(state, unit):
            state.update(unit.id, removed=True, hex=None, carried_by=None)
            events.append(Event("stranded", unit.side, unit.id, note="crowded"))


def _deploy(state: GameState, action: A.Action, events: list[Event]) -> None:
    side = state.deploying
    assert side is not None
    if state.obstacles and obstacles.placing(state):  # obstacles are placed first, the players alternating
        if not isinstance(action, A.Deploy):
            raise IllegalAction("obstacles are placed first: 'deploy U H' (Barbed Wire: 'deploy U H1/H2')")
        obstacles.deploy(state, action, events)
        return
    if isinstance(action, A.Ready):
        missing = still_to_deploy(state, side)
        if missing:
            raise IllegalAction(f"deploy every unit first: {', '.join(missing)}")
        other = side.other
        if still_to_deploy(state, other):
            state.deploying = other
            return
        left_out(state, events)
        state.deploying = None
        begin_before_turn_1(state, [other, side], events)  # the first deployer first
        return
    if isinstance(action, A.Deploy):
        unit = _unit(state, action.unit)
        if unit.side is not side:
            raise IllegalAction(f"{unit.id} is not one of the {side.title} units")
        if unit.carried_by is not None:
            state.update(unit.id, carried_by=None, hex=None)
            unit = state.units[unit.id]
        if action.face is not None and not unit.card.is_vehicle:
            raise IllegalAction(f"{unit.id} is a Soldier; only Vehicles have a facing")
        problem = setup.deploy_problem(state, unit, action.hex)
        if problem:
            raise IllegalAction(problem)
        facing = None
        if unit.card.is_vehicle:
            facing = action.face or Facing.parse(setup.default_facing_end(state.ends[side]))
        passengers = [u.id for u in state.units.values() if u.carried_by == unit.id and not u.removed]
        entry = state.next_entry()
        state.update(unit.id, hex=action.hex, facing=facing, entered=entry)
        for passenger in passengers:  # a Large Transport may carry two
            state.update(passenger, hex=action.hex, entered=entry)
        events.append(Event("deploy", side, unit.id, hexes=(action.hex,)))
        return
    if isinstance(action, A.BoardTransport):
        unit = _unit(state, action.unit)
        carrier = _unit(state, action.transport)
        if unit.side is not side:
            raise IllegalAction(f"{unit.id} is not one of the {side.title} units")
        problem = transport.board_problem(state, unit, carrier)
        if problem:
            raise IllegalAction(problem)
        state.update(unit.id, carried_by=carrier.id, hex=carrier.hex)  # from the shore too (water)
        events.append(Event("board", side, unit.id, carrier.id))
        return
    raise IllegalAction("during deployment: 'deploy U H [face D]', 'board U T' or 'ready'")


def _choose(state: GameState, action: A.Action, events: list[Event], load_board: BoardLoader) -> None:
    stage = state.stage
    chooser = state.chooser
    assert chooser is not None
    if stage is Stage.CHOOSE_FIRST and isinstance(action, A.First):
        state.first = action.side
        events.append(Event("first", action.side))
        if state.phase is Phase.SETUP:
            state.chooser = action.side
            state.stage = Stage.CHOOSE_END
            setup.fix_ends(state)  # the terms may fix the ends: then on to deployment
        else:
            _start_phase(state, Phase.MOVEMENT, action.side, events)
        return
    if stage is Stage.CHOOSE_CONFIGURATION and isinstance(action, A.Configuration):
        if action.number not in CONFIGURATIONS:
            raise IllegalAction(f"there is no configuration {action.number} (1 to 6)")
        set_configuration(state, action.number, load_board)
        events.append(Event("configuration", chooser, value=action.number))
        state.stage = Stage.CHOOSE_OBJECTIVE
        return
    if stage is Stage.CHOOSE_OBJECTIVE and isinstance(action, A.Objective):
        problem = setup.objective_problem(state, action.hex)
        if problem:
            raise IllegalAction(problem)
        state.objective = action.hex
        state.stage = Stage.CHOOSE_END
        setup.fix_ends(state)
        return
    if stage is Stage.CHOOSE_END and isinstance(action, A.End):
        state.ends = {chooser: action.end, chooser.other: "east" if action.end == "west" else "west"}
        events.append(Event("end", chooser, note=action.end))
        state.deploying = chooser
        state.stage = Stage.DEPLOY
        return
    wanted = {
        Stage.CHOOSE_FIRST: "'first axis' or 'first allies'",
        Stage.CHOOSE_CONFIGURATION: "'configuration N'",
        Stage.CHOOSE_OBJECTIVE: "'objective H'",
        Stage.CHOOSE_END: "'end west' or 'end east'",
    }[stage]
    raise IllegalAction(f"the game waits for the {chooser.title} player's choice: {wanted}")
