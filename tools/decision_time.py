"""How long the improved search takes a decision at a count of playouts, on one core.

    PYTHONPATH=. nice -n 5 python tools/decision_time.py --playouts 64,256 --every 12

The positions: every `--every`-th decision of the ACT stage from turn 2 on, up to turn 9, of three
games between two heuristic bots (sample armies: Axis against Allies on configuration 1, German
against American on 4, Japanese against British on 2; seeded dice). Not the hidden ladder armies:
they stay out of everything but the ladder (tests/test_match_ladder.py).

For each count, a `SharpBot` (seeded by the position's index, `workers=0`, no clock, its playouts
`--turns` turns long)
decides each position once; printed: its median, 90th percentile and longest CPU seconds a decision
(the process's own time: one core's, whatever else runs), its mean playouts a decision and how many of
its choices differ from the heuristic's first (its playouts overturned it). What the
window's `hard` (`minis.ai.strength`) must keep: a median well under a second on one core.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from minis.ai.heuristic import HeuristicBot
from minis.ai.sharp import SharpBot
from minis.army import load_army
from minis.base.sides import Side
from minis.dice import Dice
from minis.game import Game
from minis.state import Phase, Stage

ROOT = Path(__file__).resolve().parent.parent
#: (Axis army, Allied army, configuration, seed) of armies/sample-*.toml
GAMES = (("axis", "allies", 1, 1), ("german", "american", 4, 3), ("japanese", "british", 2, 5))


def positions(every: int) -> list[Game]:
    found: list[Game] = []
    for axis_name, allies_name, configuration, seed in GAMES:
        axis = load_army(ROOT / "armies" / f"sample-{axis_name}.toml")
        allies = load_army(ROOT / "armies" / f"sample-{allies_name}.toml")
        game = Game.new(axis, allies, configuration=configuration, dice=Dice(seed=seed))
        bots = {Side.AXIS: HeuristicBot(seed * 10), Side.ALLIES: HeuristicBot(seed * 10 + 1)}
        seen = 0
        while not game.over and game.state.turn <= 9:
            side = game.decider()
            if side is None:
                break
            state = game.state
            if state.stage is Stage.ACT and state.phase is not Phase.SETUP and state.turn >= 2:
                seen += 1
                if seen % every == 0:
                    found.append(game.copy())
            game.apply(bots[side].choose(game))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--playouts", default="64,256", help="counts, comma-separated (default 64,256)")
    parser.add_argument("--every", type=int, default=12, help="take every N-th decision (default 12)")
    parser.add_argument("--turns", type=int, default=1, help="the turns a playout plays (default 1)")
    args = parser.parse_args()
    found = positions(max(1, args.every))
    print(f"{len(found)} positions")
    for count in (int(word) for word in args.playouts.split(",")):
        times: list[float] = []
        playouts: list[int] = []
        changed = 0
        for index, position in enumerate(found):
            bot = SharpBot(index, workers=0, playouts=count, turns=args.turns)
            began = time.process_time()
            chosen = bot.choose(position.copy())
            times.append(time.process_time() - began)
            playouts.append(bot.playouts)
            changed += bool(bot.scored) and chosen != bot.scored[0][0]
        times.sort()
        print(
            f"playouts={count} turns={args.turns} median={statistics.median(times):.3f}s "
            f"mean={statistics.mean(times):.3f}s "
            f"p90={times[int(len(times) * 0.9)]:.3f}s longest={times[-1]:.3f}s "
            f"mean_playouts={statistics.mean(playouts):.1f} not_the_heuristics_first={changed}",
            flush=True,
        )


if __name__ == "__main__":
    main()
