"""A one-line text field and a small dialog around it (file names, a new map's size).

The front end's own widgets have no text entry yet; these follow their conventions (a `Box`, `look`,
keyboard first). Typed characters arrive as pyglet's `on_text` events, which the screen forwards.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import arcade

from minis.ui import theme
from minis.ui.widgets import Box, Button, Label, Panel, Widget, fill, outline

SUBMIT_KEYS = (arcade.key.ENTER, arcade.key.NUM_ENTER)


class TextField(Widget):
    """One line of text, edited at its end: typing appends, Backspace deletes, Enter submits."""

    focusable = True

    def __init__(self, text: str = "", on_submit: Callable[[str], object] | None = None) -> None:
        super().__init__()
        self.on_submit = on_submit
        self.label = Label(text, size=theme.TEXT_SIZE)
        self.fresh = True  # the first typed character replaces the suggested text

    @property
    def text(self) -> str:
        return self.label.text

    @text.setter
    def text(self, value: str) -> None:
        self.label.text = value

    def look(self) -> Hashable:
        return (super().look(), self.label.look(), self.fresh)

    def place(self, box: Box) -> None:
        super().place(box)
        self.label.place(box.inset(8, 0))

    def draw(self) -> None:
        fill(self.box, (24, 27, 32, 255))
        outline(self.box, theme.FOCUS if self.focused else theme.PANEL_BORDER, 2 if self.focused else 1)
        if self.fresh and self.text:
            width = self.label.text_width
            fill(
                Box(self.box.left + 6, self.box.bottom + 5, width + 4, self.box.height - 10),
                (70, 80, 100, 255),
            )
        self.label.draw()
        caret = self.box.left + 8 + self.label.text_width + 2
        fill(Box(caret, self.box.bottom + 6, 2, self.box.height - 12), theme.TEXT)

    def type(self, text: str) -> None:
        printable = "".join(char for char in text if char.isprintable())
        if not printable:
            return
        self.text = (printable if self.fresh else self.text + printable)[:300]
        self.fresh = False

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol == arcade.key.BACKSPACE:
            self.text = "" if self.fresh else self.text[:-1]
            self.fresh = False
            return True
        if symbol in SUBMIT_KEYS:
            if self.on_submit is not None:
                self.on_submit(self.text)
            return True
        return False


class Prompt(Panel):
    """A question with a text field and OK / Cancel. Enter answers, Escape cancels."""

    def __init__(self, question: str, text: str, on_answer: Callable[[str], object], note: str = "") -> None:
        self.question = Label(question, size=theme.TEXT_SIZE + 1, bold=True)
        self.field = TextField(text, self.answer)
        self.note = Label(note, size=theme.SMALL_SIZE, colour=theme.TEXT_DIM)
        self.error = Label("", size=theme.SMALL_SIZE, colour=theme.BAD)
        self.ok = Button("OK", lambda: self.answer(self.field.text))
        self.cancel = Button("Cancel", self.close)
        super().__init__([self.question, self.field, self.note, self.error, self.ok, self.cancel])
        self.on_answer = on_answer
        self.field.focused = True
        self.closed = False
        #: Until the screen's next frame, typed text is the key's that opened the prompt (pyglet sends
        #: a key's text right after the key): it is not typed into the field (`shown` ends this).
        self.opening = True

    def answer(self, text: str) -> None:
        self.on_answer(text)

    def close(self) -> None:
        self.closed = True

    def place(self, box: Box) -> None:
        super().place(box)
        inner = box.inset(16)
        top = inner.top
        self.question.place(Box(inner.left, top - 24, inner.width, 24))
        self.field.place(Box(inner.left, top - 66, inner.width, 34))
        self.note.place(Box(inner.left, top - 92, inner.width, 20))
        self.error.place(Box(inner.left, top - 114, inner.width, 20))
        self.ok.place(Box(inner.right - 220, inner.bottom, 100, 34))
        self.cancel.place(Box(inner.right - 110, inner.bottom, 110, 34))

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        return self.field.on_key_press(symbol, modifiers)

    def shown(self) -> None:
        """A frame has passed since the prompt opened: what is typed now is meant for it."""
        self.opening = False

    def on_text(self, text: str) -> bool:
        if not self.opening:
            self.field.type(text)
        return True
