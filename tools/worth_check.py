"""Does the card-values table make the computer's armies stronger? Heuristic against heuristic, side by side.

For each pair of games both sides' armies are drawn twice from the same seeds: once with the shipped
card-values table (`minis.content.card_worth`, what the computer does) and once with printed costs only
(`worth={}`). The first game gives the Axis the table's army and the Allies the printed-cost one; the second
the other way round, with the same dice, map and bot seeds. Both sides are played by the heuristic bot, so the
only difference is how the armies were built. Prints the table's armies' score with its Wilson 95% interval (a
win 1, a draw 0.5), in the form of `minis match`.

    python tools/worth_check.py --pairs 200 --seed 1 --workers 2
"""

from __future__ import annotations

import argparse
import concurrent.futures
import multiprocessing
import random
import sys

from minis.ai.army_maker import make_army
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.commands.match import MATCH_POINTS, GameSpec, play_game, summary
from minis.content.card_worth import shipped_worth

CONFIGURATIONS = (1, 2, 3, 4, 5, 6)


def specs(pairs: int, seed: int) -> list[GameSpec]:
    """Two games a pair: the table's army on the Axis side, then on the Allied side."""
    rng = random.Random(seed)
    cards = card_catalogue()
    table = shipped_worth()
    games: list[GameSpec] = []
    for pair in range(pairs):
        dice_seed, view_seed = rng.randrange(2**63), rng.randrange(2**63)
        bot_seeds = (rng.randrange(2**63), rng.randrange(2**63))
        army_seeds = {side: rng.randrange(2**63) for side in (Side.AXIS, Side.ALLIES)}
        built = {
            (side, measured): make_army(
                cards,
                side,
                MATCH_POINTS,
                rng=random.Random(army_seeds[side]),
                worth=table if measured else {},
            )
            for side in (Side.AXIS, Side.ALLIES)
            for measured in (True, False)
        }
        for table_side in (Side.AXIS, Side.ALLIES):
            games.append(
                GameSpec(
                    number=len(games),
                    names=("heuristic", "heuristic"),  # bot A plays the table's army
                    a_side=table_side,
                    axis=built[(Side.AXIS, table_side is Side.AXIS)],
                    allies=built[(Side.ALLIES, table_side is Side.ALLIES)],
                    configuration=CONFIGURATIONS[pair % len(CONFIGURATIONS)],
                    dice_seed=dice_seed,
                    view_seed=view_seed,
                    bot_seeds=bot_seeds,
                    budget=None,
                    workers=1,
                )
            )
    return games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--pairs", type=int, default=100, help="pairs of games (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if not shipped_worth():
        print("no card-values table ships: nothing to compare", file=sys.stderr)
        return 1
    games = specs(args.pairs, args.seed)
    same = sum(
        a.axis.units == b.axis.units and a.allies.units == b.allies.units
        for a, b in zip(games[::2], games[1::2], strict=True)
    )
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(args.workers, mp_context=context) as pool:
        results = list(pool.map(play_game, games))
    print(f"{same} of {args.pairs} pairs had the same armies both ways")
    print(summary(("table", "printed"), [result.score for result in results]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
