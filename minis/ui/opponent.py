"""Play against the computer (or watch it play itself): the choices before the battle's set-up.

One row per choice, each a button that cycles through its values (a click, or its key): the battle
(Standard, Assault, or a scenario file: the next value after Assault opens the scenario chooser,
`Routes.choose_scenario`, and the chosen file's title takes the row), the player's side, in an
Assault (or a scenario that leaves it open) who attacks, the computer's strength (easy, normal, hard:
`minis.ai.strength`), and the player's army (build it, load a file, or let the computer build both).
A row of tabs chooses the rule set (`minis.ui.rulechoice`; a scenario file's own set is shown instead).
Watching, only the battle, the rule set and the strength are asked. Enter starts the set-up
(`newbattle.NewBattle.against`), which builds the computer's army first, in secret (for a scenario,
within its limits); a set-up that can't start says why under the rows.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import arcade
import attrs

from minis.ai.strength import STRENGTHS
from minis.base.kinds import BattleKind
from minis.base.sides import Side
from minis.content.rule_sets import RULEBOOK, RuleSet
from minis.ui import theme
from minis.ui.app import MinisWindow, Screen
from minis.ui.rulechoice import RulesPicker
from minis.ui.rulewords import describe
from minis.ui.widgets import Box, Button, Label, Widget

if TYPE_CHECKING:
    from minis.engine.scenario import Scenario

#: The player's army: built in the army builder, loaded from a file (then checked in the builder), or
#: built by the computer.
ARMY_WAYS = ("build", "load", "computer")
T = TypeVar("T")

ARMY_WORDS = {"build": "I build it", "load": "I load a file", "computer": "the computer builds both"}


@attrs.frozen
class Opponent:
    """What the player chose: the battle (`plan`: a scenario file's, else the rulebook's `scenario`),
    their side (None: the computer plays both), whether they attack (Assault), the computer's
    strength, how their army is made, the seed of the computer's choices (its armies, its bots) and the
    rule set (a scenario file plays under its own: `plan.doc.rules`)."""

    scenario: BattleKind = BattleKind.STANDARD
    side: Side | None = Side.AXIS
    attack: bool = True
    strength: str = "normal"
    army: str = "build"
    seed: int = 0
    plan: Scenario | None = attrs.field(default=None, eq=False)
    rules: RuleSet = RULEBOOK

    @property
    def rules_played(self) -> RuleSet:
        """The set the battle is played under: the scenario file's, else the one chosen."""
        return self.plan.doc.rules if self.plan is not None else self.rules

    @property
    def attack_chosen(self) -> bool:
        """True when the player says who attacks (an Assault, or a scenario that leaves it open)."""
        if self.plan is not None:
            return self.plan.is_attack and self.plan.attacker_side is None
        return self.scenario is BattleKind.ASSAULT

    @property
    def computer_sides(self) -> tuple[Side, ...]:
        return tuple(side for side in Side if side is not self.side)

    @property
    def attacker(self) -> Side | None:
        """The attacking side of an Assault or an attack scenario (None in a Standard battle)."""
        if self.plan is not None and self.plan.attacker_side is not None:
            return self.plan.attacker_side  # the scenario says who attacks
        if not self.attack_chosen:
            return None
        if self.side is None:
            return Side.AXIS
        return self.side if self.attack else self.side.other


def _next(values: tuple[T, ...], value: T) -> T:
    """The value after `value` in `values`, round again after the last."""
    return values[(values.index(value) + 1) % len(values)]


class OpponentChoice(Screen):
    """The rows of choices and Start; Escape goes back to the menu."""

    hint = "Click a row or press its key to change it (R: the rule set) · Enter starts · Esc back"

    def __init__(
        self, window: MinisWindow, on_start: Callable[[Opponent], object], *, watch: bool = False
    ) -> None:
        self.title = "Watch the computer play itself" if watch else "Play against the computer"
        super().__init__(window)
        self.watch = watch
        self.on_start = on_start
        self.choice = Opponent(
            side=None if watch else Side.AXIS,
            army="computer" if watch else "build",
            seed=random.randrange(2**63),
        )
        self.heading = Label(self.title, size=28, bold=True, colour=theme.ACCENT, align="center")
        key = arcade.key
        self.battle = Button("", self._cycle_battle, shortcuts=[key.B])
        self.side = Button("", self._cycle_side, shortcuts=[key.S])
        self.attack = Button("", self._cycle_attack, shortcuts=[key.A])
        self.strength = Button("", self._cycle_strength, shortcuts=[key.C])
        self.army = Button("", self._cycle_army, shortcuts=[key.Y])
        self.rules = RulesPicker(self.choice.rules, self._rules_chosen, compact=True)
        self.about = Label("", size=theme.TEXT_SIZE, colour=theme.TEXT_DIM, multiline=True, align="center")
        self.problem = Label("", size=theme.TEXT_SIZE, colour=theme.BAD, multiline=True, align="center")
        self.start = Button("Start (Enter)", self.go, shortcuts=[key.ENTER, key.NUM_ENTER])
        self.rows: list[Widget] = [self.battle, self.rules]
        self.rows += [self.strength] if watch else [self.side, self.attack, self.strength, self.army]
        self.widgets = [self.heading, *self.rows, self.about, self.start, self.problem]
        self.set_focus(self.start)
        self.show()

    def show(self) -> None:
        """The rows' captions from the choice (the attack row only in an Assault)."""
        choice = self.choice
        assault = choice.scenario is BattleKind.ASSAULT
        battle = choice.plan.title if choice.plan is not None else "Assault" if assault else "Standard"
        self.battle.label.text = f"Battle: {battle} (B)"
        self.side.label.text = f"You play: the {choice.side.title if choice.side else 'Axis'} (S)"
        role = "attack" if choice.attack else "defend"
        self.attack.label.text = f"{'Assault' if choice.plan is None else battle}: you {role} (A)"
        self.attack.visible = choice.attack_chosen and not self.watch
        strength = "both sides: " if self.watch else ""
        self.strength.label.text = f"The computer: {strength}{choice.strength} (C)"
        self.army.label.text = f"Your army: {ARMY_WORDS[choice.army]} (Y)"
        picker = self.rules
        picker.fixed = "set by the scenario" if choice.plan is not None else ""
        picker.focusable = picker.choosable
        picker.set_rules(choice.rules_played)
        about = {
            "easy": "Easy: now and then it takes a weaker move.",
            "normal": "Normal: it weighs every move by the odds.",
            "hard": "Hard: it also plays each good move forward (128 playouts, at most a second).",
        }[choice.strength]
        secret = (
            ""
            if self.watch
            else " It builds its army first, in secret, and never sees yours before deployment."
        )
        self.about.text = self.scenario_terms() + describe(choice.rules_played) + ".\n" + about + secret
        self._layout_all()

    def scenario_terms(self) -> str:
        """A chosen scenario's description and the player's points ("" for the rulebook's battles)."""
        choice = self.choice
        if choice.plan is None:
            return ""
        text = choice.plan.doc.description
        if choice.side is not None:
            points = choice.plan.force_of(choice.side, choice.attacker).points
            text += f" You have up to {points} points."
        return text.strip() + "\n"

    def error(self, text: str) -> None:
        """Why the set-up can't start (the rows stay as they are, to choose again)."""
        self.problem.text = text

    def _set(self, choice: Opponent) -> None:
        self.choice = choice
        self.problem.text = ""
        self.show()

    def _cycle_battle(self) -> None:
        """Standard, Assault, then a scenario file (the chooser opens; Escape there keeps Assault)."""
        choice = self.choice
        if choice.plan is None and choice.scenario is BattleKind.ASSAULT:
            self.app.routes.choose_scenario(then=self.scenario_chosen)
            return
        scenario = BattleKind.ASSAULT if choice.plan is None else BattleKind.STANDARD
        self._set(attrs.evolve(choice, scenario=scenario, plan=None))

    def scenario_chosen(self, plan: Scenario) -> None:
        """A scenario file from the chooser: its battle, its roles (who attacks, if it says)."""
        scenario = BattleKind.ASSAULT if plan.is_attack else BattleKind.STANDARD
        self._set(attrs.evolve(self.choice, scenario=scenario, plan=plan))

    def _cycle_side(self) -> None:
        self._set(attrs.evolve(self.choice, side=(self.choice.side or Side.AXIS).other))

    def _cycle_attack(self) -> None:
        self._set(attrs.evolve(self.choice, attack=not self.choice.attack))

    def _cycle_strength(self) -> None:
        self._set(attrs.evolve(self.choice, strength=_next(STRENGTHS, self.choice.strength)))

    def _rules_chosen(self, rules: RuleSet) -> None:
        self._set(attrs.evolve(self.choice, rules=rules))

    def _cycle_army(self) -> None:
        self._set(attrs.evolve(self.choice, army=_next(ARMY_WAYS, self.choice.army)))

    def go(self) -> None:
        self.on_start(self.choice)

    def layout(self, width: int, height: int) -> None:
        """The rows from the top; in a low window they close up, so Start stays in view."""
        cx = width / 2
        wide = min(760, width - 2 * theme.MARGIN)
        top = height - theme.BAR_HEIGHT - 60
        self.heading.place(Box(cx - wide / 2, top, wide, 50))
        rows = [row for row in self.rows if row.visible]
        about = min(140.0, self.about.height_for(wide) + 6)
        below = about + 10 + 56 + 40 + theme.HINT_HEIGHT
        y: float = top - 10
        step = max(40.0, min(56.0, (y - below) / max(1, len(rows))))
        for row in rows:
            y -= step
            row.place(Box(cx - 260, y, 520, step - 10))
        self.about.place(Box(cx - wide / 2, y - 10 - about, wide, about))
        start = y - 10 - about - 56
        self.start.place(Box(cx - 160, start, 320, 46))
        self.problem.place(Box(cx - wide / 2, max(theme.HINT_HEIGHT, start - 66), wide, 62))
