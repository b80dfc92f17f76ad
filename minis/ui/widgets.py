"""A small set of our own widgets: label, button, list, tab bar and panel.

Why not `arcade.gui`: importing it fails in arcade's headless mode (it pulls in pyglet's X11 input
module), and the UI tests and `minis play --screenshot` run headless. These widgets need nothing but
arcade's drawing and text, and every one of them works with the keyboard as well as the mouse.

A widget owns a `Box` in window pixels (origin bottom-left, as in arcade). The screen that holds it
calls `place` on every resize, `draw` every frame, and hands it the input events; a handler returns
True when it used the event, so the screen stops offering it to others.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Hashable, Sequence

import arcade
import attrs
import pyglet

from minis.ui import theme

#: A zero-width space: where pyglet may break a wrapped line that has no space (a long path).
BREAK = "\u200b"

#: Where wrapped text may break besides spaces: after "/", and after a hyphen between letters.
_BREAKABLE = re.compile(r"/|(?<=[^\W_])-(?=[^\W\d_])")

#: The fill behind selected text in a text field.
SELECTION: theme.Colour = (60, 90, 140, 255)

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

    def parts(self) -> Sequence[Widget]:
        """The widgets this one draws inside itself (a button's label, a dialog's buttons), so a check
        can walk every text a screen lays out. By default: the widgets among its attributes, directly
        or in a list or tuple; a widget that keeps widgets it does not draw says which it draws."""
        found: list[Widget] = []
        for value in vars(self).values():
            if isinstance(value, Widget):
                found.append(value)
            elif isinstance(value, list | tuple):
                found.extend(item for item in value if isinstance(item, Widget))
        return found

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

    def on_text(self, text: str) -> bool:
        """Typed text while this widget has the keyboard focus (pyglet's on_text)."""
        return False

    def on_shortcut(self, symbol: int, modifiers: int) -> bool:
        """A key the screen offers to every widget, focused or not (a button's shortcut)."""
        return False

    def claims_focus(self) -> bool:
        """Whether using one of this widget's shortcuts gives it the keyboard focus (the map's cursor keys:
        the keys that follow, Space above all, are meant for the map, not for a button clicked earlier)."""
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
        batch: pyglet.graphics.Batch | None = None,
    ) -> None:
        """`batch`: drawn with others in one call (`batch.draw()`), not by `draw`: a panel of many
        labels drawn every frame then costs one draw, not one per label."""
        super().__init__()
        self.align = align
        self.multiline = multiline
        self._text = arcade.Text(
            "" if multiline else text,
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
            batch=batch,
        )
        #: A multiline text was set and not laid out yet.
        self._pending = False
        if multiline:
            self.text = text  # laid out at its box's width when first placed or measured, not at 100 first

    def _shown(self, text: str) -> str:
        """The text as laid out: wrapped text may also break after a path's "/" and a word's hyphen
        (a long file name), where pyglet would otherwise run it past the box."""
        return _BREAKABLE.sub(lambda match: match.group(0) + BREAK, text) if self.multiline else text

    @property
    def text(self) -> str:
        return self._text.text.replace(BREAK, "") if self.multiline else self._text.text

    @text.setter
    def text(self, value: str) -> None:
        value = self._shown(value)
        if value != self._text.text:
            if self.multiline and not self._pending:
                # laid out when first needed (its width is often set next: one layout, not two)
                self._text.label.begin_update()
                self._pending = True
            self._text.text = value

    def _settle(self) -> None:
        """Lay out a text set since the last layout (see the text setter)."""
        if self._pending:
            self._pending = False
            self._text.label.end_update()

    @property
    def colour(self) -> theme.Colour:
        red, green, blue, alpha = self._text.color  # arcade's Color is an RGBA tuple
        return (red, green, blue, alpha)

    @colour.setter
    def colour(self, value: theme.Colour) -> None:
        if tuple(value) != tuple(self._text.color):
            self._text.color = value

    @property
    def text_width(self) -> float:
        self._settle()
        return float(self._text.content_width)

    def height_for(self, width: float) -> float:
        """The height of the (multiline) text wrapped at `width` pixels."""
        if self.multiline:
            self._wrap_at(width)
        self._settle()
        return float(self._text.content_height)

    def _wrap_at(self, width: float) -> None:
        """Wrap at `width` pixels; pyglet lays the text out again on every width set, even the same one."""
        if self._text.width != max(1, int(width)):
            self._text.width = max(1, int(width))

    def look(self) -> Hashable:
        return (super().look(), self._text.text, tuple(self._text.color))

    def place(self, box: Box) -> None:
        super().place(box)
        if self.multiline:
            self._wrap_at(box.width)
            self._text.position = (round(box.left), round(box.top))
            self._settle()
            return
        x = {"left": box.left, "center": box.centre[0], "right": box.right}[self.align]
        self._text.position = (round(x), round(box.centre[1]))  # whole pixels: glyphs stay crisp

    def draw(self) -> None:
        if self.visible and self._text.text:
            self._settle()
            self._text.draw()

    def shown_in_batch(self, shown: bool) -> None:
        """Whether its batch draws this label (a batch draws every label in it that is shown)."""
        self._settle()
        if self._text.visible != shown:
            self._text.visible = shown


def fit_text(label: Label, width: float, *forms: str, height: float | None = None) -> None:
    """Show the first of `forms` (longest first) that fits `width` pixels on one line (or, with `height`,
    wrapped at `width` within `height`); if none does, the last one cut short with "…" (only for texts
    the player can read whole elsewhere, or that say nothing more at their end)."""

    def fits() -> bool:
        if height is None:
            return label.text_width <= width
        return label.height_for(width) <= height

    for text in forms:
        label.text = text
        if fits():
            return
    text = forms[-1] if forms else ""
    low, high = 0, len(text)  # the longest prefix that fits, by halving
    while low < high:
        middle = (low + high + 1) // 2
        label.text = text[:middle].rstrip() + "…"
        if fits():
            low = middle
        else:
            high = middle - 1
    label.text = text[:low].rstrip() + "…" if low else ""


def fit_first_lines(label: Label, lines: Sequence[str], box: Box) -> None:
    """Show as many of the first `lines` as fit the box (a multiline label), and how many more there are."""
    shown = list(lines)
    label.text = "\n".join(shown)
    while box.width and len(shown) > 1 and label.height_for(box.width) > box.height:
        shown.pop()
        label.text = "\n".join([*shown, f"… and {len(lines) - len(shown)} more"])


def fit_lines(label: Label, lines: Sequence[str], width: float, height: float) -> None:
    """Show as many of the last `lines` as fit the box (a multiline label), dropping the oldest."""
    shown = list(lines)
    label.text = "\n".join(shown)
    while len(shown) > 1 and label.height_for(width) > height:
        shown.pop(0)
        label.text = "\n".join(shown)


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
        align: str = "center",
        bold: bool = True,
        gap: float = 6,
    ) -> None:
        super().__init__()
        self.on_choose = on_choose
        self.row_height = row_height
        self.size = size
        self.align = align
        self.bold = bold
        self.gap = gap
        self.index = 0
        self.top_row = 0
        self._hover: int | None = None
        self._pressed: int | None = None
        self._labels: list[Label] = []
        self._details: list[Label] = []
        self.items: list[str] = []
        self.details: list[str] = []
        #: Colour of each entry's text (None: the theme's text colour).
        self.colours: list[theme.Colour | None] = []
        self.set_items(items)

    def set_items(
        self,
        items: Sequence[str],
        details: Sequence[str] | None = None,
        colours: Sequence[theme.Colour | None] | None = None,
    ) -> None:
        """Replace the entries; `details` are dim texts at the right end of each row (left-aligned lists)."""
        self.items = list(items)
        self.details = list(details) if details is not None else []
        self.colours = list(colours) if colours is not None else [None] * len(self.items)
        self._labels = [
            Label(text, size=self.size, align=self.align, bold=self.bold, colour=colour or theme.TEXT)
            for text, colour in zip(self.items, self.colours, strict=True)
        ]
        self._details = [
            Label(text, size=self.size - 1, align="right", colour=theme.TEXT_DIM) for text in self.details
        ]
        #: The width each entry's text was fitted to (None: not yet).
        self._fitted: list[float | None] = [None] * len(self.items)
        self.index = min(self.index, max(0, len(self.items) - 1))
        self.place(self.box)

    def look(self) -> Hashable:
        return (
            super().look(),
            self.index,
            self.top_row,
            self._hover,
            self._pressed,
            tuple(self.items),
            tuple(self.details),
            tuple(self.colours),
        )

    @property
    def visible_rows(self) -> int:
        return max(1, int(self.box.height // self.row_height))

    def row_box(self, row: int) -> Box:
        """The box of entry `row` as it is drawn now (it may be scrolled out of view)."""
        slot = row - self.top_row
        return Box(
            self.box.left,
            self.box.top - (slot + 1) * self.row_height,
            self.box.width,
            self.row_height - self.gap,
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
            box = self.row_box(row)
            box = box.inset(8, 0) if self.align != "center" else box
            if row < len(self._details) and self._details[row].text:
                # the entry's text ends where its detail starts
                room = max(0.0, box.width - self._details[row].text_width - 12)
                box = Box(box.left, box.bottom, room, box.height)
            if self._fitted[row] != box.width:  # a text too long for its row ends in "…"
                self._fitted[row] = box.width
                fit_text(label, box.width, self.items[row])
            label.place(box)
        for row, label in enumerate(self._details):
            label.place(self.row_box(row).inset(8, 0))

    def parts(self) -> Sequence[Widget]:
        shown = range(self.top_row, min(len(self.items), self.top_row + self.visible_rows))
        return [self._labels[row] for row in shown] + [
            self._details[row] for row in shown if row < len(self._details)
        ]

    def _scroll_to(self, row: int) -> None:
        rows = self.visible_rows
        if row < self.top_row:
            self.top_row = row
        elif row >= self.top_row + rows:
            self.top_row = row - rows + 1
        self.top_row = max(0, min(self.top_row, max(0, len(self.items) - rows)))

    def draw_row_frame(self, row: int) -> None:
        """A row's button: its fill by state (pressed, highlighted, hovered) and its focus outline."""
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

    def highlight(self, row: int) -> None:
        if self.items:
            self.index = max(0, min(row, len(self.items) - 1))
            self._scroll_to(self.index)
            self._place_labels()

    def draw(self) -> None:
        if not self.visible:
            return
        for row in range(self.top_row, min(len(self.items), self.top_row + self.visible_rows)):
            self.draw_row_frame(row)
            self._labels[row].draw()
            if row < len(self._details):
                self._details[row].draw()

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
        self.tabs = [
            Button(title, functools.partial(self.select, i), size=size) for i, title in enumerate(titles)
        ]
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


class TextField(Widget):
    """One line of text the player types (a file name, an army's name, a search).

    It takes every key while it has the focus (so typing 'L' does not toggle labels). Text goes in at
    the caret: Left/Right/Home/End move it (with Shift they select), a click puts it at the letter
    clicked; Ctrl+A selects all; Backspace and Delete delete the selection or the letter before or after
    the caret, Ctrl+Backspace (or Alt) everything before it; what is typed replaces a selection. Enter
    calls `on_submit`. Tab and Escape still belong to the screen.
    """

    focusable = True

    def __init__(
        self,
        text: str = "",
        *,
        on_submit: Callable[[str], object] | None = None,
        on_change: Callable[[str], object] | None = None,
        placeholder: str = "",
        size: float = theme.TEXT_SIZE,
    ) -> None:
        super().__init__()
        self.on_submit = on_submit
        self.on_change = on_change
        self._value = text
        #: Where text goes in (a letter index), and the other end of the selection (None: nothing selected).
        self.caret = len(text)
        self.anchor: int | None = None
        self.placeholder = placeholder
        self.label = Label(text, size=size)
        self.caret_mark = Label("|", size=size, colour=theme.ACCENT)
        #: Measures the width of a part of the text (where the caret and the selection are drawn).
        self._probe = Label("", size=size)
        #: The first letter shown (a long text scrolls to keep the caret in view).
        self._first = 0
        #: Pixels kept free at the right end (a search box's "×").
        self.reserve = 0.0

    @property
    def value(self) -> str:
        return self._value

    @value.setter
    def value(self, text: str) -> None:
        """The whole text, set from outside: the caret goes to its end, nothing is selected."""
        self._value = text
        self.caret = len(text)
        self.anchor = None

    def look(self) -> Hashable:
        return (super().look(), self.value, self.caret, self.anchor)

    def parts(self) -> Sequence[Widget]:
        return [self.label, *([self.caret_mark] if self.focused else [])]

    def set_value(self, text: str) -> None:
        self.value = text
        if self.on_change is not None:
            self.on_change(text)

    @property
    def selection(self) -> tuple[int, int]:
        """The selected letters (start, end); start == end: none."""
        if self.anchor is None:
            return (self.caret, self.caret)
        return (min(self.anchor, self.caret), max(self.anchor, self.caret))

    def select_all(self) -> None:
        self.anchor, self.caret = 0, len(self.value)

    def _edit(self, text: str, start: int, end: int) -> None:
        """Put `text` in place of the letters start..end, the caret after it."""
        self._value = self.value[:start] + text + self.value[end:]
        self.caret, self.anchor = start + len(text), None
        if self.on_change is not None:
            self.on_change(self._value)

    def insert(self, text: str) -> None:
        """Typed text, at the caret (in place of the selection)."""
        self._edit(text, *self.selection)

    def place(self, box: Box) -> None:
        super().place(box)
        self.label.place(box.inset(8, 0))

    def _room(self) -> float:
        """How wide the shown text may be."""
        return self.box.width - 24 - self.reserve

    def _width(self, text: str) -> float:
        self._probe.text = text
        return self._probe.text_width if text else 0.0

    def _shown(self) -> tuple[str, str]:
        """The text as shown (from `_first`, "…" before it when cut) and what stands before its letters."""
        room = self._room()
        value = self.value
        self._first = min(self._first, self.caret, len(value))
        while self._first < self.caret and self._width("…" + value[self._first : self.caret]) > room:
            self._first += 1  # the caret stays in view
        while self._first > 0 and self._width("…" + value[self._first - 1 :]) <= room:
            self._first -= 1  # room at the end: show more of the start
        lead = "…" if self._first else ""
        return lead + value[self._first :], lead

    def _x_of(self, index: int, lead: str) -> float:
        """Where letter `index` starts on screen."""
        return self.box.left + 8 + self._width(lead + self.value[self._first : max(index, self._first)])

    def draw(self) -> None:
        if not self.visible:
            return
        fill(self.box, theme.BAR)
        outline(self.box, theme.FOCUS if self.focused else theme.PANEL_BORDER, 2 if self.focused else 1)
        if not self.value:
            self.label.text = self.placeholder
            self.label.colour = theme.TEXT_DIM
            self._first = 0
            lead = ""
        else:
            self.label.text, lead = self._shown()
            self.label.colour = theme.TEXT
            # a long text may still run past the box after the caret: cut it there
            while self.label.text_width > self._room() and len(self.label.text) > 1:
                self.label.text = self.label.text[:-1]
        start, end = self.selection
        if self.focused and start != end:
            left = self._x_of(start, lead)
            right = min(self._x_of(end, lead), self.box.left + 8 + self._room())
            fill(Box(left, self.box.bottom + 5, max(0.0, right - left), self.box.height - 10), SELECTION)
        self.label.draw()
        if self.focused:
            x = self._x_of(self.caret, lead) if self.value else self.box.left + 8
            self.caret_mark.place(Box(x - 3, self.box.bottom, 10, self.box.height))
            self.caret_mark.draw()

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if not (self.visible and self.box.contains(x, y)):
            return False
        _, lead = self._shown()
        index = self._first
        while index < len(self.value) and (self._x_of(index, lead) + self._x_of(index + 1, lead)) / 2 < x:
            index += 1
        self.caret, self.anchor = index, None
        return True

    def on_text(self, text: str) -> bool:
        printable = "".join(ch for ch in text if ch.isprintable() and ch not in "\r\n\t")
        if printable:
            self.insert(printable)
        return True

    def _move(self, to: int, selecting: bool) -> None:
        if selecting and self.anchor is None:
            self.anchor = self.caret
        elif not selecting:
            self.anchor = None
        self.caret = max(0, min(len(self.value), to))

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        key = arcade.key
        ctrl = modifiers & (key.MOD_CTRL | key.MOD_ACCEL)
        shift = bool(modifiers & key.MOD_SHIFT)
        start, end = self.selection
        if symbol == key.A and ctrl:
            self.select_all()
        elif symbol == key.BACKSPACE:
            if modifiers & (key.MOD_CTRL | key.MOD_ALT):
                self._edit("", 0, end)  # everything before the caret (and the selection)
            elif start != end:
                self._edit("", start, end)
            elif start > 0:
                self._edit("", start - 1, start)
        elif symbol == key.DELETE:
            if start != end:
                self._edit("", start, end)
            elif start < len(self.value):
                self._edit("", start, start + 1)
        elif symbol in (key.LEFT, key.RIGHT):
            step = -1 if symbol == key.LEFT else 1
            if start != end and not shift:
                self._move(start if step < 0 else end, False)  # the selection's end, as editors do
            else:
                self._move(self.caret + step, shift)
        elif symbol in (key.HOME, key.END):
            self._move(0 if symbol == key.HOME else len(self.value), shift)
        elif symbol in (key.ENTER, key.NUM_ENTER) and self.on_submit is not None:
            self.on_submit(self.value)
        return True  # every other key is typing (arrives as on_text)


class Dialog(Widget):
    """A framed box over the screen with a title, a text and a row of buttons; it takes all input.

    The screen that shows it gives it every event first (see `Screen.dialog`), so nothing behind it
    reacts while it is open. Escape calls `on_cancel` if there is one.
    """

    def __init__(
        self,
        title: str,
        text: str,
        buttons: Sequence[Button],
        *,
        on_cancel: Callable[[], object] | None = None,
        width: float = 460,
        colour: theme.Colour = theme.PANEL,
        title_colour: theme.Colour = theme.ACCENT,
    ) -> None:
        super().__init__()
        self.title = Label(title, size=theme.TEXT_SIZE + 4, bold=True, colour=title_colour)
        self.body = Label(text, size=theme.TEXT_SIZE, multiline=True)
        self.buttons = list(buttons)
        self.on_cancel = on_cancel
        self.width = width
        self.colour = colour
        #: Whether the screen behind is darkened while the dialog is open.
        self.dim = True

    def look(self) -> Hashable:
        return (
            super().look(),
            self.title.look(),
            self.body.look(),
            tuple(button.look() for button in self.buttons),
        )

    def height_for(self, width: float | None = None) -> float:
        """The height the dialog needs for its text at `width` (default: its own width)."""
        width = self.width if width is None else width
        text_height = self.body.height_for(width - 40) if self.body.text else 0
        return 66 + text_height + (60 if self.buttons else 12)

    def place_centred(self, within: Box) -> None:
        width = min(self.width, within.width - 20)
        height = self.height_for(width)
        self.place(
            Box(
                round(within.left + (within.width - width) / 2),
                round(within.bottom + (within.height - height) / 2),
                round(width),
                round(height),
            )
        )

    def place(self, box: Box) -> None:
        super().place(box)
        inner = box.inset(20, 16)
        self.title.place(Box(inner.left, inner.top - 26, inner.width, 26))
        self.body.place(Box(inner.left, inner.bottom + 50, inner.width, max(0.0, inner.height - 86)))
        if self.buttons:
            gap = 10
            width = min(200.0, (inner.width - gap * (len(self.buttons) - 1)) / len(self.buttons))
            total = width * len(self.buttons) + gap * (len(self.buttons) - 1)
            left = inner.left + (inner.width - total) / 2
            for i, button in enumerate(self.buttons):
                button.place(Box(round(left + i * (width + gap)), inner.bottom, round(width), 38))

    def draw(self) -> None:
        if not self.visible:
            return
        fill(self.box.inset(-3), theme.BAR)
        fill(self.box, self.colour)
        outline(self.box, theme.ACCENT, 2)
        self.title.draw()
        self.body.draw()
        for button in self.buttons:
            button.draw()

    def on_mouse_motion(self, x: float, y: float) -> bool:
        for button in self.buttons:
            button.on_mouse_motion(x, y)
        return False

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        for b in self.buttons:
            if b.on_mouse_press(x, y, button, modifiers):
                return True
        return True

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        return any([b.on_mouse_release(x, y, button, modifiers) for b in self.buttons]) or True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        for button in self.buttons:
            if button.on_shortcut(symbol, modifiers):
                return True
        if symbol in (arcade.key.ENTER, arcade.key.NUM_ENTER, arcade.key.SPACE) and self.buttons:
            focused = next((b for b in self.buttons if b.focused), self.buttons[0])
            focused.click()
            return True
        if symbol in (arcade.key.LEFT, arcade.key.RIGHT) and self.buttons:
            index = next((i for i, b in enumerate(self.buttons) if b.focused), 0)
            index = (index + (1 if symbol == arcade.key.RIGHT else -1)) % len(self.buttons)
            for i, b in enumerate(self.buttons):
                b.focused = i == index
            return True
        return True


class DiceRow(Widget):
    """Dice drawn as white squares with their numbers, left to right (the last roll, for people to see)."""

    SIZE = 26

    def __init__(self) -> None:
        super().__init__()
        self.dice: list[tuple[int, theme.Colour]] = []
        self._labels: list[Label] = []

    def set_dice(self, dice: Sequence[tuple[int, theme.Colour]]) -> None:
        """Each die's value and its frame colour."""
        self.dice = list(dice)
        self._labels = [
            Label(str(value), size=theme.TEXT_SIZE, bold=True, colour=(20, 20, 20, 255), align="center")
            for value, _ in self.dice
        ]
        self.place(self.box)

    def look(self) -> Hashable:
        return (super().look(), tuple(self.dice))

    def place(self, box: Box) -> None:
        super().place(box)
        for i, label in enumerate(self._labels):
            label.place(self._die_box(i))

    def _die_box(self, i: int) -> Box:
        per_row = max(1, int(self.box.width // (self.SIZE + 6)))
        row, col = divmod(i, per_row)
        return Box(
            self.box.left + col * (self.SIZE + 6),
            self.box.top - (row + 1) * (self.SIZE + 6) + 6,
            self.SIZE,
            self.SIZE,
        )

    def draw(self) -> None:
        if not self.visible:
            return
        for i, (_, frame) in enumerate(self.dice):
            box = self._die_box(i)
            if box.bottom < self.box.bottom - 1:
                break
            fill(box, frame)
            fill(box.inset(3), (246, 244, 236, 255))
            self._labels[i].draw()
