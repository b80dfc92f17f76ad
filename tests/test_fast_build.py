"""The fast build's choice (minis/base/fast.py) and what its compiler needs from the sources, without a build.

- A build is used only when its stamp's hash is the hash of today's sources of its modules; a stale one
  is refused with one line on stderr saying to run `make fast`, and the processes started after are
  told to play pure (`MINIS_FAST=0`).
- What mypyc needs of a compiled module: a class's field annotated with a class name needs that name
  at import time (a compiled class body builds its annotations from the names), so no such name may
  come from an `if TYPE_CHECKING:` import, which never runs. This is what held `ability_api`,
  `battle`, `state` and `terms` in a circle of imports: the fields of `AttackContext`,
  `GameState.battle`, `Unit.card`, `CardHooks.card` and `PresetUnit.card` (docs/engine.md, "The
  fast build", says how the circle was cut).
- An attrs field definition whose annotation is a builtin container or scalar is made with
  `minis.base.fields` (compiled, `attrs.field`'s or `attrs.Factory`'s value is checked as the field's type
  at import, and it is no such value).
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from minis.base import fast

ATTRS_DEFINITIONS = ("attrs.field", "attrs.Factory", "attr.ib", "attr.Factory")
PRIMITIVES = {"dict", "list", "set", "tuple", "frozenset", "bool", "int", "float", "str", "bytes"}


def _stamp(folder: Path, **fields: object) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / fast.STAMP).write_text(json.dumps(fields), encoding="utf-8")


def test_a_build_of_these_sources_is_usable_and_any_other_is_not(tmp_path: Path) -> None:
    modules = ["minis.hexgrid", "minis.dice"]
    assert fast.usable(tmp_path / "none") == "no fast build"
    _stamp(tmp_path / "good", hash=fast.source_hash(modules), modules=modules)
    assert fast.usable(tmp_path / "good") is None
    _stamp(tmp_path / "stale", hash=fast.source_hash(["minis.hexgrid"]), modules=modules)
    assert "stale" in str(fast.usable(tmp_path / "stale"))
    _stamp(tmp_path / "gone", hash="x", modules=["minis.no_such_module"])
    assert "stale" in str(fast.usable(tmp_path / "gone"))
    (tmp_path / "damaged").mkdir()
    (tmp_path / "damaged" / fast.STAMP).write_text("{", encoding="utf-8")
    assert fast.usable(tmp_path / "damaged") == "no fast build"


def test_the_hash_follows_every_byte_of_the_compiled_sources() -> None:
    assert fast.source_hash(["minis.hexgrid"]) != fast.source_hash(["minis.dice"])
    assert fast.source_hash(["minis.hexgrid", "minis.dice"]) != fast.source_hash(
        ["minis.dice", "minis.hexgrid"]
    )
    assert fast.source_hash() == fast.source_hash(fast.COMPILED)


def test_a_stale_build_is_refused_with_one_line_and_the_pure_sources_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(fast.VARIABLE, raising=False)
    _stamp(tmp_path, hash="0" * 64, modules=list(fast.COMPILED))
    assert fast.install(tmp_path) is False
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and "stale" in lines[0] and "make fast" in lines[0]
    assert not fast.installed()
    import os

    assert os.environ[fast.VARIABLE] == "0"  # the processes it starts play pure and say nothing


def test_no_build_is_silent_unless_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(fast.VARIABLE, raising=False)
    assert fast.install(tmp_path / "none") is False
    assert capsys.readouterr().err == ""
    monkeypatch.setenv(fast.VARIABLE, "1")
    assert fast.install(tmp_path / "none") is False
    assert "make fast" in capsys.readouterr().err


def test_the_tests_run_the_pure_sources() -> None:
    import minis.game

    assert not fast.installed()
    assert str(minis.game.__file__).endswith(".py")


def _type_checking_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for statement in node.body:
                if isinstance(statement, ast.Import | ast.ImportFrom):
                    names.update(alias.asname or alias.name for alias in statement.names)
    return names


def _class_fields(tree: ast.Module) -> list[tuple[str, ast.AnnAssign]]:
    return [
        (node.name, statement)
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        for statement in node.body
        if isinstance(statement, ast.AnnAssign)
    ]


@pytest.mark.parametrize("module", fast.COMPILED)
def test_a_compiled_class_names_no_type_only_import_in_its_fields(module: str) -> None:
    tree = ast.parse(fast.source_file(module).read_text(encoding="utf-8"))
    type_only = _type_checking_names(tree)
    wrong = [
        f"{module}:{field.lineno} {name}.{ast.unparse(field.target)}: {ast.unparse(field.annotation)}"
        for name, field in _class_fields(tree)
        if isinstance(field.annotation, ast.Name) and field.annotation.id in type_only
    ]
    assert not wrong, "imported only for the type checker, needed at import when compiled: " + ", ".join(
        wrong
    )


@pytest.mark.parametrize("module", fast.COMPILED)
def test_a_compiled_class_passes_its_attrs_definitions_untyped(module: str) -> None:
    tree = ast.parse(fast.source_file(module).read_text(encoding="utf-8"))
    wrong = []
    for name, field in _class_fields(tree):
        annotation = field.annotation
        base = annotation.value if isinstance(annotation, ast.Subscript) else annotation
        value = field.value
        calls = [node for node in ast.walk(value) if isinstance(node, ast.Call)] if value else []
        if (
            isinstance(base, ast.Name)
            and base.id in PRIMITIVES
            and any(ast.unparse(call.func) in ATTRS_DEFINITIONS for call in calls)
        ):
            wrong.append(f"{module}:{field.lineno} {name}.{ast.unparse(field.target)}")
    assert not wrong, "use minis.base.fields.field / factory: " + ", ".join(wrong)


def _compiled_classes() -> dict[tuple[str, str], bool]:
    """Every class of a compiled module, and whether interpreted code may subclass it: only a native
    class marked `allow_interpreted_subclasses=True`. A class mypyc keeps a Python class (`native_class=
    False`, or an attrs class) is checked by its exact type in compiled code (`isinstance`, an argument's
    type): an interpreted subclass's objects fail both (the air rules' `AirRole` mixin did: compiled, no
    ability class was an `AirRole`, and no Antiair unit had a reaction shot)."""
    found = {}
    for module in fast.COMPILED:
        tree = ast.parse(fast.source_file(module).read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                written = [ast.unparse(d) for d in node.decorator_list]
                marks = " ".join(written)
                attrs_class = any(d.startswith(("attrs.", "attr.")) for d in written)
                native = "native_class=False" not in marks and not attrs_class
                found[(module, node.name)] = native and "allow_interpreted_subclasses=True" in marks
    return found


def test_no_interpreted_class_extends_a_closed_compiled_one() -> None:
    """A class of a module left interpreted (the solver's dice, a tool's bot, an ability) may extend a
    compiled class only if that class is open to it (`_compiled_classes`); otherwise the fast build fails
    with "interpreted classes cannot inherit from compiled" when the module is imported (`minis solve`
    did, on the solver's dice), or compiled code takes the subclass's objects for strangers."""
    compiled = _compiled_classes()
    root = Path(fast.source_file("minis.dice")).parent.parent
    wrong = []
    for path in sorted([*root.joinpath("minis").rglob("*.py"), *root.joinpath("tools").rglob("*.py")]):
        module = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        if module in fast.COMPILED:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {
            alias.asname or alias.name: (node.module, alias.name)
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
            for alias in node.names
        }
        modules = {
            alias.asname or alias.name.rpartition(".")[2]: node.module + "." + alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
            for alias in node.names
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for base in node.bases:
                    written = ast.unparse(base)
                    key = imported.get(written)
                    if "." in written:  # module.Class
                        head, _, name = written.rpartition(".")
                        key = (modules.get(head, head), name)
                    if key is not None and compiled.get(key) is False:
                        wrong.append(f"{module}.{node.name} extends {key[0]}.{key[1]}")
    assert not wrong, (
        "open the base (a native class, allow_interpreted_subclasses=True) or keep it interpreted: "
        + ", ".join(wrong)
    )


def test_mypy_refuses_comparing_attrs_values_with_operators_in_compiled_modules(tmp_path: Path) -> None:
    """mypyc compiles `==`/`!=` of two values of one attrs class as `is` (tools/mypy_fast_equality.py):
    the plugin in pyproject.toml makes mypy refuse them in a compiled module, and only there."""
    root = Path(fast.source_file("minis.dice")).parent.parent
    package = tmp_path / "minis"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "base").mkdir()
    (package / "base" / "__init__.py").write_text("", encoding="utf-8")
    (package / "base" / "fast.py").write_text(
        'COMPILED: tuple[str, ...] = ("minis.compiled",)\n', encoding="utf-8"
    )
    body = (
        "import attrs\n\n\n"
        "@attrs.frozen\nclass Offer:\n    kind: str\n\n\n"
        "class Plain:\n    pass\n\n\n"
        "def used(a: Offer, b: Offer) -> bool:\n    return a != b\n\n\n"
        "def equal(a: Offer, b: Offer) -> bool:\n    return a == b\n\n\n"
        "def plain(a: Plain, b: Plain) -> bool:\n    return a == b\n\n\n"
        "def kinds(a: Offer, b: Offer) -> bool:\n    return a.kind == b.kind\n"
    )
    (package / "compiled.py").write_text(body, encoding="utf-8")
    (package / "interpreted.py").write_text(body, encoding="utf-8")
    (tmp_path / "tools").mkdir()
    shutil.copy(root / "tools" / "mypy_fast_equality.py", tmp_path / "tools")
    (tmp_path / "mypy.ini").write_text(
        "[mypy]\nstrict = True\nplugins = tools/mypy_fast_equality.py\n", encoding="utf-8"
    )
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--no-incremental", "-p", "minis"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    errors = sorted(line.split(": error: ")[0] for line in done.stdout.splitlines() if "fast build" in line)
    assert errors == ["minis/compiled.py:14", "minis/compiled.py:18"], done.stdout
    assert "'!=' between two Offer values" in done.stdout and "minis.base.fields.same" in done.stdout
