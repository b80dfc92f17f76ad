"""Abilities that change speed and movement: when a unit may move, how far, where, and with what rolls.

Movement rolls are named by what they are for ("stream", "forest", and "hill" for Weak Suspension) and
made in the order the step lists them (stream first, DESIGN section 1).
"""

from __future__ import annotations

from minis.ability_api import Ability, ability
from minis.ability_rules._common import friendly_commander_near
from minis.hexgrid import Hex
from minis.state import GameState, Phase, Unit
from minis.terrain import Terrain

STREAM = "stream"
HILL = "hill"
#: Vanguard: the speed of its move before turn 1.
VANGUARD_SPEED = 4


def _road(state: GameState, a: Hex, b: Hex) -> bool:
    assert state.board is not None
    return bool(state.board.has_road(a, b)) and frozenset((a, b)) not in state.broken_roads


@ability("command-dependent")
class CommandDependent(Ability):
    """Command Dependent: in the movement phase it may move (or board, or dismount) only if it starts
    next to or in the hex of a friendly Commander (any Commander: this is not a commander ability)."""

    def may_move(self, state: GameState, unit: Unit, owner: Unit) -> bool | None:
        if state.phase is Phase.MOVEMENT and not friendly_commander_near(state, owner):
            return False
        return None


@ability("prone-to-breakdown")
class ProneToBreakdown(Ability):
    """Prone to Breakdown: it can't move (or turn) while damaged."""

    def may_move(self, state: GameState, unit: Unit, owner: Unit) -> bool | None:
        return False if owner.damaged else None


@ability("high-gear")
class HighGear(Ability):
    """High Gear X: +X speed for a move made entirely along a road."""

    def road_speed_bonus(self, state: GameState, owner: Unit) -> int:
        return self.number or 0


@ability("relocate")
class Relocate(Ability):
    """Relocate X: in its own assault phase its speed is X; moving is then its activation, so it
    doesn't attack, and attacking means it doesn't move (Base Set FAQ: attack or move, not both)."""

    def base_speed(self, state: GameState, owner: Unit) -> int | None:
        return self.number if state.phase is Phase.ASSAULT else None


@ability("trench-crossing")
class TrenchCrossing(Ability):
    """Trench Crossing: it crosses streams without a movement roll."""

    def movement_rolls(
        self, state: GameState, owner: Unit, a: Hex, b: Hex, rolls: tuple[str, ...]
    ) -> tuple[str, ...]:
        return tuple(roll for roll in rolls if roll != STREAM)


@ability("weak-suspension")
class WeakSuspension(Ability):
    """Weak Suspension: entering a hill hex other than along a road needs a movement roll (4+), made
    after a stream roll of the same step."""

    def movement_rolls(
        self, state: GameState, owner: Unit, a: Hex, b: Hex, rolls: tuple[str, ...]
    ) -> tuple[str, ...]:
        assert state.board is not None
        if state.board.terrain(b) is Terrain.HILL and not _road(state, a, b):
            return (*rolls, HILL)
        return rolls


@ability("poor-suspension")
class PoorSuspension(Ability):
    """Poor Suspension: it enters a hill hex only along a road."""

    def may_enter(self, state: GameState, owner: Unit, hex_: Hex, along_road: bool) -> bool | None:
        assert state.board is not None
        return False if state.board.terrain(hex_) is Terrain.HILL and not along_road else None


@ability("large")
class Large(Ability):
    """Large: it counts as a Vehicle for stacking."""

    def stacks_as_vehicle(self, owner: Unit) -> bool:
        return True


@ability("vanguard")
class Vanguard(Ability):
    """Vanguard: after both armies have deployed and before turn 1, it may make one move at speed 4."""

    def moves_before_turn_1(self, owner: Unit) -> bool:
        return True

    def base_speed(self, state: GameState, owner: Unit) -> int | None:
        return VANGUARD_SPEED if state.phase is Phase.SETUP else None
