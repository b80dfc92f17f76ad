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
        "values": value_checks(),
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


def value_checks() -> dict[str, bool]:
    """What the engine's values must do on either build (each True): equality, hashing, copies and
    pickling of the classes the fast build makes native with their dunder methods written out
    (`Unit`, `GameState`, `MoveProgress`, the playouts' actions, `Step`, `PathPlan`), and the unit copy
    that the fast build makes field by field (`GameState.update`)."""
    import copy
    import pickle

    import attrs

    from minis.ai.playout import pack, unpack
    from minis.army import load_army
    from minis.dice import Dice
    from minis.engine import actions as A
    from minis.game import Game
    from minis.hexgrid import Facing, Hex
    from minis.rules.movement import PathPlan, Step
    from minis.state import Counter, MoveProgress

    game = Game.new(
        load_army(ROOT / "armies" / "sample-axis.toml"),
        load_army(ROOT / "armies" / "sample-allies.toml"),
        configuration=1,
        dice=Dice(seed=1),
    )
    state = game.state
    unit = next(iter(state.units.values()))
    twin = attrs.evolve(unit)
    changes = {
        "hex": Hex(3, 4),
        "facing": Facing.NE,
        "disrupted": True,
        "damaged": True,
        "pending": (Counter.DISRUPTED,),
        "carried_by": "someone",
        "removed": True,
        "entered": 7,
    }
    clone = state.clone()
    updated = clone.update(unit.id, **changes)
    move = MoveProgress("u", (Hex(0, 0), Hex(1, 0)), Facing.E, None, step=1, rolls=(("forest",),))
    actions: list[object] = [
        A.Move("u", (Hex(0, 0), Hex(1, 0)), Facing.E),
        A.Face("u", Facing.W),
        A.Attack("u", "t"),
        A.Hold(),
        A.Pass(),
    ]
    plan = PathPlan((Step(1, False, ("forest",)), Step(0, True, ())), 1, 1)
    return {
        "unit equal to its copy": twin == unit and twin is not unit and [twin] == [unit],
        "unit hash of equal units": hash(twin) == hash(unit),
        "unit unequal when a field differs": all(
            attrs.evolve(unit, **{name: value}) != unit for name, value in changes.items()
        ),
        "unit pickled and copied": pickle.loads(pickle.dumps(unit)) == unit and copy.deepcopy(unit) == unit,
        "unit repr names its fields": repr(unit).startswith(f"Unit(id={unit.id!r}, card="),
        "update changes those fields only": updated == attrs.evolve(unit, **changes)
        and clone.units[unit.id] is updated
        and state.units[unit.id] is unit,
        "state equal to its clone": clone != state and state.clone() == state,
        "state packed for a worker": unpack(pack(game)).state.snapshot() == state.snapshot(),
        "move progress copied and pickled": move.but() == move
        and move.but() is not move
        and pickle.loads(pickle.dumps(move)) == move
        and MoveProgress("u", move.path, Facing.E, None) != move,
        "actions equal, hashed and pickled": all(
            pickle.loads(pickle.dumps(action)) == action and hash(copy.copy(action)) == hash(action)
            for action in actions
        )
        and len(set(actions)) == len(actions)
        and A.Move("u", (Hex(0, 0),)) != A.Move("u", (Hex(0, 0),), Facing.E),
        "action reprs": [repr(a) for a in actions[1:]]
        == [f"Face(unit='u', facing={Facing.W!r})", "Attack(unit='u', target='t')", "Hold()", "Pass()"],
        "plans equal and pickled": pickle.loads(pickle.dumps(plan)) == plan
        and plan.rolls == (("forest",), ())
        and plan.roads == (False, True)
        and plan != PathPlan(plan.steps, 2, 1),
    }


if __name__ == "__main__":
    main()
