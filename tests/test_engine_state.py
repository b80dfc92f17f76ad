"""GameState copies: `clone` is hand-written for speed, so it must keep up with the fields."""

from __future__ import annotations

import attrs

from minis.base.sides import Side
from minis.hexgrid import Facing, Hex
from minis.state import GameState, MoveProgress, Note, Phase, Stage
from tests.engine_support import board, position, unit

#: What is fixed for the whole game, shared by every clone on purpose.
#: Shared by clones: the fixed battle, and the notes mapping (replaced, never changed in place).
SHARED = {"battle", "notes"}


def test_clone_copies_every_field_and_no_container_is_shared() -> None:
    b = board("""
C C C
 C C C
""")
    state = position(b, [unit(b, "a", "m4a1-sherman", "allies", "A1")]).state
    state.activated.add("x")
    state.fired["x"] = 1
    state.road_bonus.add("x")
    state.used = frozenset({("k", "x")})
    state.notes = {"k": Note(3, frozenset({"x"}))}
    state.ends[Side.AXIS] = "west"
    state.move = MoveProgress("x", (Hex(0, 0), Hex(1, 0)), Facing.E, None)
    state.turn, state.phase, state.stage = 3, Phase.ASSAULT, Stage.ACT
    copy = state.clone()
    for field in attrs.fields(GameState):
        mine, theirs = getattr(state, field.name), getattr(copy, field.name)
        assert mine == theirs, field.name
        if isinstance(mine, dict | set | list | MoveProgress) and field.name not in SHARED:
            assert mine is not theirs, f"{field.name} is shared between a state and its clone"
    copy.activated.add("y")
    copy.move.step = 1  # type: ignore[union-attr]
    assert "y" not in state.activated and state.move.step == 0


#: The fields a state had before its bookkeeping became typed: the rest is the rules' bookkeeping.
CORE = {
    "battle",
    "units",
    "turn",
    "phase",
    "stage",
    "first",
    "active",
    "chooser",
    "deploying",
    "ends",
    "objective",
    "winner",
    "activated",
    "fired",
    "road_bonus",
    "move",
    "placing",
    "broken_roads",
    "entry_counter",
    "losses",
}


def test_bookkeeping_is_typed_fields_not_an_untyped_dict() -> None:
    """Issue 36: no `flags` dict of anything; each piece of bookkeeping a field with a type of its own,
    immutable (clones share it), and part of the state's comparable summary."""
    names = {field.name for field in attrs.fields(GameState)}
    assert "flags" not in names and not hasattr(GameState, "flags")
    bookkeeping = [field for field in attrs.fields(GameState) if field.name not in CORE]
    assert {f.name for f in bookkeeping} >= {"obstacles", "obstacles_gone", "used", "notes", "activation"}
    for field in bookkeeping:
        annotation = str(field.type)
        assert annotation not in ("object", "Any", "typing.Any") and "dict[str, object]" not in annotation
        assert "object" not in annotation and "Any" not in annotation, f"{field.name}: {annotation}"
    assert len(GameState(battle=None, units={}).bookkeeping()) == len(bookkeeping)  # type: ignore[arg-type]
