"""`minis rules-test PATH...`: run rules-test files (docs/contracts.md#rules-test-files).

One line per file, `PASS name` or `FAIL name: why`, then `N passed, N failed`. Exit code 0 when all
pass, 1 if any failed, 2 if a file could not be read (its problems go to stderr as FILE:LINE:COL).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from minis.base.errors import EXIT_CHECK, EXIT_UNREADABLE, Problem, escaped, print_problems
from minis.base.paths import is_dir
from minis.commands import Subparsers
from minis.rulestest import find_files, run_file


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("rules-test", help="run rules-test files or folders of them")
    parser.add_argument(
        "paths", nargs="+", metavar="PATH", help="a rules-test .toml file or a folder of them"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    files = find_files(args.paths)
    passed = failed = 0
    unreadable = False
    for path in map(Path, args.paths):  # an empty folder would otherwise "pass" with 0 tests
        if is_dir(path) and not find_files([path]):
            print(Problem(str(path), 0, 0, "no rules-test files (*.toml) in this folder"), file=sys.stderr)
            unreadable = True
    for path in files:
        outcome = run_file(path)
        if outcome.passed:
            passed += 1
            print(f"PASS {escaped(outcome.name)}")
            continue
        failed += 1
        print(f"FAIL {escaped(outcome.name)}: {escaped(outcome.reason)}")
        if outcome.problems:
            unreadable = True
            print_problems(outcome.problems)
    print(f"{passed} passed, {failed} failed")
    if unreadable:
        return EXIT_UNREADABLE
    return EXIT_CHECK if failed else 0
