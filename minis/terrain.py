"""Terrain kinds, hexside features and the rulebook's Terrain Effects table, kept as data.

The rules modules ask this table instead of testing terrain kinds themselves, so a rule such as
"Vehicles can't enter marshes" lives in exactly one place. Hex terrain is one letter per hex in the
map files (C F H T M P; W, water, is an extension of the Base Set). Streams and roads are not hex
terrain: they belong to the hexside between two adjacent hexes (a road link runs from one hex centre to
the next across that hexside), so they are stored as pairs of hexes. A road link across a stream is a
bridge.
"""

from __future__ import annotations

import enum
from collections.abc import Collection

import attrs

from minis.hexgrid import Hex, distance

#: A movement roll (crossing a stream, a Vehicle entering a forest) succeeds on this or higher.
MOVEMENT_ROLL_TARGET = 4

#: The road bonus: the first hex a Vehicle moves along a road in a phase costs nothing.
ROAD_BONUS_HEXES = 1

#: Hexes a Vehicle spends entering double-cost terrain (hills and forests).
DOUBLE_COST = 2


class Terrain(enum.Enum):
    """The kinds of hex terrain; the value is the letter used in map files. The Base Set has six; WATER
    (a river or the sea: deep water only boats and amphibious Vehicles cross) is an extension."""

    CLEAR = "C"
    FOREST = "F"
    HILL = "H"
    TOWN = "T"
    MARSH = "M"
    POND = "P"
    WATER = "W"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def code(self) -> int:
        """A small integer for numpy arrays: the position in TERRAINS (CLEAR is 0)."""
        return _CODES[self]

    @property
    def effects(self) -> TerrainEffects:
        return TERRAIN_EFFECTS[self]

    @property
    def blocks_sight(self) -> bool:
        return TERRAIN_EFFECTS[self].blocks_sight

    @classmethod
    def from_letter(cls, letter: str) -> Terrain:
        """`F` to FOREST; raises ValueError naming the letters for anything else."""
        try:
            return cls(letter)
        except ValueError:
            raise ValueError(f"unknown terrain letter '{letter}' ({LETTERS_HELP})") from None

    @classmethod
    def from_code(cls, code: int) -> Terrain:
        return TERRAINS[code]


#: The terrains in code order (index = Terrain.code).
TERRAINS: tuple[Terrain, ...] = tuple(Terrain)
_CODES = {terrain: index for index, terrain in enumerate(TERRAINS)}

#: How the letters are explained in error hints and legends.
LETTERS_HELP = "C clear, F forest, H hill, T town, M marsh, P pond, W water"


@attrs.frozen
class TerrainEffects:
    """One row of the Terrain Effects table (rulebook, Terrain).

    `*_cover` is the cover roll a unit of that type needs in this terrain (4 means 4 or higher), or None
    when the terrain gives that type no cover.
    """

    terrain: Terrain
    blocks_sight: bool
    vehicle_can_enter: bool
    vehicle_double_cost: bool
    vehicle_roll_to_enter: bool
    soldier_can_enter: bool
    soldier_cover: int | None
    vehicle_cover: int | None

    def can_enter(self, vehicle: bool) -> bool:
        """Whether a Vehicle (or, with vehicle=False, a Soldier) may enter, ignoring roads."""
        return self.vehicle_can_enter if vehicle else self.soldier_can_enter

    def cover(self, vehicle: bool) -> int | None:
        """The cover roll target for a Vehicle or a Soldier here, or None for no cover."""
        return self.vehicle_cover if vehicle else self.soldier_cover

    def entry_cost(self, vehicle: bool) -> int:
        """Hexes of movement spent entering this hex off road (Soldiers always spend one)."""
        return DOUBLE_COST if vehicle and self.vehicle_double_cost else 1


def _row(
    terrain: Terrain,
    *,
    sight: bool,
    vehicle: bool = True,
    double: bool = False,
    roll: bool = False,
    soldier: bool = True,
    soldier_cover: int | None = None,
    vehicle_cover: int | None = None,
) -> TerrainEffects:
    return TerrainEffects(terrain, sight, vehicle, double, roll, soldier, soldier_cover, vehicle_cover)


#: The Terrain Effects table. Marsh gives Soldiers cover but Vehicles cannot be there at all.
TERRAIN_EFFECTS: dict[Terrain, TerrainEffects] = {
    Terrain.CLEAR: _row(Terrain.CLEAR, sight=False),
    Terrain.HILL: _row(Terrain.HILL, sight=True, double=True, soldier_cover=4, vehicle_cover=5),
    Terrain.FOREST: _row(
        Terrain.FOREST, sight=True, double=True, roll=True, soldier_cover=4, vehicle_cover=5
    ),
    Terrain.TOWN: _row(Terrain.TOWN, sight=True, soldier_cover=4, vehicle_cover=5),
    Terrain.MARSH: _row(Terrain.MARSH, sight=False, vehicle=False, soldier_cover=4),
    Terrain.POND: _row(Terrain.POND, sight=False, vehicle=False, soldier=False),
    # Water (an extension): closed to Soldiers and Vehicles; an ability opens it (Amphibious, Water
    # Craft), and then it costs what a double-cost hex does unless the ability says otherwise. Like a
    # pond it neither blocks sight nor gives cover.
    Terrain.WATER: _row(Terrain.WATER, sight=False, vehicle=False, double=True, soldier=False),
}


# --- hexside features ---------------------------------------------------------------------------------

#: A hexside, named by the two adjacent hexes it separates (order does not matter).
Hexside = frozenset[Hex]


class Feature(enum.Enum):
    """What a hexside can carry. A bridge is not stored: it is a road link across a stream."""

    STREAM = "stream"
    ROAD = "road"


@attrs.frozen
class StreamEffects:
    """The Stream row of the table: any unit needs a movement roll to cross, unless moving along a road."""

    roll_to_cross: bool = True
    blocks_sight: bool = False
    gives_cover: bool = False


@attrs.frozen
class RoadEffects:
    """The Road row: along a road every hex costs one and needs no movement roll (streams and forests
    included), impassable hexes may be entered and left along it, and Vehicles get the road bonus once
    per phase. Cover and sight are those of the hex's own terrain."""

    cost_per_hex: int = 1
    skips_movement_rolls: bool = True
    enters_impassable: bool = True
    vehicle_bonus_hexes: int = ROAD_BONUS_HEXES


STREAM_EFFECTS = StreamEffects()
ROAD_EFFECTS = RoadEffects()


def hexside(a: Hex, b: Hex) -> Hexside:
    """The hexside between two adjacent hexes; raises ValueError if they are not adjacent."""
    if distance(a, b) != 1:
        raise ValueError(f"{a} and {b} are not adjacent, so no hexside lies between them")
    return frozenset((a, b))


def is_bridge(streams: Collection[Hexside], roads: Collection[Hexside], a: Hex, b: Hex) -> bool:
    """A bridge is a road link that crosses a stream: both features on the same hexside."""
    side = frozenset((a, b))
    return side in streams and side in roads
