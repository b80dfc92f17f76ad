"""docs/rules-coverage.md stays current: every code name in its Code column names real code.

The matrix maps each rule to the code that implements it. When code is renamed or removed, this test
names the stale entry, so the matrix cannot quietly drift away from the engine.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path
from types import ModuleType

import attrs
import pytest

import minis.rules

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules-coverage.md"

#: Names the matrix's preamble says stand for classes of these modules.
CLASSES = {
    "Board": "minis.board",
    "GameState": "minis.state",
    "StatCard": "minis.cards",
    "Terrain": "minis.terrain",
    "TerrainEffects": "minis.terrain",
}

#: Where a module the matrix names by its file name may be: the top of minis, then the layers' packages.
LAYERS = ("", "base.", "content.", "engine.")


def code_names() -> list[str]:
    """Every backticked name in the Code column (the second column) of the matrix's tables."""
    names: set[str] = set()
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 3 or cells[0] == "Rule":
            continue
        names.update(re.findall(r"`([^`]+)`", cells[1]))
    return sorted(names)


def rules_modules() -> list[ModuleType]:
    return [
        importlib.import_module(info.name)
        for info in pkgutil.iter_modules(minis.rules.__path__, "minis.rules.")
    ]


def has_member(owner: object, name: str) -> bool:
    """A module's or class's member; of a class, an attrs field or what its `__init__` takes too (a plain
    class's fields are set there)."""
    if hasattr(owner, name):
        return True
    if not isinstance(owner, type):
        return False
    return (attrs.has(owner) and name in attrs.fields_dict(owner)) or (
        "__init__" in vars(owner) and name in inspect.signature(owner).parameters
    )


def resolve(name: str) -> bool:
    """True if `name` (module.member, Class.member, a constant of minis.rules, a folder glob) exists."""
    if name.endswith("/*"):
        return Path(importlib.import_module("minis").__path__[0], name[:-2]).is_dir()
    head, *rest = name.split(".")
    if head in CLASSES:
        owner: object = getattr(importlib.import_module(CLASSES[head]), head)
    elif head.isupper():
        return any(hasattr(module, head) for module in rules_modules())
    else:
        owner = None
        for candidate in (f"minis.rules.{head}", *(f"minis.{layer}{head}" for layer in LAYERS)):
            try:
                owner = importlib.import_module(candidate)
                break
            except ModuleNotFoundError:
                continue
        if owner is None:
            return False
    for part in rest:
        if isinstance(owner, ModuleType) and not has_member(owner, part):
            try:
                owner = importlib.import_module(f"{owner.__name__}.{part}")
                continue
            except ModuleNotFoundError:
                return False
        if not has_member(owner, part):
            return False
        owner = getattr(owner, part, None)
    return True


def test_the_matrix_names_code() -> None:
    assert len(code_names()) > 50


@pytest.mark.parametrize("name", code_names())
def test_code_name_exists(name: str) -> None:
    assert resolve(name), f"docs/rules-coverage.md names `{name}`, which is not in the code"


def test_a_stale_name_is_caught() -> None:
    assert not resolve("combat.no_such_function")
    assert not resolve("Board.no_such_method")
    assert resolve("combat.hits_for")
