"""How many one-turn random playouts per second the engine plays: the figure a search lives by.

A one-turn playout starts from a position right after deployment (the sample armies on
configurations 1-6, set up by seeded random bots), copies the game, gives the copy fresh seeded dice
and lets a seeded `RandomBot` play both sides until the turn number goes up or the game ends.
Prints `playouts_per_s=...` (playouts divided by the seconds spent in them, set-up left out).

It runs on today's code and on older checkouts alike (`PYTHONPATH=OLD python tools/playout_speed.py`):
a copy without the record is used where the engine offers it, as a search would.
"""

from __future__ import annotations

import argparse
import inspect
import time
from collections.abc import Callable
from pathlib import Path

from minis.ai.random_bot import RandomBot
from minis.army import load_army
from minis.board import Board
from minis.dice import Dice
from minis.game import Game
from minis.mapfile import load_configuration
from minis.state import Phase

ROOT = Path(__file__).resolve().parent.parent


def starting_positions(seeds_per_configuration: int) -> list[Game]:
    """Positions right after both armies are deployed: configurations 1-6, a few seeds each."""
    axis = load_army(ROOT / "armies" / "sample-axis.toml")
    allies = load_army(ROOT / "armies" / "sample-allies.toml")
    positions = []
    for configuration in range(1, 7):
        board = load_configuration(configuration)
        for seed in range(1, seeds_per_configuration + 1):
            game = Game.new(
                axis,
                allies,
                configuration=configuration,
                dice=Dice(seed=seed),
                load_board=_always(board),
            )
            bot = RandomBot(seed)
            while game.state.phase is Phase.SETUP and game.decider() is not None:
                game.apply(bot.choose(game))
            positions.append(game)
    return positions


def _always(board: Board) -> Callable[[int], Board]:
    """A board loader that hands out the board already read (the configuration is given)."""
    return lambda _number: board


def copy_for_search(game: Game) -> Game:
    """How a search copies a game: without the record where `Game.copy` can leave it out."""
    if _COPY_TAKES_RECORD:
        return game.copy(record=False)
    return game.copy()


_COPY_TAKES_RECORD = "record" in inspect.signature(Game.copy).parameters


def play_one_turn(game: Game, seed: int) -> int:
    """Random play of both sides until the turn number goes up or the game ends; the actions taken."""
    bot = RandomBot(seed)
    turn = game.state.turn
    actions = 0
    while game.state.turn == turn and game.decider() is not None:
        game.apply(bot.choose(game))
        actions += 1
    return actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--playouts", type=int, default=1000, help="how many playouts (default 1000)")
    parser.add_argument(
        "--seeds", type=int, default=2, help="starting positions per configuration (default 2)"
    )
    args = parser.parse_args()
    positions = starting_positions(args.seeds)
    actions = 0
    start = time.perf_counter()
    for i in range(args.playouts):
        game = copy_for_search(positions[i % len(positions)])
        game.dice = Dice(seed=i)
        actions += play_one_turn(game, i)
    elapsed = time.perf_counter() - start
    rate = args.playouts / elapsed
    print(f"playouts={args.playouts} actions={actions} seconds={elapsed:.3f} playouts_per_s={rate:.1f}")


if __name__ == "__main__":
    main()
