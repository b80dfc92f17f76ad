"""Movement: `reachable` against a brute-force oracle, path checks, and the walk's stops and retracing."""

from __future__ import annotations

from itertools import product

import pytest
from engine_support import board, position, unit
from hypothesis import given, settings
from hypothesis import strategies as st

from minis.hexgrid import Facing, Hex
from minis.rules.errors import IllegalAction
from minis.rules.movement import check_path, reachable, speed
from minis.state import Phase

LETTERS = "CCCCFHTMP"


@st.composite
def small_boards(draw: st.DrawFn) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    rows = []
    for r in range(4):
        width = 5 if r % 2 == 0 else 4
        rows.append((" " if r % 2 else "") + " ".join(draw(st.sampled_from(LETTERS)) for _ in range(width)))
    text = "\n".join(rows)
    labels = [f"{'ABCD'[r]}{n}" for r in range(4) for n in range(1, (6 if r % 2 == 0 else 5))]
    b = board(text)
    pairs = [(b.label(a), b.label(c)) for a in b.hexes for c in b.neighbours(a) if (a.r, a.q) < (c.r, c.q)]
    streams = tuple(f"{x}/{y}" for x, y in draw(st.lists(st.sampled_from(pairs), max_size=4, unique=True)))
    roads = tuple(f"{x} {y}" for x, y in draw(st.lists(st.sampled_from(pairs), max_size=5, unique=True)))
    del labels
    return text, streams, roads


def brute_force(state, u) -> set[Hex]:
    """Every hex some path of legal length ends in, tried path by path with `check_path`."""
    budget = speed(state, u) + 1
    found: set[Hex] = set()
    frontier: list[tuple[Hex, ...]] = [()]
    for _ in range(budget + 1):
        nxt = []
        for path in frontier:
            here = path[-1] if path else u.hex
            for there in state.board.neighbours(here):
                candidate = (*path, there)
                plan = check_path(state, u, candidate)
                if not isinstance(plan, str):
                    found.add(there)
                if plan == "" or not isinstance(plan, str) or "no room" in plan:
                    nxt.append(candidate)
        frontier = nxt
    found.discard(u.hex)
    return found


@settings(max_examples=60, deadline=None)
@given(
    small_boards(),
    st.sampled_from(["m4a1-sherman", "m3-stuart", "m1-garand-rifle", "churchill-iv"]),
    st.sampled_from([Phase.MOVEMENT, Phase.ASSAULT]),
    st.booleans(),
    st.data(),
)
def test_reachable_matches_brute_force(
    spec, card: str, phase: Phase, damaged: bool, data: st.DataObject
) -> None:
    text, streams, roads = spec
    b = board(text, streams=streams, roads=roads)
    vehicle = card != "m1-garand-rifle"
    starts = [h for h in b.hexes if b.terrain(h).effects.can_enter(vehicle)]
    if not starts:
        return
    start = data.draw(st.sampled_from(starts))
    blocker = data.draw(st.sampled_from(b.hexes))
    units = [
        unit(
            b,
            "u",
            card,
            "allies",
            b.label(start),
            "E" if vehicle else None,
            status=("damaged",) if damaged and vehicle else (),
        )
    ]
    if blocker != start and b.terrain(blocker).effects.can_enter(True):
        units.append(unit(b, "other", "m4a1-sherman", "allies", b.label(blocker), "E"))
    game = position(b, units, phase=phase.value)
    u = game.state.units["u"]
    # Then with some roads broken (Bridge Demolition): searches are cached per set of broken roads, so
    # the answer must change with them (and stay right when asked again).
    sides = [frozenset(b.parse(w) for w in road.split()) for road in roads]
    broken = frozenset(data.draw(st.lists(st.sampled_from(sides), unique=True))) if sides else frozenset()
    for broken_roads in (frozenset(), broken, frozenset()):
        game.state.broken_roads = broken_roads
        found = reachable(game.state, u)
        assert set(found) == brute_force(game.state, u)
        for path in found.values():
            assert not isinstance(check_path(game.state, u, path), str)


FIELD = board(
    """
C C F C C C
 C H C C C
C C C C C C
""",
    streams=("A3/A4",),
    roads=("C1 C2 C3 C4",),
)


def test_vehicle_speed_double_cost_and_damage() -> None:
    b = FIELD
    game = position(b, [unit(b, "tank", "m4a1-sherman", "allies", "A1", "E")])
    tank = game.state.units["tank"]
    assert speed(game.state, tank) == 4
    assert "can't move that far" in check_path(game.state, tank, tuple(map(b.parse, ["A2", "A3", "B2"])))
    assert not isinstance(check_path(game.state, tank, tuple(map(b.parse, ["A2", "A3"]))), str)  # 1 + 2
    damaged = position(b, [unit(b, "tank", "m4a1-sherman", "allies", "A1", "E", status=("damaged",))])
    assert speed(damaged.state, damaged.state.units["tank"]) == 3


def test_road_bonus_makes_the_first_road_hex_free() -> None:
    b = FIELD
    game = position(b, [unit(b, "tank", "m3-stuart", "allies", "C1", "E")])
    tank = game.state.units["tank"]
    plan = check_path(game.state, tank, tuple(map(b.parse, ["C2", "C3", "C4", "C5", "C6", "B5"])))
    assert not isinstance(plan, str) and plan.spent == 5
    soldier = position(b, [unit(b, "rifle", "m1-garand-rifle", "allies", "C1")])
    assert "can't move that far" in check_path(
        soldier.state, soldier.state.units["rifle"], tuple(map(b.parse, ["C2", "C3"]))
    )


def test_failed_stream_roll_stops_and_faces_the_hex() -> None:
    b = board(
        """
C C C C C
 C C C C
""",
        streams=("A2/A3",),
    )
    game = position(b, [unit(b, "tank", "m4a1-sherman", "allies", "B1", "W")])
    game.push_dice([3])
    game.apply("move tank A2 A3 A4 face SE")
    tank = game.state.units["tank"]
    assert tank.hex == b.parse("A2") and tank.facing is Facing.E
    assert game.dice.remaining() == 0


def test_two_movement_rolls_stream_then_forest() -> None:
    b = board(
        """
C F C
 C C
""",
        streams=("A1/A2",),
    )
    game = position(b, [unit(b, "tank", "m4a1-sherman", "allies", "A1", "E")])
    game.push_dice([4, 3])
    game.apply("move tank A2")
    assert game.state.units["tank"].hex == b.parse("A1")
    assert game.dice.remaining() == 0


def test_illegal_move_leaves_the_game_unchanged() -> None:
    b = FIELD
    game = position(b, [unit(b, "tank", "m4a1-sherman", "allies", "A1", "E")])
    before = game.state.snapshot()
    for text in ("move tank A2 A4", "move tank B1 B1:NW", "move ghost A2", "move tank A2 A3 B3 B4"):
        with pytest.raises(IllegalAction):
            game.apply(text)
    assert game.state.snapshot() == before


def test_retrace_to_the_last_hex_where_the_unit_may_stop() -> None:
    b = board(
        """
C C C C C
 C C C C
""",
        streams=("A3/A4",),
    )
    units = [
        unit(b, "tank", "m4a1-sherman", "allies", "A1", "E"),
        unit(b, "jeep", "jeep", "allies", "A2", "E"),
        unit(b, "other", "m3-stuart", "allies", "A3", "E"),
    ]
    game = position(b, units)
    game.push_dice([1])
    game.apply("move tank A2 A3 A4")  # fails the stream roll in A3 (a Vehicle there): back to A2? also full
    assert game.state.units["tank"].hex == b.parse("A1")
    assert game.state.units["tank"].facing is Facing.E


def test_speed_one_vehicle_minimum_movement_only_in_movement_phase() -> None:
    b = board("""
C H C
 C C
""")
    u = [unit(b, "gun", "churchill-iv", "allies", "A1", "E", status=("damaged",))]
    game = position(b, u)
    assert b.parse("A2") in reachable(game.state, game.state.units["gun"])
    assault = position(b, u, phase="assault")
    assert b.parse("A2") not in reachable(assault.state, assault.state.units["gun"])


def test_every_listed_move_applies() -> None:
    b = FIELD
    units = [
        unit(b, "tank", "m3-stuart", "allies", "C1", "E"),
        unit(b, "rifle", "m1-garand-rifle", "allies", "A1"),
        unit(b, "enemy", "mauser-kar-98k", "axis", "B4"),
    ]
    game = position(b, units)
    listed = game.legal_actions()
    assert len(listed) > 20
    for action in listed:
        twin = game.copy()
        twin.dice.push([6] * 40)
        twin.apply(action)


@pytest.mark.parametrize(("card", "facing"), list(product(["m4a1-sherman"], ["E", "W"])))
def test_face_is_a_move_of_zero_hexes(card: str, facing: str) -> None:
    b = FIELD
    game = position(b, [unit(b, "tank", card, "allies", "A1", facing)])
    game.apply("face tank SE")
    assert game.state.units["tank"].facing is Facing.SE
    with pytest.raises(IllegalAction, match="already acted"):
        game.apply("move tank A2")
