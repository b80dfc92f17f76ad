"""Scenarios played by the engine: the shipped Standard and Assault files play exactly as the engine's
own Standard and Assault; zones, fixed ends, map files, preset units, the exit and hold victories and
the turn limit; records of scenario games replay; random games on the shipped scenarios end."""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import pytest

from minis.ai.random_bot import RandomBot, play
from minis.army import HISTORICAL_GROUPS, Army
from minis.base.errors import MinisError
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.dice import Dice
from minis.engine.events import Event
from minis.engine.scenario import SCENARIOS_DIR, Scenario, load_scenario, start_game
from minis.game import Game
from minis.rules import victory
from minis.rules.errors import IllegalAction
from minis.state import BattleKind, Phase, Stage, Unit

BREAKOUT = SCENARIOS_DIR / "breakout.toml"


def random_army(scenario: Scenario, side: Side, seed: int, attacker: Side | None = None) -> Army:
    """A random army within the scenario's limits for `side`."""
    rng = random.Random(seed)
    force = scenario.force_of(side, attacker)
    cards = [
        c
        for c in card_catalogue().values()
        if c.side is side and not c.needs and (force.year is None or c.year <= force.year)
    ]
    if force.historical:
        groups = [g for g in HISTORICAL_GROUPS if any(c.nation in g for c in cards)]
        group = rng.choice(groups)
        cards = [c for c in cards if c.nation in group]
    units: list[str] = []
    points = 0
    while len(units) < min(force.units, 8):
        options = [c for c in cards if points + c.cost <= force.points]
        if not options:
            break
        card = rng.choice(sorted(options, key=lambda c: c.id))
        units.append(card.id)
        points += card.cost
    army = Army(f"{side.title} {seed}", side, units=tuple(units))
    assert scenario.army_problems(army, card_catalogue(), side=side, attacker=attacker) == []
    return army


def armies(scenario: Scenario, seed: int, attacker: Side | None = None) -> tuple[Army, Army]:
    return random_army(scenario, Side.AXIS, seed, attacker), random_army(
        scenario, Side.ALLIES, seed + 1, attacker
    )


# --- the shipped Standard and Assault are the engine's --------------------------------------------------
@pytest.mark.parametrize("seed", [3, 11])
def test_the_standard_file_plays_exactly_as_the_engines_standard(seed: int) -> None:
    standard = load_scenario("standard")
    axis, allies = armies(standard, seed)
    own = play(Game.new(axis, allies, dice=Dice(seed=seed), turn_limit=12), RandomBot(seed))
    filed = start_game(standard, axis, allies, dice=Dice(seed=seed))
    battle = filed.state.battle  # the same turn limit as the engine's game (a simulation's cap)
    filed.state.battle = attrs.evolve(battle, terms=attrs.evolve(battle.terms, turn_limit=12))
    play(filed, RandomBot(seed))
    assert own.over and filed.over
    assert filed.record == own.record
    assert filed.state.snapshot() == own.state.snapshot()


@pytest.mark.parametrize("seed", [5])
def test_the_assault_file_plays_exactly_as_the_engines_assault(seed: int) -> None:
    assault = load_scenario("assault")
    axis, allies = armies(assault, seed, attacker=Side.AXIS)
    own = Game.new(axis, allies, scenario=BattleKind.ASSAULT, attacker=Side.AXIS, dice=Dice(seed=seed))
    filed = start_game(assault, axis, allies, attacker=Side.AXIS, dice=Dice(seed=seed))
    assert filed.state.stage is Stage.CHOOSE_CONFIGURATION and filed.decider() is Side.ALLIES
    play(own, RandomBot(seed))
    play(filed, RandomBot(seed))
    assert own.over and filed.record == own.record and filed.winner is own.winner


def test_an_assault_needs_to_know_who_attacks() -> None:
    assault = load_scenario("assault")
    axis, allies = armies(assault, 1, attacker=Side.ALLIES)
    with pytest.raises(ValueError, match="which side attacks"):
        start_game(assault, axis, allies)


def test_armies_over_the_scenarios_limits_are_refused() -> None:
    breakout = load_scenario(BREAKOUT)
    heavy = Army("Heavy", Side.AXIS, units=("tiger-i", "tiger-i"), source=Path("heavy.toml"))
    allies = random_army(breakout, Side.ALLIES, 2)
    with pytest.raises(MinisError) as raised:
        start_game(breakout, heavy, allies)
    assert [str(p) for p in raised.value.problems] == [
        "heavy.toml:0:0: 112 points, 42 over the 70-point limit"
    ]


# --- the scenario's own terms ------------------------------------------------------------------------------
def breakout_game(seed: int = 1) -> tuple[Scenario, Game]:
    breakout = load_scenario(BREAKOUT)
    axis, allies = armies(breakout, seed)
    return breakout, start_game(breakout, axis, allies, dice=Dice.scripted([5]))  # the coin: Allies win it


def test_a_map_file_fixed_ends_and_a_preset_unit() -> None:
    breakout, game = breakout_game()
    state = game.state
    assert state.board == breakout.board and state.objective == breakout.board.parse("E11")
    assert game.header["scenario_file"] == "breakout" and game.header["configuration"] == "roll"
    gun = state.units["bridge-gun"]
    assert (gun.side, gun.hex, gun.card.id) == (
        Side.AXIS,
        breakout.board.parse("E11"),
        "pak-38-anti-tank-gun",
    )
    assert state.stage is Stage.CHOOSE_FIRST and game.decider() is Side.ALLIES  # no map roll: the coin only
    game.apply("first allies")
    assert state.stage is not Stage.CHOOSE_END  # the scenario fixes the ends
    assert game.state.stage is Stage.DEPLOY and game.decider() is Side.ALLIES
    assert game.state.ends == {Side.AXIS: "east", Side.ALLIES: "west"}
    assert "bridge-gun" not in game.ready_units()


def test_deployment_follows_the_scenarios_zones() -> None:
    breakout, game = breakout_game()
    game.apply("first allies")
    board = breakout.board
    unit = game.ready_units()[0]
    with pytest.raises(IllegalAction, match="not in the Allies deployment area"):
        game.apply(f"deploy {unit} {board.label(board.row(4)[3])}")  # E4: four hexes in, the zone is three
    legal = {a.hex for a in game.legal_actions(unit) if hasattr(a, "hex")}
    assert legal and legal <= breakout.zone(board, Side.ALLIES, "west")
    deploy = next(a for a in game.legal_actions(unit) if hasattr(a, "hex"))
    game.apply(deploy)


def exit_position(on_edge: int, turn: int) -> Game:
    """Breakout at the Allied assault phase of `turn`, with `on_edge` Allied Soldiers on the east edge."""
    breakout = load_scenario(BREAKOUT)
    board = breakout.board
    cards = card_catalogue()
    edge = [board.row(r)[-1] for r in range(board.rows)]
    units = [Unit(f"rifle{k}", cards["m1-garand-rifle"], Side.ALLIES, hex=edge[k]) for k in range(on_edge)]
    units.append(Unit("rifle-west", cards["m1-garand-rifle"], Side.ALLIES, hex=board.parse("E2")))
    units.append(Unit("gun", cards["pak-38-anti-tank-gun"], Side.AXIS, hex=board.parse("E11")))
    game = Game.from_position(
        board,
        units,
        turn=turn,
        phase=Phase.ASSAULT,
        first=Side.AXIS,
        active=Side.ALLIES,
        terms=breakout.terms(None, cards),
    )
    game.state.ends = {Side.AXIS: "east", Side.ALLIES: "west"}
    return game


def test_units_on_the_enemys_edge_leave_the_map_and_three_win() -> None:
    game = exit_position(on_edge=3, turn=2)
    events = game.apply("pass")  # the end of the turn
    left = [e.unit for e in events if e.kind == "exit"]
    assert left == ["rifle0", "rifle1", "rifle2"]
    assert all(game.state.units[u].removed for u in left)
    assert game.over and game.winner is Side.ALLIES
    assert any(e.kind == "winner" and "3 units got off" in e.note for e in events)


def test_two_units_off_the_map_are_not_enough_and_turn_8_ends_it() -> None:
    game = exit_position(on_edge=2, turn=2)
    game.apply("pass")
    assert not game.over and game.state.turn == 3 and game.state.exited == ("rifle0", "rifle1")
    late = exit_position(on_edge=2, turn=8)
    events = late.apply("pass")
    assert late.over and late.winner is Side.AXIS
    assert any(e.kind == "winner" and "did not get off the map by turn 8" in e.note for e in events)


def test_the_assault_hold_victory_at_the_end_of_turn_10() -> None:
    assault = load_scenario("assault")
    from minis.mapfile import load_configuration

    board = load_configuration(2)
    objective = board.parse("F8")
    cards = card_catalogue()
    for attacker_near, turn, winner in ((True, 10, Side.ALLIES), (False, 10, Side.AXIS), (True, 9, None)):
        near = board.neighbours(objective)[0] if attacker_near else board.parse("A1")
        units = [
            Unit("a", cards["m1-garand-rifle"], Side.ALLIES, hex=near),
            Unit("d", cards["mauser-kar-98k"], Side.AXIS, hex=board.parse("K16")),
        ]
        game = Game.from_position(
            board,
            units,
            scenario=BattleKind.ASSAULT,
            attacker=Side.ALLIES,
            turn=turn,
            phase=Phase.ASSAULT,
            first=Side.AXIS,
            active=Side.ALLIES,
            objective=objective,
            terms=assault.terms(Side.ALLIES, cards),
        )
        game.apply("pass")
        assert game.winner is winner and game.over is (winner is not None)


def test_a_turn_limit_ends_the_battle_as_a_draw(tmp_path: Path) -> None:
    text = (SCENARIOS_DIR / "standard.toml").read_text().replace('map = "roll"', "map = 2\nturns = 1")
    path = tmp_path / "short.toml"
    path.write_text(text)
    short = load_scenario(path)
    axis, allies = armies(short, 7)
    game = play(start_game(short, axis, allies, dice=Dice(seed=7)), RandomBot(7))
    assert game.over and game.winner is None and game.state.turn == 1


# --- whole games and records -----------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_of_breakout_end_by_turn_8(seed: int) -> None:
    breakout = load_scenario(BREAKOUT)
    axis, allies = armies(breakout, seed)
    game = play(start_game(breakout, axis, allies, dice=Dice(seed=seed)), RandomBot(seed))
    assert game.over and game.winner is not None and game.state.turn <= 8


def test_a_scenario_game_record_replays(tmp_path: Path) -> None:
    from minis import record

    breakout = load_scenario(BREAKOUT)
    axis, allies = armies(breakout, 4)
    game = play(start_game(breakout, axis, allies, dice=Dice(seed=4)), RandomBot(4), max_actions=300)
    path = tmp_path / "game.txt"
    record.save(game, path)
    assert 'scenario_file = "breakout"' in path.read_text()
    again = record.load(path, resume=False)
    assert again.state.snapshot() == game.state.snapshot()


def test_leave_map_and_winner_are_asked_of_the_scenario_only_when_it_has_an_exit() -> None:
    standard = load_scenario("standard")
    game = exit_position(on_edge=3, turn=2)
    state = game.state
    state.battle = attrs.evolve(state.battle, terms=standard.terms(None, card_catalogue()))
    events: list[Event] = []
    victory.leave_map(game.state, events)
    assert events == [] and game.state.exited == ()
