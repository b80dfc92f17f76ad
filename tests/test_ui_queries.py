"""`minis.engine.queries`: what the window shows before a decision, checked against what the engine then does.

The queries only ask the engine's own rule functions; these tests hold them to the engine's behaviour:
the defensive-fire windows a planned move predicts are the windows the walk opens, the costs are the
engine's, the odds are `minis.engine.odds`' exact fractions and add up to one.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from engine_support import board, position, unit
from hypothesis import given, settings
from hypothesis import strategies as st

from minis.engine import actions as A
from minis.engine import queries
from minis.engine.odds import attack_odds
from minis.hexgrid import Hex, neighbours
from minis.rules.combat import AttackPlan, plan_attack
from minis.rules.defensive_fire import window_hex
from minis.state import Stage

B = board(
    """
C C C C C C
 C T C C C
C C C C C C
 C C F C C
""",
    streams=("A4/A5",),
)


def pak_and_sherman(sherman_at: str = "A1"):
    units = [
        unit(B, "pak", "pak-38-anti-tank-gun", "axis", "A3"),
        unit(B, "rifle", "mauser-kar-98k", "axis", "C5"),
        unit(B, "sherman", "m4a1-sherman", "allies", sherman_at, "E"),
    ]
    return position(B, units)


def walk_windows(game, path: tuple[Hex, ...]) -> list[tuple[Hex, frozenset[str]]]:
    """Walk a move with the engine, holding every window: where each window opened and who could fire."""
    trial = game.copy()
    trial.dice.push([6] * 10)  # every movement roll succeeds
    trial.apply(A.Move("sherman", path))
    windows = []
    while trial.state.stage is Stage.DEFENSIVE_FIRE:
        fire = [a for a in trial.legal_actions() if isinstance(a, A.Fire)]
        windows.append((window_hex(trial.state.move), frozenset(a.unit for a in fire)))
        trial.apply(A.Hold())
    return windows


def test_a_planned_move_predicts_the_windows_the_walk_opens() -> None:
    game = pak_and_sherman()
    info = queries.path_info(game.state, "sherman", tuple(B.parse(h) for h in ("A2", "B2", "C3")))
    assert info.problem is None
    assert [s.shooters for s in info.steps] == [(), ("pak",), ()]
    assert info.provokes
    windows = walk_windows(game, info.path)
    assert windows == [(B.parse("A2"), frozenset({"pak"})), (B.parse("B2"), frozenset({"pak"}))]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=4))
def test_exposure_matches_the_engine_for_any_legal_path(turns: list[int]) -> None:
    game = pak_and_sherman("B1")
    here = B.parse("B1")
    path: list[Hex] = []
    for turn in turns:
        here = neighbours(here)[turn]
        path.append(here)
    info = queries.path_info(game.state, "sherman", tuple(path))
    if info.problem is not None:
        assert game.is_legal(A.Move("sherman", tuple(path))) is not None  # the engine refuses it too
        return
    predicted = {s.end for s in info.steps if s.shooters} | {s.start for s in info.steps if s.shooters}
    opened = {where for where, _ in walk_windows(game, tuple(path))}
    assert opened <= predicted  # no window the player was not warned about
    shooters = {u for s in info.steps for u in s.shooters}
    assert all(who <= shooters for _, who in walk_windows(game, tuple(path)))


def test_costs_and_movement_roll_odds_come_from_the_rules() -> None:
    game = pak_and_sherman("A5")
    across = queries.path_info(game.state, "sherman", (B.parse("A4"),))  # across the stream
    assert across.rolls == 1 and across.roll_odds == Fraction(1, 2) and across.cost == 1
    along = queries.path_info(game.state, "sherman", (B.parse("A6"),))
    assert along.rolls == 0 and along.roll_odds == 1
    costs = queries.move_costs(game.state, "sherman", game.unit_options("sherman").moves)
    assert costs[B.parse("A4")].rolls == 1
    for info in costs.values():
        assert info.problem is None and info.cost >= 1
        assert info.roll_odds == Fraction(1, 2) ** info.rolls


def test_an_illegal_path_says_why() -> None:
    game = pak_and_sherman()
    info = queries.path_info(game.state, "sherman", (B.parse("C3"),))
    assert info.problem is not None and "next to" in info.problem


def test_attack_preview_is_the_engines_plan_with_exact_odds() -> None:
    units = [
        unit(B, "pak", "pak-38-anti-tank-gun", "axis", "A3"),
        unit(B, "sherman", "m4a1-sherman", "allies", "A4", "W"),
        unit(B, "behind", "m4a1-sherman", "allies", "B1", "W"),
    ]
    game = position(B, units, phase="assault", active="axis")
    for target, side in (("sherman", "front"), ("behind", "rear")):
        preview = queries.attack_preview(game.state, "pak", target)
        assert isinstance(preview, queries.AttackPreview)
        plan = plan_attack(game.state, game.state.units["pak"], game.state.units[target])
        assert isinstance(plan, AttackPlan)
        assert preview.odds == attack_odds(plan) and sum(preview.odds) == 1
        assert (preview.dice, preview.defense, preview.facing_side) == (plan.dice, plan.defense, side)
    assert isinstance(queries.attack_preview(game.state, "pak", "pak"), str)


def test_defensive_fire_options_are_the_legal_fire_actions() -> None:
    game = pak_and_sherman()
    game.apply("move sherman A2 B2 C3")
    options = queries.defensive_fire_options(game.state)
    assert [o.attacker for o in options] == [a.unit for a in game.legal_actions() if isinstance(a, A.Fire)]
    assert all(o.defensive and o.odds[2] == o.odds[3] == 0 for o in options)


def test_percent_never_rounds_a_possibility_away() -> None:
    assert queries.percent(Fraction(1, 1000)) == "<1%"
    assert queries.percent(Fraction(999, 1000)) == ">99%"
    assert queries.percent(Fraction(0)) == "0%" and queries.percent(Fraction(1)) == "100%"
    assert queries.percent(Fraction(1, 2)) == "50%"
    assert list(itertools.islice((queries.percent(Fraction(k, 6)) for k in range(7)), 3)) == [
        "0%",
        "17%",
        "33%",
    ]
