"""Choosing a file to open or a name to save under: a folder's files, and a path the player can type.

The dialog is a screen of its own. It lists the folder's files with the wanted suffix (and its
sub-folders, and `..`), leaving out those the caller's `listed(path)` rule refuses (one player's
secrets stay out of the other's dialogs); clicking a file opens it (or, when saving, puts its name in
the path field); Enter in the field does the same with what was typed. The caller's `on_choose(path)`
does the work and returns an error message to show (the dialog stays open) or None (it closes).

The path field holds the dialog's suggestion (the folder, a clicked file) until the player types:
the first keystroke starts a new path in its place. A bare name means a file in the folder shown; a
path with folders is read as a shell would (from the current folder, or `/`, or `~`). Backspace
deletes in the path; Alt+Up (or `..`) goes up a folder. The key that opened the dialog is not typed
into it: text that arrives before the dialog's first frame belonged to that key press (pyglet sends
a key's `on_text` right after its `on_key_press`, in the same batch of events). `details(path)`, if
given, says more about each file at the right of its row (Load game: turn, phase, armies, date).

Paths are shown as a shell would: relative to the current folder when inside it, `~/...` under the
home folder, else whole (`shown`). They are shorter to read, the same file when typed back, and a
picture of the dialog does not give away where the game sits on the machine.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Hashable
from pathlib import Path

import arcade

from minis.base.paths import is_dir, reason, resolved
from minis.ui import theme
from minis.ui.app import MinisWindow, Screen
from minis.ui.widgets import Box, Button, Label, ListBox, TextField


def shown(path: Path) -> str:
    """How the dialog writes `path`: relative to the current folder when inside it, else under `~`."""
    with contextlib.suppress(OSError, ValueError):  # OSError: the current folder is gone
        return str(path.relative_to(Path.cwd()))
    with contextlib.suppress(ValueError, RuntimeError):  # RuntimeError: no home folder
        return str(Path("~") / path.relative_to(Path.home()))
    return str(path)


def folder_text(folder: Path) -> str:
    """A folder in the path field: shown, with the slash that says it is a folder."""
    return shown(folder).rstrip("/") + "/"


class FileDialog(Screen):
    hint = (
        "Click a file, or type a path and press Enter · Alt+Up: up a folder · Tab: path or list · Esc cancels"
    )

    def __init__(
        self,
        window: MinisWindow,
        *,
        title: str,
        folder: Path,
        suffixes: tuple[str, ...],
        on_choose: Callable[[Path], str | None],
        saving: bool = False,
        name: str = "",
        listed: Callable[[Path], bool] | None = None,
        details: Callable[[Path], str] | None = None,
    ) -> None:
        self.title = title
        super().__init__(window)
        self.saving = saving
        self.suffixes = suffixes
        #: Which files of the wanted suffixes are shown (None: all of them).
        self.listed = listed
        self.details = details
        #: Until the first frame, typed text is the opening key's (see the module's docstring).
        self.opening = True
        #: The path field holds the dialog's suggestion (a folder, a picked file): typing replaces it.
        self.suggested = True
        self.on_choose = on_choose
        self.folder = folder
        self.entries: list[Path] = []
        self.path = TextField(shown(folder / name) if name else folder_text(folder), on_submit=self.submit)
        self.files = ListBox(
            [], self.pick, row_height=30, size=theme.TEXT_SIZE, align="left", bold=False, gap=3
        )
        self.heading = Label("", size=theme.TEXT_SIZE, colour=theme.TEXT_DIM)
        self.message = Label("", size=theme.TEXT_SIZE, colour=theme.BAD, multiline=True)
        self.ok = Button("Save" if saving else "Open", lambda: self.submit(self.path.value))
        self.cancel = Button("Cancel", self.app.back)
        self.widgets = [self.heading, self.path, self.files, self.message, self.ok, self.cancel]
        self.show_folder(folder)
        self.set_focus(self.path if saving else self.files)

    def show_folder(self, folder: Path) -> None:
        self.folder = folder
        try:
            children = sorted(folder.iterdir(), key=lambda p: (not is_dir(p), p.name.lower()))
        except OSError as error:
            children = []
            self.message.text = f"cannot list {folder}: {reason(error, folder)}"
        self.entries = [folder.parent] if folder.parent != folder else []
        self.entries += [
            p
            for p in children
            if not p.name.startswith(".")
            and (is_dir(p) or (p.suffix.lower() in self.suffixes and (self.listed is None or self.listed(p))))
        ]
        names = [
            ".." if i == 0 and p == folder.parent else p.name + ("/" if is_dir(p) else "")
            for i, p in enumerate(self.entries)
        ]
        details = self.details
        self.files.set_items(
            names,
            [details(p) if details is not None and not is_dir(p) else "" for p in self.entries],
        )
        self.files.highlight(0)
        kind = " or ".join(self.suffixes)
        self.heading.text = f"{shown(folder)}  ({kind} files)"

    def pick(self, row: int) -> None:
        if not 0 <= row < len(self.entries):
            return
        chosen = self.entries[row]
        if is_dir(chosen):
            self.show_folder(resolved(chosen))
            value = self.path.value  # a name typed for saving stays; a path to open starts afresh
            name = Path(value).name if self.saving and not value.endswith("/") else ""
            self.suggest(shown(self.folder / name) if name else folder_text(self.folder))
            return
        self.suggest(shown(chosen))
        if not self.saving:
            self.submit(str(chosen))

    def suggest(self, text: str) -> None:
        """Put the dialog's own text in the path field: the player's first keystroke replaces it."""
        self.path.set_value(text)
        self.suggested = True

    def type_path(self, text: str) -> None:
        """Typed text: the first keystroke after a suggestion starts a new path in its place."""
        if self.suggested:
            self.suggested = False
            self.path.set_value("")
        self.path.on_text(text)

    def submit(self, text: str) -> None:
        text = text.strip()
        if not text or text.endswith("/"):
            self.message.text = "Type a file name first." if self.saving else "Choose a file first."
            return
        path = Path(text)
        if path.parent == Path("."):  # a bare name: in the folder the dialog shows
            path = self.folder / path
        with contextlib.suppress(RuntimeError):  # no home folder to put for ~
            path = path.expanduser()
        if is_dir(path):
            self.show_folder(path)
            self.suggest(folder_text(self.folder))
            return
        if self.saving and path.suffix.lower() not in self.suffixes:
            path = path.with_name(path.name + self.suffixes[0])
        error = self.on_choose(path)
        if error:
            self.message.text = error
            return
        if self.app.top_screen is self and self.dialog is None:  # a question (on_choose's) keeps it open
            self.app.back()

    def layout(self, width: int, height: int) -> None:
        content = self.content_box
        m = theme.MARGIN * 2
        inner = Box(content.left + m, content.bottom + m, content.width - 2 * m, content.height - 2 * m)
        self.heading.place(Box(inner.left, inner.top - 24, inner.width, 24))
        self.path.place(Box(inner.left, inner.top - 64, inner.width, 34))
        list_top = inner.top - 80
        list_width = inner.width if self.details is not None else min(700, inner.width)
        self.files.place(Box(inner.left, inner.bottom + 110, list_width, list_top - inner.bottom - 110))
        self.message.place(Box(inner.left, inner.bottom + 50, inner.width, 50))
        self.ok.place(Box(inner.left, inner.bottom, 140, 38))
        self.cancel.place(Box(inner.left + 150, inner.bottom, 140, 38))

    def content_look(self) -> Hashable:
        return tuple(self.entries)

    def on_update(self, delta_time: float) -> None:
        self.opening = False  # a frame has passed: what is typed now is meant for the dialog

    def on_text(self, text: str) -> bool:
        """Typing always goes to the path field (it takes the focus)."""
        if self.dialog is None and not self.opening:
            if self.focused is not self.path:
                self.set_focus(self.path)
            self.type_path(text)
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """Backspace always edits the path (it never climbs a folder: Alt+Up does, from anywhere)."""
        if self.dialog is None and symbol == arcade.key.BACKSPACE:
            self.set_focus(self.path)
            self.suggested = False
        if self.dialog is None and symbol == arcade.key.UP and modifiers & arcade.key.MOD_ALT:
            if self.folder.parent != self.folder:
                self.pick(0)  # the first entry is `..`
            return True
        return super().on_key_press(symbol, modifiers)
