"""Abilities of the water hexes (an extension of the Base Set terrain, `Terrain.WATER`).

Water is closed to Soldiers and Vehicles by the Terrain Effects table; these abilities open it through
`enters_terrain`. Their answers depend on the map alone (`steps_from_the_map`), so the movement search
folds them into its per-map steps. A pond is not water: Amphibious doesn't open ponds. Collapsible
Screen (no attacks from a water hex) is a row of `modifiers`.
"""

from __future__ import annotations

from minis.ability_rules.movement import STREAM
from minis.engine.ability_api import Ability, ability
from minis.hexgrid import Hex
from minis.state import GameState, Unit
from minis.terrain import Terrain


def _water(state: GameState, hex_: Hex | None) -> bool:
    board = state.battle.board
    return hex_ is not None and board is not None and board.terrain(hex_) is Terrain.WATER


@ability("amphibious")
class Amphibious(Ability):
    """Amphibious: it crosses streams without a movement roll (on any map), and it may enter and leave
    water hexes, each costing it 2 hexes of movement as a double-cost hex does."""

    steps_from_the_map = True

    def enters_terrain(self, state: GameState, owner: Unit, hex_: Hex) -> bool | None:
        return True if _water(state, hex_) else None

    def movement_rolls(
        self, state: GameState, owner: Unit, a: Hex, b: Hex, rolls: tuple[str, ...]
    ) -> tuple[str, ...]:
        return tuple(roll for roll in rolls if roll != STREAM)


@ability("water-craft")
class WaterCraft(Ability):
    """Water Craft: it may be only in water hexes (it moves, deploys and is preset only there, roads
    included), and a water hex costs it 1, as a clear hex does."""

    steps_from_the_map = True

    def enters_terrain(self, state: GameState, owner: Unit, hex_: Hex) -> bool | None:
        return _water(state, hex_)

    def may_enter(self, state: GameState, owner: Unit, hex_: Hex, along_road: bool) -> bool | None:
        return None if _water(state, hex_) else False

    def step_cost(self, state: GameState, owner: Unit, a: Hex, b: Hex, cost: int) -> int:
        return min(cost, 1) if _water(state, b) else cost
