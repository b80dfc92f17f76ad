"""`minis simulate --config N --axis ARMY --allies ARMY --games K --seed S`: random bots play K games.

Prints each side's wins (and draws, for games stopped by the turn limit), the average length in turns
and the speed in games per second; a progress bar goes to stderr for long runs. `--rules NAME` plays
under a named rule set (docs/rule-sets.md; the records say which).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from minis.ai.random_bot import RandomBot, play
from minis.army import Army, load_army, playable_problems
from minis.base.errors import EXIT_UNREADABLE, MinisError, Problem, unreadable
from minis.base.sides import Side
from minis.board import Board
from minis.commands import Subparsers
from minis.commands.batch import fewer_collections, progress_bar
from minis.content import rule_sets
from minis.content.rule_sets import RuleSet
from minis.dice import Dice
from minis.game import Game
from minis.mapfile import load_configuration

#: Games stopped at this turn count as draws (random play can tie on points for ever).
DEFAULT_TURN_LIMIT = 30


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("simulate", help="random bots play many games; win rates and speed")
    parser.add_argument(
        "--config",
        type=int,
        choices=range(1, 7),
        metavar="N",
        help="battle map configuration 1-6 (default: rolled each game)",
    )
    parser.add_argument("--axis", required=True, type=Path, metavar="ARMY", help="the Axis army file")
    parser.add_argument("--allies", required=True, type=Path, metavar="ARMY", help="the Allied army file")
    parser.add_argument("--games", type=int, default=100, metavar="K", help="how many games (default 100)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the whole run (default 0)")
    parser.add_argument(
        "--turn-limit",
        type=int,
        default=DEFAULT_TURN_LIMIT,
        metavar="T",
        help=f"a game still undecided after turn T is a draw (default {DEFAULT_TURN_LIMIT})",
    )
    parser.add_argument("--records", type=Path, metavar="DIR", help="write each game's record into DIR")
    add_rules_option(parser)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def add_rules_option(parser: argparse.ArgumentParser) -> None:
    """`--rules NAME`: the rule set the games are played under (`minis match` has it too)."""
    parser.add_argument(
        "--rules",
        metavar="NAME",
        help=f"the rule set: {', '.join(rule_sets.NAMED)} (default {rule_sets.DEFAULT}; docs/rule-sets.md)",
    )


def chosen_rules(name: str | None, command: str) -> RuleSet | None:
    """The rule set `--rules` names (None: not given, the rulebook's); an unknown name is refused with
    the names that exist, exit code 2, before any game is played."""
    if name is None:
        return None
    problem = rule_sets.name_problem(name)
    if problem is not None:
        raise MinisError(Problem(command, 0, 0, *problem), exit_code=EXIT_UNREADABLE)
    return rule_sets.named(name)


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise MinisError(Problem("simulate", 0, 0, "--games must be at least 1"))
    if args.turn_limit < 1:
        raise MinisError(Problem("simulate", 0, 0, "--turn-limit must be at least 1"))
    rules = chosen_rules(args.rules, "simulate")
    axis, allies = load_army(args.axis), load_army(args.allies)
    problems = playable_problems(axis, Side.AXIS) + playable_problems(allies, Side.ALLIES)
    if problems:
        raise MinisError(problems)
    if args.records:
        try:
            args.records.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise unreadable(
                str(args.records), f"cannot make the records folder: {error.strerror or error}"
            ) from None
    rng = random.Random(args.seed)
    # Each configuration is read once for the whole run (not re-checked on disk for every game).
    boards: dict[int, Board] = {}

    def load_board(number: int) -> Board:
        if number not in boards:
            boards[number] = load_configuration(number)
        return boards[number]

    if args.config is not None:
        load_board(args.config)  # map problems are reported before the first game starts
    with fewer_collections():
        wins, turns, elapsed = _play_games(args, axis, allies, load_board, rng, rules)
    games = args.games
    under = f", rules {rules.title}" if rules is not None else ""
    print(f"{games} games on configuration {args.config or 'rolled'}, seed {args.seed}{under}")
    print(f"Axis wins    {wins[Side.AXIS]:6d}  {wins[Side.AXIS] / games * 100:6.1f}%  ({axis.name})")
    print(f"Allies wins  {wins[Side.ALLIES]:6d}  {wins[Side.ALLIES] / games * 100:6.1f}%  ({allies.name})")
    if wins[None]:
        print(
            f"draws        {wins[None]:6d}  {wins[None] / games * 100:6.1f}%  (turn limit {args.turn_limit})"
        )
    print(f"average length {turns / games:.2f} turns")
    print(f"{games / elapsed:.1f} games/second ({elapsed:.2f} s)")
    return 0


def _play_games(
    args: argparse.Namespace,
    axis: Army,
    allies: Army,
    load_board: Callable[[int], Board],
    rng: random.Random,
    rules: RuleSet | None = None,
) -> tuple[dict[Side | None, int], int, float]:
    """Play the run's games: the wins by side (None: draws), the turns played and the seconds taken."""
    wins: dict[Side | None, int] = {Side.AXIS: 0, Side.ALLIES: 0, None: 0}
    turns = 0
    progress = not args.quiet and args.games >= 20
    started = time.perf_counter()
    for number in range(1, args.games + 1):
        game = Game.new(
            axis,
            allies,
            configuration=args.config,
            dice=Dice(seed=rng.randrange(2**31)),
            turn_limit=args.turn_limit,
            load_board=load_board,
            rules=rules,
        )
        play(game, RandomBot(rng.randrange(2**31)))
        wins[game.winner] += 1
        turns += game.state.turn
        if args.records:
            from minis.record import save

            target = args.records / f"game-{number:04d}.rec"
            try:
                save(game, target)
            except OSError as error:
                raise unreadable(str(target), f"cannot write the record: {error.strerror or error}") from None
        if progress:
            progress_bar(number, args.games, time.perf_counter() - started)
    elapsed = time.perf_counter() - started
    if progress:
        print(file=sys.stderr)
    return wins, turns, elapsed
