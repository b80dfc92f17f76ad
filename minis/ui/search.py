"""A search box: a text field that tells its screen of every change, so a list filters as one types.

Down or Enter hands the keys to the list it searches (the screen's `on_leave`), so a player types a
few letters, goes down the list and adds a card without the mouse. Ctrl+Backspace empties it.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade

from minis.ui import theme
from minis.ui.widgets import TextField


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

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol in (arcade.key.DOWN, arcade.key.ENTER, arcade.key.NUM_ENTER, arcade.key.PAGEDOWN):
            self.on_leave()
            return True
        return super().on_key_press(symbol, modifiers)
