"""Fixtures shared by the window tests: arcade in headless mode, a window driven by input events, and
the folder a test saves its pictures in.

The fixtures only run when a test asks for them, so tests without a window never import arcade.
Tests write nothing into the tracked tree: pictures go to the test's own tmp_path, unless
`--screenshots DIR` asks for them (`make screenshots` renders the docs' pictures into docs/screenshots).
A test that takes the `shots` fixture is marked `screenshots`, so `-m screenshots` runs just those.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: The tests run the pure sources (and so do the commands they start), even where a fast build is made
#: (minis/base/fast.py); tests/test_fast_parity.py starts its fast player itself.
os.environ.setdefault("MINIS_FAST", "0")

from minis.ui import boot


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--screenshots",
        metavar="DIR",
        default=None,
        help="save the UI tests' pictures into DIR (make screenshots: docs/screenshots) instead of tmp_path",
    )
    parser.addoption(
        "--slow",
        action="store_true",
        default=False,
        help="also run the long tests marked `slow` (the game server's 20 kills and 1,000-message fuzz)",
    )


#: The card index of this test run (minis/content/card_index.py): a folder of its own, never the user's cache.
_CACHE_MADE: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "screenshots: renders pictures for the docs (make screenshots)")
    config.addinivalue_line(
        "markers", "slow: a long run, skipped unless --slow is given (make test skips it)"
    )
    if "MINIS_CACHE" not in os.environ:
        _CACHE_MADE.append(tempfile.mkdtemp(prefix="minis-test-cache-"))
        os.environ["MINIS_CACHE"] = _CACHE_MADE[-1]


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _CACHE_MADE:
        shutil.rmtree(folder, ignore_errors=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    slow = config.getoption("--slow")
    for item in items:
        if "shots" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.screenshots)
        if not slow and item.get_closest_marker("slow") is not None:
            item.add_marker(pytest.mark.skip(reason="a long run: give --slow to run it"))


@pytest.fixture(autouse=True)
def no_motion(monkeypatch: pytest.MonkeyPatch) -> None:
    """Motion at the table off (MINIS_MOTION=0): a test's clicks act at once, never skip an animation.
    tests/test_ui_motion.py turns it on and steps a clock of its own."""
    monkeypatch.setenv("MINIS_MOTION", "0")


@pytest.fixture
def shots(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """Where the test saves its pictures: its own tmp_path, or the folder of `--screenshots DIR`."""
    chosen = request.config.getoption("--screenshots")
    folder = Path(chosen) if chosen else tmp_path / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def arcade() -> Any:
    """arcade, imported in headless mode (before anything else in this process imports it)."""
    return boot.import_arcade(headless=True)


@pytest.fixture
def driver(arcade: Any, tmp_path: Path) -> Iterator[Any]:
    """A fresh 1280x800 window at the main menu, saving games under the test's own folder."""
    from minis.ui.driver import Driver

    driver = Driver.open()
    driver.window.saves = tmp_path / "saves"
    yield driver
    driver.close()
