"""Helpers for the engine tests: small inline boards and units from the real cards."""

from __future__ import annotations

import itertools

from minis.base.sides import Side
from minis.board import Board
from minis.cards import card_catalogue
from minis.engine.ability_loader import standard_abilities
from minis.game import Game
from minis.hexgrid import Facing, from_doubled
from minis.state import Counter, Phase, Unit
from minis.terrain import Terrain


def board(
    text: str, streams: tuple[str, ...] = (), roads: tuple[str, ...] = (), objective: str | None = None
) -> Board:
    """A board from rows of terrain letters (an indented row starts with one space), like rules tests."""
    lines = [line for line in text.strip("\n").splitlines() if line.strip()]
    shift = 1 if lines[0].startswith(" ") else 0
    terrain = {}
    for r, line in enumerate(lines):
        indent = 1 if line.startswith(" ") else 0
        for n, letter in enumerate(line.split()):
            terrain[from_doubled(2 * n + indent, r, shift)] = Terrain.from_letter(letter)
    plain = Board.create(terrain, shift=shift)
    links = []
    for road in roads:
        hexes = [plain.parse(w) for w in road.split()]
        links.extend(itertools.pairwise(hexes))
    stream_sides = [tuple(plain.parse(w) for w in s.split("/")) for s in streams]
    return Board.create(
        terrain,
        shift=shift,
        streams=stream_sides,
        roads=links,
        objective=plain.parse(objective) if objective else None,
    )


def unit(
    b: Board,
    unit_id: str,
    card: str,
    side: str,
    at: str,
    facing: str | None = None,
    status: tuple[str, ...] = (),
    pending: tuple[str, ...] = (),
    carried_by: str | None = None,
) -> Unit:
    c = card_catalogue()[card]
    face = Facing.parse(facing) if facing else (Facing.E if c.is_vehicle else None)
    return Unit(
        unit_id,
        c,
        Side.parse(side),
        b.parse(at),
        face,
        "disrupted" in status,
        "damaged" in status,
        tuple(Counter(p) for p in pending),
        carried_by,
    )


def position(
    b: Board,
    units: list[Unit],
    phase: str = "movement",
    active: str = "allies",
    first: str | None = None,
    turn: int = 1,
    **kwargs: object,
) -> Game:
    return Game.from_position(
        b,
        units,
        phase=Phase(phase),
        active=Side.parse(active),
        first=Side.parse(first or active),
        turn=turn,
        **kwargs,
    )  # type: ignore[arg-type]


# --- random armies and the invariants every position must keep (fuzz tests) -----------------------------

import random  # noqa: E402

from minis import abilities  # noqa: E402
from minis.army import Army  # noqa: E402
from minis.content.rule_sets import END_OF_PHASE, OWN_PHASE  # noqa: E402
from minis.rules import arrivals, mapinfo  # noqa: E402
from minis.rules.stacking import beyond_allowance  # noqa: E402
from minis.state import GameState, Stage  # noqa: E402


def random_army(rng: random.Random, side: Side, points: int = 100, max_units: int = 15) -> Army:
    """A random army of one side's playable cards within the points and unit limits."""
    playable = standard_abilities().playable
    cards = sorted(
        (c for c in card_catalogue().values() if c.serves(side) and playable(c)), key=lambda c: c.id
    )
    units: list[str] = []
    total = 0
    for _ in range(60):
        card = rng.choice(cards)
        if total + card.cost <= points and len(units) < max_units:
            units.append(card.id)
            total += card.cost
    return Army(f"random {side.value}", side, units=tuple(units))


def _pending_ok(unit: Unit) -> bool:
    p = unit.pending
    if not p:
        return True
    if p[0] is not Counter.DISRUPTED:
        return False
    if not unit.card.is_vehicle:
        return len(p) <= 2 and (len(p) < 2 or p[1] is Counter.DESTROYED)
    if len(p) >= 2 and p[1] is not (Counter.DESTROYED if unit.damaged else Counter.DAMAGED):
        return False
    return len(p) <= 3 and (len(p) < 3 or (p[2] is Counter.DESTROYED and not unit.damaged))


def check_invariants(game: Game) -> None:
    """Everything that must hold after every action of any game."""
    state: GameState = game.state
    decider = game.decider()
    assert (decider is None) == game.over, f"decider {decider} but over={game.over}"
    assert not game.waiting_for_dice()
    board = state.board
    if board is None:
        assert all(u.hex is None for u in state.units.values())
        return
    # The rule set's limits: never broken where each move is checked; at most by one unit where they are
    # checked at the end of the phase (the extra unit a player may have in his own phase).
    bad = beyond_allowance(state)
    assert not bad, f"overstacked: {[board.label(h) for h in bad]}"
    info = mapinfo.info(board)
    carried: dict[str, int] = {}
    no_pending = state.stage in (Stage.INITIATIVE, Stage.CHOOSE_FIRST) or (
        # the overstack penalty's face-down counters wait from a movement phase's end to the casualty phase
        state.phase is Phase.MOVEMENT and state.rules.stacking_checked != END_OF_PHASE
    )
    for u in state.units.values():
        if u.removed:
            assert u.hex is None and u.carried_by is None, u
            continue
        if u.hex is None:
            waits = arrivals.arrives_later(state, u)  # a Hero or Paratrooper still off the map
            waits = waits or u.card.is_aircraft  # an aircraft off the map, between its flights
            assert state.phase is Phase.SETUP or waits, f"{u.id} has no hex in {state.phase}"
            continue
        assert board.is_playable(u.hex), u
        if u.card.is_aircraft:  # over the map only from the flight phase to the end of the turn
            assert state.phase in (Phase.FLIGHT, Phase.AIRSTRIKE, Phase.ASSAULT, Phase.CASUALTY), (
                f"{u.id} over the map in {state.phase}"
            )
            assert not u.damaged and u.facing is None and u.carried_by is None, u
            assert _pending_ok(u), f"{u.id} pending {u.pending}"
            continue
        allowed = info.effects[u.hex].can_enter(u.card.is_vehicle)
        if not abilities.enters_terrain(state, u, u.hex, allowed) and u.carried_by is None:  # water: a boat
            assert any(u.hex in link for link in board.roads), f"{u.id} in impassable {board.label(u.hex)}"
        assert (u.facing is not None) == u.card.is_vehicle, u
        assert u.card.is_vehicle or not u.damaged, u
        assert _pending_ok(u), f"{u.id} pending {u.pending}"
        if no_pending:
            assert not u.pending, f"{u.id} has face-down counters in {state.phase}"
        if u.carried_by is not None:
            carrier = state.units[u.carried_by]
            assert carrier.on_map and carrier.hex == u.hex and carrier.side is u.side, (u, carrier)
            assert abilities.may_carry(state, carrier, u)
            carried[carrier.id] = carried.get(carrier.id, 0) + 1
            assert carried[carrier.id] <= abilities.capacity(state, carrier)
    flown = [u.hex for u in state.units.values() if u.card.is_aircraft and u.on_map]
    assert len(flown) == len(set(flown)), "two aircraft over one hex"
    shared_flight = state.phase is Phase.FLIGHT and state.rules.aircraft_placement != OWN_PHASE
    if state.stage in (Stage.ACT, Stage.DEFENSIVE_FIRE, Stage.PLACE, Stage.PENALTY) and not shared_flight:
        assert all(state.units[i].side is state.active for i in state.activated)
        assert all(state.units[i].side is not state.active for i in state.fired)
