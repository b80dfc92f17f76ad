"""What a computer player is: one interface for every bot, and the game as its side may know it.

A bot is handed `view(game, side)`, never the game itself: the side's projection (`minis.engine.projection`),
a game rebuilt from what the side may see, with dice of the bot's own: no dice seed or dice state of
the game, the other army only as deployment reveals it. So a bot cannot read what its player could
not, whatever it does with the copy it is given; it may play the copy forward as it likes (search does).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Protocol

from minis.base.sides import Side
from minis.dice import Dice
from minis.engine import actions as A
from minis.engine import projection
from minis.game import Game

__all__ = ["Bot", "BotFactory", "hidden_units", "play_out", "view"]


class Bot(Protocol):
    """A computer player: it chooses the next action of the side whose decision the game waits for.

    `choose` is given what that side may know (`view`) and returns an action that is legal there;
    it must not keep references into the game it was given beyond the call.
    """

    name: str

    def choose(self, game: Game) -> A.Action: ...


#: Makes a bot from a seed (each game, and each side, gets its own bot and seed).
BotFactory = Callable[[int], Bot]


def hidden_units(game: Game, side: Side) -> frozenset[str]:
    """The units `side` may not see yet (`minis.engine.projection.hidden_units`)."""
    return projection.hidden_units(game.state, side)


def view(game: Game, side: Side, seed: int | None = None) -> Game:
    """The game as `side` may know it: its projection (`minis.engine.projection`), with dice of its own.

    `seed` seeds the copy's dice (the bot's own, so a bot playing the copy forward is reproducible
    without knowing the real dice to come); nothing of the game's seed or dice is in the copy.
    """
    return projection.project(game, side, Dice(seed=seed if seed is not None else random.randrange(2**63)))


def play_out(
    game: Game,
    bots: Mapping[Side, Bot],
    max_actions: int = 100_000,
    seeds: random.Random | None = None,
    after: Callable[[Game], None] | None = None,
) -> Game:
    """Let bots play `game` to its end, each deciding from its side's view; `after` runs after each action."""
    draw = seeds or random.Random(0)
    for _ in range(max_actions):
        side = game.decider()
        if side is None:
            break
        game.apply(bots[side].choose(view(game, side, draw.randrange(2**63))))
        if after is not None:
            after(game)
    return game
