"""The action notation (docs/contracts.md#action-notation, a contract): the words of rules tests, game
records and the log.

An action is a small frozen value. Hexes inside actions are engine `Hex` values; turning labels into
hexes and back needs a board, so `parse` and `format_action` take the board's `parse`/`label`
functions. Parsing checks only the form (and that labels are on the board); whether an action is legal
is the game's question.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeAlias

import attrs
from mypy_extensions import mypyc_attr

from minis.base.sides import Side
from minis.hexgrid import Facing, Hex

ParseHex: TypeAlias = Callable[[str], Hex]
LabelHex: TypeAlias = Callable[[Hex], str]

ENDS = ("west", "east")


class NotationError(ValueError):
    """An action that does not follow the notation; the message says what is wrong."""


# The actions a playout makes by the dozen (move, face, attack, hold, pass) are plain classes with their own
# `__init__` rather than attrs classes: the fast build then makes them natively (attrs' `__init__` stays
# interpreted there). Their fields are `Final` (the type checker keeps them unchanged), and equality, the
# hash, the repr and pickling are written out as attrs would make them.


@mypyc_attr(acyclic=True)
class Move:
    """`move U H1 H2 ... [face D] [overrun T]`: the hexes entered, in order.

    `overrun T` names the enemy Soldier an ability (Overrun) lets the unit run over on the way.
    """

    def __init__(
        self, unit: str, path: tuple[Hex, ...], face: Facing | None = None, overrun: str | None = None
    ) -> None:
        self.unit: Final = unit
        self.path: Final = path
        self.face: Final = face
        self.overrun: Final = overrun

    def __eq__(self, other: object) -> bool:
        if type(other) is not Move:
            return NotImplemented
        return (
            self.unit == other.unit
            and self.path == other.path
            and self.face is other.face
            and self.overrun == other.overrun
        )

    def __hash__(self) -> int:
        return hash((Move, self.unit, self.path, self.face, self.overrun))

    def __repr__(self) -> str:
        return f"Move(unit={self.unit!r}, path={self.path!r}, face={self.face!r}, overrun={self.overrun!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (Move, (self.unit, self.path, self.face, self.overrun))


@mypyc_attr(acyclic=True)
class Face:
    """`face U D`: a Vehicle turns in place (a move of zero hexes)."""

    def __init__(self, unit: str, facing: Facing) -> None:
        self.unit: Final = unit
        self.facing: Final = facing

    def __eq__(self, other: object) -> bool:
        if type(other) is not Face:
            return NotImplemented
        return self.unit == other.unit and self.facing is other.facing

    def __hash__(self) -> int:
        return hash((Face, self.unit, self.facing))

    def __repr__(self) -> str:
        return f"Face(unit={self.unit!r}, facing={self.facing!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (Face, (self.unit, self.facing))


@mypyc_attr(acyclic=True)
class Attack:
    """`attack U T`."""

    def __init__(self, unit: str, target: str) -> None:
        self.unit: Final = unit
        self.target: Final = target

    def __eq__(self, other: object) -> bool:
        if type(other) is not Attack:
            return NotImplemented
        return self.unit == other.unit and self.target == other.target

    def __hash__(self) -> int:
        return hash((Attack, self.unit, self.target))

    def __repr__(self) -> str:
        return f"Attack(unit={self.unit!r}, target={self.target!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (Attack, (self.unit, self.target))


@attrs.frozen
class Fire:
    """`fire U at H`: defensive fire at the moving unit while it is in H."""

    unit: str
    at: Hex


@mypyc_attr(acyclic=True)
class Hold:
    """`hold`: decline the rest of the current defensive-fire window."""

    def __eq__(self, other: object) -> bool:
        return type(other) is Hold or NotImplemented

    def __hash__(self) -> int:
        return hash(Hold)

    def __repr__(self) -> str:
        return "Hold()"

    def __reduce__(self) -> tuple[object, ...]:
        return (Hold, ())


@attrs.frozen
class BoardTransport:
    """`board U T`: Soldier U boards transport T."""

    unit: str
    transport: str


@attrs.frozen
class Dismount:
    """`dismount U H`: Soldier U gets off into hex H."""

    unit: str
    hex: Hex


@mypyc_attr(acyclic=True)
class Pass:
    """`pass`: end your phase."""

    def __eq__(self, other: object) -> bool:
        return type(other) is Pass or NotImplemented

    def __hash__(self) -> int:
        return hash(Pass)

    def __repr__(self) -> str:
        return "Pass()"

    def __reduce__(self) -> tuple[object, ...]:
        return (Pass, ())


@attrs.frozen
class First:
    """`first axis` / `first allies`: who is the first player (coin flip or initiative winner)."""

    side: Side


@attrs.frozen
class Configuration:
    """`configuration N`: a chosen battle map instead of the roll."""

    number: int


@attrs.frozen
class Objective:
    """`objective H`: the Assault defender's objective hex."""

    hex: Hex


@attrs.frozen
class End:
    """`end west` / `end east`: the end of the map the player takes."""

    end: str


@attrs.frozen
class Deploy:
    """`deploy U H [face D]`; an obstacle on a hexside: `deploy U H1/H2` (`across` = H2)."""

    unit: str
    hex: Hex
    face: Facing | None = None
    across: Hex | None = None


@attrs.frozen
class Ready:
    """`ready`: deployment finished."""


@attrs.frozen
class Use:
    """`use U ABILITY [args...]`: an ability's own action (abilities issue); args are raw words."""

    unit: str
    ability: str
    args: tuple[str, ...] = ()


@attrs.frozen
class Arrive:
    """`arrive U H`: a unit waiting off the map (a Hero, a Paratrooper) enters the battle in hex H."""

    unit: str
    hex: Hex


@attrs.frozen
class Place:
    """`place U H`: in the acting player's flight phase, aircraft U flies over hex H
    (docs/contracts.md#action-notation)."""

    unit: str
    hex: Hex


@attrs.frozen
class Penalty:
    """`penalty U`: the opponent's choice of the unit that takes an overstacked hex's hit counter (a rule
    set that checks stacking at the end of the phase; docs/contracts.md#action-notation)."""

    unit: str


Action: TypeAlias = (
    Move
    | Face
    | Attack
    | Fire
    | Hold
    | BoardTransport
    | Dismount
    | Pass
    | First
    | Configuration
    | Objective
    | End
    | Deploy
    | Ready
    | Use
    | Arrive
    | Place
    | Penalty
)


def _hex(word: str, parse_hex: ParseHex) -> Hex:
    try:
        return parse_hex(word)
    except ValueError as error:
        raise NotationError(str(error)) from None


def _facing(word: str) -> Facing:
    try:
        return Facing.parse(word)
    except ValueError as error:
        raise NotationError(str(error)) from None


def _expect(words: list[str], count: int, form: str) -> None:
    if len(words) != count:
        raise NotationError(f"expected '{form}'")


def parse(text: str, parse_hex: ParseHex) -> Action:
    """One action from its text; raises NotationError saying what is wrong."""
    words = text.split()
    if not words:
        raise NotationError("empty action")
    verb, rest = words[0].lower(), words[1:]
    if verb == "move":
        face: Facing | None = None
        overrun: str | None = None
        for _ in range(2):
            if len(rest) >= 2 and rest[-2].lower() == "overrun" and overrun is None:
                overrun, rest = rest[-1], rest[:-2]
            elif len(rest) >= 2 and rest[-2].lower() == "face" and face is None:
                face, rest = _facing(rest[-1]), rest[:-2]
        if len(rest) < 2:
            raise NotationError("expected 'move U H1 H2 ... [face D] [overrun T]' with at least one hex")
        return Move(rest[0], tuple(_hex(w, parse_hex) for w in rest[1:]), face, overrun)
    if verb == "face":
        _expect(rest, 2, "face U D")
        return Face(rest[0], _facing(rest[1]))
    if verb == "attack":
        _expect(rest, 2, "attack U T")
        return Attack(rest[0], rest[1])
    if verb == "fire":
        if len(rest) != 3 or rest[1].lower() != "at":
            raise NotationError("expected 'fire U at H'")
        return Fire(rest[0], _hex(rest[2], parse_hex))
    if verb in ("hold", "pass", "ready"):
        _expect(rest, 0, verb)
        return Hold() if verb == "hold" else Pass() if verb == "pass" else Ready()
    if verb == "board":
        _expect(rest, 2, "board U T")
        return BoardTransport(rest[0], rest[1])
    if verb == "dismount":
        _expect(rest, 2, "dismount U H")
        return Dismount(rest[0], _hex(rest[1], parse_hex))
    if verb == "first":
        _expect(rest, 1, "first axis|allies")
        try:
            return First(Side.parse(rest[0]))
        except ValueError as error:
            raise NotationError(str(error)) from None
    if verb == "configuration":
        _expect(rest, 1, "configuration N")
        if not rest[0].isdigit():
            raise NotationError(f"'{rest[0]}' is not a configuration number")
        return Configuration(int(rest[0]))
    if verb == "objective":
        _expect(rest, 1, "objective H")
        return Objective(_hex(rest[0], parse_hex))
    if verb == "end":
        _expect(rest, 1, "end west|east")
        if rest[0].lower() not in ENDS:
            raise NotationError(f"unknown end '{rest[0]}' (west or east)")
        return End(rest[0].lower())
    if verb == "deploy":
        face = None
        if len(rest) == 4 and rest[2].lower() == "face":
            face = _facing(rest[3])
            rest = rest[:2]
        _expect(rest, 2, "deploy U H [face D]")
        if "/" in rest[1]:  # an obstacle on the hexside between two hexes
            first, _, second = rest[1].partition("/")
            return Deploy(rest[0], _hex(first, parse_hex), face, _hex(second, parse_hex))
        return Deploy(rest[0], _hex(rest[1], parse_hex), face)
    if verb == "use":
        if len(rest) < 2:
            raise NotationError("expected 'use U ABILITY [...]'")
        return Use(rest[0], rest[1].lower(), tuple(rest[2:]))
    if verb == "arrive":
        _expect(rest, 2, "arrive U H")
        return Arrive(rest[0], _hex(rest[1], parse_hex))
    if verb == "place":
        _expect(rest, 2, "place U H")
        return Place(rest[0], _hex(rest[1], parse_hex))
    if verb == "penalty":
        _expect(rest, 1, "penalty U")
        return Penalty(rest[0])
    known = (
        "move face attack fire hold board dismount pass first configuration objective end deploy ready use"
        " arrive place penalty"
    )
    raise NotationError(f"unknown action '{words[0]}' (one of: {known})")


def format_action(action: Action, label: LabelHex) -> str:
    """The notation of an action; `parse(format_action(a)) == a` for every action."""
    match action:
        case Move(unit=unit, path=path, face=face, overrun=overrun):
            text = "move " + unit + " " + " ".join(label(h) for h in path)
            text += f" face {face.name}" if face is not None else ""
            return text + (f" overrun {overrun}" if overrun is not None else "")
        case Face(unit=unit, facing=facing):
            return f"face {unit} {facing.name}"
        case Attack(unit=unit, target=target):
            return f"attack {unit} {target}"
        case Fire(unit, at):
            return f"fire {unit} at {label(at)}"
        case Hold():
            return "hold"
        case BoardTransport(unit, transport):
            return f"board {unit} {transport}"
        case Dismount(unit, hex_):
            return f"dismount {unit} {label(hex_)}"
        case Pass():
            return "pass"
        case First(side):
            return f"first {side.value}"
        case Configuration(number):
            return f"configuration {number}"
        case Objective(hex_):
            return f"objective {label(hex_)}"
        case End(end):
            return f"end {end}"
        case Deploy(unit, hex_, face, across) if across is not None:
            return f"deploy {unit} {label(hex_)}/{label(across)}"
        case Deploy(unit, hex_, face):
            return f"deploy {unit} {label(hex_)}" + (f" face {face.name}" if face is not None else "")
        case Ready():
            return "ready"
        case Use(unit, ability, args):
            return " ".join(("use", unit, ability, *args))
        case Arrive(unit, hex_):
            return f"arrive {unit} {label(hex_)}"
        case Place(unit, hex_):
            return f"place {unit} {label(hex_)}"
        case Penalty(unit):
            return f"penalty {unit}"
    raise TypeError(f"not an action: {action!r}")


def acting_unit(action: Action) -> str | None:
    """The unit an action is about (None for pass, hold, first, set-up words)."""
    return getattr(action, "unit", None)
