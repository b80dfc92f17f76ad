"""Playing a study's games: seeds, batches, executors and the progress bar.

Every game's seed is drawn here, in the driver, from the study's seed and the game's number alone, and a
game is played from nothing but its seed and the study: so the same study gives the same games in this
process, in a pool of processes or on a Dask cluster, however many workers and in whatever order batches
finish. A batch is a run of game numbers played by one task (`play_batch`, a top-level function that
pickles by name, as spawned processes and Dask workers need). Before playing, a worker compares its
cards and maps with the driver's and refuses to play with others: their games would not be the study's.
"""

from __future__ import annotations

import concurrent.futures
import functools
import hashlib
import importlib
import multiprocessing
import os
import random
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import attrs

import minis
from minis.ai.army_maker import army_for_scenario, make_army
from minis.ai.bot import play_out
from minis.ai.registry import make_bot
from minis.base.errors import MinisError, Problem
from minis.base.sides import Side
from minis.base.worker_watch import end_with_parent
from minis.cards import card_catalogue
from minis.content.rule_sets import RuleSet
from minis.dice import Dice
from minis.engine.scenario import Scenario, load_scenario, start_game
from minis.game import Game
from minis.lab.study import DEFAULT_PLAYOUTS, ArmyDraw, Study, attackers, card_pool, scenario_fingerprint
from minis.mapfile import load_configuration
from minis.record import cards_version, maps_version
from minis.rules.victory import points
from minis.state import Phase

#: Phases before a turn's first player is known.
_BEFORE_FIRST = (Phase.SETUP, Phase.INITIATIVE)
#: Parts of the package (relative to it) that play no part in a lab game: left out of the engine's digest,
#: so that a change to the window, the command line or the report does not count as another engine.
NOT_ENGINE = ("ui/", "commands/", "lab/report.py", "lab/store.py")


class GameRow(NamedTuple):
    """One played game, as stored (the columns of the `games` table, in order)."""

    game: int
    seed: int
    configuration: int
    first: str
    winner: str
    turns: int
    axis_points: int
    allies_points: int
    axis_units: list[str]
    allies_units: list[str]
    axis_cost: int
    allies_cost: int
    engine_version: str  # the minis package version of the process that played the game
    engine_digest: str  # and a digest of its sources (`engine`)


@attrs.frozen
class BatchSpec:
    """Everything a worker needs to play a batch of games, and the versions it must have."""

    games: tuple[tuple[int, int], ...]  # (game number, game seed)
    bots: tuple[str, str]
    rules: RuleSet
    configurations: tuple[int, ...]
    turn_limit: int
    armies: tuple[ArmyDraw, ArmyDraw]  # the Axis draw, the Allied draw
    cards_version: str
    maps_version: str
    scenario: str | None = None  # as the study has it: a shipped scenario's name or an absolute path
    scenario_sha256: str = ""
    playouts: int = DEFAULT_PLAYOUTS  # the search bot's playouts a decision (it never reads the clock)


class WorkerMismatch(Exception):
    """A worker's cards or maps differ from the driver's (one text argument, so it pickles back)."""


def game_seed(study_seed: int, game: int) -> int:
    """The seed of game number `game`: from the study's seed and the number only."""
    return random.Random(f"{study_seed}:{game}").randrange(2**63)


@functools.cache
def versions() -> tuple[str, str]:
    """This process's cards and maps fingerprints (every card of the catalogue, every map file), worked
    out once a process."""
    return cards_version(card_catalogue()), maps_version()


@functools.cache
def engine() -> tuple[str, str]:
    """The engine that plays this process's games: the package version and the first 16 hex digits of the
    sha256 of its sources (every .py file of the package but NOT_ENGINE, by their sorted paths), worked
    out once a process (about 1 MB read). Stored with every game, so that a report can say when a study's
    games were played by different engines: the version alone does not change when the code does."""
    root = Path(minis.__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py"), key=lambda found: found.relative_to(root).as_posix()):
        name = path.relative_to(root).as_posix()
        if name.startswith(NOT_ENGINE):
            continue
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return minis.__version__, digest.hexdigest()[:16]


def batch_specs(study: Study, games: Sequence[int], driver_versions: tuple[str, str]) -> list[BatchSpec]:
    """The batches that play `games` (sorted numbers): runs of at most `study.batch` of them."""
    ordered = sorted(games)
    return [
        BatchSpec(
            games=tuple((game, game_seed(study.seed, game)) for game in ordered[start : start + study.batch]),
            bots=study.bots,
            rules=study.rules,
            configurations=study.configurations,
            turn_limit=study.turn_limit,
            armies=study.armies,
            cards_version=driver_versions[0],
            maps_version=driver_versions[1],
            scenario=study.scenario,
            scenario_sha256=study.scenario_sha256,
            playouts=study.playouts,
        )
        for start in range(0, len(ordered), study.batch)
    ]


def play_batch(spec: BatchSpec) -> list[GameRow]:
    """Play a batch's games (in any process): first check this process has the driver's cards and maps."""
    mine = versions()
    if mine != (spec.cards_version, spec.maps_version):
        raise WorkerMismatch(
            f"a worker has other cards or maps than this computer (cards {mine[0]}, maps {mine[1]}; "
            f"here: cards {spec.cards_version}, maps {spec.maps_version}): install the same minis there"
        )
    if spec.scenario is not None:
        scenario = _scenario(spec.scenario)
        if scenario_fingerprint(scenario) != spec.scenario_sha256:
            raise WorkerMismatch(
                f"a worker's scenario {spec.scenario} differs from this computer's: copy the same file there"
            )
    return [play_game(spec, game, seed) for game, seed in spec.games]


@functools.cache
def _scenario(reference: str) -> Scenario:
    """A study's scenario, read once a process."""
    return load_scenario(reference)


def play_game(spec: BatchSpec, number: int, seed: int) -> GameRow:
    """One game, from its seed: the armies, the dice, the bots' seeds and their views."""
    rng = random.Random(seed)
    dice_seed, view_seed, axis_seed, allies_seed, axis_army, allies_army = (
        rng.randrange(2**63) for _ in range(6)
    )
    draws = dict(zip((Side.AXIS, Side.ALLIES), spec.armies, strict=True))
    seeds = ((Side.AXIS, axis_army), (Side.ALLIES, allies_army))
    # printed costs (worth={}): the games must not depend on a table measured from games
    if spec.scenario is not None:
        scenario = _scenario(spec.scenario)
        choices = attackers(scenario)
        attacker = choices[number % len(choices)]
        armies = {
            side: army_for_scenario(
                scenario,
                side,
                random.Random(army_seed),
                attacker=attacker,
                cards=card_pool(draws[side].cards),
                worth={},
                greed=draws[side].greed,
                candidates=draws[side].candidates,
            )
            for side, army_seed in seeds
        }
        if scenario.doc.turns is None:  # a scenario without a turn limit ends at the study's
            scenario = attrs.evolve(scenario, doc=attrs.evolve(scenario.doc, turns=spec.turn_limit))
        game = start_game(
            scenario, armies[Side.AXIS], armies[Side.ALLIES], attacker=attacker, dice=Dice(seed=dice_seed)
        )
    else:
        armies = {
            side: make_army(
                card_pool(draws[side].cards),
                side,
                draws[side].points_for(army_seed),
                rng=random.Random(army_seed),
                year=draws[side].year,
                historical=draws[side].historical,
                rules=spec.rules,
                worth={},
                greed=draws[side].greed,
                candidates=draws[side].candidates,
            )
            for side, army_seed in seeds
        }
        game = Game.new(
            armies[Side.AXIS],
            armies[Side.ALLIES],
            configuration=spec.configurations[number % len(spec.configurations)],
            dice=Dice(seed=dice_seed),
            turn_limit=spec.turn_limit,
            load_board=load_configuration,
            rules=spec.rules,
        )
    # by a count of playouts, never by the clock, and in this process (the lab plays games side by side):
    # the same game on a quiet machine or a loaded one
    bots = {
        Side.AXIS: make_bot(spec.bots[0], axis_seed, workers=0, playouts=spec.playouts),
        Side.ALLIES: make_bot(spec.bots[1], allies_seed, workers=0, playouts=spec.playouts),
    }
    first: list[Side] = []

    def note_first(game: Game) -> None:  # the side that took turn 1 first (set-up has its own)
        state = game.state
        if not first and state.first is not None and state.phase not in _BEFORE_FIRST:
            first.append(state.first)

    play_out(game, bots, seeds=random.Random(view_seed), after=note_first)
    state = game.state
    catalogue = card_catalogue()
    side_first = first[0] if first else state.first
    return GameRow(
        game=number,
        seed=seed,
        configuration=state.configuration or 0,  # 0: a scenario's own map
        first=side_first.value if side_first is not None else "none",
        winner=state.winner.value if state.winner is not None else "draw",
        turns=state.turn,
        axis_points=points(state, Side.AXIS),
        allies_points=points(state, Side.ALLIES),
        axis_units=list(armies[Side.AXIS].units),
        allies_units=list(armies[Side.ALLIES].units),
        axis_cost=sum(int(catalogue[unit].cost) for unit in armies[Side.AXIS].units),
        allies_cost=sum(int(catalogue[unit].cost) for unit in armies[Side.ALLIES].units),
        engine_version=engine()[0],
        engine_digest=engine()[1],
    )


@contextmanager
def executor(workers: int, scheduler: str | None) -> Iterator[concurrent.futures.Executor | None]:
    """Where batches run: None (this process) for 0 workers, a Dask cluster's executor for a scheduler
    address, else a pool of `workers` spawned processes (spawned: the driver holds a database open)."""
    if scheduler is not None:
        try:  # Dask's client has no type hints: its module is used as Any
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise MinisError(
                Problem("lab", 0, 0, "running on a cluster needs Dask: pip install minis[cluster]")
            ) from None
        try:
            client = distributed.Client(scheduler, timeout="20s")
        except OSError as error:
            raise MinisError(Problem("lab", 0, 0, f"no Dask scheduler at {scheduler}: {error}")) from None
        try:
            yield client.get_executor(pure=False)
        finally:
            client.close()
        return
    if workers == 0:
        yield None
        return
    pool = concurrent.futures.ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_worker_start,
        initargs=(os.getpid(),),
    )
    try:
        yield pool
    except BaseException:  # Ctrl-C, a dead worker, a refusal: the batches under way are lost anyway
        _stop_workers(pool)  # then the shutdown below finds them gone and fails the rest at once
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _worker_start(parent: int) -> None:
    """A pool worker: Ctrl-C is the run's to handle (the terminal sends it to every process of the run),
    and a killed run leaves no worker behind."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with_parent(parent)


def _stop_workers(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """End the pool's workers now, rather than wait for the batches they are playing (minutes with the
    search bot): their games were not stored and will be played again by the next run."""
    processes: Any = getattr(pool, "_processes", None) or {}  # the executor has no public way
    for process in list(processes.values()):
        if process.is_alive():
            process.terminate()


@contextmanager
def _ctrl_c() -> Iterator[list[bool]]:
    """While batches are awaited, Ctrl-C only sets a flag (a non-empty list) that the loop reads between
    waits: a KeyboardInterrupt raised inside the executor's own locks could leave it hanging."""
    flag: list[bool] = []
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield flag  # not ours to change (another thread, or Ctrl-C ignored or handled by the caller)
        return
    previous = signal.signal(signal.SIGINT, lambda number, frame: flag.append(True))
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous)


def run_batches(
    specs: Sequence[BatchSpec],
    where: concurrent.futures.Executor | None,
    done: Callable[[list[GameRow]], None],
) -> None:
    """Play every batch, calling `done` with each batch's rows as it finishes (in this process)."""
    if where is None:
        for spec in specs:
            done(play_batch(spec))
        return
    futures = [where.submit(play_batch, spec) for spec in specs]
    pending = set(futures)
    try:
        with _ctrl_c() as stop:
            while pending:
                finished, pending = concurrent.futures.wait(
                    pending, timeout=0.25, return_when=concurrent.futures.FIRST_COMPLETED
                )
                for future in sorted(finished, key=futures.index):
                    done(future.result())
                if stop:
                    raise KeyboardInterrupt
    finally:
        # A process pool's own thread cancels or fails its futures (`executor`): cancelling them here
        # too races with it when a worker died (Python 3.11 then prints a traceback from that thread).
        if not isinstance(where, concurrent.futures.ProcessPoolExecutor):
            for future in futures:
                future.cancel()


class Progress:
    """A one-line bar on stderr: games done of the study's total, games a second this run, time left."""

    def __init__(self, done: int, total: int, *, shown: bool, width: int = 30) -> None:
        self.done, self.total, self.shown, self.width = done, total, shown, width
        self.played = 0
        self.started = time.perf_counter()

    def add(self, games: int) -> None:
        self.done += games
        self.played += games
        if not self.shown:
            return
        elapsed = time.perf_counter() - self.started
        rate = self.played / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate else 0.0
        filled = self.width * self.done // max(self.total, 1)
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total} games  "
            f"{rate:.1f} games/s  {_duration(left)} left "
        )
        sys.stderr.flush()

    def close(self) -> None:
        if self.shown and self.played:
            sys.stderr.write("\n")


def _duration(seconds: float) -> str:
    whole = int(seconds + 0.5)
    hours, rest = divmod(whole, 3600)
    return f"{hours}h{rest // 60:02d}m" if hours else f"{rest // 60}m{rest % 60:02d}s"
