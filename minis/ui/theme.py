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
