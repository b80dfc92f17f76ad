"""The hand-over screen: the screen goes blank but for "Pass to the Axis player, then press Space".

Two players share one screen, and some things are secret (the armies while they are built). Between
two secret turns the screen shows nothing of either; the next player presses Space (or Enter, or
clicks) when seated. Escape asks whether to abandon the battle being set up.

The first hand-over of a new two-player battle is the moment both players are still at the screen:
there they choose the rule set (`rules` with `on_rules`: a row of tabs, `minis.ui.rulechoice`); the
later hand-overs of the set-up only say which set the battle is played under.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade

from minis.base.sides import Side
from minis.content.rule_sets import RuleSet
from minis.ui import theme
from minis.ui.app import MinisWindow, Screen
from minis.ui.cardpanel import SIDE_TEXT
from minis.ui.confirm import leave_dialog
from minis.ui.rulechoice import RulesPicker
from minis.ui.widgets import Box, Button, Label


class HandOver(Screen):
    """'Pass to the X player, then press Space'."""

    hint = "Space, Enter or a click when the right player sits at the screen · Esc abandons the battle"

    def __init__(
        self,
        window: MinisWindow,
        side: Side,
        then: str,
        on_continue: Callable[[], object],
        *,
        detail: str = "",
        rules: RuleSet | None = None,
        on_rules: Callable[[RuleSet], object] | None = None,
        rules_fixed: str = "",
    ) -> None:
        """`rules`: the battle's rule set, shown (None: not shown); with `on_rules` the players choose it
        here (`rules_fixed` says why they can't: "set by the scenario")."""
        self.title = "Hand over"
        super().__init__(window)
        self.side = side
        self.on_continue = on_continue
        self.big = Label(
            f"Pass to the {side.title} player", size=34, bold=True, colour=SIDE_TEXT[side], align="center"
        )
        self.then = Label(then, size=theme.TEXT_SIZE + 3, align="center")
        self.press = Label(
            "then press Space", size=theme.TEXT_SIZE + 1, colour=theme.TEXT_DIM, align="center"
        )
        self.detail = Label(detail, size=theme.TEXT_SIZE, colour=theme.TEXT_DIM, align="center")
        self.go = Button(
            f"I am the {side.title} player", self.proceed, shortcuts=[arcade.key.SPACE, arcade.key.ENTER]
        )
        self.widgets = [self.big, self.then, self.press, self.detail, self.go]
        #: The rule set's row (None: the hand-over doesn't show it).
        self.rules: RulesPicker | None = None
        if rules is not None:
            fixed = rules_fixed or ("" if on_rules is not None else "chosen for this battle")
            self.rules = RulesPicker(rules, on_rules, fixed=fixed)
            self.widgets.append(self.rules)
        if self.rules is not None and self.rules.choosable:
            self.hint = "R or a click: the rule set · " + HandOver.hint
            self.set_hint(self.hint)

    def proceed(self) -> None:
        self.on_continue()

    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        wide = min(900, width - 2 * theme.MARGIN)  # as wide as the window allows
        top = height * (0.66 if self.rules is not None else 0.6)
        self.big.place(Box(cx - wide / 2, top, wide, 60))
        self.then.place(Box(cx - wide / 2, top - 50, wide, 30))
        self.press.place(Box(cx - wide / 2, top - 84, wide, 26))
        self.go.place(Box(cx - 150, top - 160, 300, 46))
        self.detail.place(Box(cx - wide / 2, top - 210, wide, 26))
        if self.rules is not None:
            rules_wide = min(760, wide)
            need = self.rules.height_for(rules_wide)
            self.rules.place(Box(cx - rules_wide / 2, top - 236 - need, rules_wide, need))

    def on_back(self) -> bool:
        self.show_dialog(leave_dialog(self, "The armies and the set-up so far are lost."))
        return True
