"""GameState copies: `clone` is hand-written for speed, so it must keep up with the fields."""

from __future__ import annotations

import attrs

from minis.hexgrid import Facing, Hex
from minis.sides import Side
from minis.state import GameState, MoveProgress, Phase, Stage
from tests.engine_support import board, position, unit

#: What is fixed for the whole game, shared by every clone on purpose.
SHARED = {"battle"}


def test_clone_copies_every_field_and_no_container_is_shared() -> None:
    b = board("""
C C C
 C C C
""")
    state = position(b, [unit(b, "a", "m4a1-sherman", "allies", "A1")]).state
    state.activated.add("x")
    state.fired["x"] = 1
    state.road_bonus.add("x")
    state.flags["k"] = 1
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
