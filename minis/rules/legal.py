"""The legal actions of the player whose decision it is.

Moves are listed with one cheapest path per hex the unit can end in (a front end that wants another
path builds it and asks `Game.is_legal`); a Vehicle's move is listed once per final facing. Deployment
lists every hex of the zone for every unit still to deploy.
"""

from __future__ import annotations

from collections.abc import Mapping

from mypy_extensions import mypyc_attr

from minis import abilities
from minis.base.sides import Side
from minis.engine import actions as A
from minis.hexgrid import FACINGS, OTHER_FACINGS, Facing, Hex
from minis.rules import activation, air, arrivals, obstacles, overstack, sequence, setup, transport, water
from minis.rules.combat import attack_allowed, may_reach
from minis.rules.defensive_fire import shooters, window_hex
from minis.rules.movement import cannot_move, reachable
from minis.rules.sequence import CONFIGURATIONS
from minis.state import GameState, Phase, Stage, Unit


def ready_units(state: GameState) -> list[str]:
    """Units of the decider that have not acted this phase (deployment: not yet deployed)."""
    if state.stage is Stage.ACT:
        if state.landed is not None and arrivals.closed(state):  # Paratroopers landed
            return []
        phase = state.phase
        if phase is Phase.FLIGHT or phase is Phase.AIRSTRIKE:
            assert state.active is not None
            ready = air.waiting if phase is Phase.FLIGHT else air.strikers
            found = [u.id for u in ready(state, state.active)]
            if phase is Phase.AIRSTRIKE and state.activation is not None:  # an extra attack earned (Strafe)
                acting = activation.acting_unit(state)
                if acting is not None and acting in state.activated and activation.offers(state, acting):
                    found = sorted({*found, acting})
            return found
        active, activated, setup_phase = state.active, state.activated, phase is Phase.SETUP
        found = [
            u.id
            for u in state.units.values()
            if u.side is active
            and u.hex is not None
            and not u.removed
            and u.id not in activated
            and not u.card.is_aircraft
            and (not setup_phase or abilities.moves_before_turn_1(state, u))
        ]
        acting = (  # extra actions left: one unit at most
            activation.acting_unit(state) if state.activation is not None else None
        )
        if acting is not None and acting in activated and activation.offers(state, acting):
            found.append(acting)
        return sorted(found)
    if state.stage is Stage.DEPLOY:
        if state.obstacles and obstacles.placing(state) and state.deploying is not None:  # obstacles first
            return sorted(o.id for o in obstacles.pending(state, state.deploying))
        return sequence.still_to_deploy(state, state.deploying) if state.deploying is not None else []
    if state.stage is Stage.DEFENSIVE_FIRE and state.move is not None:
        return [u.id for u in shooters(state, state.move)]
    if state.stage is Stage.REACTION:
        aircraft = air.reacting_to(state)
        return [u.id for u in air.reactors(state, aircraft)] if aircraft is not None else []
    return []


def legal_actions(state: GameState, only: str | None = None) -> list[A.Action]:
    stage = state.stage
    if stage is Stage.ACT and (state.phase is Phase.FLIGHT or state.phase is Phase.AIRSTRIKE):
        return air_actions(state, only)
    if stage is Stage.REACTION:
        aircraft = air.reacting_to(state)
        assert aircraft is not None and aircraft.hex is not None
        shots: list[A.Action] = [
            A.Fire(u.id, aircraft.hex) for u in air.reactors(state, aircraft) if only in (None, u.id)
        ]
        return [*shots, A.Hold()] if only is None else shots
    if stage is Stage.ACT:
        found: list[A.Action] = []
        ready = set(ready_units(state))
        for unit in sorted(state.on_map(state.active), key=lambda u: u.id):
            if only is not None and unit.id != only:
                continue
            if unit.id in ready:
                found.extend(unit_actions(state, unit))
            elif state.phase is not Phase.SETUP:
                found.extend(abilities.use_actions(state, unit))  # an ability's own action, if any
        if only is None:
            found.append(A.Pass())
        if state.phase is Phase.MOVEMENT:  # units waiting off the map may arrive (special deployment)
            return arrivals.legal_now(state, found, only)
        return found
    if stage is Stage.DEFENSIVE_FIRE:
        assert state.move is not None
        where = window_hex(state.move)
        fire: list[A.Action] = [
            A.Fire(u.id, where) for u in shooters(state, state.move) if only in (None, u.id)
        ]
        return [*fire, A.Hold()] if only is None else fire
    if stage is Stage.DEPLOY:
        return deploy_actions(state, only)
    if stage is Stage.PLACE:
        assert state.placing is not None
        soldier = state.units[state.placing]
        assert soldier.hex is not None
        return [A.Dismount(soldier.id, h) for h in transport.placements(state, soldier, soldier.hex)]
    if stage is Stage.PENALTY:  # the unit of an overstacked hex that takes the hit counter
        return [A.Penalty(u.id) for u in overstack.choices(state) if only in (None, u.id)]
    if stage is Stage.CHOOSE_FIRST:
        return [A.First(Side.AXIS), A.First(Side.ALLIES)]
    if stage is Stage.CHOOSE_END:
        return [A.End("west"), A.End("east")]
    if stage is Stage.CHOOSE_CONFIGURATION:
        return [A.Configuration(n) for n in CONFIGURATIONS]
    if stage is Stage.CHOOSE_OBJECTIVE:
        board = state.battle.board
        assert board is not None
        return [A.Objective(h) for h in board.hexes if setup.objective_problem(state, h) is None]
    return []


def air_actions(state: GameState, only: str | None = None) -> list[A.Action]:
    """The flight phase's placements (every aircraft that may fly, every hex without an aircraft) or the
    airstrike phase's attacks and ability actions, then `pass` (where the rule set allows it)."""
    found: list[A.Action] = []
    for unit_id in ready_units(state):
        if only is not None and unit_id != only:
            continue
        found.extend(unit_actions(state, state.units[unit_id]))
    if only is None and (state.phase is not Phase.FLIGHT or air.pass_problem(state) is None):
        found.append(A.Pass())  # a shared flight phase without a pass (2008): every aircraft is placed
    return found


@mypyc_attr(acyclic=True)  # lists of values: the garbage collector need not track it
class UnitOptions:
    """What one ready unit may do, grouped (a bot or a front end picks from these without listing every
    facing of every destination): destinations with their paths, facings to turn to, transports to
    board, where it may dismount, and targets it may attack. (A plain class with its own `__init__`:
    the bot asks for one at almost every decision, and the fast build makes it natively.)"""

    def __init__(
        self,
        moves: Mapping[Hex, tuple[Hex, ...]],
        vehicle: bool,
        faces: tuple[Facing, ...],
        boards: tuple[str, ...],
        dismount: Hex | None,
        attacks: tuple[str, ...],
        uses: tuple[A.Use, ...] = (),
        landings: tuple[Hex, ...] = (),
        places: tuple[Hex, ...] = (),
    ) -> None:
        self.moves = moves
        self.vehicle = vehicle
        self.faces = faces
        self.boards = boards
        self.dismount = dismount
        self.attacks = attacks
        self.uses = uses
        #: Shore hexes a Soldier aboard a transport afloat may get off into (`rules/water.py`).
        self.landings = landings
        #: Hexes an aircraft may be placed on (the flight phase).
        self.places = places

    def _values(self) -> tuple[object, ...]:
        return (
            self.moves,
            self.vehicle,
            self.faces,
            self.boards,
            self.dismount,
            self.attacks,
            self.uses,
            self.landings,
            self.places,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, UnitOptions):
            return NotImplemented
        return self._values() == other._values()

    def __repr__(self) -> str:
        return f"UnitOptions{self._values()!r}"

    def actions(self, unit_id: str) -> list[A.Action]:
        found: list[A.Action] = []
        if self.dismount is not None:
            found.append(A.Dismount(unit_id, self.dismount))
        for path in self.moves.values():
            if self.vehicle:
                found.extend(A.Move(unit_id, path, facing) for facing in FACINGS)
            else:
                found.append(A.Move(unit_id, path))
        found.extend(A.Face(unit_id, f) for f in self.faces)
        found.extend(A.BoardTransport(unit_id, t) for t in self.boards)
        found.extend(A.Attack(unit_id, t) for t in self.attacks)
        found.extend(self.uses)
        found.extend(A.Dismount(unit_id, h) for h in self.landings)
        found.extend(A.Place(unit_id, h) for h in self.places)
        return found

    @property
    def choices(self) -> int:
        """How many choices, counting a move to a hex once whatever the final facing."""
        return (
            len(self.moves)
            + len(self.faces)
            + len(self.boards)
            + len(self.attacks)
            + (self.dismount is not None)
            + len(self.uses)
            + len(self.landings)
            + len(self.places)
        )


def unit_options(state: GameState, unit: Unit, with_attacks: bool = True) -> UnitOptions:
    """What one ready unit of the active player may do: move, turn, board, dismount, attack, and its
    abilities' own actions. A unit that has acted may only take the extra actions it earned.
    `with_attacks=False` leaves the (costly) list of targets out."""
    moves: Mapping[Hex, tuple[Hex, ...]] = {}
    faces: tuple[Facing, ...] = ()
    boards: list[str] = []
    dismount = None
    landings: tuple[Hex, ...] = ()
    vehicle = unit.card.is_vehicle
    if unit.card.is_aircraft:  # placed in the flight phase, attacking in the airstrike phase
        if state.phase is Phase.FLIGHT and unit.id not in state.activated:
            if not unit.removed and unit.hex is None and not unit.disrupted:
                return UnitOptions({}, False, (), (), None, (), places=tuple(air.open_hexes(state)))
        elif state.phase is Phase.AIRSTRIKE and unit.on_map:
            if unit.id in state.activated:
                kinds = {offer.kind: offer.ability for offer in activation.offers(state, unit.id)}
                if "attack" in kinds and with_attacks:
                    return UnitOptions({}, False, (), (), None, _targets(state, unit, kinds["attack"]))
                return UnitOptions({}, False, (), (), None, (), tuple(abilities.use_actions(state, unit)))
            attacks = _targets(state, unit, "") if with_attacks else ()
            return UnitOptions({}, False, (), (), None, attacks, tuple(abilities.use_actions(state, unit)))
        return UnitOptions({}, False, (), (), None, ())
    if state.phase is Phase.SETUP:  # before turn 1: a move of a unit that may make one (Vanguard)
        if (
            unit.id not in state.activated
            and abilities.moves_before_turn_1(state, unit)
            and cannot_move(state, unit) is None
        ):
            moves = reachable(state, unit)
            faces = OTHER_FACINGS[unit.facing] if vehicle else ()
        return UnitOptions(moves, vehicle, faces, (), None, ())
    if unit.id in state.activated:
        kinds = {offer.kind: offer.ability for offer in activation.offers(state, unit.id)}
        if "move" in kinds and cannot_move(state, unit) is None:
            moves = reachable(state, unit)
            faces = OTHER_FACINGS[unit.facing] if vehicle else ()
        elif "face" in kinds and vehicle and cannot_move(state, unit) is None:  # a turn only
            faces = OTHER_FACINGS[unit.facing]
        attacks = _targets(state, unit, kinds["attack"]) if "attack" in kinds and with_attacks else ()
        return UnitOptions(
            moves, vehicle, faces, (), None, attacks, tuple(abilities.use_actions(state, unit))
        )
    if unit.carried_by is not None:
        if (
            state.phase is Phase.MOVEMENT
            and unit.hex is not None
            and transport.dismount_problem(state, unit, unit.hex) is None
        ):
            dismount = unit.hex
        if state.phase is Phase.MOVEMENT and water.in_water(state, unit.hex):  # ashore from a boat
            landings = tuple(
                h
                for h in water.shore_hexes(state, unit)
                if transport.dismount_problem(state, unit, h) is None
            )
    elif cannot_move(state, unit) is None:
        moves = reachable(state, unit)
        if vehicle:
            faces = OTHER_FACINGS[unit.facing]
        if state.phase is Phase.MOVEMENT and unit.card.is_soldier:
            for other_id in abilities.units_with(state, "capacity"):  # the battle's transports
                other = state.units[other_id]
                if (
                    other.hex == unit.hex
                    and other_id != unit.id
                    and not other.removed
                    and other.carried_by is None
                    and abilities.capacity(state, other)
                    and transport.board_problem(state, unit, other) is None
                ):
                    boards.append(other_id)
            boards.extend(  # a transport afloat next to it, boarded from the shore (`rules/water.py`)
                other.id
                for other in water.transports_afloat_near(state, unit)
                if abilities.capacity(state, other) and transport.board_problem(state, unit, other) is None
            )
    uses = tuple(abilities.use_actions(state, unit))
    attacks = _targets(state, unit, "") if state.phase is Phase.ASSAULT and with_attacks else ()
    return UnitOptions(moves, vehicle, faces, tuple(boards), dismount, attacks, uses, landings)


def can_attack(state: GameState, unit: Unit, target: Unit) -> bool:
    """Whether `attack unit target` would be accepted now by the active player (no dice used)."""
    if state.stage is not Stage.ACT or unit.side is not state.active:
        return False
    if state.phase is not (Phase.AIRSTRIKE if unit.card.is_aircraft else Phase.ASSAULT):
        return False
    mode = ""
    if unit.id in state.activated:
        offers = [o.ability for o in activation.offers(state, unit.id) if o.kind == "attack"]
        if not offers:
            return False
        mode = offers[0]
    # No `may_reach` pre-test here: `attack_allowed` refuses those attacks as quickly itself.
    return target.on_map and attack_allowed(state, unit, target, mode=mode)


def _targets(state: GameState, unit: Unit, mode: str) -> tuple[str, ...]:
    """The units `unit` may attack now (`mode`: the ability whose extra attack it is)."""
    return tuple(
        target.id
        for target in state.units.values()
        if target.side is not unit.side
        and target.on_map
        and (mode or may_reach(state, unit, target))
        and attack_allowed(state, unit, target, mode=mode)
    )


def unit_actions(state: GameState, unit: Unit) -> list[A.Action]:
    """Every action of one ready unit of the active player."""
    return unit_options(state, unit).actions(unit.id)


def deploy_actions(state: GameState, only: str | None = None) -> list[A.Action]:
    if state.obstacles and obstacles.placing(state):  # obstacles are placed first, the players alternating
        return obstacles.deploy_actions(state, only)
    side = state.deploying
    assert side is not None and state.battle.board is not None
    found: list[A.Action] = []
    pending = [
        u
        for u in state.units.values()
        if u.side is side
        and u.hex is None
        and not u.removed
        and not u.card.is_aircraft
        and (only is None or u.id == only)
    ]
    zone = sorted(setup.zone(state, side), key=lambda h: (h.r, h.q))
    for unit in sorted(pending, key=lambda u: u.id):
        for hex_ in arrivals.deploy_hexes(state, unit, zone):
            if setup.deploy_problem(state, unit, hex_) is None:
                if unit.card.is_vehicle:
                    found.extend(A.Deploy(unit.id, hex_, f) for f in FACINGS)
                else:
                    found.append(A.Deploy(unit.id, hex_))
    if only is None:
        for unit in state.units.values():
            if (
                unit.side is side
                and unit.card.is_soldier
                and unit.hex is not None
                and unit.carried_by is None
            ):
                for other in state.at(unit.hex):
                    if (
                        other.id != unit.id
                        and abilities.capacity(state, other)
                        and transport.board_problem(state, unit, other) is None
                    ):
                        found.append(A.BoardTransport(unit.id, other.id))
                for other in water.transports_afloat_near(state, unit):  # from the shore (water)
                    if abilities.capacity(state, other) and not transport.board_problem(state, unit, other):
                        found.append(A.BoardTransport(unit.id, other.id))
        if not sequence.still_to_deploy(state, side):
            found.append(A.Ready())
    return found
