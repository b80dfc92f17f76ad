"""Fixtures shared by the window tests: arcade in headless mode, and a window driven by input events.

The fixtures only run when a test asks for them, so tests without a window never import arcade.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from minis.ui import boot


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
