"""Questions asked before something that can't be taken back: leaving a battle, ending a phase early,
loading a game over the one on the table.

`EarlyEnd` asks the engine which units may still act (`Game.ready_units`, and for each whether it
has a legal action), so the question follows the rules without restating them.

Each is a modal `Dialog` with a yes and a no button (Y and N, Escape is no). Its text is fitted to
the dialog: a word too long for a line (a file's path) is shortened in the middle, so nothing runs
past the panel.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Protocol

import arcade

from minis.game import Game
from minis.state import Unit
from minis.ui import theme
from minis.ui.app import Screen
from minis.ui.widgets import Button, Dialog, Label

#: The width of a question's dialog, and of the text inside it (the dialog's margins are 20 pixels).
WIDTH = 520
TEXT_WIDTH = WIDTH - 40


def fitted(text: str, width: float = TEXT_WIDTH) -> str:
    """`text` with every word that is wider than `width` shortened in the middle ("/home/…/x.minis")."""
    probe = Label("", size=theme.TEXT_SIZE)
    words = []
    for word in text.split(" "):
        probe.text = word
        if probe.text_width > width:
            keep = len(word)
            while keep > 4 and probe.text_width > width:
                keep -= 2
                probe.text = word[: keep // 2] + "…" + word[len(word) - keep // 2 :]
            word = probe.text
        words.append(word)
    return " ".join(words)


class ShowsDialogs(Protocol):
    """A screen a question is shown over (any `Screen`; the network side's battle screen too)."""

    def show_dialog(self, dialog: Dialog | None) -> None: ...


def ask(
    screen: ShowsDialogs,
    title: str,
    text: str,
    on_yes: Callable[[], object],
    *,
    yes: str,
    no: str,
    on_no: Callable[[], object] | None = None,
) -> Dialog:
    """A yes/no question over `screen`: either answer closes it first, then does what it says."""

    def answer(then: Callable[[], object] | None) -> None:
        screen.show_dialog(None)
        if then is not None:
            then()

    return Dialog(
        title,
        fitted(text),
        [
            Button(f"{yes} (Y)", lambda: answer(on_yes), shortcuts=[arcade.key.Y]),
            Button(f"{no} (N)", lambda: answer(on_no), shortcuts=[arcade.key.N]),
        ],
        on_cancel=lambda: answer(on_no),
        width=WIDTH,
    )


def leave_dialog(screen: Screen, text: str, on_stay: Callable[[], object] | None = None) -> Dialog:
    """'Leave this battle?': Leave goes to the main menu, Stay (or Escape) closes the dialog (and calls
    `on_stay`: a question the player escaped from comes back)."""
    app = screen.app

    def leave() -> None:
        while len(app.stack) > 1:
            app.stack.pop()
        if app.stack:
            app.show_view(app.stack[-1])

    return ask(screen, "Leave this battle?", text, leave, yes="Leave", no="Stay", on_no=on_stay)


class EarlyEnd:
    """'End the phase?' when units of the player could still act: asked once per phase (a player told
    once, who chose to go on, ends it later without being asked again)."""

    def __init__(self) -> None:
        #: The phase (turn, phase, player) in which the question was asked.
        self.asked: Hashable = None

    def question(
        self, screen: Screen, game: Game, title: Callable[[Unit], str], end: Callable[[], object]
    ) -> Dialog | None:
        """The question before `end`, or None when nothing could act or it was asked this phase."""
        state = game.state
        phase = (state.turn, state.phase, state.active)
        if phase == self.asked:
            return None
        able = [state.units[u] for u in game.ready_units() if game.legal_actions(u)]
        if not able:
            return None
        self.asked = phase
        names = ", ".join(title(u) for u in able[:4]) + (
            f" and {len(able) - 4} more" if len(able) > 4 else ""
        )
        count = f"{len(able)} units" if len(able) > 1 else "1 unit"
        return ask(
            screen,
            f"End the {state.phase.value} phase?",
            f"{count} could still act: {names}.",
            end,
            yes="End it",
            no="Keep playing",
        )
