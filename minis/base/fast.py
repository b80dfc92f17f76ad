"""The compiled fast build: the engine and the heuristic's playouts compiled with mypyc, used when present.

`make fast` (`tools/build_fast.py`) compiles the modules of COMPILED from this checkout's sources into
extension modules kept in a folder of their own, `.fast/` at the top of the checkout (never beside the
sources: a compiled module there would shadow its `.py` file, and an edit would do nothing until the
next build). With it goes a stamp, `.fast/build.json`: the hash of the compiled sources and the Python
they were built for.

Which engine runs:

- `MINIS_FAST=0`: the pure sources, always (the tests set it: they run the pure sources).
- `MINIS_FAST=1`: the fast build; a process that imports `minis` installs it at once (the search's
  spawned workers and the lab's processes inherit the variable from the command that started them).
- unset: the `minis` command (`minis.cli.main`) uses the fast build when it is there and built from
  these sources, and sets `MINIS_FAST` to say so to the processes it starts.

A stale build (the sources changed since, or another Python) is never used: one line on stderr says to
run `make fast`, and play goes on with the pure sources. Installing is a finder at the front of
`sys.meta_path` that loads the compiled modules' extension files from `.fast/`; every other module
(and `minis` itself) still comes from the sources, so the two builds differ only in COMPILED.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec
from pathlib import Path
from types import ModuleType

#: The environment variable that chooses the build: "0" pure, "1" fast, unset: fast when usable.
VARIABLE = "MINIS_FAST"
#: The `minis` package's folder (the sources; this file is in minis/base) and the checkout's, with `.fast/`.
PACKAGE = Path(__file__).resolve().parent.parent
ROOT = PACKAGE.parent
#: Where `make fast` puts the extension modules and the stamp.
FOLDER = ROOT / ".fast"
STAMP = "build.json"
#: The name of the library the compiled modules share (mypyc's group).
GROUP = "minis_fast"

#: The modules compiled, as dotted names: the rules and what a playout runs through.
COMPILED: tuple[str, ...] = (
    "minis.abilities",
    "minis.base.atomic",
    "minis.base.sides",
    "minis.board",
    "minis.content.los",
    "minis.content.rule_sets",
    "minis.content.unit_ids",
    "minis.dice",
    "minis.engine.ability_api",
    "minis.engine.actions",
    "minis.engine.battle",
    "minis.engine.events",
    "minis.engine.odds",
    "minis.engine.projection",
    "minis.engine.terms",
    "minis.game",
    "minis.hexgrid",
    "minis.state",
    "minis.terrain",
    "minis.rules.activation",
    "minis.rules.air",
    "minis.rules.air_attacks",
    "minis.rules.arrivals",
    "minis.rules.caching",
    "minis.rules.casualty",
    "minis.rules.combat",
    "minis.rules.defensive_fire",
    "minis.rules.errors",
    "minis.rules.flags",
    "minis.rules.indirect",
    "minis.rules.initiative",
    "minis.rules.legal",
    "minis.rules.mapinfo",
    "minis.rules.movement",
    "minis.rules.obstacles",
    "minis.rules.overstack",
    "minis.rules.sequence",
    "minis.rules.setup",
    "minis.rules.stacking",
    "minis.rules.transport",
    "minis.rules.victory",
    "minis.rules.walk",
    "minis.rules.water",
    "minis.rules.zones",
    "minis.ai.scoring",
    "minis.ai.material",
    "minis.ai.heuristic",
    "minis.ai.playout_policy",
    "minis.ai.playout",
    "minis.ai.random_bot",
    "minis.ai.bot",
    "minis.ai.flight",
    "minis.ai.obstacles",
    "minis.ai.arrivals",
    "minis.ai.deployment",
)


def source_file(module: str) -> Path:
    """The `.py` file of a compiled module in this checkout."""
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def source_hash(modules: Sequence[str] = COMPILED) -> str:
    """The hash of the compiled modules' sources (names and bytes) and of the Python that runs them."""
    digest = hashlib.sha256(f"{sys.implementation.cache_tag} {EXTENSION_SUFFIXES[0]}\n".encode())
    for module in modules:
        digest.update(f"{module}\n".encode())
        digest.update(source_file(module).read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def built(folder: Path = FOLDER) -> dict[str, object] | None:
    """The stamp of the build in `folder`, or None when there is none (or it cannot be read)."""
    try:
        stamp = json.loads((folder / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return stamp if isinstance(stamp, dict) else None


def usable(folder: Path = FOLDER) -> str | None:
    """Why the build in `folder` cannot be used (None: it can): missing, or built from other sources."""
    stamp = built(folder)
    if stamp is None:
        return "no fast build"
    modules = stamp.get("modules")
    if not isinstance(modules, list) or not all(isinstance(name, str) for name in modules):
        return "the fast build's stamp is damaged"
    try:
        if stamp.get("hash") != source_hash(modules):
            return "the fast build is stale (the sources changed since it was built)"
    except OSError:
        return "the fast build is stale (a compiled module's source is gone)"
    return None


class _Finder(MetaPathFinder):
    """Finds the compiled modules (and their shared library) among the extension files in a folder."""

    def __init__(self, folder: Path, modules: Sequence[str]) -> None:
        self.files: dict[str, Path] = {}
        for name in [*modules, f"{GROUP}__mypyc"]:
            for suffix in EXTENSION_SUFFIXES:
                path = folder.joinpath(*name.split(".")).with_name(name.split(".")[-1] + suffix)
                if path.is_file():
                    self.files[name] = path
                    break

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        return ModuleSpec(fullname, ExtensionFileLoader(fullname, str(file)), origin=str(file))


def installed() -> bool:
    """Whether this process loads the compiled modules."""
    return any(isinstance(finder, _Finder) for finder in sys.meta_path)


def install(folder: Path = FOLDER) -> bool:
    """Load the compiled modules from `folder` from now on if its build is usable; else say why on
    stderr (once, and `MINIS_FAST=0` for the processes this one starts) and keep the pure sources.
    A compiled module already imported pure stays pure: install before the engine is imported."""
    if installed():
        return True
    problem = usable(folder)
    if problem is not None:
        if problem != "no fast build" or os.environ.get(VARIABLE) == "1":
            print(
                f"minis: {problem}; run `make fast` to build it (playing with the pure sources)",
                file=sys.stderr,
            )
        os.environ[VARIABLE] = "0"
        return False
    stamp = built(folder)
    assert stamp is not None
    modules = stamp["modules"]
    assert isinstance(modules, list)
    sys.meta_path.insert(0, _Finder(folder, modules))
    os.environ[VARIABLE] = "1"
    return True


def choose() -> bool:
    """What the `minis` command does first: the fast build unless `MINIS_FAST=0` or it is unusable."""
    if os.environ.get(VARIABLE) == "0":
        return False
    return install()


def on_import() -> None:
    """What importing `minis` does: install the fast build when `MINIS_FAST=1` says to."""
    if os.environ.get(VARIABLE) == "1":
        install()
