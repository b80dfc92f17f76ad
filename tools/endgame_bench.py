"""The end-position benchmark: how often each bot's choice is an optimal one (docs/ai.md).

    nice -n 5 python tools/endgame_bench.py [--positions 200] [--seed 1] [--bots heuristic,search]
                                            [--max-nodes 3000] [--playouts N] [--both-phases]

Plays seeded games between heuristic bots, takes every decision of the second player's assault phase
from turn 7 on (--both-phases: both assault phases), cut to three units a side and ending at the end
of that turn (`minis.ai.endgame`), solves each exactly (`minis solve`'s solver) and asks every bot
named (any name `minis.ai.registry.make_bot` knows) for its choice from its side's view. Only
positions where the choice matters are counted (some legal decision is worse than the best); positions
beyond --max-nodes are skipped and counted. Prints, per bot: how often its choice is optimal (within
1e-9 of the best value), the mean value lost over all positions and over its mistakes, and the
largest loss; the figures so far every 25 positions.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from minis.ai.endgame import positions, solved, verdicts
from minis.ai.registry import make_bot


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=200, help="positions to count (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games and the bots (default 1)")
    parser.add_argument("--bots", default="heuristic,search", help="bots, comma-separated")
    parser.add_argument("--max-nodes", type=int, default=3_000, help="solver cap a position (default 3000)")
    parser.add_argument("--playouts", type=int, default=None, help="playouts a decision for search bots")
    parser.add_argument("--verbose", action="store_true", help="one line per position")
    parser.add_argument(
        "--both-phases", action="store_true", help="the first player's assault phase too (slower to solve)"
    )
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.bots.split(",") if name.strip()]
    losses: dict[str, list[float]] = {name: [] for name in names}
    # Each bot made once, deciding in this process (a search bot's own workers: none).
    bots = {name: make_bot(name, args.seed, workers=0, playouts=args.playouts) for name in names}
    nodes: list[int] = []
    skipped = trivial = 0
    began = time.monotonic()
    for number, game in enumerate(positions(args.seed, both=args.both_phases)):
        if len(nodes) >= args.positions:
            break
        solution = solved(game, args.max_nodes)
        if solution is None:
            skipped += 1
            continue
        if solution.choices[-1].value == solution.value:
            trivial += 1  # every decision is as good as the best: nothing to measure
            continue
        chosen = verdicts(game, solution, bots, args.seed * 1_000_003 + number, args.max_nodes)
        nodes.append(solution.nodes)
        for verdict in chosen:
            losses[verdict.bot].append(float(verdict.loss))
        if args.verbose:
            said = "; ".join(f"{v.bot}: {v.notation} (-{float(v.loss):.4f})" for v in chosen)
            if len(nodes) % 25 == 0:
                report(names, losses, nodes, trivial, skipped, args, time.monotonic() - began)
            print(
                f"{len(nodes):4d} turn {game.state.turn} {game.decider()} best {solution.best.notation} "
                f"{float(solution.value):.4f} [{said}] {solution.nodes} nodes",
                flush=True,
            )
    if not nodes:
        print("no position solved", file=sys.stderr)
        return 1
    report(names, losses, nodes, trivial, skipped, args, time.monotonic() - began)
    return 0


def report(
    names: list[str],
    losses: dict[str, list[float]],
    nodes: list[int],
    trivial: int,
    skipped: int,
    args: argparse.Namespace,
    elapsed: float,
) -> None:
    """The figures so far: the positions, then one line per bot."""
    count = len(nodes)
    print(
        f"{count} positions (seed {args.seed}; {trivial} where every decision is as good left out, "
        f"{skipped} beyond {args.max_nodes} nodes skipped); solver nodes median "
        f"{statistics.median(nodes):.0f}, max {max(nodes)}; {elapsed:.0f} s"
    )
    for name in names:
        lost = losses[name]
        mistakes = [x for x in lost if x > 1e-9]
        optimal = count - len(mistakes)
        print(
            f"{name}: optimal {optimal}/{count} ({optimal / count:.1%}), "
            f"mean loss {statistics.fmean(lost):.4f}, "
            f"mean loss of a mistake {statistics.fmean(mistakes) if mistakes else 0.0:.4f}, "
            f"max loss {max(lost):.4f}",
            flush=True,
        )


if __name__ == "__main__":
    sys.exit(main())
