"""The Terrain Effects table as data, and hexside helpers."""

from __future__ import annotations

import pytest

from minis.hexgrid import Hex
from minis.terrain import (
    MOVEMENT_ROLL_TARGET,
    ROAD_EFFECTS,
    STREAM_EFFECTS,
    TERRAIN_EFFECTS,
    TERRAINS,
    Terrain,
    hexside,
    is_bridge,
)


def test_letters_and_codes() -> None:
    assert [t.letter for t in TERRAINS] == ["C", "F", "H", "T", "M", "P", "W"]  # W: water, an extension
    assert [t.code for t in TERRAINS] == list(range(7))
    assert all(Terrain.from_code(t.code) is t and Terrain.from_letter(t.letter) is t for t in TERRAINS)
    with pytest.raises(ValueError, match="C clear, F forest"):
        Terrain.from_letter("X")
    with pytest.raises(ValueError):
        Terrain.from_letter("f")


@pytest.mark.parametrize(
    ("terrain", "sight", "vehicle", "double", "roll", "soldier", "soldier_cover", "vehicle_cover"),
    [
        (Terrain.CLEAR, False, True, False, False, True, None, None),
        (Terrain.HILL, True, True, True, False, True, 4, 5),
        (Terrain.FOREST, True, True, True, True, True, 4, 5),
        (Terrain.TOWN, True, True, False, False, True, 4, 5),
        (Terrain.MARSH, False, False, False, False, True, 4, None),
        (Terrain.POND, False, False, False, False, False, None, None),
        (Terrain.WATER, False, False, True, False, False, None, None),  # opened by abilities only
    ],
)
def test_the_terrain_effects_table(
    terrain: Terrain,
    sight: bool,
    vehicle: bool,
    double: bool,
    roll: bool,
    soldier: bool,
    soldier_cover: int | None,
    vehicle_cover: int | None,
) -> None:
    row = TERRAIN_EFFECTS[terrain]
    assert row.terrain is terrain and terrain.effects is row
    assert (row.blocks_sight, terrain.blocks_sight) == (sight, sight)
    assert row.vehicle_can_enter is vehicle and row.can_enter(vehicle=True) is vehicle
    assert row.vehicle_double_cost is double
    assert row.vehicle_roll_to_enter is roll
    assert row.soldier_can_enter is soldier and row.can_enter(vehicle=False) is soldier
    assert (row.cover(vehicle=False), row.cover(vehicle=True)) == (soldier_cover, vehicle_cover)
    assert row.entry_cost(vehicle=True) == (2 if double else 1)
    assert row.entry_cost(vehicle=False) == 1


def test_streams_and_roads() -> None:
    assert MOVEMENT_ROLL_TARGET == 4
    assert STREAM_EFFECTS.roll_to_cross and not STREAM_EFFECTS.blocks_sight and not STREAM_EFFECTS.gives_cover
    assert ROAD_EFFECTS.skips_movement_rolls and ROAD_EFFECTS.enters_impassable
    assert (ROAD_EFFECTS.cost_per_hex, ROAD_EFFECTS.vehicle_bonus_hexes) == (1, 1)


def test_hexsides_and_bridges() -> None:
    a, b, c = Hex(0, 0), Hex(1, 0), Hex(2, 0)
    assert hexside(a, b) == hexside(b, a) == frozenset((a, b))
    with pytest.raises(ValueError, match="not adjacent"):
        hexside(a, c)
    streams, roads = {hexside(a, b)}, {hexside(a, b), hexside(b, c)}
    assert is_bridge(streams, roads, b, a)
    assert not is_bridge(streams, roads, b, c)
    assert not is_bridge(set(), roads, a, b)
