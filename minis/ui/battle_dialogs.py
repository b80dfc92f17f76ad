"""What the players must read or answer before the battle goes on, one dialog at a time.

After every action (and when the battle screen is back on top) `BattleDialogs.next_dialog` picks what
comes first: a notice to read (the casualty report), the victory screen, the stage's question (the
first player, the end), or the hand-over before a side deploys in secret. It is the order of the
battle's interruptions, kept apart from the screen's layout and input.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Protocol

import arcade

from minis.base.sides import Side
from minis.engine.events import Event
from minis.state import Stage
from minis.ui import obstacles as obstacle_ui
from minis.ui.app import MinisWindow
from minis.ui.computer import ComputerPlayer
from minis.ui.handover import HandOver
from minis.ui.readout import BattleReadout, Choice, Question
from minis.ui.rolls import Roll
from minis.ui.session import Session
from minis.ui.widgets import Button, Dialog


class DialogHost(Protocol):
    """What the dialogs ask of the battle screen (`minis.ui.battle.BattleScreen` is one; naming it here
    would make the two modules import each other)."""

    app: MinisWindow
    session: Session
    computer: ComputerPlayer | None
    remote: Side | None
    readout: BattleReadout

    def show_dialog(self, dialog: Dialog | None) -> None: ...
    def show_rolls(self, rolls: list[Roll]) -> None: ...
    def changed(self) -> None: ...
    def ask_to_leave(self, on_stay: Callable[[], object] | None = None) -> None: ...


class BattleDialogs:
    """The battle's dialogs in their order: notices, the victory, the stage's question, the hand-over."""

    def __init__(self, screen: DialogHost, handed_over: Side | None, question_width: float) -> None:
        self.screen = screen
        #: The question's dialog is as wide as the side panel it sits over.
        self.question_width = question_width
        #: The side the table was last handed over to (a hand-over screen shows before another deploys).
        self.handed_over = handed_over
        #: Dialogs to read before anything else (the casualty report), the oldest first.
        self.notices: list[Callable[[], Dialog]] = []
        #: The dialog of the question the stage asks (the first player, the end), while it is made.
        self.asking: Dialog | None = None

    def after_action(self, events: list[Event]) -> None:
        """After an action or an undo: its casualty report to read (unless the computer plays alone),
        then the next dialog."""
        screen = self.screen
        report = screen.readout.casualty_report(events)
        if report is not None and not (screen.computer is not None and screen.computer.alone):
            self.notices.append(functools.partial(self._casualty_dialog, *report))
        self.next_dialog()

    def next_dialog(self) -> None:
        """Show the next thing the players must read or decide in a dialog (or none)."""
        screen = self.screen
        if self.notices:
            screen.show_dialog(self.notices.pop(0)())
            return
        if screen.session.over:
            screen.show_dialog(None)
            if screen.computer is not None:
                screen.computer.close()
            if self._on_top():
                screen.app.routes.victory(screen.session)
            return
        question = screen.readout.question()
        if question is not None:
            screen.show_dialog(self.question_dialog(question))
        else:
            screen.show_dialog(None)
            state = screen.session.game.state
            deploying = state.deploying
            if (
                state.stage is Stage.DEPLOY
                and deploying is not None
                and deploying is not self.handed_over
                and screen.computer is None  # one player at the screen: nothing to hand over
                and screen.remote is None
                and self._on_top()
            ):
                self._hand_over(deploying)
        screen.changed()

    def _on_top(self) -> bool:
        """Whether the battle screen is the one shown (nothing is opened over it)."""
        top: object = self.screen.app.top_screen
        return top is self.screen

    def _hand_over(self, side: Side) -> None:
        self.handed_over = side
        screen = self.screen
        state = screen.session.game.state
        end = state.ends.get(side, "")
        then = f"to deploy the {side.title} army at the {end} end of the map"
        if state.obstacles and obstacle_ui.next_to_place(state) is not None:
            then = f"to place a {side.title} obstacle (obstacles go on the map before the units)"

        def back() -> None:
            if not self._on_top():
                screen.app.back()

        screen.app.open(HandOver(screen.app, side, then, back))

    def question_dialog(self, question: Question) -> Dialog:
        """The first-player or end question, with the dice behind it in the dice row."""
        screen = self.screen
        if screen.session.game.state.stage is Stage.CHOOSE_FIRST:
            dice = screen.readout.first_dice()
            coin = bool(dice) and dice[0][0] == "coin"
            caption = (
                "Coin flip (1-3 Axis, 4-6 Allies)" if coin else "Initiative: Axis, Allies (two dice each)"
            )
            rolled = tuple(die for _, die in dice)
            roll = Roll("coin" if coin else "initiative", caption, rolled, (None,) * len(rolled), "")
            screen.show_rolls([roll] if rolled else [])
        buttons = [choice_button(choice) for choice in question.choices]
        self.asking = Dialog(
            question.title, question.text, buttons, on_cancel=self._leave_question, width=self.question_width
        )
        return self.asking

    def _leave_question(self) -> None:
        """Escape on a question the game waits for (the coin flip's or initiative's first player, the
        end): nothing can be put off, so Escape does what it does everywhere in a battle, it asks
        'Leave this battle?'; Stay brings the question back."""
        self.screen.ask_to_leave(on_stay=self.next_dialog)

    def _casualty_dialog(self, title: str, text: str) -> Dialog:
        return Dialog(
            title, text, [Button("Continue (Enter)", self.next_dialog)], on_cancel=self.next_dialog, width=520
        )


def key_code(key: str) -> int:
    """The arcade key of a choice's key character ("1" -> KEY_1, "A" -> A)."""
    return int(getattr(arcade.key, f"KEY_{key}" if key.isdigit() else key.upper()))


def choice_button(choice: Choice, size: int | None = None) -> Button:
    """A choice as a button, with its key as a shortcut (a question's answers; the panel's choices)."""
    shortcuts = [key_code(choice.key)] if choice.key is not None else []
    if size is None:
        button = Button(choice.caption, choice.do, shortcuts=shortcuts)
    else:
        button = Button(choice.caption, choice.do, shortcuts=shortcuts, size=size)
    button.enabled = choice.enabled
    return button
