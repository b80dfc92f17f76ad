"""A scroll bar beside a `ListBox`: it shows how much of a long list is in view and where, and moves it.

The list scrolls by itself with the wheel and the keys; the bar says that there is more, and lets
the mouse go there: a click above or below the thumb turns a page, dragging the thumb scrolls along.
It scrolls the list through the list's own wheel handler, so the list keeps its rules (never past
the last row). Hidden when the whole list is in view.
"""

from __future__ import annotations

from collections.abc import Hashable

import arcade

from minis.ui import theme
from minis.ui.widgets import Box, ListBox, Widget, fill, outline

#: The bar's width in pixels.
WIDTH = 12


class ScrollBar(Widget):
    """The bar of `list_box`; place it beside the list (same height)."""

    def __init__(self, list_box: ListBox) -> None:
        super().__init__()
        self.list = list_box
        #: While the thumb is dragged: the row at the top when the drag began, and where it began.
        self._drag: tuple[int, float] | None = None

    @property
    def needed(self) -> bool:
        return len(self.list.items) > self.list.visible_rows

    def thumb(self) -> Box:
        """The thumb: as tall as the part of the list in view, as far down as the top row is."""
        rows, total = self.list.visible_rows, max(1, len(self.list.items))
        height = max(20.0, self.box.height * min(1.0, rows / total))
        travel = self.box.height - height
        last = max(1, total - rows)
        top = self.box.top - travel * min(1.0, self.list.top_row / last)
        return Box(self.box.left, top - height, self.box.width, height)

    def look(self) -> Hashable:
        return (super().look(), self.list.top_row, len(self.list.items), self.list.visible_rows, self._drag)

    def draw(self) -> None:
        if not self.visible or not self.needed:
            return
        fill(self.box, theme.BAR)
        thumb = self.thumb()
        fill(thumb, theme.BUTTON_SELECTED if self._drag is not None else theme.BUTTON_HOVER)
        outline(thumb, theme.PANEL_BORDER)

    def _scroll_by(self, rows: int) -> None:
        centre = self.list.box.centre
        self.list.on_mouse_scroll(centre[0], centre[1], -rows)

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if not (
            self.visible and self.needed and button == arcade.MOUSE_BUTTON_LEFT and self.box.contains(x, y)
        ):
            return False
        thumb = self.thumb()
        if thumb.bottom <= y <= thumb.top:
            self._drag = (self.list.top_row, y)
        else:  # a page towards the click
            self._scroll_by(self.list.visible_rows if y < thumb.bottom else -self.list.visible_rows)
        return True

    def on_mouse_drag(self, x: float, y: float, dx: float, dy: float) -> bool:
        if self._drag is None:
            return False
        start_row, start_y = self._drag
        thumb = self.thumb()
        travel = max(1.0, self.box.height - thumb.height)
        last = max(0, len(self.list.items) - self.list.visible_rows)
        wanted = start_row + round((start_y - y) / travel * last)
        self._scroll_by(wanted - self.list.top_row)
        return True

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if self._drag is None:
            return False
        self._drag = None
        return True
