"""The boards the UI shows: the six configurations (DESIGN section 4), from `minis.mapfile`."""

from __future__ import annotations

from minis.board import Board

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
