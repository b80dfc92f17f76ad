"""'Play a scenario' from the main menu: choose a scenario file, then set up its battle.

Designers write scenario files (docs/scenarios.md) and want to play them without the command line.
The chooser is the shared file dialog on the shipped `scenarios/` folder (the one `load_scenario`
knows bare names from); any other folder is a click or a typed path away. A good file starts the very
flow of `minis play --scenario FILE` (`Routes.scenario_battle`); a broken one keeps the dialog open
with its problems as `FILE:LINE:COL: message`, as the load dialog does for a broken save, so the
designer can fix the file and pick it again.

Against the computer the same chooser opens from the opponent choice (its battle row, after
Assault): a good file goes back there (`then`) instead of starting the two-player set-up.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from pathlib import Path

from minis.base.errors import EXIT_UNREADABLE, MinisError, problem_lines
from minis.base.paths import is_file, read_bytes, resolved
from minis.engine.scenario import SCENARIOS_DIR, Scenario, is_scenario_text, load_scenario, parse_scenario_doc
from minis.ui import theme
from minis.ui.app import MinisWindow
from minis.ui.filedialog import FileDialog
from minis.ui.widgets import Box, Label

#: How many problems of a broken file are listed (the rest are counted).
SHOWN_PROBLEMS = 5
#: Room for the problems under the file list (several wrapped lines).
MESSAGE_HEIGHT = 150


def scenarios_folder() -> Path:
    """The shipped scenarios, as `minis.engine.scenario` finds them (the repository's, or an installed
    wheel's)."""
    return resolved(SCENARIOS_DIR)


def problems_text(path: Path, error: MinisError) -> str:
    """What the player reads about a file that can't be played: every problem as FILE:LINE:COL."""
    lines = problem_lines(error.problems, SHOWN_PROBLEMS)
    if error.exit_code != EXIT_UNREADABLE and not _says_scenario(path):
        # a map or army file: say so first, the problem lines then show where
        lines.insert(0, f'{path.name} is not a scenario file (a scenario says kind = "scenario" at the top).')
    return "\n".join(lines)


def _says_scenario(path: Path) -> bool:
    try:
        return is_scenario_text(read_bytes(path).decode("utf-8", errors="replace"))
    except MinisError:
        return True  # unreadable now: the problem lines say why


class ScenarioDialog(FileDialog):
    """The file dialog with room for a broken file's problems, and what the highlighted file is about;
    `then` hears a good file's scenario (None: its two-player battle starts)."""

    def __init__(
        self, window: MinisWindow, folder: Path, then: Callable[[Scenario], object] | None = None
    ) -> None:
        self.about = Label("", size=theme.TEXT_SIZE, multiline=True)
        self._about_of: dict[tuple[Path, int], str] = {}
        self.then = then
        super().__init__(
            window,
            title="Play a scenario" if then is None else "Play a scenario against the computer",
            folder=folder,
            suffixes=(".toml",),
            on_choose=self.play,
        )
        self.widgets.append(self.about)

    def play(self, path: Path) -> str | None:
        """Load the file; a good one starts its battle (army building first), a bad one says why."""
        try:
            plan = load_scenario(path)  # a path the system refuses is a MinisError too (minis.base.paths)
        except MinisError as error:
            return problems_text(path, error)
        window = self.app
        window.back()  # this dialog: Escape from the battle set-up leads back to the main menu
        if self.then is not None:
            self.then(plan)
        else:
            window.routes.scenario_battle(plan)
        return None

    def highlighted(self) -> Path | None:
        row = self.files.index
        if 0 <= row < len(self.entries) and is_file(self.entries[row]):
            return self.entries[row]
        return None

    def about_text(self, path: Path | None) -> str:
        """The highlighted scenario's title and description (its form only: the map is read on Open)."""
        if path is None:
            return ""
        try:
            key = (path, path.stat().st_mtime_ns)  # a designer may edit the file while the dialog is open
            if key not in self._about_of:
                doc = parse_scenario_doc(read_bytes(path), str(path))
                limits = " · ".join(f"{role.title()}: {force.points} points" for role, force in doc.forces)
                self._about_of[key] = "\n\n".join(p for p in (doc.title, doc.description, limits) if p)
        except (MinisError, OSError):
            return ""  # Open says what is wrong with it
        return self._about_of[key]

    def layout(self, width: int, height: int) -> None:
        super().layout(width, height)
        content = self.content_box
        m = theme.MARGIN * 2
        inner = Box(content.left + m, content.bottom + m, content.width - 2 * m, content.height - 2 * m)
        list_top = inner.top - 80
        list_bottom = inner.bottom + 60 + MESSAGE_HEIGHT
        list_width = min(700, inner.width)
        self.files.place(Box(inner.left, list_bottom, list_width, list_top - list_bottom))
        self.message.place(Box(inner.left, inner.bottom + 50, inner.width, MESSAGE_HEIGHT))
        about_left = inner.left + list_width + m
        about_width = inner.right - about_left
        self.about.place(Box(about_left, list_bottom, max(1, about_width), list_top - list_bottom))
        self.about.visible = about_width > 200

    def look(self) -> Hashable:
        self.about.text = self.about_text(self.highlighted())  # follows the highlighted file
        return super().look()


def open_scenario_dialog(
    window: MinisWindow, folder: Path | None = None, then: Callable[[Scenario], object] | None = None
) -> ScenarioDialog:
    """The main menu's 'Play a scenario': the chooser on the scenarios folder (or `folder`); `then`:
    where a good file's scenario goes instead of the two-player set-up."""
    dialog = ScenarioDialog(window, folder or scenarios_folder(), then)
    window.open(dialog)
    return dialog
