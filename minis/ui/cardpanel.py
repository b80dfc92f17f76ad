"""A stat card on screen: every number of the card and each ability with its description.

Used by the army builder (the highlighted card) and the battle screen (the selected unit).
Nationality colours live here too, because the card panel and the counters on the map share them.
"""

from __future__ import annotations

from collections.abc import Hashable

from minis.cards import Nation, RangeBand, StatCard
from minis.sides import Side
from minis.ui import theme
from minis.ui.widgets import Box, Label, Widget, fill, outline

#: Counter and card colours by nationality (the colour of the miniatures' bases, roughly).
NATION_COLOUR: dict[Nation, theme.Colour] = {
    Nation.GERMANY: (118, 126, 132, 255),
    Nation.ITALY: (150, 140, 96, 255),
    Nation.JAPAN: (196, 170, 96, 255),
    Nation.UNITED_STATES: (104, 122, 62, 255),
    Nation.UNITED_KINGDOM: (150, 112, 70, 255),
    Nation.SOVIET_UNION: (156, 62, 50, 255),
    Nation.FRANCE: (72, 98, 160, 255),
}
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


class CardPanel(Widget):
    """The card's name, numbers, attack table and abilities, in a framed box."""

    def __init__(self) -> None:
        super().__init__()
        self.card: StatCard | None = None
        self.extra = ""
        self.name = Label("", size=theme.TEXT_SIZE + 4, bold=True, colour=theme.ACCENT)
        self.facts = Label("", size=theme.SMALL_SIZE + 1, colour=theme.TEXT_DIM)
        self.numbers = Label("", size=theme.TEXT_SIZE + 1, bold=True)
        self.table_head = [
            Label(t, size=theme.SMALL_SIZE, colour=theme.TEXT_DIM, align="center")
            for t in ("", "short", "medium", "long")
        ]
        self.table = [
            [Label("", size=theme.TEXT_SIZE, align="center" if i else "left", bold=bool(i)) for i in range(4)]
            for _ in range(2)
        ]
        self.abilities = Label("", size=theme.SMALL_SIZE + 1, multiline=True)
        self.status = Label("", size=theme.TEXT_SIZE, multiline=True, colour=theme.ACCENT)
        self.colour_box = Box(0, 0, 0, 0)

    def show(self, card: StatCard | None, extra: str = "") -> None:
        """Show a card (None: nothing); `extra` is a line about the unit in play (its hex, its counters)."""
        if card is self.card and extra == self.extra:
            return
        self.card = card
        self.extra = extra
        if card is None:
            for label in (self.name, self.facts, self.numbers, self.abilities, self.status):
                label.text = ""
            return
        self.name.text = card.name
        self.facts.text = f"{card.nation.value} · {card.side.title} · {card.year} · {card.type_line}"
        self.numbers.text = f"Cost {card.cost}    Speed {card.speed}    Defense {card.defense_text}"
        for row, (title, attack) in enumerate(
            (("vs Soldiers", card.vs_soldiers), ("vs Vehicles", card.vs_vehicles))
        ):
            self.table[row][0].text = title
            for col, band in enumerate(_BANDS, start=1):
                self.table[row][col].text = attack_text(attack.at(band))
        self.status.text = extra
        self.place(self.box)

    def _ability_text(self, width: float, height: float) -> None:
        """Each ability with its description; only the names when the box is too small for more."""
        card = self.card
        if card is None:
            self.abilities.text = ""
            return
        if not card.abilities:
            self.abilities.text = "No special abilities."
            return
        self.abilities.text = "\n".join(f"{a.text}: {a.description}" for a in card.abilities)
        if self.abilities.height_for(width) > height:
            self.abilities.text = "Abilities: " + ", ".join(a.text for a in card.abilities)

    def look(self) -> Hashable:
        return (super().look(), self.card.id if self.card else None, self.extra)

    def place(self, box: Box) -> None:
        super().place(box)
        inner = box.inset(12, 10)
        y = inner.top
        self.colour_box = Box(inner.left, y - 26, 8, 26)
        self.name.place(Box(inner.left + 16, y - 26, inner.width - 16, 26))
        y -= 30
        self.facts.place(Box(inner.left, y - 20, inner.width, 20))
        y -= 26
        self.numbers.place(Box(inner.left, y - 22, inner.width, 22))
        y -= 30
        col0 = 100
        col = (inner.width - col0) / 3
        for i, label in enumerate(self.table_head):
            left = inner.left if i == 0 else inner.left + col0 + (i - 1) * col
            label.place(Box(left, y - 18, col0 if i == 0 else col, 18))
        y -= 20
        for row in self.table:
            for i, label in enumerate(row):
                left = inner.left if i == 0 else inner.left + col0 + (i - 1) * col
                label.place(Box(left, y - 22, col0 if i == 0 else col, 22))
            y -= 24
        y -= 8
        status_height = 24 * max(1, len(self.extra) // 40 + 1) if self.extra else 0
        self.status.place(Box(inner.left, inner.bottom, inner.width, status_height))
        room = max(0, y - inner.bottom - status_height)
        self._ability_text(inner.width, room)
        self.abilities.place(Box(inner.left, inner.bottom + status_height, inner.width, room))

    def draw(self) -> None:
        if not self.visible:
            return
        fill(self.box, theme.PANEL)
        outline(self.box, theme.PANEL_BORDER)
        if self.card is None:
            return
        fill(self.colour_box, NATION_COLOUR[self.card.nation])
        for label in (self.name, self.facts, self.numbers, *self.table_head, self.abilities):
            label.draw()
        for row in self.table:
            for label in row:
                label.draw()
        if self.extra:
            self.status.draw()
