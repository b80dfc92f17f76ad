"""Twin games of two bots by name, reproducible to the die: the ladder's figures in seeded chunks.

    PYTHONPATH=. nice -n 5 python tools/paired_ladder.py hard heuristic --pairs 12 --seed 41 --playouts 64

Each pair: the same configuration (1-6 in turn), computer-built armies (100 points, the card-values
table as `minis match` builds them), dice and bot seeds; bot A on the Axis side in the first game and on
the Allied side in the second. Every bot plays in this process (`workers=0`) and a search decides by
its count of playouts (`--playouts`, never the clock), so a chunk's result depends only on its seeds.
Prints each pair as it ends, then A's score with its 95% Wilson interval, the twin pairs (both won,
split, both lost) and each bot's median and longest time a decision (CPU seconds of the process: one core's).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Mapping

from minis.ai.bot import Bot
from minis.ai.registry import make_bot
from minis.ai.twins import TwinPairs, play_twin_pairs
from minis.base.sides import Side
from minis.commands.match import wilson
from minis.commands.simulate import DEFAULT_TURN_LIMIT
from minis.engine import actions as A
from minis.game import Game


class Timed:
    """A bot whose decisions are timed: seconds of this process's CPU (one core's time, whatever else
    runs on the machine; every bot here plays in this process)."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot = bot
        self.name = bot.name
        self.times = times

    def choose(self, game: Game) -> A.Action:
        began = time.process_time()
        try:
            return self.bot.choose(game)
        finally:
            self.times.append(time.process_time() - began)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--pairs", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playouts", type=int, default=None, help="a search's playouts a decision")
    args = parser.parse_args(argv)
    times: dict[str, list[float]] = {args.a: [], args.b: []}

    def bots(a_side: Side, seeds: Mapping[Side, int]) -> dict[Side, Bot]:
        names = {a_side: args.a, a_side.other: args.b}
        return {
            side: Timed(
                make_bot(names[side], seeds[side], workers=0, playouts=args.playouts), times[names[side]]
            )
            for side in Side
        }

    def said(pair: int, twin: list[float]) -> None:
        timing = ", ".join(
            f"{name} median {1000 * statistics.median(found):.1f} ms max {1000 * max(found):.0f} ms"
            for name, found in times.items()
            if found
        )
        where = f"pair {pair} (configuration {1 + pair % 6})"
        print(f"{where}: {args.a} scored {twin}; so far {timing}", flush=True)

    scores = play_twin_pairs(bots, args.pairs, args.seed, DEFAULT_TURN_LIMIT, said)
    pairs = TwinPairs.of(scores)
    won, split, lost = pairs.a_won_both, pairs.split, pairs.b_won_both
    mean = sum(scores) / len(scores)
    low, high = wilson(mean, len(scores))
    wins = sum(1 for s in scores if s == 1.0)
    draws = sum(1 for s in scores if s == 0.5)
    for name, found in times.items():
        if found:
            print(
                f"{name}: median {1000 * statistics.median(found):.1f} ms, max {1000 * max(found):.0f} ms "
                f"a decision ({len(found)} decisions)"
            )
    print(f"twin pairs: {won} both won, {split} split, {lost} both lost")
    print(
        f"{args.a} vs {args.b} (seed {args.seed}, playouts {args.playouts}): {args.a} scores {mean:.2f} "
        f"({wins}-{len(scores) - wins - draws}-{draws} of {len(scores)}), 95% CI [{low:.2f}, {high:.2f}]"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
