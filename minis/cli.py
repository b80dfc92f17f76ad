"""The `minis` command: one subcommand module per area under `minis.commands`.

Each module in COMMANDS has `register(subparsers)`, which adds its parser and sets `func`
(a callable taking the parsed arguments and returning the exit code). A user's bad input ends
as `FILE:LINE:COL: message` lines on stderr with exit code 1 or 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence

from minis.errors import MinisError, print_problems

#: Subcommand modules, in the order `minis --help` lists them.
COMMANDS = (
    "play",
    "cards",
    "army",
    "map",
    "rules_test",
    "replay",
    "simulate",
    "match",
    "odds",
    "edit",
    "lab",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="minis", description="Axis & Allies Miniatures on a hex map, for two players at one screen."
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"minis.commands.{name}")
        except ModuleNotFoundError as error:
            if error.name == f"minis.commands.{name}":
                continue  # that area is not built yet
            raise
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except MinisError as error:
        print_problems(error.problems)
        return error.exit_code
    except BrokenPipeError:
        return 0
