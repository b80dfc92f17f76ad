"""The boards the UI shows: the six configurations (docs/contracts.md#maps), from `minis.mapfile`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from minis.board import Board

if TYPE_CHECKING:
    from minis.ui.widgets import TabBar

#: The six starter configurations, by number (their names are the reference's).
CONFIGURATIONS: dict[int, str] = {
    1: "Half and Half",
    2: "Knife Fight",
    3: "High Ground",
    4: "Urban Combat",
    5: "Hill 107",
    6: "Tiger Heaven",
}


def configuration(number: int) -> Board:
    """Configuration `number` (1-6) as a Board; MinisError if its map files are broken.

    `minis.mapfile` caches boards until their files change, so asking again is cheap.
    """
    from minis.mapfile import load_configuration

    return load_configuration(number)


def title(number: int) -> str:
    return f"{number} {CONFIGURATIONS.get(number, '')}".strip()


def short_title(number: int) -> str:
    """The number and the first word of the name, for narrow tabs: `1 Half`."""
    words = CONFIGURATIONS.get(number, "").split()
    return f"{number} {words[0]}" if words else str(number)


def configuration_tabs(on_choose: Callable[[int], object]) -> TabBar:
    """A tab per configuration for the title bar; `on_choose(number)` hears the player's pick.

    The tabs never take the focus: on the map screens the arrow keys pan the map and 1-6 choose.
    """
    from minis.ui.widgets import TabBar

    tabs = TabBar(
        [title(n) for n in CONFIGURATIONS],
        lambda i: on_choose(i + 1),
        short=[short_title(n) for n in CONFIGURATIONS],
    )
    tabs.focusable = False
    return tabs


def place_tabs(tabs: TabBar, width: int, height: int, left: float) -> None:
    """Put the configuration tabs in the title bar, from `left` to the window's right margin."""
    from minis.ui import theme
    from minis.ui.widgets import Box

    m = theme.MARGIN
    tabs.place(Box(left, height - theme.BAR_HEIGHT + 9, width - left - m, theme.BAR_HEIGHT - 18))


def number_key(symbol: int) -> int | None:
    """The configuration a key chooses: 1-6 on the top row or the keypad (None for other keys)."""
    import arcade

    for n in CONFIGURATIONS:
        if symbol in (getattr(arcade.key, f"KEY_{n}"), getattr(arcade.key, f"NUM_{n}")):
            return n
    return None
