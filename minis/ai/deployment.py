"""The heuristic bot's set-up: the Assault objective, the end of the map, who goes first, and where
each unit deploys (a plan, not random spots).

The plan: the most valuable units choose first; every unit wants cover for its type, long-range units
want hills (they see over the battlefield), everyone wants to be near the objective (or, without one,
toward the enemy), and nobody wants to stand where an enemy already deployed can shoot it. The scores
come from the same `Evaluator` as the battle's moves, with a pull toward the front added.
"""

from __future__ import annotations

import random

from minis.ai.scoring import Evaluator, Sight, reach, worth
from minis.base.sides import Side
from minis.board import Board
from minis.engine import actions as A
from minis.game import Game
from minis.hexgrid import Facing, Hex, distance
from minis.rules import setup
from minis.state import GameState, Unit
from minis.terrain import Terrain

#: Points for a long-range unit deploying on a hill, and for any unit deploying in cover.
HILL_BONUS = 2.5
COVER_BONUS = 2.0
#: Points lost per hex between a deployed unit and the objective (or the enemy's end of the map).
FRONT_PULL = 0.4
#: A unit reaching this far counts as long-range (it has a long-range attack).
LONG_RANGE = 5


def _column(board: Board, hex_: Hex) -> int:
    return board.doubled_of(hex_)[0]


def _cover_score(board: Board, hex_: Hex) -> float:
    """How good a hex is to defend: cover for Soldiers and Vehicles, and its neighbours' cover."""
    score = 0.0
    for near in (hex_, *board.neighbours(hex_)):
        effects = board.terrain(near).effects
        score += (1.0 if near == hex_ else 0.25) * (
            (effects.soldier_cover is not None) + (effects.vehicle_cover is not None)
        )
    return score


def choose_objective(game: Game, rng: random.Random) -> A.Action:
    """The Assault defender's objective: a hex deep in one half, in and among cover."""
    state = game.state
    board = state.battle.board
    assert board is not None
    options = [a for a in game.legal_actions() if isinstance(a, A.Objective)]
    columns = [_column(board, h) for h in board.hexes]
    middle = (min(columns) + max(columns)) / 2
    span = max(1.0, (max(columns) - min(columns)) / 2)

    def score(action: A.Objective) -> float:
        depth = abs(_column(board, action.hex) - middle) / span  # 0 centre .. 1 edge
        return 3.0 * _cover_score(board, action.hex) + 6.0 * min(depth, 0.75) + rng.random() * 0.1

    return max(options, key=score)


def choose_end(game: Game, side: Side) -> A.Action:
    """The end whose half holds the objective (Assault defender); else the one with the better cover."""
    state = game.state
    board = state.battle.board
    assert board is not None
    objective = state.objective

    def score(end: str) -> float:
        total = sum(_cover_score(board, h) for h in board.deployment_zone(end))
        if objective is not None and state.attacker is not None:
            mine = objective in board.half_of_map(end)
            total += 1000.0 if mine == (state.attacker is not side) else 0.0
        return total

    return A.End(max(("west", "east"), key=score))


def choose_first(side: Side) -> A.Action:
    """Let the other side go first: the second player sees every move before making its own, deploys
    second and moves last before the end of each turn, when the objective is checked."""
    return A.First(side.other)


def deploy(game: Game, side: Side, sight: Sight, rng: random.Random) -> A.Action:
    """The next deployment: the most valuable unit still waiting, to the best hex of the zone for it."""
    state = game.state
    waiting = [state.units[u] for u in game.ready_units()]
    if not waiting:
        return A.Ready()
    unit = max(waiting, key=lambda u: (worth(u), u.id))
    choice = best_deployment(state, unit, side, sight, rng)
    if choice is None:
        return A.Ready() if A.Ready() in game.legal_actions() else game.legal_actions()[0]
    hex_, facing = choice
    return A.Deploy(unit.id, hex_, facing)


def deployments(
    state: GameState, unit: Unit, side: Side, sight: Sight, rng: random.Random
) -> list[tuple[float, Hex, Facing | None]]:
    """Every hex of the zone where `unit` may deploy, scored by the plan, best first."""
    board = state.battle.board
    assert board is not None
    area = setup.zone(state, side)
    evaluator = Evaluator.make(state, side, sight)
    evaluator.objective_weight = 0.0  # the objective's pull is the front's, below
    target = state.objective
    enemy_end = state.ends.get(side.other)
    enemy_line = [h for h in board.deployment_zone(enemy_end)] if enemy_end is not None else []
    enemy_column = sum(_column(board, h) for h in enemy_line) / len(enemy_line) if enemy_line else None
    long_range = reach(unit) >= LONG_RANGE
    vehicle = unit.card.is_vehicle
    default = Facing.E if state.ends.get(side) == "west" else Facing.W
    found: list[tuple[float, Hex, Facing | None]] = []
    for hex_ in sorted(area, key=lambda h: (h.r, h.q)):
        if setup.deploy_problem(state, unit, hex_) is not None:
            continue
        value, facing = evaluator.value(unit, hex_)
        terrain = board.terrain(hex_)
        if terrain.effects.cover(vehicle) is not None:
            value += COVER_BONUS
        if long_range and terrain is Terrain.HILL:
            value += HILL_BONUS
        if target is not None:
            value -= FRONT_PULL * distance(hex_, target)
        elif enemy_column is not None:
            value -= FRONT_PULL * abs(_column(board, hex_) - enemy_column) / 2
        crowd = sum(1 for u in state.at(hex_) if u.side is side)
        value -= 1.5 * crowd  # spread out: one shot (or a Blast) should not find two units
        value += rng.random() * 0.05
        found.append((value, hex_, (facing or default) if vehicle else None))
    found.sort(key=lambda item: -item[0])
    return found


def best_deployment(
    state: GameState, unit: Unit, side: Side, sight: Sight, rng: random.Random
) -> tuple[Hex, Facing | None] | None:
    found = deployments(state, unit, side, sight, rng)
    if not found:
        return None
    return found[0][1], found[0][2]
