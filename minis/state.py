"""GameState: everything that changes during a battle, and nothing else.

Units are small frozen values replaced on change (`attrs.evolve`), so `GameState.clone()` is a
handful of shallow container copies: the engine clones freely (one clone per applied action, to undo
an illegal one; the bot and tests clone to try actions). What is fixed for the whole game (the board,
the terms, the cards' ability hooks) is the `Battle` the state points at, shared between clones.

`stage` says what the game does next: a decision stage names who decides (`decider`), an automatic
stage (dice, the casualty phase) is run by `minis.rules.sequence.advance` until a decision is reached.
"""

from __future__ import annotations

import enum
import operator
import types
from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Literal, NamedTuple, cast

import attr
import attrs
from mypy_extensions import mypyc_attr

from minis.base import fields
from minis.base.kinds import BattleKind as BattleKind  # here for its many readers
from minis.base.sides import Side
from minis.cards import StatCard
from minis.engine.battle import Battle
from minis.hexgrid import Facing, Hex

if TYPE_CHECKING:
    from minis.board import Board
    from minis.content.rule_sets import RuleSet
    from minis.engine.terms import Terms


class Counter(enum.Enum):
    """Hit counters. Face down they wait in `Unit.pending`; face up they are `disrupted`/`damaged`."""

    DISRUPTED = "disrupted"
    DAMAGED = "damaged"
    DESTROYED = "destroyed"


class Phase(enum.Enum):
    """The phases of the sequence of play (plus set-up and the end of the game)."""

    SETUP = "setup"
    INITIATIVE = "initiative"
    MOVEMENT = "movement"
    FLIGHT = "flight"  # aircraft are placed (skipped by a player with none that may fly)
    AIRSTRIKE = "airstrike"  # placed aircraft attack (skipped by a player with none on the map)
    ASSAULT = "assault"
    CASUALTY = "casualty"
    OVER = "over"


class Stage(enum.Enum):
    """What the game does next. `AUTOMATIC` stages run by themselves; the others wait for a decision."""

    MAP_ROLL = "map-roll"  # automatic: one die picks the configuration
    CHOOSE_CONFIGURATION = "choose-configuration"  # Assault defender
    CHOOSE_OBJECTIVE = "choose-objective"  # Assault defender
    COIN = "coin"  # automatic: one die, 1-3 Axis wins the flip
    CHOOSE_FIRST = "choose-first"  # the coin-flip or initiative winner (`chooser`)
    CHOOSE_END = "choose-end"  # the first player (Standard) or the defender (Assault)
    DEPLOY = "deploy"  # `deploying` places units
    INITIATIVE = "initiative"  # automatic: the initiative roll
    ACT = "act"  # the active player moves, attacks, passes
    WALK = "walk"  # automatic: a move in progress, step by step
    DEFENSIVE_FIRE = "defensive-fire"  # the non-moving player answers a window
    PLACE = "place"  # the opponent places a dismounted Soldier that does not fit
    REACTION = "reaction"  # the non-acting player answers an aircraft's placement (Antiair, Ace)
    PENALTY = "penalty"  # the opponent picks the unit an overstacked hex's hit counter goes on
    CASUALTY = "casualty"  # automatic
    END_TURN = "end-turn"  # automatic: victory check, next turn
    OVER = "over"


#: A tuple, not a set: `in` then compares by identity in C, where a set would call Enum's Python `__hash__`.
AUTOMATIC = (Stage.MAP_ROLL, Stage.COIN, Stage.INITIATIVE, Stage.WALK, Stage.CASUALTY, Stage.END_TURN)


# `attr.s(auto_attribs=True)`, not `attrs.frozen`: the one attrs form mypyc compiles into a native class
# (fields read in C in the fast build). mypyc keeps only attrs' `__init__`, so equality, the hash, the
# repr and pickling are written out here, the same in both builds. Frozen is enforced by mypy and by
# attrs in the pure build; the fast build's native fields would take an assignment, and the engine makes
# one only to a copy it is building (`_changed_unit`).
@mypyc_attr(acyclic=True)  # a value of plain fields: the garbage collector need not track it
@attr.s(auto_attribs=True, frozen=True, slots=True, eq=False, repr=False)
class Unit:
    """One miniature on (or off) the battle map.

    `hex` is None before deployment and after removal. A boarded Soldier keeps its transport's hex
    (updated when the transport moves) and has `carried_by` set; it never counts for stacking.
    `disrupted`/`damaged` are the face-up counters; `pending` the face-down ones, in the order placed.
    `entered` orders units by when they entered their hex (Blast resolves in that order).
    """

    id: str
    card: StatCard
    side: Side
    hex: Hex | None = None
    facing: Facing | None = None
    disrupted: bool = False
    damaged: bool = False
    pending: tuple[Counter, ...] = ()
    carried_by: str | None = None
    removed: bool = False
    entered: int = 0

    @property
    def is_vehicle(self) -> bool:
        return bool(self.card.is_vehicle)

    @property
    def on_map(self) -> bool:
        return self.hex is not None and not self.removed

    @property
    def carried(self) -> bool:
        return self.carried_by is not None

    @property
    def impaired(self) -> bool:
        """Disrupted or damaged: the one -1 on attack dice and defense (they never add)."""
        return self.disrupted or self.damaged

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Unit):
            return NotImplemented
        return self is other or (
            self.id == other.id
            and self.hex == other.hex
            and self.facing is other.facing
            and self.disrupted == other.disrupted
            and self.damaged == other.damaged
            and self.pending == other.pending
            and self.carried_by == other.carried_by
            and self.removed == other.removed
            and self.entered == other.entered
            and self.side is other.side
            and self.card == other.card
        )

    def __hash__(self) -> int:
        # A unit is hashed again and again as a key of positions (the playouts' shared listings): its
        # name and hex say it apart from almost every other unit, and hash in C (equal units agree).
        return hash((self.id, self.hex))

    def __repr__(self) -> str:
        fields_ = zip(_UNIT_FIELDS, _UNIT_VALUES(self), strict=True)
        return f"Unit({', '.join(f'{name}={value!r}' for name, value in fields_)})"

    def __reduce__(self) -> tuple[object, ...]:
        return (Unit, _UNIT_VALUES(self))


_UNIT_FIELDS = tuple(field.name for field in attrs.fields(Unit))
_UNIT_VALUES = operator.attrgetter(*_UNIT_FIELDS)
_UNIT_INDEX = {name: i for i, name in enumerate(_UNIT_FIELDS)}
#: The fields `_changed_unit` (below) sets one by one: a new field of `Unit` must be added there too.
_SET_ONE_BY_ONE = (
    "id",
    "card",
    "side",
    "hex",
    "facing",
    "disrupted",
    "damaged",
    "pending",
    "carried_by",
    "removed",
    "entered",
)
assert _UNIT_FIELDS == _SET_ONE_BY_ONE, _UNIT_FIELDS


#: A `MoveProgress`'s fields in the order its `__init__` takes them (`MoveProgress.values`).
MoveFields = tuple[
    str,
    tuple[Hex, ...],
    "Facing | None",
    "Facing | None",
    int,
    int,
    bool,
    int,
    str,
    tuple[tuple[str, ...], ...],
    tuple[bool, ...],
    str,
]


@mypyc_attr(acyclic=True)  # plain values: the garbage collector need not track it
class MoveProgress:
    """A move being walked hex by hex (docs/engine.md#movement).

    `path[0]` is the hex the unit started in; `step` is the step under way (path[step] -> path[step+1]);
    `at` is where that step is: 0 before its movement rolls, 1 in the window while the unit is still
    in path[step], 2 in the window once it is in path[step+1]. A disrupting hit sets `stopped`: other
    units may still fire at the mover in the current hex, and the move ends when that window closes.

    A plain class with its own `__init__` (the walk makes one per move, and the fast build makes it
    natively); its equality, repr and pickling are written out.
    """

    def __init__(
        self,
        unit: str,
        path: tuple[Hex, ...],
        face: Facing | None,
        start_facing: Facing | None,
        step: int = 0,
        at: int = 0,
        window_closed: bool = False,
        road_steps: int = 0,
        stopped: str = "",
        rolls: tuple[tuple[str, ...], ...] = (),
        roads: tuple[bool, ...] = (),
        mode: str = "",
    ) -> None:
        self.unit = unit
        self.path = path
        self.face = face
        self.start_facing = start_facing
        self.step = step
        self.at = at
        self.window_closed = window_closed
        self.road_steps = road_steps
        #: Why the move ends in the current hex once this window closes (disrupted).
        self.stopped = stopped
        #: The movement rolls of each step (from the checked path).
        self.rolls = rolls
        #: Whether each step is along a road.
        self.roads = roads
        #: The ability whose extra move this is ("" for the unit's own move).
        self.mode = mode

    def values(self) -> MoveFields:
        """Every field, in the order `__init__` takes them."""
        return (
            self.unit,
            self.path,
            self.face,
            self.start_facing,
            self.step,
            self.at,
            self.window_closed,
            self.road_steps,
            self.stopped,
            self.rolls,
            self.roads,
            self.mode,
        )

    def but(self) -> MoveProgress:
        """A copy (a clone's: the walk changes its move in place)."""
        return MoveProgress(*self.values())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MoveProgress):
            return NotImplemented
        return self.values() == other.values()

    def __repr__(self) -> str:
        return f"MoveProgress{self.values()!r}"

    def __reduce__(self) -> tuple[object, ...]:
        return (MoveProgress, self.values())


#: What identifies a step of a move under way: (turn, phase, active side, mover, path, step index).
StepKey = tuple[int, "Phase", "Side | None", str, tuple[Hex, ...], int]
#: The current phase of the current turn: (turn, phase value, active side's value or "").
PhaseKey = tuple[int, str, str]


#: What an extra action earned in an activation is (a Literal: mypy checks every comparison with it).
FollowUpKind = Literal["attack", "move", "face"]


@attrs.frozen(slots=True)
class FollowUp:
    """An extra action a unit earned in its activation: `kind` "attack", "move" or "face" (Command Quick
    Reactions' turn), granted by `ability`."""

    kind: FollowUpKind
    ability: str


@attrs.frozen
class Activation:
    """The unit whose activation may still go on, and the follow-ups it has left (`rules.activation`)."""

    phase: tuple[int, str, str]
    unit: str
    offers: tuple[FollowUp, ...]


@attrs.frozen(slots=True)
class Obstacle:
    """One obstacle card of an army: unplaced (`hex` None), in a hex, or on the hexside `hex`/`across`
    (`minis.rules.obstacles`)."""

    id: str
    card: StatCard
    side: Side
    hex: Hex | None = None
    across: Hex | None = None

    @property
    def placed(self) -> bool:
        return self.hex is not None


class Note(NamedTuple):
    """Items a rule noted for the rest of a turn (`scope` the turn) or a phase (`scope` a `PhaseKey`): stale
    once the scope has passed (`minis.rules.flags`). A tuple, so that noting one on every action is cheap."""

    scope: int | PhaseKey
    items: frozenset[Hashable]


# `attr.s(auto_attribs=True)` for the fast build's native class, as `Unit` (equality written out below).
@mypyc_attr(acyclic=True)  # nothing a state holds refers back to it: the garbage collector need not track it
@attr.s(auto_attribs=True, slots=True, eq=False)
class GameState:
    """The whole mutable state of a battle. Clone before trying anything you may want to undo."""

    #: What is fixed for the whole game (replaced, never changed, when a set-up action fixes the map).
    battle: Battle
    units: dict[str, Unit]
    turn: int = 0
    phase: Phase = Phase.SETUP
    stage: Stage = Stage.MAP_ROLL
    first: Side | None = None
    active: Side | None = None
    chooser: Side | None = None  # who answers CHOOSE_FIRST / CHOOSE_END / the set-up choices
    deploying: Side | None = None
    ends: dict[Side, str] = fields.factory(dict)
    objective: Hex | None = None
    winner: Side | None = None
    activated: set[str] = fields.factory(set)  # units that have moved or attacked this phase
    fired: dict[str, int] = fields.factory(dict)  # defensive-fire attacks made this phase, per unit
    road_bonus: set[str] = fields.factory(set)  # Vehicles that had their road bonus this phase
    move: MoveProgress | None = None
    placing: str | None = None  # the dismounted Soldier the opponent must place
    broken_roads: frozenset[frozenset[Hex]] = frozenset()  # Bridge Demolition
    entry_counter: int = 0
    #: Every unit destroyed so far, as (turn, side, unit id) in the order removed (Fury, Tides of War).
    losses: tuple[tuple[int, Side, str], ...] = ()
    # --- The rules' bookkeeping across actions (docs/engine.md, "Bookkeeping"): immutable values,
    # replaced and never changed in place, so that clones share them. ---
    #: Every obstacle of the armies and the scenario, placed or not (`minis.rules.obstacles`).
    obstacles: tuple[Obstacle, ...] = ()
    #: The obstacles destroyed so far, in order (their names stay known to the log).
    obstacles_gone: tuple[Obstacle, ...] = ()
    #: (ability id, unit id): once-per-game abilities used, abilities ended for good (Entrenched).
    used: frozenset[tuple[str, str]] = frozenset()
    #: Items noted by name for the rest of a turn or phase (units moved or attacked, abilities' per-turn
    #: uses): a mapping that is replaced, never changed in place (`minis.rules.flags`).
    notes: Mapping[str, Note] = attrs.Factory(dict)
    #: The unit whose activation may still go on with follow-ups (`minis.rules.activation`).
    activation: Activation | None = None
    #: The step under way and the units that fired at it (`minis.rules.defensive_fire`).
    step_fired: tuple[StepKey, frozenset[str]] | None = None
    #: The overstacked hexes still to settle, the first the current one (`minis.rules.overstack`).
    overstacked: tuple[Hex, ...] = ()
    #: The sides still to move before turn 1 (Vanguard).
    before_turn_1: tuple[Side, ...] = ()
    #: (turn, side value) of the movement phase a Paratrooper landed in: that phase is at its end.
    landed: tuple[int, str] | None = None
    #: The aircraft whose placement opened the reaction window under way.
    reaction: str | None = None
    #: The sides (values) that declined to place more aircraft this turn with a pass (2010).
    declined: tuple[str, ...] = ()
    #: Aircraft disrupted at once this turn (a reaction shot, Speed Boost).
    grounded: tuple[str, ...] = ()
    #: The units that got off the map by the enemy's edge, in the order they left.
    exited: tuple[str, ...] = ()
    #: (turn, hexes): the hexes filled with smoke that turn (Smoke Screen).
    smoke: tuple[int, frozenset[Hex]] | None = None
    #: (phase, Vehicle, Soldier): the overrun planned for the move under way (Overrun).
    overrun: tuple[PhaseKey, str, str] | None = None
    #: (lost unit, hex, owner, owner's entry): units whose weapons were left behind (Improvised Weapons).
    improvised: tuple[tuple[str, Hex, str, int], ...] = ()
    #: (turn, units): units that keep their Rapid Fire disruption through this turn's casualty phase.
    rapid_fire_held: tuple[int, frozenset[str]] | None = None
    #: (ability id, unit id): units whose disruption the next casualty phase leaves on (Overheat).
    overheated: frozenset[tuple[str, str]] = frozenset()

    def clone(self) -> GameState:
        """A copy whose containers are copies too (units are immutable values, so they are shared).

        Built field by field without `__init__` (one clone per applied action: keyword arguments for
        some 20 fields cost more than the copies themselves); a test checks that every field is copied.
        """
        new = _NEW_STATE(GameState)
        new.battle = self.battle
        new.units = self.units.copy()
        new.turn = self.turn
        new.phase = self.phase
        new.stage = self.stage
        new.first = self.first
        new.active = self.active
        new.chooser = self.chooser
        new.deploying = self.deploying
        new.ends = self.ends.copy()
        new.objective = self.objective
        new.winner = self.winner
        new.activated = self.activated.copy()
        new.fired = self.fired.copy()
        new.road_bonus = self.road_bonus.copy()
        new.move = self.move.but() if self.move is not None else None
        new.placing = self.placing
        new.broken_roads = self.broken_roads
        new.entry_counter = self.entry_counter
        new.losses = self.losses
        new.obstacles = self.obstacles
        new.obstacles_gone = self.obstacles_gone
        new.used = self.used
        new.notes = self.notes
        new.activation = self.activation
        new.step_fired = self.step_fired
        new.overstacked = self.overstacked
        new.before_turn_1 = self.before_turn_1
        new.landed = self.landed
        new.reaction = self.reaction
        new.declined = self.declined
        new.grounded = self.grounded
        new.exited = self.exited
        new.smoke = self.smoke
        new.overrun = self.overrun
        new.improvised = self.improvised
        new.rapid_fire_held = self.rapid_fire_held
        new.overheated = self.overheated
        return new

    def __eq__(self, other: object) -> bool:
        """Every field equal (attrs' equality, written out: the fast build's native class has none)."""
        if not isinstance(other, GameState):
            return NotImplemented
        return self is other or _STATE_VALUES(self) == _STATE_VALUES(other)

    # --- the battle's fixed facts, for readers (the rules' hot paths read `state.battle` directly) ---

    @property
    def board(self) -> Board | None:
        return self.battle.board

    @property
    def terms(self) -> Terms:
        return self.battle.terms

    @property
    def rules(self) -> RuleSet:
        """The rule set's options (every rule that changed between the editions asks them here)."""
        return self.battle.terms.rules

    @property
    def scenario(self) -> BattleKind:
        return self.battle.terms.kind

    @property
    def attacker(self) -> Side | None:
        """The attacking side of an Assault (None in a Standard battle)."""
        return self.battle.terms.attacker

    @property
    def configuration(self) -> int | None:
        return self.battle.configuration

    @property
    def turn_limit(self) -> int | None:
        return self.battle.terms.turn_limit

    @property
    def presets(self) -> frozenset[str]:
        return self.battle.presets

    @property
    def fixed(self) -> frozenset[str]:
        return self.battle.fixed

    # --- queries ---------------------------------------------------------------------------------

    @property
    def second(self) -> Side | None:
        return self.first.other if self.first is not None else None

    @property
    def over(self) -> bool:
        return self.stage is Stage.OVER

    def unit(self, unit_id: str) -> Unit:
        return self.units[unit_id]

    def on_map(self, side: Side | None = None) -> list[Unit]:
        """Units on the battle map (boarded Soldiers included), optionally of one side."""
        return [
            u
            for u in self.units.values()
            if u.hex is not None and not u.removed and (side is None or u.side is side)
        ]

    def at(self, hex_: Hex) -> list[Unit]:
        """Units in a hex that count for stacking (boarded Soldiers and aircraft over it left out)."""
        return [
            u
            for u in self.units.values()
            if u.hex == hex_ and not u.removed and u.carried_by is None and not u.card.is_aircraft
        ]

    def occupancy(self) -> dict[Hex, list[Unit]]:
        """Every occupied hex and its units (boarded Soldiers and aircraft left out), built in one pass."""
        table: dict[Hex, list[Unit]] = {}
        for u in self.units.values():
            if u.hex is not None and not u.removed and u.carried_by is None and not u.card.is_aircraft:
                table.setdefault(u.hex, []).append(u)
        return table

    def passenger(self, transport_id: str) -> Unit | None:
        for u in self.units.values():
            if u.carried_by == transport_id and not u.removed:
                return u
        return None

    def lost(self, turn: int, side: Side | None = None) -> tuple[str, ...]:
        """The units (of `side`, or of both sides) destroyed during `turn` (`losses`)."""
        return tuple(u for t, s, u in self.losses if t == turn and (side is None or s is side))

    def replace(self, unit: Unit) -> None:
        self.units[unit.id] = unit

    def update(self, unit_id: str, **changes: object) -> Unit:
        """Replace a unit by a copy with some fields changed (faster than attrs.evolve)."""
        old = self.units[unit_id]
        for name in changes:
            if name not in _UNIT_INDEX:
                raise TypeError(f"Unit has no field '{name}'")
        if COMPILED:
            unit = _changed_unit(old, changes)
        else:
            values = list(_UNIT_VALUES(old))
            for name, value in changes.items():
                values[_UNIT_INDEX[name]] = value
            unit = Unit(*values)
        self.units[unit_id] = unit
        return unit

    def next_entry(self) -> int:
        self.entry_counter += 1
        return self.entry_counter

    def snapshot(self) -> tuple[object, ...]:
        """A comparable summary of the state (replay tests compare these)."""
        units = tuple(
            (
                u.id,
                u.card.id,
                u.side.value,
                u.hex,
                u.facing.name if u.facing else None,
                u.disrupted,
                u.damaged,
                tuple(c.value for c in u.pending),
                u.carried_by,
                u.removed,
            )
            for u in sorted(self.units.values(), key=lambda u: u.id)
        )
        return (
            units,
            self.turn,
            self.phase,
            self.stage,
            self.first,
            self.active,
            self.chooser,
            self.deploying,
            tuple(sorted((s.value, e) for s, e in self.ends.items())),
            self.objective,
            self.configuration,
            self.winner,
            tuple(sorted(self.activated)),
            tuple(sorted(self.fired.items())),
            tuple(sorted(self.road_bonus)),
            self.move,
            self.placing,
            self.broken_roads,
            self.losses,
            self.bookkeeping(),
        )

    def bookkeeping(self) -> tuple[object, ...]:
        """The rules' bookkeeping as one hashable, comparable value (outcomes that differ in it differ)."""
        return (
            self.obstacles,
            self.obstacles_gone,
            self.used,
            tuple(sorted(self.notes.items())),  # keys are names, so notes are never compared to sort
            self.activation,
            self.step_fired,
            self.overstacked,
            self.before_turn_1,
            self.landed,
            self.reaction,
            self.declined,
            self.grounded,
            self.exited,
            self.smoke,
            self.overrun,
            self.improvised,
            self.rapid_fire_held,
            self.overheated,
        )


def _compiled_probe() -> None:
    """Only its type matters: a compiled module's functions are not Python functions."""


#: Whether this module runs compiled (the fast build), where a unit's fields are native slots.
COMPILED = not isinstance(_compiled_probe, types.FunctionType)


def _blank_unit() -> Unit:
    return Unit.__new__(Unit)


def _changed_unit(old: Unit, changes: dict[str, object]) -> Unit:
    """The fast build's copy of a unit with some fields changed: every field set directly (a native
    class has no frozen guard to go around), not through attrs' `__init__`, which stays interpreted
    there. The pure build makes the same value through `__init__` (`GameState.update`)."""
    new = _blank_unit()
    new.id = cast(str, changes.get("id", old.id))  # type: ignore[misc]
    new.card = cast(StatCard, changes.get("card", old.card))  # type: ignore[misc]
    new.side = cast(Side, changes.get("side", old.side))  # type: ignore[misc]
    new.hex = cast("Hex | None", changes.get("hex", old.hex))  # type: ignore[misc]
    new.facing = cast("Facing | None", changes.get("facing", old.facing))  # type: ignore[misc]
    new.disrupted = cast(bool, changes.get("disrupted", old.disrupted))  # type: ignore[misc]
    new.damaged = cast(bool, changes.get("damaged", old.damaged))  # type: ignore[misc]
    new.pending = cast("tuple[Counter, ...]", changes.get("pending", old.pending))  # type: ignore[misc]
    new.carried_by = cast("str | None", changes.get("carried_by", old.carried_by))  # type: ignore[misc]
    new.removed = cast(bool, changes.get("removed", old.removed))  # type: ignore[misc]
    new.entered = cast(int, changes.get("entered", old.entered))  # type: ignore[misc]
    return new


_STATE_VALUES = operator.attrgetter(*(field.name for field in attrs.fields(GameState)))


def _NEW_STATE(cls: type[GameState]) -> GameState:
    """A state with no fields set yet (`clone` sets them all): `object.__new__` refuses a native class."""
    return cls.__new__(cls)
