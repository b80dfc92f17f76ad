"""`minis match BOT_A BOT_B --games N --seed S`: two bots play N games; BOT_A's score as a number.

Games come in twins: the same map, dice seed, armies and bot seeds, with BOT_A on the Axis side in
the first and on the Allied side in the second, so neither bot is favoured by a side or a seed. Every
seed is drawn up front from --seed and each game is played from its own, so the result is the same
however many worker processes play them. The last line is BOT_A's score (a win 1, a draw 0.5) with
its Wilson 95% interval; the line before it counts the twin pairs BOT_A won both games of, split, and
lost both of (a bot better than the other wins pairs; a split pair was decided by the armies or the
dice), and the lines before that give each bot's median and longest time a decision.
`--rules NAME` plays every game under a named rule set, the armies the computer builds within its
limits (at its usual army size: 200 points from 2008 on).

A ladder takes hours, so it is played in chunks (`--seed`, `--games`, `--first-pair`): `--summary
FILE` writes a chunk's result as JSON, which `tools/ladder_pool.py` pools; `--records DIR` keeps
every game's record for `minis replay`; `--armies` draws balanced or mirrored armies or plays a
folder of army files (`minis.ai.ladder_armies`; `ladder`: the ladder's hidden test armies).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import attrs

from minis.ai import playout
from minis.ai.army_maker import make_army
from minis.ai.bot import Bot, play_out
from minis.ai.fingerprint import play_fingerprint
from minis.ai.ladder_armies import ArmyFolder, balanced_pair, ladder_folder, mirrored_pair, read_folder
from minis.ai.registry import BOT_NAMES, UnknownBot, make_bot, playouts_of, turns_of
from minis.ai.twins import TwinPairs
from minis.army import Army, load_army, playable_problems
from minis.base.atomic import write_atomic
from minis.base.errors import MinisError, Problem, did_you_mean, unreadable
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.commands import Subparsers
from minis.commands.batch import fewer_collections, progress_bar
from minis.commands.simulate import DEFAULT_TURN_LIMIT, add_rules_option, chosen_rules
from minis.content.rule_sets import RULEBOOK, RuleSet
from minis.dice import Dice
from minis.engine import actions as A
from minis.game import Game
from minis.mapfile import load_configuration

#: The configurations `--all-configs` cycles through, one per pair of twin games.
CONFIGURATIONS = tuple(range(1, 7))
#: z of a two-sided 95% interval.
Z95 = 1.959963984540054
#: Points an army the computer builds for a match may spend (the Standard scenario's) under the 2005
#: rules; under another set, its usual army size (`RuleSet.point_levels[0]`).
MATCH_POINTS = 100
#: The armies `--armies` names (anything else is a folder of army files).
ARMY_SOURCES = ("built", "balanced", "mirrored", "ladder")
#: The version of the `--summary` file's layout (tools/ladder_pool.py refuses others).
SUMMARY_FORMAT = 1
#: Decision times are kept in the summary as counts in buckets of a 16th of a doubling (4.4% wide),
#: so chunks pool to a median within a few percent in a file of a few kilobytes.
BUCKETS_PER_DOUBLING = 16


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("match", help="two bots play many games; the first one's score")
    parser.add_argument("bot_a", metavar="BOT_A", help=", ".join(BOT_NAMES))
    parser.add_argument("bot_b", metavar="BOT_B", help=", ".join(BOT_NAMES))
    parser.add_argument("--games", type=int, default=100, metavar="N", help="how many games (default 100)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the whole run (default 0)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--config", type=int, choices=CONFIGURATIONS, metavar="C", help="battle map configuration 1-6"
    )
    where.add_argument(
        "--all-configs", action="store_true", help="cycle configurations 1-6 (default: rolled each game)"
    )
    parser.add_argument("--axis", type=Path, metavar="ARMY", help="the Axis army file (default: built)")
    parser.add_argument("--allies", type=Path, metavar="ARMY", help="the Allied army file (default: built)")
    parser.add_argument(
        "--armies",
        default="built",
        metavar="SOURCE",
        help="built (default), balanced, mirrored, ladder (the hidden test armies) or a folder of army files",
    )
    parser.add_argument(
        "--first-pair",
        type=int,
        default=0,
        metavar="N",
        help="start at pair N of a folder's armies and of --all-configs (for chunks; default 0)",
    )
    parser.add_argument("--records", type=Path, metavar="DIR", help="write every game's record into DIR")
    parser.add_argument("--summary", type=Path, metavar="FILE", help="write the result as JSON (for pooling)")
    parser.add_argument(
        "--budget",
        type=float,
        metavar="SECONDS",
        help="the search bot's time a decision (with --playouts: a cap)",
    )
    parser.add_argument(
        "--playouts",
        type=int,
        metavar="N",
        help="the search bot decides by N playouts a decision (reproducible)",
    )
    parser.add_argument(
        "--turns",
        type=int,
        metavar="N",
        help="the search bot's playouts play N turns, this one first (default 1: to the end of this turn)",
    )
    parser.add_argument(
        "--workers", type=int, metavar="K", help="processes playing games (default: every core; 0: this one)"
    )
    add_rules_option(parser)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


@attrs.frozen
class GameSpec:
    """Everything one game is played from, so any process plays it the same."""

    number: int
    names: tuple[str, str]
    a_side: Side
    axis: Army
    allies: Army
    configuration: int | None
    dice_seed: int
    view_seed: int
    bot_seeds: tuple[int, int]
    budget: float | None
    workers: int | None
    rules: RuleSet | None = None
    playouts: int | None = None
    record: bool = False
    turns: int | None = None


@attrs.frozen
class GameResult:
    """One game's outcome for BOT_A (1 a win, 0.5 a draw, 0 a loss) and each bot's decision times."""

    number: int
    score: float
    times: tuple[tuple[float, ...], tuple[float, ...]]
    record: str | None = None


class _Timed:
    """A bot that notes how long each decision of the bot it wraps takes."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []

    def choose(self, game: Game) -> A.Action:
        started = time.perf_counter()
        action = self.bot.choose(game)
        self.times.append(time.perf_counter() - started)
        return action


def wilson(score: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a mean score over `games` games (draws count a half)."""
    if games < 1:
        raise ValueError("an interval needs at least one game")
    n = games
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def summary(names: tuple[str, str], scores: Sequence[float]) -> str:
    """The last line: `A vs B: A scores 0.xx (W-L-D of N), 95% CI [lo, hi]`."""
    wins, losses = scores.count(1.0), scores.count(0.0)
    draws = len(scores) - wins - losses
    mean = sum(scores) / len(scores)
    low, high = wilson(mean, len(scores))
    return (
        f"{names[0]} vs {names[1]}: {names[0]} scores {mean:.2f} ({wins}-{losses}-{draws} of {len(scores)}), "
        f"95% CI [{low:.2f}, {high:.2f}]"
    )


def play_game(spec: GameSpec) -> GameResult:
    """Play one game of the match (in this process or a worker's)."""
    return played_game(spec)[1]


def played_game(spec: GameSpec) -> tuple[Game, GameResult]:
    """Play one game of the match: the game at its end, and its result."""
    sides = (spec.a_side, spec.a_side.other)  # the sides of BOT_A and BOT_B
    bots = {}
    for name, side in zip(spec.names, sides, strict=True):
        seed = spec.bot_seeds[0 if side is Side.AXIS else 1]
        bot = make_bot(
            name, seed, budget=spec.budget, workers=spec.workers, playouts=spec.playouts, turns=spec.turns
        )
        bots[side] = _Timed(bot)
    game = Game.new(
        spec.axis,
        spec.allies,
        configuration=spec.configuration,
        dice=Dice(seed=spec.dice_seed),
        turn_limit=DEFAULT_TURN_LIMIT,
        load_board=load_configuration,
        rules=spec.rules,
    )
    play_out(game, dict(bots), seeds=random.Random(spec.view_seed))
    winner = game.winner
    score = 0.5 if winner is None else 1.0 if winner is spec.a_side else 0.0
    times = (tuple(bots[sides[0]].times), tuple(bots[sides[1]].times))
    record = None
    if spec.record:
        from minis.record import record_text

        record = record_text(game)
    return game, GameResult(spec.number, score, times, record)


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise MinisError(Problem("match", 0, 0, "--games must be at least 1"))
    if args.workers is not None and args.workers < 0:
        raise MinisError(Problem("match", 0, 0, "--workers must be 0 (this process) or more"))
    if args.budget is not None and not args.budget > 0:
        raise MinisError(Problem("match", 0, 0, "--budget must be more than 0 seconds"))
    if args.playouts is not None and args.playouts < 1:
        raise MinisError(Problem("match", 0, 0, "--playouts must be at least 1"))
    if args.turns is not None and args.turns < 1:
        raise MinisError(Problem("match", 0, 0, "--turns must be at least 1"))
    rules = chosen_rules(args.rules, "match")
    names = (args.bot_a, args.bot_b)
    for name in dict.fromkeys(names):
        try:
            make_bot(name, 0, budget=args.budget, workers=1, playouts=args.playouts, turns=args.turns)
        except UnknownBot as error:
            raise MinisError(Problem("match", 0, 0, str(error))) from None
    if args.first_pair < 0:
        raise MinisError(Problem("match", 0, 0, "--first-pair must be 0 or more"))
    if args.armies != "built" and (args.axis or args.allies):
        raise MinisError(Problem("match", 0, 0, "--armies cannot be given with --axis or --allies"))
    given = {Side.AXIS: _given_army(args.axis, Side.AXIS), Side.ALLIES: _given_army(args.allies, Side.ALLIES)}
    folder = _army_folder(args.armies)
    if args.config is not None:
        load_configuration(args.config)  # map problems are reported before the first game starts
    if args.records is not None:
        _records_folder(args.records)
    if args.summary is not None:
        _check_writable(args.summary.parent if str(args.summary.parent) else Path("."), args.summary)
    workers = (os.cpu_count() or 1) if args.workers is None else args.workers
    specs = game_specs(args, names, given, in_process=workers == 0, rules=rules, folder=folder)
    with fewer_collections():
        results = list(_played(specs, workers, progress=not args.quiet, records=args.records, seed=args.seed))
    for index, (name, label) in enumerate(zip(names, ("A", "B"), strict=True)):
        print(f"{name} ({label}): {_timing([t for result in results for t in result.times[index]])}")
    scores = [result.score for result in results]
    print(TwinPairs.of(scores).line())
    print(summary(names, scores))
    if args.summary is not None:
        text = json.dumps(chunk_summary(args, names, specs, results, folder), indent=1) + "\n"
        try:
            write_atomic(args.summary, text)
        except OSError as error:
            raise unreadable(
                str(args.summary), f"cannot write the summary: {error.strerror or error}"
            ) from None
    return 0


def _army_folder(source: str) -> ArmyFolder | None:
    """The folder of army files `--armies` names (None: the armies are drawn)."""
    if source in ("built", "balanced", "mirrored"):
        return None
    if source == "ladder":
        return read_folder(ladder_folder(), strict=True)
    if not Path(source).exists():
        hint = (
            did_you_mean(source, ARMY_SOURCES)
            or "built, balanced, mirrored, ladder or a folder of army files"
        )
        raise unreadable(source, "no such folder of army files", hint=hint)
    return read_folder(Path(source))


def _records_folder(folder: Path) -> None:
    """Make the records folder (and check it takes files) before any game is played."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise unreadable(str(folder), f"cannot make the records folder: {error.strerror or error}") from None
    _check_writable(folder, folder)


def _check_writable(folder: Path, named: Path) -> None:
    if not folder.is_dir():
        raise unreadable(str(named), "no such folder to write in")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise unreadable(str(named), "cannot write in this folder: permission denied")


def record_name(seed: int, number: int) -> str:
    """The file a game's record is written to: the run's seed and the game's number (0 first)."""
    return f"seed-{seed}-game-{number:04d}.rec"


def settings(
    args: argparse.Namespace, names: tuple[str, str], folder: ArmyFolder | None = None
) -> dict[str, object]:
    """What a chunk was played with, beside its seed: chunks pool only when these are equal (a folder's
    armies by their cards too, so a folder changed between chunks is another ladder; the rules' and
    the bots' play by `play_fingerprint`, so a chunk of code that plays otherwise is another too, and
    each bot's count of playouts, which two counts' alike choices can hide from the fingerprint, and,
    when any playout plays more than its turn, each bot's turns: absent, every playout plays one, so
    the chunks played before `--turns` pool with those after)."""
    turns = getattr(args, "turns", None)
    played: dict[str, object] = {
        "bots": list(names),
        "armies": args.armies,
        "armies_version": None if folder is None else folder.version(),
        "axis": None if args.axis is None else str(args.axis),
        "allies": None if args.allies is None else str(args.allies),
        "config": args.config,
        "all_configs": bool(args.all_configs),
        "budget": args.budget,
        "playouts": args.playouts,
        "rules": args.rules,
        "turn_limit": DEFAULT_TURN_LIMIT,
        "play": play_fingerprint(names, args.playouts, turns),
        "counts": [playouts_of(name, args.playouts) for name in names],
    }
    each = [turns_of(name, turns) for name in names]
    if any(t not in (None, 1) for t in each):
        played["turns"] = each
    return played


def command_line(args: argparse.Namespace, names: tuple[str, str]) -> str:
    """The command that plays this chunk again (the same games, given the same code), with the
    environment's leaf evaluation before it where the environment chose it (`MINIS_LEAF`: then it
    scores every search, the strengths' own leaves included)."""
    words = ["minis", "match", *names, "--games", str(args.games), "--seed", str(args.seed)]
    if playout.LEAF_FROM_ENVIRONMENT:
        words.insert(0, f"MINIS_LEAF={playout.EVALUATION}")
    if args.config is not None:
        words += ["--config", str(args.config)]
    if args.all_configs:
        words.append("--all-configs")
    for option, value in (
        ("--axis", args.axis),
        ("--allies", args.allies),
        ("--budget", args.budget),
        ("--playouts", args.playouts),
        ("--turns", getattr(args, "turns", None)),
        ("--rules", args.rules),
        ("--workers", args.workers),
        ("--records", args.records),
    ):
        if value is not None:
            words += [option, str(value)]
    if args.armies != "built":
        words += ["--armies", args.armies]
    if args.first_pair:
        words += ["--first-pair", str(args.first_pair)]
    return " ".join(words)


def time_buckets(times: Sequence[float]) -> dict[str, int]:
    """Decision times (seconds) as counts in buckets: key k holds times of 2**(k/16) ms up to the next."""
    counts: dict[int, int] = {}
    for seconds in times:
        key = math.floor(math.log2(max(seconds * 1000, 1e-6)) * BUCKETS_PER_DOUBLING)
        counts[key] = counts.get(key, 0) + 1
    return {str(key): counts[key] for key in sorted(counts)}


def chunk_summary(
    args: argparse.Namespace,
    names: tuple[str, str],
    specs: Sequence[GameSpec],
    results: Sequence[GameResult],
    folder: ArmyFolder | None = None,
) -> dict[str, object]:
    """A chunk's result as `--summary` writes it (tools/ladder_pool.py reads it)."""
    scores = [result.score for result in results]
    pairs = TwinPairs.of(scores)
    times: dict[str, object] = {}
    for index, label in enumerate(("A", "B")):
        own = [t for result in results for t in result.times[index]]
        times[label] = {
            "decisions": len(own),
            "median_ms": round(statistics.median(own) * 1000, 3) if own else None,
            "max_ms": round(max(own) * 1000, 3) if own else None,
            "buckets": time_buckets(own),
        }
    return {
        "format": SUMMARY_FORMAT,
        "settings": settings(args, names, folder),
        "seed": args.seed,
        "first_pair": args.first_pair,
        "games": len(scores),
        "wins": scores.count(1.0),
        "losses": scores.count(0.0),
        "draws": len(scores) - scores.count(1.0) - scores.count(0.0),
        "score": sum(scores),
        "twin_pairs": attrs.asdict(pairs),
        "times": times,
        "command": command_line(args, names),
        "last_line": summary(names, scores),
        "results": [
            {
                "game": spec.number,
                "a_side": spec.a_side.value,
                "score": result.score,
                "record": record_name(args.seed, spec.number) if spec.record else None,
            }
            for spec, result in zip(specs, results, strict=True)
        ],
    }


def _given_army(path: Path | None, side: Side) -> Army | None:
    if path is None:
        return None
    army = load_army(path)
    problems = playable_problems(army, side)
    if problems:
        raise MinisError(problems)
    return army


def game_specs(
    args: argparse.Namespace,
    names: tuple[str, str],
    given: dict[Side, Army | None],
    *,
    in_process: bool,
    rules: RuleSet | None = None,
    folder: ArmyFolder | None = None,
) -> list[GameSpec]:
    """Every game of the match, its seeds drawn up front from --seed: twins share all but BOT_A's side.

    Bots played in worker processes get one process each (a search bot must not start processes of
    its own in every worker); played here, they get their default. Under `rules` (None: the 2005
    rulebook's) the armies the computer builds keep the set's limits, at its usual army size.
    `--armies` (`args.armies`): `built` armies are drawn for each side on its own, `balanced` and
    `mirrored` pairs from the first side's army seed (`minis.ai.ladder_armies`), and a `folder`'s
    pairs are played in turn from pair `--first-pair`. The seeds are drawn the same way whatever the
    armies, so the same --seed plays the same dice with any of them.
    """
    rng = random.Random(args.seed)
    cards = card_catalogue()
    limits = rules if rules is not None else RULEBOOK
    points = MATCH_POINTS if rules is None else limits.point_levels[0]
    source = getattr(args, "armies", "built")
    first = getattr(args, "first_pair", 0)
    record = getattr(args, "records", None) is not None
    specs: list[GameSpec] = []
    for pair in range((args.games + 1) // 2):
        dice_seed, view_seed = rng.randrange(2**63), rng.randrange(2**63)
        bot_seeds = (rng.randrange(2**63), rng.randrange(2**63))
        army_seeds = (rng.randrange(2**63), rng.randrange(2**63))
        armies: dict[Side, Army] = {}
        if folder is not None:
            armies[Side.AXIS], armies[Side.ALLIES] = folder.pair(first + pair)
        elif source in ("balanced", "mirrored"):
            draw = balanced_pair if source == "balanced" else mirrored_pair
            army_rng = random.Random(army_seeds[0])
            armies[Side.AXIS], armies[Side.ALLIES] = draw(cards, points, army_rng, rules=limits)
        else:
            for side, army_seed in zip((Side.AXIS, Side.ALLIES), army_seeds, strict=True):
                army_rng = random.Random(army_seed)
                armies[side] = given[side] or make_army(cards, side, points, rng=army_rng, rules=limits)
        configuration = args.config
        if args.all_configs:
            configuration = CONFIGURATIONS[(first + pair) % len(CONFIGURATIONS)]
        for a_side in (Side.AXIS, Side.ALLIES):
            if len(specs) == args.games:
                break
            specs.append(
                GameSpec(
                    number=len(specs),
                    names=names,
                    a_side=a_side,
                    axis=armies[Side.AXIS],
                    allies=armies[Side.ALLIES],
                    configuration=configuration,
                    dice_seed=dice_seed,
                    view_seed=view_seed,
                    bot_seeds=bot_seeds,
                    budget=args.budget,
                    workers=None if in_process else 1,
                    rules=rules,
                    playouts=getattr(args, "playouts", None),
                    record=record,
                    turns=getattr(args, "turns", None),
                )
            )
    return specs


def _played(
    specs: list[GameSpec], workers: int, *, progress: bool, records: Path | None = None, seed: int = 0
) -> Iterator[GameResult]:
    """The games' results in game order, played here (`workers` 0) or in a pool of processes; with
    `records`, each game's record is written there as it ends (a run cut short keeps the games done)."""
    started = time.perf_counter()
    results: list[GameResult] = []

    def done(result: GameResult) -> None:
        if records is not None and result.record is not None:
            target = records / record_name(seed, result.number)
            try:
                write_atomic(target, result.record)
            except OSError as error:
                raise unreadable(str(target), f"cannot write the record: {error.strerror or error}") from None
            result = attrs.evolve(result, record=None)
        results.append(result)
        if progress:
            progress_bar(len(results), len(specs), time.perf_counter() - started)

    if workers == 0:
        for spec in specs:
            done(play_game(spec))
    else:
        with concurrent.futures.ProcessPoolExecutor(max_workers=min(workers, len(specs))) as pool:
            for future in concurrent.futures.as_completed([pool.submit(play_game, spec) for spec in specs]):
                done(future.result())
    if progress:
        print(file=sys.stderr)
    yield from sorted(results, key=lambda result: result.number)


def _timing(times: list[float]) -> str:
    """A bot's median and longest time a decision, in milliseconds."""
    if not times:
        return "no decisions"
    median, longest = statistics.median(times) * 1000, max(times) * 1000
    return f"median {median:.2f} ms, max {longest:.1f} ms a decision ({len(times)} decisions)"
