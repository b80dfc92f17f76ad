"""Colours, fonts and sizes of the front end, in one place so every screen looks the same.

The fonts are the Liberation fonts that ship inside arcade, so text looks the same on every machine
(a fresh machine may have no system fonts at all). Importing this module does not import arcade.
"""

from __future__ import annotations

Colour = tuple[int, int, int, int]

FONT = "Liberation Sans"
_FONT_FILES = (
    ":system:fonts/ttf/Liberation/Liberation_Sans_Regular.ttf",
    ":system:fonts/ttf/Liberation/Liberation_Sans_Bold.ttf",
)
_fonts_loaded = False


def load_fonts() -> None:
    """Register the UI fonts with pyglet (once per process)."""
    global _fonts_loaded
    import arcade

    if not _fonts_loaded:
        for path in _FONT_FILES:
            arcade.load_font(path)
        _fonts_loaded = True


# --- screen chrome -----------------------------------------------------------------------------------
BACKGROUND: Colour = (30, 34, 40, 255)
PANEL: Colour = (42, 48, 57, 255)
PANEL_BORDER: Colour = (78, 88, 102, 255)
BAR: Colour = (22, 25, 30, 255)
TEXT: Colour = (232, 232, 226, 255)
TEXT_DIM: Colour = (160, 166, 172, 255)
ACCENT: Colour = (222, 178, 74, 255)
GOOD: Colour = (112, 200, 110, 255)
BAD: Colour = (232, 96, 84, 255)

BUTTON: Colour = (60, 68, 80, 255)
BUTTON_HOVER: Colour = (82, 93, 110, 255)
BUTTON_PRESSED: Colour = (46, 52, 62, 255)
BUTTON_SELECTED: Colour = (150, 118, 46, 255)
FOCUS: Colour = ACCENT

TITLE_SIZE = 22
TEXT_SIZE = 13
SMALL_SIZE = 11
BAR_HEIGHT = 52
HINT_HEIGHT = 30
MARGIN = 12


# --- counters on the map -----------------------------------------------------------------------------
#: A counter's face by nationality (the colour of the miniatures' bases, roughly), by the nation's name.
#: Dark, so the face stands out (3:1 or more) from every terrain colour and zone tint under it, and its
#: light name and symbol stand out from it (tests/test_ui_counters.py measures both).
NATION_FACE: dict[str, Colour] = {
    "Germany": (40, 46, 56, 255),
    "Italy": (50, 48, 16, 255),
    "Japan": (66, 42, 6, 255),
    "United States": (34, 52, 18, 255),
    "United Kingdom": (68, 40, 22, 255),
    "Soviet Union": (94, 18, 16, 255),
    "France": (26, 40, 94, 255),
    "Hungary": (34, 42, 22, 255),
    "Romania": (46, 40, 10, 255),
    "Finland": (30, 46, 74, 255),
    "Slovakia": (34, 38, 70, 255),
    "Croatia": (76, 26, 30, 255),
    "Bulgaria": (24, 48, 28, 255),
    "Poland": (84, 18, 34, 255),
    "Canada": (62, 38, 16, 255),
    "Australia": (64, 42, 16, 255),
    "New Zealand": (54, 40, 22, 255),
    "South Africa": (56, 46, 16, 255),
    "Belgium": (56, 44, 6, 255),
    "Greece": (16, 40, 80, 255),
    "Yugoslavia": (60, 34, 26, 255),
    "China": (24, 50, 60, 255),
}
#: A counter's rim by side: the Axis near black, the Allies pale.
SIDE_RIM: dict[str, Colour] = {"axis": (12, 12, 14, 255), "allies": (238, 236, 224, 255)}
#: A counter's name, numbers and symbol.
COUNTER_TEXT: Colour = (250, 248, 238, 255)


def luminance(colour: Colour) -> float:
    """The relative luminance of an sRGB colour (WCAG 2), 0 black to 1 white."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Colour, b: Colour) -> float:
    """The WCAG contrast ratio of two colours, 1 (the same) to 21 (black on white)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def blend(under: Colour, over: Colour) -> Colour:
    """`over` drawn with its alpha on an opaque `under` (what the screen shows)."""
    t = over[3] / 255
    return (
        round(under[0] + (over[0] - under[0]) * t),
        round(under[1] + (over[1] - under[1]) * t),
        round(under[2] + (over[2] - under[2]) * t),
        255,
    )
