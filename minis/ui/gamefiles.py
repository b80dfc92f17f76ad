"""Load game and Save the game: the file dialogs for game records.

The main menu and the battle screen load, the battle and victory screens save. A good save opens its
battle through the window's routes (`Routes.loaded_game`), so this module imports no screen.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

from minis.errors import MinisError, problem_lines
from minis.ui.app import MinisWindow
from minis.ui.filedialog import FileDialog
from minis.ui.session import SAVE_SUFFIX, Session, early_autosave, saves_folder


def saves_of(window: MinisWindow) -> Path:
    """The window's folder for saves and the autosave (tests set their own)."""
    return window.saves if window.saves is not None else saves_folder()


def open_load_dialog(window: MinisWindow, folder: Path | None = None) -> None:
    """The 'Load game' file dialog; a good save opens its battle (see `Routes.loaded_game`).

    Without `folder` the dialog opens on the saves folder, made first if it is not there yet. An
    autosave written before both armies were on the map is left out (it would show the other army).
    """
    if folder is None:
        folder = saves_of(window)
        with contextlib.suppress(OSError):  # can't be made: the dialog says why it can't list it
            folder.mkdir(parents=True, exist_ok=True)

    def chosen(path: Path) -> str | None:
        try:
            session = Session.load(path, saves=saves_of(window))
        except MinisError as error:
            return "\n".join(problem_lines(error.problems, 4))
        window.back()  # the dialog
        window.routes.loaded_game(session)
        return None

    window.open(
        FileDialog(
            window,
            title="Load a saved game",
            folder=folder,
            suffixes=(SAVE_SUFFIX, ".txt"),
            on_choose=chosen,
            listed=lambda path: not early_autosave(path),
        )
    )


def open_save_dialog(
    window: MinisWindow, session: Session, *, title: str, name: str, saved: Callable[[str], object]
) -> None:
    """The 'Save the game' file dialog of the battle and victory screens: the session's record goes
    where the player chooses; a file that can't be written keeps the dialog open with the reason, and
    `saved` hears the message to show once it is written."""

    def chosen(path: Path) -> str | None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            session.save(path)
        except OSError as error:
            return f"cannot write {path}: {error.strerror or error}"
        saved(f"Saved {path}")
        return None

    window.open(
        FileDialog(
            window,
            title=title,
            folder=session.saves,
            suffixes=(SAVE_SUFFIX,),
            on_choose=chosen,
            saving=True,
            name=name,
        )
    )
