"""A command imports what it needs (issue 33): `minis cards list`, `minis simulate`, ... never import the
lab's DuckDB or Dask, and the commands without a window never import arcade; the parser is the same
(commands, options, help) as the whole one."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from pathlib import Path

import pytest

from minis import cli

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("duckdb", "dask", "distributed", "arcade", "pyglet", "matplotlib", "pandas", "statsmodels", "scipy")


def imported(argv: list[str]) -> set[str]:
    """The heavy packages imported by `minis ARGV` run in a fresh process (its output thrown away)."""
    code = (
        "import contextlib, io, sys\n"
        "from minis.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    try:\n        main({argv!r})\n    except SystemExit:\n        pass\n"
        f"print('|' + ','.join(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT, timeout=300
    )
    last = result.stdout.splitlines()[-1]
    assert last.startswith("|"), result.stdout
    return set(filter(None, last[1:].split(",")))


@pytest.mark.parametrize(
    "argv",
    [
        ["cards", "list"],
        ["cards", "show", "m4a1-sherman"],
        ["simulate", "--config", "1", "--axis", "sample-axis", "--allies", "sample-allies", "--games", "1"],
        ["army", "check", "armies/sample-axis.toml"],
        ["map", "los", "1", "A1:C3"],
        ["odds", "3", "4"],
        ["serve", "--help"],
        ["net", "new", "--help"],
        ["bot", "--help"],
        ["--help"],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_commands_without_a_window_import_nothing_heavy(argv: list[str]) -> None:
    assert imported(argv) == set()


def test_play_imports_no_lab() -> None:
    assert not imported(["play", "--help"]) & {"duckdb", "dask", "distributed", "pandas"}


def sub_help(parser: object, name: str) -> str:
    """The help of command `name` in `parser`."""
    (group,) = parser._subparsers._group_actions  # type: ignore[attr-defined]
    return str(group.choices[name].format_help())


def run_main(argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        cli.main(argv)
    return out.getvalue()


def test_each_command_parses_and_helps_as_in_the_whole_parser() -> None:
    whole = cli.build_parser()
    names = [cli.NAMES.get(module, module) for module in cli.COMMANDS]
    (group,) = whole._subparsers._group_actions  # type: ignore[union-attr]
    assert list(group.choices) == names
    for module, name in zip(cli.COMMANDS, names, strict=True):
        alone = cli.build_parser(module)
        assert sub_help(alone, name) == sub_help(whole, name)
        assert run_main([name, "--help"]) == sub_help(whole, name)
    assert run_main(["--help"]) == whole.format_help()


def test_no_command_or_a_wrong_one_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 0
    assert capsys.readouterr().out == cli.build_parser().format_help()
    with pytest.raises(SystemExit):
        cli.main(["plya"])
    error = capsys.readouterr().err
    assert "invalid choice: 'plya'" in error and "rules-test" in error


def test_the_main_menu_opens_without_the_rules_engine() -> None:
    """The window's first frame (the main menu) needs neither the engine nor numpy: the router imports
    a screen when its route is first taken."""
    code = (
        "import sys\n"
        "from minis.ui import boot\n"
        "boot.import_arcade(headless=True)\n"
        "from minis.ui.driver import Driver\n"
        "driver = Driver.open()\n"
        "driver.window.ctx.finish()\n"
        "print('|' + ','.join(sorted(m for m in ('minis.game', 'minis.engine.ability_loader',"
        " 'minis.ui.battle', 'numpy', 'duckdb') if m in sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT, timeout=300
    )
    assert result.stdout.splitlines()[-1] == "|"
