"""No import cycle anywhere in `minis/`, at the level of files (issue 12).

Every module is read with `ast`, not imported, so an import inside a function counts as much as one at
the top: it runs sooner or later, and a cycle held together by late imports is still a cycle. What
counts as an edge from file A to file B:

- `import minis.x.y` and `from minis.x import y` where `minis/x/y.py` (or `minis/x/y/__init__.py`)
  exists: an edge to that file; `from minis.x import name` where `name` is not a module: an edge to
  `minis/x/__init__.py` (or `minis/x.py`). Relative imports are resolved against A's package.
- Only the named module: not its parent packages, whose `__init__.py` Python runs first. A package
  that imports its own submodules (`minis/ui/__init__.py`) would otherwise be in a cycle with each of
  them, which says nothing about the layers.
- An import under `if TYPE_CHECKING:` never runs, so it makes no cycle of run time (the `else:` branch
  of such an `if` does run, and counts); the type checker reads it, though, and a circle of modules
  that name each other's types is a circle of concepts all the same: a second test counts those
  imports too (issue 36: none is left).
- `importlib.import_module(...)` with a computed name (the command line's subcommands) is not seen.

A cycle is a strongly connected component of more than one file, or a file that imports itself.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import attrs

import minis

PACKAGE_ROOT = Path(minis.__file__).resolve().parent


@attrs.frozen
class Edge:
    """One import: `source` imports `target` at `line` of its file (both as dotted module names)."""

    source: str
    target: str
    line: int


@attrs.frozen
class Package:
    """The modules of one package on disk: dotted name -> file."""

    root: Path  # the package's folder (holding its __init__.py)
    files: dict[str, Path]

    @classmethod
    def read(cls, root: Path) -> Package:
        files: dict[str, Path] = {}
        for path in sorted(root.rglob("*.py")):
            parts = list(path.relative_to(root.parent).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            files[".".join(parts)] = path
        return cls(root, files)

    def is_package(self, module: str) -> bool:
        return self.files[module].name == "__init__.py"

    def display(self, module: str) -> str:
        return self.files[module].relative_to(self.root.parent).as_posix()


def _is_type_checking(test: ast.expr) -> bool:
    """`TYPE_CHECKING` or `typing.TYPE_CHECKING` (any module's attribute of that name)."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _executed_imports(node: ast.AST, types_too: bool = False) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement under `node`, at any depth, except those only a type checker sees
    (`types_too`: those as well)."""
    for child in ast.iter_child_nodes(node):
        if not types_too and isinstance(child, ast.If) and _is_type_checking(child.test):
            for branch in child.orelse:
                if isinstance(branch, ast.Import | ast.ImportFrom):
                    yield branch
                yield from _executed_imports(branch)
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child
        yield from _executed_imports(child, types_too)


def _resolve_base(package: Package, module: str, statement: ast.ImportFrom) -> str:
    """The absolute module a `from X import ...` names (relative levels resolved from `module`)."""
    if not statement.level:
        return statement.module or ""
    parts = module.split(".")
    if not package.is_package(module):
        parts.pop()  # a plain module's relative imports start at its package
    if statement.level > 1:
        parts = parts[: len(parts) - (statement.level - 1)]
    return ".".join([*parts, statement.module] if statement.module else parts)


def edges_of(package: Package, module: str, types_too: bool = False) -> list[Edge]:
    """The imports of one module that name modules of the package (`types_too`: the type checker's too)."""
    tree = ast.parse(package.files[module].read_text(encoding="utf-8"), str(package.files[module]))
    found: list[Edge] = []
    for statement in _executed_imports(tree, types_too):
        if isinstance(statement, ast.Import):
            targets = [alias.name for alias in statement.names]
        else:
            base = _resolve_base(package, module, statement)
            targets = []
            for alias in statement.names:
                submodule = f"{base}.{alias.name}"
                targets.append(submodule if submodule in package.files else base)
        found += [Edge(module, target, statement.lineno) for target in targets if target in package.files]
    return found


def import_graph(package: Package, types_too: bool = False) -> dict[str, list[Edge]]:
    """Each module's imports of other modules of the package (and of itself)."""
    return {module: edges_of(package, module, types_too) for module in package.files}


def strongly_connected(graph: dict[str, list[Edge]]) -> list[list[str]]:
    """Tarjan's strongly connected components, without recursion, each sorted, in a stable order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[Edge]]] = []
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        work.append((start, iter(graph[start])))
        while work:
            node, edges = work[-1]
            edge = next(edges, None)
            if edge is not None:
                target = edge.target
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph[target])))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return sorted(components)


def _one_loop(graph: dict[str, list[Edge]], component: list[str]) -> list[Edge]:
    """A shortest way round the component from its first module back to it (breadth first)."""
    members = set(component)
    start = component[0]
    came_by: dict[str, Edge] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for edge in graph[node]:
                if edge.target == start:
                    loop = [edge]
                    while loop[0].source != start:
                        loop.insert(0, came_by[loop[0].source])
                    return loop
                if edge.target in members and edge.target not in came_by:
                    came_by[edge.target] = edge
                    following.append(edge.target)
        frontier = following
    raise AssertionError(f"no loop in {component}")  # a component of two or more always has one


def cycles(package: Package, types_too: bool = False) -> list[str]:
    """One line per cycle: its files, then one way round it with the line of each import (`types_too`:
    counting the imports only a type checker sees)."""
    graph = import_graph(package, types_too)
    found: list[str] = []
    for component in strongly_connected(graph):
        if len(component) == 1 and not any(e.target == component[0] for e in graph[component[0]]):
            continue
        names = ", ".join(package.display(m) for m in component)
        way = " -> ".join(f"{package.display(e.source)}:{e.line}" for e in _one_loop(graph, component))
        found.append(f"{names} (round: {way} -> {package.display(component[0])})")
    return found


# --- the repository ------------------------------------------------------------------------------------


def test_minis_has_no_import_cycle() -> None:
    found = cycles(Package.read(PACKAGE_ROOT))
    assert not found, "import cycles (files that import each other, directly or round a loop):\n" + "\n".join(
        found
    )


def test_minis_has_no_cycle_even_of_the_type_checkers_imports() -> None:
    """No circle of modules naming each other's types either: the engine's layers hold for the type
    checker too (the battle names the ability seam by protocols of its own; docs/engine.md)."""
    found = cycles(Package.read(PACKAGE_ROOT), types_too=True)
    assert not found, "cycles of imports, the type checker's included:\n" + "\n".join(found)


def test_the_graph_sees_the_package() -> None:
    """The checker finds the modules and their imports (else the test above would pass on nothing)."""
    package = Package.read(PACKAGE_ROOT)
    graph = import_graph(package)
    assert {"minis", "minis.cli", "minis.hexgrid", "minis.ui.app"} <= set(graph)
    assert any(e.target == "minis.hexgrid" for e in graph["minis.board"])


# --- the checker, on packages written for it -----------------------------------------------------------


def write_fake_package(root: Path, files: dict[str, str]) -> Package:
    """The package `fake` under `root`, from file names and texts (for the checkers' own tests)."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return Package.read(root / "fake")


def test_a_cycle_through_an_import_inside_a_function_is_found(tmp_path: Path) -> None:
    package = write_fake_package(
        tmp_path,
        {
            "fake/__init__.py": "",
            "fake/a.py": "from fake import b\n",
            "fake/b.py": "def late():\n    from . import c\n    return c\n",
            "fake/c.py": "import fake.a\n",
            "fake/d.py": "import fake.a\n",  # imports into the loop, but is not in it
        },
    )
    found = cycles(package)
    assert len(found) == 1
    assert found[0].startswith("fake/a.py, fake/b.py, fake/c.py (round: fake/a.py:1 -> fake/b.py:2")
    assert "fake/d.py" not in found[0]


def test_relative_imports_from_subpackages_and_self_imports(tmp_path: Path) -> None:
    package = write_fake_package(
        tmp_path,
        {
            "fake/__init__.py": "",
            "fake/sub/__init__.py": "from .inner import thing\n",
            "fake/sub/inner.py": "from .. import top\nthing = 1\n",
            "fake/top.py": "class A:\n    def f(self):\n        from fake.sub import inner\n",
            "fake/alone.py": "from fake import alone\n",
        },
    )
    found = cycles(package)
    assert found == [
        "fake/alone.py (round: fake/alone.py:1 -> fake/alone.py)",
        "fake/sub/inner.py, fake/top.py (round: fake/sub/inner.py:1 -> fake/top.py:3 -> fake/sub/inner.py)",
    ]


def test_type_checking_imports_do_not_count_but_their_else_branch_does(tmp_path: Path) -> None:
    package = write_fake_package(
        tmp_path,
        {
            "fake/__init__.py": "",
            "fake/a.py": "import typing\nif typing.TYPE_CHECKING:\n    from fake import b\n",
            "fake/b.py": "from fake import a\n",
            "fake/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    pass\nelse:\n"
            "    from fake import d\n",
            "fake/d.py": "from fake import c\n",
        },
    )
    assert cycles(package) == ["fake/c.py, fake/d.py (round: fake/c.py:5 -> fake/d.py:1 -> fake/c.py)"]
    assert cycles(package, types_too=True) == [
        "fake/a.py, fake/b.py (round: fake/a.py:3 -> fake/b.py:1 -> fake/a.py)",
        "fake/c.py, fake/d.py (round: fake/c.py:5 -> fake/d.py:1 -> fake/c.py)",
    ]


def test_a_package_without_cycles_passes(tmp_path: Path) -> None:
    package = write_fake_package(
        tmp_path,
        {
            "fake/__init__.py": "from fake import a, b\n",  # a package may import its own modules
            "fake/a.py": "import os\nfrom fake import b\n",
            "fake/b.py": "from fake.sub import x\nimport json\n",
            "fake/sub/__init__.py": "",
            "fake/sub/x.py": "def f():\n    import json\n    return json\n",
        },
    )
    assert cycles(package) == []
