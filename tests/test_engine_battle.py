"""The battle (fixed for a game, shared by every copy), its terms, and rule sets as values (issue 12)."""

from __future__ import annotations

from pathlib import Path

from engine_support import board, position, unit
from hypothesis import given, settings
from hypothesis import strategies as st

from minis.ability_rules import rulebook, special
from minis.ai.random_bot import RandomBot, play
from minis.army import load_army
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.dice import Dice
from minis.engine.ability_api import Ability, ability
from minis.engine.ability_loader import load_abilities, standard_abilities
from minis.engine.scenario import load_scenario
from minis.engine.terms import HALF, Hold, ObjectiveFrom, PointsFrom, assault, standard
from minis.game import Game
from minis.rules import victory
from minis.state import Stage

ARMIES = Path(__file__).parent.parent / "armies"
B = board("""
C C C C C C
 C C C C C
C C C C C C
""")


def _new_game(seed: int) -> Game:
    axis, allies = load_army(ARMIES / "sample-axis.toml"), load_army(ARMIES / "sample-allies.toml")
    return Game.new(axis, allies, dice=Dice(seed=seed))


def test_a_copy_shares_the_battle_and_the_map_roll_evolves_it() -> None:
    axis, allies = load_army(ARMIES / "sample-axis.toml"), load_army(ARMIES / "sample-allies.toml")
    game = Game.new(axis, allies, dice=Dice.scripted())  # waits for the map roll's die
    before = game.copy()
    assert before.state.battle is game.state.battle and game.state.battle.board is None
    game.push_dice([2, 1])  # configuration 2, then the coin flip
    assert game.state.battle.board is not None and game.state.battle.configuration == 2
    assert before.state.battle.board is None  # a copy made before the roll keeps its battle
    assert game.copy().state.battle is game.state.battle


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 200))
def test_a_clone_is_equal_and_shares_only_the_battle(seed: int, steps: int) -> None:
    game = _new_game(seed)
    bot = RandomBot(seed)
    for _ in range(steps):
        if game.decider() is None:
            break
        game.apply(bot.choose(game))
    copy = game.state.clone()
    assert copy == game.state and copy.battle is game.state.battle and copy.units is not game.state.units


def test_two_rule_sets_live_side_by_side() -> None:
    """A registry without an ability is a value: a game played with it leaves the shipped one alone."""
    units = [unit(B, "a", "mauser-kar-98k", "axis", "B1"), unit(B, "t", "m1-garand-rifle", "allies", "B2")]

    @ability("test-sharp")
    class Sharp(Ability):
        def die_modifier(self, ctx: object, owner: object) -> int:
            return 1

    sharp = standard_abilities().with_classes(Sharp)
    assert "test-sharp" in sharp.ids and "test-sharp" not in standard_abilities().ids
    off = standard_abilities().without("blast")
    assert "blast" not in off.ids and "blast" in standard_abilities().ids
    plain = position(B, units, phase="assault", active="axis")
    other = position(B, units, phase="assault", active="axis", abilities=off)
    assert plain.state.battle.abilities is standard_abilities()
    assert other.state.battle.abilities is off


def test_the_loader_collects_the_families_it_is_given() -> None:
    only = load_abilities((rulebook,))
    assert only.ids == {"blast", "commander-initiative", "transport", "exposed-transport", "gun-transport"}
    assert only.sight_blockers == ()
    assert load_abilities((rulebook, special)).sight_blockers == special.SIGHT_BLOCKERS


def test_the_shipped_standard_and_assault_files_are_the_rulebooks_terms() -> None:
    cards = card_catalogue()
    filed = load_scenario("standard").terms(None, cards)
    assert filed.victory == standard().victory == (ObjectiveFrom(7), PointsFrom(10))
    assert (filed.axis, filed.allies, filed.objective) == (standard().axis, standard().allies, "map")
    for attacker in Side:
        terms = load_scenario("assault").terms(attacker, cards)
        rulebook_terms = assault(attacker)
        assert terms.victory == rulebook_terms.victory == (Hold(10, attacker.other),)
        assert terms.side(attacker.other).zone == HALF == rulebook_terms.side(attacker.other).zone
        assert terms.side(attacker) == rulebook_terms.side(attacker)
        assert (terms.kind, terms.attacker, terms.objective) == (
            rulebook_terms.kind,
            rulebook_terms.attacker,
            rulebook_terms.objective,
        )


def test_one_victory_rule_decides_standard_and_scenario_games() -> None:
    """The Standard's objective from turn 7 is `victory.winner_at_end_of_turn` reading the terms."""
    units = [unit(B, "a", "mauser-kar-98k", "axis", "B3"), unit(B, "t", "m1-garand-rifle", "allies", "A6")]
    game = position(B, units, phase="assault", active="axis", turn=7, objective=B.parse("B3"))
    assert victory.winner_at_end_of_turn(game.state)[0] is Side.AXIS
    early = position(B, units, phase="assault", active="axis", turn=6, objective=B.parse("B3"))
    assert victory.winner_at_end_of_turn(early.state) == (None, "")


def test_a_random_game_ends_with_the_same_battle_rules() -> None:
    game = play(_new_game(5), RandomBot(5))
    assert game.state.stage is Stage.OVER and game.state.battle.terms == standard()
