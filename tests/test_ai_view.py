"""A bot sees what its player may know: the other army hidden until it deploys, never the dice to come."""

from __future__ import annotations

from pathlib import Path

from minis.ai.bot import hidden_units, play_out, view
from minis.ai.random_bot import RandomBot
from minis.army import Army, load_army
from minis.base.sides import Side
from minis.dice import Dice
from minis.game import Game
from minis.state import Phase, Stage

ARMIES = Path(__file__).resolve().parent.parent / "armies"


def _at_first_deployment(allies: Army) -> Game:
    game = Game.new(load_army(ARMIES / "sample-axis.toml"), allies, configuration=1, dice=Dice(seed=3))
    bot = RandomBot(1)
    while game.state.stage is not Stage.DEPLOY:
        game.apply(bot.choose(game))
    return game


def test_the_other_army_is_not_in_the_view_before_it_deploys() -> None:
    allies = load_army(ARMIES / "sample-allies.toml")
    game = _at_first_deployment(allies)
    side = game.decider()
    assert side is not None
    other = {u.id for u in game.state.units.values() if u.side is side.other}
    assert hidden_units(game, side) == frozenset(other)
    seen = view(game, side, seed=5)
    text = " ".join(
        (repr(seen.state.units), repr(dict(seen.state.battle.cards)), repr(seen.header), repr(seen.record))
    )
    hidden_cards = {game.state.units[uid].card.id for uid in other}
    assert hidden_cards and not any(card_id in text for card_id in hidden_cards | other)
    assert all(u.side is side for u in seen.state.units.values())
    assert seen.legal_actions()  # the view is a game the bot can ask and play on


def test_the_view_has_dice_of_its_own() -> None:
    game = _at_first_deployment(load_army(ARMIES / "sample-allies.toml"))
    side = game.decider()
    assert side is not None
    coming = game.dice.fork()
    rolls = [coming.roll() for _ in range(30)]
    seen = [view(game, side, seed=s).dice for s in range(4)]
    assert any([d.roll() for _ in range(30)] != rolls for d in seen)
    assert [view(game, side, seed=9).dice.roll() for _ in range(5)] == [
        view(game, side, seed=9).dice.roll() for _ in range(5)
    ]


def test_nothing_is_hidden_once_the_battle_starts() -> None:
    game = Game.new(
        load_army(ARMIES / "sample-axis.toml"),
        load_army(ARMIES / "sample-allies.toml"),
        configuration=2,
        dice=Dice(seed=4),
    )
    bots = {Side.AXIS: RandomBot(1), Side.ALLIES: RandomBot(2)}

    def started(g: Game) -> None:
        if g.state.phase is not Phase.SETUP and g.decider() is not None:
            assert hidden_units(g, g.decider() or Side.AXIS) == frozenset()

    play_out(game, bots, max_actions=400, after=started)
    assert game.state.phase is not Phase.SETUP


def test_aircraft_stay_hidden_through_set_up_and_are_known_after_it() -> None:
    """An aircraft never deploys: the other army's stay hidden through set-up (its hex None looks like
    a unit still to deploy, and the army is secret until the battle), then are known off the map."""
    axis = load_army(ARMIES / "sample-axis.toml")
    axis = Army(axis.name, axis.side, units=(*axis.units[:-1], "bf-110-c"))
    allies = load_army(ARMIES / "sample-allies.toml")
    game = Game.new(axis, allies, configuration=1, dice=Dice(seed=3))
    bot = RandomBot(1)
    seen_in_setup = False
    while game.state.phase is Phase.SETUP:
        if game.state.stage is Stage.DEPLOY and game.decider() is Side.ALLIES:
            assert "bf-110-c" in hidden_units(game, Side.ALLIES)
            assert "bf-110-c" not in view(game, Side.ALLIES, seed=1).state.units
            seen_in_setup = True
        game.apply(bot.choose(game))
    assert seen_in_setup
    assert game.state.units["bf-110-c"].hex is None  # off the map, waiting for its flight phase
    assert not hidden_units(game, Side.ALLIES)
    assert "bf-110-c" in view(game, Side.ALLIES, seed=1).state.units
