"""The board as the rules read it, precomputed once per board for speed.

Movement asks the same questions thousands of times a game (which neighbours are playable, what a hex
costs, is there a road or a stream on this hexside), so they are answered from dictionaries built once
per `Board` object. The terrain facts themselves come from `minis.terrain`'s Terrain Effects table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minis.hexgrid import Hex, neighbours
from minis.terrain import TerrainEffects

if TYPE_CHECKING:
    from minis.board import Board


class MapInfo:
    """Lookups derived from one board: playable neighbours, terrain effects, roads, streams."""

    __slots__ = ("_edges", "board", "effects", "neighbours", "playable", "roads", "streams")

    def __init__(self, board: Board) -> None:
        self.board = board
        self.playable: frozenset[Hex] = frozenset(board.hexes)
        self.effects: dict[Hex, TerrainEffects] = {h: board.terrain(h).effects for h in board.hexes}
        self.neighbours: dict[Hex, tuple[Hex, ...]] = {
            h: tuple(n for n in neighbours(h) if n in self.playable) for h in board.hexes
        }
        self.roads: frozenset[frozenset[Hex]] = frozenset(board.roads)
        self.streams: frozenset[frozenset[Hex]] = frozenset(board.streams)
        self._edges: dict[bool, dict[Hex, tuple[tuple[Hex, bool, int], ...]]] = {}

    def edges(self, vehicle: bool) -> dict[Hex, tuple[tuple[Hex, bool, int], ...]]:
        """For a Vehicle or a Soldier: from every hex, the steps it may take as (hex, along road, cost).

        The cost is the off-road cost, or 1 along a road (the road bonus is the caller's business).
        Steps into terrain the unit can't enter, or out of it, are there only along a road.
        """
        table = self._edges.get(vehicle)
        if table is None:
            table = {}
            for a in self.playable:
                out = []
                leave = self.effects[a].can_enter(vehicle)
                for b in self.neighbours[a]:
                    road = frozenset((a, b)) in self.roads
                    if road:
                        out.append((b, True, 1))
                    elif leave and self.effects[b].can_enter(vehicle):
                        out.append((b, False, self.effects[b].entry_cost(vehicle)))
                table[a] = tuple(out)
            self._edges[vehicle] = table
        return table


def info(board: Board) -> MapInfo:
    """The MapInfo of a board, kept on the board. Not turned off by `caching.off()`: it is the board
    itself in dictionaries (built from the board alone, never stale), and rebuilding it for every
    question would make play without the caches too slow to test."""
    return board.derived(MapInfo)
