"""The layers of `minis`, bottom to top, and that every import points down or sideways (issue 36).

A module may import its own layer and the layers below it, never one above: the engine knows nothing
of the bots, the bots nothing of the windows. The type checker's imports (under `if TYPE_CHECKING:`)
count as much as the ones that run: a type named across layers ties them all the same. The graph is
read from the files as in tests/test_import_cycles.py, imports inside functions included.

`LAYERS` names every module of the package, by package (`minis.rules.*`: the package and all under it)
or one by one (`minis.game`); a new module that no row covers fails the test until it is given a
layer (docs/engine.md, "The layout", says which). What may import what inside one layer (the lab never
imports the network, only the front imports the command line) is tests/test_architecture.py's. The
modules outside code imports by name stay at the top of the package, and no other module is there
(docs/contracts.md, "Module names").
"""

from __future__ import annotations

from pathlib import Path

from test_import_cycles import PACKAGE_ROOT, Package, import_graph, write_fake_package

#: The layers, bottom first: (name, the modules in it).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # no game knowledge: errors, limits, files, TOML, the shipped data, attrs fields, the fast build's
    # switch, sides and kinds; the package's own __init__ (its version, the fast build at import)
    ("base", ("minis", "minis.base.*")),
    # the hex grid and what a hex or a hexside may be
    ("geometry", ("minis.hexgrid", "minis.terrain")),
    # what a battle is fought on and with: the board, its line of sight and map files; the cards and
    # their catalogue, armies, rule sets, nationalities
    (
        "content",
        (
            "minis.board",
            "minis.mapfile.*",
            "minis.cards",
            "minis.army",
            "minis.content.*",
        ),
    ),
    # the battle machinery: the state, the rules and the abilities, the game, its records and tests,
    # scenarios, odds and projections
    (
        "engine",
        (
            "minis.state",
            "minis.abilities",
            "minis.dice",
            "minis.rules.*",
            "minis.ability_rules.*",
            "minis.engine.*",
            "minis.game",
            "minis.record",
            "minis.rulestest",
        ),
    ),
    # the computer players
    ("bots", ("minis.ai.*",)),
    # what runs games between them and people: the balance lab, the game server and its clients
    ("services", ("minis.lab.*", "minis.net.*")),
    # what a person starts: the command line and the window
    ("front", ("minis.commands.*", "minis.cli", "minis.__main__", "minis.ui.*")),
)

#: The modules outside code imports by name (docs/contracts.md, "Module names"): they stay at the top of
#: the package, and they alone, besides its `__init__` and `__main__`, are modules there.
PUBLIC_MODULES = ("hexgrid", "terrain", "board", "cards", "abilities", "army", "state", "game", "dice")
PUBLIC_MODULES_TOO = ("record", "rulestest", "cli")
PUBLIC_PACKAGES = ("rules", "mapfile", "ai", "ui")


def covers(pattern: str, module: str) -> bool:
    """`minis.x.*` covers minis.x and everything under it; any other pattern only the module it names."""
    if pattern.endswith(".*"):
        package = pattern[:-2]
        return module == package or module.startswith(package + ".")
    return module == pattern


def layer_problems(package: Package, layers: tuple[tuple[str, tuple[str, ...]], ...]) -> list[str]:
    """One line per module no row covers (or two rows do), and per import of a higher layer's module."""
    rank: dict[str, int] = {}
    problems: list[str] = []
    for module in package.files:
        found = [i for i, (_, patterns) in enumerate(layers) for p in patterns if covers(p, module)]
        if len(found) != 1:
            where = (
                "no layer" if not found else "more than one row: " + ", ".join(layers[i][0] for i in found)
            )
            problems.append(f"{package.display(module)} is in {where}")
        else:
            rank[module] = found[0]
    graph = import_graph(package, types_too=True)
    for module, edges in graph.items():
        for edge in edges:
            if module in rank and edge.target in rank and rank[edge.target] > rank[module]:
                problems.append(
                    f"{package.display(module)}:{edge.line} ({layers[rank[module]][0]}) imports "
                    f"{edge.target} ({layers[rank[edge.target]][0]})"
                )
    return problems


# --- the repository ------------------------------------------------------------------------------------


def test_every_module_has_a_layer_and_imports_only_its_own_and_lower_layers() -> None:
    found = layer_problems(Package.read(PACKAGE_ROOT), LAYERS)
    assert not found, 'the layers (tests/test_layers.py, docs/engine.md "The layout"):\n' + "\n".join(found)


def test_the_table_names_no_module_that_is_gone() -> None:
    """Every row still covers a module: a row left behind by a move would hide a missing one later."""
    modules = Package.read(PACKAGE_ROOT).files
    stale = [p for _, patterns in LAYERS for p in patterns if not any(covers(p, m) for m in modules)]
    assert not stale, f"rows that cover no module: {stale}"


def test_the_contracts_modules_stay_at_the_top_and_no_other_module_is_there() -> None:
    """A new module goes into its layer's package (docs/engine.md, "The layout"), never beside these."""
    modules = PUBLIC_MODULES + PUBLIC_MODULES_TOO
    assert all((PACKAGE_ROOT / f"{name}.py").is_file() for name in modules)
    assert all((PACKAGE_ROOT / name / "__init__.py").is_file() for name in PUBLIC_PACKAGES)
    top = sorted(path.stem for path in PACKAGE_ROOT.glob("*.py"))
    assert top == sorted(["__init__", "__main__", *modules]), "only the contract's modules are at the top"


# --- the checker, on packages written for it -----------------------------------------------------------

FAKE_LAYERS = (("low", ("fake", "fake.low.*")), ("high", ("fake.high", "fake.top.*")))


def test_an_upward_import_is_found_even_a_late_or_type_only_one(tmp_path: Path) -> None:
    package = write_fake_package(
        tmp_path,
        {
            "fake/__init__.py": "",
            "fake/low/__init__.py": "",
            "fake/low/a.py": "def late():\n    from fake import high\n",
            "fake/low/b.py": "import typing\nif typing.TYPE_CHECKING:\n    from fake.top import t\n",
            "fake/low/c.py": "from fake.low import a\n",  # sideways: allowed
            "fake/high.py": "from fake.low import a, b\n",  # downward: allowed
            "fake/top/__init__.py": "",
            "fake/top/t.py": "",
        },
    )
    assert layer_problems(package, FAKE_LAYERS) == [
        "fake/low/a.py:2 (low) imports fake.high (high)",
        "fake/low/b.py:3 (low) imports fake.top.t (high)",
    ]


def test_a_module_without_a_layer_is_named(tmp_path: Path) -> None:
    package = write_fake_package(tmp_path, {"fake/__init__.py": "", "fake/high.py": "", "fake/stray.py": ""})
    assert layer_problems(package, FAKE_LAYERS) == ["fake/stray.py is in no layer"]
