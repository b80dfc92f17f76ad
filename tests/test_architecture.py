"""The engine never imports the UI: every module outside `minis.ui` imports without arcade or pyglet."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import minis

UI_MODULES = ("minis.ui", "minis.commands.play", "minis.commands.edit", "minis.__main__")


def engine_modules() -> list[str]:
    names = [info.name for info in pkgutil.walk_packages(minis.__path__, "minis.")]
    return sorted(name for name in names if not name.startswith(UI_MODULES))


def test_engine_modules_are_found() -> None:
    modules = engine_modules()
    assert "minis.hexgrid" in modules
    assert "minis.cli" in modules


def test_engine_does_not_import_arcade_or_pyglet() -> None:
    modules = engine_modules()
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('arcade', 'pyglet'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "", f"engine imported: {result.stdout.strip()}"


def test_cli_builds_without_the_ui() -> None:
    code = (
        "import sys\n"
        "from minis.cli import build_parser\n"
        "build_parser()\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('arcade', 'pyglet'))))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""
