"""Choose between a real window and arcade's headless mode, before arcade is imported.

Arcade reads `ARCADE_HEADLESS` once, when it is first imported, so the choice has to be made here,
before any module that imports arcade. Headless mode renders with EGL into an offscreen surface: it
needs no X server, which is what tests, CI and `minis play --screenshot` want. The variable is set
only for the import and restored afterwards, so child processes and other tests do not inherit it.
"""

from __future__ import annotations

import os
import sys
from types import ModuleType

_VARIABLE = "ARCADE_HEADLESS"


def display_available() -> bool:
    """True when an X server is named (pyglet's windows on Linux need one)."""
    return bool(os.environ.get("DISPLAY"))


def import_arcade(headless: bool) -> ModuleType:
    """Import arcade in the chosen mode and return it.

    If arcade was imported already, its mode cannot change any more; the module is returned as it is
    (a window under a real display works for screenshots and tests too, it is just not hidden from X),
    unless headless mode was wanted and there is no display: then no window could open, so say why.
    """
    if "arcade" in sys.modules:
        arcade = sys.modules["arcade"]
        if headless and not getattr(arcade, "headless", False) and not display_available():
            raise RuntimeError(
                "arcade was imported before minis.ui.boot chose headless mode, and there is no display: "
                "import arcade only through minis.ui.boot.import_arcade"
            )
        return arcade
    previous = os.environ.get(_VARIABLE)
    if headless:
        os.environ[_VARIABLE] = "1"
    try:
        import arcade
    finally:
        if previous is None:
            os.environ.pop(_VARIABLE, None)
        else:
            os.environ[_VARIABLE] = previous
    return arcade


def is_headless() -> bool:
    """Whether the imported arcade runs headless (False if arcade is not imported yet)."""
    arcade = sys.modules.get("arcade")
    return bool(arcade and getattr(arcade, "headless", False))
