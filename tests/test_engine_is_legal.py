"""`Game.is_legal` asks without copying the game: the same answers as applying the action to a copy.

Random games (random armies, the six configurations and Assault, the three rule sets) and, at every
decision, a pool of actions both legal and not: a sample of the listed ones, every unit's attack on a
few enemies, moves and fire into neighbouring hexes, boarding and passing, and the set-up words. For
each, `is_legal` must give exactly the reason (or None) that `copy().apply` gives, and leave the
game's state and dice where they were.
"""

from __future__ import annotations

import random

import pytest
from engine_support import board, position, random_army, unit

from minis.ai.random_bot import RandomBot
from minis.base.sides import Side
from minis.content.rule_sets import named
from minis.dice import Dice
from minis.engine import actions as A
from minis.game import Game
from minis.hexgrid import neighbours
from minis.rules.errors import IllegalAction
from minis.state import BattleKind

GAMES = 9


def by_copy(game: Game, action: A.Action) -> str | None:
    """The old answer: apply the action to a whole copy of the game."""
    try:
        game.copy().apply(action)
    except IllegalAction as error:
        return error.reason
    return None


def pool(game: Game, rng: random.Random) -> list[A.Action]:
    """Actions to ask about here, most of them refused."""
    state = game.state
    listed = game.legal_actions()
    actions: list[A.Action] = rng.sample(listed, min(6, len(listed)))
    units = [u for u in state.units.values() if u.hex is not None and not u.removed]
    for mover in rng.sample(units, min(4, len(units))):
        enemies = [u for u in units if u.side is not mover.side]
        for enemy in rng.sample(enemies, min(3, len(enemies))):
            actions.append(A.Attack(mover.id, enemy.id))
        friends = [u for u in units if u.side is mover.side and u.id != mover.id]
        if friends:
            actions.append(A.BoardTransport(mover.id, rng.choice(friends).id))
        assert mover.hex is not None
        for hex_ in list(neighbours(mover.hex))[:2]:
            actions += [A.Move(mover.id, (hex_,)), A.Fire(mover.id, hex_), A.Dismount(mover.id, hex_)]
    actions += [A.Pass(), A.Hold(), A.Ready(), A.First(rng.choice(list(Side)))]
    return actions


@pytest.mark.parametrize("seed", range(GAMES))
def test_is_legal_answers_as_applying_to_a_copy_does(seed: int) -> None:
    rng = random.Random(seed)
    axis, allies = random_army(rng, Side.AXIS), random_army(rng, Side.ALLIES)
    rules = named(("2005", "2008", "2009", "2010")[seed % 4])
    kind = BattleKind.ASSAULT if seed % 3 == 2 else BattleKind.STANDARD
    game = Game.new(
        axis,
        allies,
        scenario=kind,
        attacker=Side.AXIS if kind is BattleKind.ASSAULT else None,
        configuration=None if kind is BattleKind.ASSAULT else seed % 6 + 1,
        dice=Dice(seed=seed),
        turn_limit=4,
        rules=rules,
    )
    bot = RandomBot(seed)
    asked = refused = 0
    while game.decider() is not None:
        if rng.random() < 0.3:
            before, used = game.state.snapshot(), game.dice.used
            for action in pool(game, rng):
                answer = game.is_legal(action)
                assert answer == by_copy(game, action), game.format(action)
                asked += 1
                refused += answer is not None
            assert game.state.snapshot() == before and game.dice.used == used
        game.apply(bot.choose(game))
    assert asked > 200 and 0 < refused < asked


def test_an_action_refused_only_after_dice_is_refused() -> None:
    """The Sherman's move is held at its first window (the gun beside A1); its last step crosses a
    stream, a roll. An attack now would first hold the window, roll for the stream and only then be
    refused (not the assault phase): asked without dice, the answer needs them, and it must still be
    the refusal, not a yes."""
    b = board("C C C C C C\n C C C C C C", streams=("A4/A5",))
    game = position(
        b,
        [
            unit(b, "sherman", "m4a1-sherman", "allies", "A1", facing="E"),
            unit(b, "pak", "pak-38-anti-tank-gun", "axis", "B1", facing="W"),
        ],
    )
    game.dice = Dice(seed=3)
    game.apply("move sherman A2 A3 A4 A5")
    assert game.decider() is Side.AXIS  # the gun's window is open
    used = game.dice.used
    for text in ("attack sherman pak", "pass", "hold", "fire pak at A1"):
        action = game.parse(text)
        assert game.is_legal(action) == by_copy(game, action), text
    assert "assault phase" in (game.is_legal("attack sherman pak") or "")
    assert game.dice.used == used
