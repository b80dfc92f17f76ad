"""Abilities that change speed and movement: when a unit may move, how far, where, and with what rolls.

Movement rolls are named by what they are for ("stream", "forest", and "hill" for Weak Suspension) and
made in the order the step lists them (stream first, docs/contracts.md#dice-order).
"""

from __future__ import annotations

from minis import abilities
from minis.ability_rules._common import attacking, friendly_commander_near
from minis.engine.ability_api import Ability, AttackContext, FollowUp, ability, near
from minis.hexgrid import Hex, distance
from minis.rules import mapinfo
from minis.state import GameState, Phase, Unit
from minis.terrain import Terrain

STREAM = "stream"
HILL = "hill"
FOREST = "forest"
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

    steps_from_the_map = True

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


def _disrupted(state: GameState, unit: Unit) -> bool:
    """Disrupted for the rules (a face-up Disrupted counter that no ability ignores)."""
    return unit.disrupted and abilities.disrupted(state, unit)


class MovesWhileDisrupted(Ability):
    """Disruption doesn't stop the owner moving or turning (it still boards and dismounts only when not
    disrupted, and keeps every other effect of disruption). Shared by the abilities that say so."""

    def moves_while_disrupted(self, state: GameState, owner: Unit) -> bool:
        return True


@ability("ss-determination")
class SSDetermination(MovesWhileDisrupted):
    """SS Determination: it may move while disrupted."""


@ability("veteran-crew")
class VeteranCrew(MovesWhileDisrupted):
    """Veteran Crew: while disrupted it may move, and its attacks don't take the -1 per die for
    disruption (damage still costs it); it still loses 1 defense and can't fire defensively."""

    def ignores_attack_penalty(self, ctx: AttackContext, owner: Unit) -> bool:
        return attacking(ctx, owner) and owner.disrupted and not owner.damaged


@ability("robust")
class Robust(MovesWhileDisrupted):
    """Robust: +1 on its movement rolls; while disrupted it may still move, at speed 1 (a damaged
    Vehicle too: the speed is 1 either way)."""

    def movement_roll_modifier(self, state: GameState, owner: Unit, roll: str) -> int:
        return 1

    def base_speed(self, state: GameState, owner: Unit) -> int | None:
        if _disrupted(state, owner):
            return 2 if owner.damaged and owner.card.is_vehicle else 1  # the engine takes 1 off for damage
        return None


@ability("mountaineering")
class Mountaineering(Ability):
    """Mountaineering: +1 on its movement rolls."""

    def movement_roll_modifier(self, state: GameState, owner: Unit, roll: str) -> int:
        return 1


@ability("excellent-suspension")
class ExcellentSuspension(Ability):
    """Excellent Suspension: a hill hex costs it 1 to enter, as a clear hex does (Vehicles pay 2)."""

    steps_from_the_map = True

    def step_cost(self, state: GameState, owner: Unit, a: Hex, b: Hex, cost: int) -> int:
        assert state.board is not None
        return 1 if cost > 1 and state.board.terrain(b) is Terrain.HILL else cost


@ability("thin-wheels")
class ThinWheels(Ability):
    """Thin Wheels: it crosses a stream or enters a marsh only along a road."""

    steps_from_the_map = True

    def may_enter(self, state: GameState, owner: Unit, hex_: Hex, along_road: bool) -> bool | None:
        assert state.board is not None
        return False if state.board.terrain(hex_) is Terrain.MARSH and not along_road else None

    def may_step(self, state: GameState, owner: Unit, a: Hex, b: Hex, along_road: bool) -> bool | None:
        assert state.board is not None
        if not along_road and frozenset((a, b)) in mapinfo.info(state.board).streams:
            return False
        return None


@ability("brushcutters")
class Brushcutters(Ability):
    """Brushcutters: it enters forest without the movement roll (the forest still costs 2)."""

    def movement_rolls(
        self, state: GameState, owner: Unit, a: Hex, b: Hex, rolls: tuple[str, ...]
    ) -> tuple[str, ...]:
        return tuple(roll for roll in rolls if roll != FOREST)


@ability("heavy-rifle")
class HeavyRifle(Ability):
    """Heavy Rifle: speed 0 on its own; when it starts its move in the hex of (or next to) a friendly
    Soldier whose printed speed is 1, its speed is 1 (the rifle is carried by that team)."""

    def base_speed(self, state: GameState, owner: Unit) -> int | None:
        for other in state.on_map(owner.side):
            if (
                other.id != owner.id
                and other.carried_by is None
                and other.card.is_soldier
                and int(other.card.speed) == 1
                and near(other, owner)
            ):
                return 1
        return None


@ability("extra-fuel")
class ExtraFuel(Ability):
    """Extra Fuel: every friendly Vehicle whose printed speed is 3 or more gets +1 speed, wherever it is
    (army-wide); two Extra Fuel abilities give +1 all the same (same-name abilities don't add up)."""

    aura = True

    def speed_modifier(self, state: GameState, unit: Unit, owner: Unit) -> int:
        if unit.side is owner.side and unit.card.is_vehicle and int(unit.card.speed) >= 3:
            return 1
        return 0


@ability("aggression")
class Aggression(Ability):
    """Aggression N: in its assault phase, a move (or turn) of at most N hexes is followed by an attack
    in the same activation (normally a unit either moves or attacks in that phase)."""

    def follow_ups(
        self, state: GameState, unit: Unit, owner: Unit, done: str, path: tuple[Hex, ...]
    ) -> tuple[FollowUp, ...]:
        if (
            unit.id == owner.id
            and done == "move"
            and state.phase is Phase.ASSAULT
            and len(path) - 1 <= (self.number or 0)
        ):
            return (FollowUp("attack", self.id),)
        return ()


class _ChargesWhileDisrupted(MovesWhileDisrupted):
    """May move while disrupted, but then every hex it enters must be nearer to the closest enemy it
    charges than the hex before (checked step by step, so the legal moves are exactly those)."""

    def _charges(self, unit: Unit) -> bool:
        return True

    def may_step(self, state: GameState, owner: Unit, a: Hex, b: Hex, along_road: bool) -> bool | None:
        if not _disrupted(state, owner):
            return None
        enemies = [
            u.hex
            for u in state.on_map(owner.side.other)
            if u.hex is not None and u.carried_by is None and self._charges(u)
        ]
        if not enemies:
            return False
        nearer = min(distance(b, h) for h in enemies) < min(distance(a, h) for h in enemies)
        return None if nearer else False


@ability("charge")
class Charge(_ChargesWhileDisrupted):
    """Charge: it may move while disrupted, each hex it enters nearer to the closest enemy Soldier."""

    steps_only_when_disrupted = True

    def _charges(self, unit: Unit) -> bool:
        return unit.card.is_soldier


@ability("courage")
class Courage(_ChargesWhileDisrupted):
    """Courage: it may move while disrupted, each hex it enters nearer to the closest enemy unit."""

    steps_only_when_disrupted = True


@ability("determined-charge")
class DeterminedCharge(Ability):
    """Determined Charge: defensive fire that disrupts it during a move doesn't stop it; it goes on to
    the end of the move it declared (disrupted)."""

    def keeps_moving_when_disrupted(self, state: GameState, owner: Unit) -> bool:
        return True
