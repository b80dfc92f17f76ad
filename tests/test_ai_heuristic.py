"""The heuristic bot: whole games against random with the invariants after every action, every
decision of a battle (set-up, Assault objective, deployment), behaviour a random bot would not show,
and the same seed giving the same decisions."""

from __future__ import annotations

import itertools
import random

import attrs
import pytest
from engine_support import board, check_invariants, position, unit

from minis.ai.bot import Bot, play_out, view
from minis.ai.heuristic import HeuristicBot
from minis.ai.random_bot import RandomBot
from minis.ai.scoring import Evaluator, Sight, reach, sight_for
from minis.army import Army, load_army
from minis.base.data import shipped_folder
from minis.base.sides import Side
from minis.board import Board
from minis.dice import Dice
from minis.engine import actions as A
from minis.game import Game
from minis.hexgrid import Hex, distance, is_front
from minis.rules import setup
from minis.rules.defensive_fire import provoked
from minis.state import BattleKind, Stage, Unit
from minis.terrain import Terrain


def _armies() -> tuple[Army, Army]:
    armies = shipped_folder("armies")
    return load_army(armies / "sample-axis.toml"), load_army(armies / "sample-allies.toml")


@pytest.mark.parametrize("config", range(1, 7))
def test_whole_games_against_random_keep_the_invariants(config: int) -> None:
    axis, allies = _armies()
    for mine in (Side.AXIS, Side.ALLIES):
        game = Game.new(axis, allies, configuration=config, dice=Dice(seed=config), turn_limit=12)
        bots: dict[Side, Bot] = {mine: HeuristicBot(config), mine.other: RandomBot(config)}
        play_out(game, bots, seeds=random.Random(config), after=check_invariants)
        assert game.over
        assert game.winner is mine  # random play is no match (60 of 60 measured; docs/ai.md)


@pytest.mark.parametrize("attacker", [Side.AXIS, Side.ALLIES])
def test_every_decision_of_an_assault_is_taken(attacker: Side) -> None:
    """Configuration, objective, end, first player, deployment, moves, fire, attacks: all legal."""
    axis, allies = _armies()
    game = Game.new(
        axis, allies, scenario=BattleKind.ASSAULT, attacker=attacker, dice=Dice(seed=5), turn_limit=12
    )
    bots = {Side.AXIS: HeuristicBot(1), Side.ALLIES: HeuristicBot(2)}
    stages: set[Stage] = set()
    chosen: dict[Stage, A.Action] = {}
    while (side := game.decider()) is not None:
        stages.add(game.state.stage)
        action = bots[side].choose(view(game, side, 7))
        chosen.setdefault(game.state.stage, action)
        game.apply(action)
        check_invariants(game)
    assert {
        Stage.CHOOSE_CONFIGURATION,
        Stage.CHOOSE_OBJECTIVE,
        Stage.CHOOSE_END,
        Stage.DEPLOY,
        Stage.ACT,
    } <= stages
    # The defender keeps the objective in its own half: it chose the end whose half holds it.
    assert game.state.objective is not None and game.state.board is not None
    defender_end = game.state.ends[attacker.other]
    assert game.state.objective in game.state.board.half_of_map(defender_end)


def test_the_coin_flip_winner_lets_the_other_side_go_first() -> None:
    axis, allies = _armies()
    game = Game.new(axis, allies, configuration=1, dice=Dice(seed=2))
    assert game.state.stage is Stage.CHOOSE_FIRST
    side = game.decider()
    assert side is not None
    assert HeuristicBot(0).choose(view(game, side, 1)) == A.First(side.other)
    game.apply(A.First(side.other))
    chooser = game.decider()
    assert chooser is not None
    assert isinstance(HeuristicBot(0).choose(view(game, chooser, 1)), A.End)


def _to_deployment(seed: int) -> tuple[Game, Side]:
    axis, allies = _armies()
    game = Game.new(axis, allies, configuration=seed % 6 + 1, dice=Dice(seed=seed))
    while game.state.stage is not Stage.DEPLOY:
        side = game.decider()
        assert side is not None
        game.apply(HeuristicBot(seed).choose(view(game, side, seed)))
    side = game.state.deploying
    assert side is not None
    return game, side


@pytest.mark.parametrize("seed", range(6))
def test_deployment_follows_a_plan_inside_the_zone(seed: int) -> None:
    """Each unit goes inside the zone; long-range units take hills or cover when the zone has them;
    most units end in cover (a random spread would leave most in the open)."""
    game, side = _to_deployment(seed)
    board = game.state.board
    assert board is not None
    zone = setup.zone(game.state, side)
    bot = HeuristicBot(seed)
    placed = []
    while game.state.stage is Stage.DEPLOY and game.state.deploying is side:
        action = bot.choose(view(game, side, seed))
        if isinstance(action, A.Deploy):
            unit_ = game.state.units[action.unit]
            assert action.hex in zone
            if unit_.card.is_vehicle:
                assert action.face is not None
            free_good = [
                h
                for h in zone
                if setup.deploy_problem(game.state, unit_, h) is None
                and (
                    board.terrain(h) is Terrain.HILL or board.terrain(h).effects.cover(unit_.card.is_vehicle)
                )
            ]
            good = board.terrain(action.hex) is Terrain.HILL or board.terrain(action.hex).effects.cover(
                unit_.card.is_vehicle
            )
            if reach(unit_) >= 5 and free_good:
                assert good, f"{unit_.id} deployed in the open with hills or cover free"
            placed.append(bool(good))
        game.apply(action)
    assert placed and sum(placed) * 2 >= len(placed)


def test_it_takes_the_good_shot_at_the_valuable_target() -> None:
    b = board("""
C C C C C C C
 C C C C C C C
C C C C F C C
 C C C C C C C
""")
    sherman = unit(b, "sherman", "m4a1-sherman", "allies", "B2", "E")
    panzer = unit(b, "panzer", "panzer-iv-ausf-g", "axis", "B4", "E")  # its rear toward the Sherman
    rifles = unit(b, "rifles", "mauser-kar-98k", "axis", "C5")  # cheap, in a forest, farther
    game = position(b, [sherman, panzer, rifles], phase="assault", active="allies")
    assert game.can_attack("sherman", "rifles") and game.can_attack("sherman", "panzer")
    for seed in range(10):
        assert HeuristicBot(seed).choose(view(game, Side.ALLIES, seed)) == A.Attack("sherman", "panzer")


def test_defensive_fire_holds_for_the_shot_out_of_cover() -> None:
    """The Sherman starts its move in a town next to the gun: the bot lets it leave and fires once it
    is in the open (rulebook, the defensive fire example)."""
    b = board("""
C C C C C C C
 C T C C C C C
C C C C C C C
 C C C C C C C
""")
    tank = unit(b, "sherman", "m4a1-sherman", "allies", "B1", "E")
    gun = unit(b, "gun", "pak-38-anti-tank-gun", "axis", "C3")
    game = position(b, [tank, gun], phase="movement", active="allies", dice=Dice(seed=3))
    game.apply(A.Move("sherman", tuple(b.parse(x) for x in ("B2", "B3", "B4", "B5"))))
    bot = HeuristicBot(4)
    answers = []
    while game.state.stage is Stage.DEFENSIVE_FIRE:
        assert game.state.move is not None
        action = bot.choose(view(game, Side.AXIS, 1))
        answers.append((game.label(game.state.units["sherman"].hex or b.parse("A1")), action))
        game.apply(action)
    assert answers[0] == ("B2", A.Hold())
    assert A.Fire("gun", b.parse("B3")) in [a for _, a in answers]


def test_it_does_not_walk_into_defensive_fire_when_a_safe_way_exists() -> None:
    """At turn 8 the Sherman heads for the objective; some ways pass by an enemy gun that would
    fire, and the one it takes does not."""
    b = board(
        """
C C C C C C C C C
 C C C C C C C C C
C C C C C C C C C
 C C C C C C C C C
C C C C C C C C C
""",
        objective="C6",
    )
    tank = unit(b, "sherman", "m4a1-sherman", "allies", "C2", "E")
    gun = unit(b, "gun", "pak-38-anti-tank-gun", "axis", "A5")
    game = position(b, [tank, gun], phase="movement", active="allies", turn=8)
    state = game.state
    objective = b.parse("C6")
    options = game.unit_options("sherman", with_attacks=False)
    assert options is not None
    start = state.units["sherman"].hex
    assert start is not None

    def provokes(path: tuple[Hex, ...]) -> bool:
        steps = itertools.pairwise((start, *path))
        return any(provoked(state, state.units["sherman"], state.units["gun"], a, c) for a, c in steps)

    near = {h: p for h, p in options.moves.items() if distance(h, objective) <= 1}
    assert any(provokes(p) for p in near.values()) and any(not provokes(p) for p in near.values())
    for seed in range(5):
        action = HeuristicBot(seed).choose(view(game, Side.ALLIES, seed))
        assert isinstance(action, A.Move)
        assert not provokes(action.path)


def test_the_other_army_is_not_read_before_it_is_revealed() -> None:
    """Deploying first, the bot decides the same whatever army the other side brought."""
    axis, allies = _armies()
    others = {
        Side.AXIS: Army("other", Side.AXIS, units=("panzer-iv-ausf-g", "pioneers")),
        Side.ALLIES: Army("other", Side.ALLIES, units=("kv-1", "kv-1", "bazooka")),
    }

    def first_deployment(axis: Army, allies: Army) -> tuple[Side, list[tuple[A.Action, float]]]:
        game = Game.new(axis, allies, configuration=3, dice=Dice(seed=11))
        while game.state.stage is not Stage.DEPLOY:
            side = game.decider()
            assert side is not None
            game.apply(HeuristicBot(0).choose(view(game, side, 0)))
        side = game.state.deploying
        assert side is not None
        return side, HeuristicBot(9).candidates(view(game, side, 0), 3)

    side, before = first_deployment(axis, allies)
    changed = (others[Side.AXIS], allies) if side is Side.ALLIES else (axis, others[Side.ALLIES])
    assert first_deployment(*changed) == (side, before)


def test_same_seed_same_decisions() -> None:
    axis, allies = _armies()
    records = []
    for _ in range(2):
        game = Game.new(axis, allies, configuration=4, dice=Dice(seed=8), turn_limit=12)
        play_out(game, {Side.AXIS: HeuristicBot(3), Side.ALLIES: HeuristicBot(4)}, seeds=random.Random(2))
        records.append([entry.action for entry in game.record])
    assert records[0] == records[1]


def test_candidates_are_best_first_and_legal() -> None:
    axis, allies = _armies()
    game = Game.new(axis, allies, configuration=2, dice=Dice(seed=4), turn_limit=12)
    mine, other = HeuristicBot(1), RandomBot(1)
    checked = 0
    while (side := game.decider()) is not None and checked < 120:
        if side is Side.AXIS:
            found = mine.candidates(view(game, side, 1), 4)
            assert 1 <= len(found) <= 4
            assert [s for _, s in found] == sorted((s for _, s in found), reverse=True)
            for action, _ in found:
                assert game.is_legal(action) is None, game.format(action)
            checked += 1
        game.apply((mine if side is Side.AXIS else other).choose(view(game, side, 1)))


# --- the hex values: a Vehicle's facing, the process's shared evaluators ---------------------------------


def test_a_vehicle_turns_its_front_to_the_gun_that_threatens_it() -> None:
    """The hex value of a Vehicle counts its front defense against the threats it can face, so the
    facing it is given there shows its front to an anti-tank gun to its west (not the first facing)."""
    b = board("""
C C C C C C C C
 C C C C C C C C
C C C C C C C C
""")
    tank = unit(b, "sherman", "m4a1-sherman", "allies", "B5", "E")
    gun = unit(b, "gun", "pak-38-anti-tank-gun", "axis", "B2")
    game = position(b, [tank, gun], phase="movement", active="allies")
    state = game.state
    evaluator = Evaluator.make(state, Side.ALLIES, sight_for(b))
    here = state.units["sherman"].hex
    assert here is not None
    value, facing = evaluator.value(state.units["sherman"], here)
    assert facing is not None and is_front(here, facing, b.parse("B2"))
    blind = Evaluator.make(state, Side.ALLIES, sight_for(b))
    blind.facing_aware = False  # the rear defense against every threat, as before
    assert blind.value(state.units["sherman"], here)[0] < value


def test_shared_hex_values_are_those_of_a_fresh_evaluator_and_follow_the_enemy() -> None:
    """The process keeps evaluators by what their values depend on: the same position (two views of
    it) gives the same values as a fresh one, and an enemy that moved gives another evaluator."""
    b = board("""
C C C C C C C C
 C C C F C C C C
C C C C C C C C
""")
    tank = unit(b, "sherman", "m4a1-sherman", "allies", "B6", "W")
    rifles = unit(b, "rifles", "mauser-kar-98k", "axis", "A2")
    gun = unit(b, "gun", "pak-38-anti-tank-gun", "axis", "C2")
    game = position(b, [tank, rifles, gun], phase="movement", active="allies")
    shared = Evaluator.shared(view(game, Side.ALLIES, 1).state, Side.ALLIES)
    assert Evaluator.shared(view(game, Side.ALLIES, 2).state, Side.ALLIES) is shared
    fresh = Evaluator.make(game.state, Side.ALLIES, Sight(b))
    sherman = game.state.units["sherman"]
    for hex_ in b.hexes:
        assert shared.value(sherman, hex_) == fresh.value(sherman, hex_)
    moved = view(game, Side.ALLIES, 3)
    moved.state.update("gun", hex=b.parse("B4"))
    other = Evaluator.shared(moved.state, Side.ALLIES)
    assert other is not shared
    assert other.value(sherman, b.parse("B5")) != shared.value(sherman, b.parse("B5"))


# --- aircraft (issue 19) ---------------------------------------------------------------------------------

AIR_BOARD = """
C C C C C C C
 C C C C C C C
C C C C C C C
 C C C C C C C
"""


def _off(aircraft: Unit) -> Unit:
    return attrs.evolve(aircraft, hex=None, facing=None)


def _flight(b: Board, units: list[Unit]) -> Game:
    return position(b, units, phase="flight", active="axis")


def test_the_aircraft_strikes_where_no_enemy_ace_can_react() -> None:
    """Two like targets; an enemy Ace over the map would get a reaction shot at an aircraft placed within 4
    hexes of it, near one of them: the plan strikes the other (without the risk it would fly near the
    Ace, which it could strike too)."""
    b = board("\n".join(("" if r % 2 == 0 else " ") + " ".join(["C"] * 12) for r in range(3)))
    plane = _off(unit(b, "sturmovik", "il-10-sturmovik", "allies", "A1"))
    near = unit(b, "near", "mauser-kar-98k", "axis", "B11")
    far = unit(b, "far", "mauser-kar-98k", "axis", "B2")
    ace = unit(b, "ace", "bf-109-e-ace", "axis", "B9")
    game = position(b, [plane, near, far, ace], phase="flight", active="allies")
    assert game.decider() is Side.ALLIES
    for seed in range(4):
        action = HeuristicBot(seed).choose(view(game, Side.ALLIES, seed))
        assert isinstance(action, A.Place)
        assert distance(action.hex, b.parse("B2")) <= 1 and distance(action.hex, b.parse("B9")) > 4


def test_an_aircraft_with_only_antiair_to_strike_stays_off_the_map() -> None:
    b = board(AIR_BOARD)
    plane = _off(unit(b, "stuka", "bf-110-c", "axis", "A1"))
    bofors = unit(b, "bofors", "40mm-bofors-l60", "allies", "B4")
    quad = unit(b, "quad", "quad-50", "allies", "C4")
    game = _flight(b, [plane, bofors, quad])
    # Its only targets are antiair guns: any strike costs more than it gains (and passing is worth 0).
    assert HeuristicBot(1).choose(view(game, Side.AXIS, 1)) == A.Pass()


def test_a_reaction_shot_is_taken_at_an_aircraft_placed_next_to_antiair() -> None:
    b = board(AIR_BOARD)
    plane = _off(unit(b, "stuka", "bf-110-c", "axis", "A1"))
    bofors = unit(b, "bofors", "40mm-bofors-l60", "allies", "B4")
    rifles = unit(b, "gi", "m1-garand-rifle", "allies", "B5")
    game = _flight(b, [plane, bofors, rifles])
    game.apply(A.Place("stuka", b.parse("B5")))
    assert game.state.stage is Stage.REACTION and game.decider() is Side.ALLIES
    for seed in range(5):
        assert HeuristicBot(seed).choose(view(game, Side.ALLIES, seed)) == A.Fire("bofors", b.parse("B5"))


def test_the_airstrike_hits_the_valuable_target() -> None:
    """A tank-busting Stuka over a Sherman strikes the tank, not the rifles next to it."""
    b = board(AIR_BOARD)
    plane = unit(b, "stuka", "junkers-ju-87g-stuka", "axis", "B4")
    tank = unit(b, "tank", "m4a1-sherman", "allies", "B4", "W")
    rifles = unit(b, "gi", "m1-garand-rifle", "allies", "B5")
    game = position(b, [plane, tank, rifles], phase="airstrike", active="axis")
    assert game.can_attack("stuka", "gi")
    for seed in range(4):
        assert HeuristicBot(seed).choose(view(game, Side.AXIS, seed)) == A.Attack("stuka", "tank")


def test_the_antiair_gun_shoots_at_the_aircraft_in_the_assault_phase() -> None:
    """An aircraft over the map is a target like any other, worth its points (a hit grounds it)."""
    b = board(AIR_BOARD)
    plane = unit(b, "stuka", "bf-110-c", "axis", "B3")
    rifles = unit(b, "rifles", "mauser-kar-98k", "axis", "B6")
    quad = unit(b, "quad", "quad-50", "allies", "B4")
    game = position(b, [plane, rifles, quad], phase="assault", active="allies")
    assert game.can_attack("quad", "stuka") and game.can_attack("quad", "rifles")
    assert HeuristicBot(1).choose(view(game, Side.ALLIES, 1)) == A.Attack("quad", "stuka")
