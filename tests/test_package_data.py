"""The shipped data in the package, and a player's files in a user folder (minis.base.data, setup.py).

The first tests check where minis looks, in a checkout and in a stand-in for an installed copy. The
last ones do what a player does: build the wheel (`pip wheel .`, offline, from a copy of the sources
in a temporary folder), install it into a new virtual environment and run the commands from a folder
outside the checkout, with nothing of the checkout on the path.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from typing import Any

import pytest

from minis import record
from minis.army import load_army
from minis.base import data
from minis.base.atomic import write_atomic
from minis.base.sides import Side
from minis.engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
#: What a clean clone needs to build the wheel (besides the data folders, minis.base.data.SHIPPED).
SOURCES = ("minis", "pyproject.toml", "setup.py", "MANIFEST.in", "README.md")
#: Environment variables that would point minis at the checkout, a display or the tester's own files.
CLEARED = (
    *("DISPLAY", "WAYLAND_DISPLAY", "ARCADE_HEADLESS", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"),
    *("XDG_DATA_HOME", "MINIS_MAPS", "MINIS_SAVES", "MINIS_ARMIES", "XDG_CACHE_HOME", "MINIS_CACHE"),
)
Completed = subprocess.CompletedProcess[str]
#: A subprocess that takes longer than this has hung.
TIMEOUT = 120


# --- where minis looks, in the checkout --------------------------------------------------------------


def test_a_checkout_reads_the_data_folders_at_the_top_of_the_repository() -> None:
    assert data.packaged_data() is None  # no minis/_data in a checkout or an editable install
    for name in data.SHIPPED:
        assert data.shipped_folder(name) == ROOT / name
    with pytest.raises(ValueError, match="not a shipped folder"):
        data.shipped_folder("saves")


def test_sample_armies_and_scenarios_load_by_name_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert load_army("sample-axis").side is Side.AXIS
    assert load_army("sample-allies").side is Side.ALLIES
    assert load_scenario("breakout").file == str(ROOT / "scenarios" / "breakout.toml")


def test_a_file_of_that_name_in_the_working_folder_comes_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sample-axis").write_text((ROOT / "armies" / "sample-allies.toml").read_text())
    assert load_army("sample-axis").side is Side.ALLIES  # the player's file, not the shipped one
    assert data.shipped_file("sample-axis.toml", "armies") == Path("sample-axis.toml")  # a file name
    assert data.shipped_file("nowhere/sample-axis", "armies") == Path("nowhere/sample-axis")
    assert data.shipped_file("no-such-army", "armies") == Path("no-such-army")


def test_user_folders_follow_the_variable_then_xdg_then_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv("MINIS_ARMIES", raising=False)
    assert data.user_folder("armies", "MINIS_ARMIES") == tmp_path / "home/.local/share/minis/armies"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data.user_folder("armies", "MINIS_ARMIES") == tmp_path / "xdg/minis/armies"
    monkeypatch.setenv("MINIS_ARMIES", str(tmp_path / "mine"))
    assert data.user_folder("armies", "MINIS_ARMIES") == tmp_path / "mine"


def test_the_players_armies_folder_starts_with_the_sample_armies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "data" / "armies"
    monkeypatch.setenv("MINIS_ARMIES", str(folder))
    assert data.user_armies() == folder
    shipped = sorted(p.name for p in data.shipped_folder("armies").glob("*.toml"))
    assert {"sample-allies.toml", "sample-axis.toml", "sample-finnish.toml"} <= set(shipped)
    assert sorted(p.name for p in folder.iterdir()) == shipped
    (folder / "sample-axis.toml").unlink()  # the player's folder is theirs: nothing comes back
    data.user_armies()
    assert sorted(p.name for p in folder.iterdir()) == [
        name for name in shipped if name != "sample-axis.toml"
    ]


# --- where minis looks, installed (a stand-in package folder with its _data) --------------------------


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """minis seen as installed: a package folder holding `_data` with the shipped folders' files."""
    package = tmp_path / "site-packages" / "minis"
    for name in data.SHIPPED:
        shutil.copytree(ROOT / name, package / data.PACKAGED / name)
    monkeypatch.setattr(data, "package_folder", lambda: package)
    return package / data.PACKAGED


def test_an_installed_copy_reads_its_own_data(installed: Path) -> None:
    assert data.packaged_data() == installed
    assert data.shipped_folder("cards") == installed / "cards"
    assert data.shipped_file("breakout", "scenarios") == installed / "scenarios" / "breakout.toml"


def test_nothing_is_written_into_an_installed_copy(installed: Path, tmp_path: Path) -> None:
    target = installed / "armies" / "mine.toml"
    with pytest.raises(OSError, match="read-only: save a copy elsewhere"):
        write_atomic(target, "name = 'mine'\n")
    assert not target.exists()
    assert not data.in_packaged_data(tmp_path / "mine.toml")
    write_atomic(tmp_path / "mine.toml", "name = 'mine'\n")  # anywhere else is fine


def test_the_army_builder_of_an_installed_copy_uses_the_players_folder(
    installed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, arcade: Any
) -> None:
    from minis.ui.armybuilder import armies_folder

    monkeypatch.chdir(tmp_path)  # no ./armies here
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("MINIS_ARMIES", raising=False)
    assert armies_folder() == tmp_path / "xdg" / "minis" / "armies"
    (tmp_path / "armies").mkdir()
    assert armies_folder() == tmp_path / "armies"  # a folder of the player's own, here, comes first


# --- the wheel, built and installed into a new virtual environment ------------------------------------


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel `pip wheel .` builds from a copy of the sources (offline: the venv's setuptools)."""
    source = tmp_path_factory.mktemp("clone")
    junk = shutil.ignore_patterns("__pycache__", "*.pyc", "_data")
    for name in (*SOURCES, *data.SHIPPED):
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=junk)
        else:
            shutil.copyfile(path, source / name)
    dist = tmp_path_factory.mktemp("dist")
    offline = ("--no-build-isolation", "--no-deps", "--no-index", "--no-cache-dir", "--quiet")
    result = run([sys.executable, "-m", "pip", "wheel", ".", *offline, "-w", str(dist)], cwd=source)
    assert result.returncode == 0, result.stdout + result.stderr
    (built,) = dist.glob("minis-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtual environment with the wheel installed; its dependencies (arcade, numpy, attrs...)
    come from the project's environment through a .pth file, after the venv's own site-packages."""
    folder = tmp_path_factory.mktemp("venv")
    assert run([sys.executable, "-m", "venv", "--without-pip", str(folder)]).returncode == 0
    python = folder / "bin" / "python"
    offline = ("--no-deps", "--no-index", "--no-cache-dir", "--quiet")
    result = run([sys.executable, "-m", "pip", "--python", str(python), "install", *offline, str(wheel)])
    assert result.returncode == 0, result.stdout + result.stderr
    site = run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"])
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (Path(site.stdout.strip()) / "minis-test-dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    return folder


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """A working folder outside the checkout (its own home folder too)."""
    (tmp_path / "home").mkdir()
    return tmp_path


def run(command: list[str], cwd: Path | None = None, home: Path | None = None) -> Completed:
    """A command with nothing of the checkout, a display or the tester's own folders in its environment."""
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    if home is not None:
        env["HOME"] = str(home)
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=env, timeout=TIMEOUT)


def minis(venv: Path, folder: Path, *args: str) -> Completed:
    """The installed `minis` command, run in `folder`."""
    result = run([str(venv / "bin" / "minis"), *args], cwd=folder, home=folder / "home")
    assert "Traceback" not in result.stderr, result.stderr
    return result


def test_the_wheel_carries_every_module_and_every_data_file(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "minis").rglob("*.py")}
    assert modules <= names
    for name in data.SHIPPED:
        files = {p.relative_to(ROOT).as_posix() for p in (ROOT / name).rglob("*.toml")}
        assert files, name
        assert {f"minis/{data.PACKAGED}/{f}" for f in files} <= names
    assert not [n for n in names if n.split("/")[0] in data.SHIPPED]  # nothing at the top of site-packages


def test_the_installed_minis_is_the_wheels_not_the_checkouts(venv: Path, elsewhere: Path) -> None:
    script = (
        "import minis.base.data as d, minis.record as r; print(d.packaged_data()); print(r.maps_version())"
    )
    result = run([str(venv / "bin" / "python"), "-c", script], cwd=elsewhere)
    assert result.returncode == 0, result.stderr
    packaged, maps_version = result.stdout.split()
    assert Path(packaged).is_relative_to(venv) and not Path(packaged).is_relative_to(ROOT)
    assert maps_version == record.maps_version()  # a record made here replays there


def test_cards_maps_armies_and_scenarios_work_from_another_folder(venv: Path, elsewhere: Path) -> None:
    cards = minis(venv, elsewhere, "cards", "list")
    assert cards.returncode == 0, cards.stderr
    assert len(cards.stdout.splitlines()) == len(list((ROOT / "cards").glob("*.toml")))
    terrain = minis(venv, elsewhere, "map", "show", "1", "--terrain")
    assert terrain.returncode == 0 and terrain.stdout.strip(), terrain.stderr
    armies = minis(venv, elsewhere, "army", "check", "sample-axis", "sample-allies")
    assert armies.returncode == 0 and armies.stdout.count(": ok, 100 points") == 2, armies.stderr
    games = ("--games", "2", "--seed", "7", "--config", "3")
    simulate = minis(
        venv, elsewhere, "simulate", "--axis", "sample-axis", "--allies", "sample-allies", *games
    )
    assert simulate.returncode == 0 and "2 games" in simulate.stdout, simulate.stdout + simulate.stderr
    names = sorted(p.stem for p in (ROOT / "scenarios").glob("*.toml"))
    script = (
        f"from minis.engine.scenario import load_scenario\nfor n in {names!r}: print(load_scenario(n).title)"
    )
    scenarios = run([str(venv / "bin" / "python"), "-c", script], cwd=elsewhere)
    assert scenarios.returncode == 0 and len(scenarios.stdout.splitlines()) == len(names), scenarios.stderr


def test_the_demo_screenshot_works_from_another_folder(venv: Path, elsewhere: Path) -> None:
    result = minis(venv, elsewhere, "play", "--demo", "--screenshot", "x.png")
    assert result.returncode == 0, result.stderr
    assert (elsewhere / "x.png").stat().st_size > 10_000


def test_the_installed_data_are_read_only_for_minis(venv: Path, elsewhere: Path) -> None:
    script = "import minis.base.data as d; print(d.packaged_data())"
    packaged = run([str(venv / "bin" / "python"), "-c", script], cwd=elsewhere)
    target = Path(packaged.stdout.strip()) / "maps" / "mine.toml"
    result = minis(venv, elsewhere, "map", "new", "--rows", "3", "--cols", "4", str(target))
    assert result.returncode in (1, 2)
    assert f"{target}:" in result.stderr and "read-only" in result.stderr
    assert not target.exists()


def test_the_installed_catalogues_index_goes_to_the_players_cache(venv: Path, elsewhere: Path) -> None:
    """The card index of an installed minis is kept in the player's cache folder, never in the package,
    and the listing is the same with it."""
    script = "import minis.base.data as d; print(d.packaged_data())"
    packaged = Path(run([str(venv / "bin" / "python"), "-c", script], cwd=elsewhere).stdout.strip())
    before = sorted(p for p in packaged.parent.rglob("*") if "__pycache__" not in p.parts)
    first = minis(venv, elsewhere, "cards", "list")
    (index,) = (elsewhere / "home" / ".cache" / "minis").glob("cards-*.json")
    second = minis(venv, elsewhere, "cards", "list")
    assert first.returncode == second.returncode == 0 and first.stdout == second.stdout
    assert index.is_file()
    assert sorted(p for p in packaged.parent.rglob("*") if "__pycache__" not in p.parts) == before
