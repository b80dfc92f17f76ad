"""A search box: a text field that tells its screen of every change, so a list filters as one types.

Down or Enter hands the keys to the list it searches (the screen's `on_leave`), so a player types a
few letters, goes down the list and adds a card without the mouse. It edits as `TextField` does (the
caret, Ctrl+A, Delete, Backspace); Ctrl+Backspace, the "×" at its right end, or Escape (its screen's
`on_back`, see `clear`) empties it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import arcade

from minis.ui import theme
from minis.ui.widgets import Box, Label, TextField, Widget

#: The width of the "×" that empties the box, at its right end.
CLEAR_WIDTH = 26


class SearchField(TextField):
    """A `TextField` that calls `on_search` (no argument) after each change, and `on_leave` on Down,
    Enter or Page Down."""

    def __init__(
        self,
        on_search: Callable[[], object],
        on_leave: Callable[[], object],
        *,
        placeholder: str = "Search",
        size: float = theme.TEXT_SIZE,
    ) -> None:
        super().__init__(on_change=lambda _text: on_search(), placeholder=placeholder, size=size)
        self.on_leave = on_leave
        self.cross = Label("×", size=size + 3, bold=True, colour=theme.TEXT_DIM, align="center")
        self.reserve = CLEAR_WIDTH

    def clear_box(self) -> Box:
        """Where the "×" that empties the box is (shown while it holds text)."""
        return Box(self.box.right - CLEAR_WIDTH, self.box.bottom, CLEAR_WIDTH, self.box.height)

    def parts(self) -> Sequence[Widget]:
        return [*super().parts(), *([self.cross] if self.value else [])]

    def place(self, box: Box) -> None:
        super().place(box)
        self.cross.place(self.clear_box())

    def clear(self) -> bool:
        """Empty the box (Escape, the "×"); False if it was empty already."""
        if not self.value:
            return False
        self.set_value("")
        return True

    def draw(self) -> None:
        super().draw()
        if self.visible and self.value:
            self.cross.draw()

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if self.visible and self.value and self.clear_box().contains(x, y):
            self.clear()
            return True
        return super().on_mouse_press(x, y, button, modifiers)

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol in (arcade.key.DOWN, arcade.key.ENTER, arcade.key.NUM_ENTER, arcade.key.PAGEDOWN):
            self.on_leave()
            return True
        return super().on_key_press(symbol, modifiers)
