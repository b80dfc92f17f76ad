"""Where the computer places its obstacles (issue 16): on the approaches to what it defends.

Obstacles go on the map before any unit, so the bot plans from the map alone: its own deployment zone
(where its units will stand) and the objective. A good place is a few hexes in front of its zone, on
the enemy's side of it, or a few hexes out from the objective: the way the enemy has to come. Mines and
tank obstacles prefer open hexes and roads (where Vehicles drive); wire prefers hexsides leading into the
zone. Ties are broken at random, so two games don't look alike.
"""

from __future__ import annotations

import random

from minis.base.sides import Side
from minis.engine import actions as A
from minis.game import Game
from minis.hexgrid import Hex, distance
from minis.rules import obstacles, setup
from minis.state import GameState

#: The best distance from the objective (it may not be next to it).
OBJECTIVE_RING = 3
#: The best distance in front of the own zone.
FRONT_DEPTH = 2


def _hex_value(state: GameState, side: Side, hex_: Hex, zone: frozenset[Hex], enemy: frozenset[Hex]) -> float:
    """How well a hex blocks the enemy's way: a few hexes in front of the own zone, toward the enemy."""
    board = state.battle.board
    assert board is not None
    value = 0.0
    if zone:
        near_zone = min(distance(hex_, h) for h in zone)
        value -= abs(near_zone - FRONT_DEPTH)
    if enemy:
        value -= 0.2 * min(distance(hex_, h) for h in enemy)
        if hex_ in enemy:
            value -= 5.0  # the enemy may simply deploy around it
    if state.objective is not None:
        value -= 0.5 * abs(distance(hex_, state.objective) - OBJECTIVE_RING)
    return value


def place(game: Game, side: Side, rng: random.Random) -> A.Action:
    """The bot's next obstacle placement (one of the legal ones, scored)."""
    state = game.state
    options = [a for a in game.legal_actions() if isinstance(a, A.Deploy)]
    if not options:
        return game.legal_actions()[0]
    zone = setup.zone(state, side) if side in state.ends else frozenset()
    enemy = setup.zone(state, side.other) if side.other in state.ends else frozenset()
    board = state.battle.board
    assert board is not None
    best: tuple[float, A.Deploy] | None = None
    for action in options:
        value = _hex_value(state, side, action.hex, zone, enemy)
        if action.across is not None:
            value = max(value, _hex_value(state, side, action.across, zone, enemy))
        elif board.terrain(action.hex).effects.cover(True) is None:
            value += 0.5  # open ground, where Vehicles drive
        value += rng.random() * 0.3
        if best is None or value > best[0]:
            best = (value, action)
    assert best is not None
    return best[1]


def placing(game: Game) -> bool:
    """The game waits for an obstacle to be placed."""
    return obstacles.placing(game.state)
