"""Choosing a file to open or a name to save under: a folder's files, and a path the player can type.

The dialog is a screen of its own. It lists the folder's files with the wanted suffix (and its
sub-folders, and `..`), leaving out those the caller's `listed(path)` rule refuses (one player's
secrets stay out of the other's dialogs); clicking a file opens it (or, when saving, puts its name in
the path field); Enter in the field does the same with what was typed. The caller's `on_choose(path)`
does the work and returns an error message to show (the dialog stays open) or None (it closes).

Paths are shown as a shell would: relative to the current folder when inside it, `~/...` under the
home folder, else whole (`shown`). They are shorter to read, the same file when typed back, and a
picture of the dialog does not give away where the game sits on the machine.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Hashable
from pathlib import Path

import arcade

from minis.paths import is_dir, reason, resolved
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
        "Click a file, or type a path and press Enter · Tab moves between the path and the list · Esc cancels"
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
    ) -> None:
        self.title = title
        super().__init__(window)
        self.saving = saving
        self.suffixes = suffixes
        #: Which files of the wanted suffixes are shown (None: all of them).
        self.listed = listed
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
        self.files.set_items(names)
        self.files.highlight(0)
        kind = " or ".join(self.suffixes)
        self.heading.text = f"{shown(folder)}  ({kind} files)"

    def pick(self, row: int) -> None:
        if not 0 <= row < len(self.entries):
            return
        chosen = self.entries[row]
        if is_dir(chosen):
            self.show_folder(resolved(chosen))
            if self.saving:
                name = Path(self.path.value).name if not self.path.value.endswith("/") else ""
                self.path.set_value(shown(self.folder / name) if name else folder_text(self.folder))
            return
        self.path.set_value(shown(chosen))
        if not self.saving:
            self.submit(str(chosen))

    def submit(self, text: str) -> None:
        text = text.strip()
        if not text or text.endswith("/"):
            self.message.text = "Type a file name first." if self.saving else "Choose a file first."
            return
        path = Path(text)
        with contextlib.suppress(RuntimeError):  # no home folder to put for ~
            path = path.expanduser()
        if is_dir(path):
            self.show_folder(path)
            return
        if self.saving and path.suffix.lower() not in self.suffixes:
            path = path.with_name(path.name + self.suffixes[0])
        error = self.on_choose(path)
        if error:
            self.message.text = error
            return
        if self.app.top_screen is self:
            self.app.back()

    def layout(self, width: int, height: int) -> None:
        content = self.content_box
        m = theme.MARGIN * 2
        inner = Box(content.left + m, content.bottom + m, content.width - 2 * m, content.height - 2 * m)
        self.heading.place(Box(inner.left, inner.top - 24, inner.width, 24))
        self.path.place(Box(inner.left, inner.top - 64, inner.width, 34))
        list_top = inner.top - 80
        self.files.place(
            Box(inner.left, inner.bottom + 110, min(700, inner.width), list_top - inner.bottom - 110)
        )
        self.message.place(Box(inner.left, inner.bottom + 50, inner.width, 50))
        self.ok.place(Box(inner.left, inner.bottom, 140, 38))
        self.cancel.place(Box(inner.left + 150, inner.bottom, 140, 38))

    def content_look(self) -> Hashable:
        return tuple(self.entries)

    def on_text(self, text: str) -> bool:
        """Typing always goes to the path field (it takes the focus)."""
        if self.dialog is None:
            if self.focused is not self.path:
                self.set_focus(self.path)
            self.path.on_text(text)
        return True

    def on_command_key(self, symbol: int, modifiers: int) -> bool:
        if symbol == arcade.key.BACKSPACE and self.folder.parent != self.folder:
            self.show_folder(self.folder.parent)
            return True
        return False
