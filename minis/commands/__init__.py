"""Subcommands of the `minis` command line, one module per area (see `minis.cli`)."""

import argparse
from typing import TypeAlias

#: What each module's `register(subparsers)` receives: argparse's subcommand group. A string alias, as
#: argparse's class is generic for type checkers only (subscripting it at run time fails).
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

__all__ = ["Subparsers"]
