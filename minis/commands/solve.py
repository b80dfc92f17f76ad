"""`minis solve FILE`: perfect play in a small end position (docs/ai.md#perfect-play-minis-solve).

FILE is a position in the rules-test format (docs/contracts.md#rules-test-files) without steps or
checks. The solver (`minis.ai.solver`) prints every legal decision of the side to move with its exact
value (its chance to win, a draw counting half), best first, and as its last line the best decision.
Exit code 0 when solved; 1 when the position is out of the solver's scope (more than three units a
side, a game not decided by the end of the turn) or the search passes --max-nodes; 2 when the file
cannot be read as a position.
"""

from __future__ import annotations

import argparse
from fractions import Fraction

from minis.base.errors import EXIT_CHECK, EXIT_UNREADABLE, MinisError, Problem
from minis.base.tomlfile import read_toml
from minis.commands import Subparsers

#: Decisions listed (the best first) unless --all.
TOP = 5
#: Fractions with a larger denominator are shown as a decimal alone.
MAX_DENOMINATOR = 10**12


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="perfect play in a small end position: the best decision and its exact value",
        description=(
            "Solve a position (rules-test format, no steps) exactly: every decision of both sides and "
            "every dice outcome to the end of the game. At most three units a side; the game must be "
            "decided by the end of the current turn."
        ),
    )
    parser.add_argument("file", metavar="FILE", help="the position (a rules-test .toml file without steps)")
    parser.add_argument(
        "--max-nodes",
        type=_positive,
        default=None,
        metavar="N",
        help="give up after N positions searched (default 200000)",
    )
    parser.add_argument(
        "--last-turn",
        action="store_true",
        help="the game ends at the end of this turn (undecided: a draw), as under a turn limit",
    )
    parser.add_argument("--all", action="store_true", help="list every decision, not only the best five")
    parser.set_defaults(func=run)


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number of at least 1")
    return int(text)


def run(args: argparse.Namespace) -> int:
    from minis.ai import solver  # (the command's own imports: `minis --help` stays light)
    from minis.rulestest import parse_rules_test

    source = read_toml(args.file)
    for key in ("steps", "checks"):
        if key in source.data:
            raise MinisError(
                [source.problem((key,), f"a position to solve has no [[{key}]]: the solver plays it out")],
                exit_code=EXIT_UNREADABLE,
            )
    test = parse_rules_test(source)
    where = source.where(("start",))
    if test.setup is not None:
        raise MinisError(
            [Problem(source.file, *where, "the solver starts from a position on the map, not at set-up")],
            exit_code=EXIT_UNREADABLE,
        )
    game = test.game()
    if args.last_turn:
        game = solver.as_last_turn(game)
    try:
        solution = solver.solve(game, max_nodes=args.max_nodes or solver.DEFAULT_MAX_NODES)
    except solver.SolverError as error:
        raise MinisError([Problem(source.file, *where, str(error))], exit_code=EXIT_CHECK) from None
    side = solution.side
    state = game.state
    print(f"{test.title}: turn {state.turn}, {state.phase.value} phase, the {side.title} player decides")
    shown = solution.choices if args.all else solution.choices[:TOP]
    width = max(len(c.notation) for c in shown)
    for choice in shown:
        print(f"  {choice.notation:<{width}}  {_value(choice.value)}")
    if len(shown) < len(solution.choices):
        print(f"  ... {len(solution.choices) - len(shown)} more decisions (--all lists them)")
    print(f"{solution.nodes} positions searched")
    print(f"best: {solution.best.notation}, {_value(solution.value)} for the {side.title} player")
    return 0


def _value(value: Fraction) -> str:
    """A value as a decimal, and as its exact fraction when that is short enough to read."""
    decimal = f"{float(value):.6f}"
    if value.denominator == 1 or value.denominator > MAX_DENOMINATOR:
        return decimal
    return f"{decimal} ({value.numerator}/{value.denominator})"
