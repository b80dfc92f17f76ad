"""A stat card on screen: every number of the card and each ability with its description.

Used by the army builder (the highlighted card) and the battle screen (the selected unit).
Nationality colours live here too, because the card panel and the counters on the map share them.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

import pyglet

from minis.base.sides import Side
from minis.cards import Nation, RangeBand, StatCard
from minis.ui import theme
from minis.ui.widgets import Box, Label, Widget, fill, fit_text, outline

#: Counter and card colours by nationality (the colour of the miniatures' bases, roughly).
NATION_COLOUR: dict[Nation, theme.Colour] = {
    Nation.GERMANY: (118, 126, 132, 255),
    Nation.ITALY: (150, 140, 96, 255),
    Nation.JAPAN: (196, 170, 96, 255),
    Nation.UNITED_STATES: (104, 122, 62, 255),
    Nation.UNITED_KINGDOM: (150, 112, 70, 255),
    Nation.SOVIET_UNION: (156, 62, 50, 255),
    Nation.FRANCE: (72, 98, 160, 255),
    Nation.HUNGARY: (120, 132, 96, 255),
    Nation.ROMANIA: (160, 150, 70, 255),
    Nation.FINLAND: (120, 140, 170, 255),
    Nation.SLOVAKIA: (110, 120, 150, 255),
    Nation.CROATIA: (150, 90, 90, 255),
    Nation.BULGARIA: (110, 140, 110, 255),
    Nation.POLAND: (170, 84, 96, 255),
    Nation.CANADA: (140, 100, 64, 255),
    Nation.AUSTRALIA: (160, 122, 78, 255),
    Nation.NEW_ZEALAND: (132, 110, 82, 255),
    Nation.SOUTH_AFRICA: (146, 130, 84, 255),
    Nation.BELGIUM: (150, 126, 60, 255),
    Nation.GREECE: (90, 120, 170, 255),
    Nation.YUGOSLAVIA: (120, 90, 70, 255),
    Nation.CHINA: (90, 110, 130, 255),
}
#: The colour of a card of no nation (depots, obstacles), which either army may take.
NO_NATION_COLOUR: theme.Colour = (128, 128, 120, 255)
#: A side's colour (banners, counter rims): Axis grey-black, Allies pale.
SIDE_COLOUR: dict[Side, theme.Colour] = {
    Side.AXIS: (40, 40, 44, 255),
    Side.ALLIES: (236, 234, 220, 255),
}
#: A side's colour as text on the dark screen.
SIDE_TEXT: dict[Side, theme.Colour] = {
    Side.AXIS: (150, 176, 214, 255),
    Side.ALLIES: (150, 206, 120, 255),
}


def attack_text(value: int | None) -> str:
    return "-" if value is None else str(value)


_BANDS = (RangeBand.SHORT, RangeBand.MEDIUM, RangeBand.LONG)


#: Cards whose laid-out text a panel keeps (the army builder's list is longer: the oldest go first).
KEPT_CARDS = 64


class _Page:
    """One card's labels, laid out once for one width, then only moved (pyglet moves laid-out text
    without laying it out again) and drawn.

    Laying text out is the slow part of showing a card (pyglet measures every glyph, and the ability
    descriptions are long), so switching between units must not do it again. Each ability is its own
    label: a short box shows those that fit, and the wheel scrolls to the others by moving labels.
    """

    def __init__(self, card: StatCard, width: float) -> None:
        #: Every label of the page, drawn in one call (the battle draws the card every frame).
        self.batch = pyglet.graphics.Batch()
        batch = self.batch
        #: The attack table's column heads: in every page's batch, so the card is one draw.
        self.table_head = [
            Label(t, size=theme.SMALL_SIZE, colour=theme.TEXT_DIM, align="center", batch=batch)
            for t in ("", "short", "medium", "long")
        ]
        self.name = Label(card.name, size=theme.TEXT_SIZE + 4, bold=True, colour=theme.ACCENT, batch=batch)
        self.facts = Label("", size=theme.SMALL_SIZE + 1, colour=theme.TEXT_DIM, batch=batch)
        # the side goes first when the line is too long: the nation says it too
        facts: tuple[str, ...] = (
            f"{card.nation_name} · {card.side_name} · {card.year} · {card.type_line}",
            f"{card.nation_name} · {card.year} · {card.type_line}",
        )
        if card.is_aircraft and card.set_name:  # which aircraft are probable conversions (docs/cards.md)
            facts = (f"{facts[0]} · {card.set_name}", f"{facts[1]} · {card.set_name}", *facts)
        fit_text(self.facts, width, *facts)
        # an aircraft's speed is "A" (placed, never moved) and its one defense holds from every side
        self.numbers = Label(
            f"Cost {card.cost}    Speed {card.speed_text}    Defense {card.defense_text}",
            size=theme.TEXT_SIZE + 1,
            bold=True,
            batch=batch,
        )
        self.table = [
            [Label(title, size=theme.TEXT_SIZE, batch=batch)]
            + [
                Label(
                    attack_text(attack.at(band)), size=theme.TEXT_SIZE, align="center", bold=True, batch=batch
                )
                for band in _BANDS
            ]
            for title, attack in (("vs Soldiers", card.vs_soldiers), ("vs Vehicles", card.vs_vehicles))
        ]
        #: One label per ability ("Name: description"), so a short box shows the ones that fit and the
        #: mouse wheel brings the others (`CardPanel.on_mouse_scroll`) without laying text out again.
        self.ability_labels = [
            Label(f"{a.text}: {a.description}", size=theme.SMALL_SIZE + 1, multiline=True, batch=batch)
            for a in card.abilities
        ] or [Label("No special abilities.", size=theme.SMALL_SIZE + 1, multiline=True, batch=batch)]
        #: Each ability's whole text: a box too short for the first one shown cuts it short ("…").
        self.ability_texts = [label.text for label in self.ability_labels]
        self.heights = [label.height_for(width) + 2 for label in self.ability_labels]
        self.more = Label("", size=theme.SMALL_SIZE, colour=theme.TEXT_DIM, batch=batch)
        #: The line about the unit in play under the card (`CardPanel.show`'s `extra`).
        self.status = Label("", size=theme.TEXT_SIZE, multiline=True, colour=theme.ACCENT, batch=batch)
        #: The first ability shown (the wheel moves it), and the abilities shown now.
        self.first = 0
        self.shown: list[Label] = []
        self._area = Box(0, 0, 0, 0)

    def place(self, box: Box, status_height: float) -> None:
        inner = box.inset(12, 10)
        for i, label in enumerate(self.table_head):
            label.place(_column(inner, i, inner.top - 104, 18))
        self.place_status(box, status_height)
        y = inner.top
        self.name.place(Box(inner.left + 16, y - 26, inner.width - 16, 26))
        y -= 30
        self.facts.place(Box(inner.left, y - 20, inner.width, 20))
        y -= 26
        self.numbers.place(Box(inner.left, y - 22, inner.width, 22))
        y -= 50
        for row in self.table:
            for i, label in enumerate(row):
                label.place(_column(inner, i, y - 22, 22))
            y -= 24
        y -= 8
        bottom = inner.bottom + status_height
        self._area = Box(inner.left, bottom, inner.width, max(0, y - bottom))
        self.place_abilities()

    def place_status(self, box: Box, height: float) -> None:
        inner = box.inset(12, 10)
        self.status.place(Box(inner.left, inner.bottom, inner.width, height))

    def place_abilities(self) -> None:
        """Show the abilities from `first` on that fit the area, and a line saying how many more there
        are (the wheel over the card scrolls through them)."""
        area = self._area
        count = len(self.ability_labels)
        self.first = max(0, min(self.first, count - 1))
        line = 18.0
        if area.height < line + 2:  # a short card (a long text above took its room): numbers only
            self.shown = []
            self.more.text = ""
            for label in self.ability_labels:
                label.shown_in_batch(False)
            return
        top = area.top
        self.shown = []
        for index in range(self.first, count):
            height = self.heights[index]
            reserve = line if index < count - 1 or self.first else 0.0  # the "more" line's room
            if self.shown and top - height < area.bottom + reserve:
                break
            label = self.ability_labels[index]
            room = top - area.bottom - reserve
            if not self.shown and height > room > 0:  # the first doesn't fit: cut short, never overlap
                fit_text(label, area.width, self.ability_texts[index], height=room - 2)
                height = room
            elif label.text != self.ability_texts[index]:
                label.text = self.ability_texts[index]
            label.place(Box(area.left, top - height, area.width, height))
            self.shown.append(self.ability_labels[index])
            top -= height
        below = count - self.first - len(self.shown)
        parts = []
        if self.first:
            parts.append(f"{self.first} above")
        if below:
            parts.append(f"{below} more")
        self.more.text = " · ".join(parts) + " (mouse wheel over the card)" if parts else ""
        self.more.place(Box(area.left, max(area.bottom, top - line), area.width, line))
        for label in self.ability_labels:
            label.shown_in_batch(label in self.shown)

    def draw(self) -> None:
        """Every shown label, in one draw."""
        self.batch.draw()

    def scroll(self, step: int) -> bool:
        """Move the shown abilities by `step` (True if that changed what is shown)."""
        below = len(self.ability_labels) - self.first - len(self.shown)
        first = self.first + (min(step, below) if step > 0 else max(step, -self.first))
        if first == self.first:
            return False
        self.first = first
        self.place_abilities()
        return True

    def labels(self) -> list[Label]:
        return [
            *self.table_head,
            self.name,
            self.facts,
            self.numbers,
            *(label for row in self.table for label in row),
            *self.shown,
            *([self.more] if self.more.text else []),
            *([self.status] if self.status.text else []),
        ]


def _column(inner: Box, i: int, bottom: float, height: float) -> Box:
    """The box of column `i` of the attack table (0: the row titles)."""
    col0 = 100
    col = (inner.width - col0) / 3
    left = inner.left if i == 0 else inner.left + col0 + (i - 1) * col
    return Box(left, bottom, col0 if i == 0 else col, height)


class CardPanel(Widget):
    """The card's name, numbers, attack table and abilities, in a framed box.

    Each card's text is laid out once (a `_Page`, kept for the last `KEPT_CARDS` cards and while the
    box keeps its width); showing a card again moves its page into the box and changes the status
    line under it.
    """

    def __init__(self) -> None:
        super().__init__()
        self.card: StatCard | None = None
        self.extra = ""
        self.colour_box = Box(0, 0, 0, 0)
        self._pages: dict[tuple[str, float], _Page] = {}
        self._page: _Page | None = None
        self._no_name = Label("")
        #: How many times a card's text was laid out (tests check that it happens once per card).
        self.layouts = 0
        self._waiting: list[StatCard] = []
        #: Draw the card over the kept picture instead of in it (`draw_dynamic`): a panel that follows
        #: the mouse (the battle's hovered unit) then costs no new picture. Only while nothing (a
        #: dialog) is drawn over the panel.
        self.dynamic = False

    def prepare(self, cards: Iterable[StatCard]) -> None:
        """Cards likely to be shown soon (the units of a battle): `prepare_one` lays them out ahead."""
        self._waiting = list({card.id: card for card in cards}.values())[:KEPT_CARDS]

    def prepare_one(self) -> bool:
        """Lay out the next prepared card's page (call it while the window is idle: it takes a few
        milliseconds); False when there is nothing left to do."""
        while self._waiting and self.box.width > 0:
            card = self._waiting.pop(0)
            if (card.id, self._inner_width) not in self._pages:
                self._page_for(card)
                return True
        return False

    @property
    def _inner_width(self) -> float:
        return self.box.inset(12, 10).width

    @property
    def name(self) -> Label:
        """The shown card's name (an empty label when no card is shown)."""
        return self._page.name if self._page is not None else self._no_name

    def show(self, card: StatCard | None, extra: str = "") -> None:
        """Show a card (None: nothing); `extra` is a line about the unit in play (its hex, its counters)."""
        if card is self.card and extra == self.extra:
            return
        self.card = card
        self.extra = extra
        self._page = self._page_for(card)

    def _status_height(self) -> float:
        return 24 * max(1, len(self.extra) // 40 + 1) if self.extra else 0

    def _page_for(self, card: StatCard | None) -> _Page | None:
        """The card's page, laid out the first time it is needed, placed in the current box."""
        if card is None or self.box.width <= 0:
            return None
        width = self._inner_width
        key = (card.id, width)
        page = self._pages.pop(key, None)
        if page is None:
            self.layouts += 1
            page = _Page(card, width)
            while len(self._pages) >= KEPT_CARDS:
                del self._pages[next(iter(self._pages))]
        self._pages[key] = page  # the most recently shown last
        page.status.text = self.extra
        page.place(self.box, self._status_height())
        return page

    def look(self) -> Hashable:
        first = self._page.first if self._page is not None else 0
        if self.dynamic:
            return (super().look(), True)
        return (super().look(), self.card.id if self.card else None, self.extra, first)

    def on_mouse_scroll(self, x: float, y: float, scroll_y: float) -> bool:
        """The wheel over the card brings abilities that don't fit into view."""
        if self._page is None or not self.visible or not self.box.contains(x, y) or not scroll_y:
            return False
        self._page.scroll(-1 if scroll_y > 0 else 1)
        return True

    def place(self, box: Box) -> None:
        if box.width != self.box.width:
            self._pages.clear()  # laid out for another width
        super().place(box)
        inner = box.inset(12, 10)
        self.colour_box = Box(inner.left, inner.top - 26, 8, 26)
        self._page = self._page_for(self.card)

    def parts(self) -> Sequence[Widget]:
        """The shown card's labels (not the pages kept for other cards)."""
        if self.card is None or self._page is None:
            return []
        return self._page.labels()

    def draw(self) -> None:
        if not self.visible:
            return
        fill(self.box, theme.PANEL)
        outline(self.box, theme.PANEL_BORDER)
        if not self.dynamic:
            self._draw_card()

    def draw_dynamic(self) -> None:
        if self.dynamic and self.visible:
            self._draw_card()

    def _draw_card(self) -> None:
        if self.card is None or self._page is None:
            return
        nation = self.card.nation
        fill(self.colour_box, NATION_COLOUR[nation] if nation is not None else NO_NATION_COLOUR)
        self._page.draw()  # the column heads, the card and its status line: one batch
