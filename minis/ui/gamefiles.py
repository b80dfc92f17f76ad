"""Load game and Save the game: the file dialogs for game records.

The main menu and the battle screen load, the battle and victory screens save. A good save opens its
battle through the window's routes (`Routes.loaded_game`), so this module imports no screen. Loading
over a battle being played asks first. The Load dialog says of each save its turn and phase, the two
armies, the rule set when it is not the 2005 rulebook's, the computer if it played (its strength) and
when it was written (`save_details`): the turn
and phase come from replaying the record, so each file is read once per modification
(`session.saved_game`, which the listing shares), and one that can't be read says so.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path

from minis.base.errors import MinisError, Problem, problem_lines
from minis.content.rule_sets import RULEBOOK
from minis.state import Phase
from minis.ui.app import MinisWindow
from minis.ui.computer import who_plays
from minis.ui.confirm import ask
from minis.ui.filedialog import FileDialog
from minis.ui.rulewords import rules_line
from minis.ui.session import SAVE_SUFFIX, Session, early_autosave, saved_game, saves_folder

#: An army's name is cut to this many characters in the list.
NAME_LENGTH = 24


def _short(name: str) -> str:
    return name if len(name) <= NAME_LENGTH else name[: NAME_LENGTH - 1] + "…"


def save_details(path: Path) -> str:
    """ "turn 3, movement · Desert Rats v Afrika Korps · against the computer (normal) · 14 May 2025
    18:02", or "cannot be read"."""
    try:
        stat = path.stat()
    except OSError:
        return "cannot be read"
    date = time.strftime("%d %b %Y %H:%M", time.localtime(stat.st_mtime))
    saved = saved_game(path)  # replayed once per version of the file, shared with the listing rule
    if saved.game is None:
        return f"cannot be read · {date}"
    state = saved.game.state
    if state.phase is Phase.OVER:
        when = f"over after turn {state.turn}"
    elif state.phase is Phase.SETUP or state.turn < 1:
        when = "set-up"
    else:
        when = f"turn {state.turn}, {state.phase.value}"
    axis = _short(str(saved.header.get("axis_name") or "Axis"))
    allies = _short(str(saved.header.get("allies_name") or "Allies"))
    opponent = who_plays(saved.header)
    rules = "" if state.rules == RULEBOOK else rules_line(state.rules)  # the header's set, replayed under
    return " · ".join(part for part in (when, f"{axis} v {allies}", rules, opponent, date) if part)


def saves_of(window: MinisWindow) -> Path:
    """The window's folder for saves and the autosave (tests set their own)."""
    return window.saves if window.saves is not None else saves_folder()


def open_load_dialog(window: MinisWindow, folder: Path | None = None, *, playing: bool = False) -> None:
    """The 'Load game' file dialog; a good save opens its battle (see `Routes.loaded_game`).

    Without `folder` the dialog opens on the saves folder, made first if it is not there yet. An
    autosave written before both armies were on the map is left out (it would show the other army).
    `playing`: a battle is on the table, so a good save asks before it takes that battle's place.
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
        except (ValueError, TypeError, KeyError, OverflowError):  # a mistake no check caught yet (a bug):
            # the player still gets a message, as the listing's "cannot be read", not a closed window
            return str(
                Problem(str(path), 1, 1, "this file can't be loaded: it is not a save this game can read")
            )

        def load() -> None:
            window.back()  # the dialog
            window.routes.loaded_game(session)

        if not playing:
            load()
            return None
        dialog.show_dialog(
            ask(
                dialog,
                "Load over this battle?",
                f"{path.name} ({save_details(path)}) takes the place of the battle being played. "
                "What was played since its last autosave is lost (Ctrl+S in the battle saves it).",
                load,
                yes="Load it",
                no="Cancel",
            )
        )
        return None

    dialog = FileDialog(
        window,
        title="Load a saved game",
        folder=folder,
        suffixes=(SAVE_SUFFIX, ".txt"),
        on_choose=chosen,
        listed=lambda path: not early_autosave(path),
        details=save_details,
    )
    window.open(dialog)


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
