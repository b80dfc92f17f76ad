"""The wheel's one build step: the shipped data folders go into the package as `minis/_data/`.

`cards/`, `maps/`, `scenarios/`, `armies/` and `studies/` stay at the top of the repository, where
designers and players browse and edit them; a wheel carries a copy of their TOML files so that an
installed minis plays from any folder. An editable install (`pip install -e .`) copies nothing: it
reads the repository's folders (minis/base/data.py). Everything else about the build is in pyproject.toml.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _constant(name: str) -> Any:
    """A constant of minis/base/data.py, read without importing minis (its dependencies are not installed
    while the wheel is built)."""
    tree = ast.parse((ROOT / "minis" / "base" / "data.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise LookupError(f"minis/base/data.py defines no {name}")


class BuildWithData(build_py):
    """build_py, then the data folders' TOML files copied under minis/_data/ in the build folder."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "minis" / _constant("PACKAGED")
        shutil.rmtree(target, ignore_errors=True)  # nothing left over from an earlier build
        for name in _constant("SHIPPED"):
            source = ROOT / name
            if not source.is_dir():  # a wheel without its cards or maps would install but not play
                raise FileNotFoundError(f"the data folder {source} is missing: the wheel needs it")
            for path in sorted(source.rglob("*.toml")):
                copy = target / name / path.relative_to(source)
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, copy)


setup(cmdclass={"build_py": BuildWithData})
