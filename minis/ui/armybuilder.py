"""Building an army in secret: pick cards (filtered), see each card, watch points and the rules' verdict.

One player at a time sits at the screen (the hand-over screens before and after keep the armies
secret). The left column lists the cards of the whole catalogue that pass the search box (words of a
card's name or abilities, filtered as the player types) and the filters (side, nation, type, subtype,
year, cost, playable only), in the chosen order; hovering or arrowing to a card shows it in the card
panel (a scroll bar shows where the list is); clicking it (or Enter) adds a copy to the army. A card
this rule set cannot play yet is greyed, its panel says what it needs, and adding it is refused with
that reason (an army loaded with one is not legal, for the same reason). The filters are
`minis.content.card_search.CardFilter`, the same as `minis cards list`'s options. The list makes the text
of a row only when it scrolls into view (`LongList`), so typing stays quick with the whole catalogue.

The right column is the army: its units (hovering one, or arrowing to it once Tab gave the army the
keys, shows its card; clicking or Enter takes it out), the points and unit count against the
scenario's limits, and the army builder's own validation messages (`minis.army.validate_army`), the
same ones `minis army check` prints. The builder checks by the battle's rule set (`rules`, named in the
title bar: "Allies army · Rules: 2010"): its unit limit, caps and nationality table; a Standard army
picks its size among the set's points levels where it has more than one. Armies load from and save to
army files (written atomically), which name the set when it is not the rulebook's.

The army files a player saves during a battle's set-up are that player's secret (`ArmyFiles`): the
other player's Load and Save dialogs do not list them, and refuse them if typed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, Generic, TypeVar

import arcade
import attrs

from minis.army import Army, ArmyScenario, army_points, dump_army, load_army, validate_army
from minis.base.atomic import write_atomic
from minis.base.data import packaged_data, shipped_folder, user_armies
from minis.base.errors import MinisError, problem_lines
from minis.base.paths import is_dir, resolved
from minis.base.sides import Side
from minis.cards import Nation, StatCard, UnitType, card_catalogue
from minis.content.card_search import CardFilter, needs_text, sort_cards
from minis.content.rule_sets import RULEBOOK, RuleSet
from minis.engine.ability_loader import standard_abilities
from minis.ui import theme
from minis.ui.app import MinisWindow, Screen
from minis.ui.cardpanel import SIDE_TEXT, CardPanel
from minis.ui.filedialog import FileDialog
from minis.ui.longlist import LongList
from minis.ui.scrollbar import WIDTH as BAR_WIDTH
from minis.ui.scrollbar import ScrollBar
from minis.ui.search import SearchField
from minis.ui.widgets import Box, Button, Label, ListBox, TextField, fit_first_lines, fit_text

_T = TypeVar("_T")

#: The years a player may limit an army to (None: any year).
YEAR_CHOICES: tuple[int | None, ...] = (None, *range(1939, 1946))
#: The cost filter's bands: (what the player reads, (least, most) points; None: no bound).
COST_BANDS: tuple[tuple[str, tuple[float | None, float | None]], ...] = (
    ("any", (None, None)),
    ("up to 5", (None, 5)),
    ("6 to 10", (5.5, 10)),
    ("11 to 20", (10.5, 20)),
    ("21 to 40", (20.5, 40)),
    ("over 40", (40.5, None)),
)
#: The sort orders a player may choose (`minis.content.card_search.SORTS`, in words).
SORT_CHOICES = (("name", "name"), ("cost", "cost"), ("year", "year"), ("nation", "nation"))
#: The text of a card this rule set cannot play yet (greyed, but still readable on a row).
UNPLAYABLE: theme.Colour = (134, 138, 144, 255)


#: What a player reads for each army scenario (the files and the notation say "assault-defender").
SCENARIO_WORDS = {
    ArmyScenario.STANDARD: "Standard",
    ArmyScenario.ASSAULT_ATTACKER: "Assault: attacker",
    ArmyScenario.ASSAULT_DEFENDER: "Assault: defender",
}


def scenario_words(scenario: ArmyScenario) -> str:
    """The army scenario in plain words ("Assault: defender")."""
    return SCENARIO_WORDS[scenario]


def armies_folder() -> Path:
    """Where the army dialogs open: ./armies if there is one; in a checkout, the repository's own (as
    ever); in an installed minis, the player's folder (never the package's): docs/playing.md."""
    here = Path.cwd() / "armies"
    if is_dir(here):
        return here
    if packaged_data() is None:
        return shipped_folder("armies")
    try:
        return user_armies()
    except OSError:  # no home to write in: the working folder, as the dialog's last resort
        return Path.cwd()


@attrs.define
class ArmyFiles:
    """The army files each player saved during one battle's set-up.

    Both players use one screen, so the player who builds second could see the first player's file
    in the Load army dialog, and its name alone may give the army away. The builders of one battle
    share one `ArmyFiles`; each side's dialogs leave out the files the other side saved.
    """

    saved: dict[Side, set[Path]] = attrs.Factory(lambda: {side: set() for side in Side})

    def add(self, side: Side, path: Path) -> None:
        key = resolved(path)  # one name per file, however the player typed it
        self.saved[side].add(key)
        self.saved[side.other].discard(key)

    def hidden_from(self, side: Side, path: Path) -> bool:
        """True if the other side saved `path` in this battle."""
        return resolved(path) in self.saved[side.other]

    def refusal(self, side: Side, path: Path) -> str | None:
        """Why `side` may not open or overwrite `path` (None: it may)."""
        if self.hidden_from(side, path):
            return f"{path.name} is the {side.other.title} player's army for this battle: it stays secret."
        return None


class Cycle(Button, Generic[_T]):
    """A button that steps through choices: click (or Enter) for the next, right-click for the previous."""

    def __init__(
        self,
        caption: str,
        choices: list[tuple[str, _T]],
        on_change: Callable[[], object],
        *,
        short: str = "",
    ) -> None:
        self.caption = caption
        #: A shorter caption for a narrow button ("Historical" for "Historical limits").
        self.short = short
        self.choices = choices
        self.index = 0
        self.on_change = on_change
        super().__init__(self._text(), lambda: self.step(1), size=theme.SMALL_SIZE + 1)

    def _text(self) -> str:
        return f"{self.caption}: {self.choices[self.index][0]}"

    def _show(self) -> None:
        """The caption and choice, or the choice alone where the button is too narrow for both."""
        if self.box.width:
            choice = self.choices[self.index][0]
            shorter = [f"{self.short}: {choice}"] if self.short else []
            fit_text(self.label, self.box.width - 12, self._text(), *shorter, choice)
        else:
            self.label.text = self._text()

    def place(self, box: Box) -> None:
        super().place(box)
        self._show()

    @property
    def value(self) -> _T:
        return self.choices[self.index][1]

    def set_value(self, value: _T) -> None:
        for i, (_, v) in enumerate(self.choices):
            if v == value:
                self.index = i
                self._show()
                return

    def set_choices(self, choices: list[tuple[str, _T]]) -> None:
        """Offer other choices, keeping the chosen value if it is among them (else the first)."""
        value = self.value
        self.choices = choices
        self.index = next((i for i, (_, v) in enumerate(choices) if v == value), 0)
        self._show()

    def step(self, by: int) -> None:
        self.index = (self.index + by) % len(self.choices)
        self._show()
        self.on_change()

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if button == arcade.MOUSE_BUTTON_RIGHT and self.visible and self.box.contains(x, y):
            self.step(-1)
            return True
        return super().on_mouse_press(x, y, button, modifiers)


class ArmyBuilder(Screen):
    hint = (
        "Click a card (or Enter) to add it · click a unit to take it out · Ctrl+F search · "
        "filters: click, right-click back · Ctrl+L load · Ctrl+S save · D done · Esc back"
    )
    short_hint = "Click a card to add · click a unit to remove · Ctrl+F search · D done"

    def __init__(
        self,
        window: MinisWindow,
        side: Side,
        scenario: ArmyScenario,
        on_done: Callable[[Army], object],
        *,
        army: Army | None = None,
        check: Callable[[Army], list[str]] | None = None,
        points_limit: int | None = None,
        note: str = "",
        files: ArmyFiles | None = None,
        rules: RuleSet = RULEBOOK,
    ) -> None:
        self.title = f"{side.title} army · Rules: {rules.name}" + (" (custom)" if rules.changed else "")
        super().__init__(window)
        #: The rule set the army is built for: the battle's (validation, limits, the saved file).
        self.rules = rules
        self.side = side
        self.scenario = scenario
        self.on_done = on_done
        #: A scenario file's own army check and points limit (default: the army builder's rules).
        self.check = check
        self.points_limit = points_limit
        self.note = note
        #: The army files saved in this battle's set-up (shared with the other player's builder).
        self.files = files if files is not None else ArmyFiles()
        self.catalogue = card_catalogue()
        abilities = standard_abilities()
        #: What this rule set lacks to play each card, in plain words (empty: it plays).
        self.needs: dict[str, tuple[str, ...]] = {
            card.id: abilities.needs(card) for card in self.catalogue.values()
        }
        self.units: list[str] = list(army.units) if army else []
        self.secret = Label(
            f"Only the {side.title} player should look: the {side.other.title} player turns away.",
            size=theme.SMALL_SIZE + 1,
            colour=SIDE_TEXT[side],
        )
        self.bar_widgets = [self.secret]
        # the search box and the filters
        self.search = SearchField(self.refilter, self.to_cards, placeholder="Search names and abilities")
        self.side_filter = Cycle(
            "Side", [(side.title, side), (side.other.title, side.other), ("all", None)], self.refilter
        )
        self.nation_filter: Cycle[Nation | None] = Cycle("Nation", [("all", None)], self.refilter)
        self.type_filter = Cycle(
            "Type",
            [
                ("all", None),
                ("Soldiers", UnitType.SOLDIER),
                ("Vehicles", UnitType.VEHICLE),
                ("Obstacles", UnitType.OBSTACLE),
                ("Aircraft", UnitType.AIRCRAFT),
            ],
            self.refilter,
        )
        self.subtype_filter: Cycle[str | None] = Cycle("Subtype", [("all", None)], self.refilter)
        self.year_filter = Cycle(
            "Year", [("any", None), *((f"by {y}", y) for y in range(1939, 1946))], self.refilter
        )
        self.cost_filter = Cycle("Cost", list(COST_BANDS), self.refilter)
        self.playable_filter = Cycle("Show", [("all cards", False), ("playable only", True)], self.refilter)
        self.sort_order = Cycle("Sort by", list(SORT_CHOICES), self.refilter)
        #: The filter buttons in the order they are laid out (after the search box).
        self.filters: list[Cycle[Any]] = [
            self.side_filter,
            self.type_filter,
            self.subtype_filter,
            self.nation_filter,
            self.year_filter,
            self.cost_filter,
            self.playable_filter,
            self.sort_order,
        ]
        self.cards_title = Label("Cards", size=theme.TEXT_SIZE + 1, bold=True)
        self.cards = LongList(self.add_row)
        self.card_bar = ScrollBar(self.cards)
        self.panel = CardPanel()
        #: The card of the army's unit under the mouse (shown in the panel instead of the list's).
        self.hovered: StatCard | None = None
        #: Whether the keys moved through the army last (the panel then shows its focused unit).
        self.army_keys = False
        # the army
        self.name = TextField(army.name if army else f"{side.title} army", placeholder="army name")
        self.year_limit = Cycle(
            "Year limit",
            [("none" if y is None else str(y), y) for y in YEAR_CHOICES],
            self.changed,
            short="Year",
        )
        self.historical = Cycle(
            "Historical limits", [("off", False), ("on", True)], self.changed, short="Historical"
        )
        levels = rules.point_levels
        self.army_size = Cycle("Army size", [(f"{p} points", p) for p in levels], self.changed, short="Size")
        #: Whether the player picks the army's size: a Standard army the scenario sets no limit for,
        #: under a set of several points levels.
        self.sized = scenario is ArmyScenario.STANDARD and points_limit is None and len(levels) > 1
        if army is not None:
            self.year_limit.set_value(army.year)
            self.historical.set_value(army.historical)
            if army.points is not None:
                self.army_size.set_value(army.points)
        self.army_title = Label("", size=theme.TEXT_SIZE + 1, bold=True)
        self.army_list = ListBox(
            [], self.remove_row, row_height=28, size=theme.TEXT_SIZE, align="left", bold=False, gap=3
        )
        self.totals = Label("", size=theme.TEXT_SIZE + 1, bold=True)
        self.problems = Label("", size=theme.TEXT_SIZE, multiline=True, colour=theme.BAD)
        self.load_button = Button("Load file…", self.load, shortcuts=())
        self.save_button = Button("Save file…", self.save)
        self.clear_button = Button("Clear", self.clear_army)
        self.done_button = Button("Done", self.done)
        self.message = Label("", size=theme.SMALL_SIZE + 1, colour=theme.TEXT_DIM, multiline=True)
        self._said: tuple[str, ...] = ("",)
        self.widgets = [
            self.secret,
            self.search,
            *self.filters,
            self.cards_title,
            self.cards,
            self.card_bar,
            self.panel,
            self.name,
            self.year_limit,
            self.historical,
            *([self.army_size] if self.sized else []),
            self.army_title,
            self.army_list,
            self.totals,
            self.problems,
            self.load_button,
            self.save_button,
            self.clear_button,
            self.done_button,
            self.message,
        ]
        self.shown: list[StatCard] = []
        #: The list's rows whose cards the panel was last asked to lay out ahead (`on_update`).
        self._in_view: tuple[int, int, int] | None = None
        self.refilter()
        self.changed()
        self.set_focus(self.cards)

    # --- the army -------------------------------------------------------------------------------------
    @property
    def army(self) -> Army:
        return Army(
            self.name.value.strip() or f"{self.side.title} army",
            self.side,
            self.scenario,
            year=self.year_limit.value,
            historical=bool(self.historical.value),
            units=tuple(self.units),
            points=self._points(),
            rules=self.rules,
        )

    def _points(self) -> int | None:
        """The army size chosen, as the file writes it: None for the set's usual size (its first)."""
        if not self.sized or self.army_size.value == self.rules.point_levels[0]:
            return None
        return int(self.army_size.value)

    def problem_list(self) -> list[str]:
        """The rules' verdict on the army, and each of its cards that can't be played yet (unless the
        verdict already names it: `minis army check` refuses them too)."""
        problems = list(
            self.check(self.army) if self.check is not None else validate_army(self.army, self.catalogue)
        )
        for card_id in dict.fromkeys(self.units):
            card = self.catalogue.get(card_id)
            missing = self.needs.get(card_id, ())
            if (
                card is not None
                and missing
                and not any(card.name in line and "need" in line for line in problems)
            ):
                problems.append(f"{card.name} can't be played yet: it needs {needs_text(missing)}")
        return problems

    @property
    def limit(self) -> int:
        return self.points_limit if self.points_limit is not None else self.army.points_limit

    def add(self, card_id: str) -> None:
        """Add a copy of the card, unless this rule set cannot play it yet (then say what it needs)."""
        card = self.catalogue[card_id]
        missing = self.needs.get(card_id, ())
        if missing:
            self.tell(
                f"{card.name} can't be played yet: it needs {needs_text(missing)}.",
                f"{card.name} can't be played yet.",
            )
            return
        self.units.append(card_id)
        self.tell(f"Added {card.name}.")
        self.changed()

    def add_row(self, row: int) -> None:
        if 0 <= row < len(self.shown):
            self.add(self.shown[row].id)

    def remove_row(self, row: int) -> None:
        rows = self._army_rows()
        if 0 <= row < len(rows):
            card_id = rows[row][0]
            self.units.remove(card_id)
            self.tell(f"Took out {self.catalogue[card_id].name if card_id in self.catalogue else card_id}.")
            self.changed()

    def clear_army(self) -> None:
        """The Clear button (not `clear`, which is arcade's: it wipes the window before a frame)."""
        self.units.clear()
        self.tell("The army is empty.")
        self.changed()

    def _army_rows(self) -> list[tuple[str, int]]:
        counts = Counter(self.units)
        return sorted(counts.items(), key=lambda item: (-self._cost(item[0]), item[0]))

    def _cost(self, card_id: str) -> int:
        card = self.catalogue.get(card_id)
        return int(card.cost) if card else 0

    def changed(self) -> None:
        rows = self._army_rows()
        names = []
        details = []
        for card_id, count in rows:
            card = self.catalogue.get(card_id)
            name = card.name if card else f"{card_id} (unknown card)"
            names.append(f"{count} × {name}" if count > 1 else name)
            details.append(str(self._cost(card_id) * count))
        self.army_list.set_items(names, details)
        army = self.army
        points = army_points(army, self.catalogue)
        cap = self.rules.max_units
        units = f"{len(self.units)} units" if cap is None else f"{len(self.units)} / {cap} units"
        self.totals.text = f"{points} / {self.limit} points · {units}"
        problems = self.problem_list()
        #: What the rules say of the army now (shown in the problems box).
        self.verdict = problems or ["The army is legal."]
        self.totals.colour = theme.BAD if problems else theme.GOOD
        self.problems.colour = theme.BAD if problems else theme.GOOD
        self.done_button.enabled = not problems
        self._fit_texts()

    def tell(self, text: str, *shorter: str) -> None:
        """Say what just happened in the status line under the army: `text`, or the first of its
        `shorter` forms that fits (the last cut with "…" if none does)."""
        self._said = (text, *shorter)
        self._fit_texts()

    def _fit_texts(self) -> None:
        """The army's heading and problems as they fit their boxes (laid out once the boxes are known)."""
        kind = self.note or scenario_words(self.scenario)
        limit = f"up to {self.limit} points"
        if self.army_title.box.width:
            fit_text(self.army_title, self.army_title.box.width, f"{kind} ({limit})", limit.capitalize())
        else:
            self.army_title.text = f"{kind} ({limit})"
        fit_first_lines(self.problems, self.verdict, self.problems.box)
        box = self.message.box
        if box.width:
            fit_text(self.message, box.width, *self._said, height=box.height)
        else:
            self.message.text = self._said[0]

    # --- the card list --------------------------------------------------------------------------------
    def _offer_choices(self) -> None:
        """The nations of the chosen side and the subtypes of the chosen type, as each filter's choices
        (only those some card has: no choice that lists nothing)."""
        side, kind = self.side_filter.value, self.type_filter.value
        cards = self.catalogue.values()
        nations = {
            card.nation for card in cards if card.nation is not None and (side is None or card.serves(side))
        }
        self.nation_filter.set_choices(
            [("all", None), *((n.value, n) for n in sorted(nations, key=lambda n: n.value))]
        )
        subtypes = {card.subtype for card in cards if card.subtype and (kind is None or card.type is kind)}
        self.subtype_filter.set_choices([("all", None), *((s, s) for s in sorted(subtypes))])

    @property
    def card_filter(self) -> CardFilter:
        """What the search box and the filter buttons ask for."""
        least, most = self.cost_filter.value
        return CardFilter(
            search=self.search.value,
            side=self.side_filter.value,
            nation=self.nation_filter.value,
            type=self.type_filter.value,
            subtype=self.subtype_filter.value,
            year=self.year_filter.value,
            min_cost=least,
            max_cost=most,
            playable=bool(self.playable_filter.value),
        )

    def refilter(self) -> None:
        """Show the cards that pass the search and the filters (on every key typed into the search)."""
        self._offer_choices()
        wanted = self.card_filter
        needs = self.needs
        self.shown = sort_cards(
            (card for card in self.catalogue.values() if wanted.matches(card, lambda c: needs[c.id])),
            self.sort_order.value,
        )
        colours = [None if not needs[card.id] else UNPLAYABLE for card in self.shown]
        self.cards.set_items([card.name for card in self.shown], self._details(), colours)
        self.cards.highlight(0)
        playable_count = sum(1 for card in self.shown if not needs[card.id])
        self._cards_heading = (
            f"Cards: {len(self.shown)} shown, {playable_count} playable",
            f"Cards: {len(self.shown)} ({playable_count} playable)",
            f"Cards ({len(self.shown)})",
        )
        self._fit_heading()

    def _details(self) -> list[str]:
        """Each shown card's dim text at the right of its row: its nation (or that it is not playable
        yet) and its cost; in a narrow list the cost alone, so the names keep their room."""
        if 0 < self.cards.box.width < 300:
            return [card.cost_text for card in self.shown]
        return [
            f"not playable · {card.cost_text}"
            if self.needs[card.id]
            else f"{card.nation.adjective if card.nation else 'Either side'} · {card.cost_text}"
            for card in self.shown
        ]

    def _fit_heading(self) -> None:
        box = self.cards_title.box
        if box.width:
            fit_text(self.cards_title, box.width, *self._cards_heading)
        else:
            self.cards_title.text = self._cards_heading[0]

    def to_cards(self) -> None:
        """Down or Enter in the search box: the keys go to the card list."""
        self.set_focus(self.cards)

    def card_row(self, card_id: str) -> int:
        """The row of a card in the filtered list (tests and demos click it)."""
        return [c.id for c in self.shown].index(card_id)

    def army_row(self, card_id: str) -> int:
        return [c for c, _ in self._army_rows()].index(card_id)

    # --- files ----------------------------------------------------------------------------------------
    def load(self) -> None:
        self.app.open(
            FileDialog(
                self.app,
                title=f"Load an army file for the {self.side.title} player",
                folder=armies_folder(),
                suffixes=(".toml",),
                on_choose=self.load_file,
                listed=self._listed,
            )
        )

    def _listed(self, path: Path) -> bool:
        return not self.files.hidden_from(self.side, path)

    def load_file(self, path: Path) -> str | None:
        refusal = self.files.refusal(self.side, path)
        if refusal:
            return refusal
        try:
            army = load_army(path)
        except MinisError as error:
            return "\n".join(problem_lines(error.problems, 4))
        if army.side is not self.side:
            return f"{path.name} is an {army.side.title} army; this is the {self.side.title} player's."
        self.units = list(army.units)
        self.name.value = army.name
        self.year_limit.set_value(army.year)
        self.historical.set_value(army.historical)
        if army.points is not None:
            self.army_size.set_value(army.points)
        note = ""
        if army.scenario is not self.scenario:
            made, here = scenario_words(army.scenario), scenario_words(self.scenario)
            note = f" (made for {made}, checked here for {here})"
        elif army.rules != self.rules:
            note = f" (made for the rules {army.rules.title}, checked here by {self.rules.title})"
        loaded = f"{len(army.units)} units{note}"
        self.tell(f"Loaded {path.name}: {loaded}.", f"Loaded {loaded}.")
        self.changed()
        return None

    def save(self) -> None:
        name = "".join(ch if ch.isalnum() else "-" for ch in self.army.name.lower()).strip("-") or "army"
        self.app.open(
            FileDialog(
                self.app,
                title="Save the army as an army file",
                folder=armies_folder(),
                suffixes=(".toml",),
                on_choose=self.save_file,
                saving=True,
                name=f"{name}.toml",
                listed=self._listed,
            )
        )

    def save_file(self, path: Path) -> str | None:
        refusal = self.files.refusal(self.side, path)
        if refusal:
            return refusal
        try:
            write_atomic(path, dump_army(self.army))
        except OSError as error:
            return f"cannot write {path}: {error.strerror or error}"
        self.files.add(self.side, path)
        self.tell(f"Saved {path.name} in {path.parent}.")
        return None

    def done(self) -> None:
        problems = self.problem_list()
        if problems:
            self.tell("The army is not legal yet: " + problems[0])
            return
        self.on_done(self.army)

    # --- layout ---------------------------------------------------------------------------------------
    def layout(self, width: int, height: int) -> None:
        content = self.content_box
        m = theme.MARGIN
        self.secret.place(Box(width * 0.35, height - theme.BAR_HEIGHT, width * 0.64, theme.BAR_HEIGHT))
        top = content.top - m
        # two rows of five: the search box (two wide) and three filters, then five filters
        gap = 8
        column = (width - 2 * m - 4 * gap) // 5
        cells = [(row, col) for row in range(2) for col in range(5)]
        self.search.place(Box(m, top - 34, 2 * column + gap, 34))
        for cycle, (row, col) in zip(self.filters, cells[2:], strict=True):
            cycle.place(Box(m + col * (column + gap), top - 34 - row * 40, column, 34))
        # a narrow window shares its width out so that the card panel keeps room for its columns
        left_width = max(250, int(width * 0.28))
        right_width = max(270, int(width * 0.3))
        middle_width = width - left_width - right_width - 4 * m
        body_top = top - 86
        self.cards_title.place(Box(m, body_top - 22, left_width, 22))
        self._fit_heading()
        list_box = Box(m, content.bottom + m, left_width - BAR_WIDTH - 4, body_top - 28 - content.bottom - m)
        self.cards.place(list_box)
        details = self._details()
        if details != self.cards.details:
            self.cards.set_details(details)
        self.card_bar.place(Box(list_box.right + 4, list_box.bottom, BAR_WIDTH, list_box.height))
        middle_left = m * 2 + left_width
        self.panel.place(Box(middle_left, content.bottom + m, middle_width, body_top - content.bottom - m))
        right = middle_left + middle_width + m
        y = body_top
        self.name.place(Box(right, y - 32, right_width, 32))
        y -= 40
        cycles: list[Cycle[Any]] = [self.year_limit, self.historical]
        cycles += [self.army_size] if self.sized else []
        width_each = (right_width - 8 * (len(cycles) - 1)) / len(cycles)
        for number, choice in enumerate(cycles):
            choice.place(Box(right + number * (width_each + 8), y - 30, width_each, 30))
        y -= 40
        self.army_title.place(Box(right, y - 22, right_width, 22))
        y -= 26
        bottom_block = 28 + 104 + 44 + 40 + 8  # totals, problems, status (two lines), buttons
        list_height = max(60, y - (content.bottom + m + bottom_block))
        self.army_list.place(Box(right, y - list_height, right_width, list_height))
        y -= list_height + 8
        self.totals.place(Box(right, y - 24, right_width, 24))
        y -= 28
        self.problems.place(Box(right, y - 100, right_width, 100))
        bottom = content.bottom + m
        # Load and Save have the longer words: a little more of the row
        unit = (right_width - 3 * 6) / 4
        x: float = right
        for button, share in (
            (self.load_button, 1.15),
            (self.save_button, 1.15),
            (self.clear_button, 0.85),
            (self.done_button, 0.85),
        ):
            button.place(Box(round(x), bottom, round(unit * share), 36))
            x += unit * share + 6
        for button, words in ((self.load_button, "Load"), (self.save_button, "Save")):
            fit_text(button.label, button.box.width - 8, f"{words} file…", f"{words}…")
        self.message.place(Box(right, bottom + 40, right_width, 44))
        self._fit_texts()

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool:
        super().on_mouse_motion(x, y, dx, dy)
        row = self.army_list.row_at(x, y) if self.dialog is None else None
        self.army_keys = False  # the mouse points again: the panel follows it
        rows = self._army_rows()
        self.hovered = self.catalogue.get(rows[row][0]) if row is not None and row < len(rows) else None
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        handled = super().on_key_press(symbol, modifiers)
        # the keys reached the army (Tab, the arrows): its focused unit is shown until the mouse moves
        self.army_keys = self.focused is self.army_list
        return handled

    def panel_card(self) -> StatCard | None:
        """The card the panel shows: the army's unit under the mouse, else the army's focused unit
        while the keys move through the army, else the card list's highlighted card."""
        if self.hovered is not None:
            return self.hovered
        rows = self._army_rows()
        if self.army_keys and self.focused is self.army_list and 0 <= self.army_list.index < len(rows):
            return self.catalogue.get(rows[self.army_list.index][0])
        index = self.cards.index
        return self.shown[index] if 0 <= index < len(self.shown) else None

    def on_update(self, delta_time: float) -> None:
        """Idle time lays out the card of the next row in view, so hovering it shows it at once (a
        card's text takes tens of milliseconds to lay out the first time)."""
        in_view = (self.cards.version, self.cards.top_row, self.cards.visible_rows)
        if in_view != self._in_view:
            self._in_view = in_view
            self.panel.prepare(self.shown[row] for row in self.cards.shown_rows())
        self.panel.prepare_one()

    def look(self) -> Hashable:
        card = self.panel_card()
        missing = self.needs.get(card.id, ()) if card is not None else ()
        self.panel.show(card, f"Not playable yet: it needs {needs_text(missing)}." if missing else "")
        return super().look()

    def on_back(self) -> bool:
        from minis.ui.confirm import leave_dialog

        if self.focused is self.search and self.search.clear():  # Escape in the search box empties it
            return True

        self.show_dialog(leave_dialog(self, "The armies built so far are lost (Ctrl+S saves this one)."))
        return True

    def on_command_key(self, symbol: int, modifiers: int) -> bool:
        ctrl = modifiers & arcade.key.MOD_CTRL
        if ctrl and symbol == arcade.key.F:
            self.set_focus(self.search)
        elif ctrl and symbol == arcade.key.L:
            self.load()
        elif ctrl and symbol == arcade.key.S:
            self.save()
        elif symbol == arcade.key.D:
            self.done()
        else:
            return False
        return True
