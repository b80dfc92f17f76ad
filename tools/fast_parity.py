"""Play seeded games and playouts and print what they came to, as JSON: tests/test_fast_parity.py runs it
on the pure sources (`MINIS_FAST=0`) and on the fast build (`MINIS_FAST=1`) and compares the two.

What it prints: the build it ran on (and the compiled modules that really are extension modules, and
the build a spawned worker process runs, as the search's workers are started), the
hash of each seeded random game's record (configurations 1-6; with a 2008 rule set too), of heuristic
games (each side deciding from its view, as `minis match` plays), the values of seeded search playouts
(`repr`: every bit), a few counted search decisions, and the outcome of every rules-test file of
tests/rules/ (the pure sources pass them all; the fast build once failed 28 on aircraft, and a
Strike and Fade game went otherwise). `--quick`: one game of each, fewer playouts, 20 rules files.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import importlib
import json
import multiprocessing
import random
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from minis.base import fast  # noqa: E402  (the tools folder first: playout_speed below)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="one game of each and a few playouts")
    quick = parser.parse_args().quick
    compiled = sorted(
        name
        for name in fast.COMPILED
        if str(importlib.import_module(name).__file__).endswith(tuple(EXTENSION_SUFFIXES))
    )
    from minis.ai.bot import play_out
    from minis.ai.heuristic import HeuristicBot
    from minis.ai.random_bot import RandomBot
    from minis.ai.search import SearchBot
    from minis.army import load_army
    from minis.base.sides import Side
    from minis.content.rule_sets import named
    from minis.dice import Dice
    from minis.game import Game
    from minis.record import record_text

    axis = load_army(ROOT / "armies" / "sample-axis.toml")
    allies = load_army(ROOT / "armies" / "sample-allies.toml")

    def digest(game: Game) -> str:
        return hashlib.sha256(record_text(game).encode()).hexdigest()[:16]

    random_games = []
    for seed in range(1 if quick else 12):
        rules = named("2008") if seed % 4 == 3 else None
        game = Game.new(axis, allies, configuration=1 + seed % 6, dice=Dice(seed=seed), rules=rules)
        bot = RandomBot(seed)
        while game.decider() is not None:
            game.apply(bot.choose(game))
        random_games.append(digest(game))
    heuristic_games = []
    for seed in range(1 if quick else 3):
        game = Game.new(axis, allies, configuration=1 + seed, dice=Dice(seed=100 + seed), turn_limit=6)
        bots = {side: HeuristicBot(seed * 2 + (side is Side.AXIS)) for side in Side}
        play_out(game, bots, seeds=random.Random(seed))  # type: ignore[arg-type]
        heuristic_games.append(digest(game))
    import playout_speed

    positions = playout_speed.search_positions(1)[: 6 if quick else 36]
    search = [repr(playout_speed.search_playout(position, seed)) for seed, position in enumerate(positions)]
    decisions = []
    for seed, (position, _) in enumerate(positions[: 2 if quick else 8]):
        bot = SearchBot(seed, workers=0, playouts=8)
        decisions.append(repr(bot.choose(position)))
    # a search's worker: a spawned process, which imports `minis` first (MINIS_FAST inherited)
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        worker_build = "fast" if pool.submit(fast.installed).result() else "pure"
    from minis.rulestest import find_files, run_file

    files = find_files([ROOT / "tests" / "rules"])
    rules = {}
    for path in files[:: max(1, len(files) // 20)] if quick else files:
        outcome = run_file(path)
        rules[path.relative_to(ROOT).as_posix()] = outcome.reason if not outcome.passed else "passed"
    result = {
        "build": "fast" if fast.installed() else "pure",
        "worker_build": worker_build,
        "compiled": compiled,
        "random": random_games,
        "heuristic": heuristic_games,
        "search": search,
        "decisions": decisions,
        "rules": rules,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
