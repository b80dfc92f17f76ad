"""The aircraft tray beside the battle map: each side's aircraft, where each one is, and a way to pick one.

Aircraft are never deployed: between turns they wait off the map, and in their flight phase a player
puts them over hexes. The tray is where they wait at the table. Each side has a heading in its colour
and a row an aircraft: a button with its name (a click asks the controller to select it, which it does
only if it may fly now, and otherwise says why in plain words) and a line under it that says where it
is ("ready to fly", "over C4", "disrupted: grounded this turn"); a destroyed aircraft's row is greyed.

The rows are the controller's (`minis.ui.aircraft.AircraftChoices.tray`, which also keeps the other
army's aircraft secret until both armies are on the map); this widget only lays them out and draws them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from minis.ui import theme
from minis.ui.aircraft import TraySide
from minis.ui.cardpanel import SIDE_TEXT
from minis.ui.widgets import Box, Button, Label, Widget, fill, fit_text, outline

#: The tray's width beside the map, and the height of one aircraft's row (button and line).
WIDTH = 196
ROW_HEIGHT = 44
HEADING_HEIGHT = 24
#: The dimmed colour of a destroyed aircraft's line.
GREYED: theme.Colour = (120, 120, 126, 255)
#: The colour of a grounded (disrupted) aircraft's line.
GROUNDED: theme.Colour = (250, 206, 40, 255)


class AirTray(Widget):
    """Each side's aircraft off (and over) the map, one button a row; a click picks the aircraft."""

    def __init__(self, on_pick: Callable[[str], object]) -> None:
        super().__init__()
        self.on_pick = on_pick
        self.title = Label("Aircraft", size=theme.SMALL_SIZE + 1, bold=True, colour=theme.TEXT_DIM)
        self.headings: list[Label] = []
        self.buttons: list[Button] = []
        self.lines: list[Label] = []
        self.sides: tuple[TraySide, ...] = ()
        #: The unit of each button, in order.
        self.units: list[str] = []

    def set_sides(self, sides: tuple[TraySide, ...]) -> None:
        """The rows to show (laid out again only when they change)."""
        if sides == self.sides:
            return
        self.sides = sides
        self.headings, self.buttons, self.lines, self.units = [], [], [], []
        for group in sides:
            self.headings.append(
                Label(
                    f"{group.side.title}", size=theme.SMALL_SIZE + 1, bold=True, colour=SIDE_TEXT[group.side]
                )
            )
            for row in group.rows:
                button = Button(row.name, _picking(self.on_pick, row.unit), size=theme.SMALL_SIZE)
                button.enabled = not row.greyed
                button.selected = row.selected
                self.buttons.append(button)
                colour = GREYED if row.greyed else GROUNDED if "disrupted" in row.status else theme.TEXT_DIM
                self.lines.append(Label(row.status, size=theme.SMALL_SIZE - 1, colour=colour))
                self.units.append(row.unit)
        self.place(self.box)

    def button_of(self, unit_id: str) -> Button | None:
        """The row's button of an aircraft (tests click it)."""
        return self.buttons[self.units.index(unit_id)] if unit_id in self.units else None

    def place(self, box: Box) -> None:
        super().place(box)
        inner = box.inset(6, 4)
        y = inner.top
        self.title.place(Box(inner.left, y - HEADING_HEIGHT, inner.width, HEADING_HEIGHT))
        y -= HEADING_HEIGHT
        index = 0
        for group, heading in zip(self.sides, self.headings, strict=True):
            heading.place(Box(inner.left, y - HEADING_HEIGHT, inner.width, HEADING_HEIGHT))
            y -= HEADING_HEIGHT
            for _ in group.rows:
                button, line = self.buttons[index], self.lines[index]
                shown = y - ROW_HEIGHT >= inner.bottom
                button.visible = line.visible = shown
                button.place(Box(inner.left, y - 24, inner.width, 24))
                fit_text(button.label, inner.width - 8, self.sides_name(index))
                line.place(Box(inner.left + 4, y - ROW_HEIGHT + 9, inner.width - 4, 16))
                fit_text(line, inner.width - 6, self.status_of(index))
                y -= ROW_HEIGHT
                index += 1
            y -= 4

    def sides_name(self, index: int) -> str:
        return [row.name for group in self.sides for row in group.rows][index]

    def status_of(self, index: int) -> str:
        return [row.status for group in self.sides for row in group.rows][index]

    def parts(self) -> Sequence[Widget]:
        return [self.title, *self.headings, *self.buttons, *self.lines]

    def look(self) -> Hashable:
        return (super().look(), self.sides, tuple(w.look() for w in self.parts()))

    def draw(self) -> None:
        if not self.visible or self.box.width <= 0:
            return
        fill(self.box, theme.BAR)
        outline(self.box, theme.PANEL_BORDER)
        for widget in self.parts():
            if widget.visible:
                widget.draw()

    def on_mouse_motion(self, x: float, y: float) -> bool:
        for button in self.buttons:
            button.on_mouse_motion(x, y)
        return False

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if not self.visible:
            return False
        return any(b.visible and b.on_mouse_press(x, y, button, modifiers) for b in self.buttons)

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        return any(b.on_mouse_release(x, y, button, modifiers) for b in self.buttons)


def _picking(on_pick: Callable[[str], object], unit_id: str) -> Callable[[], object]:
    return lambda: on_pick(unit_id)
