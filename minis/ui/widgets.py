"""A small set of our own widgets: label, button, list, tab bar and panel.

Why not `arcade.gui`: importing it fails in arcade's headless mode (it pulls in pyglet's X11 input
module), and the UI tests and `minis play --screenshot` run headless. These widgets need nothing but
arcade's drawing and text, and every one of them works with the keyboard as well as the mouse.

A widget owns a `Box` in window pixels (origin bottom-left, as in arcade). The screen that holds it
calls `place` on every resize, `draw` every frame, and hands it the input events; a handler returns
True when it used the event, so the screen stops offering it to others.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

import arcade
import attrs

from minis.ui import theme

#: Keys that activate a focused button or list entry.
ACTIVATE_KEYS = (arcade.key.ENTER, arcade.key.NUM_ENTER, arcade.key.SPACE)


@attrs.frozen
class Box:
    """A rectangle in window pixels; (left, bottom) is its lower-left corner."""

    left: float
    bottom: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.left + self.width

    @property
    def top(self) -> float:
        return self.bottom + self.height

    @property
    def centre(self) -> tuple[float, float]:
        return (self.left + self.width / 2, self.bottom + self.height / 2)

    def contains(self, x: float, y: float) -> bool:
        return self.left <= x < self.right and self.bottom <= y < self.top

    def inset(self, dx: float, dy: float | None = None) -> Box:
        dy = dx if dy is None else dy
        return Box(
            self.left + dx, self.bottom + dy, max(0.0, self.width - 2 * dx), max(0.0, self.height - 2 * dy)
        )


EMPTY = Box(0, 0, 0, 0)


def fill(box: Box, colour: theme.Colour) -> None:
    if box.width > 0 and box.height > 0:
        arcade.draw_lrbt_rectangle_filled(box.left, box.right, box.bottom, box.top, colour)


def outline(box: Box, colour: theme.Colour, width: float = 1.0) -> None:
    if box.width > 0 and box.height > 0:
        arcade.draw_lrbt_rectangle_outline(box.left, box.right, box.bottom, box.top, colour, width)


class Widget:
    """Base widget: a box, visibility, focus, and input handlers that ignore everything."""

    focusable: bool = False

    def __init__(self) -> None:
        self.box: Box = EMPTY
        self.visible = True
        self.focused = False

    def place(self, box: Box) -> None:
        self.box = box

    def look(self) -> Hashable:
        """Everything `draw` depends on: while it stays the same, the screen reuses its last picture."""
        return (self.box, self.visible, self.focused)

    def draw(self) -> None:
        """Draw the widget as `look` describes it (not called on frames where nothing changed)."""

    def draw_dynamic(self) -> None:
        """Draw what changes from frame to frame, over the kept picture (hover marks, animations)."""

    def on_mouse_motion(self, x: float, y: float) -> bool:
        return False

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        return False

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        return False

    def on_mouse_drag(self, x: float, y: float, dx: float, dy: float) -> bool:
        return False

    def on_mouse_scroll(self, x: float, y: float, scroll_y: float) -> bool:
        return False

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """A key while this widget has the keyboard focus."""
        return False

    def on_shortcut(self, symbol: int, modifiers: int) -> bool:
        """A key the screen offers to every widget, focused or not (a button's shortcut)."""
        return False


class Label(Widget):
    """Text in a box: one line (clipped by nothing, keep it short) or wrapped to the box width."""

    def __init__(
        self,
        text: str = "",
        *,
        size: float = theme.TEXT_SIZE,
        colour: theme.Colour = theme.TEXT,
        bold: bool = False,
        align: str = "left",
        multiline: bool = False,
    ) -> None:
        super().__init__()
        self.align = align
        self.multiline = multiline
        self._text = arcade.Text(
            text,
            0,
            0,
            colour,
            size,
            font_name=theme.FONT,
            bold=bold,
            anchor_x=align if not multiline else "left",
            anchor_y="center" if not multiline else "top",
            multiline=multiline,
            width=100 if multiline else None,
        )

    @property
    def text(self) -> str:
        return self._text.text

    @text.setter
    def text(self, value: str) -> None:
        if value != self._text.text:
            self._text.text = value

    @property
    def colour(self) -> theme.Colour:
        return tuple(self._text.color)  # type: ignore[return-value]

    @colour.setter
    def colour(self, value: theme.Colour) -> None:
        if tuple(value) != tuple(self._text.color):
            self._text.color = value

    @property
    def text_width(self) -> float:
        return float(self._text.content_width)

    def look(self) -> Hashable:
        return (super().look(), self._text.text, tuple(self._text.color))

    def place(self, box: Box) -> None:
        super().place(box)
        if self.multiline:
            self._text.width = max(1, int(box.width))
            self._text.position = (round(box.left), round(box.top))
            return
        x = {"left": box.left, "center": box.centre[0], "right": box.right}[self.align]
        self._text.position = (round(x), round(box.centre[1]))  # whole pixels: glyphs stay crisp

    def draw(self) -> None:
        if self.visible and self._text.text:
            self._text.draw()


class Button(Widget):
    """A clickable button with an optional keyboard shortcut; Enter or Space press it when focused.

    `selected` marks the chosen one of a group (a tab); `enabled=False` greys it out and ignores input.
    """

    focusable = True

    def __init__(
        self,
        text: str,
        on_click: Callable[[], object],
        *,
        shortcuts: Sequence[int] = (),
        size: float = theme.TEXT_SIZE,
    ) -> None:
        super().__init__()
        self.on_click = on_click
        self.shortcuts = tuple(shortcuts)
        self.enabled = True
        self.selected = False
        self.hover = False
        self.pressed = False
        self.label = Label(text, size=size, align="center", bold=True)

    @property
    def text(self) -> str:
        return self.label.text

    def look(self) -> Hashable:
        return (super().look(), self.hover, self.pressed, self.selected, self.enabled, self.label.look())

    def place(self, box: Box) -> None:
        super().place(box)
        self.label.place(box)

    def click(self) -> None:
        if self.enabled:
            self.on_click()

    def draw(self) -> None:
        if not self.visible:
            return
        if not self.enabled or self.pressed:
            colour = theme.BUTTON_PRESSED
        elif self.selected:
            colour = theme.BUTTON_SELECTED
        elif self.hover:
            colour = theme.BUTTON_HOVER
        else:
            colour = theme.BUTTON
        fill(self.box, colour)
        outline(self.box, theme.FOCUS if self.focused else theme.PANEL_BORDER, 2 if self.focused else 1)
        self.label.colour = theme.TEXT if self.enabled else theme.TEXT_DIM
        self.label.draw()

    def on_mouse_motion(self, x: float, y: float) -> bool:
        self.hover = self.box.contains(x, y)
        return False

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if self.visible and self.enabled and button == arcade.MOUSE_BUTTON_LEFT and self.box.contains(x, y):
            self.pressed = True
            return True
        return False

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if not self.pressed:
            return False
        self.pressed = False
        if self.box.contains(x, y):
            self.click()
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol in ACTIVATE_KEYS and self.enabled:
            self.click()
            return True
        return False

    def on_shortcut(self, symbol: int, modifiers: int) -> bool:
        if symbol in self.shortcuts and self.visible and self.enabled:
            self.click()
            return True
        return False


class ListBox(Widget):
    """A vertical list of entries; Up/Down (or the mouse) highlight one, Enter (or a click) chooses it.

    Long lists scroll with the mouse wheel, and follow the highlighted entry.
    """

    focusable = True

    def __init__(
        self,
        items: Sequence[str],
        on_choose: Callable[[int], object],
        *,
        row_height: float = 44,
        size: float = theme.TEXT_SIZE + 2,
    ) -> None:
        super().__init__()
        self.on_choose = on_choose
        self.row_height = row_height
        self.size = size
        self.index = 0
        self.top_row = 0
        self._hover: int | None = None
        self._pressed: int | None = None
        self._labels: list[Label] = []
        self.items: list[str] = []
        self.set_items(items)

    def set_items(self, items: Sequence[str]) -> None:
        self.items = list(items)
        self._labels = [Label(text, size=self.size, align="center", bold=True) for text in self.items]
        self.index = min(self.index, max(0, len(self.items) - 1))
        self.place(self.box)

    def look(self) -> Hashable:
        return (super().look(), self.index, self.top_row, self._hover, self._pressed, tuple(self.items))

    @property
    def visible_rows(self) -> int:
        return max(1, int(self.box.height // self.row_height))

    def row_box(self, row: int) -> Box:
        """The box of entry `row` as it is drawn now (it may be scrolled out of view)."""
        slot = row - self.top_row
        return Box(
            self.box.left, self.box.top - (slot + 1) * self.row_height, self.box.width, self.row_height - 6
        )

    def row_at(self, x: float, y: float) -> int | None:
        if not self.box.contains(x, y):
            return None
        row = self.top_row + int((self.box.top - y) // self.row_height)
        if row < len(self.items) and self.row_box(row).contains(x, y):
            return row
        return None

    def place(self, box: Box) -> None:
        super().place(box)
        self._scroll_to(self.index)
        self._place_labels()

    def _place_labels(self) -> None:
        for row, label in enumerate(self._labels):
            label.place(self.row_box(row))

    def _scroll_to(self, row: int) -> None:
        rows = self.visible_rows
        if row < self.top_row:
            self.top_row = row
        elif row >= self.top_row + rows:
            self.top_row = row - rows + 1
        self.top_row = max(0, min(self.top_row, max(0, len(self.items) - rows)))

    def highlight(self, row: int) -> None:
        if self.items:
            self.index = max(0, min(row, len(self.items) - 1))
            self._scroll_to(self.index)
            self._place_labels()

    def draw(self) -> None:
        if not self.visible:
            return
        for row in range(self.top_row, min(len(self.items), self.top_row + self.visible_rows)):
            box = self.row_box(row)
            if row == self._pressed:
                colour = theme.BUTTON_PRESSED
            elif row == self.index and (self.focused or row == self._hover):
                colour = theme.BUTTON_SELECTED
            elif row == self._hover:
                colour = theme.BUTTON_HOVER
            else:
                colour = theme.BUTTON
            fill(box, colour)
            focus = row == self.index and self.focused
            outline(box, theme.FOCUS if focus else theme.PANEL_BORDER, 2 if focus else 1)
            self._labels[row].draw()

    def on_mouse_motion(self, x: float, y: float) -> bool:
        self._hover = self.row_at(x, y)
        if self._hover is not None:
            self.index = self._hover
        return False

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        row = self.row_at(x, y)
        if row is None or button != arcade.MOUSE_BUTTON_LEFT:
            return False
        self._pressed = row
        self.index = row
        return True

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if self._pressed is None:
            return False
        row, self._pressed = self._pressed, None
        if self.row_at(x, y) == row:
            self.on_choose(row)
        return True

    def on_mouse_scroll(self, x: float, y: float, scroll_y: float) -> bool:
        if not self.box.contains(x, y):
            return False
        self.top_row = max(0, min(self.top_row - int(scroll_y), max(0, len(self.items) - self.visible_rows)))
        self._place_labels()
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if not self.items:
            return False
        moves = {
            arcade.key.UP: self.index - 1,
            arcade.key.DOWN: self.index + 1,
            arcade.key.HOME: 0,
            arcade.key.END: len(self.items) - 1,
            arcade.key.PAGEUP: self.index - self.visible_rows,
            arcade.key.PAGEDOWN: self.index + self.visible_rows,
        }
        if symbol in moves:
            self.highlight(moves[symbol])
            return True
        if symbol in ACTIVATE_KEYS:
            self.on_choose(self.index)
            return True
        return False


class TabBar(Widget):
    """A row of tabs, one of them selected; Left/Right move the selection when the bar has the focus.

    Tabs too narrow for their titles show the `short` titles instead.
    """

    focusable = True

    def __init__(
        self,
        titles: Sequence[str],
        on_select: Callable[[int], object],
        *,
        short: Sequence[str] | None = None,
        size: float = theme.SMALL_SIZE,
    ) -> None:
        super().__init__()
        self.on_select = on_select
        self.selected = 0
        self.titles = list(titles)
        self.short = list(short) if short is not None else self.titles
        self.tabs = [Button(title, lambda i=i: self.select(i), size=size) for i, title in enumerate(titles)]
        self._sync()

    def select(self, index: int) -> None:
        """Select a tab as the user does: the owner hears of it."""
        if 0 <= index < len(self.tabs):
            self.set_selected(index)
            self.on_select(index)

    def set_selected(self, index: int) -> None:
        """Select a tab without telling the owner (it chose it itself)."""
        if 0 <= index < len(self.tabs):
            self.selected = index
            self._sync()

    def look(self) -> Hashable:
        return (super().look(), self.selected, tuple(tab.look() for tab in self.tabs))

    def _sync(self) -> None:
        for i, tab in enumerate(self.tabs):
            tab.selected = i == self.selected

    def place(self, box: Box) -> None:
        super().place(box)
        gap = 6
        width = (box.width - gap * (len(self.tabs) - 1)) / max(1, len(self.tabs))
        for tab, title in zip(self.tabs, self.titles, strict=True):
            tab.label.text = title
        if any(tab.label.text_width > width - 12 for tab in self.tabs):
            for tab, title in zip(self.tabs, self.short, strict=True):
                tab.label.text = title  # all short, so the row reads the same way
        for i, tab in enumerate(self.tabs):
            tab.place(Box(box.left + i * (width + gap), box.bottom, width, box.height))

    def draw(self) -> None:
        for tab in self.tabs:
            tab.focused = self.focused and tab.selected
            tab.draw()

    def on_mouse_motion(self, x: float, y: float) -> bool:
        for tab in self.tabs:
            tab.on_mouse_motion(x, y)
        return False

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        return any(tab.on_mouse_press(x, y, button, modifiers) for tab in self.tabs)

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        return any([tab.on_mouse_release(x, y, button, modifiers) for tab in self.tabs])

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol == arcade.key.LEFT:
            self.select(max(0, self.selected - 1))
            return True
        if symbol == arcade.key.RIGHT:
            self.select(min(len(self.tabs) - 1, self.selected + 1))
            return True
        return False


class Panel(Widget):
    """A filled, framed box that holds other widgets and passes input on to them."""

    def __init__(self, children: Sequence[Widget] = (), *, colour: theme.Colour = theme.PANEL) -> None:
        super().__init__()
        self.children: list[Widget] = list(children)
        self.colour = colour

    def look(self) -> Hashable:
        return (super().look(), self.colour, tuple(child.look() for child in self.children))

    def draw(self) -> None:
        if not self.visible:
            return
        fill(self.box, self.colour)
        outline(self.box, theme.PANEL_BORDER)
        for child in self.children:
            child.draw()

    def on_mouse_motion(self, x: float, y: float) -> bool:
        for child in self.children:
            child.on_mouse_motion(x, y)
        return False

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        return any(
            child.on_mouse_press(x, y, button, modifiers) for child in self.children
        ) or self.box.contains(x, y)

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        return any([child.on_mouse_release(x, y, button, modifiers) for child in self.children])

    def on_mouse_drag(self, x: float, y: float, dx: float, dy: float) -> bool:
        return any(child.on_mouse_drag(x, y, dx, dy) for child in self.children)

    def on_mouse_scroll(self, x: float, y: float, scroll_y: float) -> bool:
        return any(child.on_mouse_scroll(x, y, scroll_y) for child in self.children)

    def on_shortcut(self, symbol: int, modifiers: int) -> bool:
        return any(child.on_shortcut(symbol, modifiers) for child in self.children)
