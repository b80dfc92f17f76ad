"""How many playouts a second the engine plays: the figures a search lives by.

Two figures, from the same seeds on any checkout:

- **search playouts** (`search_playouts_per_s`): the playouts the search bot plays at its decisions,
  with its own playout policy (`minis.ai.playout.play`, the search's default policy, horizon and
  leaf). The positions are decisions the search searches (moves, attacks, defensive fire) taken from
  seeded heuristic games, turns 1-3 of configurations 1-6 with the sample armies: 36 positions, 8
  playouts in a row from each, as a decision plays them (the search's decisions play 16 on average),
  after one untimed playout from each (a search's process is warm). Each playout starts with the
  heuristic's first choice there, as the search's first candidate does. Played after the random
  playouts: what the search's caches hold must not slow the random playouts' garbage collection.
- **random playouts** (`playouts_per_s`): one-turn random playouts. A position right after deployment
  (configurations 1-6, set up by seeded random bots) is copied, given fresh seeded dice, and a seeded
  `RandomBot` plays both sides until the turn number goes up or the game ends.

Each is the playouts divided by the seconds spent in them, set-up left out: by the wall clock
(`..._per_s`) and by the process's CPU time (`..._per_cpu_s`, the steadier on a shared machine).
`actions=` (the random playouts' actions) is the same on every checkout that plays the same games;
`search_sum=` (the search playouts' values added up) is the same wherever the playout policy and its
scoring are.

It runs on today's code and on older checkouts alike (`PYTHONPATH=OLD python tools/playout_speed.py`):
a copy without the record is used where the engine offers it, as a search would.
"""

from __future__ import annotations

import argparse
import inspect
import random
import time
from collections.abc import Callable
from pathlib import Path

from minis.ai.bot import view
from minis.ai.random_bot import RandomBot
from minis.army import load_army
from minis.board import Board
from minis.dice import Dice
from minis.engine import actions as A
from minis.game import Game
from minis.mapfile import load_configuration
from minis.state import Phase, Side  # the state's own `Side`, wherever an older checkout keeps it

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


def copy_for_search(game: Game, dice: Dice | None = None) -> Game:
    """How a search copies a game: without the record, and with `dice` as its dice (None: the game's
    forked), where `Game.copy` offers them; on older code the copy's dice are replaced after."""
    if _COPY_TAKES_DICE and dice is not None:
        return game.copy(record=False, dice=dice)
    twin = game.copy(record=False) if _COPY_TAKES_RECORD else game.copy()
    if dice is not None:
        twin.dice = dice
    return twin


def _copy_takes(name: str) -> bool:
    """Whether `Game.copy` takes the argument `name` (compiled, it has no signature to read: the fast build
    is of today's code, which takes both)."""
    try:
        return name in inspect.signature(Game.copy).parameters
    except ValueError:
        return True


_COPY_TAKES_RECORD = _copy_takes("record")
_COPY_TAKES_DICE = _copy_takes("dice")


def play_one_turn(game: Game, seed: int) -> int:
    """Random play of both sides until the turn number goes up or the game ends; the actions taken."""
    bot = RandomBot(seed)
    turn = game.state.turn
    actions = 0
    while game.state.turn == turn and game.decider() is not None:
        game.apply(bot.choose(game))
        actions += 1
    return actions


# --- search playouts -------------------------------------------------------------------------------------

#: Turns of the heuristic games whose searched decisions are taken as positions.
SEARCH_TURNS = (1, 2, 3)
#: Positions taken from each game (evenly spread over its searched decisions in those turns).
SEARCH_POSITIONS_PER_GAME = 6
#: Search playouts played in a row from each position (each with a seed of its own).
PLAYOUTS_PER_POSITION = 8
#: The seeds of one playout from each position played first and not timed (a search's process is warm:
#: its line of sight, odds and hex values kept from the decisions before).
WARM_SEED = 10**6


def search_positions(seeds_per_configuration: int) -> list[tuple[Game, A.Action]]:
    """Searched decisions of heuristic games (as the deciding side sees them, rebuilt as the search
    rebuilds a position) with the heuristic's first choice at each: the search's first candidate."""
    from minis.ai.heuristic import HeuristicBot
    from minis.ai.playout import pack, unpack
    from minis.ai.search import SEARCHED

    found: list[tuple[Game, A.Action]] = []
    for start in starting_positions(seeds_per_configuration):
        game = copy_for_search(start)
        seeds = random.Random(len(found))
        bots = {side: HeuristicBot(seeds.randrange(2**63)) for side in Side}
        decisions: list[tuple[Game, A.Action]] = []
        while game.decider() is not None and game.state.turn <= max(SEARCH_TURNS):
            side = game.decider()
            assert side is not None
            seen = view(game, side, seeds.randrange(2**63))
            action = bots[side].choose(seen)
            if game.state.stage in SEARCHED and game.state.turn in SEARCH_TURNS:
                decisions.append((unpack(pack(seen)), action))
            game.apply(action)
        step = max(1, len(decisions) // SEARCH_POSITIONS_PER_GAME)
        found.extend(decisions[step // 2 :: step][:SEARCH_POSITIONS_PER_GAME])
    return found


def search_playout(position: tuple[Game, A.Action], seed: int) -> float:
    """One playout as the search plays it (its default policy, horizon and leaf); its value (0 if refused)."""
    from minis.ai import search
    from minis.ai.playout import play

    policy, horizon, leaf = _SEARCH_SETTINGS or _search_settings(search)
    value = play(position[0], position[1], seed, policy, horizon, float("inf"), leaf)
    return 0.0 if value is None else value


_SEARCH_SETTINGS: list[object] = []


def _search_settings(search: object) -> list[object]:
    """The search bot's own playout settings (read from a bot, so any checkout's defaults are used)."""
    bot = search.SearchBot(0, workers=0)  # type: ignore[attr-defined]
    policy = search.heuristic_policy if HEURISTIC_POLICY else bot.policy  # type: ignore[attr-defined]
    _SEARCH_SETTINGS[:] = [policy, bot.horizon, bot.leaf]
    return _SEARCH_SETTINGS


#: Play the search playouts with the heuristic as the policy, not the search's default (`--heuristic-policy`:
#: what the playouts cost on this code before the playout policy).
HEURISTIC_POLICY = False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--playouts", type=int, default=1000, help="random playouts (default 1000)")
    parser.add_argument(
        "--search-playouts", type=int, default=288, help="search playouts (default 288; 0: none)"
    )
    parser.add_argument(
        "--seeds", type=int, default=2, help="starting positions per configuration (default 2)"
    )
    parser.add_argument(
        "--heuristic-policy",
        action="store_true",
        help="search playouts played by the heuristic, not the search's own policy",
    )
    args = parser.parse_args()
    global HEURISTIC_POLICY
    HEURISTIC_POLICY = args.heuristic_policy
    positions = starting_positions(args.seeds)
    actions = 0
    with Clocks() as clocks:
        for i in range(args.playouts):
            game = copy_for_search(positions[i % len(positions)], Dice(seed=i))
            actions += play_one_turn(game, i)
    print(f"playouts={args.playouts} actions={actions} {clocks.rates('playouts', args.playouts)}")
    if args.search_playouts > 0:
        positions_s = search_positions(1)
        for i, position in enumerate(positions_s):  # a search's process has played from such positions
            search_playout(position, WARM_SEED + i)
        total = 0.0
        with Clocks() as clocks:
            for i in range(args.search_playouts):  # a few in a row from each position, as a search does
                total += search_playout(positions_s[(i // PLAYOUTS_PER_POSITION) % len(positions_s)], i)
        print(
            f"search_playouts={args.search_playouts} positions={len(positions_s)} search_sum={total:.6f} "
            f"{clocks.rates('search_playouts', args.search_playouts)}"
        )


class Clocks:
    """The wall-clock and the process's CPU seconds of a block: on a shared machine the CPU seconds
    are the steadier figure (the wall clock also counts the time other processes had the core)."""

    def __enter__(self) -> Clocks:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *_: object) -> None:
        self.wall, self.cpu = time.perf_counter() - self.wall, time.process_time() - self.cpu

    def rates(self, name: str, count: int) -> str:
        return (
            f"seconds={self.wall:.3f} cpu_seconds={self.cpu:.3f} {name}_per_s={count / self.wall:.1f} "
            f"{name}_per_cpu_s={count / self.cpu:.1f}"
        )


if __name__ == "__main__":
    main()
