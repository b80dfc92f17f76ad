"""The row of buttons that chooses a battle's rule set, with what the chosen set changes.

A battle is played under one of the named rule sets (`minis.content.rule_sets.NAMED`: the 2005 rulebook and
the later official updates). The first screen of a new battle (the first hand-over of a Standard battle, the
Assault's "who attacks?", the choices against the computer) offers them as a row of tabs with a line saying
what each set changes (`minis.ui.rulewords`); a scenario file that names its own set shows it instead of
offering another.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

import arcade

from minis.content.rule_sets import RULEBOOK, RuleSet
from minis.ui import theme
from minis.ui.rulewords import describe, named_sets, rules_line
from minis.ui.widgets import Box, Label, TabBar, Widget


class RulesPicker(Widget):
    """'Rules:' and a tab per named set, with what the chosen one changes; R steps to the next. With
    `fixed` (a scenario's own set) no tabs: the set is shown, not offered."""

    focusable = True

    def __init__(
        self,
        rules: RuleSet = RULEBOOK,
        on_change: Callable[[RuleSet], object] | None = None,
        *,
        fixed: str = "",
        compact: bool = False,
    ) -> None:
        """`fixed`: why the set can't be chosen here ("set by the scenario"); empty: it can. `compact`:
        the row alone (the screen says what the set changes: `describe`)."""
        super().__init__()
        self.sets = named_sets()
        self.rules = rules
        self.on_change = on_change
        self.fixed = fixed
        self.compact = compact
        self.focusable = not fixed  # a scenario's own set is shown, not chosen
        self.caption = Label("Rules:", size=theme.TEXT_SIZE + 1, bold=True, colour=theme.ACCENT)
        self.tabs = TabBar([s.name for s in self.sets], self._chosen, size=theme.TEXT_SIZE)
        self.about = Label(
            "", size=theme.TEXT_SIZE - 1, colour=theme.TEXT_DIM, multiline=True, align="center"
        )
        self._show()

    @property
    def choosable(self) -> bool:
        return not self.fixed

    def _index(self) -> int:
        names = [s.name for s in self.sets]
        return names.index(self.rules.name) if self.rules.name in names else 0

    def _show(self) -> None:
        self.tabs.set_selected(self._index())
        self.tabs.visible = self.choosable
        if self.choosable:
            self.caption.text = "Rules:"
            self.about.text = describe(self.rules)
        else:
            self.caption.text = f"{rules_line(self.rules)} ({self.fixed})"
            self.about.text = describe(self.rules)

    def _chosen(self, index: int) -> None:
        self.set_rules(self.sets[index], tell=True)

    def set_rules(self, rules: RuleSet, *, tell: bool = False) -> None:
        self.rules = rules
        self._show()
        if tell and self.on_change is not None:
            self.on_change(rules)

    def step(self) -> None:
        """The next named set (after the last, the first again)."""
        if self.choosable:
            self.set_rules(self.sets[(self._index() + 1) % len(self.sets)], tell=True)

    def height_for(self, width: float) -> float:
        """The room it needs at `width`: the tabs' row and the longest description under it (so the
        screen's layout holds whichever set is chosen)."""
        if self.compact:
            return 40
        shown = self.about.text
        tallest = 0.0
        for rules in (*self.sets, self.rules):
            self.about.text = describe(rules)
            tallest = max(tallest, self.about.height_for(width))
        self.about.text = shown
        return 40 + 6 + tallest + 4

    def place(self, box: Box) -> None:
        super().place(box)
        row = Box(box.left, box.top - 40, box.width, 40) if not self.compact else box
        if self.choosable:
            self.caption.place(Box(row.left, row.bottom, 80, row.height))
            self.tabs.place(Box(row.left + 84, row.bottom + 2, row.width - 84, row.height - 4))
        else:
            self.caption.place(row)
        self.about.place(Box(box.left, box.bottom, box.width, max(1.0, row.bottom - 6 - box.bottom)))

    def parts(self) -> Sequence[Widget]:
        about = [] if self.compact else [self.about]
        return [self.caption, self.tabs, *about] if self.choosable else [self.caption, *about]

    def look(self) -> Hashable:
        return (super().look(), self.tabs.look(), self.caption.look(), self.about.look())

    def draw(self) -> None:
        if not self.visible:
            return
        self.caption.draw()
        if self.choosable:
            self.tabs.focused = self.focused
            self.tabs.draw()
        if not self.compact:
            self.about.draw()

    def on_mouse_motion(self, x: float, y: float) -> bool:
        return self.choosable and self.tabs.on_mouse_motion(x, y)

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        return self.choosable and self.visible and self.tabs.on_mouse_press(x, y, button, modifiers)

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        return self.choosable and self.tabs.on_mouse_release(x, y, button, modifiers)

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        return self.choosable and self.tabs.on_key_press(symbol, modifiers)

    def on_shortcut(self, symbol: int, modifiers: int) -> bool:
        if symbol == arcade.key.R and not modifiers & arcade.key.MOD_CTRL and self.choosable and self.visible:
            self.step()
            return True
        return False
