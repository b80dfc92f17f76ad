"""The engine never imports the UI or the bots: every module outside `minis.ui` imports without arcade or
pyglet, and the layers (engine, computer players, window) import one way only."""

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


def _within(module: str, packages: tuple[str, ...]) -> bool:
    """`module` is one of `packages` or inside one (`minis.engine.air_roles` is not inside `minis.ai`)."""
    return any(module == package or module.startswith(package + ".") for package in packages)


def test_the_layers_point_one_way() -> None:
    """The rules engine imports neither the computer players nor the window; the computer players
    never import the window (they change a game only through the engine's actions, like a player); the
    balance lab (`minis.lab`) sits on the computer players and never imports the window either; the game
    server and its clients (`minis.net`) sit on the engine and the computer players, never import the
    window, and nothing below them imports them; the command line (`minis.commands`) is the top: only
    the command line itself and the window (which starts commands' helpers) import it."""
    from tests.test_import_cycles import PACKAGE_ROOT, Package, import_graph

    graph = import_graph(Package.read(PACKAGE_ROOT))
    above = (
        "minis.ai",
        "minis.lab",
        "minis.net",
        "minis.ui",
        "minis.commands",
        "minis.cli",
        "minis.__main__",
    )
    wrong = [
        f"{edge.source} imports {edge.target} (line {edge.line})"
        for source, edges in graph.items()
        for edge in edges
        if (not _within(source, above) and _within(edge.target, ("minis.ai", "minis.net", "minis.ui")))
        or (_within(source, ("minis.ai", "minis.lab", "minis.net")) and _within(edge.target, ("minis.ui",)))
        or (_within(source, ("minis.ai", "minis.lab")) and _within(edge.target, ("minis.net",)))
        or (
            _within(edge.target, ("minis.commands",))
            and not _within(source, ("minis.commands", "minis.cli", "minis.__main__", "minis.ui"))
        )
    ]
    assert not wrong, "\n".join(wrong)
    assert any(edge.target.startswith("minis.ai") for edge in graph["minis.ui.computer"])
