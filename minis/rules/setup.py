"""Setting up a battle (rulebook, Getting Started, Standard and Assault scenarios): where units may deploy.

Standard: the first player deploys within five full hexes of the end it picked, then the second player
at the other end. Assault: the defender deploys anywhere on the two map sections of its half, then the
attacker within five hexes of its end. Nobody deploys in a hex its unit can't enter, or breaks stacking.
The Assault objective may not be next to the map edge or a half-hex. A scenario's preset units stay
where the designer put them unless the scenario lets their player deploy them (docs/scenarios.md).
"""

from __future__ import annotations

from minis.hexgrid import Hex
from minis.rules import mapinfo
from minis.rules.stacking import room_for
from minis.sides import Side
from minis.state import GameState, Scenario, Unit


def zone(state: GameState, side: Side) -> frozenset[Hex]:
    """The hexes where `side` may deploy."""
    board = state.board
    assert board is not None
    end = state.ends[side]
    if state.plan is not None:  # a scenario file says where each side deploys
        return frozenset(state.plan.zone(board, side, end, state.attacker))
    if state.scenario is Scenario.ASSAULT and side is not state.attacker:
        return board.half_of_map(end)
    return board.deployment_zone(end)


def fixed_problem(state: GameState, unit: Unit) -> str | None:
    """Why `unit` may not be picked up during deployment (None if it may): a preset that stays put."""
    if unit.id in state.fixed:
        return f"{unit.id} was placed by the scenario and stays where it is"
    return None


def deploy_problem(state: GameState, unit: Unit, hex_: Hex) -> str | None:
    """Why `unit` can't deploy in `hex_` (None if it can)."""
    board = state.board
    assert board is not None
    fixed = fixed_problem(state, unit)
    if fixed:
        return fixed
    if hex_ not in zone(state, unit.side):
        return f"{board.label(hex_)} is not in the {unit.side.title} deployment area"
    if not mapinfo.info(board).effects[hex_].can_enter(unit.card.is_vehicle):
        return f"{unit.id} can't deploy in {board.terrain(hex_).name.lower()} (it can't enter that hex)"
    if not room_for(state, unit, hex_):
        return f"no room for {unit.id} in {board.label(hex_)} (stacking limit)"
    return None


def objective_problem(state: GameState, hex_: Hex) -> str | None:
    board = state.board
    assert board is not None
    if not board.is_playable(hex_):
        return "the objective must be a hex of the battle map"
    if board.is_edge_adjacent(hex_):
        return f"{board.label(hex_)} is next to the map edge or a half-hex; the objective may not be"
    return None


def default_facing_end(end: str) -> str:
    """Vehicles deployed without a facing face the other end of the map."""
    return "E" if end == "west" else "W"
