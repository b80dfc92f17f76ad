"""The battle's log beside the map: the game's lines so far, none cut short, the wheel to go back.

A widget of its own because the panel's other texts show one moment (the last action, the message) and
are cut to fit their boxes, while the log keeps the whole game and scrolls.
"""

from __future__ import annotations

from collections.abc import Hashable

from minis.ui import theme
from minis.ui.widgets import Box, Label, Widget, fill, fit_lines, outline


class LogView(Widget):
    """The game's lines, newest at the bottom, each wrapped whole (never cut short); the wheel scrolls
    back a line at a time."""

    #: The most lines laid out at once (the box shows fewer; the wheel reaches the rest).
    WINDOW = 24

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []
        self.back = 0
        self.text = Label("", size=theme.SMALL_SIZE, multiline=True, colour=theme.TEXT)

    def set_lines(self, lines: list[str]) -> None:
        if lines == self.lines:
            return
        self.lines = lines
        self.back = min(self.back, max(0, len(lines) - 1))
        self._update()

    def _update(self) -> None:
        end = len(self.lines) - self.back
        inner = self.text.box
        fit_lines(self.text, self.lines[max(0, end - self.WINDOW) : end], inner.width, inner.height)

    def place(self, box: Box) -> None:
        super().place(box)
        self.text.place(box.inset(6, 2))
        self._update()

    def look(self) -> Hashable:
        return (super().look(), self.text.text)

    def draw(self) -> None:
        fill(self.box, theme.BAR)
        outline(self.box, theme.PANEL_BORDER)
        self.text.draw()

    def on_mouse_scroll(self, x: float, y: float, scroll_y: float) -> bool:
        if not self.box.contains(x, y):
            return False
        self.back = max(0, min(len(self.lines) - 1, self.back + int(scroll_y)))
        self._update()
        return True
