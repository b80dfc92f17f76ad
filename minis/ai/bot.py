"""What a computer player is: one interface for every bot, and the game as its side may know it.

A bot is handed `view(game, side)`, never the game itself: the dice to come are replaced by a source
of its own, and the other army stays hidden until it is revealed (the other side's units that are off
the map before the battle starts). So a bot cannot read what its player could not, whatever it does
with the copy it is given; it may play the copy forward as it likes (search does).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Protocol

from minis import actions as A
from minis.dice import Dice
from minis.game import Game
from minis.sides import Side
from minis.state import Phase

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
    """The units `side` may not see yet: the other army's units not yet on the map, during set-up.

    Armies are chosen in secret and revealed as they deploy (rulebook, "Setting up"); once the
    battle has started every unit has been seen.
    """
    state = game.state
    if state.phase is not Phase.SETUP:
        return frozenset()
    return frozenset(
        unit.id
        for unit in state.units.values()
        if unit.side is not side
        and unit.hex is None
        and not unit.removed
        and unit.id not in state.battle.presets
    )


def view(game: Game, side: Side, seed: int | None = None) -> Game:
    """The game as `side` may know it: a copy with fresh dice and the other army hidden until revealed.

    `seed` seeds the copy's dice (the bot's own, so a bot playing the copy forward is reproducible
    without knowing the real dice to come).
    """
    twin = game.copy(record=False)  # the record holds nothing a bot needs, and grows with the game
    twin.dice = Dice(seed=seed if seed is not None else random.randrange(2**63))
    hidden = hidden_units(game, side)
    if hidden:
        state = twin.state
        state.units = {uid: unit for uid, unit in state.units.items() if uid not in hidden}
        battle = state.battle
        if battle.board is not None:
            state.battle = battle.with_map(
                battle.board, battle.configuration, state.units.values(), battle.presets, battle.fixed
            )
        else:
            state.battle = type(battle).make(
                None, state.units.values(), battle.terms, battle.abilities, None, battle.presets, battle.fixed
            )
        other = side.other.value
        twin.header = {
            key: value for key, value in twin.header.items() if key not in (other, f"{other}_name")
        }
    return twin


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
