"""Defensive fire: provoking, windows in both hexes, fire at a later window, holding, limits."""

from __future__ import annotations

import pytest
from engine_support import board, position, unit

from minis.base.sides import Side
from minis.engine import actions as A
from minis.hexgrid import Facing
from minis.rules.errors import IllegalAction
from minis.state import Stage

B = board("""
C C C C C C
 C T C C C
C C C C C C
""")


def pak_and_sherman(**kwargs: object):
    units = [
        unit(B, "pak", "pak-38-anti-tank-gun", "axis", "A3"),
        unit(B, "sherman", "m4a1-sherman", "allies", "A1", "E"),
    ]
    return position(B, units, **kwargs)  # type: ignore[arg-type]


def test_a_step_between_two_adjacent_hexes_opens_two_windows() -> None:
    game = pak_and_sherman()
    game.apply("move sherman A2 B2 C3")
    assert game.decider() is Side.AXIS and game.state.stage is Stage.DEFENSIVE_FIRE
    assert game.legal_actions() == [A.Fire("pak", B.parse("A2")), A.Hold()]
    assert game.state.units["sherman"].hex == B.parse("A2")
    assert game.state.units["sherman"].facing is Facing.SE  # already facing the hex it enters
    game.apply("hold")
    assert game.state.units["sherman"].hex == B.parse("B2")
    assert game.legal_actions() == [A.Fire("pak", B.parse("B2")), A.Hold()]
    game.apply("hold")
    assert game.decider() is Side.ALLIES  # B2 -> C3 does not provoke: C3 is not next to the gun
    assert game.state.units["sherman"].hex == B.parse("C3")


def test_fire_at_a_later_hex_holds_the_windows_before() -> None:
    game = pak_and_sherman()
    game.apply("move sherman A2 B2 C3")
    game.push_dice([1] * 11)
    events = game.apply("fire pak at B2")
    assert [e.kind for e in events].count("hold") == 1
    assert game.dice.remaining() == 0 and game.state.fired == {"pak": 1}
    assert game.state.units["sherman"].hex == B.parse("C3")


def test_fire_where_the_mover_never_is_is_refused_and_changes_nothing() -> None:
    game = pak_and_sherman()
    game.apply("move sherman A2 B2 C3")
    before = game.state.snapshot()
    with pytest.raises(IllegalAction, match="no chance"):
        game.apply("fire pak at C3")
    assert game.state.snapshot() == before
    with pytest.raises(IllegalAction, match="moving player"):
        game.apply("fire sherman at A2")


def test_a_disrupting_hit_stops_the_move_in_that_hex() -> None:
    game = pak_and_sherman()
    game.apply("move sherman A2 B2 C3")
    game.push_dice([6] * 5 + [1] * 6)  # 5 successes against the front defense 5 (the gun is ahead of it)
    game.apply("fire pak at A2")
    sherman = game.state.units["sherman"]
    assert sherman.disrupted and sherman.hex == B.parse("A2") and sherman.facing is Facing.SE
    assert game.decider() is Side.ALLIES


def test_after_a_disruption_others_may_still_fire_there_but_not_in_the_next_hex() -> None:
    units = [
        unit(B, "p1", "pak-38-anti-tank-gun", "axis", "A3"),
        unit(B, "p2", "pak-38-anti-tank-gun", "axis", "A3"),
        unit(B, "sherman", "m4a1-sherman", "allies", "A1", "E"),
    ]
    game = position(B, units)
    game.apply("move sherman A2 B2")
    game.push_dice([6] * 11)
    game.apply("fire p1 at A2")
    assert game.decider() is Side.AXIS and game.legal_actions() == [A.Fire("p2", B.parse("A2")), A.Hold()]
    with pytest.raises(IllegalAction):
        game.apply("fire p2 at B2")
    game.push_dice([1] * 11)
    game.apply("fire p2 at A2")
    assert game.state.units["sherman"].hex == B.parse("A2") and game.decider() is Side.ALLIES


def test_the_acting_players_next_step_holds_every_open_window() -> None:
    game = pak_and_sherman()
    game.apply("move sherman A2 B2 C3")
    game.apply("pass")
    assert game.state.units["sherman"].hex == B.parse("C3")
    assert game.state.active is Side.AXIS


def test_one_defensive_fire_attack_per_unit_per_phase() -> None:
    units = [
        unit(B, "pak", "pak-38-anti-tank-gun", "axis", "A3"),
        unit(B, "t1", "m4a1-sherman", "allies", "A1", "E"),
        unit(B, "t2", "m3-stuart", "allies", "B1", "E"),
    ]
    game = position(B, units)
    game.apply("move t1 A2 B2")
    game.push_dice([1] * 11)
    game.apply("fire pak at A2")
    game.apply("hold") if game.decider() is Side.AXIS else None
    game.apply("move t2 B2 A2")
    assert game.decider() is Side.ALLIES  # the gun has fired this phase: no window opens


def test_soldiers_do_not_provoke_vehicles_but_do_provoke_soldiers() -> None:
    units = [
        unit(B, "tank", "panzer-iv-ausf-g", "axis", "A3", "W"),
        unit(B, "rifle", "m1-garand-rifle", "allies", "A2"),
        unit(B, "mg", "mg-42-machine-gun-team", "axis", "B2"),
    ]
    game = position(B, units)
    game.apply("move rifle A3")
    assert game.decider() is Side.AXIS
    assert game.legal_actions() == [A.Fire("mg", B.parse("A2")), A.Hold()]


def test_disrupted_units_do_not_fire() -> None:
    units = [
        unit(B, "pak", "pak-38-anti-tank-gun", "axis", "A3", status=("disrupted",)),
        unit(B, "sherman", "m4a1-sherman", "allies", "A1", "E"),
    ]
    game = position(B, units)
    game.apply("move sherman A2 B2")
    assert game.decider() is Side.ALLIES
