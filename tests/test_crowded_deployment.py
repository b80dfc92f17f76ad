"""An army too big for its deployment zone: the units with no room left stay out of the battle.

A study or scenario may give an army more units than its zone can hold (400 points of riflemen under
2005: about 133 units for some 110 places). Without a rule for it the deployment waited for ever with
no legal action and the random bot crashed; now a unit that may deploy in no hex left is left out, as
a stranded boat is (`setup.crowded_out`, `sequence.left_out`).
"""

from __future__ import annotations

from minis.ai.random_bot import RandomBot
from minis.army import Army
from minis.base.sides import Side
from minis.dice import Dice
from minis.game import Game
from minis.rules import setup


def _crowded_game(copies: int) -> Game:
    axis = Army("crowd", Side.AXIS, units=("mauser-kar-98k",) * copies)
    allies = Army("few", Side.ALLIES, units=("m1-garand-rifle",) * 3)
    return Game.new(axis, allies, configuration=1, dice=Dice(seed=11))


def _deploy_all(game: Game) -> list[str]:
    """Plays the set-up with a random bot until the battle's first turn; the events' kinds on the way."""
    bot = RandomBot(seed=3)
    seen: list[str] = []
    for _ in range(3000):
        if game.state.turn >= 1:
            break
        assert game.legal_actions(), f"no legal action at {game.state.stage}"
        seen.extend(f"{e.kind}:{e.note}" for e in game.apply(bot.choose(game)))
    assert game.state.turn >= 1, "the set-up did not end"
    return seen


def test_an_army_too_big_for_its_zone_deploys_what_fits_and_leaves_the_rest_out() -> None:
    game = _crowded_game(160)
    seen = _deploy_all(game)
    axis = [u for u in game.state.units.values() if u.side is Side.AXIS]
    placed = [u for u in axis if u.hex is not None]
    out = [u for u in axis if u.removed]
    assert placed and out and len(placed) + len(out) == 160
    assert seen.count("stranded:crowded") == len(out)
    # every placed unit stands in its zone, two at most a hex (the 2005 limit)
    zone = setup.zone(game.state, Side.AXIS)
    per_hex: dict[object, int] = {}
    for unit in placed:
        assert unit.hex in zone
        per_hex[unit.hex] = per_hex.get(unit.hex, 0) + 1
    assert max(per_hex.values()) <= 2


def test_an_army_that_fits_is_never_left_out() -> None:
    game = _crowded_game(20)
    seen = _deploy_all(game)
    assert "stranded:crowded" not in seen
    assert all(u.hex is not None for u in game.state.units.values() if not u.card.is_aircraft)
