"""The `minis` command: one subcommand module per area under `minis.commands`.

Each module in COMMANDS has `register(subparsers)`, which adds its parser and sets `func`
(a callable taking the parsed arguments and returning the exit code). A user's bad input ends
as `FILE:LINE:COL: message` lines on stderr with exit code 1 or 2, never a traceback.

A command imports only what it needs: when the command line names a command, only that command's
module is imported and registered (its parser, options and help are the same as in the whole parser),
so `minis cards list` never imports the lab's DuckDB or the window's arcade. `minis`, `minis --help`
and a command that is no command build the whole parser, as they list every command.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from minis.base import fast
from minis.base.errors import MinisError, print_problems

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
    "solve",
    "edit",
    "lab",
    "serve",
    "net",
    "bot",
)
#: The command names that differ from their module's name.
NAMES = {"rules_test": "rules-test"}


def _command_module(argv: Sequence[str]) -> str | None:
    """The module of the command `argv` names, or None when the whole parser is needed (no command,
    an option before it such as --help, or a word that is no command)."""
    if not argv or argv[0].startswith("-"):
        return None
    modules = {NAMES.get(name, name): name for name in COMMANDS}
    return modules.get(argv[0])


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The `minis` parser with every command, or with the command module `only` alone."""
    parser = argparse.ArgumentParser(
        prog="minis", description="Axis & Allies Miniatures on a hex map, for two players at one screen."
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS if only is None else (only,):
        try:
            module = importlib.import_module(f"minis.commands.{name}")
        except ModuleNotFoundError as error:
            if error.name == f"minis.commands.{name}":
                continue  # that area is not built yet
            raise
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    fast.choose()  # the compiled engine when it is built from these sources (before any engine import)
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_command_module(words))
    args = parser.parse_args(words)
    if not getattr(args, "func", None):
        build_parser().print_help()  # every command, as `minis --help` lists them
        return 0
    try:
        return int(args.func(args) or 0)
    except MinisError as error:
        print_problems(error.problems)
        return error.exit_code
    except BrokenPipeError:
        return 0
