"""Setting up a battle (rulebook, Getting Started, Standard and Assault scenarios): where units may deploy.

Standard: the first player deploys within five full hexes of the end it picked, then the second player
at the other end. Assault: the defender deploys anywhere on the two map sections of its half, then the
attacker within five hexes of its end. Nobody deploys in a hex its unit can't enter, or breaks stacking.
The Assault objective may not be next to the map edge or a half-hex. A scenario's preset units stay
where the designer put them unless the scenario lets their player deploy them (docs/scenarios.md).

Everything a battle's terms (`minis.engine.terms.Terms`) say about set-up is applied here: the zones, the
fixed ends, the objective and the preset units that go on the map as soon as there is one.
"""

from __future__ import annotations

from minis import abilities
from minis.base.sides import Side
from minis.board import Board
from minis.content.unit_ids import unique_id
from minis.engine.terms import CHOOSE_OBJECTIVE, OWN_OBJECTIVE
from minis.hexgrid import Hex
from minis.rules import arrivals, mapinfo, obstacles
from minis.rules.stacking import room_for, why_full
from minis.rules.zones import zone_hexes
from minis.state import BattleKind, GameState, Stage, Unit


def zone(state: GameState, side: Side) -> frozenset[Hex]:
    """The hexes where `side` may deploy (its terms' zone at its end of the map)."""
    board = state.battle.board
    assert board is not None
    return zone_hexes(board, state.battle.terms.side(side).zone, state.ends[side])


def objective_of(objective: str, board: Board) -> Hex | None:
    """The objective `Terms.objective` sets on `board` (None: the defender chooses it at set-up)."""
    if objective == CHOOSE_OBJECTIVE:
        return None
    if objective == OWN_OBJECTIVE:
        return board.objective
    return board.parse(objective)


def set_map(state: GameState, board: Board, configuration: int | None) -> None:
    """The battle map is known (rolled, chosen, or named by the terms): the battle evolves onto it, with
    the terms' preset units on it, and a Standard battle takes the map's own objective."""
    presets, fixed = _place_presets(state, board)
    state.battle = state.battle.with_map(board, configuration, state.units.values(), presets, fixed)
    if state.battle.terms.kind is BattleKind.STANDARD:
        state.objective = board.objective


def _place_presets(state: GameState, board: Board) -> tuple[frozenset[str], frozenset[str]]:
    """Put the terms' preset units on the map; (their ids, the ids of those that stay put).

    Each keeps its id (`minis.content.unit_ids`: the armies' ids avoid the presets'; a format-1 record's game
    makes it unique among the armies' units, as `unique_id` does, as it always did); the ones without
    `deploy` stay where they are (`Battle.fixed`), and none counts for points (`Battle.presets`).
    """
    if state.battle.presets:
        return state.battle.presets, state.battle.fixed
    placed, fixed = [], []
    for preset in state.battle.terms.presets:
        name = unique_id(preset.id, state.units)
        if preset.card.is_aircraft:  # off the map (`at = "off"`): it flies in each turn's flight phase
            state.units[name] = Unit(name, preset.card, preset.side)
            placed.append(name)
            continue
        hex_ = board.parse(preset.at)
        if preset.card.is_obstacle:  # an obstacle the scenario places: not a unit (minis.rules.obstacles)
            obstacles.add_preset(state, name, preset.card, preset.side, hex_)
            continue
        unit = Unit(
            name, preset.card, preset.side, hex=hex_, facing=preset.facing, entered=state.next_entry()
        )
        state.units[name] = unit
        placed.append(name)
        if not preset.deploy:
            fixed.append(name)
    return frozenset(placed), frozenset(fixed)


def start(state: GameState) -> None:
    """Prepare a new game's state for its terms, before its first automatic step: a map the terms name,
    their objective, their fixed ends and their preset units, skipping the set-up choices they answer."""
    terms = state.battle.terms
    if terms.board is not None:  # a map file instead of a configuration
        set_map(state, terms.board, None)
        if state.stage is Stage.MAP_ROLL:
            state.stage = Stage.COIN
        elif state.stage is Stage.CHOOSE_CONFIGURATION:
            state.stage = Stage.CHOOSE_OBJECTIVE
    board = state.battle.board
    if board is not None and terms.objective != CHOOSE_OBJECTIVE:
        state.objective = objective_of(terms.objective, board)
        if state.stage is Stage.CHOOSE_OBJECTIVE:
            state.stage = Stage.CHOOSE_END
    fix_ends(state)


def fix_ends(state: GameState) -> None:
    """At the choice of ends: if the terms fix them, set them and go on to deployment.

    The player who would have chosen (the first player; the Assault defender) deploys first.
    """
    if state.stage is not Stage.CHOOSE_END:
        return
    ends = state.battle.terms.fixed_ends()
    if ends is None:
        return
    state.ends = ends
    state.deploying = state.chooser
    state.stage = Stage.DEPLOY


def fixed_problem(state: GameState, unit: Unit) -> str | None:
    """Why `unit` may not be picked up during deployment (None if it may): a preset that stays put."""
    if unit.id in state.battle.fixed:
        return f"{unit.id} was placed by the scenario and stays where it is"
    return None


def deploy_problem(state: GameState, unit: Unit, hex_: Hex) -> str | None:
    """Why `unit` can't deploy in `hex_` (None if it can)."""
    board = state.battle.board
    assert board is not None
    if unit.card.is_aircraft:
        return f"{unit.id} is an aircraft: aircraft are not deployed, they fly in each turn's flight phase"
    fixed = fixed_problem(state, unit)
    if fixed:
        return fixed
    area = zone(state, unit.side)
    if arrivals.any_special(state):  # Heroes, Paratroopers wait off the map; Partisans, Gliderborne
        special = arrivals.deploy_problem(state, unit, hex_, area)
        if special:
            return special
        area = area | arrivals.extra_area(state, unit)
    if hex_ not in area:
        return f"{board.label(hex_)} is not in the {unit.side.title} deployment area"
    if not abilities.enters_terrain(
        state, unit, hex_, mapinfo.info(board).effects[hex_].can_enter(unit.card.is_vehicle)
    ):
        return f"{unit.id} can't deploy in {board.terrain(hex_).name.lower()} (it can't enter that hex)"
    if not room_for(state, unit, hex_):
        return f"no room for {unit.id} in {board.label(hex_)}: {why_full(state, unit, hex_)} (stacking limit)"
    return None


def objective_problem(state: GameState, hex_: Hex) -> str | None:
    board = state.battle.board
    assert board is not None
    if not board.is_playable(hex_):
        return "the objective must be a hex of the battle map"
    if board.is_edge_adjacent(hex_):
        return f"{board.label(hex_)} is next to the map edge or a half-hex; the objective may not be"
    return None


def default_facing_end(end: str) -> str:
    """Vehicles deployed without a facing face the other end of the map."""
    return "E" if end == "west" else "W"


def crowded_out(state: GameState, unit: Unit) -> bool:
    """True if `unit`, still to deploy, may deploy in no hex left: its army fills every hex of its zone it
    may stand in (an army too big for its zone, as a large study's or scenario's can be). Its player
    readies without it and it stays out of the battle, as a stranded boat does (`water.stranded`);
    without this the deployment would wait for ever with no legal action."""
    if unit.hex is not None or unit.removed or unit.carried_by is not None or unit.card.is_aircraft:
        return False
    if state.battle.board is None:
        return False
    area = sorted(zone(state, unit.side), key=lambda h: (h.r, h.q))
    return not any(
        deploy_problem(state, unit, hex_) is None for hex_ in arrivals.deploy_hexes(state, unit, area)
    )
