"""Indirect fire and spotters (issue 16) beyond the rules tests: the Bombardment scenario played to the
end by the bots, whose games do use the observer's sight; the odds preview and the log name the
Spotter whose sight an attack uses, and the refusal says why there is none."""

from __future__ import annotations

from typing import Any

import pytest

from minis.ai.heuristic import HeuristicBot
from minis.ai.random_bot import RandomBot
from minis.army import Army
from minis.base.sides import Side
from minis.dice import Dice
from minis.engine.events import Event, describe
from minis.engine.queries import AttackPreview, attack_preview
from minis.engine.scenario import SCENARIOS_DIR, load_scenario, start_game
from minis.game import Game
from minis.rulestest import load_rules_test

BOMBARDMENT = SCENARIOS_DIR / "bombardment.toml"
RULES = SCENARIOS_DIR.parent / "tests" / "rules" / "abilities"


def bombardment(seed: int) -> Game:
    """The scenario with two small armies bought within its limits (the guns and the garrison are preset)."""
    scenario = load_scenario(BOMBARDMENT)
    axis = Army("Garrison", Side.AXIS, units=("mauser-kar-98k", "mg-42-machine-gun-team"))
    allies = Army(
        "Assault", Side.ALLIES, units=("m1-garand-rifle", "m1-garand-rifle", "bazooka", "m1-garand-rifle")
    )
    return start_game(scenario, axis, allies, dice=Dice(seed=seed))


def play(game: Game, bots: dict[Side, Any], max_actions: int = 5000) -> list[Event]:
    """Let the bots play to the end; every event of the game."""
    events: list[Event] = []
    for _ in range(max_actions):
        side = game.decider()
        if side is None:
            break
        events.extend(game.apply(bots[side].choose(game)))
    return events


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_bots_play_the_bombardment_to_the_end(seed: int) -> None:
    game = bombardment(seed)
    play(game, {Side.AXIS: RandomBot(seed), Side.ALLIES: RandomBot(seed + 10)})
    assert game.over and game.state.turn <= 8


def test_heuristic_bots_play_the_bombardment_and_fire_through_the_observer() -> None:
    game = bombardment(5)
    events = play(game, {Side.AXIS: HeuristicBot(5), Side.ALLIES: HeuristicBot(6)})
    assert game.over and game.state.turn <= 8
    spotted = [e for e in events if e.kind == "spot"]
    assert spotted and all(e.unit == "observer" for e in spotted)


def test_the_preview_names_the_spotter_and_the_log_says_who_guided_the_fire() -> None:
    test = load_rules_test(RULES / "indirect-fire-through-a-spotter.toml")
    game = test.game(None)
    preview = attack_preview(game.state, "mortar", "rifle")
    assert isinstance(preview, AttackPreview) and preview.spotter == "spotter"
    game.dice.push([6, 6, 1, 1, 1, 1, 1, 1])
    events = game.apply("attack mortar rifle")
    assert events[0] == Event("spot", Side.AXIS, "spotter", "rifle")
    assert describe(events[0], str) == "spotter sees rifle and guides the indirect fire"


def test_a_unit_that_sees_its_target_uses_its_own_sight() -> None:
    test = load_rules_test(RULES / "indirect-fire-through-a-spotter.toml")
    game = test.game(None)
    preview = attack_preview(game.state, "spotter", "rifle")  # the Spotter's own attack: it sees him
    assert isinstance(preview, AttackPreview) and preview.spotter == ""


def test_the_refusal_says_no_spotter_sees_the_target() -> None:
    test = load_rules_test(RULES / "spotter-must-see-the-target.toml")
    game = test.game(None)
    reason = attack_preview(game.state, "mortar", "hidden")
    assert isinstance(reason, str)
    assert "no friendly Spotter within 8 hexes of it sees it" in reason
    vehicles = load_rules_test(RULES / "indirect-fire-not-against-vehicles.toml").game(None)
    reason = attack_preview(vehicles.state, "mortar", "sherman")
    assert isinstance(reason, str) and "only against Soldiers" in reason
